"""Opening the map: location, pragmas, schema version, transactions.

Concurrency (docs/contract.md §1, notes/RELIABILITY-AND-PERF.md A4): the map is in WAL mode so
readers never block the writer or each other; writers take the write lock up front with
``BEGIN IMMEDIATE`` (a deferred upgrade fails at once with SQLITE_BUSY_SNAPSHOT); a rebuild
happens inside one transaction of the live file, never by renaming a new file over it.
sqlite3 errors are translated into codenav's errors here and nowhere else.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from importlib import resources
from pathlib import Path

from codenav.errors import MapIncompatible, MapNotBuilt, MapRefused

__all__ = [
    "APPLICATION_ID",
    "SCHEMA_VERSION",
    "connect_reader",
    "connect_writer",
    "default_db_path",
    "ensure_schema",
    "index_statements",
    "map_path",
    "read_meta",
    "read_only_authorizer",
    "schema_version",
    "write_transaction",
]

SCHEMA_VERSION = 13
# Every map codenav makes carries this in its header (PRAGMA application_id, "cnav"): only a
# database with it (or a map from before it, recognised by its tables) is ever rebuilt.
APPLICATION_ID = 0x636E6176
MAP_DIR = ".codenav"
MAP_FILE = "map.db"
# The files SQLite opens beside a map: a symlink here would make it write elsewhere.
_COMPANIONS = ("", "-wal", "-shm", "-journal")
# The tables whose presence marks a map written before APPLICATION_ID existed.
_MAP_TABLES = frozenset({"meta", "files", "nodes", "refs", "symbols"})
_WRITER_BUSY_S = 120.0  # another writer may hold the lock for a whole cold build
_READER_BUSY_S = 10.0


def default_db_path(root: Path) -> Path:
    """``$CODENAV_DB`` if set, else ``ROOT/.codenav/map.db`` (see ``map_path`` for the
    checks a map inside the tree gets)."""
    env = os.environ.get("CODENAV_DB")
    return Path(env).expanduser().resolve() if env else root / MAP_DIR / MAP_FILE


def map_path(root: Path, explicit: Path | None = None) -> Path:
    """Where the map of ``root`` is: the path the user named (``--db``, ``$CODENAV_DB``),
    or ``ROOT/.codenav/map.db`` — which a repository could ship as a symlink to another
    application's files: a ``.codenav`` folder or map file leading out of the root is
    refused (MapRefused), never followed."""
    if explicit is not None or os.environ.get("CODENAV_DB"):
        return explicit if explicit is not None else default_db_path(root)
    real_root = root.resolve()
    folder = root / MAP_DIR
    targets = [folder, *(folder / f"{MAP_FILE}{suffix}" for suffix in _COMPANIONS)]
    for path in targets:
        if not path.is_symlink():
            continue
        target = path.resolve()
        if not target.is_relative_to(real_root):
            raise MapRefused(
                f"{path} is a symlink to {target}, outside the root: codenav does not follow "
                "it (a repository could point it at another application's database)")
    return folder / MAP_FILE


def _prepare_dir(path: Path) -> None:
    folder = path.parent
    if not folder.exists():
        folder.mkdir(parents=True, exist_ok=True)
        if folder.name == MAP_DIR:
            # Keep the map out of commits without touching the user's .gitignore.
            (folder / ".gitignore").write_text("*\n", encoding="utf-8")


def connect_writer(path: Path, busy_timeout: float | None = None) -> sqlite3.Connection:
    """A connection for the one writer: WAL, explicit transactions, and a busy timeout long
    enough to wait for another writer's whole build unless ``busy_timeout`` says otherwise.
    A database codenav did not make is refused before anything is written to it."""
    _prepare_dir(path)
    try:
        conn = sqlite3.connect(path, timeout=_WRITER_BUSY_S if busy_timeout is None
                               else busy_timeout, isolation_level=None,
                               check_same_thread=False)
        _check_ours(conn, path)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA temp_store=MEMORY")
        conn.execute("PRAGMA cache_size=-65536")
    except sqlite3.DatabaseError as exc:
        raise MapRefused(
            f"{path} is not a codenav map ({exc}); codenav leaves it untouched",
            hint="If it is an old map, delete it (it is derived data) and run `codenav index`; "
                 "else pass --db PATH to keep the map elsewhere.") from exc
    except MapRefused:
        conn.close()
        raise
    return conn


def _check_ours(conn: sqlite3.Connection, path: Path) -> None:
    """Refuse a database codenav did not make (read-only checks: nothing is written yet)."""
    (app,) = conn.execute("PRAGMA application_id").fetchone()
    if app == APPLICATION_ID:
        return
    tables = {name for (name,) in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table'")}
    if app == 0 and (not tables or tables >= _MAP_TABLES):
        return  # a new file, or a map written before the marker existed
    raise MapRefused(f"{path} is a database codenav did not make (application id {app:#x}, "
                     f"{len(tables)} table(s)); codenav never writes to it")


def connect_reader(path: Path) -> sqlite3.Connection:
    """A read-only connection to a built map; raises MapNotBuilt when there is none yet."""
    if not path.is_file():
        raise MapNotBuilt(f"no map at {path}")
    try:
        conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=_READER_BUSY_S,
                               isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA query_only=1")
        _check_ours(conn, path)
        version = schema_version(conn)
        conn.set_authorizer(read_only_authorizer)
    except sqlite3.DatabaseError as exc:
        raise MapNotBuilt(f"cannot read the map at {path}: {exc}",
                          hint="Run `codenav index --full` to rebuild it.") from exc
    except MapRefused:
        conn.close()
        raise
    if version != SCHEMA_VERSION:
        conn.close()
        _check_version(version, path)
    return conn


# What a serving connection may do: read tables, call functions, run CTEs and read
# transactions. Everything else (writes, schema changes, ATTACH/DETACH, PRAGMA with a value,
# load_extension()) is refused before it runs: `mode=ro` and `query_only` stop writes to the
# map, the authorizer also stops ATTACH (a new file) and extension loading (native code).
_READ_ACTIONS = frozenset({sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_FUNCTION,
                           sqlite3.SQLITE_RECURSIVE, sqlite3.SQLITE_TRANSACTION})
_READ_PRAGMAS = frozenset({"user_version", "schema_version", "table_info", "table_xinfo",
                           "index_list", "index_info", "page_count", "page_size",
                           "journal_mode", "data_version", "compile_options", "query_only",
                           "integrity_check", "quick_check",
                           "database_list"})
_DENIED_FUNCTIONS = frozenset({"load_extension", "readfile", "writefile", "edit", "fts3_tokenizer"})


def read_only_authorizer(action: int, arg1: str | None, arg2: str | None, _db: str | None,
                         _trigger: str | None) -> int:
    """sqlite3 authorizer of the serving connections (docs/contract.md §6): reads only."""
    if action == sqlite3.SQLITE_FUNCTION:
        return sqlite3.SQLITE_DENY if (arg2 or "").lower() in _DENIED_FUNCTIONS else \
            sqlite3.SQLITE_OK
    if action in _READ_ACTIONS:
        return sqlite3.SQLITE_OK
    if action == sqlite3.SQLITE_UPDATE and arg1 == "sqlite_master" and _trigger is None:
        return sqlite3.SQLITE_OK  # asked when json_each() is first used; mode=ro stops writes
    if action == sqlite3.SQLITE_PRAGMA and arg2 is None and (arg1 or "").lower() in _READ_PRAGMAS:
        return sqlite3.SQLITE_OK
    return sqlite3.SQLITE_DENY


def schema_version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def _check_version(version: int, path: Path) -> None:
    if version > SCHEMA_VERSION:
        raise MapIncompatible(
            f"the map at {path} has schema {version}, newer than this codenav's {SCHEMA_VERSION}",
        )
    if version == 0:
        raise MapNotBuilt(f"the map at {path} is empty (its first build has not finished)")
    raise MapNotBuilt(f"the map at {path} has an older schema ({version}); it needs a rebuild",
                      hint="Run `codenav index` (or map_rebuild) to rebuild it.")


@contextmanager
def write_transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """``BEGIN IMMEDIATE`` … ``COMMIT``; rolled back if the body raises (or is interrupted)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


