"""nav_references in C: a header's prototype is a declaration (listed only with
includeDeclaration), and uses in lines the preprocessor compiles out are left out."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest

from codenav.index.pipeline import index_tree
from codenav.tools.dispatch import call_tool
from codenav.workspace import Workspace
from tests.conftest import FIXTURES


@pytest.fixture(scope="module")
def ws(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Workspace]:
    root = tmp_path_factory.mktemp("c") / "repo"
    shutil.copytree(FIXTURES / "refs" / "c", root)
    index_tree(root)
    workspace = Workspace(root)
    yield workspace
    workspace.close()


def refs(ws: Workspace, nid: str = "c:reply.c#freeReply", **args: Any
         ) -> set[tuple[str, int, str]]:
    envelope: dict[str, Any] = anyio.run(call_tool, ws, "nav_references", {
        "id": nid, "source": "map", "detail": "full", "tokenBudget": 8000, **args})
    assert envelope["ok"], envelope
    return {(path, ref["line"], ref["kind"])
            for path, found in envelope["data"]["references"].items() for ref in found}


def lines_of(path: Path, marker: str) -> set[int]:
    """Lines of code right above an assertion comment ``marker`` in a fixture file."""
    text = path.read_text("utf-8").splitlines()
    out = set()
    for number, line in enumerate(text, 1):
        if line.strip().startswith("//") and line.strip().endswith(marker):
            above = number - 1
            while text[above - 1].strip().startswith("//"):
                above -= 1
            out.add(above)
    return out


def test_prototypes_are_declarations(ws: Workspace) -> None:
    without = refs(ws)
    assert not any(path == "reply.h" for path, _, _ in without), without
    declared = refs(ws, includeDeclaration=True)
    assert any(path == "reply.h" and kind == "declaration" for path, _, kind in declared), \
        declared


def test_compiled_out_uses_are_left_out(ws: Workspace) -> None:
    found = {line for path, line, _ in refs(ws) if path == "conditions.c"}
    source = FIXTURES / "refs" / "c" / "conditions.c"
    out, kept = lines_of(source, "^ inactive"), lines_of(source, "^ active")
    assert kept and kept <= found, (kept, found)
    assert out and not (out & found), (out, found)


def test_a_compiled_out_namesake_is_no_declaration(ws: Workspace) -> None:
    """`#ifdef _WIN32 typedef … socketFD; #else typedef int socketFD;`: the references of the
    compiled one do not list the other as a declaration."""
    found = refs(ws, "c:conditions.c#socketFD~2", includeDeclaration=True)
    assert {line for _, line, _ in found} == {50, 52}, found  # itself, and the use


def test_a_compiled_out_rust_item_is_no_declaration_and_holds_no_use(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """`#[cfg(unix)] fn separator()` beside `#[cfg(not(unix))] fn separator()`: one symbol
    on this machine, whose references are not the other nor uses in `#[cfg(windows)]`."""
    root = tmp_path_factory.mktemp("rust") / "repo"
    shutil.copytree(FIXTURES / "refs" / "rust", root)
    index_tree(root)
    workspace = Workspace(root)
    try:
        found = refs(workspace, "rs:src/flags/lowargs.rs#separator", includeDeclaration=True)
    finally:
        workspace.close()
    lowargs = (FIXTURES / "refs" / "rust" / "src" / "flags" / "lowargs.rs").read_text()
    windows = lowargs.splitlines().index("pub fn windows_separator() -> char {") + 2
    unix = lowargs.splitlines().index("pub fn unix_separator() -> char {") + 2
    lines = {(path, line) for path, line, _ in found}
    assert ("src/flags/lowargs.rs", unix) in lines and ("src/flags/hiargs.rs", 32) in lines
    assert ("src/flags/lowargs.rs", windows) not in lines
    declared = {line for path, line, kind in found if kind == "declaration"}
    assert declared == {lowargs.splitlines().index("pub fn separator() -> char {") + 1}


def test_a_use_of_a_macro_is_a_use_of_what_its_body_names(ws: Workspace) -> None:
    """`#define check(_c) if (!(_c)) { fails++; }`: `check(…)` uses `fails` where it is
    written (a compiler's references are at the expansion), not only inside the macro."""
    found = refs(ws, "c:reply.c#fails")
    source = (FIXTURES / "refs" / "c" / "reply.c").read_text().splitlines()
    use = next(i for i, line in enumerate(source, 1) if line.strip().startswith("check(r->"))
    assert ("reply.c", use, "call") in found, found
