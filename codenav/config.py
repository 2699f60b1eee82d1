"""Settings that come from outside codenav's own defaults — the user's configuration and the
project's — and how far a project is trusted.

A repository is input, not configuration: anything in it that names a program
(``command``), or settings that a language server turns into one (``settings``), applies only
when the user trusts that repository — ``--trust-project-config``, the environment variable
``CODENAV_TRUST_PROJECT_CONFIG=1``, or the root listed under ``trusted`` in the user's own
configuration (never under ``--force-root`` without the flag or the variable). Keys that can
only do less (``enabled = false``) always apply. The user's own configuration
(``$XDG_CONFIG_HOME/codenav/config.toml``, default ``~/.config/codenav/config.toml``) is
theirs and always applies::

    trusted = ["/home/me/src/app"]          # roots whose own config may name programs

    [lsp.python]                            # for every root
    command = ["jedi-language-server"]

    [projects."/home/me/src/app".lsp.go]    # for one root (its absolute path)
    enabled = false
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from codenav.config_schema import ConfigWarning, check_file, warnings_for
from codenav.files import read_project_file

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

__all__ = ["TRUST_ENV", "ProjectConfig", "Trust", "config_warnings", "decide_trust",
           "project_config", "read_toml", "user_config_path", "user_lsp"]

TRUST_ENV = "CODENAV_TRUST_PROJECT_CONFIG"
TRUST_FLAG = "--trust-project-config"
# Project keys that are honoured whatever the trust: they can only make codenav do less.
SAFE_KEYS = frozenset({"enabled"})


@dataclass(frozen=True, slots=True)
class Trust:
    """Whether a project's own configuration may name programs, and why (for map_status)."""

    trusted: bool
    why: str

    @property
    def allow(self) -> str:
        """How a user allows what was ignored."""
        return (f"Trust the project: {TRUST_FLAG}, {TRUST_ENV}=1, or its root under "
                f"`trusted` in {user_config_path()}")


def user_config_path() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "codenav" / "config.toml"


def read_toml(path: Path) -> dict[str, Any]:
    """A project's TOML file as a table, read like any file of the repository (regular,
    bounded, never blocking, not through a symlink); {} when missing, unreadable or not
    TOML."""
    text = read_project_file(path)
    if text is None:
        return {}
    try:
        data = tomllib.loads(text)
    except (ValueError, RecursionError):  # nesting deep enough exhausts tomllib's recursion
        return {}
    return data if isinstance(data, dict) else {}


def _load(path: Path, kind: str = "user") -> dict[str, Any]:
    """The file's settings that apply: checked against codenav/config_schema.py, whose
    warnings name what was left out (``kind``: user, project or pyproject). A project's
    file is read like any file of the repository (``read_project_file``); the user's own
    may be a symlink, as dotfiles often are."""
    text = read_project_file(path, follow_links=kind == "user")
    if text is None:
        return {}
    return check_file(path, text, kind)


def _user() -> dict[str, Any]:
    return _load(user_config_path())


_PROJECT_FILES = ((".codenav/config.toml", "project", ("lsp",)),
                  ("pyproject.toml", "pyproject", ("tool", "codenav", "lsp")))


def config_warnings(root: Path | None) -> list[ConfigWarning]:
    """What the user's configuration and ``root``'s own do not apply, and why (the files
    are read again: a warning goes once the file is fixed)."""
    _user()
    paths = [user_config_path()]
    if root is not None:
        project_config(root, Trust(False, "checking"))
        paths += [root / name for name, _, _ in _PROJECT_FILES]
    return warnings_for(paths)


def decide_trust(root: Path, *, flag: bool = False, forced: bool = False) -> Trust:
    """How far ``root``'s own configuration is trusted: the flag, the environment variable,
    or (not under ``--force-root``) the user's ``trusted`` list."""
    if flag:
        return Trust(True, TRUST_FLAG)
    if os.environ.get(TRUST_ENV, "").strip().lower() in ("1", "true", "yes"):
        return Trust(True, f"{TRUST_ENV}=1")
    if forced:
        return Trust(False, f"--force-root: only {TRUST_FLAG} or {TRUST_ENV}=1 trusts a project")
    listed = _user().get("trusted", [])
    for entry in listed if isinstance(listed, list) else []:
        if isinstance(entry, str) and _same(Path(entry).expanduser(), root):
            return Trust(True, f"listed as trusted in {user_config_path()}")
    return Trust(False, "not trusted")


def _same(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False


@dataclass(slots=True)
class ProjectConfig:
    """The project's ``lsp`` tables as they apply, and what was left out because the project
    is not trusted (``"lsp.python.command in .codenav/config.toml"``)."""

    lsp: dict[str, dict[str, Any]] = field(default_factory=dict)
    ignored: list[str] = field(default_factory=list)


def project_config(root: Path | None, trust: Trust) -> ProjectConfig:
    """``root``'s ``[lsp.<family>]`` (``.codenav/config.toml``) or
    ``[tool.codenav.lsp.<family>]`` (``pyproject.toml``), the first found winning, with the
    keys that name programs kept only when ``trust`` allows."""
    out = ProjectConfig()
    if root is None:
        return out
    for name, kind, keys in _PROJECT_FILES:
        data: Any = _load(root / name, kind)
        for key in keys:
            data = data.get(key) if isinstance(data, dict) else None
        if not isinstance(data, dict):
            continue
        for family, row in data.items():
            if not isinstance(row, dict):
                continue
            kept = {k: v for k, v in row.items() if trust.trusted or k in SAFE_KEYS}
            out.ignored += [f"lsp.{family}.{k} in {name}" for k in row if k not in kept]
            out.lsp[str(family)] = kept
        break
    return out


def user_lsp(root: Path | None) -> dict[str, dict[str, Any]]:
    """The user's own ``[lsp.<family>]`` tables, those of ``[projects."<root>".lsp]`` over
    them."""
    config = _user()
    out: dict[str, dict[str, Any]] = {}
    tables = [config.get("lsp")]
    projects = config.get("projects")
    if root is not None and isinstance(projects, dict):
        tables += [value.get("lsp") for key, value in projects.items()
                   if isinstance(value, dict) and _same(Path(key).expanduser(), root)]
    for table in tables:
        for family, row in (table.items() if isinstance(table, dict) else ()):
            if isinstance(row, dict):
                out.setdefault(str(family), {}).update(row)
    return out
