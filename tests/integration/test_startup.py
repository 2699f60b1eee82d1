"""From start to first answer and back: which root a command maps (the command line's, the
MCP client's roots, CLAUDE_PROJECT_DIR, the git work tree, the current folder), roots that
are refused, `initialize` answered before the watcher is set up, a prompt exit with the WAL
folded into the map, and what a user sees who starts `codenav mcp` in a terminal."""

from __future__ import annotations

import json
import os
import pty
import select
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, ClientSession, StdioServerParameters, stdio_client
from mcp import types as mt

from codenav.index.pipeline import index_tree
from codenav.server import build_server
from codenav.store.origin import key_path
from codenav.workspace import Workspace
from tests.conftest import FIXTURES, run_codenav, write_tree

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    shutil.copytree(FIXTURES / "repos" / "shop", root)
    (root / ".git").mkdir()  # a work tree's top, as far as choosing the root goes
    return root


def _clean_env(**extra: str) -> dict[str, str]:
    """codenav's environment for these tests; with another HOME, the same map key (maps
    this test process made stay this user's: store/origin.py)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("CODENAV_DB", "CLAUDE_PROJECT_DIR")}
    env["XDG_STATE_HOME"] = str(key_path().parent.parent)
    env.update(extra)
    return env


def _status(cwd: Path, *args: str, **env: str) -> dict[str, Any]:
    done = run_codenav("status", *args, cwd=cwd, env=_clean_env(**env))
    assert done.returncode in (0, 1), done.stderr
    data: dict[str, Any] = json.loads(done.stdout)["data"]
    return data


def test_status_maps_the_work_tree_not_the_folder_it_runs_in(repo: Path) -> None:
    index_tree(repo)
    deep = repo / "src" / "shop"
    data = _status(deep)
    assert (data["root"], data["rootFrom"], data["built"]) == (str(repo), "git", True)
    # ROOT by position (as before) or --root, as every other command takes it
    assert _status(deep, str(deep))["rootFrom"] == "argument"
    assert _status(deep, "--root", str(repo))["root"] == str(repo)


def test_claude_project_dir_names_the_root(repo: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    data = _status(elsewhere, CLAUDE_PROJECT_DIR=str(repo))
    assert (data["root"], data["rootFrom"]) == (str(repo), "CLAUDE_PROJECT_DIR")


def test_codenav_mcp_refuses_the_file_system_root_and_home(tmp_path: Path) -> None:
    done = run_codenav("mcp", "/", "--no-watch", timeout=30)
    assert done.returncode == 2, done.stderr
    assert "file system's root" in done.stderr and "--allow-large-root" in done.stderr
    assert not Path("/.codenav").exists()
    home = tmp_path / "home"
    home.mkdir()
    # (`codenav lsp` and `codenav mcp` without ROOT wait for their client's folders)
    for args in (["status"], ["index"], ["call", "map_status"], ["lsp", str(home)]):
        done = run_codenav(*args, cwd=home, env=_clean_env(HOME=str(home)), timeout=30)
        assert done.returncode == 2, (args, done.stderr)
        assert "home folder" in done.stderr, (args, done.stderr)
    assert not (home / ".codenav").exists()


async def test_the_mcp_client_roots_choose_the_root(repo: Path, tmp_path: Path) -> None:
    index_tree(repo)
    started_in = tmp_path / "home"
    started_in.mkdir()
    asked: list[str] = []

    async def roots(context: Any) -> mt.ListRootsResult:
        asked.append("roots/list")
        return mt.ListRootsResult(roots=[mt.Root(uri=repo.as_uri(), name="repo")])

    # started in the home folder, as some clients do: the client's root wins over it
    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "codenav", "mcp", "--lsp", "off", "--no-watch"],
                                   cwd=str(started_in), env=_clean_env(HOME=str(started_in)))
    with (tmp_path / "stderr.log").open("w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write), \
                ClientSession(read, write, list_roots_callback=roots) as session:
            await session.initialize()
            result = await session.call_tool("map_status", {})
    data = (result.structured_content or {})["data"]
    assert (data["root"], data["rootFrom"], data["built"]) == (str(repo), "client", True)
    assert asked == ["roots/list"]

    # without roots from the client, the home folder is refused in every answer
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        result = await session.call_tool("map_search", {"query": "Order"})
    envelope = result.structured_content or {}
    assert envelope["error"]["code"] == "MAP_NOT_BUILT"
    assert "home folder" in envelope["error"]["message"]
    assert not (started_in / ".codenav").exists()


async def test_initialize_is_answered_before_the_watcher_is_set_up(
        repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The order, not a time: a watcher whose setup never finishes must not hold
    `initialize` (the OS watch of a large tree takes seconds)."""
    index_tree(repo)
    release = threading.Event()
    order: list[str] = []

    def slow_watch(self: Workspace, *, wait: bool = True) -> None:
        order.append(f"watcher asked (wait={wait})")
        if wait:  # the old order: the server waited for the watch before serving
            release.wait(30)

    monkeypatch.setattr(Workspace, "start_watcher", slow_watch)
    ws = Workspace(repo, watch=True)
    try:
        with anyio.fail_after(20):
            async with Client(build_server(ws), mode="legacy") as client:
                order.append("initialized")
                found = await client.call_tool("map_search", {"query": "Order"})
                assert found.structured_content and found.structured_content["ok"]
    finally:
        release.set()
    # initialize was answered with the watch never set up; the watcher was started, and
    # not waited for
    assert sorted(order) == ["initialized", "watcher asked (wait=False)"], order


