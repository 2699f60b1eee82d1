"""ECMAScript modules (TypeScript, TSX, JavaScript): an import names a file by a path relative
to the importing file (``./x``, ``../y/z``), with the extension left out or written as the
compiled ``.js``, or a folder meaning its ``index`` file; a bare specifier (``react``,
``@app/util``) is a package, found in the tree through ``tsconfig.json`` /
``jsconfig.json`` ``compilerOptions.baseUrl`` and ``paths``, or as a package of the tree itself
(a ``package.json`` naming it: a monorepo's packages, a package importing itself by name), its
entry (``exports``, ``types``, ``main``) read back to the source it is built from.

Keys: ``P:<repo-relative path as written, normalised>`` and ``I:<bare specifier>``.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Iterable

from codenav.index.modules import ConfigReader, ModuleSystem, no_config

__all__ = ["SYSTEM", "EsModules", "parse_jsonc"]

# What an extension-less specifier may be, in the order TypeScript's resolver tries them.
_SOURCE_EXTENSIONS = (".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts",
                      ".d.mts", ".d.cts")
# A specifier written with a compiled extension names the source that compiles to it.
_COMPILED = {".js": (".ts", ".tsx", ".d.ts", ".js", ".jsx"), ".jsx": (".tsx", ".jsx"),
             ".mjs": (".mts", ".d.mts", ".mjs"), ".cjs": (".cts", ".d.cts", ".cjs")}
_CONFIGS = ("tsconfig.json", "jsconfig.json")
_MAX_EXTENDS = 4
_MAX_CONFIG_FOLDERS = 20000  # folders probed for a tsconfig.json


def parse_jsonc(text: str) -> object:
    """JSON with comments and trailing commas (tsconfig's dialect); None when malformed."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == '"':
            end = i + 1
            while end < n and text[end] != '"':
                end += 2 if text[end] == "\\" else 1
            out.append(text[i : end + 1])
            i = end + 1
        elif text.startswith("//", i):
            newline = text.find("\n", i)
            i = n if newline < 0 else newline
        elif text.startswith("/*", i):
            close = text.find("*/", i + 2)
            i = n if close < 0 else close + 2
        else:
            out.append(ch)
            i += 1
    cleaned = re.sub(r",(\s*[}\]])", r"\1", "".join(out))
    try:
        return json.loads(cleaned)
    except ValueError:
        return None


class EsModules(ModuleSystem):
    project_files = frozenset({"tsconfig.json", "jsconfig.json", "package.json"})

    def __init__(self) -> None:
        self._paths: set[str] = set()
        self._base_urls: list[str] = []
        self._aliases: list[tuple[str, str, list[str]]] = []  # (prefix, suffix, targets)
        # the tree's own packages, longest name first: (name, folder, package.json's entries:
        # subpath -> the files it names, "." the package itself)
        self._packages: list[tuple[str, str, dict[str, list[str]]]] = []

    def module_key(self, path: str, module: str) -> str | None:
        if not module:
            return None
        if module in (".", "..") or module.startswith(("./", "../")):
            joined = posixpath.normpath(posixpath.join(posixpath.dirname(path), module))
            if joined == ".." or joined.startswith("../"):
                return None  # above the root
            return f"P:{joined}"  # (the root folder: `P:.`, never an empty path before `::`)
        if module.startswith("/"):
            return None
        return f"I:{module}"

    def submodule(self, key: str, name: str) -> str:
        base = key[2:]
        return f"{key[:2]}{base}/{name}" if base else f"{key}{name}"

    def index(self, paths: Iterable[str], root_name: str,
              read: ConfigReader = no_config) -> None:
        """Learn the files, and the ``tsconfig.json``/``jsconfig.json`` of every folder that
        holds sources or is above one (a monorepo's packages each have theirs). An import's
        key does not say which file it is in, so a bare specifier is tried against every
        config's aliases, the deepest config first."""
        self._paths = set(paths)
        folders: set[str] = set()
        for path in self._paths:
            folder = posixpath.dirname(path)
            while folder not in folders and len(folders) < _MAX_CONFIG_FOLDERS:
                folders.add(folder)
                if not folder:
                    break
                folder = posixpath.dirname(folder)
        for folder in sorted(folders, key=lambda f: (-f.count("/") - bool(f), f)):
            for name in _CONFIGS:
                options = self._compiler_options(posixpath.join(folder, name), read)
                if options is not None:
                    self._configure(options)
                    break
            package = _package(folder, read)
            if package is not None:
                self._packages.append(package)
        self._packages.sort(key=lambda p: -len(p[0]))

    def _compiler_options(self, rel: str, read: ConfigReader) -> dict[str, object] | None:
        """``compilerOptions`` of config ``rel`` merged over those it ``extends`` (relative
        ones only: a package in node_modules is not in the tree), with ``baseUrl`` and
        ``paths`` made repo-relative."""
        merged: dict[str, object] = {}
        chain: list[tuple[str, dict[str, object]]] = []
        current: str | None = rel
        while current is not None and len(chain) < _MAX_EXTENDS:
            text = read(current)
            config = parse_jsonc(text) if text is not None else None
            if not isinstance(config, dict):
                break
            options = config.get("compilerOptions")
            chain.append((current, options if isinstance(options, dict) else {}))
            parent = config.get("extends")
            current = None
            if isinstance(parent, str) and parent.startswith("."):
                target = posixpath.normpath(posixpath.join(posixpath.dirname(chain[-1][0]),
                                                           parent))
                current = target if target.endswith(".json") else target + ".json"
        if not chain:
            return None
        for where, options in reversed(chain):  # the config itself wins over what it extends
            folder = posixpath.dirname(where)
            if isinstance(options.get("baseUrl"), str):
                merged["baseUrl"] = _join(folder, str(options["baseUrl"]))
            if isinstance(options.get("paths"), dict):
                merged["paths"] = options["paths"]
                merged["pathsBase"] = folder
        return merged

    def _configure(self, options: dict[str, object]) -> None:
        base_url = options.get("baseUrl")
        if isinstance(base_url, str):
            self._base_urls.append(base_url)
        paths = options.get("paths")
        if not isinstance(paths, dict):
            return
        # `paths` entries are relative to baseUrl, else to the config's folder (TS >= 4.1).
        relative_to = base_url if isinstance(base_url, str) else str(
            options.get("pathsBase", ""))
        start = len(self._aliases)
        for pattern, targets in paths.items():
            if not isinstance(pattern, str) or not isinstance(targets, list) or \
                    pattern.count("*") > 1:
                continue
            prefix, star, suffix = pattern.partition("*")
            cleaned = [_join(relative_to, t) for t in targets if isinstance(t, str)
                       and t.count("*") <= 1]
            self._aliases.append((prefix, suffix if star else "\0exact", cleaned))
        # Within a config the longest prefix wins, as in TypeScript.
        ours = self._aliases[start:]
        self._aliases[start:] = sorted(ours, key=lambda a: -len(a[0]))

    def files_for(self, key: str) -> list[str]:
        if key.startswith("P:"):
            path = "" if key[2:] == "." else key[2:]
            found = self._file(path) or self._package_folder(path)
            return [found] if found else []
        if not key.startswith("I:"):
            return []
        spec = key[2:]
        for prefix, suffix, targets in self._aliases:
            if suffix == "\0exact":
                if spec != prefix:
                    continue
                matched = ""
            elif spec.startswith(prefix) and spec.endswith(suffix) and \
                    len(spec) >= len(prefix) + len(suffix):
                matched = spec[len(prefix) : len(spec) - len(suffix)]
            else:
                continue
            for target in targets:
                found = self._file(target.replace("*", matched, 1))
                if found:
                    return [found]
        for base_url in self._base_urls:
            found = self._file(_join(base_url, spec))
            if found:
                return [found]
        return self._in_package(spec)

    def _in_package(self, spec: str) -> list[str]:
        """The file a specifier naming one of the tree's own packages means (tsdoc's
        samples importing `@microsoft/tsdoc`, run 47; yaml's tests importing `yaml/util`,
        run 38): the entry its package.json gives for the subpath, read back to its
        source (``./dist/util.js`` -> ``src/util.ts``), else the subpath in the package's
        folder or its ``src/``."""
        for name, folder, entries in self._packages:
            if spec == name or spec.startswith(name + "/"):
                found = self._entry(folder, entries, spec[len(name):].lstrip("/"))
                return [found] if found else []
        return []

    def _package_folder(self, folder: str) -> str | None:
        """The entry of the package whose folder a relative import names (piscina's tests
        importing `'..'`, its package.json's `types` in a dist/ not in the tree, run 51)."""
        for _name, where, entries in self._packages:
            if where == folder:
                return self._entry(where, entries, "")
        return None

    def _entry(self, folder: str, entries: dict[str, list[str]], sub: str) -> str | None:
        """The file subpath ``sub`` ("": the package itself) of the package in ``folder``
        means: its package.json entry read back to its source, else ``sub`` in the folder or
        its ``src/`` (the package itself: ``src/index``, ``index``)."""
        for target in entries.get("./" + sub if sub else ".", []):
            found = self._built_from(_join(folder, target))
            if found:
                return found
        for base in ([_join(folder, sub), _join(folder, "src/" + sub)] if sub else
                     [_join(folder, "src/index"), _join(folder, "index")]):
            found = self._file(base)
            if found:
                return found
        return None

    def _built_from(self, path: str) -> str | None:
        """The source file a package entry names: itself (or its source by extension), or
        the same path under ``src/`` for one in a build folder (``dist/``, ``lib/`` …)."""
        found = self._file(path)
        if found:
            return found
        stem = re.sub(r"(\.d)?\.[cm]?[jt]sx?$", "", path)
        parts = stem.split("/")
        for at, part in enumerate(parts):
            if part in _BUILD_FOLDERS:
                found = self._file("/".join([*parts[:at], "src", *parts[at + 1:]]))
                if found:
                    return found
        return None

    def _file(self, base: str) -> str | None:
        """The source file a path names: itself, with an extension added, the source of a
        compiled name, or the folder's ``index``."""
        paths = self._paths
        if base in paths:
            return base
        for ext in _SOURCE_EXTENSIONS:
            if base + ext in paths:
                return base + ext
        stem, ext = posixpath.splitext(base)
        for source in _COMPILED.get(ext, ()):
            if stem + source in paths:
                return stem + source
        folder = f"{base}/index" if base else "index"
        for ext in _SOURCE_EXTENSIONS:
            if folder + ext in paths:
                return folder + ext
        return None


_BUILD_FOLDERS = frozenset({"dist", "lib", "build", "out", "esm", "cjs", "types", "es", "mjs"})
_ENTRY_FIELDS = ("types", "typings", "module", "main")
_CONDITIONS = ("types", "import", "module", "default", "require", "node")


def _package(folder: str, read: ConfigReader) -> tuple[str, str, dict[str, list[str]]] | None:
    """A package of the tree: its name, folder and entries (``exports`` by subpath, else
    ``types``/``module``/``main`` as ``.``); None when the folder has no package.json with
    a name."""
    text = read(posixpath.join(folder, "package.json"))
    config = parse_jsonc(text) if text is not None else None
    if not isinstance(config, dict) or not isinstance(config.get("name"), str) or \
            not config["name"]:
        return None
    entries: dict[str, list[str]] = {}
    exports = config.get("exports")
    if isinstance(exports, (str, list)) or (isinstance(exports, dict) and not any(
            key.startswith(".") for key in exports)):
        exports = {".": exports}  # one entry, maybe by condition
    if isinstance(exports, dict):
        for sub, target in exports.items():
            if isinstance(sub, str) and sub.startswith(".") and "*" not in sub:
                entries[sub] = _targets(target)
    if "." not in entries:
        entries["."] = [config[field] for field in _ENTRY_FIELDS
                        if isinstance(config.get(field), str)]
    return str(config["name"]), folder, entries


def _targets(target: object, depth: int = 0) -> list[str]:
    """The paths an ``exports`` entry names, types first (conditions nest)."""
    if isinstance(target, str):
        return [target]
    if isinstance(target, list) and depth < 4:
        return [path for item in target for path in _targets(item, depth + 1)]
    if isinstance(target, dict) and depth < 4:
        ordered = [key for key in _CONDITIONS if key in target] + \
            [key for key in target if key not in _CONDITIONS]
        return [path for key in ordered for path in _targets(target[key], depth + 1)]
    return []


def _join(folder: str, rel: str) -> str:
    joined = posixpath.normpath(posixpath.join(folder, rel))
    return "" if joined == "." else joined


SYSTEM = EsModules
