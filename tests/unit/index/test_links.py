"""Linking across files, checked where it is written and as a whole.

The trees under ``tests/fixtures/refs/`` and the sample repositories named in ``REPOS`` (under
``tests/fixtures/repos/``) carry their expectations as comments under the code they check
(stack-graphs style), so a link is read next to the code that makes it::

    cmd := &Command{Short: "x"}
    //              ^ ref: Command.Short

The caret points at a column of the nearest line above that is not itself an assertion;
``<-`` instead of ``^`` points at the column where the comment itself starts (for a name in
column 1 or 2, where no caret fits after the comment token). The comment token is the
language's: ``//``, ``#``, ``--`` or ``;``, or ``/* … */`` and, inside JSX, ``{/* … */}``.

``ref: X`` — one reference starts there, by the name written at the caret, and the map links
it to the node whose key (the part of its id after ``#``), id without its language, or whole id
is ``X`` (the sample repositories' assertions name whole ids: a key alone could be a node of
another file, or of another language). ``ref: X (kind)`` — and it is a reference of that kind
(``call``, ``import``, ``attribute``, …). ``ref: -`` — whatever starts there links to no node
(``ref: - (kind)``: a reference of that kind starts there, and links to none). ``def: X`` — the
name of node ``X`` starts there. ``inactive`` — a reference starts there, in lines the map
decided are compiled out (``regions``; ``active``: not so decided); ``ref: X`` holds there too (a
compiled-out use still names its symbol).

Why a line is checked is said after the assertion, behind ``--``::

    registry.add(new Admin(1, "ada"))
    //               ^ ref: ts:src/app/models.ts#Admin (call) -- a named import through `export *`

so the note stays with its assertion (a line above the code would become the code checked, or
the doc of the definition below it) and is shown when it fails. Each assertion is one test,
named by its file and line, so a wrong or missing link fails at the line that shows it.

Each repository's links are also held whole by a golden (``<name>.links.golden``, rewritten with
``UPDATE_GOLDEN=1``): the inline assertions say what matters, the golden that nothing else
moved. Every tree is indexed once per session, for both.
"""

from __future__ import annotations

import re
import shutil
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import pytest

from codenav.index.pipeline import index_tree
from tests.conftest import FIXTURES, check_golden, indexed_repo, render_links, write_tree

# The sample repositories whose links are a golden; shop's files carry no assertions (their
# lines are named by the tools' golden and by many other tests).
REPOS = ("cfamily", "gorust", "jvmnet", "rubyphp", "shop", "web")
GOLDEN_ONLY = {"repos/shop"}
CASES = [*(f"refs/{p.name}" for p in sorted((FIXTURES / "refs").iterdir()) if p.is_dir()),
         *(f"repos/{name}" for name in REPOS)]

_ASSERTION = re.compile(r"^\s*(?P<token>//|#|--|;|\{/\*|/\*)\s*(?P<mark>\^|<-)\s*"
                        r"(?P<what>ref:|def:|inactive\b|active\b)(?P<rest>.*)$")
_CLOSE = {"/*": "*/", "{/*": "*/}"}
_REST = re.compile(r"\s*(?:(?P<expected>(?!--)\S+)\s*)?(?:\((?P<kind>\w+)\)\s*)?"
                   r"(?:--\s+(?P<note>.*))?")


@dataclass(frozen=True)
class Assertion:
    case: str  # the tree under FIXTURES: "refs/go", "repos/web"
    path: str  # repo-relative
    line: int  # 1-based, of the code checked
    col: int  # 1-based
    what: str  # "ref", "def", "inactive" or "active"
    expected: str
    kind: str | None  # the reference's kind, when the assertion names one
    note: str  # why the line is checked
    at: int  # the assertion's own line, for the test's name
    code: str  # the code line checked

    def __str__(self) -> str:
        kind = f" ({self.kind})" if self.kind else ""
        return f"{self.case}/{self.path}:{self.at} {self.what} {self.expected}{kind}".rstrip()


def _parse(case: str, file: Path, number: int, text: str, match: re.Match[str],
           code_line: int, code: str) -> Assertion:
    where = f"{file}:{number}"
    rest = match.group("rest")
    close = _CLOSE.get(match.group("token"))
    if close is not None:
        assert rest.rstrip().endswith(close), f"{where}: no {close} closing the assertion"
        rest = rest.rstrip()[: -len(close)]
    parts = _REST.fullmatch(rest.rstrip())
    assert parts is not None, f"{where}: not an assertion: {text.strip()}"
    what = match.group("what").rstrip(":")
    expected, kind = parts.group("expected") or "", parts.group("kind")
    if what in ("ref", "def"):
        assert expected, f"{where}: {what}: names nothing"
    else:
        assert not expected, f"{where}: {what} takes no value"
    assert kind is None or what == "ref", f"{where}: only ref: takes a kind"
    col = match.start("token" if match.group("mark") == "<-" else "mark") + 1
    return Assertion(case, file.relative_to(FIXTURES / case).as_posix(), code_line, col, what,
                     expected, kind, parts.group("note") or "", number, code)


