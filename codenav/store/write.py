"""Writing the map: files, nodes, references, imports and problems, in batches.

Only ``codenav.index`` writes. Node ids are derived, not allocated: a file's nodes are
``file_id << 20 | n`` (``n = 0`` for the file itself, ``1 + i`` for its i-th definition), so
a parser process that knows the file id builds rows ready to insert (:func:`encode`) and the
writing process only hands them to SQLite. Every method runs inside the caller's write
transaction (``db.write_transaction``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Collection, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any, NamedTuple

from codenav.model import FileFacts, node_id
from codenav.store import db
from codenav.words import name_words

__all__ = ["NODE_BITS", "FileRow", "FileRows", "MapWriter", "encode", "file_node"]

NODE_BITS = 20  # up to 2**20 - 1 definitions per file; the 2 MiB file cap stays far below

class FileRow(NamedTuple):
    """What the map holds of one file (by path, ``known_files``)."""

    id: int
    size: int
    mtime_ns: int
    hash: str
    status: str
    indexed_ns: int
    surface: str
    lang: str


_FILE_ROW = "SELECT path, id, size, mtime_ns, hash, status, indexed_ns, surface, lang FROM files"

_FILE_TABLES = ("nodes", "refs", "imports", "problems", "words", "regions")
_INSERT_FILE = ("INSERT OR REPLACE INTO files (id, path, lang, size, mtime_ns, hash, status, "
                "lines, parse_errors, indexed_ns, surface, node_count) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?,?)")
_INSERT_NODES = ("INSERT INTO nodes (id, nid, file_id, parent_id, kind, name, qname, line, col, "
                 "end_line, end_col, name_line, name_col, name_end_col, start_byte, end_byte, "
                 "signature, doc, type_key) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")
_INSERT_REFS = ("INSERT INTO refs (file_id, scope_id, name, kind, line, col, qualifier, "
                "target_id, key) VALUES (?,?,?,?,?,?,?,?,?)")
_INSERT_IMPORTS = ("INSERT INTO imports (file_id, scope_id, module, name, alias, wildcard, line, "
                   "col, key) VALUES (?,?,?,?,?,?,?,?,?)")
_INSERT_WORDS = "INSERT INTO words (word, node_id, file_id) VALUES (?,?,?)"
_INSERT_REGIONS = ("INSERT INTO regions (file_id, line, end_line, cond, active) "
                   "VALUES (?,?,?,?,?)")
_INSERT_PROBLEMS = ("INSERT INTO problems (file_id, line, col, end_line, end_col, message) "
                    "VALUES (?,?,?,?,?,?)")


def file_node(file_id: int) -> int:
    """The node id of a file's own (module) node."""
    return file_id << NODE_BITS


@dataclass(slots=True)
class FileRows:
    """One file's facts as table rows, ready for ``executemany``."""

    file: tuple[Any, ...]
    nodes: list[tuple[Any, ...]] = field(default_factory=list)
    refs: list[tuple[Any, ...]] = field(default_factory=list)
    imports: list[tuple[Any, ...]] = field(default_factory=list)
    problems: list[tuple[Any, ...]] = field(default_factory=list)
    words: list[tuple[Any, ...]] = field(default_factory=list)
    regions: list[tuple[Any, ...]] = field(default_factory=list)

    @property
    def path(self) -> str:
        return str(self.file[1])

    @property
    def status(self) -> str:
        return str(self.file[6])

    @property
    def parse_errors(self) -> int:
        return int(self.file[8])

    @property
    def surface(self) -> str:
        return str(self.file[10])

    def names(self) -> set[str]:
        """The names this file's nodes have (its module's included)."""
        return {str(row[5]) for row in self.nodes}


# Statuses whose facts are stored: a file past its budget (timeout) keeps what was found.
MAPPED_STATUSES = frozenset({"ok", "timeout"})


def encode(facts: FileFacts, file_id: int) -> FileRows:
    """The rows that store ``facts`` as file ``file_id``."""
    mapped = facts.status in MAPPED_STATUSES
    rows = FileRows((file_id, facts.path, facts.lang, facts.size, facts.mtime_ns, facts.hash,
                     facts.status, facts.lines, facts.parse_errors, facts.indexed_ns,
                     facts.surface, len(facts.defs) + 1 if mapped else 0))
    if not mapped:
        return rows
    base = file_node(file_id)
    first = base + 1
    lang, path = facts.lang, facts.path
    rows.nodes.append((base, node_id(lang, path), file_id, None, "module",
                       PurePosixPath(path).stem, "", 1, 1, max(facts.lines, 1), 1, 1, 1, 1, 0,
                       facts.size, "", facts.doc, None))
    rows.nodes.extend(
        (first + i, node_id(lang, path, d.key), file_id,
         first + d.parent if d.parent >= 0 else base, d.kind, d.name, d.qname,
         d.line, d.col, d.end_line, d.end_col, d.name_line, d.name_col, d.name_end_col,
         d.start_byte, d.end_byte, d.signature, d.doc, d.type)
        for i, d in enumerate(facts.defs))
    rows.refs = [(file_id, first + scope if scope >= 0 else base, name, kind, line, col, qual,
                  first + target if target >= 0 else None, key)
                 for name, kind, line, col, scope, qual, target, key in facts.refs]
    rows.imports = [(file_id, first + i.scope if i.scope >= 0 else base, i.module, i.name,
                     i.alias, int(i.wildcard), i.line, i.col, i.key) for i in facts.imports]
    rows.problems = [(file_id, *p) for p in facts.problems]
    rows.regions = [(file_id, line, end, cond, 0 if cond == "0" else None)
                    for line, end, cond in facts.regions]
    rows.words = [(word, first + i, file_id) for i, d in enumerate(facts.defs)
                  for word in name_words(d.name)]
    return rows


