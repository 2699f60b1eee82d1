"""Which folder a command maps, and the folders codenav refuses to map.

The root is, in order (docs/contract.md §1): the ROOT the command line names; the first
folder among the MCP client's roots (``roots/list``) or an editor's workspace folders; the
folder in ``CLAUDE_PROJECT_DIR``; the top of the git work tree holding the current folder;
the current folder. ``RootChoice.rule`` says which of these chose it (``map_status``
reports it as ``rootFrom``).

Refused unless ``--allow-large-root``: the file system's root ``/``, the home folder, and a
folder without ``.git`` holding more than ``LARGE_ROOT_FILES`` files — where clients that
start servers in ``/`` or ``$HOME`` would otherwise land. ``/proc``, ``/sys`` and ``/dev``
(and what lies under them) are refused always: nothing there is source.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlparse

from codenav.errors import RootRefused
from codenav.index.discover import PSEUDO_FILE_SYSTEMS, is_excluded_dir, is_walked_dir

__all__ = ["ALLOW_FLAG", "LARGE_ROOT_FILES", "RULES", "RootChoice", "check_root", "choose_root",
           "count_files", "paths_of_uris"]

LARGE_ROOT_FILES = 200_000
ALLOW_FLAG = "--allow-large-root"
PROJECT_ENV = "CLAUDE_PROJECT_DIR"
# rootFrom values, in the order the rules are tried
RULES = ("argument", "client", PROJECT_ENV, "git", "cwd")


@dataclass(frozen=True, slots=True)
class RootChoice:
    """A root and the rule that chose it (one of ``RULES``)."""

    path: Path
    rule: str

    def describe(self) -> str:
        """How the root was chosen, said to a user: "the current folder"."""
        return {"argument": "named on the command line",
                "client": "the client's first root (roots/list or workspace folders)",
                PROJECT_ENV: f"${PROJECT_ENV}",
                "git": "the git work tree around the current folder",
                "cwd": "the current folder"}.get(self.rule, self.rule)


def paths_of_uris(uris: Sequence[str]) -> list[Path]:
    """The local folders among ``file://`` URIs (a client's roots), in order."""
    out = []
    for uri in uris:
        parsed = urlparse(uri)
        if parsed.scheme != "file" or parsed.netloc not in ("", "localhost"):
            continue
        path = Path(unquote(parsed.path))
        if path.is_dir():
            out.append(path)
    return out


def choose_root(explicit: str | Path | None = None, client: Sequence[Path] = (), *,
                env: Mapping[str, str] | None = None, cwd: Path | None = None) -> RootChoice:
    """The root by the rules above. A named ROOT that is not a folder is NotADirectoryError;
    the other rules skip what is not a folder (and a git work tree codenav would refuse: a
    dotfiles repository in the home folder does not make the home folder the root)."""
    if explicit is not None:
        path = Path(explicit).expanduser()
        if not path.is_dir():
            raise NotADirectoryError(f"not a directory: {explicit}")
        return RootChoice(path.resolve(), "argument")
    for folder in client:
        if folder.is_dir():
            return RootChoice(folder.resolve(), "client")
    variables = os.environ if env is None else env
    named = variables.get(PROJECT_ENV, "").strip()
    if named and Path(named).expanduser().is_dir():
        return RootChoice(Path(named).expanduser().resolve(), PROJECT_ENV)
    here = (cwd or Path.cwd()).resolve()
    top = _git_top(here)
    if top is not None and _cheap_refusal(top) is None:
        return RootChoice(top, "git")
    return RootChoice(here, "cwd")


def _git_top(start: Path) -> Path | None:
    """The nearest folder from ``start`` up holding ``.git`` (a folder, or the file of a
    linked work tree or submodule) — what ``git rev-parse --show-toplevel`` says, without
    running git in an unknown repository."""
    for folder in (start, *start.parents):
        if (folder / ".git").exists():
            return folder
    return None


def _home() -> Path | None:
    try:
        return Path.home().resolve()
    except (RuntimeError, OSError):
        return None


def _cheap_refusal(path: Path) -> str | None:
    """Why ``path`` is refused without looking inside it; None when it is not."""
    if path == Path(path.anchor):
        return f"{path} is the file system's root"
    if path == _home():
        return f"{path} is your home folder"
    return None


def _pseudo(path: Path) -> str | None:
    for fs in PSEUDO_FILE_SYSTEMS:
        if path == Path(fs) or Path(fs) in path.parents:
            return fs
    return None


def count_files(root: Path, limit: int = LARGE_ROOT_FILES) -> int:
    """Files under ``root`` a walk would see (excluded folders, build outputs and pseudo
    file systems not entered, symlinks not followed), counting stopped past ``limit``."""
    count = 0
    pending = [str(root)]
    while pending and count <= limit:
        folder = pending.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            try:
                is_dir = entry.is_dir(follow_symlinks=False)
            except OSError:
                continue
            if not is_dir:
                count += 1
            elif not is_excluded_dir(entry.name) and is_walked_dir(entry.path):
                pending.append(entry.path)
    return count


def check_root(choice: RootChoice, *, allow_large: bool = False, count: bool = False) -> None:
    """RootRefused when codenav will not map ``choice.path`` (see the module docstring);
    the file count is taken only with ``count`` (it walks the tree) and without ``.git``."""
    path = choice.path
    where = f"the root ({choice.describe()})"
    pseudo = _pseudo(path)
    if pseudo is not None:
        raise RootRefused(f"{where}, {path}, is inside {pseudo}, which codenav never maps",
                          hint=_hint(choice, allow=False))
    if allow_large:
        return
    why = _cheap_refusal(path)
    if why is None and count and not (path / ".git").exists():
        files = count_files(path, LARGE_ROOT_FILES)
        if files > LARGE_ROOT_FILES:
            why = (f"{path} holds more than {LARGE_ROOT_FILES:,} files and is not a git "
                   "work tree")
    if why is not None:
        raise RootRefused(f"codenav will not map {why}: {where} is too large to be a "
                          "repository", hint=_hint(choice, allow=True))


def _hint(choice: RootChoice, *, allow: bool) -> str:
    advice = ("Start codenav in the repository: give ROOT (`codenav mcp /path/to/repo`, "
              "`--root` for the other commands), or start it from inside the repository")
    if choice.rule in ("cwd", "git"):
        advice += (" (an MCP client that starts servers in / or your home folder: put the "
                   "repository's path in the server's arguments, or let `codenav setup` do it)")
    if allow:
        advice += f"; {ALLOW_FLAG} maps it anyway"
    return advice + "."
