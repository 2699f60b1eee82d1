"""Discovery: what a user would map, and a count of what was skipped."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from codenav.index.discover import discover
from tests.conftest import write_tree

TREE = {
    "app/main.py": "import util\n",
    "app/util.py": "X = 1\n",
    "app/notes.txt": "not source\n",
    "node_modules/pkg/index.py": "x = 1\n",
    "build/lib/gen.py": "x = 1\n",
    "pkg.egg-info/x.py": "x = 1\n",
    "env/pyvenv.cfg": "home = /usr\n",
    "env/lib/site.py": "x = 1\n",
    ".git/hooks/hook.py": "x = 1\n",
    ".codenav/cache.py": "x = 1\n",
    "logs/debug.py": "x = 1\n",
    "keep/generated_ok.py": "x = 1\n",
    ".gitignore": "logs/\n*_tmp.py\n",
    "scratch_tmp.py": "x = 1\n",
}


def paths(root: Path) -> list[str]:
    return [c.path for c in discover(root).files]


def test_walk_skips_what_a_user_would(tmp_path: Path) -> None:
    root = write_tree(tmp_path, TREE)
    found = discover(root)
    assert [c.path for c in found.files] == ["app/main.py", "app/util.py", "keep/generated_ok.py"]
    assert found.source == "walk"
    assert found.skipped["ignored"] == 1  # scratch_tmp.py
    assert all(c.lang.code == "py" for c in found.files)


def test_a_python_package_named_like_a_build_output_is_source(tmp_path: Path) -> None:
    # coverage.py's sdist (run 62): its package `coverage/` was left out as a build output,
    # and every question on it fell back to grep; `build/lib/coverage/` stays out
    root = write_tree(tmp_path, {"coverage/__init__.py": "", "coverage/files.py": "X = 1\n",
                                 "coverage/htmlfiles/x.py": "y = 1\n",
                                 "build/lib/coverage/__init__.py": "",
                                 "dist/out.py": "z = 1\n", "tests/test_files.py": "x = 1\n"})
    assert paths(root) == ["coverage/__init__.py", "coverage/files.py",
                           "coverage/htmlfiles/x.py", "tests/test_files.py"]


def test_too_large_files_are_listed_and_counted(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {"big.py": "x = 1\n" * 20, "small.py": "y = 2\n"})
    found = discover(root, max_bytes=50)
    assert [c.path for c in found.files] == ["big.py", "small.py"]
    assert found.skipped["too_large"] == 1


@pytest.mark.skipif(os.name != "posix", reason="symlinks")
def test_symlinks_never_leave_the_root_and_never_loop(tmp_path: Path) -> None:
    outside = write_tree(tmp_path / "outside", {"secret.py": "TOKEN = 1\n"})
    root = write_tree(tmp_path / "root", {"real.py": "x = 1\n", "sub/a.py": "y = 1\n"})
    (root / "leak.py").symlink_to(outside / "secret.py")
    (root / "leakdir").symlink_to(outside, target_is_directory=True)
    (root / "alias.py").symlink_to(root / "real.py")
    (root / "sub" / "loop").symlink_to(root / "sub", target_is_directory=True)
    (root / "self_loop.py").symlink_to(root / "self_loop.py")
    found = discover(root.resolve())
    assert [c.path for c in found.files] == ["alias.py", "real.py", "sub/a.py"]
    assert found.skipped["outside_root"] == 1
    assert found.skipped["unreadable"] == 1  # the self-referencing link


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_git_work_tree_uses_git_rules(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {
        **TREE,
        "tracked_gone.py": "x = 1\n",
        "vendor/.gitignore": "*.py\n",
        "vendor/lib.py": "x = 1\n",
        "dist/committed.py": "x = 1\n",
    })
    git = ["git", "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run([*git, "init", "-q"], cwd=root, check=True)
    subprocess.run([*git, "add", "-A"], cwd=root, check=True)
    subprocess.run([*git, "add", "-f", "dist/committed.py"], cwd=root, check=True)
    subprocess.run([*git, "commit", "-qm", "init"], cwd=root, check=True)
    (root / "tracked_gone.py").unlink()
    write_tree(root, {"untracked_new.py": "x = 1\n"})
    found = discover(root)
    assert found.source == "git"
    listed = [c.path for c in found.files]
    # build/ is not ignored by this repo's .gitignore, so git decides it is source;
    # dist/committed.py was committed on purpose.
    assert listed == ["app/main.py", "app/util.py", "build/lib/gen.py", "dist/committed.py",
                      "keep/generated_ok.py", "untracked_new.py"]
    assert found.skipped["excluded"] >= 3  # node_modules, egg-info, virtualenv


def test_subdirectory_of_a_git_repo_lists_relative_paths(tmp_path: Path) -> None:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    root = write_tree(tmp_path, {"a.py": "x = 1\n", "sub/b.py": "y = 1\n"})
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    assert paths(root / "sub") == ["b.py"]
