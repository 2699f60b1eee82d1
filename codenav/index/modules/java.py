"""Java: a package is the folder of its files below a source root (``src/main/java``,
``src`` … which the tree does not declare), so package ``a.b`` is every folder whose path
ends in ``a/b``. ``import a.b.C;`` names class ``C`` of package ``a.b``; a capitalised part
is a class, not a package (``import a.b.Outer.Inner;``, ``import static a.b.C.m;``).

Keys: ``I:a.b@java`` is package ``a.b`` (all its files; ``@java``: no other language's
module system takes it for one of its modules, nor this one theirs); a class part follows
``::`` (``I:a.b@java::Outer.Inner``). Files of one package see each other's top-level types
(``peers``): the same folder, and its twin under the other source sets of a Maven/Gradle
layout (``src/main/java/a/b`` and ``src/test/java/a/b``).
"""

from __future__ import annotations

import posixpath
import re
from collections import defaultdict
from collections.abc import Iterable

from codenav.index.modules import ConfigReader, ModuleSystem, no_config

__all__ = ["SYSTEM", "JavaModules"]

_TAG = "@java"
# ``<module>/src/<source set>/java/<package path>``: the package path after the root.
_SOURCE_SET = re.compile(r"^(?P<module>(?:.*/)?)src/[^/]+/(?:java|kotlin)(?:/(?P<package>.*))?$")


class JavaModules(ModuleSystem):
    _SUFFIX = ".java"

    def __init__(self) -> None:
        self._folders: dict[str, list[str]] = defaultdict(list)  # folder -> its .java files
        self._twins: dict[str, list[str]] = defaultdict(list)  # (module, package) -> folders

    def module_key(self, path: str, module: str) -> str | None:
        parts = [p for p in module.split(".") if p]
        if not parts:
            return None
        for i, part in enumerate(parts):
            if part[:1].isupper():  # a class: members of it follow the package
                package = ".".join(parts[:i])
                return f"I:{package}{_TAG}::{'.'.join(parts[i:])}" if package else None
        return f"I:{'.'.join(parts)}{_TAG}"

    def prefix_keys(self, path: str, module: str) -> list[str]:
        """Each part of ``a.b.C.D``: nothing for the packages ``a`` and ``a.b`` (""), the
        class ``C`` of ``a.b`` and its member ``D`` (``import static a.b.C.m;`` uses ``C``)."""
        parts = [p for p in module.split(".") if p]
        keys = [self.module_key(path, ".".join(parts[: i + 1])) or ""
                for i in range(len(parts))]
        return [key if "::" in key else "" for key in keys]

    def index(self, paths: Iterable[str], root_name: str,
              read: ConfigReader = no_config) -> None:
        self._folders.clear()
        self._twins.clear()
        for path in sorted(p for p in paths if p.endswith(self._SUFFIX)):
            self._folders[posixpath.dirname(path)].append(path)
        for folder in self._folders:
            twin = _SOURCE_SET.match(folder)
            if twin:
                self._twins[f"{twin['module']}\0{twin['package'] or ''}"].append(folder)

    def files_for(self, key: str) -> list[str]:
        if not key.startswith("I:") or not key.endswith(_TAG) or "::" in key:
            return []
        package = key[2 : -len(_TAG)].replace(".", "/")
        if not package:
            return []
        out: list[str] = []
        for folder, files in self._folders.items():
            if folder == package or folder.endswith("/" + package):
                out += files
        return out

    def submodule(self, key: str, name: str) -> str:
        return f"{key.removesuffix(_TAG)}.{name}{_TAG}"

    def peers(self, path: str) -> list[str]:
        folder = posixpath.dirname(path)
        twin = _SOURCE_SET.match(folder)
        folders = self._twins.get(f"{twin['module']}\0{twin['package'] or ''}", [folder]) \
            if twin else [folder]
        out = [path]
        for other in folders:
            out += [p for p in self._folders.get(other, []) if p != path]
        return out


SYSTEM = JavaModules
