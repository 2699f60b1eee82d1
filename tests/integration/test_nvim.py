"""`codenav lsp` in a real editor: Neovim (0.7 and later, headless) with its built-in LSP
client asks definition, references, hover, document and workspace symbols from the
cursor, as a user would (tests/integration/nvim_lsp_client.lua), and the answers are
checked against what the shop fixture holds — also after unsaved edits (didChange), which
codenav answers from the buffer. scripts/test.sh installs Debian's neovim."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from codenav.index.pipeline import index_tree
from tests.conftest import FIXTURES

pytestmark = pytest.mark.slow

SCRIPT = Path(__file__).with_name("nvim_lsp_client.lua")
NVIM = shutil.which("nvim")


def where(root: Path, location: dict[str, Any]) -> tuple[str, int, int]:
    path = Path(location["uri"].removeprefix("file://")).relative_to(root).as_posix()
    start = location["range"]["start"]
    return path, start["line"], start["character"]


@pytest.mark.skipif(NVIM is None, reason="neovim not installed: apt-get install neovim")
def test_neovim_navigates_through_codenav_lsp(tmp_path: Path) -> None:
    assert NVIM is not None
    root = tmp_path / "shop"
    shutil.copytree(FIXTURES / "repos" / "shop", root)
    index_tree(root)
    out = tmp_path / "answers.json"
    home = tmp_path / "nvim-home"  # its log, state and shada stay here, not in ~
    env = {**os.environ, "CODENAV_ARGV": json.dumps([sys.executable, "-m", "codenav", "lsp",
                                                     str(root)]),
           "CODENAV_ROOT": str(root), "CODENAV_OUT": str(out),
           **{f"XDG_{kind}_HOME": str(home / kind.lower())
              for kind in ("CONFIG", "DATA", "STATE", "CACHE")}}
    started = time.monotonic()
    done = subprocess.run([NVIM, "--headless", "--clean", "-n", "-i", "NONE",
                           "-c", f"luafile {SCRIPT}"], env=env, cwd=tmp_path,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120,
                          check=False)
    took = time.monotonic() - started
    assert out.exists(), f"nvim wrote no answers (status {done.returncode}): {done.stderr}"
    answers = json.loads(out.read_text())
    assert "failure" not in answers, answers["failure"]
    assert done.returncode == 0, done.stderr
    requests = answers["requests"]
    errors = {name: r["error"] for name, r in requests.items() if "error" in r}
    assert not errors, errors

    # cli.py line 9 `order.add(product).total()`: the cursor on `total`, which the editor
    # sends as line 8, character 23 — and the map resolves through add's return annotation
    assert answers["definition_position"] == {"line": 8, "character": 23}
    assert [where(root, loc) for loc in requests["definition"]["result"]] == [
        ("src/shop/models.py", 38, 8)]

    # Base.save (models.py line 10), without its declaration
    assert sorted(where(root, loc) for loc in requests["references"]["result"]) == [
        ("src/shop/cli.py", 10, 23), ("src/shop/models.py", 35, 16),
        ("src/shop/models.py", 43, 23)]

    hover = requests["hover"]["result"]["contents"]
    assert hover["kind"] == "markdown"
    assert 'def add(self, product: Product, qty=1) -> "Order"' in hover["value"]
    assert "Order.add" in hover["value"]

    symbols = {s["name"]: s for s in requests["document_symbols"]["result"]}
    assert list(symbols) == ["Base", "Product", "Order"]
    assert all(s["kind"] == 5 for s in symbols.values())  # SymbolKind.Class
    # methods (6) and the attributes __init__ sets (8: Field), in source order
    assert [(c["name"], c["kind"]) for c in symbols["Order"]["children"]] == [
        ("__init__", 6), ("lines", 8), ("customer", 8), ("add", 6), ("total", 6),
        ("save", 6)]
    assert symbols["Order"]["selectionRange"]["start"] == {"line": 28, "character": 6}

    found = requests["workspace_symbols"]["result"]
    assert [(s["name"], s["kind"], where(root, s["location"])) for s in found] == [
        ("Order", 5, ("src/shop/models.py", 28, 6))]

    # didChange: five lines typed at the top of cli.py, unsaved; the cursor on `total` at
    # its new line is answered from the buffer, and Base.save's use in cli.py is reported
    # where the buffer has it (line 16, 0-based 15), not where the file on disk has it
    assert answers["changed_position"] == {"line": 13, "character": 23}
    assert [where(root, loc) for loc in requests["definition_after_change"]["result"]] == [
        ("src/shop/models.py", 38, 8)]
    assert sorted(where(root, loc) for loc in requests["references_after_change"]["result"]) \
        == [("src/shop/cli.py", 15, 23), ("src/shop/models.py", 35, 16),
            ("src/shop/models.py", 43, 23)]
    assert answers["modified"] is True  # the buffer holds unsaved changes
    assert not (root / "src" / "shop" / "cli.py").read_text().startswith("# one")

    # nvim's client.stop(): shutdown, then exit, and codenav lsp leaves with status 0
    assert answers["stopped"] is True
    assert answers["exit"] == {"code": 0, "signal": 0}
    print(f"neovim session: {took:.1f} s")
