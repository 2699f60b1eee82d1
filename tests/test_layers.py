"""Imports flow one way (STYLE.md): files → index → store → query → tools/render → envelope →
server. Every module of codenav has a layer; it may import only from lower layers (and, inside
a package, only from the modules ranked below it), so any upward import fails here."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "codenav"

# codenav's top-level modules and packages, lowest first; one layer's members do not import
# each other either (they are independent)
LAYERS: tuple[tuple[str, ...], ...] = (
    ("model", "positions", "errors", "words", "lifetime", "children", "__init__"),
    ("files", "paths", "config_schema", "envelope", "setup"),
    ("config", "store"),
    ("index",),
    ("roots", "lsp"),
    ("workspace",),
    ("query",),
    ("buffers", "tools"),
    ("warm",),
    ("server", "lsp_server"),
    ("cli",),
    ("__main__",),
)
# inside a package: module -> the modules of the same package it may import
INSIDE: dict[str, dict[str, frozenset[str]]] = {
    "query": {
        "__init__": frozenset(), "source": frozenset(), "fresh": frozenset(),
        "outline": frozenset(),
        "locate": frozenset({"fresh", "source"}),
        "live": frozenset({"fresh", "locate"}),
        "search": frozenset({"locate"}),
        "text": frozenset({"imports", "locate", "source"}),
        "imports": frozenset(),
        "receivers": frozenset(),
        "definitions": frozenset({"locate"}),
        "checks": frozenset({"locate"}),
        "hierarchy": frozenset({"live", "locate"}),
        "references": frozenset({"fresh", "imports", "live", "locate", "receivers",
                                 "source", "text"}),
    },
    "tools": {
        "__init__": frozenset(), "rows": frozenset(), "base": frozenset(),
        "render": frozenset({"rows"}),
        "common": frozenset({"base", "rows"}),
        **{handlers: frozenset({"base", "common", "render", "rows"}) for handlers in (
            "map_tools", "nav_tools", "hierarchy_tools", "check_tools", "status_tools")},
        "registry": frozenset({"base"}),
        "help": frozenset({"base", "registry"}),
        "dispatch": frozenset({"base", "registry", "render"}),
    },
}
# third-party packages only one place may import
ONLY_IN = {
    "mcp": ("codenav.server",),
    "pygls.lsp.server": ("codenav.lsp_server",),
    "tree_sitter": ("codenav.index",),
    "tree_sitter_language_pack": ("codenav.index",),
    "sqlite3": ("codenav.store", "codenav.index"),  # the readers of tools go through store.read
    "numpy": ("codenav.index.rank",),
}
RANK = {name: rank for rank, layer in enumerate(LAYERS) for name in layer}


def modules() -> list[tuple[str, set[str]]]:
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        name = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        imported: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module:
                imported.add(node.module)
                if node.module.count(".") == 1:  # `from codenav.tools import rows`
                    imported.update(f"{node.module}.{alias.name}" for alias in node.names)
        out.append((name, imported))
    return out


def test_every_module_has_a_layer() -> None:
    tops = {path.stem if path.is_file() else path.name for path in PACKAGE.iterdir()
            if path.suffix == ".py" or (path / "__init__.py").exists()}
    assert tops == set(RANK), "give each codenav module a layer in LAYERS"
    for package, order in INSIDE.items():
        inside = {path.stem for path in (PACKAGE / package).glob("*.py")}
        assert inside == set(order), f"give each module of codenav/{package} its place"


@pytest.mark.parametrize(("module", "imported"), modules(), ids=lambda v: v if isinstance(v, str)
                         else "")
def test_imports_flow_one_way(module: str, imported: set[str]) -> None:
    parts = module.split(".")
    top = parts[1]
    for name in imported:
        other = name.split(".")
        if other[0] != "codenav" or len(other) < 2:
            continue
        if other[1] == top:
            if top in INSIDE and len(parts) > 2 and len(other) > 2:
                assert other[2] in INSIDE[top][parts[2]] | {parts[2]}, \
                    f"{module} must not import {name} (codenav/{top}'s modules flow one way)"
            continue
        assert RANK[other[1]] < RANK[top], f"{module} (layer {RANK[top]}) must not import " \
                                           f"{name} (layer {RANK[other[1]]})"
    for package, owners in ONLY_IN.items():
        uses = {name for name in imported if name == package or name.startswith(package + ".")}
        if uses:
            assert module.startswith(owners), f"only {owners} may import {package} ({module})"


def test_an_upward_import_is_caught() -> None:
    """The rule itself: a query module importing the renderer fails."""
    with pytest.raises(AssertionError, match="must not import"):
        test_imports_flow_one_way("codenav.query.locate", {"codenav.tools.render"})
    with pytest.raises(AssertionError, match="flow one way"):
        test_imports_flow_one_way("codenav.tools.render", {"codenav.tools.nav_tools"})
