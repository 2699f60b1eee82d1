"""Python stubs beside their modules (transitions ships core.pyi by core.py): a stub mirrors
its module's names, so its lines are no uses in code — references, subtypes and the text
check leave them out and say how many references they hold; `fileFilter: "*.pyi"` lists
them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio

from codenav.index.pipeline import index_tree
from codenav.tools.dispatch import call_tool
from codenav.workspace import Workspace
from tests.conftest import write_tree

FILES = {
    "pkg/core.py": "class EventData:\n    pass\n\n\nclass Machine:\n"
                   "    def run(self, data: EventData) -> EventData:\n        return data\n",
    "pkg/core.pyi": "class EventData: ...\n\nclass Machine:\n"
                    "    def run(self, data: EventData) -> EventData: ...\n",
    "pkg/ext.py": "from pkg.core import EventData, Machine\n\n\nclass Locked(Machine):\n"
                  "    def run(self, data: EventData) -> EventData:\n        return data\n",
    "pkg/ext.pyi": "from pkg.core import EventData, Machine\n\nclass Locked(Machine):\n"
                   "    def run(self, data: EventData) -> EventData: ...\n",
    "pkg/only.pyi": "from pkg.core import EventData\n\ndef make() -> EventData: ...\n",
}


def call(ws: Workspace, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    envelope: dict[str, Any] = anyio.run(call_tool, ws, tool,
                                         {"source": "map", "tokenBudget": 8000, **args})
    assert envelope["ok"], envelope
    return envelope


def test_stubs_beside_their_modules_are_left_out_and_counted(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo", FILES)
    index_tree(root)
    ws = Workspace(root)
    try:
        uses = call(ws, "nav_references", {"symbol": "EventData", "file": "pkg/core.py"})
        # a stub without its module (only.pyi) is code of its own: it stays
        assert sorted(uses["data"]["references"]) == ["pkg/core.py", "pkg/ext.py", "pkg/only.pyi"]
        # (lines, one a line: ext.pyi's `data: EventData) -> EventData` is one)
        assert any("2 reference(s) in .pyi stubs" in w for w in uses["warnings"]), uses
        assert ".pyi" not in uses["data"]["text"].replace("pkg/only.pyi", ""), uses
        stubs = call(ws, "nav_references", {"symbol": "EventData", "file": "pkg/core.py",
                                            "fileFilter": "*.pyi"})
        # (core.pyi's own annotations name core.pyi's EventData: not core.py's)
        assert sorted(stubs["data"]["references"]) == ["pkg/ext.pyi", "pkg/only.pyi"]
        subtypes = call(ws, "nav_type_hierarchy", {"symbol": "Machine", "file": "pkg/core.py",
                                                   "direction": "subtypes"})
        assert subtypes["data"]["types"] == ["pkg/ext.py#Locked 4"], subtypes
    finally:
        ws.close()
