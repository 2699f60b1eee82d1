"""References checked where they are written: the trees under ``tests/fixtures/refs/`` carry
their expectations as comments under the code they check (stack-graphs style)::

    cmd := &Command{Short: "x"}
    //              ^ ref: Command.Short

The caret points at a column of the nearest line above that is not itself an assertion.
``ref: X`` — a reference starts there and the map links it to the node whose key (the part
of its id after ``#``), id without its language, or whole id is ``X``; ``ref: -`` —
whatever starts there links to no node; ``def: X`` — the name of node ``X`` starts there;
``inactive`` — a reference starts there, in lines the map decided are compiled out
(``regions``; ``active``: not so decided); ``ref: X`` holds there too (a compiled-out use
still names its symbol).
Each assertion is one test, named by its file and line, so a wrong or missing reference
fails at the line that shows it.
"""

from __future__ import annotations

import re
import shutil
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import pytest

from codenav.index.pipeline import index_tree
from tests.conftest import FIXTURES

CASES = FIXTURES / "refs"
_ASSERTION = re.compile(r"^\s*(?://|#|--|;)\s*(\^)\s*(ref:|def:|inactive\b|active\b)\s*(\S*)")


@dataclass(frozen=True)
class Assertion:
    case: str  # the tree under CASES
    path: str  # repo-relative
    line: int  # 1-based, of the code checked
    col: int  # 1-based
    what: str  # "ref", "def" or "inactive"
    expected: str
    at: int  # the assertion's own line, for the test's name
    code: str  # the code line checked

    def __str__(self) -> str:
        return f"{self.case}/{self.path}:{self.at} {self.what} {self.expected}".rstrip()


def _assertions() -> list[Assertion]:
    out: list[Assertion] = []
    for case in sorted(p for p in CASES.iterdir() if p.is_dir()):
        for file in sorted(p for p in case.rglob("*") if p.is_file()):
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
                out.append(Assertion(case.name, file.relative_to(case).as_posix(), code_line,
                                     match.start(1) + 1, match.group(2).rstrip(":"),
                                     match.group(3), number, lines[code_line - 1]))
    return out


ASSERTIONS = _assertions()
_MAPS: dict[str, Path] = {}  # each case indexed once, when first asked about


def _map_of(case: str, tmp: pytest.TempPathFactory) -> Path:
    if case not in _MAPS:
        root = tmp.mktemp("refs") / case
        shutil.copytree(CASES / case, root)
        index_tree(root)
        _MAPS[case] = root / ".codenav" / "map.db"
    return _MAPS[case]


def _found(db: Path, a: Assertion) -> tuple[list[tuple[str, str | None, str | None, int]],
                                             list[str]]:
    """The references starting at the assertion's position (kind, target id, key,
    inactive) and the ids of nodes named there."""
    conn = sqlite3.connect(db)
    try:
        refs = conn.execute(
            "SELECT r.kind, t.nid, r.key, EXISTS (SELECT 1 FROM regions g WHERE g.file_id = "
            "r.file_id AND g.active = 0 AND r.line BETWEEN g.line AND g.end_line) FROM refs r "
            "JOIN files f ON f.id = r.file_id LEFT JOIN nodes t ON t.id = r.target_id "
            "WHERE f.path = ? AND r.line = ? AND r.col = ?", (a.path, a.line, a.col)).fetchall()
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
    refs, nodes = _found(_map_of(a.case, tmp_path_factory), a)
    shown = (f"\n  {a.path}:{a.line}: {a.code.strip()}\n  col {a.col}: "
             f"{a.code[a.col - 1:].split()[0] if a.code[a.col - 1:].strip() else '?'}\n"
             f"  references there: {refs or 'none'}; nodes named there: {nodes or 'none'}")
    if a.what == "def":
        assert any(_names(a.expected, nid) for nid in nodes), f"no node {a.expected}" + shown
    elif a.what == "inactive":
        assert refs and all(out for *_, out in refs), "not decided compiled out" + shown
    elif a.what == "active":
        assert refs and not any(out for *_, out in refs), "decided compiled out" + shown
    elif a.expected == "-":
        assert not any(nid for _, nid, _, _ in refs), "a link where none belongs" + shown
    else:
        assert any(nid and _names(a.expected, nid) for _, nid, _, _ in refs), \
            f"no reference to {a.expected}" + shown


def test_every_case_has_assertions() -> None:
    cases = {p.name for p in CASES.iterdir() if p.is_dir()}
    assert cases and cases == {a.case for a in ASSERTIONS}
