"""Path arguments: normalisation to repo-relative form and the ``--force-root`` boundary.

Containment is decided on canonical paths (symlinks resolved) compared component by
component, never by string prefix: ``/x/proj-evil`` is not inside ``/x/proj`` (CVE-2025-53110),
and a symlink inside the root that points outside is outside (CVE-2025-53109).
"""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath

from codenav.errors import BadArgs, OutOfRoot

__all__ = ["canonical", "is_inside", "relative_path", "require_inside", "require_nameable",
           "require_relative"]


def canonical(path: Path) -> Path:
    """``path`` made absolute with every symlink resolved (whether or not it exists)."""
    return Path(os.path.realpath(path))


def is_inside(path: Path, boundary: Path) -> bool:
    """Whether canonical ``path`` equals or lies below canonical ``boundary``."""
    inner, outer = canonical(path).parts, canonical(boundary).parts
    return inner[: len(outer)] == outer


def require_inside(path: Path, boundary: Path | None, what: str = "path") -> None:
    """Raise OUT_OF_ROOT unless ``path`` is inside ``boundary`` (no boundary: anything goes)."""
    if boundary is not None and not is_inside(path, boundary):
        raise OutOfRoot(f"{what} is outside the allowed root")


def relative_path(raw: str, root: Path, boundary: Path | None = None) -> str:
    """A tool's ``file`` argument as a repo-relative POSIX path.

    Accepts repo-relative paths (``src/a.py``, ``./src/a.py``) and absolute paths inside the
    root. The answer for a path outside the boundary is the same whether or not it exists.
    """
    if not raw or "\0" in raw:
        raise BadArgs("file must be a non-empty path without NUL characters, e.g. 'src/app.py'")
    require_nameable(raw, "file")
    candidate = Path(raw)
    full = candidate if candidate.is_absolute() else root / candidate
    # inside the root, and inside --force-root (which may be wider than the root)
    for limit in (boundary, root):
        require_inside(full, limit, "file")
    resolved = canonical(full)
    rel = resolved.relative_to(canonical(root))
    return PurePosixPath(*rel.parts).as_posix() if rel.parts else "."


_NAME_MAX = 255  # bytes in one path component (Linux, macOS)
_PATH_MAX = 4096


def require_nameable(raw: str, what: str = "path") -> None:
    """BAD_ARGS for a path no file system can hold (a component over 255 bytes, the whole
    over 4,096): the OS would refuse it with ENAMETOOLONG."""
    encoded = os.fsencode(raw)
    if len(encoded) > _PATH_MAX or any(len(part) > _NAME_MAX for part in encoded.split(b"/")):
        raise BadArgs(f"{what} is longer than a file system allows ({_NAME_MAX} bytes a name, "
                      f"{_PATH_MAX} in all)")


def require_relative(raw: str, what: str = "path") -> None:
    """OUT_OF_ROOT for a repo-relative pattern (``fileFilter``) that is absolute or climbs
    out with ``..``: such a pattern names nothing in the map, so it is refused, not ignored."""
    parts = PurePosixPath(raw.strip().replace("\\", "/")).parts
    if parts and (parts[0] == "/" or ".." in parts or parts[0].startswith("~")):
        raise OutOfRoot(f"{what} must be relative to the root, without '..'")
