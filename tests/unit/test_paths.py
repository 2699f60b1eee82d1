"""Path arguments: repo-relative form, and containment decided on canonical paths component
by component (a sibling with a common prefix, a symlink out, ``..``: outside)."""

from __future__ import annotations

from pathlib import Path

import pytest

from codenav.errors import BadArgs, OutOfRoot
from codenav.paths import is_inside, relative_path, require_nameable, require_relative


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "proj" / "src").mkdir(parents=True)
    (tmp_path / "proj" / "src" / "a.py").write_text("x = 1\n")
    (tmp_path / "proj-evil").mkdir()
    (tmp_path / "proj-evil" / "b.py").write_text("y = 2\n")
    (tmp_path / "proj" / "out").symlink_to(tmp_path / "proj-evil")
    return tmp_path / "proj"


@pytest.mark.parametrize("raw", ["src/a.py", "./src/a.py", "src/../src/a.py"])
def test_paths_inside_the_root_are_repo_relative(root: Path, raw: str) -> None:
    assert relative_path(raw, root) == "src/a.py"
    assert relative_path(str(root / "src" / "a.py"), root) == "src/a.py"
    assert relative_path(".", root) == "."


@pytest.mark.parametrize("raw", ["../proj-evil/b.py", "out/b.py", "/etc/passwd",
                                 "src/../../proj-evil/b.py"])
def test_paths_outside_are_refused_whether_or_not_they_exist(root: Path, raw: str) -> None:
    with pytest.raises(OutOfRoot):
        relative_path(raw, root)
    with pytest.raises(OutOfRoot):  # the same answer for a path that is not there
        relative_path(raw.replace("b.py", "missing.py"), root)


def test_a_common_prefix_is_not_containment(root: Path) -> None:
    assert not is_inside(root.parent / "proj-evil", root)
    assert is_inside(root / "src", root) and is_inside(root, root)


def test_force_root_bounds_what_the_root_allows(root: Path) -> None:
    with pytest.raises(OutOfRoot):
        relative_path("src/a.py", root, boundary=root.parent / "proj-evil")
    assert relative_path("src/a.py", root, boundary=root.parent) == "src/a.py"


@pytest.mark.parametrize("raw", ["", "a\0b", "x" * 256, "a/" * 2100])
def test_paths_no_file_system_holds_are_bad_args(root: Path, raw: str) -> None:
    with pytest.raises(BadArgs):
        relative_path(raw, root)
    if raw and "\0" not in raw:
        with pytest.raises(BadArgs):
            require_nameable(raw)


@pytest.mark.parametrize("raw", ["/src", "../x", "src/../../x", "~/x"])
def test_a_file_filter_must_stay_relative(raw: str) -> None:
    with pytest.raises(OutOfRoot):
        require_relative(raw, "fileFilter")
    require_relative("src/**/*.py", "fileFilter")  # a glob under the root is fine
