"""PHP: a namespace is a folder of files (PSR-4), so ``use App\\Models\\User;`` names the
member ``User`` of namespace ``App\\Models`` (key ``I:App\\Models::User``), found among the
top-level definitions of that folder's files. ``composer.json`` (``autoload.psr-4`` and
``autoload-dev.psr-4``, at the root or in a sub-folder) maps namespace prefixes to folders;
without a mapping, the folder whose trailing names match the namespace's most closely is
meant (only when exactly one matches best). ``require``/``include`` of a path (relative to
the including file, ``__DIR__ . '/x.php'`` too) loads that file: a star import
(``P:<repo-relative path>``). Files of one folder see each other's names (``peers``).
"""

from __future__ import annotations

import json
import posixpath
from collections import defaultdict
from collections.abc import Iterable

from codenav.index.modules import ConfigReader, ModuleSystem, no_config

__all__ = ["SYSTEM", "PhpModules"]

_SUFFIX = ".php"
_MAX_CONFIG_DEPTH = 3


def _normal(path: str) -> str | None:
    joined = posixpath.normpath(path) if path else ""
    if joined == ".." or joined.startswith("../") or joined.startswith("/") or joined == ".":
        return None
    return joined


class PhpModules(ModuleSystem):
    project_files = frozenset({"composer.json"})

    def __init__(self) -> None:
        self._paths: set[str] = set()
        self._folders: dict[str, list[str]] = {}  # folder -> its .php files, sorted
        self._psr4: list[tuple[str, str]] = []  # (namespace prefix with "\\", folder)

    def module_key(self, path: str, module: str) -> str | None:
        module = module.strip()
        if not module:
            return None
        if module.endswith(_SUFFIX) or "/" in module:  # a file: require / include
            target = _normal(posixpath.join(posixpath.dirname(path), module.lstrip("/")))
            return f"P:{target}" if target else None
        namespace = module.strip("\\")
        return f"I:{namespace}" if namespace else None

    def peers(self, path: str) -> list[str]:
        return self._folders.get(posixpath.dirname(path), [path])

    def index(self, paths: Iterable[str], root_name: str,
              read: ConfigReader = no_config) -> None:
        self._paths = {p for p in paths if p.endswith(_SUFFIX)}
        folders: dict[str, list[str]] = defaultdict(list)
        for path in sorted(self._paths):
            folders[posixpath.dirname(path)].append(path)
        self._folders = dict(folders)
        self._psr4 = self._read_psr4(read)

    def _read_psr4(self, read: ConfigReader) -> list[tuple[str, str]]:
        """Namespace prefixes and their folders from every ``composer.json`` near the top."""
        places = {""}
        for folder in self._folders:
            parts = folder.split("/") if folder else []
            if "vendor" in parts:
                continue
            for i in range(1, min(len(parts), _MAX_CONFIG_DEPTH) + 1):
                places.add("/".join(parts[:i]))
        mapping: list[tuple[str, str]] = []
        for place in sorted(places):
            text = read(posixpath.join(place, "composer.json") if place else "composer.json")
            if not text:
                continue
            try:
                config = json.loads(text)
            except ValueError:
                continue
            for section in ("autoload", "autoload-dev"):
                table = config.get(section, {}) if isinstance(config, dict) else {}
                psr4 = table.get("psr-4", {}) if isinstance(table, dict) else {}
                if not isinstance(psr4, dict):
                    continue
                for prefix, targets in psr4.items():
                    for target in targets if isinstance(targets, list) else [targets]:
                        if isinstance(prefix, str) and isinstance(target, str):
                            base = _normal(posixpath.join(place, target.strip("/")))
                            mapping.append((prefix.strip("\\"), base or ""))
        # Longest prefixes first: the most specific mapping wins.
        return sorted(mapping, key=lambda m: -len(m[0]))

    def _namespace_folder(self, namespace: str) -> str | None:
        for prefix, folder in self._psr4:
            if namespace == prefix or namespace.startswith(prefix + "\\") or not prefix:
                rest = namespace[len(prefix):].strip("\\").replace("\\", "/")
                candidate = posixpath.join(folder, rest) if rest else folder
                candidate = candidate.strip("/")
                if candidate in self._folders:
                    return candidate
        parts = namespace.split("\\")
        best, score = [], 0
        for folder in self._folders:
            names = folder.split("/") if folder else []
            matched = 0
            while (matched < min(len(parts), len(names))
                   and parts[-1 - matched].lower() == names[-1 - matched].lower()):
                matched += 1
            if matched > score:
                best, score = [folder], matched
            elif matched == score and matched:
                best.append(folder)
        return best[0] if len(best) == 1 else None

    def files_for(self, key: str) -> list[str]:
        if key.startswith("P:"):
            return [key[2:]] if key[2:] in self._paths else []
        if key.startswith("I:"):
            folder = self._namespace_folder(key[2:])
            return list(self._folders.get(folder, [])) if folder is not None else []
        return []


SYSTEM = PhpModules
