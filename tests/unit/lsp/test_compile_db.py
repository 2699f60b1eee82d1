"""The compile database clangd reads from codenav's cache: the project's own (relative
folders made absolute), or one made from the tree with compile_flags.txt's flags; nothing
is written into the repository."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from codenav.lsp.compile_db import stage
from tests.conftest import write_tree


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CODENAV_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_the_projects_database_with_its_folders_made_absolute(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo", {
        "src/a.c": "int a;\n",
        "build/compile_commands.json": json.dumps([
            {"directory": ".", "file": "../src/a.c", "arguments": ["cc", "-DX", "-c", "a.c"]}]),
    })
    before = sorted(p.relative_to(root) for p in root.rglob("*"))
    folder = stage(root, ("c", "cpp"))
    (entry,) = json.loads((folder / "compile_commands.json").read_text())
    assert entry["directory"] == str((root / "build").resolve())
    assert entry["arguments"] == ["cc", "-DX", "-c", "a.c"]
    assert not folder.is_relative_to(root)
    assert sorted(p.relative_to(root) for p in root.rglob("*")) == before
    assert stage(root, ("c", "cpp")) == folder  # the same folder, unchanged


def test_without_one_every_file_with_compile_flags(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo", {
        "compile_flags.txt": "-Iinclude\n-DWITH_TLS\n",
        "src/a.c": "int a;\n",
        "include/geo.h": "class Shape { public: int x; };\n",  # C++ by its text
        "notes.py": "x = 1\n",
    })
    entries = json.loads((stage(root, ("c", "cpp")) / "compile_commands.json").read_text())
    by_file = {e["file"]: e["arguments"] for e in entries}
    assert set(by_file) == {"src/a.c", "include/geo.h"}
    assert by_file["src/a.c"] == ["clang", "-Iinclude", "-DWITH_TLS", "-c", "src/a.c"]
    assert by_file["include/geo.h"][:2] == ["clang", "-xc++"]


def test_the_projects_database_is_read_as_a_project_file(tmp_path: Path) -> None:
    """A FIFO or a link for the database cannot stall or redirect codenav, and an entry for a
    file outside the root does not make the server read there."""
    root = write_tree(tmp_path / "repo", {"src/a.c": "int a;\n"})
    outside = write_tree(tmp_path / "elsewhere", {"secret.c": "int secret;\n"})
    os.mkfifo(root / "compile_commands.json")
    entries = json.loads((stage(root, ("c",)) / "compile_commands.json").read_text())
    assert [e["file"] for e in entries] == ["src/a.c"]  # made from the tree instead
    (root / "compile_commands.json").unlink()
    (root / "compile_commands.json").symlink_to(outside / "db.json")
    (outside / "db.json").write_text(json.dumps([{"directory": ".", "file": "secret.c"}]))
    entries = json.loads((stage(root, ("c",)) / "compile_commands.json").read_text())
    assert [e["file"] for e in entries] == ["src/a.c"]
    (root / "compile_commands.json").unlink()
    (root / "compile_commands.json").write_text(json.dumps([
        {"directory": str(outside), "file": "secret.c", "arguments": ["cc", "-c", "secret.c"]},
        {"directory": ".", "file": "../elsewhere/secret.c"},
        {"directory": ".", "file": "src/a.c", "arguments": ["cc", "-c", "src/a.c"]}]))
    entries = json.loads((stage(root, ("c",)) / "compile_commands.json").read_text())
    assert [e["file"] for e in entries] == ["src/a.c"]
