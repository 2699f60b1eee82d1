"""C and C++: ``#include "x.h"`` names a file relative to the including file's folder, else
one of the tree's include folders; ``#include <x.h>`` only an include folder (a system header
resolves to nothing unless the tree holds it). An include sees every name of the header, so
it is a wildcard import. ``using namespace a::b;`` is a wildcard import of a namespace.

Keys: ``P:<normalised path>`` for a quoted include, ``I:<header as written>`` for an
angle-bracket one, ``Q:<a.b>@cpp`` for a namespace (its members are the C++ nodes named ``a.b.x``).
A header not at its key's path is looked for as a unique path suffix: the longest tail of the
path that exactly one file of the tree ends with (``include/geo/shape.h`` for
``"geo/shape.h"`` included from ``src/``); several candidates at one length mean no answer.
"""

from __future__ import annotations

import posixpath
import re
from collections import defaultdict
from collections.abc import Iterable

from codenav.index.modules import ConfigReader, ModuleSystem, no_config

__all__ = ["SYSTEM", "CModules"]

_NAMESPACE = re.compile(r"(?:::)?[A-Za-z_]\w*(?:::[A-Za-z_]\w*)*")


class CModules(ModuleSystem):
    def __init__(self) -> None:
        self._paths: set[str] = set()
        self._tails: dict[str, list[str]] = {}

    def module_key(self, path: str, module: str) -> str | None:
        if not module:
            return None
        if module.startswith("<"):
            header = module.strip("<>").strip()
            return f"I:{header}" if header else None
        if "." not in module and "/" not in module and _NAMESPACE.fullmatch(module):
            return "Q:" + module.strip(":").replace("::", ".") + "@cpp"
        joined = posixpath.normpath(posixpath.join(posixpath.dirname(path), module))
        if joined.startswith("../") or joined == "..":
            # above the root: only the part below it can be in the tree
            joined = "/".join(p for p in joined.split("/") if p != "..")
        return f"P:{joined}" if joined and joined != "." else None

    def prefix_keys(self, path: str, module: str) -> list[str]:
        key = self.module_key(path, module)
        if key is None:
            return []
        if not key.startswith("Q:"):
            return [key]
        parts = key[2:].removesuffix("@cpp").split(".")  # a namespace: each leading part
        return [f"Q:{'.'.join(parts[: i + 1])}@cpp" for i in range(len(parts))]

    def index(self, paths: Iterable[str], root_name: str,
              read: ConfigReader = no_config) -> None:
        self._paths = set(paths)
        tails: dict[str, list[str]] = defaultdict(list)
        for path in sorted(self._paths):
            parts = path.split("/")
            for i in range(len(parts)):
                tails["/".join(parts[i:])].append(path)
        self._tails = dict(tails)

    def files_for(self, key: str) -> list[str]:
        if key.startswith("P:"):
            path = key[2:]
            if path in self._paths:
                return [path]
            return self._by_tail(path)
        if key.startswith("I:"):
            header = posixpath.normpath(key[2:])
            if header.startswith("../"):
                return []
            under_include = [p for p in self._tails.get(header, ())
                             if p == f"include/{header}" or p.endswith(f"/include/{header}")]
            if len(under_include) == 1:
                return under_include
            found = self._tails.get(header, [])
            return found[:1] if len(found) == 1 else []
        return []

    def _by_tail(self, path: str) -> list[str]:
        """The one file ending with the longest tail of ``path`` that any file ends with."""
        parts = path.split("/")
        for i in range(len(parts)):
            found = self._tails.get("/".join(parts[i:]))
            if found:
                return found[:1] if len(found) == 1 else []
        return []


SYSTEM = CModules