def _assertions() -> list[Assertion]:
    out: list[Assertion] = []
    for case in CASES:
        for file in sorted(p for p in (FIXTURES / case).rglob("*") if p.is_file()):
            try:
                lines = file.read_text("utf-8").splitlines()
            except UnicodeDecodeError:
                continue
            code_line = 0
            for number, text in enumerate(lines, 1):
                match = _ASSERTION.match(text)
                if match is None:
                    code_line = number
                    continue
                assert code_line, f"{file}:{number}: an assertion with no code above it"
                out.append(_parse(case, file, number, text, match, code_line,
                                  lines[code_line - 1]))
    return out


ASSERTIONS = _assertions()
_ROOTS: dict[str, Path] = {}  # each case indexed once, when first asked about


def _root_of(case: str, tmp: pytest.TempPathFactory) -> Path:
    """A copy of the case's tree, indexed."""
    if case not in _ROOTS:
        root = tmp.mktemp(case.replace("/", "-")) / Path(case).name
        shutil.copytree(FIXTURES / case, root)
        index_tree(root)
        _ROOTS[case] = root
    return _ROOTS[case]


def _links(name: str, tmp: pytest.TempPathFactory) -> str:
    """The golden's text for the sample repository ``name``."""
    return render_links(_root_of(f"repos/{name}", tmp))


@dataclass(frozen=True)
class Ref:
    name: str
    kind: str
    target: str | None  # the id of the node linked to
    key: str | None
    inactive: bool


def _found(db: Path, a: Assertion) -> tuple[list[Ref], list[str]]:
    """The references starting at the assertion's position and the ids of nodes named
    there."""
    conn = sqlite3.connect(db)
    try:
        refs = [Ref(name, kind, nid, key, bool(out)) for name, kind, nid, key, out in conn.execute(
            "SELECT r.name, r.kind, t.nid, r.key, EXISTS (SELECT 1 FROM regions g WHERE "
            "g.file_id = r.file_id AND g.active = 0 AND r.line BETWEEN g.line AND g.end_line) "
            "FROM refs r JOIN files f ON f.id = r.file_id "
            "LEFT JOIN nodes t ON t.id = r.target_id "
            "WHERE f.path = ? AND r.line = ? AND r.col = ?", (a.path, a.line, a.col))]
        nodes = [nid for (nid,) in conn.execute(
            "SELECT n.nid FROM nodes n JOIN files f ON f.id = n.file_id WHERE f.path = ? "
            "AND n.name_line = ? AND n.name_col = ?", (a.path, a.line, a.col))]
    finally:
        conn.close()
    return refs, nodes


def _names(expected: str, nid: str) -> bool:
    return nid in (expected, f"{nid.split(':', 1)[0]}:{expected}") or \
        nid.endswith(f"#{expected}")


@pytest.mark.parametrize("a", ASSERTIONS, ids=str)
def test_reference(a: Assertion, tmp_path_factory: pytest.TempPathFactory) -> None:
    refs, nodes = _found(_root_of(a.case, tmp_path_factory) / ".codenav" / "map.db", a)
    written = a.code[a.col - 1:]
    shown = (f" -- {a.note}" if a.note else "") + \
        (f"\n  {a.path}:{a.line}: {a.code.strip()}\n  col {a.col}: "
         f"{written.split()[0] if written.strip() else '?'}\n"
         f"  references there: {refs or 'none'}; nodes named there: {nodes or 'none'}")
    if a.what == "def":
        assert any(_names(a.expected, nid) for nid in nodes), f"no node {a.expected}" + shown
    elif a.what == "inactive":
        assert refs and all(r.inactive for r in refs), "not decided compiled out" + shown
    elif a.what == "active":
        assert refs and not any(r.inactive for r in refs), "decided compiled out" + shown
    elif a.expected == "-":
        if a.kind:
            refs = [r for r in refs if r.kind == a.kind]
            assert refs, f"no {a.kind} reference there" + shown
        assert not any(r.target for r in refs), "a link where none belongs" + shown
    else:
        assert len(refs) == 1, f"{len(refs)} references there, not one to {a.expected}" + shown
        (ref,) = refs
        assert ref.target and _names(a.expected, ref.target), \
            f"a link to {ref.target or 'nothing'}, not to {a.expected}" + shown
        assert written.startswith(ref.name), \
            f"a link to {a.expected}, but by {ref.name}, not the name written there" + shown
        assert a.kind in (None, ref.kind), \
            f"a link to {a.expected}, but of kind {ref.kind}, not {a.kind}" + shown


