"""Rust's conditional compilation, as far as a map can decide it: the items a ``#[cfg(…)]``
attribute compiles out on this machine (``#[cfg(windows)] fn imp()`` beside
``#[cfg(unix)] fn imp()``).

``regions`` finds each item under a ``#[cfg(…)]`` (its attributes to its closing brace or
semicolon) and writes the predicate as a C preprocessor condition, decided with the
``predefined`` names (``unix``, ``target_os_linux`` for ``target_os = "linux"`` …) where
they decide it (``cpp_conditions``). What they do not decide (``feature = "pcre2"``) stays
undecided: kept, never left out.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from codenav.index.modules.cpp_conditions import Region, evaluate

__all__ = ["regions"]

_CFG = re.compile(rb"#\[cfg\(")
_KEY_VALUE = re.compile(r'([A-Za-z_]\w*)\s*=\s*"([^"]*)"')
_NAME = re.compile(r"[A-Za-z_]\w*")
_WORDLESS = re.compile(r"\W")


def regions(data: bytes, predefined: Mapping[str, int | bool]) -> list[Region]:
    out: list[Region] = []
    for match in _CFG.finditer(data):
        close = _closing(data, match.end() - 1)
        if close < 0 or data[match.start() - 1 : match.start()] == b"!":
            continue
        predicate = data[match.end() : close].decode("utf-8", "replace")
        cond = _condition(predicate)
        if cond is None:
            continue
        end = _item_end(data, close + 2)
        if end < 0:
            continue
        first = data.count(b"\n", 0, match.start()) + 1
        last = data.count(b"\n", 0, end) + 1
        value = evaluate(cond, predefined.get)
        if value is True:
            continue
        out.append((first, last, "0" if value is False else cond))
    out.sort()
    return out


def _condition(predicate: str) -> str | None:
    """A cfg predicate as a C condition: ``all(unix, not(test))`` ->
    ``(defined(unix) && !(defined(test)))``; None if it is not one."""
    text = _KEY_VALUE.sub(lambda m: m.group(1) + "_" + _WORDLESS.sub("_", m.group(2)),
                          predicate)
    out: list[str] = []
    stack: list[str] = []  # the joiner of each open all()/any()/not()
    i = 0
    while i < len(text):
        char = text[i]
        if char.isspace():
            i += 1
            continue
        name = _NAME.match(text, i)
        if name:
            word = name.group(0)
            i = name.end()
            rest = text[i:].lstrip()
            if rest.startswith("(") and word in ("all", "any", "not"):
                stack.append({"all": " && ", "any": " || ", "not": ""}[word])
                out.append("!(" if word == "not" else "(")
                i = text.index("(", i) + 1
                if word in ("all", "any") and text[i:].lstrip().startswith(")"):
                    out.append("1" if word == "all" else "0")  # all() holds, any() does not
                continue
            out.append(f"defined({word})")
            continue
        if char == ",":
            if not stack:
                return None
            out.append(stack[-1] or " && ")
        elif char == ")":
            if not stack:
                return None
            stack.pop()
            out.append(")")
        else:
            return None
        i += 1
    return "".join(out) if not stack and out else None


def _skip_literal(data: bytes, i: int) -> int:
    """The index after a string, char literal or comment starting at ``i`` (``i`` itself
    when there is none)."""
    if data[i : i + 2] == b"//":
        end = data.find(b"\n", i)
        return len(data) if end < 0 else end
    if data[i : i + 2] == b"/*":
        end = data.find(b"*/", i + 2)
        return len(data) if end < 0 else end + 2
    if data[i : i + 1] == b'"':
        j = i + 1
        while j < len(data) and data[j : j + 1] != b'"':
            j += 2 if data[j : j + 1] == b"\\" else 1
        return j + 1
    if data[i : i + 1] == b"'" and re.match(rb"'(?:\\.[^']*|[^'\\])'", data[i : i + 12]):
        return data.index(b"'", i + 2 if data[i + 1 : i + 2] == b"\\" else i + 1) + 1
    return i


def _closing(data: bytes, open_at: int) -> int:
    """The index of the bracket closing the one at ``open_at``, -1 if none."""
    depth, i = 0, open_at
    while i < len(data):
        skipped = _skip_literal(data, i)
        if skipped != i:
            i = skipped
            continue
        char = data[i : i + 1]
        if char in b"([{":
            depth += 1
        elif char in b")]}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


def _item_end(data: bytes, i: int) -> int:
    """Where the item after an attribute ends: its block's closing brace, or its `;`."""
    while i < len(data):
        skipped = _skip_literal(data, i)
        if skipped != i:
            i = skipped
            continue
        char = data[i : i + 1]
        if char == b"{":
            return _closing(data, i)
        if char in b"([":
            i = _closing(data, i)
            if i < 0:
                return -1
        elif char == b";":
            return i
        i += 1
    return -1
