"""A repository nobody vetted (tests/hostile.py writes the cases), met by the real
``codenav index`` and ``codenav mcp``: it runs nothing, touches no other database, and
every file's work is bounded."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession

from tests import hostile
from tests.conftest import envelope, mcp_session, run_codenav, write_tree

pytestmark = pytest.mark.anyio

SOURCES = {"app/core.py": "class Engine:\n    def run(self):\n        return 1\n"}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A user configuration folder of the test's own (nothing trusted unless it says so)."""
    config = tmp_path / "user-config"
    config.mkdir()
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config))
    monkeypatch.delenv("CODENAV_TRUST_PROJECT_CONFIG", raising=False)
    return config


async def built_status(session: ClientSession) -> dict[str, Any]:
    with anyio.fail_after(60):
        while True:
            status = envelope(await session.call_tool("map_status", {}))
            if status["data"].get("built") and not status["data"].get("building"):
                return status
            await anyio.sleep(0.05)


async def wait_for(path: Path, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if path.exists():
            return True
        await anyio.sleep(0.1)
    return path.exists()


# ---------------------------------------------------------------- 1. configuration

@pytest.mark.parametrize("pyproject", [False, True], ids=["codenav-config", "pyproject"])
async def test_a_repositorys_language_server_command_is_not_run(
        tmp_path: Path, home: Path, pyproject: bool) -> None:
    root = write_tree(tmp_path / "repo", SOURCES)
    marker = hostile.repo_config_command(root, tmp_path / "ran", pyproject=pyproject)
    async with mcp_session(root) as session:
        status = await built_status(session)  # servers start once the map is built
        config = status["data"]["projectConfig"]
        assert config["trusted"] is False and "--trust-project-config" in config["allow"]
        assert any(item.startswith("lsp.python.command in ") for item in config["ignored"])
        assert any("did not run" in w for w in status.get("warnings", []))
        assert not await wait_for(marker, 4.0)
        later = envelope(await session.call_tool("map_status", {}))
        assert "basedpyright" in json.dumps(later["data"]["lsp"])  # the default, not theirs
    assert not marker.exists()


async def test_trusting_the_project_runs_its_command_but_force_root_needs_the_flag(
        tmp_path: Path, home: Path) -> None:
    root = write_tree(tmp_path / "repo", SOURCES)
    marker = hostile.repo_config_command(root, tmp_path / "ran")
    (home / "codenav").mkdir()
    (home / "codenav" / "config.toml").write_text(f'trusted = ["{root}"]\n')
    async with mcp_session(root, "--force-root", str(root)) as session:
        status = await built_status(session)
        assert status["data"]["projectConfig"]["trusted"] is False  # the list is not enough
        assert not await wait_for(marker, 3.0)
    async with mcp_session(root) as session:  # without --force-root the list trusts it
        status = await built_status(session)
        assert status["data"]["projectConfig"]["trusted"] is True
        assert await wait_for(marker, 20.0), "a trusted project's command should run"


async def test_the_repositorys_git_config_runs_nothing(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    marker = hostile.hostile_git_config(root, tmp_path / "ran")
    done = run_codenav("index", root, "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["parsed"] == 1  # tracked.py, listed by git
    assert not marker.exists()
    async with mcp_session(root) as session:  # the watcher's git check-ignore too
        await built_status(session)
    assert not marker.exists()


# ---------------------------------------------------------------- 2. other databases

@pytest.mark.parametrize("folder", [True, False], ids=["codenav-folder", "map-file"])
def test_a_symlinked_map_leaving_the_root_is_refused(tmp_path: Path, folder: bool) -> None:
    root = write_tree(tmp_path / "repo", SOURCES)
    victim = tmp_path / "other-app" / ("data" if folder else "app.db")
    before = hostile.symlinked_map(root, victim, folder=folder)
    victim_file = victim / "map.db" if folder else victim
    for command in (["index", root], ["index", root, "--full"], ["mcp", root]):
        done = run_codenav(*command, timeout=60)
        assert done.returncode == 2, (command, done.stderr)
        assert "is a symlink" in done.stderr and "Traceback" not in done.stderr
    assert victim_file.read_bytes() == before
    assert sorted(p.name for p in victim_file.parent.iterdir()) == [victim_file.name]


def test_a_named_database_codenav_did_not_make_is_refused(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo", SOURCES)
    victim = tmp_path / "app.db"
    before = hostile.other_apps_database(victim)
    done = run_codenav("index", root, "--db", victim)
    assert done.returncode == 2 and "did not make" in done.stderr, done.stderr
    by_env = run_codenav("index", root, env={"CODENAV_DB": str(victim)})
    assert by_env.returncode == 2 and "did not make" in by_env.stderr
    assert victim.read_bytes() == before and not Path(f"{victim}-wal").exists()
    ours = tmp_path / "ours.db"  # a path the user names for a new map is fine
    assert run_codenav("index", root, "--db", ours).returncode == 0
    assert run_codenav("index", root, "--db", ours, "--full").returncode == 0


# ------------------------------------------------------------ 4. names, FIFOs, the watcher

def test_odd_files_are_skipped_with_their_reason_and_the_run_completes(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo", SOURCES)
    hostile.undecodable_file_name(root)
    hostile.fifo_source(root)
    done = run_codenav("index", root, "--json", timeout=60)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["parsed"] == 1  # app/core.py
    assert report["skippedFiles"] == {"bad_name": ["bad\\xffname.py"],
                                      "not_a_file": ["pipe.py"]}
    status = run_codenav("status", root)
    assert json.loads(status.stdout)["data"]["built"] is True


def test_the_watcher_survives_a_name_it_cannot_report(tmp_path: Path) -> None:
    from codenav.index.pipeline import index_tree
    from codenav.workspace import Workspace

    root = write_tree(tmp_path / "repo", SOURCES)
    index_tree(root)
    ws = Workspace(root, watch=True)
    ws.start_watcher()
    try:
        hostile.undecodable_file_name(root)  # watchfiles cannot decode it: its watch fails
        write_tree(root, {"app/later.py": "def later():\n    return 2\n"})
        assert ws.watcher is not None
        state = ws.watcher.state
        deadline = time.monotonic() + 20
        while not ws.reader().nodes_named("later") or state.state != "watching":
            assert time.monotonic() < deadline, state.to_dict()
            time.sleep(0.05)
        assert state.restarts >= 1  # it failed, restarted, and caught up with the edit
        write_tree(root, {"app/after.py": "def after():\n    return 3\n"})  # and watches
        while not ws.reader().nodes_named("after"):
            assert time.monotonic() < deadline, state.to_dict()
            time.sleep(0.05)
    finally:
        ws.close()


# ------------------------------------------------------ 3. bounded work, 7. odd line ends

def test_deep_nesting_is_bounded_and_marked(tmp_path: Path) -> None:
    # c = a.b.b… and g(g(…)) 50k deep: 295 s and 108 s, and a watcher stalled, before
    root = write_tree(tmp_path / "repo", SOURCES)
    hostile.deep_attribute_chain(root)
    hostile.deep_call_nesting(root)
    done = run_codenav("index", root, "--json", timeout=60)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert sorted(f["file"] for f in report["failed"] if f["status"] == "timeout") == [
        "deep_attr.py", "deep_call.py"]
    outline = json.loads(run_codenav("call", "map_outline", '{"file": "deep_attr.py"}',
                                     "--root", root).stdout)
    assert outline["data"]["status"] == "timeout"  # mapped, and marked
    (row,) = outline["data"]["symbols"]
    assert row.startswith("1 variable c | = a.b.b.b.b") and row.endswith("…")


def test_byte_order_marks_and_lone_carriage_returns_keep_positions(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    hostile.bom_file(root)
    hostile.cr_only_file(root)
    assert run_codenav("index", root).returncode == 0

    def call(tool: str, args: dict[str, Any]) -> dict[str, Any]:
        done = run_codenav("call", tool, json.dumps({**args, "detail": "full"}), "--root", root)
        parsed: dict[str, Any] = json.loads(done.stdout)
        return parsed

    bom = call("map_outline", {"file": "bom.py"})["data"]["symbols"]
    assert [(s["name"], s["anchor"]["line"], s["anchor"]["col"]) for s in bom] == [
        ("first", 1, 5), ("second", 5, 5)]  # the mark is not a column
    cr = call("map_outline", {"file": "cr_only.py"})
    assert cr["data"]["lines"] == 6  # it was one line
    assert [(s["name"], s["line"]) for s in cr["data"]["symbols"]] == [("one", 1), ("two", 5)]
    refs = call("nav_references", {"symbol": "one"})["data"]["references"]
    assert refs == {"cr_only.py": [{"line": 6, "col": 12, "kind": "call", "in": "two",
                                    "snippet": "return one()"}]}


def test_the_whole_hostile_set_indexes_twice_and_nothing_leaks(tmp_path: Path) -> None:
    tree = hostile.build_all(tmp_path / "repo", tmp_path / "outside")
    ours = tmp_path / "ours.db"
    refused = run_codenav("index", tree.root, timeout=60)  # map.db is a symlink out of it
    assert refused.returncode == 2 and "is a symlink" in refused.stderr
    for _ in range(2):
        started = time.monotonic()
        done = run_codenav("index", tree.root, "--db", ours, "--full", "--json", timeout=120)
        took = time.monotonic() - started
        assert done.returncode == 0, done.stderr
        report = json.loads(done.stdout)
        # (git does not list the FIFO; a walk skips it as not_a_file)
        assert report["skippedFiles"] == {"bad_name": ["bad\\xffname.py"]}
        assert {f["file"] for f in report["failed"]} == {"deep_attr.py", "deep_call.py"}
        print(f"hostile set indexed in {took:.1f} s")  # the figure for the report (-s)
    assert not tree.config_marker.exists() and not tree.git_marker.exists()
    assert tree.victim_db.read_bytes() == tree.victim_bytes


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def _parser_workers(pid: int) -> list[int]:
    """The parser processes of run ``pid`` (index/workers.py): its children running the
    worker loop (the run's other children, such as ``git ls-files``, come and go)."""
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(c) for c in text.split() if b"codenav.index.workers" in _cmdline(int(c))]


def _running(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


def _index_with_workers(root: Path, *extra: str) -> tuple[subprocess.Popen[str], list[int]]:
    """``codenav index ROOT`` started, once its parser processes are seen."""
    proc = subprocess.Popen([sys.executable, "-m", "codenav", "index", str(root), "--jobs",
                             "2", *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    deadline = time.monotonic() + 30
    workers: list[int] = []
    while not workers and proc.poll() is None and time.monotonic() < deadline:
        workers = _parser_workers(proc.pid)
        time.sleep(0.005)
    if not workers:
        proc.kill()
        proc.communicate()
        pytest.fail("the run ended before its parser processes could be seen")
    return proc, workers


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc")
def test_a_killed_parser_process_neither_hangs_nor_loses_files(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    write_tree(root, {f"pkg{i // 100}/m{i}.py": f"def f{i}(x):\n    return g{i}(x) + {i}\n"
                      f"\n\ndef g{i}(y):\n    return y * 2\n" * 40 for i in range(2500)})
    proc, workers = _index_with_workers(root, "--json")
    try:
        os.kill(workers[0], signal.SIGKILL)  # as the OOM killer would
        out, err = proc.communicate(timeout=120)  # it used to wait for the lost file for ever
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, err
    assert json.loads(out)["parsed"] == 2500
    assert "Traceback" not in err


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc")
def test_parser_processes_die_quietly_with_a_killed_index(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    write_tree(root, {f"pkg{i // 100}/m{i}.py": "def f(x):\n    return x\n" * 200
                      for i in range(2500)})
    proc, workers = _index_with_workers(root)
    proc.kill()
    _, err = proc.communicate(timeout=30)
    assert "Traceback" not in err and "BrokenPipeError" not in err, err
    deadline = time.monotonic() + 5  # a worker ends when its job pipe does
    while any(_running(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_running(pid) for pid in workers)
