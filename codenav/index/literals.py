"""Where a word of a source file is, as its parse tells: in a comment, in a string literal, in
the module path an import or export names (``from './graphic/Gradient'``) or in code. The
line-by-line guess (a line starting ``//`` or ``#``) misses a line inside a ``/* … */`` block,
a docstring's middle lines and a multi-line template string; the tree does not (bullmq's
tests/job.test.ts:1505 ``return job.isPaused();`` is a commented-out test).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator
from typing import Any, Literal

from codenav.index.extract import ParseTimeout, is_identifier, parse_tree
from codenav.index.languages import Language
from codenav.positions import LineIndex, lone_cr_as_lf
from codenav.words import word_pattern

__all__ = ["Place", "comments_at", "literal_at", "names_on_line", "parsed", "word_places"]

Place = Literal["comment", "string", "module", "code"]

# Bounds: a file is parsed within this time, and a word's node is looked at this many levels up
# (a comment is the leaf itself; a string's text is its leaf or one below it; a name inside a
# template's ``${…}`` or an f-string's ``{…}`` is two or three below the string).
_PARSE_S = 1.0
_LEVELS = 4


def _place(node: Any) -> tuple[Place, Any]:
    """Whether ``node`` (the smallest around a word) is in a comment, a string, an import's
    or export's module path or code, and the comment or string node it is in (else
    ``node``)."""
    for _ in range(_LEVELS):
        if node is None:
            break
        kind = node.type
        if "interpolation" in kind or "substitution" in kind or kind == "escape_sequence":
            return "code", node  # `${x}` in a template, `{x}` in an f-string
        if "comment" in kind:
            return "comment", node
        if _stringy(kind):
            while node.parent is not None and _stringy(node.parent.type):
                node = node.parent  # (a string's fragment, to the string)
            parent = node.parent
            source = parent.child_by_field_name("source") if parent is not None else None
            if source is not None and source.start_byte == node.start_byte and \
                    ("import" in parent.type or "export" in parent.type):
                return "module", node  # `from "./types"`: the module an import names
            return "string", node
        node = node.parent
    return "code", node


def _stringy(kind: str) -> bool:
    return "string" in kind or kind in ("char_literal", "character_literal", "heredoc_body",
                                        "template_literal", "raw_string")


def parsed(lang: Language, data: bytes) -> Any | None:
    """``data``'s tree root, for several questions about one file (None: not in time)."""
    return _root(lang, lone_cr_as_lf(data))


def _root(lang: Language, data: bytes, seconds: float = _PARSE_S) -> Any | None:
    try:
        return parse_tree(lang, data, min(seconds, _PARSE_S)).root_node
    except ParseTimeout:
        return None


def word_places(lang: Language, data: bytes, word: str | re.Pattern[str],
                lines: Collection[int], seconds: float = _PARSE_S) -> dict[int, Place]:
    """For each 1-based line of ``lines`` that holds ``word`` (a whole name, or what a
    pattern matches), where it is: ``comment`` (every occurrence in a comment), ``module``
    (every one in a comment, a string or an import's module path, one at least in a module
    path: ``import { GradientObject } from './Gradient'``), ``string`` (every one in a
    comment or a string literal, one at least in a string — a docstring is one), else
    ``code``. Empty when the file cannot be parsed in time (``seconds``, at most a second)."""
    data = lone_cr_as_lf(data)
    root = _root(lang, data, seconds)
    if root is None:
        return {}
    index = LineIndex(data)
    pattern = word_pattern(word) if isinstance(word, str) else word
    out: dict[int, Place] = {}
    for line in sorted(set(lines)):
        found: set[Place] = {_place(root.descendant_for_byte_range(begin, end))[0]
                             for begin, end, _ in _matches(index, line, pattern)}
        if found:
            out[line] = ("comment" if found == {"comment"} else "code" if "code" in found
                         else "module" if "module" in found else "string")
    return out


def literal_at(lang: Language, data: bytes, line: int, col: int, root: Any = None
               ) -> tuple[Literal["comment", "string"], int, int] | None:
    """The comment or string literal covering 1-based (``line``, UTF-16 ``col``), and the
    lines it spans; None in code (or when the file cannot be parsed in time). ``root``: the
    file's tree, when parsed already."""
    data = lone_cr_as_lf(data)
    root = root if root is not None else _root(lang, data)
    if root is None:
        return None
    offset = LineIndex(data).offset(line, col)
    place, node = _place(root.descendant_for_byte_range(offset, offset))
    if node is None or place in ("code", "module"):  # (a module's path is no literal)
        return None
    literal: Literal["comment", "string"] = "comment" if place == "comment" else "string"
    return literal, node.start_point[0] + 1, node.end_point[0] + 1


def comments_at(lang: Language, data: bytes, spots: Collection[tuple[int, int]],
                seconds: float = _PARSE_S) -> dict[tuple[int, int], str]:
    """Which of ``spots`` (1-based line, UTF-16 column) are inside a comment, with the text
    of their line before them: one parse and one line index for them all (empty when the
    file cannot be parsed in time, ``seconds``, at most a second)."""
    data = lone_cr_as_lf(data)
    root = _root(lang, data, seconds)
    if root is None:
        return {}
    index = LineIndex(data)
    out: dict[tuple[int, int], str] = {}
    for line, col in spots:
        offset = index.offset(line, col)
        if _place(root.descendant_for_byte_range(offset, offset))[0] == "comment":
            start = index.line_start(line - 1)
            out[(line, col)] = data[start:offset].decode("utf-8", "replace")
    return out


_NAME = re.compile(r"[^\W\d][\w$]*|\$[\w$]*")


def names_on_line(lang: Language, data: bytes, line: int,
                  root: Any = None) -> list[tuple[int, str]]:
    """The names written in code on 1-based ``line`` (no keyword, nothing in a comment or a
    string), each with the UTF-16 column it starts at."""
    data = lone_cr_as_lf(data)
    root = root if root is not None else _root(lang, data)
    if root is None:
        return []
    index = LineIndex(data)
    start = index.line_start(line - 1)
    out = []
    for begin, end, name in _matches(index, line, _NAME):
        node = root.descendant_for_byte_range(begin, end)
        if node is not None and is_identifier(lang, node):
            out.append((index.col(line - 1, begin - start), name))
    return out


def _matches(index: LineIndex, line: int, pattern: re.Pattern[str]
             ) -> Iterator[tuple[int, int, str]]:
    """What ``pattern`` matches on 1-based ``line``, as (start byte, end byte, text) in the
    file: byte-exact whatever the line's encoding (undecodable bytes kept as themselves)."""
    start = index.line_start(line - 1)
    text = index.line_bytes(line - 1).decode("utf-8", "surrogateescape")
    for match in pattern.finditer(text):
        begin = start + len(text[: match.start()].encode("utf-8", "surrogateescape"))
        yield begin, begin + len(match.group().encode("utf-8", "surrogateescape")), match.group()
