"""nav_references counts a symbol's uses per file in SQL and reads rows only for the files it
shows: the counts, order and cut must equal what reading every reference would give."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest

from codenav.index.pipeline import index_tree
from codenav.tools.common import Lines
from codenav.tools.dispatch import call_tool
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
    found = call(many, {"id": "py:pkg/core.py#helper", "source": "map", "tokenBudget": 600})
    data = found["data"]
    order = expected_order()
    assert data["total"] == sum(count for _, count in order)
    assert data["files"] == FILES
    shown = [(g["file"], g["count"]) for g in data["references"]]
    assert shown == order[: len(shown)] and 0 < len(shown) < FILES
    for group in data["references"]:
        lines = [r["line"] for r in group["refs"]]
        assert lines == sorted(lines) and len(lines) <= group["count"]
        assert all(r["kind"] in ("call", "import") for r in group["refs"])
    listed = sum(len(g["refs"]) for g in data["references"])
    assert found["truncated"] and found["dropped"]["count"] == data["total"] - listed
    narrower = found["dropped"]["next"]["args"]
    assert narrower["id"] == "py:pkg/core.py#helper" and narrower["fileFilter"].startswith("pkg")


def test_a_constructor_counts_its_class_calls_once(many: Workspace) -> None:
    data = call(many, {"id": "py:pkg/core.py#Widget.__init__", "source": "map",
                       "fileFilter": "pkg/use_03.py"})["data"]
    (group,) = data["references"]
    assert data["total"] == group["count"] == _uses(3)  # Widget(...) calls, not the import
    assert [r["line"] for r in group["refs"]] == [6 + 2 * n for n in range(_uses(3))]


def test_snippets_follow_a_file_that_changed(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("first\nsecond\n")
    assert Lines(tmp_path).line("a.py", 2) == "second"
    (tmp_path / "a.py").write_text("first\nchanged line\n")
    assert Lines(tmp_path).line("a.py", 2) == "changed line"
    (tmp_path / "a.py").unlink()
    assert Lines(tmp_path).line("a.py", 1) is None
