"""Splitting identifiers into words: ``parseHTTPResponse2`` → parse, http, response, 2.

Shared by the map's word index (store/write.py) and the search tool, so that a query for
``user save``, ``userSave`` or ``save_user`` finds ``UserSaveMixin`` and ``save_user`` alike.
Case boundaries are found with ``str.isupper``/``islower``, so non-ASCII names split too.
"""

from __future__ import annotations

import re

__all__ = ["name_words", "word_pattern"]

_SEPARATORS = re.compile(r"[\W_]+", re.UNICODE)
_ASCII_PARTS = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


def _camel(part: str) -> list[str]:
    out, start = [], 0
    for i in range(1, len(part)):
        before, here = part[i - 1], part[i]
        after = part[i + 1] if i + 1 < len(part) else ""
        if ((before.islower() and here.isupper())
                or (before.isdigit() != here.isdigit())
                or (before.isupper() and here.isupper() and after.islower())):
            out.append(part[start:i])
            start = i
    out.append(part[start:])
    return out


def name_words(name: str) -> list[str]:
    """Lower-case words of an identifier, in order, without duplicates."""
    if name.isascii():  # the common case, in one regex pass
        return list(dict.fromkeys(part.lower() for part in _ASCII_PARTS.findall(name)))
    seen: list[str] = []
    for part in _SEPARATORS.split(name):
        for word in _camel(part) if part else ():
            lowered = word.lower()
            if lowered not in seen:
                seen.append(lowered)
    return seen


def word_pattern(name: str) -> re.Pattern[str]:
    """``name`` as a whole identifier: not inside a longer one (``$`` counts as a letter of
    JavaScript's names)."""
    return re.compile(rf"(?<![\w$]){re.escape(name)}(?![\w$])")
