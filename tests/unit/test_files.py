"""Reading the repository's files: plain paths inside the root, regular files, bounded."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest

from codenav.files import (
    NotRegular,
    inside,
    read_project_file,
    read_regular,
    read_source,
    safe_relative,
)


@pytest.mark.parametrize(("rel", "ok"), [
    ("a.py", True), ("src/app/a.py", True), ("./a.py", True), (".hidden/x.py", True),
    ("", False), ("/etc/passwd", False), ("../x.py", False), ("a/../../x.py", False),
    ("a//b.py", False), ("~/x.py", False), ("a\0b.py", False), ("a/..", False),
])
def test_only_plain_relative_paths_are_safe(rel: str, ok: bool) -> None:
    assert safe_relative(rel) is ok


def test_inside_resolves_symlinks_and_refuses_what_leaves_the_root(tmp_path: Path) -> None:
    root, outside = tmp_path / "root", tmp_path / "outside"
    (root / "pkg").mkdir(parents=True)
    outside.mkdir()
    (outside / "secret.py").write_text("s = 1\n")
    (root / "pkg" / "a.py").write_text("a = 1\n")
    (root / "escape.py").symlink_to(outside / "secret.py")
    (root / "alias.py").symlink_to(root / "pkg" / "a.py")
    (root / "door").symlink_to(outside, target_is_directory=True)
    assert inside(root, "pkg/a.py") == root / "pkg" / "a.py"
    assert inside(root, "alias.py") == root / "alias.py"  # a link that stays inside
    for rel in ("escape.py", "door/secret.py", "../outside/secret.py", str(outside / "x")):
        assert inside(root, rel) is None, rel
        assert read_source(root, rel, 100) is None
    assert read_source(root, "alias.py", 100) == b"a = 1\n"


def test_a_fifo_or_a_device_is_never_read(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.py"
    os.mkfifo(fifo)
    with pytest.raises(NotRegular):
        read_regular(fifo, 100)  # would block forever if opened for reading as usual
    with pytest.raises(NotRegular):
        read_regular("/dev/zero", 100)  # would never end
    assert read_source(tmp_path, "pipe.py", 100) is None


def test_reads_stop_one_byte_past_the_bound(tmp_path: Path) -> None:
    (tmp_path / "big.py").write_bytes(b"x" * 5000)
    assert len(read_regular(tmp_path / "big.py", 100)) == 101
    assert len(read_regular(tmp_path / "big.py", 10_000)) == 5000


def test_project_files_that_are_not_small_regular_files_are_ignored_with_a_warning(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    good = tmp_path / "pyproject.toml"
    good.write_text("[tool]\n")
    assert read_project_file(good) == "[tool]\n"
    assert read_project_file(tmp_path / "missing.toml") is None
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    zero = tmp_path / "zero.toml"
    zero.symlink_to("/dev/zero")
    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * 2000)
    with caplog.at_level(logging.WARNING, logger="codenav.files"):
        assert read_project_file(fifo) is None
        assert read_project_file(zero) is None
        assert read_project_file(big, 1000) is None
        assert read_project_file(big, 1000) is None  # said once
    said = [r.getMessage() for r in caplog.records]
    assert sum("fifo.toml is not a regular file" in m for m in said) == 1
    assert sum("zero.toml is a symbolic link" in m for m in said) == 1
    assert sum("big.toml is over 1,000 bytes" in m for m in said) == 1
    link = tmp_path / "mine.toml"
    link.symlink_to(good)  # the user's own dotfiles may be links
    assert read_project_file(link) is None
    assert read_project_file(link, follow_links=True) == "[tool]\n"
