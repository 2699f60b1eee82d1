"""Faults outside codenav's control, met by the real commands: a file that would take minutes
or gigabytes to parse, a damaged map, a read-only checkout, a full disk, a name too long for
any file system. Each is an error line or a marked file — never a traceback, a hang, or a
machine out of memory (each case runs under a timeout)."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import FIXTURES, run_codenav, write_tree

SHOP = FIXTURES / "repos" / "shop"


def hostile_files() -> dict[str, str]:
    """The three files of issue 23: a Go ``var`` of 2,000 names (its query is cubic in the
    names: 425 s), a 2 MB one-line JavaScript file (284 s), 2 MiB of ``a=b`` lines (1.4 GB)."""
    names = ", ".join(f"a{i}" for i in range(2000))
    parts = ",".join(f"v{i}=function(a){{return a+{i}}}" for i in range(60000))
    return {"v.go": f"package p\nvar {names} int\n",
            "one.js": f"var {parts};\n",
            "ab.py": "a=b\n" * (2 * 1024 * 1024 // 4 - 10)}


def test_files_that_would_take_minutes_or_gigabytes_are_timeouts(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo",
                      {**hostile_files(), "ok.py": "def fine():\n    return 1\n"})
    done = run_codenav("index", root, "--json", timeout=60)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    report = json.loads(done.stdout)
    assert report["parsed"] == 1
    assert sorted(report["failed"], key=lambda f: f["file"]) == [
        {"file": name, "status": "timeout"} for name in ("ab.py", "one.js", "v.go")]


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    root = tmp_path / "shop"
    shutil.copytree(SHOP, root)
    assert run_codenav("index", root).returncode == 0
    return root


def _damage(db: Path) -> None:
    with db.open("r+b") as handle:  # pages of tables and indexes, not the header
        handle.seek(4096 * 3)
        handle.write(b"\xa5" * 4096 * 3)


def test_a_damaged_map_is_said_so_and_rebuilt(shop: Path) -> None:
    db = shop / ".codenav" / "map.db"
    _damage(db)
    answer = json.loads(run_codenav("call", "map_search", '{"query": "Price"}',
                                    "--root", shop).stdout)
    assert answer["error"]["code"] == "MAP_NOT_BUILT" and "damaged" in answer["error"]["message"]
    assert "codenav index" in answer["error"]["hint"]
    for args in (["index"], ["index", "--full"]):  # it reported success, or crashed, before
        _damage(db)
        done = run_codenav(*args, shop, "--json")
        assert done.returncode == 0 and "Traceback" not in done.stderr, (args, done.stderr)
        assert "damaged" in done.stderr and json.loads(done.stdout)["parsed"] == 7
        answer = json.loads(run_codenav("call", "map_search", '{"query": "Price"}',
                                        "--root", shop).stdout)
        assert answer["ok"], answer


def _mount(*args: str) -> bool:
    return subprocess.run(["mount", *args], capture_output=True, check=False).returncode == 0


@pytest.fixture
def read_only(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    """The shop fixture (its map built) and a read-only view of it (a bind mount)."""
    source = tmp_path / "shop"
    shutil.copytree(SHOP, source)
    assert run_codenav("index", source).returncode == 0
    view = tmp_path / "view"
    view.mkdir()
    if not (_mount("--bind", str(source), str(view)) and
            _mount("-o", "remount,ro,bind", str(view))):
        subprocess.run(["umount", str(view)], capture_output=True, check=False)
        pytest.skip("no bind mount here (needs root in a sandbox that allows it)")
    try:
        yield source, view
    finally:
        subprocess.run(["umount", str(view)], check=False)


def test_a_read_only_checkout_is_read_and_its_map_kept_elsewhere(
        read_only: tuple[Path, Path], tmp_path: Path) -> None:
    _, view = read_only
    answer = json.loads(run_codenav("call", "map_search", '{"query": "Price"}',
                                    "--root", view).stdout)
    assert answer["ok"], answer  # its WAL map is read (as immutable), not "unable to open"
    shutil.rmtree(view / ".codenav", ignore_errors=True)  # a no-op: read-only
    done = run_codenav("index", view, "--full")
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert "cannot be written there" in done.stderr and "--db PATH" in done.stderr
    elsewhere = tmp_path / "elsewhere.db"
    assert run_codenav("index", view, "--db", elsewhere).returncode == 0
    answer = json.loads(run_codenav("call", "map_search", '{"query": "Price"}', "--root", view,
                                    "--db", elsewhere).stdout)
    assert answer["ok"], answer


def test_a_full_disk_is_an_error_line(tmp_path: Path) -> None:
    disk = tmp_path / "tiny"
    disk.mkdir()
    if not _mount("-t", "tmpfs", "-o", "size=96k", "tmpfs", str(disk)):
        pytest.skip("no tmpfs mount here (needs root in a sandbox that allows it)")
    try:
        root = write_tree(tmp_path / "repo", {f"pkg/m{i}.py": f"def f{i}(x):\n    return x\n"
                                               * 20 for i in range(300)})
        done = run_codenav("index", root, "--db", disk / "map.db", timeout=120)
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        assert "the disk holding it is full" in done.stderr
    finally:
        subprocess.run(["umount", str(disk)], check=False)


def test_a_name_too_long_for_any_file_system_is_bad_args(shop: Path) -> None:
    long = "a" * 300 + ".py"
    for tool, args in (("map_outline", {"file": long}), ("nav_definition", {"id": f"py:{long}#x"}),
                       ("nav_hover", {"file": f"src/{long}", "line": 1})):
        done = run_codenav("call", tool, json.dumps(args), "--root", shop)
        answer = json.loads(done.stdout)
        assert answer["error"]["code"] == "BAD_ARGS", (tool, answer)
        assert "longer than a file system allows" in answer["error"]["message"]
        assert "Traceback" not in done.stderr
