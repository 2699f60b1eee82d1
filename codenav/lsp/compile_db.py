"""A compile database in codenav's cache, for a server whose index covers what one lists
(clangd's background index, ``compile_database = true`` in servers.toml).

clangd writes its background index beside the compile database it reads
(``<folder>/.cache/clangd/index``): run on the repository's own, it would write into the
repository, which codenav never does. So the server is pointed at a folder of codenav's
cache (``--compile-commands-dir``) holding the project's ``compile_commands.json`` (from
the top or ``build/``, each entry's relative ``directory`` made absolute), or, without one,
a database made from the tree: every file of the family's languages, with the flags of
``compile_flags.txt`` if there is one. Its index then covers the project, and persists
across sessions as a user's own clangd index does.

No program is named by what is written here that the server did not already read: clangd
never runs the compiler a database names (that takes ``--query-driver``).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Collection
from pathlib import Path
from typing import Any

from codenav.files import read_project_file, read_source
from codenav.lsp.servers import cache_dir

__all__ = ["PLACEHOLDER", "stage"]

PLACEHOLDER = "{compile_database}"  # in a server's command: the folder staged here
_DATABASES = ("compile_commands.json", "build/compile_commands.json")
_MAX_BYTES = 64 << 20


def stage(root: Path, languages: Collection[str]) -> Path:
    """Write the compile database for ``root`` (see the module docstring) and return its
    folder; ``languages`` are the map language codes of the server's family."""
    root = root.resolve()
    folder = cache_dir() / "compile-db" / hashlib.sha1(str(root).encode()).hexdigest()[:16]
    entries = _project_entries(root)
    if entries is None:
        entries = _tree_entries(root, languages)
    text = json.dumps(entries, indent=1)
    target = folder / "compile_commands.json"
    folder.mkdir(parents=True, exist_ok=True)
    try:
        if target.read_text("utf-8") == text:
            return folder
    except OSError:
        pass
    partial = folder / f".compile_commands.{os.getpid()}.tmp"
    partial.write_text(text, "utf-8")
    partial.replace(target)
    return folder


def _project_entries(root: Path) -> list[dict[str, Any]] | None:
    """The project's own database, read like any project file (regular, bounded, never
    through a symlink), its entries for files outside the root left out: a repository's
    database does not make the server read elsewhere."""
    for rel in _DATABASES:
        text = read_project_file(root / rel, _MAX_BYTES)
        if text is None:
            continue
        try:
            entries = json.loads(text)
        except (ValueError, RecursionError):
            continue
        if not isinstance(entries, list):
            continue
        out = []
        for found in entries:
            if not isinstance(found, dict) or not isinstance(found.get("file"), str):
                continue
            entry = dict(found)
            directory = Path(str(entry.get("directory") or "."))
            if not directory.is_absolute():  # relative to the database's own folder
                entry["directory"] = str(((root / rel).parent / directory).resolve())
            file = Path(str(entry["directory"])) / entry["file"]
            if not Path(os.path.realpath(file)).is_relative_to(root):
                continue
            out.append(entry)
        return out
    return None


def _tree_entries(root: Path, languages: Collection[str]) -> list[dict[str, Any]]:
    """One entry per file of ``languages`` in the tree (as the map discovers them), with the
    flags of compile_flags.txt."""
    from codenav.index.discover import discover
    from codenav.index.languages import language_of

    text = read_project_file(root / "compile_flags.txt") or ""
    flags = [line.strip() for line in text.splitlines() if line.strip()]
    out = []
    for candidate in discover(root).files:
        rel, lang = candidate.path, candidate.lang
        if lang.code not in languages:
            continue
        head = read_source(root, rel, 64 * 1024)
        if head is None:
            continue
        lang = language_of(rel, head) or lang
        mode = ["-xc++"] if lang.code != "c" and rel.endswith(".h") else []
        out.append({"directory": str(root), "file": rel,
                    "arguments": ["clang", *mode, *flags, "-c", rel]})
    return out
