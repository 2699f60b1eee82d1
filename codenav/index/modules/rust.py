"""Rust: a crate's modules are files. A crate root is ``src/lib.rs``, ``src/main.rs``,
``src/bin/x.rs`` or a file of ``tests/``, ``examples/``, ``benches/``; ``mod x;`` in a module
is ``x.rs`` or ``x/mod.rs`` beside it (in its folder for a root or a ``mod.rs``, else in the
folder named like the file).

Keys: ``P:<module's path without .rs>`` — ``use crate::a::b::C`` is ``P:src/a/b::C``;
``self::``, ``super::`` and a path starting with a plain name (2018 edition: a child module)
are relative to the importing module. Extraction cannot tell a child module from another
crate, so the linker does: a key naming no file whose path holds the name of a library crate
of the tree — a package whose folder has ``Cargo.toml`` and ``src/lib.rs`` (``[lib] name``
or ``[package] name``, ``-`` read as ``_``) — is read from that crate's root on: the members
of a workspace, and a package's own library seen from its ``tests/``. Other crates
(``std``, dependencies) lead to no file of the tree.

Items under a ``#[cfg(…)]`` that the language's ``predefined`` names decide against (on this
machine: ``windows``) are compiled out (``rust_cfg``).
"""

from __future__ import annotations

import posixpath
import sys
from collections.abc import Iterable, Mapping

from codenav.index.modules import ConfigReader, ModuleSystem, no_config
from codenav.index.modules.rust_cfg import regions

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

__all__ = ["SYSTEM", "RustModules"]

_OWN_FOLDER = ("lib.rs", "main.rs", "mod.rs")  # modules whose children sit beside them
_CRATE_OF = "@crate("  # `P:@crate(<file>)/a/b`: module a::b of the crate holding <file>
_TARGET_TABLES = ("lib", "bin", "test", "example", "bench")
_TARGETS = ("tests", "examples", "benches")  # folders whose files are each a crate root


def _src_index(parts: list[str]) -> int:
    """The index of the last ``src`` folder among ``parts``, or -1."""
    for i in range(len(parts) - 1, -1, -1):
        if parts[i] == "src":
            return i
    return -1


def is_crate_root(path: str) -> bool:
    """``src/lib.rs``, ``src/main.rs``, ``src/bin/x.rs``, ``tests/x.rs``, ``examples/x.rs`` …"""
    folder, name = posixpath.split(path)
    if name in ("lib.rs", "main.rs"):
        return True
    parts = folder.split("/") if folder else []
    src = _src_index(parts)
    if src >= 0:
        return src == len(parts) - 2 and parts[-1] == "bin"
    return bool(parts) and parts[-1] in _TARGETS


def module_dir(path: str) -> str:
    """The folder holding the child modules of file ``path``'s module."""
    folder, name = posixpath.split(path)
    if name in _OWN_FOLDER or is_crate_root(path):
        return folder
    return path[:-3] if path.endswith(".rs") else path


def crate_dir(path: str) -> str | None:
    """The folder of the crate root of ``path`` (``src``, ``src/bin/<name>``, ``tests`` …);
    None when the file is under none of them."""
    folder = posixpath.dirname(path)
    if is_crate_root(path):
        return folder
    parts = folder.split("/") if folder else []
    src = _src_index(parts)
    if src >= 0:
        if len(parts) > src + 2 and parts[src + 1] == "bin":  # src/bin/<name>/…
            return "/".join(parts[: src + 3])
        return "/".join(parts[: src + 1])
    for i in range(len(parts) - 1, -1, -1):
        if parts[i] in _TARGETS:  # tests/common/mod.rs belongs to the tests' crates
            return "/".join(parts[: i + 1])
    return None


def _crate_name(manifest: str) -> str | None:
    """The name other crates `use` a package's library by, from its Cargo.toml."""
    try:
        table = tomllib.loads(manifest)
    except tomllib.TOMLDecodeError:
        return None
    lib, package = table.get("lib"), table.get("package")
    name = (lib.get("name") if isinstance(lib, dict) else None) or \
        (package.get("name") if isinstance(package, dict) else None)
    return name.replace("-", "_") if isinstance(name, str) and name else None


def _target_roots(manifest: str, package: str) -> list[str]:
    """The root files a Cargo.toml names with ``path`` (``[lib]``, ``[[bin]]`` …), as
    repo-relative paths."""
    try:
        table = tomllib.loads(manifest)
    except tomllib.TOMLDecodeError:
        return []
    out = []
    for name in _TARGET_TABLES:
        targets = table.get(name)
        for target in targets if isinstance(targets, list) else [targets]:
            if isinstance(target, dict) and isinstance(target.get("path"), str):
                out.append(posixpath.normpath(posixpath.join(package, target["path"])))
    return out