def test_a_clean_exit_is_prompt_and_folds_the_wal_into_the_map(tmp_path: Path) -> None:
    # enough folders that setting the watch up takes a while, and a first build running
    root = write_tree(tmp_path / "big", {f"p{i}/q{j}/m.py": f"def f{i}_{j}():\n    return 1\n"
                                         for i in range(40) for j in range(25)})
    proc = subprocess.Popen([sys.executable, "-m", "codenav", "mcp", str(root), "--lsp", "off"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, env=_clean_env())
    assert proc.stdin is not None and proc.stdout is not None
    hello = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
             "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                        "clientInfo": {"name": "t", "version": "1"}}}
    proc.stdin.write((json.dumps(hello) + "\n").encode())
    proc.stdin.flush()
    assert json.loads(proc.stdout.readline())["id"] == 1
    proc.stdin.write(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}\n')
    proc.stdin.flush()
    db = root / ".codenav" / "map.db"
    deadline = time.monotonic() + 60
    while not (db.exists() and index_done(db)):  # the first map, built in the background
        assert time.monotonic() < deadline, "the first build never finished"
        time.sleep(0.05)
    proc.stdin.close()
    closed = time.monotonic()
    proc.wait(timeout=3)  # raises past 3 s (docs/contract.md §1)
    proc.stdout.close()
    assert proc.returncode == 0
    print(f"exit {time.monotonic() - closed:.2f} s after stdin closed")
    wal = Path(f"{db}-wal")
    assert not wal.exists() or wal.stat().st_size == 0, wal.stat().st_size


def index_done(db: Path) -> bool:
    import sqlite3

    try:
        conn = sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True)
        try:
            row = conn.execute("SELECT value FROM meta WHERE key = 'building'").fetchone()
        finally:
            conn.close()
    except sqlite3.Error:
        return False
    return row is not None and row[0] == "0"


def test_codenav_mcp_in_a_terminal_says_it_waits_for_a_client(repo: Path) -> None:
    index_tree(repo)
    leader, follower = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "codenav", "mcp", str(repo), "--no-watch",
                             "--lsp", "off"], stdin=follower, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, env=_clean_env())
    os.close(follower)
    assert proc.stderr is not None
    said = b""
    deadline = time.monotonic() + 30
    while b"waiting for an MCP client" not in said:
        assert time.monotonic() < deadline, said
        ready, _, _ = select.select([proc.stderr], [], [], 0.5)
        if ready:
            said += os.read(proc.stderr.fileno(), 4096)
    os.write(leader, b"\x04")  # Ctrl-D: end of input, as a user would end it
    proc.wait(timeout=10)
    proc.stderr.close()
    os.close(leader)
    assert b"docs/clients.md" in said and b"codenav setup" in said


def test_an_empty_folder_gets_an_empty_map_and_says_so(tmp_path: Path) -> None:
    empty = write_tree(tmp_path / "notes", {"todo.txt": "nothing to map\n"})
    done = run_codenav("index", str(empty))
    assert done.returncode == 0
    assert "no source files" in done.stderr and "0 parsed" in done.stdout
    status = json.loads(run_codenav("status", str(empty)).stdout)
    assert any("holds no files" in w for w in status["warnings"])


def test_map_not_built_says_what_works(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "fresh", {"a.py": "def f():\n    return 1\n"})
    done = run_codenav("call", "nav_definition", '{"symbol": "f"}', "--root", str(root),
                       "--lsp", "off")
    error = json.loads(done.stdout)["error"]
    assert error["code"] == "MAP_NOT_BUILT"
    assert "regardless" not in error["hint"] and "codenav index" in error["hint"]


def test_the_wal_is_not_left_at_its_largest_beside_the_map(tmp_path: Path) -> None:
    """A write that ends while a server reads the map leaves the WAL as large as it was (the
    writer is not the last connection, and a run's own checkpoint gives up on a busy
    reader); a reader closing last cannot fold it in either. A server's clean exit does: no
    WAL the size of the map is left beside it."""
    import sqlite3

    root = write_tree(tmp_path / "repo", {f"pkg/m{i:04}.py": "".join(
        f"def f{i}_{j}(x):\n    return g{j}(x) + {j}\n" for j in range(20)) for i in range(600)})
    index_tree(root)
    db = root / ".codenav" / "map.db"
    wal = Path(f"{db}-wal")
    proc = subprocess.Popen([sys.executable, "-m", "codenav", "mcp", str(root), "--lsp", "off",
                             "--no-watch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, env=_clean_env())
    assert proc.stdin is not None and proc.stdout is not None

    def ask(ident: int, method: str, params: dict[str, Any]) -> dict[str, Any]:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write((json.dumps({"jsonrpc": "2.0", "id": ident, "method": method,
                                      "params": params}) + "\n").encode())
        proc.stdin.flush()
        while True:
            answer: dict[str, Any] = json.loads(proc.stdout.readline())
            if answer.get("id") == ident:
                return answer

    ask(1, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                          "clientInfo": {"name": "t", "version": "1"}})
    ask(2, "tools/call", {"name": "map_search", "arguments": {"query": "f1_1"}})  # a reader
    # a writer that ends while the server's reader is open, without a checkpoint of its own
    # (what a run whose checkpoint met a busy reader leaves): the WAL holds the whole write
    writer = sqlite3.connect(db, isolation_level=None)
    writer.execute("PRAGMA wal_autocheckpoint=0")
    writer.execute("UPDATE nodes SET hub = hub")
    writer.execute("UPDATE refs SET col = col")
    writer.close()
    large = wal.stat().st_size
    assert large > 256 * 1024
    proc.stdin.close()
    proc.wait(timeout=3)
    proc.stdout.close()
    size = wal.stat().st_size if wal.exists() else 0
    assert size == 0, f"WAL {size:,} bytes (was {large:,}) beside a {db.stat().st_size:,}-byte map"
