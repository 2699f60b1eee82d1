"""Shared helpers: sample repositories on disk and the codenav command as a subprocess."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from mcp import ClientSession

    from codenav.workspace import Workspace

FIXTURES = Path(__file__).parent / "fixtures"
UPDATE_GOLDEN = os.environ.get("UPDATE_GOLDEN") == "1"
# Shell calls in tests answer themselves: a warm server (codenav/warm.py) outliving a test
# would share its language servers with the next. tests/integration/test_warm.py turns it on.
os.environ["CODENAV_WARM"] = "0"


def envelope(result: Any) -> dict[str, Any]:
    """The envelope of an MCP tool result (its one text block)."""
    parsed: dict[str, Any] = json.loads(result.content[0].text)
    return parsed


@asynccontextmanager
async def mcp_session(root: Path, *flags: str, cwd: Path | None = None
                      ) -> AsyncIterator[ClientSession]:
    """A real MCP client session with ``codenav mcp ROOT --no-watch FLAGS`` over stdio
    (its stderr dropped; started in ``cwd`` when given), initialized within 30 s."""
    import anyio
    from mcp import ClientSession, StdioServerParameters, stdio_client

    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "codenav", "mcp", str(root), "--no-watch", *flags],
                                   env=dict(os.environ), cwd=cwd)
    with open(os.devnull, "w") as errors:
        async with stdio_client(params, errlog=errors) as (read, write), \
                ClientSession(read, write) as session:
            with anyio.fail_after(30):
                await session.initialize()
            yield session


def write_tree(root: Path, files: dict[str, str | bytes]) -> Path:
    """Create ``files`` (relative path -> content) under ``root``."""
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root


def run_codenav(*args: str | Path, cwd: Path | None = None, timeout: float = 120,
                env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``python -m codenav ARGS`` and capture its output."""
    merged = {key: value for key, value in os.environ.items() if key != "CODENAV_DB"}
    merged.update(env or {})
    return subprocess.run([sys.executable, "-m", "codenav", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=timeout, env=merged,
                          stdin=subprocess.DEVNULL, check=False)


def check_golden(path: Path, actual: str) -> None:
    """Compare with a golden file; ``UPDATE_GOLDEN=1`` rewrites it instead."""
    if UPDATE_GOLDEN or not path.exists():
        if not UPDATE_GOLDEN:
            pytest.fail(f"golden {path.name} is missing; run with UPDATE_GOLDEN=1 to create it")
        path.write_text(actual, encoding="utf-8")
        return
    expected = path.read_text(encoding="utf-8")
    assert actual == expected, f"{path.name} differs (UPDATE_GOLDEN=1 regenerates it)"


@pytest.fixture
def make_repo(tmp_path: Path) -> Callable[[dict[str, str | bytes]], Path]:
    def make(files: dict[str, str | bytes]) -> Path:
        return write_tree(tmp_path / "repo", files)
    return make


def render_links(root: Path) -> str:
    """Every reference of an indexed tree that resolved (or has a key), one line each."""
    conn = sqlite3.connect(root / ".codenav" / "map.db")
    rows = conn.execute(
        "SELECT f.path, r.line, r.col, r.name, r.kind, t.nid, r.key FROM refs r "
        "JOIN files f ON f.id = r.file_id LEFT JOIN nodes t ON t.id = r.target_id "
        "WHERE r.target_id IS NOT NULL OR r.key IS NOT NULL ORDER BY f.path, r.line, r.col")
    out = []
    for path, line, col, name, kind, target, key in rows:
        means = target if target else f"unresolved {key}"
        out.append(f"{path}:{line}:{col} {name} ({kind}) -> {means}")
    conn.close()
    return "\n".join(out) + "\n"


@contextmanager
def mapped(tmp_path: Path, files: dict[str, str | bytes]) -> Iterator[Workspace]:
    """A workspace over ``files`` written under ``tmp_path/repo`` and mapped, closed after."""
    from codenav.index.pipeline import index_tree
    from codenav.workspace import Workspace

    root = write_tree(tmp_path / "repo", files)
    index_tree(root)
    ws = Workspace(root)
    try:
        yield ws
    finally:
        ws.close()


def indexed_repo(name: str, tmp_path: Path) -> Path:
    """A copy of ``tests/fixtures/repos/<name>`` in ``tmp_path``, indexed."""
    from codenav.index.pipeline import index_tree

    root = tmp_path / name
    shutil.copytree(FIXTURES / "repos" / name, root)
    index_tree(root)
    return root
