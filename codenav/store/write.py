"""Writing the map: files, nodes, references, imports and problems, in batches.

Only ``codenav.index`` writes. Every method runs inside the caller's write transaction
(``db.write_transaction``); node ids are assigned here so that parents and scopes can be
written in the same batch without reading ids back.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import PurePosixPath
from typing import Any

from codenav.model import FileFacts, node_id
from codenav.store import db

__all__ = ["FileRow", "MapWriter"]

# (id, size, mtime_ns, hash, status, indexed_ns) as stored for one path.
FileRow = tuple[int, int, int, str, str, int]

_FILE_TABLES = ("nodes", "refs", "imports", "problems", "edges")


class MapWriter:
    """Batched writes for one indexing run on a connection holding the write lock."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self._next_node = self._max_id("nodes") + 1
        self._next_file = self._max_id("files") + 1

    def _max_id(self, table: str) -> int:
        row = self.conn.execute(f"SELECT max(id) FROM {table}").fetchone()
        return int(row[0] or 0)

    def known_files(self) -> dict[str, FileRow]:
        """Every file row by path."""
        rows = self.conn.execute(
            "SELECT path, id, size, mtime_ns, hash, status, indexed_ns FROM files")
        return {path: (fid, size, mtime, digest, status, indexed)
                for path, fid, size, mtime, digest, status, indexed in rows}

    def clear(self) -> None:
        """Forget every file (a full rebuild, still inside the caller's transaction)."""
        for table in ("files", *_FILE_TABLES):
            self.conn.execute(f"DELETE FROM {table}")
        self._next_node = self._next_file = 1

    @contextmanager
    def bulk(self) -> Iterator[None]:
        """Drop the secondary indexes for a large batch of inserts; rebuild them after.

        Building an index once over sorted keys is several times cheaper than maintaining it
        row by row. Inside the caller's transaction, so readers never see the map without them.
        """
        statements = db.index_statements()
        for name, _ in statements:
            self.conn.execute(f'DROP INDEX IF EXISTS "{name}"')
        yield
        for _, create in statements:
            self.conn.execute(create)

    def remove(self, file_ids: Iterable[int]) -> None:
        """Drop files and everything extracted from them."""
        ids = [(fid,) for fid in file_ids]
        if not ids:
            return
        self._clear_contents(ids)
        self.conn.executemany("DELETE FROM files WHERE id = ?", ids)

    def _clear_contents(self, ids: list[tuple[int]]) -> None:
        for table in _FILE_TABLES:
            self.conn.executemany(f"DELETE FROM {table} WHERE file_id = ?", ids)

    def touch(self, file_id: int, size: int, mtime_ns: int, indexed_ns: int) -> None:
        """Record a new size/mtime for a file whose content hash did not change."""
        self.conn.execute("UPDATE files SET size = ?, mtime_ns = ?, indexed_ns = ? WHERE id = ?",
                          (size, mtime_ns, indexed_ns, file_id))

    def put(self, facts: FileFacts, old_id: int | None = None) -> tuple[int, int]:
        """Replace one file's facts; returns (nodes, refs) written."""
        conn = self.conn
        indexed_ns = facts.indexed_ns
        if old_id is not None:
            self._clear_contents([(old_id,)])
            file_id = old_id
            conn.execute(
                "UPDATE files SET lang=?, size=?, mtime_ns=?, hash=?, status=?, lines=?, "
                "parse_errors=?, indexed_ns=? WHERE id=?",
                (facts.lang, facts.size, facts.mtime_ns, facts.hash, facts.status, facts.lines,
                 facts.parse_errors, indexed_ns, file_id))
        else:
            file_id = self._next_file
            self._next_file += 1
            conn.execute(
                "INSERT INTO files (id, path, lang, size, mtime_ns, hash, status, lines, "
                "parse_errors, indexed_ns) VALUES (?,?,?,?,?,?,?,?,?,?)",
                (file_id, facts.path, facts.lang, facts.size, facts.mtime_ns, facts.hash,
                 facts.status, facts.lines, facts.parse_errors, indexed_ns))
        if facts.status != "ok":
            return 0, 0

        base = self._next_node
        self._next_node += len(facts.defs) + 1
        lang, path = facts.lang, facts.path
        last_line = max(facts.lines, 1)
        nodes: list[tuple[Any, ...]] = [
            (base, node_id(lang, path), file_id, None, "module", PurePosixPath(path).stem, "",
             1, 1, last_line, 1, 1, 1, 1, 0, facts.size, "", facts.doc)]
        nodes.extend(
            (base + 1 + i, node_id(lang, path, d.key), file_id,
             base + 1 + d.parent if d.parent >= 0 else base, d.kind, d.name, d.qname,
             d.line, d.col, d.end_line, d.end_col, d.name_line, d.name_col, d.name_end_col,
             d.start_byte, d.end_byte, d.signature, d.doc)
            for i, d in enumerate(facts.defs))
        conn.executemany(
            "INSERT INTO nodes (id, nid, file_id, parent_id, kind, name, qname, line, col, "
            "end_line, end_col, name_line, name_col, name_end_col, start_byte, end_byte, "
            "signature, doc) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", nodes)
        first = base + 1
        conn.executemany(
            "INSERT INTO refs (file_id, scope_id, name, kind, line, col, qualifier) "
            "VALUES (?,?,?,?,?,?,?)",
            [(file_id, first + scope if scope >= 0 else base, name, kind, line, col, qual)
             for name, kind, line, col, scope, qual in facts.refs])
        if facts.imports:
            conn.executemany(
                "INSERT INTO imports (file_id, scope_id, module, name, alias, wildcard, line, col) "
                "VALUES (?,?,?,?,?,?,?,?)",
                [(file_id, first + i.scope if i.scope >= 0 else base, i.module, i.name, i.alias,
                  int(i.wildcard), i.line, i.col) for i in facts.imports])
        if facts.problems:
            conn.executemany(
                "INSERT INTO problems (file_id, line, col, end_line, end_col, message) "
                "VALUES (?,?,?,?,?,?)", [(file_id, *p) for p in facts.problems])
        return len(nodes), len(facts.refs)

    def set_meta(self, values: dict[str, str]) -> None:
        self.conn.executemany("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                              list(values.items()))

    def counts(self) -> tuple[int, int, int]:
        """(files, nodes, refs) now in the map."""
        files, nodes, refs = (
            int(self.conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0])
            for t in ("files", "nodes", "refs"))
        return files, nodes, refs
