"""Positions: the only place where units are converted.

tree-sitter speaks 0-based rows and UTF-8 *byte* columns; codenav's anchors, like LSP, speak
1-based lines and 1-based columns counted in UTF-16 code units (docs/contract.md §2). Lines end
at ``\\n`` (tree-sitter's rule; a ``\\r`` before it stays part of the line's bytes but is never
inside an identifier, so no column that codenav reports is affected). A lone ``\\r`` (classic
Mac line ends) ends a line too, as LSP says: ``lone_cr_as_lf`` turns each into ``\\n`` before
parsing, which keeps every byte offset. A UTF-8 byte-order mark is not text: columns on the
first line start after it, as an editor shows them.
"""

from __future__ import annotations

import re
from bisect import bisect_right

__all__ = ["BOM", "LineIndex", "lone_cr_as_lf", "utf16_len"]

BOM = b"\xef\xbb\xbf"
_LONE_CR = re.compile(rb"\r(?!\n)")


def lone_cr_as_lf(data: bytes) -> bytes:
    """``data`` with every ``\\r`` not followed by ``\\n`` read as ``\\n``: the same length, so
    byte offsets still point into the file as it is on disk."""
    return _LONE_CR.sub(b"\n", data) if b"\r" in data else data


def utf16_len(text: str) -> int:
    """Length of ``text`` in UTF-16 code units (characters beyond the BMP count twice)."""
    if text.isascii():
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def _decode(chunk: bytes) -> str:
    # Each invalid byte becomes one lone surrogate: one UTF-16 unit, and it encodes back
    # to exactly the byte it came from, so offsets survive malformed files.
    return chunk.decode("utf-8", "surrogateescape")


class LineIndex:
    """Converts between byte offsets, tree-sitter points and (line, UTF-16 column) for one text."""

    __slots__ = ("_ascii", "_bom", "_data", "_starts")

    def __init__(self, data: bytes) -> None:
        self._data = lone_cr_as_lf(data)
        self._ascii = data.isascii()
        self._bom = len(BOM) if data.startswith(BOM) else 0  # bytes before line 1's column 1
        self._starts: list[int] | None = None

    @property
    def line_count(self) -> int:
        """Number of lines, counting a last line without a newline; 0 for empty text."""
        if not self._data:
            return 0
        return self._data.count(b"\n") + (0 if self._data.endswith(b"\n") else 1)

    def _line_starts(self) -> list[int]:
        if self._starts is None:
            starts = [0]
            find = self._data.find
            pos = find(b"\n")
            while pos >= 0:
                starts.append(pos + 1)
                pos = find(b"\n", pos + 1)
            self._starts = starts
        return self._starts

    def line_start(self, row: int) -> int:
        """Byte offset where 0-based ``row`` begins (the text's end past the last line)."""
        starts = self._line_starts()
        return starts[row] if 0 <= row < len(starts) else len(self._data)

    def line_bytes(self, row: int) -> bytes:
        """Bytes of 0-based ``row`` without its line terminator."""
        starts = self._line_starts()
        if row < 0 or row >= len(starts):
            return b""
        start = starts[row]
        end = starts[row + 1] - 1 if row + 1 < len(starts) else len(self._data)
        return self._data[start:end].rstrip(b"\r")

    def col(self, row: int, byte_col: int) -> int:
        """1-based UTF-16 column of the tree-sitter point (``row``, ``byte_col``)."""
        if self._ascii or byte_col == 0:
            return byte_col + 1
        starts = self._line_starts()
        start = starts[row] if row < len(starts) else len(self._data)
        if row == 0 and self._bom:
            start, byte_col = self._bom, max(byte_col - self._bom, 0)
        chunk = self._data[start : start + byte_col]
        if chunk.isascii():
            return byte_col + 1
        return utf16_len(_decode(chunk)) + 1

    def point(self, offset: int) -> tuple[int, int]:
        """1-based (line, UTF-16 column) of a byte offset."""
        starts = self._line_starts()
        row = bisect_right(starts, offset) - 1
        return row + 1, self.col(row, offset - starts[row])

    def offset(self, line: int, col: int) -> int:
        """Byte offset of 1-based (``line``, UTF-16 ``col``); clamped to the line's end."""
        starts = self._line_starts()
        row = min(max(line - 1, 0), len(starts) - 1)
        text = self.line_bytes(row)
        want = max(col - 1, 0)
        if row == 0 and self._bom:
            return self._bom + LineIndex(text[self._bom:]).offset(1, col)
        if text.isascii():
            return starts[row] + min(want, len(text))
        decoded = _decode(text)
        units = 0
        for index, char in enumerate(decoded):
            if units >= want:
                return starts[row] + len(decoded[:index].encode("utf-8", "surrogateescape"))
            units += 2 if ord(char) > 0xFFFF else 1
        return starts[row] + len(text)
