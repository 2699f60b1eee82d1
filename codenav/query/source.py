"""Source text for answers: code lines of references and definitions, a node's text, the
identifier at a position — read only inside the root, as regular files of mappable size
(``codenav/files.py``), split into lines as the map numbers them, and kept across calls while
a file is unchanged on disk (agents ask about the same files again and again)."""

from __future__ import annotations

import os
import re
import threading
from collections import OrderedDict
from pathlib import Path

from codenav.files import read_source
from codenav.index.discover import MAX_FILE_BYTES
from codenav.positions import BOM

__all__ = ["CODE_LINE", "Lines", "excerpt", "file_lines", "text_lines"]

CODE_LINE = 120  # characters of a code line in an answer (longer ones: cut round the use, "…")

# Split source files kept across calls (agents ask about the same files again and again),
# each valid while its size and mtime are: (size, mtime_ns, lines) by absolute path.
_SPLIT: OrderedDict[str, tuple[int, int, list[str]]] = OrderedDict()
_SPLIT_FILES = 64
_SPLIT_LOCK = threading.Lock()


def file_lines(root: Path, path: str) -> list[str]:
    """The lines of repo-relative ``path`` (a path from the map or an argument: read only
    inside the root, as a regular file of mappable size; none otherwise)."""
    absolute = f"{root}/{path}"
    try:
        info = os.stat(absolute)
    except OSError:
        return []
    with _SPLIT_LOCK:
        kept = _SPLIT.get(absolute)
        if kept is not None and kept[0] == info.st_size and kept[1] == info.st_mtime_ns:
            _SPLIT.move_to_end(absolute)
            return kept[2]
    data = read_source(root, path, MAX_FILE_BYTES)
    if data is None:
        return []
    lines = text_lines(data[:MAX_FILE_BYTES])
    with _SPLIT_LOCK:
        _SPLIT[absolute] = (info.st_size, info.st_mtime_ns, lines)
        while len(_SPLIT) > _SPLIT_FILES:
            _SPLIT.popitem(last=False)
    return lines


_LINE_END = re.compile(r"\r\n|\r|\n")


def text_lines(data: bytes) -> list[str]:
    """A file's lines as the map numbers them: a byte-order mark is not text; ``\\r\\n``,
    ``\\n`` and a lone ``\\r`` end lines, and nothing else does (``str.splitlines`` also
    splits at form feeds and other separators, which would shift every later line)."""
    lines = _LINE_END.split(data.removeprefix(BOM).decode("utf-8", "replace"))
    return lines[:-1] if lines and lines[-1] == "" else lines


def excerpt(text: str, at: int | None = None, limit: int = CODE_LINE) -> str:
    """A line as an answer shows it: stripped, and when longer than ``limit``, the part round
    offset ``at`` of ``text`` (a use's column; None: the start), cuts marked ``…``."""
    code = text.strip()
    if len(code) <= limit:
        return code
    offset = 0 if at is None else max(0, at - (len(text) - len(text.lstrip())))
    start = max(0, min(offset - limit // 3, len(code) - (limit - 1)))
    room = limit - (start > 0)
    end = start + room if start + room >= len(code) else start + room - 1
    return ("…" if start else "") + code[start:end] + ("…" if end < len(code) else "")


class Lines:
    """Source lines of files for snippets: read once per call, and kept across calls while
    the file is unchanged on disk."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._files: dict[str, list[str]] = {}

    def line(self, path: str, line: int, col: int | None = None) -> str | None:
        """Line ``line`` of ``path`` as ``excerpt`` shows it (round column ``col``, 1-based)."""
        lines = self.all(path)
        if 1 <= line <= len(lines):
            return excerpt(lines[line - 1], None if col is None else col - 1)
        return None

    def all(self, path: str) -> list[str]:
        """Every line of ``path``, as read (none when it cannot be)."""
        lines = self._files.get(path)
        if lines is None:
            lines = self._files[path] = file_lines(self.root, path)
        return lines

    def source(self, path: str, start: int, end: int) -> str | None:
        data = read_source(self.root, path, MAX_FILE_BYTES)
        return None if data is None else data[start:end].decode("utf-8", "replace")
