"""Opening the map: location, pragmas, schema version, transactions.

Concurrency (docs/contract.md §1, notes/RELIABILITY-AND-PERF.md A4): the map is in WAL mode so
readers never block the writer or each other; writers take the write lock up front with
``BEGIN IMMEDIATE`` (a deferred upgrade fails at once with SQLITE_BUSY_SNAPSHOT); a rebuild
happens inside one transaction of the live file, never by renaming a new file over it.
sqlite3 errors are translated into codenav's errors here and nowhere else.
"""

from __future__ import annotations

import errno
import os
import sqlite3
import stat
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from functools import cache
from importlib import resources
from pathlib import Path

from codenav.errors import MapDamaged, MapIncompatible, MapNotBuilt, MapRefused

__all__ = [
    "APPLICATION_ID",
    "SCHEMA_VERSION",
    "checkpoint",
    "connect_reader",
    "connect_writer",
    "damage",
    "default_db_path",
    "ensure_schema",
    "expected_schema",
    "index_statements",
    "intact",
    "is_damage",
    "is_full",
    "map_path",
    "read_meta",
    "read_only_authorizer",
    "remove_map",
    "schema_version",
    "unwritable",
    "write_transaction",
]

SCHEMA_VERSION = 55
# What each version changed (a map of another is rebuilt):
# 55: a builder's method (`@builder def f(self) -> None`) returns the class it is defined in,
# not a class nested in its body;
# 54: a member read but not called on a receiver of unknown type is guessed as no method (keys
# `R:`): `include.model` is no use of the one method named model;
# 53: Python: a local or variable made by a chain of calls with arguments
# (`Query.from_(t).select(x)`, in parentheses over several lines) has the chain's type; a
# decorated method annotated `-> None` (pypika's `@builder`) returns its instance;
# 52: an import in an exception handler (Python's `except`) comes after the file's others:
# the `try` body's or the `else`'s binds the name;
# 51: TypeScript overload, abstract and interface method signatures have their return type;
# 50: a Python @staticmethod's first parameter is no receiver;
# 49: TypeScript's `Pick<T, …>` and `Omit<T, …>` type a variable as T (its members);
# 48: the module of an import through a path alias or into a package (`I:ts-graphviz/ast`)
# is resolved into `symbols` too (a module's importers);
# 47: a Python variable's or field's attribute value, a JS/TS one's member value, no longer
# names a function in the map (46's link-time alias, replaced by the query's `aliases_of`);
# 46: a JS/TS constant awaiting a call has its result's type; 45: a call of a local holding a
# function or class of its file (`self_add = self.add`) is its call; 44/43/41/40: the link-time
# alias (gone in 47); 43: `this` in a class field's arrow function is the instance; 42: a JS/TS
# function value's signature runs to its body;
# 39: a JS/TS import of the root folder (`'..'` from test/) is keyed `P:.`, never `P:` (whose
# `::name` read as `:name`), and a folder with a package.json is its entry;
# 38: `if (!(x instanceof C) || …) … else {…}` narrows x to a C in the else block;
# 37: a JS/TS bare specifier naming a package of the tree (`@microsoft/tsdoc` in a monorepo,
# `yaml/util` in yaml's own tests) is that package's entry, read back to its source;
# 36: a Python `x = property(…)` in a class body is a property; 35: TS declares no field by
# `this.x =`, a JS/TS function ending `return this.m(…)` returns what m does, a static and an
# instance member of one name told apart (TS keys an instance's members `Cls.().m`);
# 34: a Python class named in a string annotation (`Optional['Retry']`) is a use of it;
# 33: a JS/TS call of a member by its name in a string (`client['_sendPacket'](…)`) is a call of
# it; 32: a JS/TS class expression in an array or a property's value is a class; 31: a JS/TS
# function or method ending `return x` (a local, a member, `this`) makes what x is; 30: a local
# holding a member (`r = self._paint`, `r = this.x || …`) has its type, a JS/TS method ending
# `return new X(…)` makes an X, `export * as N from` imports; 29: a JS/TS function ending `return
# new X(…)` makes an X; 28: a module object's functions (`X = { f() {} }`); 27: nodes_file by line
# too; 26: `if (x instanceof C)` narrows a local in its block; 25: a JS/TS value of the language's
# own type (`[x]`, `new Map()`, `T[]`) keyed O:Array::m, `clone(): this`; 24: `x = new C()` types
# a bare `let x;`; 23: `const self = this`, a Promise<T> return is a T; 22: no guess of a built-in
# member name from a variable's name; 21: TS `var x: T`, a variable holding a namespace; 20: a
# value's initializer reads names around it; 19: string spaces
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
# After a checkpoint, SQLite truncates the WAL to this (it otherwise keeps the size of the
# largest run: 10 MB beside a 1 MB map).
_WAL_KEEP_BYTES = 4 * 1024 * 1024


