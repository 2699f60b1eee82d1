"""The map file: schema versions, readers and writers."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from codenav.errors import MapIncompatible, MapNotBuilt, MapRefused
from codenav.store import db


def make_map(path: Path) -> None:
    conn = db.connect_writer(path)
    with db.write_transaction(conn):
        assert db.ensure_schema(conn, path) is True
    with db.write_transaction(conn):
        assert db.ensure_schema(conn, path) is False
    conn.close()


def test_reader_without_a_map_says_map_not_built(tmp_path: Path) -> None:
    with pytest.raises(MapNotBuilt):
        db.connect_reader(tmp_path / "missing.db")


def test_reader_of_a_created_map_is_read_only(tmp_path: Path) -> None:
    path = tmp_path / ".codenav" / "map.db"
    make_map(path)
    assert (path.parent / ".gitignore").read_text() == "*\n"
    reader = db.connect_reader(path)
    with pytest.raises(sqlite3.DatabaseError):
        reader.execute("INSERT INTO meta VALUES ('k', 'v')")
    assert db.schema_version(reader) == db.SCHEMA_VERSION


def test_newer_schema_is_refused_and_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "map.db"
    make_map(path)
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version={db.SCHEMA_VERSION + 1}")
    conn.execute("INSERT INTO meta VALUES ('from', 'the future')")
    conn.commit()
    conn.close()
    with pytest.raises(MapIncompatible, match="newer"):
        db.connect_reader(path)
    writer = db.connect_writer(path)
    with pytest.raises(MapIncompatible), db.write_transaction(writer):
        db.ensure_schema(writer, path)
    assert db.read_meta(writer) == {"from": "the future"}


def test_older_schema_is_rebuilt_in_one_transaction(tmp_path: Path) -> None:
    # a map of an older codenav, from before maps carried codenav's application id
    path = tmp_path / "map.db"
    conn = sqlite3.connect(path)
    for table in ("meta", "files", "nodes", "refs", "symbols"):
        conn.execute(f"CREATE TABLE {table} (legacy TEXT)")
    conn.execute("PRAGMA user_version=9")
    conn.commit()
    conn.close()
    with pytest.raises(MapNotBuilt):
        db.connect_reader(path)
    writer = db.connect_writer(path)
    with db.write_transaction(writer):
        assert db.ensure_schema(writer, path) is True
    columns = {row[1] for row in writer.execute("PRAGMA table_info(files)")}
    assert {"path", "hash", "mtime_ns"} <= columns
    assert writer.execute("PRAGMA application_id").fetchone()[0] == db.APPLICATION_ID


def other_apps_database(path: Path) -> bytes:
    """A database another application made: low user_version, its own tables."""
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE accounts (id INTEGER PRIMARY KEY, owner TEXT)")
    conn.execute("INSERT INTO accounts (owner) VALUES ('ann'), ('bob')")
    conn.execute("PRAGMA user_version=1")
    conn.commit()
    conn.close()
    return path.read_bytes()


def test_another_applications_database_is_refused_and_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "app.db"
    before = other_apps_database(path)
    with pytest.raises(MapRefused, match="did not make"):
        db.connect_writer(path)
    with pytest.raises(MapRefused):
        db.connect_reader(path)
    assert path.read_bytes() == before  # not even switched to WAL
    assert not (tmp_path / "app.db-wal").exists()
    stamped = sqlite3.connect(path)  # an id that is not codenav's is refused as well
    stamped.execute("PRAGMA application_id=42")
    stamped.execute("DROP TABLE accounts")
    stamped.commit()
    stamped.close()
    with pytest.raises(MapRefused, match="0x2a"):
        db.connect_writer(path)


def test_a_map_folder_or_file_that_is_a_link_is_never_written_through(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CODENAV_DB", raising=False)
    root, elsewhere = tmp_path / "repo", tmp_path / "elsewhere"
    root.mkdir()
    elsewhere.mkdir()
    assert db.map_path(root) == root / ".codenav" / "map.db"
    (root / ".codenav").symlink_to(elsewhere)
    with pytest.raises(MapRefused, match="is a symlink"):
        db.map_path(root)
    (root / ".codenav").unlink()
    (root / ".codenav").mkdir()
    for name in ("map.db", "map.db-wal", "map.db-shm"):
        link = root / ".codenav" / name
        link.symlink_to(elsewhere / name)
        with pytest.raises(MapRefused, match=name):
            db.map_path(root)
        link.unlink()
    # inside the root too: a link to a tracked file would have the map overwrite it
    (root / "pkg").mkdir()
    tracked = root / "pkg" / "__init__.py"
    tracked.write_bytes(b"")
    (root / ".codenav" / "map.db").symlink_to(tracked)
    with pytest.raises(MapRefused, match="is a symlink"):
        db.map_path(root)
    (root / ".codenav" / "map.db").unlink()
    os.link(tracked, root / ".codenav" / "map.db")  # a hard link shares its bytes
    with pytest.raises(MapRefused, match="hard-linked"):
        db.map_path(root)
    (root / ".codenav" / "map.db").unlink()
    (root / ".codenav" / "map.db-wal").mkdir()
    with pytest.raises(MapRefused, match="not a regular file"):
        db.map_path(root)
    (root / ".codenav" / "map.db-wal").rmdir()
    assert db.map_path(root) == root / ".codenav" / "map.db"
    # a path the user names is theirs to choose
    assert db.map_path(root, elsewhere / "map.db") == elsewhere / "map.db"
    monkeypatch.setenv("CODENAV_DB", str(elsewhere / "env.db"))
    assert db.map_path(root) == elsewhere / "env.db"


def test_a_file_that_is_not_a_database_is_map_not_built(tmp_path: Path) -> None:
    path = tmp_path / "map.db"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(MapNotBuilt):
        db.connect_reader(path)
    with pytest.raises(MapRefused, match="not a codenav map"):
        db.connect_writer(path)
    assert path.read_bytes() == b"this is not sqlite" * 100


def test_index_statements_come_from_the_schema() -> None:
    names = [name for name, _ in db.index_statements()]
    assert "refs_target" in names and "nodes_name" in names


def test_default_db_path_honours_the_environment(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CODENAV_DB", raising=False)
    assert db.default_db_path(tmp_path) == tmp_path / ".codenav" / "map.db"
    monkeypatch.setenv("CODENAV_DB", str(tmp_path / "elsewhere.db"))
    assert db.default_db_path(tmp_path) == tmp_path / "elsewhere.db"
