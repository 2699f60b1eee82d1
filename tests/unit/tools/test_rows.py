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
    parse_node_row,
    parse_ref_row,
    ref_row,
    short_signature,
)

NAMES = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,12}", fullmatch=True)
PATHS = st.from_regex(r"[a-z][a-z0-9_/ .-]{0,30}\.py", fullmatch=True)
CODE = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\n"),
               max_size=80)


def make_node(path: str, qname: str, kind: str, line: int, end: int, signature: str) -> Node:
    return Node(1, f"py:{path}#{qname}", 1, path, "py", 0, kind, qname.rsplit(".", 1)[-1],
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
    assert parsed.signature == (short_signature(signature) if signature else None)


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
    node = node._replace(name="padding")
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
