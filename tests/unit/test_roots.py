"""codenav/roots.py: which folder is the root, and which roots are refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from codenav import roots
from codenav.errors import RootRefused
from codenav.roots import RootChoice, check_root, choose_root, count_files, paths_of_uris
from codenav.workspace import Workspace
from tests.conftest import write_tree


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = write_tree(tmp_path / "repo", {"src/pkg/a.py": "x = 1\n", "README.md": "hi\n"})
    (root / ".git").mkdir()
    return root


def test_the_rules_in_order(repo: Path, tmp_path: Path) -> None:
    inside = repo / "src" / "pkg"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {"CLAUDE_PROJECT_DIR": str(repo)}
    assert choose_root(str(inside), [repo], env=env, cwd=elsewhere) == \
        RootChoice(inside, "argument")
    assert choose_root(None, [inside], env=env, cwd=elsewhere) == RootChoice(inside, "client")
    assert choose_root(None, [], env=env, cwd=elsewhere) == \
        RootChoice(repo, "CLAUDE_PROJECT_DIR")
    # `cd click/src/click && codenav status` maps the repository, not the package folder
    assert choose_root(None, [], env={}, cwd=inside) == RootChoice(repo, "git")
    assert choose_root(None, [], env={}, cwd=elsewhere) == RootChoice(elsewhere, "cwd")


def test_rules_skip_what_is_not_a_folder(repo: Path, tmp_path: Path) -> None:
    gone = tmp_path / "gone"
    assert choose_root(None, [gone], env={"CLAUDE_PROJECT_DIR": str(gone)},
                       cwd=repo).rule == "git"
    with pytest.raises(NotADirectoryError):
        choose_root(str(gone))


def test_a_dotfiles_repository_in_home_does_not_make_home_the_root(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    project = home / "src" / "project"
    project.mkdir(parents=True)
    (home / ".git").mkdir()
    monkeypatch.setenv("HOME", str(home))
    assert choose_root(None, [], env={}, cwd=project) == RootChoice(project, "cwd")


def test_client_roots_are_local_folders_only(repo: Path) -> None:
    uris = ["https://example.com/x", "file://otherhost/x", (repo / "nope").as_uri(),
            repo.as_uri(), "file:///tmp/%2e%2e"]
    assert paths_of_uris(uris)[0] == repo


def test_slash_home_and_pseudo_file_systems_are_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    for path, rule, what in [(Path("/"), "argument", "file system's root"),
                             (tmp_path, "cwd", "home folder")]:
        with pytest.raises(RootRefused) as refused:
            check_root(RootChoice(path, rule))
        assert what in refused.value.message
        assert "--allow-large-root" in refused.value.hint
        check_root(RootChoice(path, rule), allow_large=True)  # the user insists
    for path in (Path("/proc"), Path("/sys/kernel"), Path("/dev")):
        with pytest.raises(RootRefused) as refused:
            check_root(RootChoice(path, "argument"), allow_large=True)  # never, whatever
        assert "never maps" in refused.value.message
    with pytest.raises(RootRefused):
        Workspace(tmp_path)


def test_a_huge_tree_without_git_is_refused_before_a_first_build(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(roots, "LARGE_ROOT_FILES", 20)
    files = {f"d{i}/m{j}.py": "x = 1\n" for i in range(5) for j in range(5)}
    big = write_tree(tmp_path / "big", {**files, "node_modules/x/y.js": "1\n"})
    assert count_files(big, limit=1000) == 25  # node_modules is never entered
    check_root(RootChoice(big, "cwd"))  # counting is asked for explicitly
    with pytest.raises(RootRefused) as refused:
        check_root(RootChoice(big, "cwd"), count=True)
    assert "more than 20 files" in refused.value.message
    ws = Workspace(big)
    with pytest.raises(RootRefused):
        ws.rebuild()
    assert not ws.db_path.exists()  # nothing was written
    with pytest.raises(RootRefused):
        ws.reader()
    (big / ".git").mkdir()  # a work tree is a repository, however large
    Workspace(big).rebuild()
