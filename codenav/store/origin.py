"""Whose map is this: a stamp that only codenav, run by this user on this machine, can write.

A map is input too. One that comes with a repository (committed, in a tarball, restored from
someone's cache) can hold any rows — a ``files`` row naming ``/home/me/.ssh/id_rsa`` or
``../../x`` among them. So every map codenav writes carries, in ``meta``, a random
``map_id`` and ``origin = HMAC-SHA256(key, map_id)``, where the key is 32 random bytes only
this user can read (``$XDG_STATE_HOME/codenav/map-key``, by default
``~/.local/state/codenav/map-key``, mode 0600). A map without a valid stamp is rebuilt before
it is served, unless the user says it comes from their own CI (``--trust-map``,
``CODENAV_TRUST_MAP=1``): then its schema and paths are checked (:func:`foreign_rows`) and it
is adopted, and stamped by the next run that writes it.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import secrets
import sqlite3
import stat
import threading
from functools import cache
from pathlib import Path

from codenav.files import safe_relative

__all__ = ["TRUST_MAP_ENV", "foreign_rows", "key_path", "new_stamp", "stamped",
           "trust_map_from_env"]

log = logging.getLogger("codenav.store")

TRUST_MAP_ENV = "CODENAV_TRUST_MAP"
_KEY_BYTES = 32
_lock = threading.Lock()


def trust_map_from_env() -> bool:
    return os.environ.get(TRUST_MAP_ENV, "").strip().lower() in ("1", "true", "yes")


def key_path() -> Path:
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "codenav" / "map-key"


@cache
def _key() -> bytes:
    """This user's key, made on first use; a key of this process alone when it cannot be
    kept (maps written earlier are then rebuilt, said once)."""
    path = key_path()
    with _lock:
        try:
            return _read_or_make(path)
        except OSError as exc:
            log.warning("cannot keep codenav's map key at %s (%s): maps written by earlier "
                        "runs will be rebuilt; set XDG_STATE_HOME to a folder you can write",
                        path, exc.strerror or exc)
            return secrets.token_bytes(_KEY_BYTES)


def _read_or_make(path: Path) -> bytes:
    existing = _read_key(path)
    if existing is not None:
        return existing
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    try:
        os.write(fd, secrets.token_bytes(_KEY_BYTES))
        os.fsync(fd)
    finally:
        os.close(fd)
    try:
        os.link(temporary, path)  # whole or not at all; another process's key wins a race
    except FileExistsError:
        pass
    finally:
        os.unlink(temporary)
    made = _read_key(path)
    if made is None:
        raise OSError(f"{path} is not a key codenav made")
    return made


def _read_key(path: Path) -> bytes | None:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except FileNotFoundError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid() or \
                info.st_mode & 0o077:
            raise OSError(f"{path} is not a private file of this user")
        data = os.read(fd, _KEY_BYTES + 1)
    finally:
        os.close(fd)
    if len(data) != _KEY_BYTES:
        raise OSError(f"{path} does not hold a key")
    return data


def _sign(map_id: str) -> str:
    return hmac.new(_key(), f"codenav map {map_id}".encode(), hashlib.sha256).hexdigest()


def new_stamp(map_id: str | None) -> dict[str, str]:
    """The meta rows that mark a map as written here (``map_id`` kept when it has one)."""
    map_id = map_id or secrets.token_hex(16)
    return {"map_id": map_id, "origin": _sign(map_id)}


def stamped(meta: dict[str, str]) -> bool:
    """Whether ``meta`` carries this user's stamp: the map was written by codenav here."""
    map_id, origin = meta.get("map_id", ""), meta.get("origin", "")
    return bool(map_id and origin) and hmac.compare_digest(origin, _sign(map_id))


def foreign_rows(conn: sqlite3.Connection, expected: dict[str, str]) -> str | None:
    """What makes an unstamped map unfit to serve even when trusted, or None: schema objects
    that are not codenav's (``expected``: name -> CREATE statement; views and triggers run
    code of their own on every read or write), or a file path that is absolute, climbs out
    with ``..`` or is otherwise not a plain relative path."""
    for kind, name, sql in conn.execute(
            "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"):
        if expected.get(name) != " ".join((sql or "").split()):
            return f"its {kind} {name!r} is not one codenav makes"
    for (path,) in conn.execute("SELECT path FROM files"):
        if not isinstance(path, str) or not safe_relative(path):
            return f"it maps a file outside the root ({str(path)[:200]!r})"
    return None
