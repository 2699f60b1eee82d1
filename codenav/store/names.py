"""Every node name in one lower-cased string, for map_search's substring and subsequence
tiers: a scan at C speed in memory instead of a ``LIKE`` over every row of the map.

Built from the map on demand and kept by the workspace until the map changes
(``Workspace.cached``); about ten bytes per node.
"""

from __future__ import annotations

import re
import sqlite3
from bisect import bisect_right
from collections.abc import Sequence

__all__ = ["NameScan"]


class NameScan:
    """The names of the nodes below files (modules are found by their path), one per line."""

    def __init__(self, ids: Sequence[int], names: Sequence[str]) -> None:
        self._ids = list(ids)
        self._starts: list[int] = []
        position = 0
        lowered = []
        for name in names:
            line = name.lower().replace("\n", " ")
            self._starts.append(position)
            lowered.append(line)
            position += len(line) + 1
        self._text = "\n".join(lowered)

    @classmethod
    def load(cls, conn: sqlite3.Connection) -> NameScan:
        rows = conn.execute(
            "SELECT id, name FROM nodes WHERE parent_id IS NOT NULL ORDER BY id").fetchall()
        return cls([row[0] for row in rows], [row[1] for row in rows])

    def __len__(self) -> int:
        return len(self._ids)

    def matching(self, lowered_parts: Sequence[str], limit: int = 5000) -> list[int]:
        """Ids of the names containing the parts in order (``["ab"]``: a substring; one
        character each: a subsequence), in id order, at most ``limit``."""
        parts = [p for p in lowered_parts if p]
        if not parts or any("\n" in p for p in parts):
            return []
        pattern = re.compile("[^\n]*?".join(re.escape(p) for p in parts))
        found: list[int] = []
        last = -1
        for match in pattern.finditer(self._text):
            line = bisect_right(self._starts, match.start()) - 1
            if line != last:
                found.append(self._ids[line])
                last = line
                if len(found) >= limit:
                    break
        return found
