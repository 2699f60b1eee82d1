"""JSON with comments (VS Code's and Zed's settings files; plain JSON is a subset), read and
edited in place: one member set at a path of keys, every other byte of the file kept —
comments, order, formatting.

``parse`` reads the text (``//`` and ``/* */`` comments, trailing commas) into Python values;
``set_member`` returns the text with ``value`` at ``keys`` (objects created on the way).
Both raise ``JsoncError`` with the line of what they cannot read.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["JsoncError", "parse", "set_member"]

_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?")
_LITERALS = {"true": True, "false": False, "null": None}


class JsoncError(ValueError):
    """The text is not JSON (with comments); ``line`` is 1-based."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line


@dataclass(slots=True)
class _Value:
    """A parsed value and where it is: ``start``/``end`` offsets of its text; for an object,
    its members (key -> value) and the offset just after its ``{``."""

    value: Any
    start: int
    end: int
    members: dict[str, _Value] = field(default_factory=dict)
    open_end: int = 0


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0

    def fail(self, message: str) -> JsoncError:
        return JsoncError(message, self.text.count("\n", 0, self.at) + 1)

    def skip(self) -> None:
        text = self.text
        while self.at < len(text):
            char = text[self.at]
            if char in " \t\r\n\ufeff":
                self.at += 1
            elif text.startswith("//", self.at):
                end = text.find("\n", self.at)
                self.at = len(text) if end < 0 else end + 1
            elif text.startswith("/*", self.at):
                end = text.find("*/", self.at + 2)
                if end < 0:
                    raise self.fail("a /* comment is never closed")
                self.at = end + 2
            else:
                return

    def value(self) -> _Value:
        self.skip()
        if self.at >= len(self.text):
            raise self.fail("a value is missing")
        char = self.text[self.at]
        if char == "{":
            return self.object()
        if char == "[":
            return self.array()
        if char == '"':
            start = self.at
            return _Value(self.string(), start, self.at)
        start = self.at
        number = _NUMBER.match(self.text, self.at)
        if number is not None and number.end() > start:
            self.at = number.end()
            return _Value(json.loads(number.group()), start, self.at)
        for word, meaning in _LITERALS.items():
            if self.text.startswith(word, self.at):
                self.at += len(word)
                return _Value(meaning, start, self.at)
        raise self.fail(f"unexpected {char!r}")

    def string(self) -> str:
        start = self.at
        self.at += 1
        text = self.text
        while self.at < len(text):
            char = text[self.at]
            if char == "\\":
                self.at += 2
            elif char == '"':
                self.at += 1
                try:
                    decoded: str = json.loads(text[start:self.at])
                except ValueError as exc:
                    raise self.fail(f"a string is not valid JSON ({exc.args[0]})") from exc
                return decoded
            elif char == "\n":
                break
            else:
                self.at += 1
        raise self.fail("a string is never closed")

    def object(self) -> _Value:
        start = self.at
        self.at += 1
        out = _Value({}, start, start, open_end=self.at)
        while True:
            self.skip()
            if self.text.startswith("}", self.at):
                self.at += 1
                out.end = self.at
                return out
            if not self.text.startswith('"', self.at):
                raise self.fail("expected a key in quotes or }")
            key = self.string()
            self.skip()
            if not self.text.startswith(":", self.at):
                raise self.fail(f"expected : after the key {key!r}")
            self.at += 1
            member = self.value()
            out.members[key] = member
            out.value[key] = member.value
            self.skip()
            if self.text.startswith(",", self.at):
                self.at += 1
            elif not self.text.startswith("}", self.at):
                raise self.fail("expected , or }")

    def array(self) -> _Value:
        start = self.at
        self.at += 1
        items: list[Any] = []
        while True:
            self.skip()
            if self.text.startswith("]", self.at):
                self.at += 1
                return _Value(items, start, self.at)
            items.append(self.value().value)
            self.skip()
            if self.text.startswith(",", self.at):
                self.at += 1
            elif not self.text.startswith("]", self.at):
                raise self.fail("expected , or ]")

    def document(self) -> _Value:
        root = self.value()
        self.skip()
        if self.at != len(self.text):
            raise self.fail("text after the value")
        return root


def parse(text: str) -> Any:
    """The value ``text`` holds (comments and trailing commas allowed)."""
    return _Parser(text).document().value


def _indent_unit(text: str) -> str:
    found = re.search(r"\n([ \t]+)\S", text)
    return found.group(1) if found else "  "


def _render(value: Any, unit: str, depth: int) -> str:
    """``value`` as JSON for a member nested ``depth`` deep, indented by ``unit``: an object
    one member a line, a list of plain values on one line."""
    if isinstance(value, dict) and value:
        inner = unit * (depth + 1)
        members = [f"{inner}{json.dumps(key, ensure_ascii=False)}: "
                   f"{_render(item, unit, depth + 1)}" for key, item in value.items()]
        return "{\n" + ",\n".join(members) + "\n" + unit * depth + "}"
    if isinstance(value, list) and any(isinstance(item, (dict, list)) for item in value):
        return json.dumps(value, indent=unit, ensure_ascii=False).replace(
            "\n", "\n" + unit * depth)
    return json.dumps(value, ensure_ascii=False)


def set_member(text: str, keys: Sequence[str], value: Any) -> str:
    """``text`` with ``value`` at ``keys`` in its top-level object: the member's value
    replaced where it exists, else inserted first in its object (objects on the way made).
    JsoncError when the text is not an object, or a key on the way holds a non-object."""
    if not text.strip():
        text = "{}\n"
    parser = _Parser(text)
    node = parser.document()
    if not isinstance(node.value, dict):
        raise JsoncError("the file does not hold an object", 1)
    unit = _indent_unit(text)
    depth = 1
    for i, key in enumerate(keys):
        member = node.members.get(key)
        last = i == len(keys) - 1
        if member is not None and last:
            return text[:member.start] + _render(value, unit, depth) + text[member.end:]
        if member is not None:
            if not isinstance(member.value, dict):
                line = text.count("\n", 0, member.start) + 1
                raise JsoncError(f"{'.'.join(keys[:i + 1])} is not an object", line)
            node, depth = member, depth + 1
            continue
        nested: Any = value
        for inner in reversed(keys[i + 1:]):
            nested = {inner: nested}
        entry = f"\n{unit * depth}{json.dumps(key, ensure_ascii=False)}: " \
                f"{_render(nested, unit, depth)}"
        head, rest = text[:node.open_end], text[node.open_end:]
        if node.members:  # first in the object: its other members follow the comma
            return head + entry + "," + rest
        if not rest.lstrip(" \t\r\n").startswith("}"):  # a comment inside {}: kept after
            return head + entry + rest
        return head + entry + "\n" + unit * (depth - 1) + rest.lstrip(" \t\r\n")
    raise JsoncError("no key to set", 1)
