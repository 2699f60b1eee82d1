"""nav_type_hierarchy's rows when a language server answers: the types the map has are
related rows like the map's own, the others (outside the root) their place, kind and name.
The server is the scripted one (codenav.lsp.fake), named by the user's configuration."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest

from codenav.index.pipeline import index_tree
from codenav.tools.dispatch import call_tool
from codenav.tools.rows import parse_related_row
from codenav.workspace import Workspace


def item(name: str, uri: str, line: int, col: int) -> dict[str, Any]:
    """A TypeHierarchyItem of a class whose name is at 0-based (line, col)."""
    at = {"start": {"line": line, "character": col},
          "end": {"line": line, "character": col + len(name)}}
    return {"name": name, "kind": 5, "uri": uri, "range": at, "selectionRange": at}


@pytest.fixture
def scripted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Workspace]:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "a.py").write_text("class Base:\n    pass\n\n\nclass Child(Base):\n    pass\n")
    index_tree(root)
    elsewhere = (tmp_path / "lib" / "ext.py").as_uri()
    subtypes = [item("Child", (root / "a.py").as_uri(), 4, 6), item("Ext", elsewhere, 9, 6)]
    script = tmp_path / "script.json"
    script.write_text(json.dumps({
        "initialize": {"capabilities": {"typeHierarchyProvider": True},
                       "serverInfo": {"name": "fake"}},
        "requests": {
            "textDocument/prepareTypeHierarchy": {
                "result": [item("Base", (root / "a.py").as_uri(), 0, 6)]},
            # per call: Base's subtypes, then none for each of them
            "typeHierarchy/subtypes": [{"result": subtypes}, {"result": []}, {"result": []}] * 2
        }}))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    monkeypatch.delenv("CODENAV_TRUST_PROJECT_CONFIG", raising=False)
    (tmp_path / "cfg" / "codenav").mkdir(parents=True)
    command = [sys.executable, "-m", "codenav.lsp.fake", str(script)]
    (tmp_path / "cfg" / "codenav" / "config.toml").write_text(
        f"[lsp.python]\ncommand = {json.dumps(command)}\n")
    ws = Workspace(root, lsp="auto")
    yield ws
    ws.close()


def test_a_servers_types_are_related_rows_where_the_map_has_them(
        scripted: Workspace, tmp_path: Path) -> None:
    ws = scripted
    args = {"symbol": "Base", "direction": "subtypes", "source": "lsp"}
    found = anyio.run(call_tool, ws, "nav_type_hierarchy", args)
    assert found["ok"] and found["data"]["source"] == "lsp", found
    data = found["data"]
    assert data["symbol"] == "py:a.py#Base class 1-2"
    assert data["level"] == 1  # all direct: said once
    assert data["types"] == ["a.py#Child 5",
                             f"{tmp_path / 'lib' / 'ext.py'}:10:7 class Ext (external)"]
    assert parse_related_row(data["types"][0], data["symbol"]).id == "py:a.py#Child"
    with pytest.raises(ValueError):  # no id: not in the map
        parse_related_row(data["types"][1], data["symbol"])
    full = anyio.run(call_tool, ws, "nav_type_hierarchy", {**args, "detail": "full"})
    assert [(t.get("id"), t["anchor"]["line"], t.get("external", False))
            for t in full["data"]["types"]] == [("py:a.py#Child", 5, False),
                                                (None, 10, True)]
