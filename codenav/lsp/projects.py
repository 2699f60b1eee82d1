"""One file of each project a language server loads lazily.

tsserver loads the project (``tsconfig.json``) of each file opened at it, and answers
references from the projects it has loaded: with a ``src/tsconfig.json`` beside the root's,
opening a file of ``src/`` loads ``src/``'s project only, and the tests' uses are missing
from every answer. Opening one file under each project's configuration at start loads them
all. Configuration files are only looked for (never read), inside the root.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path

__all__ = ["MAX_PROJECTS", "one_file_per_project"]

MAX_PROJECTS = 8  # projects opened beside the first file's (each costs the server memory)


def one_file_per_project(root: Path, paths: Iterable[str], configs: Sequence[str],
                         first: str | None) -> list[str]:
    """The first of ``paths`` (repo-relative, most central first) under each project
    configuration (a folder holding one of ``configs``, the nearest above a file) other than
    ``first``'s, at most ``MAX_PROJECTS``; none without ``configs``."""
    if not configs:
        return []
    owners: dict[str, str | None] = {}  # folder -> the folder of its nearest configuration

    def owner(folder: str) -> str | None:
        chain = []
        found: str | None = None
        current = folder
        while True:
            if current in owners:
                found = owners[current]
                break
            chain.append(current)
            base = root / current if current else root
            if any(os.path.isfile(base / name) for name in configs):
                found = current
                break
            if not current:
                break
            current = current.rpartition("/")[0]
        for seen in chain:
            owners[seen] = found
        return found

    taken = {owner(first.rpartition("/")[0])} if first is not None else set()
    out: list[str] = []
    for path in paths:
        project = owner(path.rpartition("/")[0])
        if project is None or project in taken:
            continue
        taken.add(project)
        out.append(path)
        if len(out) >= MAX_PROJECTS:
            break
    return out
