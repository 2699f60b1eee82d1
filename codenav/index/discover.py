"""Discovery: which files of the tree belong in the map, and what was skipped and why.

In a git work tree the file list comes from ``git ls-files`` (tracked plus untracked files
that are not ignored); elsewhere the tree is walked with its ``.gitignore`` files applied.
Either way codenav never enters VCS or tool folders, virtualenvs or ``node_modules``, never
follows a symlink out of the root, and never follows a symlinked folder (no loops).
"""

from __future__ import annotations

import logging
import os
import re
import stat
import subprocess
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from codenav.files import read_project_file, safe_relative
from codenav.index.gitignore import IgnoreRules
from codenav.index.languages import Language, by_extension

__all__ = ["MAX_FILE_BYTES", "PSEUDO_FILE_SYSTEMS", "Candidate", "Discovery", "consider",
           "decodable", "discover", "is_excluded_dir", "is_walked_dir", "shown", "watched"]

log = logging.getLogger("codenav.discover")

MAX_FILE_BYTES = 2 * 1024 * 1024
_MINIFIED = re.compile(r"[.-]min\.[cm]?js$")

# Folders no user wants in a code map, whatever the ignore files say.
_ALWAYS_EXCLUDED = frozenset({
    ".git", ".hg", ".svn", ".codenav", "node_modules", "bower_components", "__pycache__",
    ".mypy_cache", ".pytest_cache", ".ruff_cache", ".tox", ".nox", ".venv", "venv",
    ".eggs", "site-packages", ".idea", ".vscode",
})
# Kernel views, not files: never entered, whatever the root (codenav/roots.py refuses them).
PSEUDO_FILE_SYSTEMS = frozenset({"/proc", "/sys", "/dev"})
# Build outputs: excluded when walking; in a git tree, .gitignore decides. A folder so named
# that is a Python package (coverage.py's own `coverage/`: run 62) is source, not output.
_BUILD_OUTPUTS = frozenset({"build", "dist", "target", "out", ".next", ".nuxt", "coverage",
                            "htmlcov", ".gradle", ".cache"})


def _build_output(folder: str) -> bool:
    """Whether the folder at path ``folder`` is a build output by its name (a Python package
    so named is not): the name first, the disk only for those names."""
    return os.path.basename(folder) in _BUILD_OUTPUTS and \
        not os.path.isfile(os.path.join(folder, "__init__.py"))


@dataclass(frozen=True, slots=True)
class Candidate:
    """A source file to map: repo-relative path, language and what stat said."""

    path: str
    lang: Language
    size: int
    mtime_ns: int


# Skipped files listed by path (a few per reason), for `codenav index --json` and map_rebuild.
_LISTED_REASONS = frozenset({"unreadable", "bad_name", "not_a_file"})
_LISTED_MAX = 50


@dataclass(slots=True)
class Discovery:
    files: list[Candidate] = field(default_factory=list)
    skipped: Counter[str] = field(default_factory=Counter)  # reason -> source files skipped
    skipped_paths: dict[str, list[str]] = field(default_factory=dict)  # reason -> some paths
    excluded_dirs: int = 0
    source: str = "walk"  # or "git"

    def skip(self, reason: str, rel: str) -> None:
        self.skipped[reason] += 1
        if reason in _LISTED_REASONS:
            listed = self.skipped_paths.setdefault(reason, [])
            if len(listed) < _LISTED_MAX:
                listed.append(shown(rel))


def shown(rel: str) -> str:
    """A path as text that can be printed and stored: bytes that are not UTF-8 (a file name
    decoded with surrogateescape) as ``\\xff`` escapes."""
    return os.fsencode(rel).decode("utf-8", "backslashreplace")


def decodable(rel: str) -> bool:
    """Whether ``rel`` (decoded with surrogateescape) is UTF-8 text: only such names are
    mapped (the map and JSON hold text)."""
    try:
        rel.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def is_excluded_dir(name: str) -> bool:
    """Folders never entered, whatever the mode (also used by the watcher)."""
    return name in _ALWAYS_EXCLUDED or name.endswith(".egg-info")


def is_walked_dir(path: str) -> bool:
    """Whether a walk may enter the folder at absolute ``path``: not a pseudo file system."""
    return path not in PSEUDO_FILE_SYSTEMS


def discover(root: Path, max_bytes: int | None = None) -> Discovery:
    """Every mappable file under ``root`` (an absolute, resolved path), sorted by path.

    Files over ``max_bytes`` (default 2 MiB) are listed but counted as skipped ``too_large``.
    """
    max_bytes = MAX_FILE_BYTES if max_bytes is None else max_bytes
    listed = _git_files(root)
    found = Discovery(source="git") if listed is not None else Discovery()
    if listed is not None:
        _from_git(root, listed, found, max_bytes)
    else:
        _walk(root, found, max_bytes)
    found.files.sort(key=lambda c: c.path)
    return found


