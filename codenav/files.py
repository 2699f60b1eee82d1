"""Reading the tree's files: regular files only, bounded, never blocking, never outside the root.

Everything codenav reads from a repository goes through here — source files, the project
files that configure it (``pyproject.toml``, ``.codenav/config.toml``, ``.gitignore``,
``tsconfig.json`` …) and paths that come out of the map (a map is input too: one shipped in
a repository can name any path). A FIFO opened for reading blocks until a writer comes, a
link to ``/dev/zero`` never ends, and a path from a crafted map can climb out of the root, so:

- a repo-relative path must be relative, without ``..``, NUL or an empty part, and resolve
  (symlinks followed) to a file inside the root (:func:`inside`);
- files are opened with ``O_NONBLOCK`` and checked with ``fstat`` *after* opening (a file
  swapped for a FIFO after it was listed still cannot stall a read), then read up to a bound.

Project files that are not regular files or are too big are ignored with one warning each
(:func:`read_project_file`); source reads return None and the caller says what is missing.
"""

from __future__ import annotations

import logging
import os
import stat
import threading
from pathlib import Path, PurePosixPath

__all__ = ["MAX_PROJECT_FILE_BYTES", "NotRegular", "inside", "read_project_file",
           "read_regular", "read_source", "safe_relative"]

log = logging.getLogger("codenav.files")

MAX_PROJECT_FILE_BYTES = 1 << 20
_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
_warned: set[str] = set()
_warned_lock = threading.Lock()


class NotRegular(OSError):
    """The path names something that is not a regular file (FIFO, device, socket, folder)."""


def read_regular(path: str | Path, limit: int) -> bytes:
    """Up to ``limit + 1`` bytes of the regular file at ``path`` (one more than the bound, so
    that a caller can tell a file over it). Opened without blocking and checked after
    opening; raises NotRegular for anything but a regular file, OSError when unreadable."""
    fd = os.open(path, _FLAGS)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotRegular(f"{path} is not a regular file")
        os.set_blocking(fd, True)
        chunks: list[bytes] = []
        left = limit + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def safe_relative(rel: str) -> bool:
    """Whether ``rel`` is a plain repo-relative POSIX path: not absolute, no ``..``, ``~``,
    NUL or empty part (what any path from the map or a project file must be)."""
    if not rel or "\0" in rel or rel.startswith(("/", "~")):
        return False
    parts = rel.split("/")
    return all(part not in ("", "..") for part in parts)


def inside(root: Path, rel: str) -> Path | None:
    """The absolute path of repo-relative ``rel`` under ``root`` (already canonical), or
    None when ``rel`` is not a plain relative path or resolves (through symlinks) outside
    the root."""
    if not safe_relative(rel):
        return None
    full = root / PurePosixPath(rel)
    try:
        real = Path(os.path.realpath(full))
    except (OSError, ValueError):
        return None
    if real.parts[: len(root.parts)] != root.parts:
        return None
    return full


def read_source(root: Path, rel: str, limit: int) -> bytes | None:
    """The bytes of repo-relative ``rel`` under canonical ``root`` (up to ``limit + 1``), or
    None when the path is not safe, not inside the root, not a regular file or unreadable."""
    full = inside(root, rel)
    if full is None:
        return None
    try:
        return read_regular(full, limit)
    except OSError:
        return None


def read_project_file(path: Path, limit: int = MAX_PROJECT_FILE_BYTES,
                      *, follow_links: bool = False) -> str | None:
    """The text of a project file (configuration codenav reads, not source it maps), or None
    when it is missing. One that is a symlink (unless ``follow_links``: the user's own
    files), not a regular file, over ``limit`` bytes or unreadable is ignored with a
    warning, once per path."""
    try:
        if not follow_links and path.is_symlink():
            _warn(path, "is a symbolic link")
            return None
        data = read_regular(path, limit)
    except FileNotFoundError:
        return None
    except NotRegular:
        _warn(path, "is not a regular file")
        return None
    except OSError as exc:
        if isinstance(exc, NotADirectoryError):
            return None
        _warn(path, f"cannot be read ({exc.strerror or exc})")
        return None
    if len(data) > limit:
        _warn(path, f"is over {limit:,} bytes")
        return None
    return data.decode("utf-8", "replace")


def _warn(path: Path, why: str) -> None:
    key = f"{path}:{why}"
    with _warned_lock:
        if key in _warned:
            return
        _warned.add(key)
    log.warning("%s %s: codenav ignores it", path, why)
