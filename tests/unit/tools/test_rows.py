"""Rows: every compact row reads back as what was written (the grammar in docs/contract.md)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from codenav.store.read import Node
from codenav.tools.rows import (
    MODULE,
    bare_signature,
    node_row,
    outline_row,
    parameter_list,
    parse_node_row,
    parse_ref_row,
    parse_related_row,
    ref_row,
    related_row,
    short_signature,
)

NAMES = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,12}", fullmatch=True)
PATHS = st.from_regex(r"[a-z][a-z0-9_/ .-]{0,30}\.py", fullmatch=True)
ODD_PATHS = st.from_regex(r"[a-z][a-z0-9_/ .:#-]{0,30}\.py", fullmatch=True)  # : and #
CODE = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\n"),
               max_size=80)


def make_node(path: str, qname: str, kind: str, line: int, end: int, signature: str,
              lang: str = "py") -> Node:
    return Node(1, f"{lang}:{path}#{qname}", 1, path, lang, 0, kind, qname.rsplit(".", 1)[-1],
                qname, line, 1, end, 1, line, 5, 9, 0, 10, signature, None, 0.5, None)


@given(path=PATHS, names=st.lists(NAMES, min_size=1, max_size=3),
       kind=st.sampled_from(["class", "method", "function", "field"]),
       line=st.integers(1, 10**6), length=st.integers(0, 500), signature=CODE,
       level=st.integers(1, 9))
def test_a_node_row_reads_back(path: str, names: list[str], kind: str, line: int,
                               length: int, signature: str, level: int) -> None:
    node = make_node(path, ".".join(names), kind, line, line + length, signature)
    parsed = parse_node_row(node_row(node, notes={"level": level}))
    assert (parsed.id, parsed.kind, parsed.line, parsed.end_line) == (
        node.nid, kind, line, line + length)
    assert parsed.notes == {"level": str(level)}
    # the signature without the name the row shows (a signature that is only the name: none)
    assert parsed.signature == (short_signature(signature, name=names[-1]) or None)


@given(path=ODD_PATHS, names=st.lists(NAMES, min_size=1, max_size=3),
       lang=st.sampled_from(["py", "ts", "c++"]), symbol_lang=st.sampled_from(["py", "ts"]),
       kind=st.sampled_from(["class", "interface", "struct"]),
       symbol_kind=st.sampled_from(["class", "interface"]), line=st.integers(1, 10**6),
       signature=CODE, level=st.integers(1, 9))
def test_a_related_row_reads_back_made_whole_from_the_symbol_row(
        path: str, names: list[str], lang: str, symbol_lang: str, kind: str,
        symbol_kind: str, line: int, signature: str, level: int) -> None:
    node = make_node(path, ".".join(names), kind, line, line + 30, signature, lang)
    symbol = make_node("base.py", "Base", symbol_kind, 1, 9, "class Base", symbol_lang)
    notes = {"level": level} if level > 1 else None
    row = related_row(node, symbol, signature=True, notes=notes)
    parsed = parse_related_row(row, node_row(symbol, signature=False))
    assert (parsed.id, parsed.kind, parsed.line, parsed.end_line) == (node.nid, kind, line, line)
    assert parsed.notes == ({"level": str(level)} if notes else {})
    assert parsed.signature == (short_signature(signature, name=names[-1]) or None)
    # what the symbol row says is left out: its language (unless the path has a colon)
    # and its kind
    assert row.startswith(node.nid if lang != symbol_lang or ":" in path else
                          node.nid.split(":", 1)[1])
    tail = f" {line}" + (f" level:{level}" if notes else "")
    assert row.split(" | ", 1)[0].endswith(f" {kind}{tail}" if kind != symbol_kind else
                                           f"{names[-1]}{tail}")


def test_related_rows_of_a_subclass_list() -> None:
    base = make_node("rich/progress.py", "ProgressColumn", "class", 507, 546,
                     "class ProgressColumn(JupyterMixin, ABC)")
    text = make_node("rich/progress.py", "TextColumn", "class", 616, 643,
                     "class TextColumn(ProgressColumn)")
    task = make_node("rich/progress.py", "TaskProgressColumn", "class", 700, 769,
                     "class TaskProgressColumn(TextColumn)")
    assert related_row(text, base, signature=False) == "rich/progress.py#TextColumn 616"
    assert related_row(task, base, notes={"level": 2}) == \
        "rich/progress.py#TaskProgressColumn 700 level:2 | (TextColumn)"
    other = make_node("web/col.tsx", "Col", "interface", 3, 9, "interface Col", "tsx")
    assert related_row(other, base) == "tsx:web/col.tsx#Col interface 3"
    with pytest.raises(ValueError, match="no language"):  # nothing to make it whole from
        parse_related_row("rich/progress.py#TextColumn 616", "ProgressColumn")
    assert parse_related_row("tsx:web/col.tsx#Col interface 3", "Col").id == "tsx:web/col.tsx#Col"


@given(line=st.integers(1, 10**6), col=st.integers(1, 10**4),
       kind=st.sampled_from(["call", "import", "attribute", "name"]),
       scope=st.one_of(st.just(MODULE), NAMES.map(lambda n: f"Class.{n}")),
       code=st.one_of(st.none(), CODE), name=NAMES)
def test_a_reference_row_reads_back(line: int, col: int, kind: str, scope: str,
                                    code: str | None, name: str) -> None:
    row = ref_row(line, col, kind, scope, code, name, common_kind="call")
    parsed = parse_ref_row(row)
    assert parsed.line == line and parsed.scope == scope and parsed.code == code
    assert parsed.kind == (None if kind == "call" else kind)
    # The column is left out only where the code line shows the name once.
    assert parsed.col == (None if code is not None and code.count(name) == 1 else col)


def test_outline_rows_show_nesting_spans_and_the_name_of_a_second_definition() -> None:
    node = make_node("a.py", "Table.padding~2", "property", 359, 362, "def padding(self, p)")
    node = node._replace(name="padding", qname="Table.padding")  # the key keeps ~2
    assert outline_row(node, 1, True) == "  359-362 property padding~2 | (self, p)"
    assert outline_row(node, 1, False, end=False) == "  359 property padding~2"
    long = make_node("a.py", "f", "function", 3, 3, "def f(" + "x, " * 100 + ")")
    row = outline_row(long, 0, True)
    assert row.startswith("3 function f | (x, ") and row.endswith("…")
    assert len(row.split(" | ", 1)[1]) == 100


@pytest.mark.parametrize(("signature", "name", "bare"), [
    ("def end_capture(self) -> str", "end_capture", "(self) -> str"),
    ("async def fetch(url)", "fetch", "async (url)"),
    ("class SpinnerColumn(ProgressColumn)", "SpinnerColumn", "(ProgressColumn)"),
    ("class Console", "Console", ""),
    ("export function pop<T>(args: T[]): T", "pop", "export <T>(args: T[]): T"),
    ("protected _throwIfClosed()", "_throwIfClosed", "protected ()"),
    ("static create: (...args: any[]) => any", "create", "static (...args: any[]) => any"),
    ("RATE = 0.2", "RATE", "= 0.2"),
    ("public static int size(int x)", "size", "public static int (int x)"),
    ("self.cents = cents", "cents", "self.cents = cents"),  # not a declaration's head
    ("x = make(1)", "make", "x = make(1)"),
    # an arrow function keeps what is between = and =>, like def f(x) keeps (x)
    ("const advanceFrameBy = (count: number) =>", "advanceFrameBy", "(count: number)"),
    ("export const create = async <T>(url: string): Promise<T> =>", "create",
     "export async <T>(url: string): Promise<T>"),
    ("handler = (e) => void", "handler", "= (e) => void"),  # a type, not an arrow function
    # a function expression keeps its parameters on (rrule's `const datetime = function (`)
    ("export const datetime = function (y: number, h = 0)", "datetime",
     "export (y: number, h = 0)"),
    ("const run = async function* named(x): T", "run", "async (x): T"),
])
def test_a_row_leaves_out_the_keyword_and_the_name_it_already_shows(
        signature: str, name: str, bare: str) -> None:
    assert bare_signature(signature, name) == bare
    node = make_node("a.py", name, "function", 3, 4, signature)._replace(name=name)
    row = node_row(node)
    assert row.endswith(f" | {bare}" if bare else " 3-4")
    assert parse_node_row(row).signature == (bare or None)


def test_a_files_own_node_has_no_lines() -> None:
    node = make_node("src/a b.py", "x", "module", 1, 480, "")
    node = node._replace(nid="py:src/a b.py")
    row = node_row(node, notes={"at": 3})
    assert row == "py:src/a b.py module at:3"
    parsed = parse_node_row(row)
    assert (parsed.id, parsed.kind, parsed.notes) == ("py:src/a b.py", "module", {"at": "3"})


@pytest.mark.parametrize(("signature", "listed"), [
    ("(self, product: Product, qty=1) -> \"Order\"", "(self, product, qty=1)"),
    ("(text: string | Button.Common, data = typeof text === \"string\" ? text : text.text)",
     "(text, data = typeof text === \"string…)"),
    ("static (text: string, options?: Omit<Opts, \"a\" | \"b\">): Button",
     "static (text, options?)"),
    ("public async ({ username, password, skipUserInfo = false }: Args): Promise<User>",
     "public async ({ username, password, skipUserInfo = false })"),
    ("(cb: (err: Error, n: number) => void = () => {}, ...rest: Map<K, V>[])",
     "(cb = () => {}, ...rest)"),
    ("(*args, key: str = \"a,b\", **kwargs: Any)", "(*args, key = \"a,b\", **kwargs)"),
    ("(base)", "(base)"),
    ("extends Base<T>", "extends Base<T>"),
    ("(unclosed: string, ", "(unclosed: string, "),
    # (the review's: generics holding an arrow, `>` in a default, `)` in a string, a lambda)
    ("<T extends (...args: any[]) => void>(fn: T, wait: number)",
     "<T extends (...args: any[]) => void>(fn, wait)"),
    ("(x, lo = 0, hi = x > 10 ? 10 : x)", "(x, lo = 0, hi = x > 10 ? 10 : x)"),
    ("(text: string, sep = \")\", limit = 2)", "(text, sep = \")\", limit = 2)"),
    ("(items, pred=lambda x: x > 0, limit=10)", "(items, pred=lambda x: x > 0, limit=10)"),
    ("(m: Map<K, V>, n: number)", "(m, n)"),
    # (grammY's Api: a generic opened with a space, its line break made one)
    ("(chat_id: number, other?: Other< \"forward\", \"chat_id\" | \"id\" >, signal?: S)",
     "(chat_id, other?, signal?)"),
    ("[Symbol.for(\"x\")](depth: number, inspect: (v: unknown) => string): any",
     "[Symbol.for(\"x\")](depth, inspect)"),
])
def test_an_outline_row_lists_parameters_by_name(signature: str, listed: str) -> None:
    # grammY's keyboard.ts outline: 6.8 KB of types and defaults for 70 methods (run 40)
    assert parameter_list(signature) == listed


def test_a_python_hover_loses_only_the_types_inferred_for_unannotated_parameters() -> None:
    # gunicorn (run 43): `default: str = "…"` for `default="…"`; the review's: a docstring's
    # "key: value", a string default holding "name:", a lambda default's parameter
    from codenav.tools.nav_tools import _as_annotated

    node = make_node("u.py", "load", "function", 1, 9,
                     'def load(uri, key, template="name: {name}", '
                     "fn: Callable[[int], int] = lambda x: x + 1)")
    hover = ('```python\n(function) def load(\n    uri: str,\n    key: str,\n'
             '    template: str = "name: {name}",\n    fn: (int) -> int = lambda x: x + 1\n'
             ') -> int\n```\n---\nLook key up: key: value pairs.')
    assert _as_annotated(node, hover) == (
        '```python\n(function) def load(\n    uri,\n    key,\n'
        '    template="name: {name}",\n    fn: (int) -> int = lambda x: x + 1\n'
        ') -> int\n```\n---\nLook key up: key: value pairs.')
    # defaults spaced as written (kombu's `hostname='localhost'`, websockets' `2**20`,
    # hovered as `hostname = 'localhost'`, `2 ** 20`: runs 54-55 read the source again)
    # and a default the server cut short (pexpect's `password_regex`, run 56)
    node = make_node("c.py", "connect", "function", 1, 3,
                     "def connect(hostname='localhost', *, max_size: int | None=2**20, "
                     "regex=r'(?i)(?:password:)|(?:passphrase for key)', rest='a', "
                     "**kwargs)")
    hover = ("```python\n(function) def connect(\n    hostname = 'localhost',\n    *,\n"
             "    max_size: int | None = 2 ** 20,\n"
             "    regex = r'(?i)(?:password:)|(?:passphrase ',\n    rest = 'b',\n"
             "    **kwargs\n) -> None\n```")
    assert _as_annotated(node, hover) == (
        "```python\n(function) def connect(\n    hostname='localhost',\n    *,\n"
        "    max_size: int | None=2**20,\n"
        "    regex=r'(?i)(?:password:)|(?:passphrase for key)',\n    rest = 'b',\n"
        "    **kwargs\n) -> None\n```")
    # only a string is cut short: a number or a name that starts the map's is not (the
    # review: `n = 1` became `n=10`, from a map older than the file)
    from codenav.tools.nav_tools import _as_written
    assert _as_written("n = 1, flag = True, s = 'a'", ["n=10", "flag=True_x", "s='ab'"]) == \
        "n = 1, flag = True, s = 'a'"
