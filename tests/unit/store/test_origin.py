"""Whose map it is: the stamp only this user's codenav can write, and checks of a map the
user trusts although codenav did not write it."""

from __future__ import annotations

import os
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from codenav.store import db, origin


@pytest.fixture
def state_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    home = tmp_path / "state"
    monkeypatch.setenv("XDG_STATE_HOME", str(home))
    origin._key.cache_clear()
    yield home
    origin._key.cache_clear()


def test_a_stamp_holds_under_this_users_key_only(state_home: Path) -> None:
    stamp = origin.new_stamp(None)
    assert origin.stamped(stamp)
    key = origin.key_path()
    info = key.stat()
    assert stat.S_IMODE(info.st_mode) == 0o600 and info.st_size == 32
    assert not origin.stamped({**stamp, "map_id": stamp["map_id"] + "0"})
    assert not origin.stamped({"map_id": stamp["map_id"], "origin": "0" * 64})
    assert not origin.stamped({})
    assert origin.new_stamp(stamp["map_id"]) == stamp  # the same map keeps its id
    origin._key.cache_clear()
    key.unlink()  # another user, another machine: another key
    assert not origin.stamped(stamp)


def test_processes_racing_to_make_the_key_agree(state_home: Path) -> None:
    code = ("from codenav.store import origin; "
            "print(origin.new_stamp('same')['origin'])")
    env = {**os.environ, "XDG_STATE_HOME": str(state_home)}
    runs = [subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, env=env,
                             text=True) for _ in range(6)]
    stamps = {run.communicate(timeout=60)[0].strip() for run in runs}
    assert len(stamps) == 1 and origin.stamped({"map_id": "same", "origin": stamps.pop()})
    assert [p.name for p in origin.key_path().parent.iterdir()] == ["map-key"]


def test_a_key_anyone_else_could_read_is_not_used(state_home: Path,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    key = origin.key_path()
    key.parent.mkdir(parents=True)
    key.write_bytes(b"k" * 32)
    key.chmod(0o644)
    stamp = origin.new_stamp("x")  # a key of this process alone, said in the log
    assert "cannot keep codenav's map key" in caplog.text
    assert origin.stamped(stamp)
    assert key.read_bytes() == b"k" * 32  # left as it was
    origin._key.cache_clear()
    assert not origin.stamped(stamp)  # the next process cannot vouch for it


def _map(path: Path) -> sqlite3.Connection:
    conn = db.connect_writer(path)
    with db.write_transaction(conn):
        db.ensure_schema(conn, path)
        conn.execute("INSERT INTO files (path, lang, size, mtime_ns, hash, status, indexed_ns) "
                     "VALUES ('src/a.py', 'py', 1, 1, '', 'ok', 1)")
    return conn


def test_a_trusted_map_must_have_codenavs_schema_and_plain_paths(tmp_path: Path) -> None:
    conn = _map(tmp_path / "map.db")
    expected = db.expected_schema()
    assert origin.foreign_rows(conn, expected) is None
    for bad in ("/etc/passwd", "../../x.py", "a/../../b.py", "~/x"):
        conn.execute("UPDATE files SET path = ?", (bad,))
        assert "outside the root" in (origin.foreign_rows(conn, expected) or ""), bad
    conn.execute("UPDATE files SET path = 'src/a.py'")
    conn.execute("CREATE TRIGGER t AFTER INSERT ON files BEGIN DELETE FROM nodes; END")
    assert "trigger 't'" in (origin.foreign_rows(conn, expected) or "")
    conn.execute("DROP TRIGGER t")
    conn.execute("DROP VIEW edges")
    conn.execute("CREATE VIEW edges AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL "
                 "SELECT i + 1 FROM n) SELECT i FROM n")
    assert "view 'edges'" in (origin.foreign_rows(conn, expected) or "")
    conn.close()


def test_a_reset_drops_what_a_foreign_map_brought(tmp_path: Path) -> None:
    path = tmp_path / "map.db"
    conn = _map(path)
    conn.execute("CREATE TRIGGER t AFTER INSERT ON meta BEGIN DELETE FROM files; END")
    conn.execute("CREATE VIEW extra AS SELECT 1")
    conn.execute("ANALYZE")  # sqlite_stat1: statistics steer the planner
    with db.write_transaction(conn):
        assert db.ensure_schema(conn, path, reset=True)
    names = {name for (name,) in conn.execute("SELECT name FROM sqlite_master")}
    assert not names & {"t", "extra", "sqlite_stat1"}
    assert conn.execute("SELECT count(*) FROM files").fetchone() == (0,)
    assert origin.foreign_rows(conn, db.expected_schema()) is None
    conn.close()
