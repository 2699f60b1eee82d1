"""``.gitignore`` rules, for trees that are not git work trees (git itself answers otherwise).

Implements the documented pattern syntax: comments, ``!`` negation, trailing ``/`` for
directories only, anchoring by an inner or leading ``/``, ``*``, ``?``, ``[...]`` and ``**``.
The last matching rule wins; a directory that is ignored is not entered, so nothing below it
can be re-included (git's rule too).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from codenav.files import read_project_file

__all__ = ["IgnoreRules"]


@dataclass(frozen=True, slots=True)
class _Rule:
    regex: re.Pattern[str]
    negate: bool
    dir_only: bool


def _translate(pattern: str) -> str:
    """A gitignore glob (without anchoring) as a regex over '/'-separated relative paths."""
    out: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        char = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("/**", i) and i + 3 == n:
            out.append("/.*")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif char == "*":
            out.append("[^/]*")
            i += 1
        elif char == "?":
            out.append("[^/]")
            i += 1
        elif char == "[":
            end = pattern.find("]", i + 2)
            if end < 0:
                out.append(re.escape(char))
                i += 1
                continue
            body = pattern[i + 1 : end]
            if body.startswith("!"):
                body = "^" + body[1:]
            out.append("[" + body.replace("\\", "\\\\") + "]")
            i = end + 1
        elif char == "\\" and i + 1 < n:
            out.append(re.escape(pattern[i + 1]))
            i += 2
        else:
            out.append(re.escape(char))
            i += 1
    return "".join(out)


def _parse(line: str) -> _Rule | None:
    line = line.rstrip("\n").rstrip("\r")
    if not line or line.startswith("#"):
        return None
    stripped = line.rstrip(" ")
    if stripped.endswith("\\"):
        stripped += " "  # an escaped trailing space is kept
    negate = stripped.startswith("!")
    if negate or stripped.startswith("\\"):
        stripped = stripped[1:]
    dir_only = stripped.endswith("/")
    stripped = stripped.rstrip("/")
    if not stripped:
        return None
    anchored = "/" in stripped
    stripped = stripped.lstrip("/")
    prefix = "" if anchored else "(?:.*/)?"
    return _Rule(re.compile(prefix + _translate(stripped) + r"\Z", re.DOTALL), negate, dir_only)


class IgnoreRules:
    """The rules of every ``.gitignore`` read so far, each scoped to its own folder."""

    def __init__(self) -> None:
        self._by_dir: dict[str, list[_Rule]] = {}

    def load(self, folder: Path, rel: str) -> None:
        """Read ``folder/.gitignore`` (``rel`` is the folder relative to the root, '' for it)."""
        text = read_project_file(folder / ".gitignore")
        if text is None:
            return
        rules = [rule for rule in map(_parse, text.splitlines()) if rule is not None]
        if rules:
            self._by_dir[rel] = rules

    def ignored(self, rel: str, is_dir: bool) -> bool:
        """Whether the root-relative path ``rel`` is ignored by the rules above it."""
        if not self._by_dir:
            return False
        verdict = False
        parts = rel.split("/")
        for depth in range(len(parts)):
            base = "/".join(parts[:depth])
            rules = self._by_dir.get(base)
            if not rules:
                continue
            sub = "/".join(parts[depth:])
            for rule in rules:
                if rule.dir_only and not is_dir:
                    continue
                if rule.regex.match(sub):
                    verdict = not rule.negate
        return verdict