class RustModules(ModuleSystem):
    project_files = frozenset({"Cargo.toml"})

    def __init__(self) -> None:
        self._paths: set[str] = set()
        self._crates: dict[str, str] = {}  # library crate name -> folder of its lib.rs
        self._roots: list[str] = []  # folders of crate roots Cargo.toml names, deepest first

    def module_key(self, path: str, module: str) -> str | None:
        segments = [s for s in module.split("::") if s]
        if not segments or not path:
            return None
        head = segments[0]
        folder: str | None
        if head == "crate":
            # a crate whose root Cargo.toml names (`[[bin]] path = "crates/core/main.rs"`):
            # the linker knows where it is (files_for)
            folder, rest = crate_dir(path) or f"{_CRATE_OF}{path})", segments[1:]
        elif head in ("self", "super"):
            folder, rest = module_dir(path), segments
            while rest and rest[0] in ("self", "super"):
                if rest[0] == "super":
                    if not folder or folder == crate_dir(path):
                        return None  # above the crate root
                    folder = posixpath.dirname(folder)
                rest = rest[1:]
        elif head == "Self" or module.startswith("::"):
            return None
        else:  # a child module of this one (else a crate: see files_for)
            folder, rest = module_dir(path), segments
        if folder is None or any(s in ("self", "super", "crate") for s in rest):
            return None
        target = "/".join([folder, *rest]) if folder else "/".join(rest)
        return f"P:{target}" if target else None

    def prefix_keys(self, path: str, module: str) -> list[str]:
        """One key per identifier of the path (``crate``, ``self`` and ``super`` are not):
        a module, else an item of the module before it (``use self::Mode::*``: the enum
        ``Mode`` of this module)."""
        segments = [s for s in module.split("::") if s]
        keys = []
        for i, segment in enumerate(segments):
            if segment in ("crate", "self", "super"):
                continue
            key = self.module_key(path, "::".join(segments[: i + 1]))
            if key is None:
                break
            parent = self.module_key(path, "::".join(segments[:i]) if i else "self")
            keys.append(f"{key}|{parent}::{segment}" if parent else key)
        return keys

    def regions(self, data: bytes, predefined: Mapping[str, int | bool]
                ) -> list[tuple[int, int, str]]:
        return regions(data, predefined)

    def submodule(self, key: str, name: str) -> str:
        base = key[2:] if key.startswith("P:") else ""
        return f"P:{base}/{name}" if base else f"P:{name}"

    def package_key(self, path: str) -> str | None:
        return f"P:{module_dir(path)}" if path.endswith(".rs") else None

    def index(self, paths: Iterable[str], root_name: str,
              read: ConfigReader = no_config) -> None:
        self._paths = {p for p in paths if p.endswith(".rs")}
        self._crates = {}
        folders = {""} | {posixpath.dirname(p) for p in self._paths}
        for leaf in list(folders):
            parent = leaf
            while parent:
                parent = posixpath.dirname(parent)
                folders.add(parent)
        roots: set[str] = set()
        for folder in sorted(folders):
            manifest = read(posixpath.join(folder, "Cargo.toml") if folder else "Cargo.toml")
            if manifest and "path" in manifest:
                roots.update(posixpath.dirname(root) for root in _target_roots(manifest, folder)
                             if root in self._paths)
        self._roots = sorted(roots, key=lambda f: (-f.count("/"), f))
        for lib in sorted(p for p in self._paths if posixpath.basename(p) == "lib.rs"):
            src = posixpath.dirname(lib)
            if posixpath.basename(src) != "src":
                continue
            package = posixpath.dirname(src)
            manifest = read(posixpath.join(package, "Cargo.toml") if package else "Cargo.toml")
            name = _crate_name(manifest) if manifest else None
            if name and name not in self._crates:
                self._crates[name] = src

    def files_for(self, key: str) -> list[str]:
        if not key.startswith("P:"):
            return []
        if key.startswith(f"P:{_CRATE_OF}"):
            file, _, rest = key[2 + len(_CRATE_OF) :].partition(")")
            folder = next((root for root in self._roots
                           if file.startswith(f"{root}/") or not root), None)
            if folder is None:
                return []
            key = f"P:{folder}{rest}" if folder else f"P:{rest.lstrip('/')}"
        found = self._module_file(key[2:])
        if found is None and self._crates:
            # `use core_lib::money` was keyed as a child module (extraction cannot know the
            # crates): with no such child, a crate of that name starts the path instead.
            segments = key[2:].split("/")
            for i in range(len(segments) - 1, -1, -1):
                if segments[i] in self._crates:
                    found = self._module_file("/".join([self._crates[segments[i]],
                                                        *segments[i + 1 :]]))
                    break
        return [found] if found is not None else []

    def _module_file(self, base: str) -> str | None:
        candidates = [f"{base}.rs"] + [posixpath.join(base, name) for name in
                                       ("mod.rs", "lib.rs", "main.rs")]
        return next((c for c in candidates if c in self._paths), None)


SYSTEM = RustModules
