"""nav_references counts a symbol's uses per file in SQL and reads rows only for the files it
shows: the counts, order and cut must equal what reading every reference would give."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest

from codenav.index.pipeline import index_tree
from codenav.query.source import Lines
from codenav.tools.dispatch import call_tool
from codenav.tools.rows import parse_ref_row
from codenav.workspace import Workspace

FILES = 40


def _uses(i: int) -> int:
    return i % 7 + 1  # 1..7 calls per file: ties and a spread of counts


@pytest.fixture(scope="module")
def many(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Workspace]:
    root = tmp_path_factory.mktemp("many") / "repo"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "core.py").write_text(
        "class Widget:\n    def __init__(self, size):\n        self.size = size\n\n\n"
        "def helper(x):\n    return x\n")
    for i in range(FILES):
        body = "".join(f"    helper({n})\n    Widget({n})\n" for n in range(_uses(i)))
        (root / "pkg" / f"use_{i:02}.py").write_text(
            f"from pkg.core import Widget, helper\n\n\ndef run_{i}():\n{body}")
    index_tree(root)
    ws = Workspace(root)
    yield ws
    ws.close()


def call(ws: Workspace, args: dict[str, Any]) -> dict[str, Any]:
    envelope: dict[str, Any] = anyio.run(call_tool, ws, "nav_references", args)
    assert envelope["ok"], envelope
    return envelope


def expected_order() -> list[tuple[str, int]]:
    counts = {f"pkg/use_{i:02}.py": _uses(i) + 1 for i in range(FILES)}  # + the import
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))


def test_counts_order_and_cut_match_every_reference(many: Workspace) -> None:
    found = call(many, {"id": "py:pkg/core.py#helper", "source": "map", "tokenBudget": 600,
                        "detail": "full"})
    data = found["data"]
    order = expected_order()
    assert data["total"] == sum(count for _, count in order)
    assert data["files"] == FILES
    shown = list(data["references"])
    assert shown == [path for path, _ in order[: len(shown)]] and 0 < len(shown) < FILES
    counts = dict(order)
    for path, refs in data["references"].items():
        lines = [r["line"] for r in refs]
        assert lines == sorted(lines) and len(lines) <= counts[path]
        assert all(r["kind"] in ("call", "import") for r in refs)
        assert {r["in"] for r in refs} <= {"<module>", f"run_{int(path[-5:-3])}"}
    listed = sum(len(refs) for refs in data["references"].values())
    assert found.get("truncated", False) and found["dropped"]["count"] == data["total"] - listed
    assert "fileFilter:'pkg/'" in found["dropped"]["note"]
    follow = found["dropped"]["next"]["args"]
    assert follow == {"id": "py:pkg/core.py#helper", "source": "map", "tokenBudget": 600,
                      "detail": "full", "offset": listed}


@pytest.mark.parametrize("detail", ["compact", "full"])
def test_paging_sends_every_reference_exactly_once(many: Workspace, detail: str) -> None:
    whole = call(many, {"id": "py:pkg/core.py#helper", "source": "map", "tokenBudget": 10000,
                        "detail": detail})
    assert not whole.get("truncated", False)
    expected = [(path, row) for path, rows in whole["data"]["references"].items()
                for row in rows]
    args: dict[str, Any] | None = {"id": "py:pkg/core.py#helper", "source": "map",
                                   "tokenBudget": 300, "detail": detail}
    pages: list[tuple[str, Any]] = []
    calls = 0
    while args is not None:
        page = call(many, args)
        calls += 1
        pages += [(path, row) for path, rows in page["data"]["references"].items()
                  for row in rows]
        # truncated without a next page: the last page, its rows in a cheaper rendering
        args = page.get("dropped", {}).get("next", {}).get("args")
        assert calls < 100
    assert calls > 2 and len(pages) == len(expected)
    # The same references in the same order; rows may differ only in what the page's
    # budget let them carry (a code line), never in which reference they are.
    if detail == "full":
        assert [(p, r["line"], r["col"]) for p, r in pages] == \
            [(p, r["line"], r["col"]) for p, r in expected]
    else:
        assert [(p, parse_ref_row(r).line) for p, r in pages] == \
            [(p, parse_ref_row(r).line) for p, r in expected]


def test_a_constructor_counts_its_class_calls_once(many: Workspace) -> None:
    data = call(many, {"id": "py:pkg/core.py#Widget.__init__", "source": "map",
                       "fileFilter": "pkg/use_03.py"})["data"]
    ((path, rows),) = data["references"].items()
    assert path == "pkg/use_03.py"
    assert data["total"] == len(rows) == _uses(3)  # Widget(...) calls, not the import
    assert [parse_ref_row(row).line for row in rows] == [6 + 2 * n for n in range(_uses(3))]
    # `in` is said once for rows in the same function: the rows below the first leave it out
    assert [parse_ref_row(row).scope for row in rows] == ["run_3"] + [None] * (len(rows) - 1)


def test_snippets_follow_a_file_that_changed(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("first\nsecond\n")
    assert Lines(tmp_path).line("a.py", 2) == "second"
    (tmp_path / "a.py").write_text("first\nchanged line\n")
    assert Lines(tmp_path).line("a.py", 2) == "changed line"
    (tmp_path / "a.py").unlink()
    assert Lines(tmp_path).line("a.py", 1) is None


def test_show_names_and_lines_are_the_same_references_cheaper(many: Workspace) -> None:
    args = {"id": "py:pkg/core.py#helper", "source": "map", "tokenBudget": 10000,
            "fileFilter": "pkg/use_0"}
    shown = {show: call(many, {**args, "show": show}) for show in ("code", "names", "lines")}
    sizes = {show: len(json.dumps(envelope["data"])) for show, envelope in shown.items()}
    assert sizes["lines"] < sizes["names"] < sizes["code"]
    places = {show: [(path, parse_ref_row(row).line) for path, rows in
                     envelope["data"]["references"].items() for row in rows]
              for show, envelope in shown.items()}
    assert places["code"] == places["names"] == places["lines"] and places["code"]
    for show, envelope in shown.items():
        assert not envelope.get("truncated", False)
        assert "text" in envelope["data"], show  # the completeness check is kept
    code, names, lines = (shown[s]["data"]["references"]["pkg/use_06.py"]
                          for s in ("code", "names", "lines"))
    assert parse_ref_row(code[1]).code == "helper(0)"
    assert parse_ref_row(names[1]) == (5, None, None, "run_6", None, None, None)
    # the import's kind is kept where lines are all that is shown (refKind says "call")
    assert lines[0] == "1 (import)" and lines[1] == 5