# git reads the repository's own .git/config, which an unpacked tarball can ship:
# ``core.fsmonitor`` there names a program `git ls-files` runs (or starts git's fsmonitor
# daemon). These settings outrank it; the untracked cache and optional locks are off so that
# git writes nothing into the repository either.
_GIT = ("git", "-c", "core.fsmonitor=false", "-c", "core.untrackedCache=false",
        "-c", "core.quotepath=off")
_GIT_ENV = {"GIT_OPTIONAL_LOCKS": "0", "GIT_TERMINAL_PROMPT": "0"}
# git opens the files it reads as they are: a FIFO blocks it until a writer comes. The ones
# it reads before anything else are checked first; anything else (a FIFO .gitignore in an
# untracked folder, an include.path naming one) costs at most this, then the tree is walked.
_GIT_TIMEOUT_S = 20.0
_GIT_DIR_FILES = ("HEAD", "config", "index", "packed-refs", "commondir", "info/exclude")


def _git(root: Path, args: list[str], timeout: float = _GIT_TIMEOUT_S,
         stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes] | None:
    """``git ARGS`` in ``root`` with the repository's program-naming settings overridden;
    None when git is missing, fails to run or runs out of time (said in the log). Its stdin
    is never codenav's own (an MCP server's protocol stream)."""
    try:
        return subprocess.run([*_GIT, *args], cwd=root, input=stdin,
                              stdin=subprocess.DEVNULL if stdin is None else None,
                              capture_output=True, timeout=timeout, check=False,
                              env={**os.environ, **_GIT_ENV})
    except subprocess.TimeoutExpired:
        log.warning("git %s did not answer within %.0f s in %s; walking the tree instead",
                    args[0], timeout, root)
        return None
    except (OSError, subprocess.SubprocessError):
        return None


def _git_hazard(root: Path) -> str | None:
    """Why git must not be asked about ``root`` (a file it reads first is not a regular
    file: a FIFO would stall it, a device never end), or None."""
    for folder in (root, *root.parents):
        dot_git = folder / ".git"
        try:
            info = os.stat(dot_git)
        except OSError:
            continue
        if stat.S_ISREG(info.st_mode):  # a worktree or submodule: "gitdir: <path>"
            text = read_project_file(dot_git, 4096, follow_links=True) or ""
            target = text.strip().removeprefix("gitdir:").strip()
            git_dir = (folder / target).resolve() if target else dot_git
        elif stat.S_ISDIR(info.st_mode):
            git_dir = dot_git
        else:
            return f"{dot_git} is not a folder or a file"
        for name in _GIT_DIR_FILES:
            try:
                if not stat.S_ISREG(os.stat(git_dir / name).st_mode):
                    return f"{git_dir / name} is not a regular file"
            except OSError:
                continue
        return None
    return None


def _ignore_files_hazard(root: Path, tracked: list[str]) -> str | None:
    """Why git cannot read the ``.gitignore`` files of these folders, or None."""
    folders = {""}
    for rel in tracked:
        parts = rel.split("/")[:-1]
        folders.update("/".join(parts[:depth]) for depth in range(1, len(parts) + 1))
    for folder in folders:
        path = os.path.join(root, folder, ".gitignore")
        try:
            if not stat.S_ISREG(os.stat(path).st_mode):
                return f"{path} is not a regular file"
        except OSError:
            continue
    return None


def _git_files(root: Path) -> list[str] | None:
    """Tracked plus untracked files that are not ignored, as git lists them; None when the
    root is no git work tree, git is missing, or git cannot be asked safely (walk instead)."""
    hazard = _git_hazard(root)
    if hazard is not None:
        log.warning("not asking git about %s: %s; walking the tree instead", root, hazard)
        return None
    tracked = _git(root, ["ls-files", "-z", "--cached"])
    if tracked is None or tracked.returncode != 0:
        return None
    names = [name for name in tracked.stdout.decode("utf-8", "surrogateescape").split("\0")
             if name]
    hazard = _ignore_files_hazard(root, names)
    if hazard is not None:
        log.warning("not asking git about %s: %s; walking the tree instead", root, hazard)
        return None
    others = _git(root, ["ls-files", "-z", "--others", "--exclude-standard"])
    if others is None or others.returncode != 0:
        return None
    names += others.stdout.decode("utf-8", "surrogateescape").split("\0")
    return sorted({name for name in names if name})


def _from_git(root: Path, listed: list[str], found: Discovery, max_bytes: int) -> None:
    venv_dirs: dict[str, bool] = {}
    for rel in listed:
        lang = by_extension(rel)
        if lang is None:
            continue
        parts = rel.split("/")
        if any(is_excluded_dir(part) for part in parts[:-1]) or _in_venv(root, parts, venv_dirs):
            found.skipped["excluded"] += 1
            continue
        _consider(root, rel, lang, found, max_bytes)


