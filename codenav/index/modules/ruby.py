"""Ruby: ``require_relative "x"`` loads a file relative to the requiring one; ``require "a/b"``
one on the load path (a ``lib/`` folder of the tree). Loading a file makes its constants
visible, so a require is a star import (``free_names`` then falls back to the one top-level
definition of a name anywhere: Ruby constants are global once loaded).

The grammar cannot tell the two requires apart in a query, so the key keeps both readings:
``P:<folder of the requiring file>//<path as written>`` is looked up next to the requiring
file first, then under the tree's ``lib/`` folders. A path starting with ``./`` or ``../``
is only relative: ``P:<repo-relative path without .rb>``.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable

from codenav.index.modules import ConfigReader, ModuleSystem, no_config

__all__ = ["SYSTEM", "RubyModules"]

_SUFFIX = ".rb"


def _normal(path: str) -> str | None:
    """``path`` without ``.``/``..`` parts, or None when it leaves the tree."""
    joined = posixpath.normpath(path) if path else ""
    if joined in (".", ""):
        return ""
    if joined == ".." or joined.startswith("../") or joined.startswith("/"):
        return None
    return joined


class RubyModules(ModuleSystem):
    def __init__(self) -> None:
        self._paths: set[str] = set()
        self._libs: list[str] = []  # folders named lib, shallowest first

    def module_key(self, path: str, module: str) -> str | None:
        module = module.strip()
        if not module or module.startswith("/") or "//" in module:
            return None
        folder = posixpath.dirname(path)
        if module.startswith(("./", "../")):
            target = _normal(posixpath.join(folder, module))
            return f"P:{target.removesuffix(_SUFFIX)}" if target else None
        return f"P:{folder}//{module.removesuffix(_SUFFIX)}"

    def index(self, paths: Iterable[str], root_name: str,
              read: ConfigReader = no_config) -> None:
        self._paths = {p for p in paths if p.endswith(_SUFFIX)}
        libs: set[str] = set()
        for path in self._paths:
            parts = path.split("/")[:-1]
            for i, part in enumerate(parts):
                if part == "lib":
                    libs.add("/".join(parts[: i + 1]))
        self._libs = sorted(libs, key=lambda lib: (lib.count("/"), lib))

    def files_for(self, key: str) -> list[str]:
        if not key.startswith("P:"):
            return []
        rest = key[2:]
        if "//" not in rest:
            return [rest + _SUFFIX] if rest + _SUFFIX in self._paths else []
        folder, module = rest.split("//", 1)
        relative = _normal(posixpath.join(folder, module))
        if relative and relative + _SUFFIX in self._paths:
            return [relative + _SUFFIX]
        for lib in self._libs:  # the load path
            candidate = _normal(posixpath.join(lib, module))
            if candidate and candidate + _SUFFIX in self._paths:
                return [candidate + _SUFFIX]
        return []


SYSTEM = RubyModules
