"""One table of a TOML file (Codex's ``config.toml``) written in place, every other line
kept: ``set_table`` returns the text with ``[a.b]`` holding the given keys — its own lines
for those keys replaced, its other keys and sub-tables left as they were, or the table added
at the end. The caller checks the result with a real TOML parser (``codenav/setup``); a
layout this cannot edit line by line (the table written inline or with dotted keys) is
``TomlEditError``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["TomlEditError", "render_value", "set_table"]

_HEADER = re.compile(r"^\s*\[\[?\s*(?P<name>[^\]]+?)\s*\]\]?\s*(?:#.*)?$")
_KEY = re.compile(r"^\s*(?P<key>[A-Za-z0-9_-]+|\"(?:[^\"\\]|\\.)*\"|'[^']*')\s*=")


class TomlEditError(ValueError):
    """The file's layout cannot be edited line by line."""


def render_value(value: Any) -> str:
    """A TOML value for a string, a number, a boolean or a list of those (JSON's string
    escapes are TOML's)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(render_value(item) for item in value) + "]"
    raise TomlEditError(f"cannot write {type(value).__name__} values")


def _dotted(name: str) -> tuple[str, ...]:
    parts = re.findall(r'"(?:[^"\\]|\\.)*"|\'[^\']*\'|[^.\s]+', name)
    return tuple(json.loads(p) if p.startswith('"') else p.strip("'") for p in parts)


def _bare(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else json.dumps(key)


def set_table(text: str, table: Sequence[str], values: Mapping[str, Any]) -> str:
    """``text`` with the table ``table`` holding ``values`` (see the module docstring)."""
    lines = text.splitlines(keepends=True)
    wanted = tuple(table)
    start = end = None
    for i, line in enumerate(lines):
        header = _HEADER.match(line)
        if header is None:
            continue
        if start is not None and end is None:
            end = i  # the next header ends the table's own keys
        if _dotted(header.group("name")) == wanted and line.lstrip().startswith("[") and \
                not line.lstrip().startswith("[["):
            start = i
            end = None
    body = [f"{_bare(key)} = {render_value(value)}\n" for key, value in values.items()]
    if start is None:
        head = "" if not text or text.endswith("\n") else "\n"
        gap = "\n" if text.strip() else ""
        name = ".".join(_bare(part) for part in wanted)
        return text + head + gap + f"[{name}]\n" + "".join(body)
    stop = len(lines) if end is None else end
    kept = _without_keys(lines[start + 1:stop], set(values))
    return "".join(lines[:start + 1] + body + kept + lines[stop:])


def _without_keys(lines: list[str], keys: set[str]) -> list[str]:
    """``lines`` (a table's own) without the statements setting ``keys``: a statement is its
    ``key = …`` line and, for a value whose brackets stay open, the lines until they close.
    Comments and blank lines stay."""
    if any('"""' in line or "'''" in line for line in lines):
        raise TomlEditError("the table holds a multi-line string")
    out: list[str] = []
    depth = 0  # brackets left open by the statement being read
    skipping = False
    for line in lines:
        if depth > 0:
            depth = max(0, depth + _open_brackets(line))
            if not skipping:
                out.append(line)
            continue
        found = _KEY.match(line)
        skipping = False
        if found is not None:
            key = found.group("key")
            skipping = (json.loads(key) if key.startswith('"') else key.strip("'")) in keys
            depth = max(0, _open_brackets(line))
        if not skipping:
            out.append(line)
    return out


def _open_brackets(line: str) -> int:
    """How many ``[`` / ``{`` a line leaves open (strings and comments skipped)."""
    depth = 0
    quote = ""
    i = 0
    while i < len(line):
        char = line[i]
        if quote:
            if char == "\\" and quote == '"':
                i += 1
            elif char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char == "#":
            break
        elif char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
        i += 1
    return depth
