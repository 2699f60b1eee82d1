"""A first build published as it grows (``codenav mcp`` on a tree with no map): readers see
definitions as they are written, marked ``building``; nothing else is ever served half-made."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from codenav.errors import MapNotBuilt
from codenav.index import pipeline
from codenav.index.pipeline import index_tree, refresh_files
from codenav.store import db
from codenav.tools.dispatch import call_tool
from codenav.workspace import Workspace
from tests.conftest import write_tree

FILES = {f"pkg/m{i}.py": f"def f{i}(x):\n    return g{(i + 1) % 30}(x)\n\n\ndef g{i}(y):\n"
         f"    return y\n" for i in range(30)}
FILES["pkg/__init__.py"] = ""


def meta(root: Path) -> dict[str, str]:
    conn = sqlite3.connect(f"file:{root / '.codenav' / 'map.db'}?mode=ro", uri=True)
    try:
        return dict(conn.execute("SELECT key, value FROM meta").fetchall())
    finally:
        conn.close()


def node_count(root: Path) -> int:
    conn = sqlite3.connect(f"file:{root / '.codenav' / 'map.db'}?mode=ro", uri=True)
    try:
        return int(conn.execute("SELECT count(*) FROM nodes").fetchone()[0])
    finally:
        conn.close()


@pytest.fixture
def every_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """Publish after every file (a small tree is otherwise mapped within one publishing
    interval)."""
    monkeypatch.setattr(pipeline, "_PUBLISH_EVERY_S", 0.0)


def test_readers_see_definitions_as_they_are_written(tmp_path: Path, every_file: None) -> None:
    root = write_tree(tmp_path / "repo", FILES)
    seen: list[tuple[int, str | None]] = []

    def look(done: int, total: int) -> None:
        if done in (5, 20):  # a reader's view mid-build (the file just written is next)
            seen.append((node_count(root), meta(root).get("building")))

    report = index_tree(root, progress=look, progressive=True, jobs=1)
    assert report.parsed == 31
    assert [building for _, building in seen] == ["1", "1"]
    assert 0 < seen[0][0] < seen[1][0] < node_count(root)  # it grew
    after = meta(root)
    assert after["building"] == "0" and after["last_build"]


def test_only_a_first_build_is_published_as_it_grows(tmp_path: Path, every_file: None) -> None:
    root = write_tree(tmp_path / "repo", FILES)
    index_tree(root)
    before = node_count(root)
    seen: list[int] = []
    index_tree(root, full=True, progressive=True, jobs=1,
               progress=lambda done, _total: seen.append(node_count(root)))
    assert set(seen) == {before}  # readers kept the previous map until the end
    assert meta(root).get("building") is None


def test_an_interrupted_first_build_is_never_served(tmp_path: Path, every_file: None) -> None:
    root = write_tree(tmp_path / "repo", FILES)

    def crash(done: int, _total: int) -> None:
        if done == 10:
            raise RuntimeError("killed")

    with pytest.raises(RuntimeError):
        index_tree(root, progress=crash, progressive=True, jobs=1)
    assert meta(root)["building"] == "interrupted" and node_count(root) > 0
    ws = Workspace(root)
    try:
        assert not ws.map_exists()
        answer = asyncio.run(call_tool(ws, "map_search", {"query": "f1"}))
        assert answer["error"]["code"] == "MAP_NOT_BUILT"
        assert "interrupted" in answer["error"]["message"]
    finally:
        ws.close()
    report = index_tree(root)  # the next run starts again from scratch
    assert report.mode == "full" and report.parsed == 31
    assert meta(root)["building"] == "0"


@pytest.fixture
def another_builder(tmp_path: Path) -> Any:
    """A map whose meta says a live process (a sleeping child) is building it."""
    root = write_tree(tmp_path / "repo", FILES)
    index_tree(root)
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    conn = db.connect_writer(root / ".codenav" / "map.db", None)
    with db.write_transaction(conn):
        conn.executemany("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                         [("building", "1"), ("building_pid", str(sleeper.pid)),
                          ("building_progress", "12/31")])
    conn.close()
    yield root, sleeper
    sleeper.kill()
    sleeper.wait()


def test_tools_answer_a_growing_map_and_wait_for_its_links(another_builder: Any) -> None:
    root, _ = another_builder
    ws = Workspace(root)
    try:
        assert ws.building() and ws.map_exists()
        found = asyncio.run(call_tool(ws, "map_search", {"query": "f1"}))
        assert found["ok"] and found["data"]["building"] is True
        assert any("still being built" in w for w in found.get("warnings", []))
        refs = asyncio.run(call_tool(ws, "nav_references", {"symbol": "g1"}))
        assert refs["error"]["code"] == "MAP_NOT_BUILT"
        assert "linked when it is done" in refs["error"]["message"]
        status = asyncio.run(call_tool(ws, "map_status", {}))
        assert status["data"]["building"] is True and status["data"]["built"] is False
        assert status["data"]["progress"] == "12 of 31 files mapped"
    finally:
        ws.close()


def test_writers_wait_for_another_process_building_the_map(another_builder: Any) -> None:
    root, sleeper = another_builder
    (root / "pkg" / "m1.py").write_text("def f1(x):\n    return 1\n")
    # the tools' quick refresh does not wait: the file stays stale
    assert refresh_files(root, root / ".codenav" / "map.db", ["pkg/m1.py"],
                         busy_timeout=0.3) is None
    sleeper.kill()
    sleeper.wait()  # the builder died: its build counts as interrupted
    with pytest.raises(MapNotBuilt):
        Workspace(root).building()
    assert index_tree(root).mode == "full"
    assert json.loads(json.dumps(meta(root)))["building"] == "0"


def test_a_first_build_ending_after_its_session_starts_no_language_server(
        tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo", FILES)
    ws = Workspace(root, lsp="auto")
    assert ws.start_background_build(on_done=ws.start_servers)
    ws.close()  # the session ended while its first map was being built
    for thread in threading.enumerate():
        if thread.name == "codenav-first-build":
            thread.join(30)  # built, then told to start the servers
    assert ws.build.done.is_set()
    assert ws.started_pool is None and ws.pool is None
