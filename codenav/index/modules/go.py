"""Go: a package is a folder (all its ``.go`` files, tests apart); an import names a package
by path, ``<module path from go.mod>/<folder below go.mod>`` (or ``vendor/<path>``).

Keys: ``I:<import path>``. A plain import binds the package's name, taken from the path's
last element (``example.com/x/store`` binds ``store``; ``…/v2`` and ``yaml.v3`` are versions).

A file whose ``//go:build`` line the language's ``predefined`` tags decide against (on this
machine: ``windows``, ``darwin`` …) is compiled out whole, as gopls leaves it out.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Mapping

from codenav.index.modules import ConfigReader, ModuleSystem, no_config
from codenav.index.modules.cpp_conditions import evaluate

__all__ = ["SYSTEM", "GoModules"]

_MODULE_LINE = re.compile(r"^\s*module\s+\"?([^\s\"/][^\s\"]*)\"?\s*(?://.*)?$", re.M)
_MAJOR = re.compile(r"^v\d+$")
_DOT_MAJOR = re.compile(r"\.v\d+$")
# the build constraint: before the package clause, on a line of its own
_BUILD = re.compile(rb"^//go:build[ \t]+([^\n]*)$", re.M)
_TAG = re.compile(r"[\w.]+")


def _is_test(path: str) -> bool:
    return path.endswith("_test.go")


class GoModules(ModuleSystem):
    project_files = frozenset({"go.mod"})

    def __init__(self) -> None:
        self._folders: dict[str, list[str]] = {}  # folder -> its .go files, sorted
        self._modules: list[tuple[str, str]] = []  # (module path, folder of its go.mod)

    def module_key(self, path: str, module: str) -> str | None:
        return f"I:{module}" if module and "::" not in module else None

    def regions(self, data: bytes, predefined: Mapping[str, int | bool]
                ) -> list[tuple[int, int, str]]:
        package = re.search(rb"^package\s", data, re.M)
        found = _BUILD.search(data, 0, package.start() if package else len(data))
        if found is None:
            return []
        expression = found.group(1).decode("utf-8", "replace").split("//")[0]
        cond = _TAG.sub(lambda m: f"defined({m.group(0).replace('.', '_')})", expression)
        decided = evaluate(cond, predefined.get)
        if decided is True:
            return []
        return [(1, data.count(b"\n") + 1, "0" if decided is False else cond)]

    def bound_name(self, module: str) -> str | None:
        parts = [p for p in module.split("/") if p]
        if len(parts) > 1 and _MAJOR.fullmatch(parts[-1]):
            parts.pop()  # example.com/x/v2 is package x
        if not parts:
            return None
        name = _DOT_MAJOR.sub("", parts[-1])  # gopkg.in/yaml.v3 is package yaml
        name = name.removeprefix("go-").replace("-", "_").replace(".", "_")
        return name if name.isidentifier() else None

    def submodule(self, key: str, name: str) -> str:
        return f"{key}/{name}"

    def index(self, paths: Iterable[str], root_name: str,
              read: ConfigReader = no_config) -> None:
        folders: dict[str, list[str]] = {}
        for path in paths:
            if path.endswith(".go"):
                folders.setdefault(posixpath.dirname(path), []).append(path)
        # The package's main file first: the one named like its folder, then doc.go.
        self._folders = {folder: sorted(files, key=lambda p: (
            _is_test(p), posixpath.basename(p) not in (
                posixpath.basename(folder) + ".go", "doc.go"),
            posixpath.basename(p) != posixpath.basename(folder) + ".go", p))
            for folder, files in folders.items()}
        candidates: set[str] = set()
        for folder in folders:
            ancestor = folder
            while True:
                candidates.add(ancestor)
                if not ancestor:
                    break
                ancestor = posixpath.dirname(ancestor)
        modules = []
        for folder in sorted(candidates):
            text = read(posixpath.join(folder, "go.mod") if folder else "go.mod")
            found = _MODULE_LINE.search(text) if text else None
            if found:
                modules.append((found.group(1), folder))
        # The longest module path first: a nested module owns its own packages.
        self._modules = sorted(modules, key=lambda m: (-len(m[0]), m[1]))

    def _folder(self, import_path: str) -> str | None:
        for module, folder in self._modules:
            if import_path == module or import_path.startswith(module + "/"):
                rest = import_path[len(module) :].lstrip("/")
                target = posixpath.join(folder, rest) if folder and rest else folder or rest
                if target in self._folders:
                    return target
        for _module, folder in self._modules:  # a vendored copy beside a go.mod
            vendored = posixpath.join(folder, "vendor", import_path) if folder else \
                f"vendor/{import_path}"
            if vendored in self._folders:
                return vendored
        return None

    def files_for(self, key: str) -> list[str]:
        if not key.startswith("I:"):
            return []
        folder = self._folder(key[2:])
        if folder is None:
            return []
        return [p for p in self._folders[folder] if not _is_test(p)]

    def peers(self, path: str) -> list[str]:
        """The files of ``path``'s package: its folder's files (a test file sees all of
        them; the others do not see the tests)."""
        files = self._folders.get(posixpath.dirname(path), [path])
        return files if _is_test(path) else [p for p in files if not _is_test(p)]


SYSTEM = GoModules