def default_db_path(root: Path) -> Path:
    """``$CODENAV_DB`` if set, else ``ROOT/.codenav/map.db`` (see ``map_path`` for the
    checks a map inside the tree gets)."""
    env = os.environ.get("CODENAV_DB")
    return Path(env).expanduser().resolve() if env else root / MAP_DIR / MAP_FILE


def map_path(root: Path, explicit: Path | None = None) -> Path:
    """Where the map of ``root`` is: the path the user named (``--db``, ``$CODENAV_DB``),
    or ``ROOT/.codenav/map.db``. There a repository could ship a symlink to another
    application's files, or to one of its own tracked files (which the map would then
    overwrite), or a hard link sharing a tracked file's bytes: a ``.codenav`` folder, map
    file or SQLite companion that is a symlink, or a map file with other links, is refused
    (MapRefused), never followed."""
    if explicit is not None or os.environ.get("CODENAV_DB"):
        return explicit if explicit is not None else default_db_path(root)
    folder = root / MAP_DIR
    targets = [folder, *(folder / f"{MAP_FILE}{suffix}" for suffix in _COMPANIONS)]
    for path in targets:
        try:
            info = path.lstat()
        except OSError:
            continue
        if stat.S_ISLNK(info.st_mode):
            raise MapRefused(
                f"{path} is a symlink (to {os.path.realpath(path)}): codenav does not write "
                "its map through a link a repository could point at another file",
                hint="Delete the link (the map is derived data), or pass --db PATH to keep the "
                     "map elsewhere.")
        if path != folder and (not stat.S_ISREG(info.st_mode) or info.st_nlink > 1):
            what = "not a regular file" if not stat.S_ISREG(info.st_mode) else "hard-linked"
            raise MapRefused(
                f"{path} is not a file of its own ({what}): writing the map there would "
                "change another file",
                hint="Delete it (the map is derived data), or pass --db PATH to keep the map "
                     "elsewhere.")
    return folder / MAP_FILE


def _prepare_dir(path: Path) -> None:
    folder = path.parent
    try:
        if not folder.exists():
            folder.mkdir(parents=True, exist_ok=True)
            if folder.name == MAP_DIR:
                # Keep the map out of commits without touching the user's .gitignore.
                (folder / ".gitignore").write_text("*\n", encoding="utf-8")
    except OSError as exc:
        raise unwritable(path, exc) from exc
    if not _writable(folder):
        raise unwritable(path, OSError(errno.EROFS, "read-only file system or no permission"))


def is_full(exc: BaseException) -> bool:
    """Whether ``exc`` says the disk is full (an OS error or SQLite's SQLITE_FULL)."""
    if getattr(exc, "errno", None) == errno.ENOSPC:
        return True
    if isinstance(exc, sqlite3.DatabaseError):
        code = getattr(exc, "sqlite_errorcode", None)
        return code & 0xFF == 13 if code is not None else "disk is full" in str(exc)
    return False


