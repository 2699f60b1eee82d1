"""Python: packages are folders with ``__init__.py``; ``from .x import y`` is relative to the
importing file's folder; a tree may hold several source roots (``src/``, ``tests/`` …)."""

from __future__ import annotations

import posixpath
from collections.abc import Iterable

from codenav.index.modules import ConfigReader, ModuleSystem, no_config

__all__ = ["SYSTEM", "PythonModules"]


class PythonModules(ModuleSystem):
    _INITS = ("__init__.py", "__init__.pyi")
    _SUFFIXES = (".py", ".pyi")

    def __init__(self) -> None:
        self._dotted: dict[str, list[str]] = {}
        self._paths: set[str] = set()

    def module_key(self, path: str, module: str) -> str | None:
        if not module.startswith("."):
            return f"I:{module}" if module else None
        dots = len(module) - len(module.lstrip("."))
        folder = posixpath.dirname(path)
        for _ in range(dots - 1):
            if not folder:
                return None  # above the root: nothing in the tree can be meant
            folder = posixpath.dirname(folder)
        rest = module[dots:].replace(".", "/")
        target = posixpath.join(folder, rest) if rest else folder
        return f"P:{target}"

    def prefix_keys(self, path: str, module: str) -> list[str]:
        dots = len(module) - len(module.lstrip("."))
        parts = module[dots:].split(".") if module[dots:] else []
        keys = []
        for i in range(1, len(parts) + 1):
            key = self.module_key(path, module[:dots] + ".".join(parts[:i]))
            if key is not None:
                keys.append(key)
        return keys

    def submodule(self, key: str, name: str) -> str:
        if key.startswith("P:"):
            base = key[2:]
            return f"P:{base}/{name}" if base else f"P:{name}"
        return f"{key}.{name}"

    def package_key(self, path: str) -> str | None:
        folder, name = posixpath.split(path)
        return f"P:{folder}" if name in self._INITS else None

    def index(self, paths: Iterable[str], root_name: str,
              read: ConfigReader = no_config) -> None:
        files = [p for p in paths if p.endswith(self._SUFFIXES)]
        self._paths = set(files)
        packages = {posixpath.dirname(p) for p in files if posixpath.basename(p) in self._INITS}
        dotted: dict[str, list[tuple[int, str]]] = {}
        for path in files:
            folder, name = posixpath.split(path)
            stem = name.rsplit(".", 1)[0]
            parts = folder.split("/") if folder else []
            # The top package: the shortest run of package folders ending at this file's.
            top = len(parts)
            while top > 0 and "/".join(parts[:top]) in packages:
                top -= 1
            module = parts[top:] + ([] if stem == "__init__" else [stem])
            if top == 0 and "" in packages and root_name:
                module = [root_name, *module]  # the root folder is itself a package
            names = [(0, ".".join(module))]
            full = parts + ([] if stem == "__init__" else [stem])
            if full != module:
                names.append((1, ".".join(full)))  # the path from the root, as a fallback
            for rank, dotted_name in names:
                if dotted_name:
                    dotted.setdefault(dotted_name, []).append((rank, path))
        self._dotted = {name: [p for _, p in sorted(found, key=lambda f: (f[0], f[1].endswith(
            ".pyi"), f[1]))] for name, found in dotted.items()}

    def files_for(self, key: str) -> list[str]:
        if key.startswith("I:"):
            return self._dotted.get(key[2:], [])[:1]
        if key.startswith("P:"):
            base = key[2:]
            candidates = [base + suffix for suffix in self._SUFFIXES]
            candidates += [posixpath.join(base, init) for init in self._INITS]
            return [c for c in candidates if c in self._paths][:1]
        return []


SYSTEM = PythonModules