def test_every_case_has_assertions() -> None:
    assert set(CASES) - GOLDEN_ONLY == {a.case for a in ASSERTIONS}


@pytest.mark.parametrize("name", REPOS)
def test_links_golden(name: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    check_golden(FIXTURES / "repos" / f"{name}.links.golden", _links(name, tmp_path_factory))


@pytest.mark.parametrize("name", REPOS)
def test_lines_of_the_golden_are_real_positions(
        name: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Every linked position names the identifier at that place in the source."""
    root = FIXTURES / "repos" / name
    for row in _links(name, tmp_path_factory).splitlines():
        where, ref = row.split(" ")[:2]
        path, line, col = where.rsplit(":", 2)
        text = (root / path).read_text().splitlines()[int(line) - 1]
        assert text[int(col) - 1 :].startswith(ref), row


def _at(root: Path, path: str, code: str) -> tuple[int, int]:
    """Line and column (1-based) of ``code``, written once in the file: positions found by
    what is there, so the assertions under the code may move it."""
    found = [(number, text.index(code) + 1) for number, text in
             enumerate((root / path).read_text().splitlines(), 1) if code in text]
    assert len(found) == 1, f"{path}: {code!r} is written {len(found)} times"
    return found[0]


def _resolved(links: str) -> dict[str, str]:
    """``path:line:col name`` -> the node it resolved to (unresolved ones left out)."""
    out = {}
    for line in links.splitlines():
        where, _, target = line.partition(" -> ")
        if not target.startswith("unresolved"):
            site, name = where.split(" ")[0], where.split(" ")[1]
            out[f"{site} {name}"] = target
    return out


def _incremental_links_like_full(root: Path, tmp_path: Path) -> str:
    """The links of ``root`` (indexed since its edits), after checking that a full index of a
    copy links the same; returned for the test's own asserts."""
    fresh = tmp_path / "fresh"
    shutil.copytree(root, fresh, ignore=shutil.ignore_patterns(".codenav"))
    index_tree(fresh, full=True)
    assert render_links(root) == render_links(fresh)
    return render_links(root)


# ------------------------------------------------------------------------------- shop (Python)

@pytest.fixture
def shop(tmp_path: Path) -> Path:
    return indexed_repo("shop", tmp_path)


def test_shop_incremental_link_matches_a_full_one(shop: Path, tmp_path: Path) -> None:
    """Edit a body (exports unchanged) and an export (a new method): same links as full."""
    models = shop / "src" / "shop" / "models.py"
    text = models.read_text()
    models.write_text(text.replace("        self.validate()\n", "        self.validate()\n"
                                   "        self.validate()\n"))
    first = index_tree(shop)
    assert first.mode == "incremental" and "hubs" not in first.phases  # no whole relink
    models.write_text(models.read_text() + "\n    def refund(self):\n        return self.total()\n")
    (shop / "src" / "shop" / "cli.py").write_text(
        (shop / "src" / "shop" / "cli.py").read_text() + "\n\ndef undo():\n"
        "    return Order().refund()\n")
    second = index_tree(shop)
    assert "hubs" in second.phases  # exports changed: the whole map was linked again
    links = _incremental_links_like_full(shop, tmp_path)
    assert "src/shop/cli.py:20:20 refund (call) -> py:src/shop/models.py#Order.refund" in links


def test_refresh_keeps_links_into_a_reshaped_file_right(shop: Path) -> None:
    """A quick refresh (read-your-writes) that shifts node ids re-resolves links into them."""
    from codenav.index.pipeline import refresh_files

    pricing = shop / "src" / "shop" / "pricing.py"
    before = render_links(shop)
    pricing.write_text("def first():\n    return 0\n\n\n" + pricing.read_text())
    report = refresh_files(shop, shop / ".codenav" / "map.db", ["src/shop/pricing.py"],
                           busy_timeout=1.0)
    assert report is not None and report.parsed == 1
    after = render_links(shop)
    # Every use elsewhere still points at the same definitions (by id), lines in pricing.py moved.
    elsewhere = [line for line in after.splitlines() if not line.startswith("src/shop/pricing.py")]
    assert elsewhere == [line for line in before.splitlines()
                         if not line.startswith("src/shop/pricing.py")]
    conn = sqlite3.connect(shop / ".codenav" / "map.db")
    assert conn.execute("SELECT value FROM meta WHERE key = 'relink_pending'").fetchone() == ("1",)
    conn.close()
    index_tree(shop)  # a normal run links the whole map again and clears the flag
    conn = sqlite3.connect(shop / ".codenav" / "map.db")
    assert conn.execute("SELECT value FROM meta WHERE key = 'relink_pending'").fetchone() == ("0",)
    conn.close()


def test_a_member_of_a_literal_is_never_guessed_to_be_a_class_member(
        tmp_path: Path) -> None:
    """``"".join(parts)`` is ``str.join``: a receiver whose type is unknown is guessed to be
    the one class of the tree with that member, but a literal's type is the language's own
    (rich's ``Text.join`` had 46 "references", 37 of them ``"…".join``) — and a member of a
    built-in type (``join``, ``get``, ``read``) is not guessed on an unknown receiver at all:
    ``joiner.join(parts)`` is more likely ``str.join`` (it stays unresolved, listed)."""
    root = tmp_path / "repo"
    root.mkdir()
    (root / "text.py").write_text(
        "class Text:\n    def join(self, lines):\n        return lines\n\n\n"
        "def render(parts, joiner):\n"
        "    a = ''.join(parts)\n"
        "    b = f'{parts}'.strip().join(parts)\n"
        "    c = [1, 2].count(1)\n"
        "    return joiner.join(parts)\n")
    index_tree(root)
    found = render_links(root)
    # (keyed as the language's own: counted among other definitions' uses, not unknown)
    assert "text.py:7:12 join (call) -> unresolved O:literal::join" in found, found
    assert "text.py:8:20 strip (call) -> unresolved O:literal::strip" in found, found
    assert "text.py:10:19 join (call) -> unresolved V:py:joiner::join|A:py::join" in found


def test_watcher_runs_link_against_files_added_and_names_defined_since(shop: Path) -> None:
    """One-file runs (the watcher's) reuse what the linker learnt of the tree's files until a
    file appears: a module added recount, and a function added to it recount, are both found."""
    from codenav.index.pipeline import update_files

    db_path = shop / ".codenav" / "map.db"
    cli = shop / "src" / "shop" / "cli.py"
    cli.write_text(cli.read_text() + "\n\ndef late():\n    from shop.inventory import stocktake\n"
                   "    return stocktake() + recount()\n")
    update_files(shop, db_path, ["src/shop/cli.py"])  # learns the files: no inventory.py yet
    assert "stocktake (call) -> unresolved" in render_links(shop)
    (shop / "src" / "shop" / "inventory.py").write_text("def stocktake():\n    return 1\n")
    update_files(shop, db_path, ["src/shop/inventory.py"])  # a new file: learnt again
    assert "late stocktake (call) -> py:src/shop/inventory.py#stocktake" in _with_scope(shop)
    (shop / "src" / "shop" / "inventory.py").write_text(
        "def stocktake():\n    return 1\n\n\ndef recount():\n    return 2\n")
    update_files(shop, db_path, ["src/shop/inventory.py"])  # a new name: its callers resolve
    assert "cli.py:" in "\n".join(line for line in render_links(shop).splitlines()
                                  if line.endswith("-> py:src/shop/inventory.py#stocktake"))


def _with_scope(root: Path) -> str:
    conn = sqlite3.connect(root / ".codenav" / "map.db")
    try:
        return "\n".join(f"{scope} {name} ({kind}) -> {nid}" for scope, name, kind, nid in
                         conn.execute("SELECT s.name, r.name, r.kind, t.nid FROM refs r "
                                      "JOIN nodes s ON s.id = r.scope_id "
                                      "JOIN nodes t ON t.id = r.target_id"))
    finally:
        conn.close()


# ----------------------------------------------------------- web (TypeScript, TSX, JavaScript)

def test_no_link_into_a_package_that_is_not_in_the_tree(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    assert not any(" -> " in row and "react" in row.split(" -> ")[1] and "unresolved" not in row
                   for row in _links("web", tmp_path_factory).splitlines())


def test_a_changed_tsconfig_relinks_on_the_next_index_run(tmp_path: Path) -> None:
    """No source file changed, only the project file saying how imports resolve."""
    root = indexed_repo("web", tmp_path)
    line = "src/main.ts:2:10 Avatar (import) -> tsx:src/app/avatar.tsx#Avatar"
    assert line in render_links(root).splitlines()
    config = root / "tsconfig.json"
    config.write_text(config.read_text().replace('"@app/*"', '"@elsewhere/*"'))
    report = index_tree(root)
    assert report.parsed == 0 and "hubs" in report.phases  # relinked, nothing re-parsed
    assert line not in render_links(root).splitlines()
    config.write_text(config.read_text().replace('"@elsewhere/*"', '"@app/*"'))
    index_tree(root)
    assert line in render_links(root).splitlines()
    assert "hubs" not in index_tree(root).phases  # unchanged since: no relink


def test_a_parameter_property_used_in_its_constructor_is_the_field(tmp_path: Path) -> None:
    root = tmp_path / "app"
    root.mkdir()
    (root / "clock.ts").write_text("export class Clock {\n  now(): number { return 1; }\n}\n")
    (root / "timer.ts").write_text(
        "import { Clock } from './clock';\n\n"
        "export class Timer {\n"
        "  constructor(private clock: Clock, label: string) {\n"
        "    clock.now();\n"
        "    console.log(label);\n"
        "  }\n"
        "  tick(): number { return this.clock.now(); }\n"
        "}\n")
    index_tree(root)
    links = render_links(root)
    assert "timer.ts:5:5 clock (name) -> ts:timer.ts#Timer.clock" in links
    assert "timer.ts:5:11 now (call) -> ts:clock.ts#Clock.now" in links  # through its type
    assert "timer.ts:8:38 now (call) -> ts:clock.ts#Clock.now" in links
    assert "label" not in links  # a plain parameter stays local


def test_members_destructured_from_this_keep_their_types(tmp_path: Path) -> None:
    root = tmp_path / "app"
    root.mkdir()
    (root / "sub.ts").write_text("export class Sub {\n  stop(): void {}\n}\n")
    # a second `stop`: a guess by member name alone cannot tell which one is meant
    (root / "car.ts").write_text("export class Car {\n  stop(): void {}\n}\n")
    (root / "owner.ts").write_text(
        "import { Sub } from './sub';\n\n"
        "export class Owner {\n"
        "  private conn: Sub | null = null;\n"
        "  private other: Sub = new Sub();\n"
        "  close(): void {\n"
        "    const { conn, other: o } = this;\n"
        "    conn?.stop();\n"
        "    o.stop();\n"
        "  }\n"
        "}\n")
    index_tree(root)
    links = render_links(root)
    assert "owner.ts:8:11 stop (call) -> ts:sub.ts#Sub.stop" in links
    assert "owner.ts:9:7 stop (call) -> ts:sub.ts#Sub.stop" in links


def test_a_variable_typed_through_a_wrapper_has_the_wrapped_types_members(
        tmp_path: Path) -> None:
    root = tmp_path / "app"
    root.mkdir()
    (root / "types.ts").write_text("export interface Options {\n  flush(): void;\n}\n")
    # a second `flush`: a guess by member name alone cannot tell which one is meant
    (root / "pipe.ts").write_text("export class Pipe {\n  flush(): void {}\n}\n")
    (root / "use.ts").write_text(
        "import { Options } from './types';\n\n"
        "export function run(o: Partial<Options>, r: Readonly<Partial<Options>>): void {\n"
        "  o.flush?.();\n"
        "  r.flush?.();\n"
        "}\n")
    index_tree(root)
    links = render_links(root)
    assert "use.ts:4:5 flush (call) -> ts:types.ts#Options.flush" in links
    assert "use.ts:5:5 flush (call) -> ts:types.ts#Options.flush" in links


# -------------------------------------------------------------------------- cfamily (C, C++)

def test_no_wrong_links(tmp_path_factory: pytest.TempPathFactory) -> None:
    rows = _links("cfamily", tmp_path_factory).splitlines()
    # `check` is static in two .c files and main.c sees neither: no guess (main.c's own key;
    # the inline `ref: - (call)` under the call holds its place)
    assert [r.split(" -> ")[1] for r in rows
            if r.startswith("c/src/main.c:") and " check " in r] == [
        "unresolved F:c/src/main.c::check"]
    # system headers resolve to nothing; std:: names stay unresolved
    assert not [r for r in rows if " printf " in r and "unresolved" not in r]
    assert not [r for r in rows if " std " in r and "unresolved" not in r]
    # parameters and locals are not links
    assert not [r for r in rows if r.split(" ")[1] in ("a", "b", "v", "s", "sum", "circle")]


def test_prototypes_are_not_nodes_definitions_are(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    conn = sqlite3.connect(_root_of("repos/cfamily", tmp_path_factory) / ".codenav" / "map.db")
    try:
        found = {nid: kind for nid, kind in conn.execute("SELECT nid, kind FROM nodes")}
    finally:
        conn.close()
    assert found["c:c/src/vec.c#vec_add"] == "function"
    assert "c:c/include/geo/vec.h#vec_add" not in found  # a prototype
    assert "c:c/include/geo/vec.h#vec_created" not in found  # extern
    assert found["c:c/src/vec.c#vec_created"] == "variable"
    assert found["c:c/include/geo/vec.h#vec_t"] == "typedef"
    assert found["c:c/include/geo/vec.h#AXIS_X"] == "constant"
    assert found["c:c/include/geo/vec.h#VEC_DOT"] == "macro"
    assert found["cpp:cpp/include/shapes/shape.hpp#shapes"] == "namespace"
    assert found["cpp:cpp/include/shapes/shape.hpp#shapes.Shape.area"] == "method"
    assert found["cpp:cpp/include/shapes/shape.hpp#shapes.Unit"] == "enum"
    # out-of-class definitions: named in their class, in the namespace written around them
    assert found["cpp:cpp/src/shape.cpp#shapes.Shape.describe"] == "method"
    assert found["cpp:cpp/src/shape.cpp#shapes.Circle.area"] == "method"
    assert found["cpp:cpp/src/shape.cpp#shapes.total_area"] == "function"


WIDGET_H = """\
#pragma once
namespace ui {
class Widget {
public:
    int size() const;
};
}
"""
PLAIN_H = """\
#ifdef __cplusplus
extern "C" {
#endif
int add(int a, int b);
#ifdef __cplusplus
}
#endif
"""


def test_a_header_written_in_cpp_is_cpp_and_a_c_header_stays_c(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    (root / "include").mkdir(parents=True)
    (root / "src").mkdir()
    (root / "include" / "widget.h").write_text(WIDGET_H)
    (root / "include" / "plain.h").write_text(PLAIN_H)
    (root / "src" / "widget.cpp").write_text(
        '#include "widget.h"\nint ui::Widget::size() const { return 1; }\n')
    (root / "src" / "main.cpp").write_text(
        '#include "widget.h"\n#include "plain.h"\n'
        "int main() { ui::Widget w; return add(w.size(), 1); }\n")
    (root / "src" / "plain.c").write_text('#include "plain.h"\nint add(int a, int b) '
                                          "{ return a + b; }\n")
    index_tree(root)
    db = root / ".codenav" / "map.db"

    def facts() -> tuple[dict[str, tuple[str, int]], dict[str, str]]:
        conn = sqlite3.connect(db)
        try:
            files = {path: (lang, errors) for path, lang, errors in
                     conn.execute("SELECT path, lang, parse_errors FROM files")}
            nodes = {nid: kind for nid, kind in conn.execute("SELECT nid, kind FROM nodes")}
        finally:
            conn.close()
        return files, nodes

    files, nodes = facts()
    assert files["include/widget.h"] == ("cpp", 0)  # as C it would not parse
    assert files["include/plain.h"][0] == "c"  # (the C grammar trips on the split extern "C")
    assert nodes["cpp:include/widget.h#ui.Widget"] == "class"
    assert nodes["cpp:include/widget.h#ui.Widget.size"] == "method"
    main_links = [line for line in render_links(root).splitlines()
                  if line.startswith("src/main.cpp")]
    assert any("cpp:include/widget.h#ui.Widget" in line for line in main_links), main_links
    assert any("c:src/plain.c#add" in line for line in main_links), main_links

    # an edit that makes the C header C++ moves it, incrementally
    (root / "include" / "plain.h").write_text(PLAIN_H + "class Adder;\n")
    index_tree(root)
    files, nodes = facts()
    assert files["include/plain.h"][0] == "cpp" and "c:include/plain.h" not in nodes


# --------------------------------------------------------------------------- gorust (Go, Rust)

def test_no_links_into_names_that_are_no_uses(tmp_path_factory: pytest.TempPathFactory) -> None:
    links = _links("gorust", tmp_path_factory)
    assert "unresolved F:" not in links  # every name left free is found in its package
    assert " main (name)" not in links  # `package main` is not the function main
    # (the keys of struct literals are the fields: `ref: … (field)` under `&Store{log: …}`
    # and `Store { cache: … }`)


def test_gorust_incremental_link_matches_a_full_one(tmp_path: Path) -> None:
    """A new method in a sibling file and a changed body: the same links as a full index."""
    root = indexed_repo("gorust", tmp_path)
    methods = root / "go" / "store" / "methods.go"
    methods.write_text(methods.read_text() + "\n// Clear empties the store.\n"
                       "func (s *Store) Clear() { s.items = nil }\n")
    main = root / "go" / "cmd" / "shop" / "main.go"
    main.write_text(main.read_text().replace("\tc.Count()\n", "\tc.Count()\n\ts.Clear()\n"))
    cache = root / "rust" / "src" / "store" / "cache.rs"
    cache.write_text(cache.read_text().replace("self.last = total;",
                                               "self.last = total + 1;"))
    index_tree(root)
    links = _incremental_links_like_full(root, tmp_path)
    line, col = _at(root, "go/cmd/shop/main.go", "s.Clear()")
    assert f"go/cmd/shop/main.go:{line}:{col + 2} Clear (call) -> " \
        "go:go/store/methods.go#Store.Clear" in links.splitlines()


def test_workspace_crates_use_each_other_by_name(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    files = {
        "Cargo.toml": '[workspace]\nmembers = ["core-lib", "app"]\n',
        "core-lib/Cargo.toml": '[package]\nname = "core-lib"\nversion = "0.1.0"\n',
        "core-lib/src/lib.rs": "pub mod money;\n\npub fn total() -> u32 {\n    1\n}\n",
        "core-lib/src/money.rs": "pub struct Money;\n",
        "core-lib/tests/it.rs": "use core_lib::total;\n\n#[test]\nfn t() {\n    total();\n}\n",
        "app/Cargo.toml": '[package]\nname = "app"\nversion = "0.1.0"\n',
        "app/src/main.rs": "mod util;\nuse core_lib::money::Money;\nuse util::help;\n\n"
                           "fn main() {\n    let _m = Money;\n    core_lib::total();\n"
                           "    help();\n    crate::util::help();\n}\n",
        "app/src/util.rs": "pub fn help() {}\n",
    }
    write_tree(root, files)
    index_tree(root)
    links = render_links(root)
    assert "app/src/main.rs:2:22 Money (import) -> rs:core-lib/src/money.rs#Money" in links
    assert "app/src/main.rs:6:14 Money (name) -> rs:core-lib/src/money.rs#Money" in links
    assert "app/src/main.rs:3:11 help (import) -> rs:app/src/util.rs#help" in links  # a child
    # paths written in code, not imported: another crate, and this crate's own root
    assert "app/src/main.rs:7:15 total (call) -> rs:core-lib/src/lib.rs#total" in links
    assert "app/src/main.rs:9:18 help (call) -> rs:app/src/util.rs#help" in links
    assert "core-lib/tests/it.rs:1:15 total (import) -> rs:core-lib/src/lib.rs#total" in links
    assert "core-lib/tests/it.rs:5:5 total (call) -> rs:core-lib/src/lib.rs#total" in links


def test_go_types_satisfy_interfaces_by_their_methods(tmp_path: Path) -> None:
    import anyio

    from codenav.tools.dispatch import call_tool
    from codenav.tools.rows import parse_related_row
    from codenav.workspace import Workspace

    root = tmp_path / "geo"
    files = {
        "go.mod": "module example.com/geo\n\ngo 1.22\n",
        "shapes/shape.go": "package shapes\n\ntype Shape interface {\n\tArea() float64\n"
                           "\tPerimeter() float64\n}\n",
        "shapes/square.go": "package shapes\n\ntype Square struct{ S float64 }\n\n"
                            "func (q Square) Area() float64 { return q.S * q.S }\n\n"
                            "func (q Square) Perimeter() float64 { return 4 * q.S }\n",
        "shapes/circle.go": "package shapes\n\ntype Circle struct{ R float64 }\n",
        "shapes/circle_methods.go": "package shapes\n\n"
                                    "func (c *Circle) Area() float64 { return 3 * c.R * c.R }\n\n"
                                    "func (c *Circle) Perimeter() float64 { return 6 * c.R }\n",
        "shapes/line.go": "package shapes\n\ntype Line struct{}\n\n"
                          "func (l Line) Area() float64 { return 0 }\n",
        "other/square.go": "package other\n\ntype Square struct{}\n\n"
                           "func (q Square) Area() float64 { return 1 }\n",
    }
    write_tree(root, files)
    index_tree(root)
    ws = Workspace(root)
    try:
        def types(nid: str, direction: str) -> set[str]:
            found = anyio.run(call_tool, ws, "nav_type_hierarchy",
                              {"id": nid, "direction": direction, "source": "map"})
            return {parse_related_row(t, found["data"]["symbol"]).id
                    for t in found["data"]["types"]}

        assert types("go:shapes/shape.go#Shape", "subtypes") == {
            "go:shapes/square.go#Square", "go:shapes/circle.go#Circle"}
        assert types("go:shapes/circle.go#Circle", "supertypes") == {"go:shapes/shape.go#Shape"}
        assert types("go:shapes/line.go#Line", "supertypes") == set()  # Area alone
        assert types("go:other/square.go#Square", "supertypes") == set()
    finally:
        ws.close()


# ---------------------------------------------------------------------------- jvmnet (Java, C#)

MAIN = "java/src/main/java/com/acme"
TEST = "java/src/test/java/com/acme"


def test_nothing_links_across_languages_or_into_libraries(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    links = _links("jvmnet", tmp_path_factory)
    for line in links.splitlines():
        path, _, target = line.partition(" -> ")
        if not target.startswith("unresolved"):
            assert target.split(":")[0] == ("java" if path.startswith("java/") else "cs"), line
    found = _resolved(links)
    assert not any(name.endswith((" List", " ArrayList", " String", " Override"))
                   for name in found)  # the JDK / BCL are not in the tree


def test_jvmnet_incremental_link_matches_a_full_one(tmp_path: Path) -> None:
    """Edit bodies and add members in both languages: the same links as a full index."""
    root = indexed_repo("jvmnet", tmp_path / "a")
    order = root / f"{MAIN}/shop/Order.java"
    order.write_text(order.read_text().replace(
        "        customer.greet();\n", "        customer.greet();\n        validate();\n"))
    cs = root / "csharp/Shop/Order.cs"
    cs.write_text(cs.read_text().replace(
        "        Customer.Greet();\n", "        Customer.Greet();\n        Validate();\n"))
    index_tree(root)
    base = root / f"{MAIN}/shop/BaseEntity.java"
    base.write_text(base.read_text().replace("    public long getId()",
                                             "    void audit() { }\n\n    public long getId()"))
    index_tree(root)
    links = _incremental_links_like_full(root, tmp_path)
    line, col = _at(root, f"{MAIN}/shop/Order.java", "customer.greet();")  # the line above
    assert f"{MAIN}/shop/Order.java:{line + 1}:{col} validate (call) -> " \
        f"java:{MAIN}/shop/BaseEntity.java#BaseEntity.validate" in links
    line, col = _at(root, "csharp/Shop/Order.cs", "Customer.Greet();")
    assert f"csharp/Shop/Order.cs:{line + 1}:{col} Validate (call) -> " \
        "cs:csharp/Shop/EntityBase.cs#Acme.Shop.EntityBase.Validate" in links


def test_a_constructors_references_are_the_news_of_its_class(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    import anyio

    from codenav.tools.dispatch import call_tool
    from codenav.workspace import Workspace

    ws = Workspace(indexed_repo("jvmnet", tmp_path_factory.mktemp("ctor")))
    try:
        def uses(nid: str) -> set[tuple[str, int, int]]:
            found = anyio.run(call_tool, ws, "nav_references",
                              {"id": nid, "source": "map", "detail": "full"})
            return {(path, r["line"], r["col"])
                    for path, refs in found["data"]["references"].items() for r in refs}

        def at(path: str, code: str) -> tuple[str, int, int]:
            return (path, *_at(ws.root, path, code))

        assert uses(f"java:{MAIN}/model/Customer.java#Customer.Customer") == {
            at(f"{TEST}/shop/OrderTest.java", 'Customer("Ann")')}  # `new …`, not the imports
        assert uses("cs:csharp/Models/Customer.cs#Acme.Models.Customer.Customer") == {
            at("csharp/App/Program.cs", 'Customer("Ann")'),
            at("csharp/Shop/Order.cs", 'Cust("Bob")')}
    finally:
        ws.close()


def test_a_csharp_attribute_names_its_class_without_the_suffix(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    (root / "Lib").mkdir(parents=True)
    (root / "Lib" / "AuditAttribute.cs").write_text(
        "namespace Acme.Lib\n{\n    public class AuditAttribute : System.Attribute { }\n}\n")
    (root / "Service.cs").write_text(
        "using Acme.Lib;\n\nnamespace Acme\n{\n    [Audit]\n    public class Service { }\n\n"
        "    [AuditAttribute]\n    public class Other { }\n\n"
        "    public class LocalAttribute : System.Attribute { }\n\n"
        "    [Local]\n    public class Third { }\n}\n")
    index_tree(root)
    found = _resolved(render_links(root))
    assert found["Service.cs:5:6 Audit"] == "cs:Lib/AuditAttribute.cs#Acme.Lib.AuditAttribute"
    assert found["Service.cs:8:6 AuditAttribute"] == \
        "cs:Lib/AuditAttribute.cs#Acme.Lib.AuditAttribute"
    assert found["Service.cs:13:6 Local"] == "cs:Service.cs#Acme.LocalAttribute"


# --------------------------------------------------------------------------- rubyphp (Ruby, PHP)

def test_no_link_crosses_languages(tmp_path_factory: pytest.TempPathFactory) -> None:
    for line in _links("rubyphp", tmp_path_factory).splitlines():
        if " -> unresolved " in line:
            continue
        source, target = line.split(" -> ")
        assert source.split("/", 1)[0] == target.split(":", 2)[1].split("/", 1)[0], line


def test_rubyphp_incremental_link_matches_a_full_one(tmp_path: Path) -> None:
    """A new method in a reopened Ruby module and a new PHP method: same links as a full run."""
    root = indexed_repo("rubyphp", tmp_path / "a")
    item = root / "ruby" / "lib" / "shop" / "item.rb"
    item.write_text(item.read_text().replace(
        "    def price\n", "    def discount\n      price / 2\n    end\n\n    def price\n"))
    main = root / "ruby" / "app" / "main.rb"
    main.write_text(main.read_text() + "puts other.discount\n")
    cart = root / "php" / "src" / "Models" / "Cart.php"
    cart.write_text(cart.read_text().replace(
        "    public static function discount", "    public function empty(): bool\n    {\n"
        "        return $this->items === [];\n    }\n\n    public static function discount"))
    index_tree(root)
    links = _incremental_links_like_full(root, tmp_path)
    line, col = _at(root, "ruby/app/main.rb", "other.discount")
    assert f"ruby/app/main.rb:{line}:{col + 6} discount (call) -> " \
        "rb:ruby/lib/shop/item.rb#Shop.Item.discount" in links