def unwritable(path: Path, exc: BaseException) -> MapRefused:
    """The error for a map codenav cannot write where it is (a read-only checkout, a full
    disk): said in a line, with where else it can go."""
    full = is_full(exc)
    what = "the disk holding it is full" if full else \
        f"it cannot be written there ({getattr(exc, 'strerror', None) or exc})"
    return MapRefused(f"no map can be written at {path}: {what}",
                      hint="Free some space, or keep the map elsewhere: --db PATH (or "
                           "CODENAV_DB=PATH); a map there is read back by every command "
                           "given the same --db." if full else
                           "Keep the map elsewhere: --db PATH (or CODENAV_DB=PATH) on every "
                           "command; the tree itself is only read.")


def connect_writer(path: Path, busy_timeout: float | None = None) -> sqlite3.Connection:
    """A connection for the one writer: WAL, explicit transactions, and a busy timeout long
    enough to wait for another writer's whole build unless ``busy_timeout`` says otherwise.
    A database codenav did not make is refused before anything is written to it."""
    _prepare_dir(path)
    conn: sqlite3.Connection | None = None
    try:
        conn = sqlite3.connect(path, timeout=_WRITER_BUSY_S if busy_timeout is None
                               else busy_timeout, isolation_level=None,
                               check_same_thread=False)
        _check_ours(conn, path)
        conn.execute("PRAGMA trusted_schema=OFF")  # a view or trigger calls no risky function
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA temp_store=MEMORY")
        conn.execute("PRAGMA cache_size=-65536")
        conn.execute(f"PRAGMA journal_size_limit={_WAL_KEEP_BYTES}")
    except sqlite3.DatabaseError as exc:
        ours = conn is not None and _application_id(conn) == APPLICATION_ID
        if conn is not None:
            conn.close()
        if ours and is_damage(exc):  # codenav's own map, damaged: rebuilt, not refused
            raise damage(exc, path) from exc
        raise MapRefused(
            f"{path} is not a codenav map ({exc}); codenav leaves it untouched",
            hint="If it is an old map, delete it (it is derived data) and run `codenav index`; "
                 "else pass --db PATH to keep the map elsewhere.") from exc
    except MapRefused:
        if conn is not None:
            conn.close()
        raise
    return conn


def _application_id(conn: sqlite3.Connection) -> int | None:
    try:
        return int(conn.execute("PRAGMA application_id").fetchone()[0])
    except sqlite3.DatabaseError:
        return None


def checkpoint(path: Path, busy_timeout: float = 0.3) -> bool:
    """Fold the WAL of the map at ``path`` into it and truncate it (a clean exit's last
    step); True when done. Never creates a file, never touches a database codenav did not
    make, and gives up at once when another connection is busy with it."""
    if not path.is_file() or not Path(f"{path}-wal").exists():
        return False
    try:
        conn = sqlite3.connect(path, timeout=busy_timeout, isolation_level=None)
    except sqlite3.Error:
        return False
    try:
        _check_ours(conn, path)
        busy, _, _ = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        return not busy
    except (sqlite3.Error, MapRefused):
        return False
    finally:
        conn.close()


_DAMAGE_CODES = frozenset({11, 26})  # SQLITE_CORRUPT, SQLITE_NOTADB


def is_damage(exc: BaseException) -> bool:
    """Whether ``exc`` is SQLite saying a map file is damaged (not busy, not a bug)."""
    if isinstance(exc, MapDamaged):
        return True
    if not isinstance(exc, sqlite3.DatabaseError):
        return False
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in _DAMAGE_CODES
    return "malformed" in str(exc) or "not a database" in str(exc)  # Python 3.10


def damage(exc: BaseException, path: Path) -> MapDamaged:
    """The error that says the map at ``path`` is damaged (``exc``: what SQLite said)."""
    return MapDamaged(f"the map at {path} is damaged ({exc}); codenav rebuilds it from "
                      "nothing")


def intact(conn: sqlite3.Connection) -> str | None:
    """None when SQLite's quick check of the whole file finds nothing wrong, else the first
    problem (every page is read: ~2 ms per MB)."""
    try:
        (first,) = conn.execute("PRAGMA quick_check(1)").fetchone()
    except sqlite3.DatabaseError as exc:
        return str(exc)
    return None if first == "ok" else str(first)


