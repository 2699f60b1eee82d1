"""A named definition, as every benchmark meets one: from the map, a language server's
document symbols, ctags or a regex walk.

Positions are codenav's: a path relative to the corpus root (``/``-separated), a 1-based
line and a 1-based UTF-16 column. ``kind`` is in the vocabulary of where the symbol came
from (the map's ``method``, LSP's ``Method``, ctags' kinds mapped by ``bench_accuracy``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["Position", "Symbol"]

Position = tuple[str, int, int]  # path relative to the root, 1-based line, 1-based UTF-16 col


@dataclass(frozen=True)
class Symbol:
    name: str  # as its source names it: qualified for document symbols (Class.method)
    kind: str
    path: str
    line: int  # of its name
    col: int = 1  # of its name
    nid: str = ""  # the map's id, when it came from the map
    start: int = 0  # first line of its whole range (decorators, doc comments); 0: unknown
    end: int = 0  # last line of its range; 0: unknown

    @property
    def position(self) -> Position:
        return (self.path, self.line, self.col)

    @property
    def where(self) -> dict[str, Any]:
        """The position as a tool's arguments (``file``, ``line``, ``col``)."""
        return {"file": self.path, "line": self.line, "col": self.col}