class MapWriter:
    """Batched writes for one indexing run on a connection holding the write lock."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        row = conn.execute("SELECT max(id) FROM files").fetchone()
        self._next_file = int(row[0] or 0) + 1

    def new_file_id(self) -> int:
        """An id no file of the map uses."""
        self._next_file += 1
        return self._next_file - 1

    def known_files(self, under: Collection[str] | None = None) -> dict[str, FileRow]:
        """File rows by path: every one, or with ``under`` (repo-relative files or folders)
        only those files and the files inside those folders, read through the path index
        (a watcher's one-file run must not read 100,000 rows)."""
        return self.known_rows(self.conn, under)

    @staticmethod
    def known_rows(conn: sqlite3.Connection,
                   under: Collection[str] | None = None) -> dict[str, FileRow]:
        """``known_files`` on any connection (a reader's too)."""
        if under is None or {"", "."} & set(under):
            rows: Iterable[Any] = conn.execute(_FILE_ROW)
        else:
            rows = []
            for path in {p.strip("/") for p in under}:
                # '0' follows '/': the range holds exactly the paths below the folder
                rows += conn.execute(f"{_FILE_ROW} WHERE path = ? OR (path > ? AND path < ?)",
                                     (path, f"{path}/", f"{path}0")).fetchall()
        return {path: FileRow(*rest) for path, *rest in rows}

    def clear(self) -> None:
        """Forget every file (a full rebuild, still inside the caller's transaction)."""
        for table in ("files", "symbols", *_FILE_TABLES):
            self.conn.execute(f"DELETE FROM {table}")
        self._next_file = 1

    def has_files(self) -> bool:
        return self.conn.execute("SELECT 1 FROM files LIMIT 1").fetchone() is not None

    @contextmanager
    def bulk(self, keep: tuple[str, ...] = ()) -> Iterator[None]:
        """Drop the secondary indexes (but those whose names start with one in ``keep``) for
        a large batch of inserts; rebuild them after.

        Building an index once over sorted keys is several times cheaper than maintaining it
        row by row. Inside the caller's transaction, so readers never see the map without them
        (but a first build published as it grows: ``pipeline``).
        """
        statements = [(name, create) for name, create in db.index_statements()
                      if not name.startswith(keep)]
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

    def put(self, rows: FileRows, replacing: bool) -> None:
        """Write one file's rows; ``replacing`` when the file id is already in the map."""
        conn = self.conn
        if replacing:
            self._clear_contents([(rows.file[0],)])
        conn.execute(_INSERT_FILE, rows.file)
        if rows.nodes:
            conn.executemany(_INSERT_NODES, rows.nodes)
        if rows.refs:
            conn.executemany(_INSERT_REFS, rows.refs)
        if rows.imports:
            conn.executemany(_INSERT_IMPORTS, rows.imports)
        if rows.problems:
            conn.executemany(_INSERT_PROBLEMS, rows.problems)
        if rows.words:
            conn.executemany(_INSERT_WORDS, rows.words)
        if rows.regions:
            conn.executemany(_INSERT_REGIONS, rows.regions)

    def meta(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return str(row[0]) if row else None

    def relink_pending(self) -> bool:
        """Whether a quick refresh left cross-file links for a whole relink to complete."""
        return self.meta("relink_pending") == "1"

    def names_in(self, file_id: int) -> set[str]:
        """The names the nodes of file ``file_id`` have now."""
        return {name for (name,) in self.conn.execute(
            "SELECT DISTINCT name FROM nodes WHERE file_id = ?", (file_id,))}

    def set_meta(self, values: dict[str, str]) -> None:
        self.conn.executemany("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                              list(values.items()))

    def counts(self) -> dict[str, int]:
        """Rows per table now in the map (kept in meta for map_status)."""
        counts = {table: int(self.conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
                  for table in ("files", "nodes", "refs", "imports", "problems")}
        counts["edges"] = int(self.conn.execute(
            "SELECT count(*) FROM refs WHERE target_id IS NOT NULL").fetchone()[0])
        return counts
