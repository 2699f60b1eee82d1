"""Shell calls share warm language servers (codenav/warm.py): the first ``codenav call``
answers from the map and starts ``codenav warm`` in the background; later calls get
basedpyright's answers through it; it is owner-only, one per workspace, and leaves when
idle — with its language servers."""

from __future__ import annotations

import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from codenav.index.pipeline import index_tree
from tests.conftest import FIXTURES, run_codenav
from tests.integration.test_lsp_nav import require

pytestmark = pytest.mark.slow


def _env(tmp_path: Path, idle: float) -> dict[str, str]:
    run = tmp_path / "run"
    run.mkdir(mode=0o700, exist_ok=True)
    return {"CODENAV_WARM": "1", "XDG_RUNTIME_DIR": str(run),
            "CODENAV_WARM_IDLE": str(idle)}


def _call(root: Path, env: dict[str, str], tool: str, args: dict[str, Any]) -> dict[str, Any]:
    done = run_codenav("call", tool, json.dumps(args), "--root", root, env=env)
    envelope: dict[str, Any] = json.loads(done.stdout)
    return envelope


def _warm_pids(root: Path) -> list[int]:
    found = subprocess.run(["pgrep", "-f", f" warm {root}"], capture_output=True,
                           text=True, check=False)
    return [int(pid) for pid in found.stdout.split()]


def _servers_of(pid: int) -> list[int]:
    """The processes of the language servers a warm server started (its descendants)."""
    found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True,
                           check=False)
    return [int(child) for child in found.stdout.split()]


def _gone(pids: list[int], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not any(Path(f"/proc/{pid}").exists() and
                   Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z" for pid in pids):
            return True
        time.sleep(0.2)
    return False


def test_shell_calls_get_the_language_server_through_a_warm_server(tmp_path: Path) -> None:
    require("python")
    root = tmp_path / "shop"
    shutil.copytree(FIXTURES / "repos" / "shop", root)
    index_tree(root)
    env = _env(tmp_path, idle=120)
    args = {"symbol": "Base.save"}
    try:
        first = _call(root, env, "nav_references", args)
        assert first["ok"] and first["data"]["source"] == "map", first
        assert any("starting in the background" in w for w in first.get("warnings", [])), first
        # the warm server's basedpyright loads meanwhile; later calls are answered by it
        deadline = time.monotonic() + 90
        answer = first
        while answer["data"]["source"] == "map" and time.monotonic() < deadline:
            time.sleep(1)
            answer = _call(root, env, "nav_references", args)
        assert answer["data"]["source"] in ("lsp", "lsp+map"), answer
        pids = _warm_pids(root)
        assert len(pids) == 1, pids  # one per workspace, however many calls
        folder = tmp_path / "run" / "codenav"
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
        (sock,) = folder.glob("*.sock")
        assert stat.S_IMODE(sock.stat().st_mode) == 0o600
        servers = _servers_of(pids[0])
        assert servers, "the warm server runs a language server"
        os.kill(pids[0], signal.SIGTERM)
        assert _gone([pids[0], *servers], 10), "the warm server and its servers leave"
        # a call after it left answers itself again, and starts a new one
        again = _call(root, env, "nav_hover", {"symbol": "Base"})
        assert again["ok"]
    finally:
        for pid in _warm_pids(root):
            os.kill(pid, signal.SIGKILL)


def test_reading_the_tools_starts_the_warm_server_of_a_mapped_root(tmp_path: Path) -> None:
    # runs 40-45: each repository's first answers came from the map alone (the warm server
    # started with the first call), and agents checked them by hand; `codenav tools`, an
    # agent's first command, now starts it
    bare = tmp_path / "bare"
    bare.mkdir()
    (bare / "a.py").write_text("def f():\n    return 1\n")
    root = tmp_path / "repo"
    root.mkdir()
    (root / "a.py").write_text("def f():\n    return 1\n")
    index_tree(root)
    env = _env(tmp_path, idle=30)
    try:
        assert run_codenav("tools", cwd=bare, env=env).returncode == 0
        assert run_codenav("tools", cwd=root, env=env).returncode == 0
        deadline = time.monotonic() + 30
        folder = tmp_path / "run" / "codenav"
        while not list(folder.glob("*.sock")) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len(_warm_pids(root)) == 1 and not _warm_pids(bare)  # (no map: none)
        # asked again, the one running answers: no second one
        assert run_codenav("call", "map_search", "--help", cwd=root, env=env).returncode == 0
        answer = _call(root, env, "map_search", {"query": "f"})
        assert answer["ok"] and answer["data"]["total"] == 1
        assert len(_warm_pids(root)) == 1
        # off: nothing starts
        off = tmp_path / "off"
        shutil.copytree(root, off)
        assert run_codenav("tools", cwd=off, env={**env, "CODENAV_WARM": "0"}).returncode == 0
        time.sleep(1)
        assert not _warm_pids(off)
    finally:
        for pid in _warm_pids(root) + _warm_pids(bare):
            os.kill(pid, signal.SIGKILL)


def test_a_warm_server_leaves_when_idle(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "a.py").write_text("def f():\n    return 1\n")
    index_tree(root)
    env = {**os.environ, **_env(tmp_path, idle=1)}
    warm = subprocess.Popen([sys.executable, "-m", "codenav", "warm", str(root)], env=env,
                            stdin=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        folder = tmp_path / "run" / "codenav"
        while not list(folder.glob("*.sock")) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert list(folder.glob("*.sock")), "it listens"
        answer = _call(root, _env(tmp_path, idle=1), "map_search", {"query": "f"})
        assert answer["ok"] and answer["data"]["total"] == 1
        # a second one for the same workspace leaves at once: one serves
        second = subprocess.run([sys.executable, "-m", "codenav", "warm", str(root)], env=env,
                                capture_output=True, timeout=30, check=False)
        assert second.returncode == 1
        assert warm.wait(timeout=30) == 0  # idle for a second: gone
        assert not list(folder.glob("*.sock"))
    finally:
        if warm.poll() is None:
            warm.kill()


def test_another_build_of_the_same_version_is_not_answered_by_the_old_one(
        tmp_path: Path) -> None:
    # an edited or reinstalled codenav of the same version kept being answered by the warm
    # server of the code it replaced (until that server went idle)
    from codenav.warm import build_of

    package = tmp_path / "codenav"
    (package / "tools").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "tools" / "render.py").write_text("A = 1\n")
    first = build_of(package)
    assert build_of(package) == first
    (package / "tools" / "render.py").write_text("A = 22\n")
    assert build_of(package) != first