def remove_map(path: Path) -> None:
    """Delete a damaged map and its SQLite companions (derived data: the next run builds
    it again; readers notice the new file)."""
    for suffix in _COMPANIONS:
        with suppress(FileNotFoundError):
            os.unlink(f"{path}{suffix}")


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


def _open_reader(path: Path, *, immutable: bool) -> sqlite3.Connection:
    flags = "mode=ro&immutable=1" if immutable else "mode=ro"
    conn = sqlite3.connect(f"{path.as_uri()}?{flags}", uri=True, timeout=_READER_BUSY_S,
                           isolation_level=None, check_same_thread=False)
    try:
        conn.execute("PRAGMA query_only=1")
        conn.execute("PRAGMA trusted_schema=OFF")
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()  # opens the file now
    except sqlite3.DatabaseError:
        conn.close()
        raise
    return conn


def _writable(folder: Path) -> bool:
    """Whether files can be made in ``folder`` (not a read-only file system, not denied)."""
    try:
        return os.access(folder, os.W_OK) and not os.statvfs(folder).f_flag & os.ST_RDONLY
    except OSError:
        return False


def connect_reader(path: Path) -> sqlite3.Connection:
    """A read-only connection to a built map; raises MapNotBuilt when there is none yet.

    A map in a folder codenav cannot write (a read-only checkout, a mounted cache) is read
    as immutable: SQLite would otherwise need to create its shared-memory file beside it,
    and could not open it at all. Nothing can change it there anyway."""
    if not path.is_file():
        raise MapNotBuilt(f"no map at {path}")
    conn: sqlite3.Connection | None = None
    try:
        try:
            conn = _open_reader(path, immutable=False)
        except sqlite3.OperationalError:
            if _writable(path.parent):
                raise
            conn = _open_reader(path, immutable=True)
        _check_ours(conn, path)
        version = schema_version(conn)
        conn.set_authorizer(read_only_authorizer)
    except sqlite3.DatabaseError as exc:
        if conn is not None:
            conn.close()
        if is_damage(exc):
            raise damage(exc, path) from exc
        raise MapNotBuilt(f"cannot read the map at {path}: {exc}",
                          hint="Run `codenav index --full` to rebuild it.") from exc
    except MapRefused:
        if conn is not None:
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


def ensure_schema(conn: sqlite3.Connection, path: Path, *, reset: bool = False) -> bool:
    """Inside a write transaction: create or rebuild the schema; True when it was (re)made.

    ``reset`` rebuilds it whatever its version: every table, view, trigger and statistic
    goes (a map codenav did not write may carry triggers that would run on its writes).
    A map written by a newer codenav is refused, never touched, unless ``reset``.
    """
    version = schema_version(conn)
    if version == SCHEMA_VERSION and not reset:
        if conn.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
            conn.execute(f"PRAGMA application_id={APPLICATION_ID}")  # made before the marker
        return False
    if version > SCHEMA_VERSION and not reset:
        _check_version(version, path)
    existing = conn.execute(
        "SELECT type, name FROM sqlite_master WHERE type IN ('trigger', 'view', 'table') "
        "AND (name NOT LIKE 'sqlite_%' OR name LIKE 'sqlite_stat%') "
        "ORDER BY CASE type WHEN 'trigger' THEN 0 WHEN 'view' THEN 1 ELSE 2 END").fetchall()
    for kind, name in existing:
        conn.execute(f'DROP {kind.upper()} IF EXISTS "{name.replace(chr(34), chr(34) * 2)}"')
    for statement in _schema_statements():
        conn.execute(statement)
    conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
    conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
    return True


@cache
def expected_schema() -> dict[str, str]:
    """name -> CREATE statement (whitespace folded) of every object a map of this schema
    has, as SQLite stores them: what a map codenav did not write is compared with."""
    memory = sqlite3.connect(":memory:")
    try:
        for statement in _schema_statements():
            memory.execute(statement)
        return {name: " ".join(sql.split()) for name, sql in memory.execute(
            "SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL")}
    finally:
        memory.close()


def read_meta(conn: sqlite3.Connection) -> dict[str, str]:
    return dict(conn.execute("SELECT key, value FROM meta").fetchall())
