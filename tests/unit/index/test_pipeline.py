"""Indexing runs: incremental decisions, atomicity, and the statuses of odd files."""

from __future__ import annotations

import os
import shutil
import sqlite3
import time
from pathlib import Path

import pytest

from codenav.errors import MapIncompatible
from codenav.index import pipeline
from codenav.index.pipeline import check, index_tree
from codenav.store import db
from tests.conftest import write_tree

FILES = {
    "pkg/__init__.py": "from .models import User\n",
    "pkg/models.py": 'class User:\n    """A user."""\n\n    def save(self):\n        return 1\n',
    "pkg/views.py": "from .models import User\n\n\ndef show():\n    return User().save()\n",
}


def rows(root: Path, sql: str) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(root / ".codenav" / "map.db")
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def age(root: Path, seconds: float = 10) -> None:
    """Backdate every file so that its mtime is trustworthy (not racy)."""
    past = time.time() - seconds
    for path in root.rglob("*.py"):
        os.utime(path, (past, past))


def test_first_run_is_full_and_maps_everything(tmp_path: Path) -> None:
    root = write_tree(tmp_path, FILES)
    report = index_tree(root)
    assert (report.mode, report.parsed, report.unchanged, report.removed) == ("full", 3, 0, 0)
    assert report.files == 3
    assert ("py:pkg/models.py#User.save", "method") in rows(root, "SELECT nid, kind FROM nodes")
    assert report.summary().startswith("3 parsed, 0 unchanged, 0 removed, 0 skipped · ")


def test_incremental_runs_touch_only_what_changed(tmp_path: Path) -> None:
    root = write_tree(tmp_path, FILES)
    age(root)
    index_tree(root)
    again = index_tree(root)
    assert (again.mode, again.parsed, again.unchanged) == ("incremental", 0, 3)

    write_tree(root, {"pkg/views.py": FILES["pkg/views.py"] + "\n\ndef other():\n    pass\n",
                      "pkg/extra.py": "VALUE = 1\n"})
    (root / "pkg" / "__init__.py").unlink()
    report = index_tree(root)
    assert (report.parsed, report.unchanged, report.removed) == (2, 1, 1)
    nids = {nid for (nid,) in rows(root, "SELECT nid FROM nodes")}
    assert "py:pkg/views.py#other" in nids and "py:pkg/extra.py#VALUE" in nids
    assert not any(nid.startswith("py:pkg/__init__.py") for nid in nids)
    orphans = rows(root, "SELECT count(*) FROM refs WHERE file_id NOT IN (SELECT id FROM files)")
    assert orphans == [(0,)]


def test_full_reparses_everything(tmp_path: Path) -> None:
    root = write_tree(tmp_path, FILES)
    index_tree(root)
    report = index_tree(root, full=True)
    assert (report.mode, report.parsed, report.unchanged) == ("full", 3, 0)
    assert len(rows(root, "SELECT id FROM files")) == 3


def test_same_size_edit_with_the_same_mtime_is_still_seen(tmp_path: Path) -> None:
    """The racy-git case: content changes, size and mtime do not."""
    root = write_tree(tmp_path, {"a.py": "A = 1\n"})
    index_tree(root)
    stamp = (root / "a.py").stat().st_mtime_ns
    (root / "a.py").write_text("B = 1\n")
    os.utime(root / "a.py", ns=(stamp, stamp))
    assert check(root).changed == ["a.py"]
    report = index_tree(root)
    assert report.parsed == 1
    assert rows(root, "SELECT name FROM nodes WHERE kind = 'constant'") == [("B",)]


def test_a_map_copied_to_another_checkout_is_reused(tmp_path: Path) -> None:
    first = write_tree(tmp_path / "ci", FILES)
    index_tree(first)
    second = write_tree(tmp_path / "dev", FILES)  # same content, new mtimes, other path
    shutil.copytree(first / ".codenav", second / ".codenav")
    assert check(second).fresh
    report = index_tree(second)
    assert (report.parsed, report.unchanged) == (0, 3)
    write_tree(second, {"pkg/models.py": FILES["pkg/models.py"] + "X = 1\n"})
    assert index_tree(second).parsed == 1