@cache
def _schema_statements() -> list[str]:
    text = resources.files("codenav.store").joinpath("schema.sql").read_text("utf-8")
    statements: list[str] = []
    pending = ""
    for line in text.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            code = [row for row in pending.splitlines() if not row.lstrip().startswith("--")]
            statements.append("\n".join(code).strip())
            pending = ""
    return statements


def index_statements() -> list[tuple[str, str]]:
    """(name, CREATE INDEX statement) of every secondary index in the schema."""
    out = []
    for statement in _schema_statements():
        words = statement.split()
        if words[:2] == ["CREATE", "INDEX"]:
            out.append((words[2], statement))
    return out


def ensure_schema(conn: sqlite3.Connection, path: Path) -> bool:
    """Inside a write transaction: create or rebuild the schema; True when it was (re)made.

    A map written by a newer codenav is refused, never touched.
    """
    version = schema_version(conn)
    if version == SCHEMA_VERSION:
        if conn.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
            conn.execute(f"PRAGMA application_id={APPLICATION_ID}")  # made before the marker
        return False
    if version > SCHEMA_VERSION:
        _check_version(version, path)
    existing = conn.execute(
        "SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view') "
        "AND name NOT LIKE 'sqlite_%'").fetchall()
    for kind, name in existing:
        conn.execute(f'DROP {kind.upper()} IF EXISTS "{name}"')
    for statement in _schema_statements():
        conn.execute(statement)
    conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
    conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
    return True


def read_meta(conn: sqlite3.Connection) -> dict[str, str]:
    return dict(conn.execute("SELECT key, value FROM meta").fetchall())