def watched(root: Path, rels: Iterable[str]) -> list[str]:
    """Of these repo-relative paths (changed, added or gone), those a discovery would map:
    a mapped language, outside excluded folders and virtualenvs, not ignored (git's rules
    in a work tree, else the ``.gitignore`` files on the way down). For the file watcher."""
    venvs: dict[str, bool] = {}
    candidates = sorted({rel for rel in rels if by_extension(rel) is not None
                         and not any(is_excluded_dir(p) for p in rel.split("/")[:-1])
                         and not _in_venv(root, rel.split("/"), venvs)})
    if not candidates:
        return []
    ignored = _git_ignored(root, candidates)
    if ignored is None:
        ignored = _rules_ignored(root, candidates)
    return [rel for rel in candidates if rel not in ignored]


def _git_ignored(root: Path, rels: list[str]) -> set[str] | None:
    """The untracked paths among ``rels`` git ignores; None when ``root`` is no work tree."""
    if _git_hazard(root) is not None:
        return None
    out = _git(root, ["check-ignore", "-z", "--stdin"],
               stdin="\0".join(rels).encode("utf-8", "surrogateescape"))
    if out is None or out.returncode not in (0, 1):  # 128: not a git work tree
        return None
    return {name for name in out.stdout.decode("utf-8", "surrogateescape").split("\0") if name}


def _rules_ignored(root: Path, rels: list[str]) -> set[str]:
    rules = IgnoreRules()
    loaded: set[str] = set()
    out = set()
    for rel in rels:
        parts = rel.split("/")
        for depth in range(len(parts)):
            folder = "/".join(parts[:depth])
            if folder not in loaded:
                loaded.add(folder)
                if (root / folder / ".gitignore").is_file():
                    rules.load(root / folder, folder)
        dirs = ["/".join(parts[:d]) for d in range(1, len(parts))]
        if any(_build_output(os.path.join(root, d)) for d in dirs) or \
                any(rules.ignored(d, is_dir=True) for d in dirs) or \
                rules.ignored(rel, is_dir=False):
            out.add(rel)
    return out


def _in_venv(root: Path, parts: list[str], cache: dict[str, bool]) -> bool:
    for depth in range(1, len(parts)):
        folder = "/".join(parts[:depth])
        hit = cache.get(folder)
        if hit is None:
            hit = cache[folder] = (root / folder / "pyvenv.cfg").is_file()
        if hit:
            return True
    return False


def consider(root: Path, rel: str, found: Discovery, max_bytes: int | None = None) -> None:
    """Add ``rel`` to ``found`` if it is a mappable file (used without a whole discovery)."""
    lang = by_extension(rel)
    if lang is None or any(is_excluded_dir(part) for part in rel.split("/")[:-1]):
        return
    if not safe_relative(rel):  # a path from the map may be anything
        found.skipped["outside_root"] += 1
        return
    # A discovery never enters a symlinked folder; a path handed in (the watcher's) may run
    # through one, so its folder must resolve inside the root too.
    if not Path(os.path.realpath(os.path.join(root, rel))).parent.is_relative_to(root):
        found.skipped["outside_root"] += 1
        return
    _consider(root, rel, lang, found, MAX_FILE_BYTES if max_bytes is None else max_bytes)


def _consider(root: Path, rel: str, lang: Language, found: Discovery, max_bytes: int) -> None:
    if _MINIFIED.search(rel):  # generated, one huge line: nothing a reader navigates
        found.skipped["minified"] += 1
        return
    if not decodable(rel):  # a name that is not UTF-8: the map (and JSON) hold text only
        found.skip("bad_name", rel)
        return
    full = os.path.join(root, rel)
    try:
        info = os.lstat(full)
        if stat.S_ISLNK(info.st_mode):
            if not Path(full).resolve(strict=True).is_relative_to(root):
                found.skipped["outside_root"] += 1
                return
            info = os.stat(full)
    except (OSError, RuntimeError):  # vanished, unreadable, or a symlink loop
        found.skip("unreadable", rel)
        return
    if not stat.S_ISREG(info.st_mode):  # a FIFO or a device named like a source file
        found.skip("not_a_file", rel)
        return
    if info.st_size > max_bytes:
        found.skipped["too_large"] += 1
    found.files.append(Candidate(rel, lang, info.st_size, info.st_mtime_ns))


def _walk(root: Path, found: Discovery, max_bytes: int) -> None:
    rules = IgnoreRules()
    pending = [("", str(root))]
    while pending:
        rel_dir, folder = pending.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        names = {entry.name for entry in entries}
        if rel_dir and "pyvenv.cfg" in names:  # a virtualenv
            found.excluded_dirs += 1
            continue
        if ".gitignore" in names:
            rules.load(Path(folder), rel_dir)
        for entry in entries:
            name = entry.name
            rel = f"{rel_dir}/{name}" if rel_dir else name
            try:
                is_dir = entry.is_dir(follow_symlinks=False)
            except OSError:
                continue
            if is_dir:
                if (is_excluded_dir(name) or _build_output(entry.path)
                        or rules.ignored(rel, is_dir=True) or not is_walked_dir(entry.path)):
                    found.excluded_dirs += 1
                else:
                    pending.append((rel, entry.path))
                continue
            lang = by_extension(name)
            if lang is None:
                continue
            if rules.ignored(rel, is_dir=False):
                found.skipped["ignored"] += 1
                continue
            _consider(root, rel, lang, found, max_bytes)
