"""The map and nav tools on a sample repository: every answer as a golden envelope."""

from __future__ import annotations

import json
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest

from codenav.index.pipeline import index_tree
from codenav.tools.dispatch import call_tool
from codenav.tools.rows import parse_node_row
from codenav.workspace import Workspace
from tests.conftest import FIXTURES, check_golden

SHOP = FIXTURES / "repos" / "shop"

CALLS: list[tuple[str, dict[str, Any]]] = [
    ("map_overview", {}),
    ("map_overview", {"focus": "src/shop/", "depth": 1}),
    ("map_overview", {"focus": "py:src/shop/models.py#Order"}),
    ("map_search", {"query": "Order"}),
    ("map_search", {"query": "order.add"}),
    ("map_search", {"query": "makeCustomer"}),
    ("map_search", {"query": "greet", "kinds": ["method"]}),
    ("map_search", {"query": "amount", "fileFilter": "src/**/pricing.py"}),
    ("map_search", {"query": "ordr"}),
    ("map_search", {"query": "order", "exact": True}),
    ("map_search", {"query": "Order", "tokenBudget": 120}),
    ("map_outline", {"file": "src/shop/models.py"}),
    ("map_outline", {"file": "src/shop/models.py", "detail": "full"}),
    ("map_outline", {"file": "src/shop/models.py", "kinds": ["method"]}),
    ("map_outline", {"file": "src/shop/models.py", "tokenBudget": 150}),
    ("map_outline", {"file": "src/shop/models.py", "tokenBudget": 150, "offset": 8}),
    ("map_outline", {"file": "scripts/legacy.py"}),
    ("map_node", {"id": "py:src/shop/models.py#Order", "include": ["doc", "children", "source"]}),
    ("map_node", {"id": "py:src/shop/models.py#Order", "include": ["source"], "tokenBudget": 150}),
    ("map_node", {"id": "py:src/shop/pricing.py"}),
    ("map_node", {"id": "py:src/shop/models.py#Order", "kinds": ["field"], "detail": "full"}),
    ("map_neighbors", {"id": "py:src/shop/models.py#Order.save", "direction": "out"}),
    ("map_neighbors", {"id": "py:src/shop/models.py#Base", "direction": "in", "depth": 2}),
    ("map_neighbors", {"id": "py:src/shop/models.py#Order", "edgeKinds": ["contains"]}),
    ("nav_definition", {"file": "src/shop/cli.py", "line": 9, "col": 24}),
    ("nav_definition", {"file": "src/shop/cli.py", "line": 7}),
    ("nav_definition", {"symbol": "Order.add", "source": "map"}),
    ("nav_definition", {"symbol": "save"}),
    ("nav_definition", {"symbol": "Order.add", "detail": "full"}),
    ("nav_references", {"symbol": "Base.save", "includeDeclaration": True}),
    ("nav_references", {"id": "py:src/shop/pricing.py#Price", "fileFilter": "src/"}),
    ("nav_references", {"symbol": "Order", "tokenBudget": 160}),
    ("nav_references", {"symbol": "Base.save", "detail": "full"}),
    ("nav_references", {"symbol": "save"}),
    ("nav_hover", {"symbol": "Order.add"}),
    ("nav_hover", {"symbol": "save"}),
    ("nav_call_hierarchy", {"symbol": "Base.validate", "direction": "incoming", "depth": 2}),
    ("nav_call_hierarchy", {"id": "py:src/shop/models.py#Order.save", "direction": "outgoing",
                            "source": "map"}),
    ("nav_type_hierarchy", {"symbol": "Base", "direction": "subtypes"}),
    ("nav_type_hierarchy", {"symbol": "Base", "direction": "subtypes", "detail": "full"}),
    ("nav_type_hierarchy", {"symbol": "Order", "direction": "supertypes", "source": "map"}),
    ("nav_diagnostics", {"file": "scripts/legacy.py"}),
    ("nav_rename_preview", {"symbol": "Base.save", "newName": "persist"}),
    ("nav_diagnostics", {"file": "scripts/legacy.py", "detail": "full"}),
    # errors
    ("nav_rename_preview", {"symbol": "Base.save", "newName": "not valid"}),
    ("nav_call_hierarchy", {"symbol": "Base.save"}),
    ("map_node", {"id": "nonsense"}),
    ("map_node", {"id": "py:src/shop/models.py#Nope"}),
    ("map_outline", {"file": "nope.py"}),
    ("map_outline", {"file": "../../etc/passwd"}),
    ("map_outline", {"file": "pyproject.toml"}),
    ("nav_definition", {}),
    ("nav_definition", {"file": "src/shop/cli.py", "line": 16, "col": 12}),
    ("nav_definition", {"file": "src/shop/cli.py", "line": 3, "col": 1}),
    ("nav_references", {"symbol": "Order", "source": "lsp"}),
    ("map_search", {"query": "..."}),
]


@pytest.fixture(scope="module")
def shop() -> Iterator[Workspace]:
    # A root whose path always has the same length: answers carry it, and `used` counts it.
    base = Path(tempfile.mkdtemp(prefix="codenav-golden-", dir="/tmp"))
    root = base / "shop"
    shutil.copytree(SHOP, root)
    past = time.time() - 60  # settled files: nothing is stale
    for path in root.rglob("*"):
        if path.is_file():
            import os
            os.utime(path, (past, past))
    index_tree(root)
    yield Workspace(root)
    shutil.rmtree(base, ignore_errors=True)


def call(ws: Workspace, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    return anyio.run(call_tool, ws, tool, args)


def test_tools_golden(shop: Workspace) -> None:
    sections = []
    for tool, args in CALLS:
        envelope = call(shop, tool, args)
        assert envelope["tokenBudget"]["used"] <= envelope["tokenBudget"]["requested"]
        text = json.dumps(envelope, indent=1, ensure_ascii=False)
        sections.append(f"### {tool} {json.dumps(args)}\n{text.replace(str(shop.root), '<root>')}")
    check_golden(SHOP.parent / "shop.tools.golden", "\n\n".join(sections) + "\n")


def test_read_your_writes(shop: Workspace, tmp_path: Path) -> None:
    ws = Workspace(shop.root)
    before = call(ws, "map_outline", {"file": "src/shop/customers.py", "detail": "full"})
    names = [s["name"] for s in before["data"]["symbols"]]
    assert names == ["Customer", "make_customer"]
    path = ws.root / "src" / "shop" / "customers.py"
    original = path.read_text()
    try:
        path.write_text(original + "\n\ndef farewell():\n    return 'bye'\n")
        after = call(ws, "map_outline", {"file": "src/shop/customers.py"})
        assert after["data"]["symbols"][-1] == "10-11 function farewell | def farewell()"
        assert "stale" not in after["data"] and after["warnings"] == []
        found = call(ws, "nav_definition", {"symbol": "farewell"})
        assert found["ok"] and parse_node_row(found["data"]["definitions"][0]).line == 10
    finally:
        path.write_text(original)
        index_tree(ws.root)


def test_stale_results_are_marked_when_not_refreshed(shop: Workspace) -> None:
    ws = Workspace(shop.root)
    path = ws.root / "src" / "shop" / "pricing.py"
    original = path.read_text()
    try:
        path.write_text(original + "\n# touched\n")
        found = call(ws, "map_search", {"query": "Price", "exact": True})
        assert parse_node_row(found["data"]["results"][0]).notes["stale"] == "true"
        assert any("stale:true" in w for w in found["warnings"])
    finally:
        path.write_text(original)
        index_tree(ws.root)
