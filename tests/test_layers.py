"""Imports flow one way (STYLE.md): files → index → store → tools → envelope → server."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "codenav"

# module prefix -> codenav modules it must never import
FORBIDDEN = {
    "codenav.model": ("codenav.index", "codenav.store", "codenav.cli"),
    "codenav.positions": ("codenav.index", "codenav.store", "codenav.cli"),
    "codenav.errors": ("codenav.index", "codenav.store", "codenav.cli"),
    "codenav.store": ("codenav.index", "codenav.cli"),
    "codenav.index": ("codenav.cli",),
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


def modules() -> list[tuple[str, set[str]]]:
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        name = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        name = name.removesuffix(".__init__")
        imported: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module:
                imported.add(node.module)
        out.append((name, imported))
    return out


@pytest.mark.parametrize(("module", "imported"), modules(), ids=lambda v: v if isinstance(v, str)
                         else "")
def test_imports_flow_one_way(module: str, imported: set[str]) -> None:
    for prefix, banned in FORBIDDEN.items():
        if module == prefix or module.startswith(prefix + "."):
            bad = {name for name in imported if name.startswith(banned)}
            assert not bad, f"{module} must not import {sorted(bad)}"
    for package, owners in ONLY_IN.items():
        uses = {name for name in imported if name == package or name.startswith(package + ".")}
        if uses:
            assert module.startswith(owners), f"only {owners} may import {package} ({module})"
