"""Module systems: how import statements name files, one small module per language family.

A language's ``language.toml`` names its module system (``modules = "python"``), the module
``codenav.index.modules.<name>`` whose ``SYSTEM`` class implements :class:`ModuleSystem`.
Extraction asks it for the *keys* of what an import binds (strings the linker resolves
later, once every file is known); the linker asks it which files a module key means.

Keys of modules: ``I:<name as imported>`` for a non-relative import, ``P:<repo-relative path
without extension>`` for one relative to the importing file. A member of a module is
``<module key>::<name>`` (see ``index/binder.py`` for the whole key grammar).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Collection, Iterable, Mapping
from pathlib import Path
from typing import ClassVar

from codenav.files import read_project_file, safe_relative

__all__ = ["ConfigReader", "ModuleSystem", "config_reader", "module_system", "no_config",
           "project_files"]

# Reads a project file by repo-relative path (``go.mod``, ``tsconfig.json``, ``composer.json``):
# its text, or None when it is missing, unreadable, too big or outside the tree.
ConfigReader = Callable[[str], "str | None"]

_MAX_CONFIG_BYTES = 1 << 20


def config_reader(root: Path | None) -> ConfigReader:
    """A :data:`ConfigReader` of the tree at ``root`` (None: a tree with no files)."""

    def read(rel: str) -> str | None:
        if root is None or not safe_relative(rel):
            return None
        return read_project_file(root / rel, _MAX_CONFIG_BYTES)

    return read


def no_config(rel: str) -> str | None:
    """The reader of a tree with no project files."""
    return None


class ModuleSystem:
    """How one language family's imports name modules (no modules: every answer is empty).
    ``project_files``: the names of the project files ``index`` reads (a change to one
    relinks the map)."""

    project_files: ClassVar[frozenset[str]] = frozenset()

    def module_key(self, path: str, module: str) -> str | None:
        """The key of ``module`` as written in an import of file ``path``."""
        return None

    def prefix_keys(self, path: str, module: str) -> list[str]:
        """Keys of each leading part of a dotted module (``a``, ``a.b``, ``a.b.c``); "" for a
        part that names nothing the map holds."""
        return []

    def bound_name(self, module: str) -> str | None:
        """The name a plain import of ``module`` binds when the module is written as a path
        (Go's ``import "a/b/store"`` binds ``store``); None: its first identifier."""
        return None

    def files_for(self, key: str) -> list[str]:
        """The files module ``key`` is made of (several for a package spread over a folder,
        as in Go), its main file first; empty when it is not in the tree."""
        return []

    def submodule(self, key: str, name: str) -> str:
        """The key of module ``key``'s submodule ``name``."""
        return f"{key}.{name}"

    def package_key(self, path: str) -> str | None:
        """The key under which the submodules of ``path``'s module are found (a Python
        ``pkg/__init__.py`` is ``P:pkg``), or None when it has none."""
        return None

    def peers(self, path: str) -> list[str]:
        """Files whose top-level names ``path`` sees without importing them (same package)."""
        return [path]

    def index(self, paths: Iterable[str], root_name: str,
              read: ConfigReader = no_config) -> None:
        """Learn the tree's files (repo-relative) before resolving; ``root_name`` is the
        folder name of the root, for trees whose root is itself a package; ``read`` reads
        project files (``go.mod``, ``tsconfig.json`` …) that say how imports name files."""

    def regions(self, data: bytes, predefined: Mapping[str, int | bool]
                ) -> list[tuple[int, int, str]]:
        """Lines compiled only under a condition (a preprocessor's), as far as one file and
        the ``predefined`` macros tell: (first line, last line, condition; "0": never)."""
        return []

    def decide(self, path: str, cond: str, defined: Collection[str]) -> bool | None:
        """Whether a condition ``regions`` left open holds for file ``path``, given the
        project's configuration (``index`` read it) and ``defined``: the macros some file
        of the project defines; None when that does not tell."""
        return None


def module_system(name: str) -> ModuleSystem:
    """A fresh module system by its ``language.toml`` name (none or unknown: no imports)."""
    if not name or not name.isidentifier():
        return ModuleSystem()
    try:
        found = importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError:
        return ModuleSystem()
    system: ModuleSystem = found.SYSTEM()
    return system


def project_files(names: Iterable[str]) -> frozenset[str]:
    """The names of the project files the module systems ``names`` read."""
    return frozenset(name for system in names for name in module_system(system).project_files)