def test_binary_and_oversized_files_are_flagged_not_parsed(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pipeline, "MAX_FILE_BYTES", 64)
    monkeypatch.setattr("codenav.index.discover.MAX_FILE_BYTES", 64)
    root = write_tree(tmp_path, {
        "ok.py": "x = 1\n",
        "blob.py": b"\x7fELF\x00\x01\x02garbage\x00",
        "huge.py": "y = 1\n" * 40,
    })
    report = index_tree(root)
    assert report.parsed == 1
    assert report.skipped == {"binary": 1, "too_large": 1}
    assert report.failed == []
    statuses = dict(rows(root, "SELECT path, status FROM files"))
    assert statuses == {"ok.py": "ok", "blob.py": "binary", "huge.py": "too_large"}
    assert rows(root, "SELECT count(*) FROM nodes WHERE file_id IN "
                      "(SELECT id FROM files WHERE status != 'ok')") == [(0,)]
    again = index_tree(root)
    assert (again.parsed, again.unchanged) == (0, 3)


def test_malformed_source_still_indexes(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {
        "broken.py": "def f(:\n    pass\n\n\nclass Later:\n    pass\n",
        "nul.py": "x = 1\n",
        "latin1.py": b"# caf\xe9\nname = 'caf\xe9'\n",
    })
    report = index_tree(root)
    assert report.parsed == 3
    assert report.parse_errors >= 1
    names = {name for (name,) in rows(root, "SELECT name FROM nodes")}
    assert {"Later", "name"} <= names
    assert rows(root, "SELECT count(*) FROM problems") != [(0,)]


def test_a_failed_run_leaves_the_previous_map_intact(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    root = write_tree(tmp_path, FILES)
    index_tree(root)
    before = rows(root, "SELECT nid FROM nodes ORDER BY nid")

    def explode(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr("codenav.store.write.MapWriter.put", explode)
    write_tree(root, {"pkg/new.py": "Z = 1\n"})
    with pytest.raises(RuntimeError):
        index_tree(root, full=True)
    assert rows(root, "SELECT nid FROM nodes ORDER BY nid") == before


def test_a_map_from_a_newer_codenav_is_refused(tmp_path: Path) -> None:
    root = write_tree(tmp_path, FILES)
    index_tree(root)
    conn = sqlite3.connect(root / ".codenav" / "map.db")
    conn.execute(f"PRAGMA user_version={db.SCHEMA_VERSION + 5}")
    conn.commit()
    conn.close()
    with pytest.raises(MapIncompatible):
        index_tree(root)
    assert not check(root).built


def test_a_map_of_an_older_schema_is_rebuilt_and_served(tmp_path: Path) -> None:
    # a new codenav's first `codenav index` rebuilt an older map without its stamp, and every
    # answer then refused the map as one that came with the repository
    root = write_tree(tmp_path, FILES)
    index_tree(root)
    conn = sqlite3.connect(root / ".codenav" / "map.db")
    conn.execute(f"PRAGMA user_version={db.SCHEMA_VERSION - 1}")
    conn.commit()
    conn.close()
    index_tree(root)
    status = check(root)
    assert status.built, status


def test_parallel_and_serial_runs_build_the_same_map(tmp_path: Path) -> None:
    files = {f"mod{i}.py": f"class C{i}:\n    def m(self):\n        return C{i - 1}()\n"
             for i in range(120)}
    serial = write_tree(tmp_path / "serial", files)
    parallel = write_tree(tmp_path / "parallel", files)
    index_tree(serial, jobs=1)
    report = index_tree(parallel, jobs=2)
    assert report.parsed == 120
    query = "SELECT nid, kind, line, col FROM nodes ORDER BY nid"
    assert rows(serial, query) == rows(parallel, query)
    query = ("SELECT f.path, r.name, r.kind, r.line, r.col FROM refs r "
             "JOIN files f ON f.id = r.file_id ORDER BY 1, 4, 5")
    assert rows(serial, query) == rows(parallel, query)


def test_check_reports_changed_added_and_removed(tmp_path: Path) -> None:
    root = write_tree(tmp_path, FILES)
    assert not check(root).built
    index_tree(root)
    assert check(root).fresh
    write_tree(root, {"pkg/models.py": "class User:\n    pass\n", "pkg/new.py": "x = 1\n"})
    (root / "pkg" / "views.py").unlink()
    fresh = check(root)
    assert (fresh.changed, fresh.added, fresh.removed) == (
        ["pkg/models.py"], ["pkg/new.py"], ["pkg/views.py"])


