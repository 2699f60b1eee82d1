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


def test_a_source_parsed_from_its_bytes_leaves_nothing_behind() -> None:
    """A source short enough to be parsed without the read callback (which py-tree-sitter
    0.26 keeps every chunk of) leaves nothing of itself behind once extracted."""
    import gc
    import tracemalloc

    from codenav.index import extract as extraction

    lang = by_extension("mid.py")
    assert lang is not None
    data = b"def f(x):\n    return g(x) + 1\n\n\n" * 600  # ~19 KB: parsed from its bytes
    assert len(data) * extraction._WORST_PARSE_S_PER_BYTE < extraction.PARSE_DEADLINE_S / 2
    extract(lang, data, "mid.py")  # caches filled outside the measure
    gc.collect()
    tracemalloc.start()
    try:
        before, _ = tracemalloc.get_traced_memory()
        for _ in range(3):
            assert extract(lang, data, "mid.py").defs
        gc.collect()
        after, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert after - before < len(data) // 10


def test_a_long_source_with_syntax_errors_is_parsed_under_the_deadline_and_queried() -> None:
    """Past the direct parse, with errors (CPython's test_compile.py crashed the parser
    process when its tree, parsed through the callback, was queried)."""
    from codenav.index import extract as extraction

    lang = by_extension("broken.py")
    assert lang is not None
    body = b"def f%d(x):\n    return g(x) + 1\n\n\n"
    data = b"".join(body % i for i in range(1_500)) + b"def broken(:\n    pass\n\n\n" + \
        b"".join(body % i for i in range(1_500, 3_000))
    assert len(data) * extraction._WORST_PARSE_S_PER_BYTE > extraction.PARSE_DEADLINE_S
    found = extract(lang, data, "broken.py")
    assert found.problem_count > 0
    names = {d.name for d in found.defs}
    assert {"f0", "f1499", "f1500", "f2999"} <= names  # both sides of the error


def test_a_short_source_is_parsed_from_its_bytes_and_a_long_one_under_the_deadline() -> None:
    from codenav.index import extract as extraction

    lang = by_extension("x.py")
    assert lang is not None
    short = b"def f():\n    return 1\n"
    parser = extraction._Deadlined(extraction.queries(lang).parser, 2.0)
    assert parser.parse(short).root_node.text == short  # bytes kept: predicates read them
    hopeless = extraction._Deadlined(extraction.queries(lang).parser, 0.0)
    with pytest.raises(extraction.ParseTimeout):  # no time left: the callback cancels it
        hopeless.parse(short * 20_000)


def test_a_signature_leaves_out_the_comments_among_its_parameters() -> None:
    # pluggy's `def __call__(  # noqa: F811` read as "def __call__(# noqa: F811 self, …"
    lang = by_extension("m.py")
    assert lang is not None
    found = extract(lang, b"class M:\n    def __call__(  # noqa: F811\n        self,\n"
                          b"        function=None,  # the function\n    ) -> int:\n"
                          b"        return 1\n", "m.py")
    assert [d.signature for d in found.defs if d.name == "__call__"] == \
        ["def __call__( self, function=None, ) -> int"]
    ts = by_extension("m.ts")
    assert ts is not None
    found = extract(ts, b"function f(a: number, /* why */ b = 2 // last\n): void {}\n", "m.ts")
    assert [d.signature for d in found.defs if d.name == "f"] == \
        ["function f(a: number, b = 2 ): void"]


def test_a_function_value_s_signature_is_its_head_to_the_body() -> None:
    # rrule (run 54): `export const datetime = function (\n  y: number, …  h = 0, …\n) {`
    # had the signature "const datetime = function (": its defaults took a text search
    ts = by_extension("m.ts")
    assert ts is not None
    found = extract(ts, b"export const datetime = function (\n  y: number,\n  h = 0\n) {\n"
                        b"  return y + h\n}\nclass K {\n  f = async (\n    a: string,\n"
                        b"  ) => a\n}\n",
                    "m.ts")
    assert {d.name: d.signature for d in found.defs if d.name in ("datetime", "f")} == {
        "datetime": "const datetime = function ( y: number, h = 0 )",
        "f": "f = async ( a: string, ) =>"}


def test_a_signature_keeps_the_spaces_of_its_string_literals() -> None:
    # tomlkit: `indent: str = "    "` read as `indent: str = " "`: a parameters question asks
    # for the default exactly as written
    lang = by_extension("m.py")
    assert lang is not None
    found = extract(lang, b'def dump(data,\n         indent: str = "    ",  sep=\'a  b\') -> str:\n'
                          b"    return data\n", "m.py")
    assert [d.signature for d in found.defs if d.name == "dump"] == \
        ['def dump(data, indent: str = "    ", sep=\'a  b\') -> str']


def test_a_property_made_by_a_call_in_a_class_body_is_a_property() -> None:
    # urwid (run 45): `edit_pos = property(get_edit_pos, set_edit_pos)` was a field, and
    # map_node's kinds ["method", "property"] left it out of Edit's members
    lang = by_extension("e.py")
    assert lang is not None
    found = extract(lang, b"class Edit:\n    def get(self):\n        return 1\n\n"
                          b"    edit_pos = property(get)\n    other = staticmethod(get)\n"
                          b"    limit = 3\n\n\nx = property(lambda s: 1)\n", "e.py")
    assert [(d.kind, d.qname) for d in found.defs] == [
        ("class", "Edit"), ("method", "Edit.get"), ("property", "Edit.edit_pos"),
        ("field", "Edit.other"), ("field", "Edit.limit"), ("variable", "x")]
