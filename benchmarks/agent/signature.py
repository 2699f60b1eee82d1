"""A signature's parameter names, read the same way from a hover, a codenav row and grep's
lines (the ``params`` questions are scored on them, in order)."""

from __future__ import annotations

import re

__all__ = ["closed", "matching_paren", "parameters"]


def matching_paren(text: str, start: int) -> int:
    """The index of the bracket closing the one at ``start``, -1 when it is not closed."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] in "([{":
            depth += 1
        elif text[i] in ")]}":
            depth -= 1
            if depth == 0:
                return i
    return -1


def closed(text: str, name: str) -> bool:
    """Whether ``text`` holds ``name``'s whole parameter list."""
    start = text.find(name + "(")
    if start < 0:
        start = text.find(name + "<")
    return start >= 0 and matching_paren(text, text.find("(", start)) >= 0


def parameters(text: str, name: str) -> list[str]:
    """The parameter names of the first signature of ``name`` in ``text`` (``self``/``cls``/
    ``this`` and ``*``/``/`` markers left out; ``*args`` as ``args``)."""
    found = re.search(rf"\b{re.escape(name)}\s*(<[^(]*>)?\s*\(", text)
    if found is None:
        return []
    open_at = found.end() - 1
    close_at = matching_paren(text, open_at)
    inner = text[open_at + 1: close_at if close_at >= 0 else len(text)]
    parts, depth, current = [], 0, ""
    for char in inner:
        if char in "([{<":
            depth += 1
        elif char in ")]}>":
            depth -= 1
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    parts.append(current)
    names = []
    for part in parts:
        head = re.match(r"\s*(?:\.\.\.)?\**\s*([A-Za-z_$][\w$]*)", part)
        if head and head.group(1) not in ("self", "cls", "this"):
            names.append(head.group(1))
    return names
