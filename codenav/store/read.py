"""Typed queries on the map. Tools read through here and never write SQL of their own."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass

__all__ = ["FileStat", "MapReader"]


@dataclass(frozen=True, slots=True)
class FileStat:
    path: str
    lang: str
    size: int
    mtime_ns: int
    status: str
    parse_errors: int


class MapReader:
    """Read-only queries on one connection."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def meta(self) -> dict[str, str]:
        return dict(self.conn.execute("SELECT key, value FROM meta").fetchall())

    def counts(self) -> dict[str, int]:
        """Rows per table, as recorded at the end of the last build."""
        raw = self.meta().get("counts")
        return {str(k): int(v) for k, v in json.loads(raw).items()} if raw else {}

    def files(self) -> list[FileStat]:
        rows = self.conn.execute(
            "SELECT path, lang, size, mtime_ns, status, parse_errors FROM files ORDER BY path")
        return [FileStat(*row) for row in rows]
