"""Golden tests of extraction: one fixture file per case, its map printed as text."""

from __future__ import annotations

from pathlib import Path

import pytest

from codenav.index.extract import Extraction, extract
from codenav.index.languages import by_extension
from tests.conftest import FIXTURES, check_golden

CASES = sorted((FIXTURES / "extract").glob("*/*.*"))
CASES = [case for case in CASES if not case.name.endswith(".golden")]


def render(found: Extraction) -> str:
    """A diff-friendly text form of everything extraction reports."""
    out = [f"lines {found.lines}", f"doc {found.doc!r}", "", "# definitions"]
    for d in found.defs:
        parent = found.defs[d.parent].key if d.parent >= 0 else "-"
        out.append(
            f"{d.kind:<9} {d.key:<28} name {d.name_line}:{d.name_col}-{d.name_end_col}"
            f"  span {d.line}:{d.col}-{d.end_line}:{d.end_col}  parent {parent}"
            f"  bytes {d.start_byte}-{d.end_byte}")
        out.append(f"          sig {d.signature!r}  doc {d.doc!r}")
    out += ["", "# references"]
    for name, kind, line, col, scope, qualifier, target, key in found.refs:
        where = found.defs[scope].key if scope >= 0 else "-"
        qual = f"  on {qualifier}" if qualifier else ""
        means = f" -> {found.defs[target].key}" if target >= 0 else f" -> {key}" if key else ""
        out.append(f"{line}:{col:<4} {kind:<11} {name:<14} in {where}{qual}{means}")
    out += ["", "# imports"]
    for i in found.imports:
        where = found.defs[i.scope].key if i.scope >= 0 else "-"
        out.append(f"{i.line}:{i.col:<4} module {i.module!r} name {i.name!r} alias {i.alias!r}"
                   f" wildcard {i.wildcard} in {where} -> {i.key}")
    out += ["", f"# problems ({found.problem_count})"]
    out += [f"{p.line}:{p.col}-{p.end_line}:{p.end_col} {p.message}" for p in found.problems]
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("case", CASES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_golden(case: Path) -> None:
    lang = by_extension(case.name)
    assert lang is not None
    found = extract(lang, case.read_bytes(), f"{case.parent.name}/{case.name}")
    check_golden(case.with_name(case.name + ".golden"), render(found))
