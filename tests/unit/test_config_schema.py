"""Configuration files are checked: every key that does not apply is a warning naming the
file, the line and the key, and the rest of the file applies (codenav/config_schema.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from codenav import config_schema
from codenav.config import Trust, config_warnings, project_config, user_lsp
from codenav.lsp.servers import families

USER = """\
trusted = ["/x"]
colour = "blue"

[lsp.pyhton]
command = ["jedi-language-server"]

[lsp.python]
comand = ["jedi-language-server"]
enabled = "no"
name = "kept"

[lsp.go
enabled = false

[lsp.rust]
enabled = false

[projects."/home/me/app".lsp.python]
command = "pyright"
"""


@pytest.fixture
def user_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    path = tmp_path / "config" / "codenav" / "config.toml"
    path.parent.mkdir(parents=True)
    return path


def _said(warnings: list[config_schema.ConfigWarning]) -> set[tuple[int | None, str | None]]:
    return {(w.line, w.key) for w in warnings}


def test_every_stray_setting_is_named_with_its_line(user_config: Path) -> None:
    user_config.write_text(USER)
    found = config_warnings(None)
    assert {w.file for w in found} == {user_config}
    assert _said(found) == {
        (2, "colour"),  # unknown key
        (4, "lsp.pyhton"),  # unknown family (a typo of python)
        (8, "lsp.python.comand"),  # unknown key (a typo of command)
        (9, "lsp.python.enabled"),  # wrong type
        (12, None),  # TOML that does not parse: the table it heads is left out
        (19, 'projects."/home/me/app".lsp.python.command'),  # wrong type
    }
    messages = {w.key: w.message for w in found}
    assert "python" in messages["lsp.pyhton"]  # the families are listed
    assert "got 'no'" in messages["lsp.python.enabled"]
    assert "unknown key" in messages["lsp.python.comand"]
    assert "TOML" in str(next(w for w in found if w.line == 12))


def test_the_rest_of_the_file_still_applies(user_config: Path) -> None:
    user_config.write_text(USER)
    mine = user_lsp(None)
    # `name` survives beside the bad keys; [lsp.rust] after the broken header applies; the
    # broken [lsp.go table does not turn go off, nor spill into the table before it
    assert mine == {"python": {"name": "kept"}, "rust": {"enabled": False}}
    table = families()
    assert table["rust"].enabled is False and table["go"].enabled is True
    assert table["python"].enabled is True


def test_a_project_file_and_pyproject_are_checked_too(tmp_path: Path, user_config: Path) -> None:
    root = tmp_path / "repo"
    (root / ".codenav").mkdir(parents=True)
    (root / ".codenav" / "config.toml").write_text("[lsp.python]\nenabled = 0\n"
                                                   "[lsp.go]\nenabled = false\n")
    applied = project_config(root, Trust(False, "test"))
    assert applied.lsp["go"] == {"enabled": False} and not applied.lsp.get("python")
    assert _said(config_warnings(root)) == {(2, "lsp.python.enabled")}
    (root / ".codenav" / "config.toml").unlink()
    (root / "pyproject.toml").write_text("[project]\nname = 'x'\n\n[tool.codenav]\n"
                                         "lsp = 3\n\n[tool.other]\nanything = 1\n")
    assert _said(config_warnings(root)) == {(5, "tool.codenav.lsp")}
    # someone else's section of pyproject.toml, or its TOML errors without codenav, are not
    # codenav's business
    (root / "pyproject.toml").write_text("[tool.black]\nline-length = 'x'\n[broken\n")
    assert config_warnings(root) == []


def test_a_fixed_file_has_no_warnings(user_config: Path) -> None:
    user_config.write_text("[lsp.python]\ncomand = ['x']\n")
    assert config_warnings(None)
    user_config.write_text("[lsp.python]\ncommand = ['x']\n")
    assert config_warnings(None) == []
    assert user_lsp(None) == {"python": {"command": ["x"]}}
