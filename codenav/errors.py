"""The errors codenav reports, one class per stable code of docs/contract.md §3.

    CodenavError                  INTERNAL      a bug; nothing the caller can fix
    ├── MapNotBuilt               MAP_NOT_BUILT no map yet (first build running, or never built)
    │   ├── MapIncompatible       MAP_NOT_BUILT the map was written by a newer codenav
    │   ├── MapDamaged            MAP_NOT_BUILT the map's file is damaged (SQLite: malformed);
    │   │                                       it is rebuilt from nothing
    │   ├── MapUntrusted          MAP_NOT_BUILT the map was not written by codenav on this
    │   │                                       machine (shipped in a repository): rebuilt
    │   │                                       before it is served, unless --trust-map
    │   ├── MapRefused            MAP_NOT_BUILT the map's file is not codenav's to write (another
    │   │                                       application's database, a link); ``codenav
    │   │                                       index`` exits 2
    │   └── RootRefused           MAP_NOT_BUILT the root is /, the home folder, a pseudo file
    │                                           system or a huge tree without .git (codenav/
    │                                           roots.py); the commands exit 2
    ├── NodeNotFound              NODE_NOT_FOUND
    ├── BadNodeId                 BAD_NODE_ID
    ├── FileNotFound              FILE_NOT_FOUND
    ├── FileDeleted               FILE_DELETED
    ├── SymbolNotFound            SYMBOL_NOT_FOUND
    ├── LspError                  (abstract)
    │   ├── LspUnavailable        LSP_UNAVAILABLE
    │   ├── LspFailed             LSP_FAILED
    │   └── LspTimeout            LSP_TIMEOUT
    ├── OutOfRoot                 OUT_OF_ROOT
    ├── BadArgs                   BAD_ARGS
    └── Internal                  INTERNAL

Foreign exceptions (sqlite3, tree-sitter, subprocess, JSON-RPC) are translated into these
where they enter codenav, with ``raise ... from exc``. Every error renders as the ``error``
object of the envelope through :meth:`CodenavError.to_dict`.
"""

from __future__ import annotations

from typing import Any, ClassVar

__all__ = [
    "CODES",
    "BadArgs",
    "BadNodeId",
    "CodenavError",
    "FileDeleted",
    "FileNotFound",
    "Internal",
    "LspError",
    "LspFailed",
    "LspTimeout",
    "LspUnavailable",
    "MapDamaged",
    "MapIncompatible",
    "MapNotBuilt",
    "MapRefused",
    "MapUntrusted",
    "NodeNotFound",
    "OutOfRoot",
    "RootRefused",
    "SymbolNotFound",
]


class CodenavError(Exception):
    """Root of every error codenav reports; ``code`` is stable across versions."""

    code: ClassVar[str] = "INTERNAL"
    default_hint: ClassVar[str] = "This is a bug in codenav; please report it."

    def __init__(self, message: str, *, hint: str | None = None, **extra: Any) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint if hint is not None else self.default_hint
        self.extra = extra

    def to_dict(self) -> dict[str, Any]:
        """The envelope's ``error`` object: code, message, hint, then any extra fields."""
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        out.update(self.extra)
        out["hint"] = self.hint
        return out


class MapNotBuilt(CodenavError):
    """There is no map yet: the first build is running, or none was ever made."""

    code = "MAP_NOT_BUILT"
    default_hint = "Run map_rebuild (or `codenav index` in the root)."


class MapIncompatible(MapNotBuilt):
    """The map file was written by a newer codenav; it is left untouched."""

    default_hint = "Upgrade codenav, or pass --db to use a separate map file."


class MapDamaged(MapNotBuilt):
    """The map's file is damaged (a disk fault, a copy cut short): SQLite calls it
    malformed. It is derived data: ``codenav index`` deletes and rebuilds it."""

    default_hint = ("Rebuild it: `codenav index` (or map_rebuild); codenav mcp and codenav lsp "
                    "rebuild it by themselves.")


class MapUntrusted(MapNotBuilt):
    """The map carries no stamp of this user's codenav (``store/origin.py``): it came with
    the repository or from another machine, and is not served until rebuilt or trusted."""

    default_hint = ("Rebuild it: `codenav index` (codenav mcp does so by itself); if it comes "
                    "from your own CI, pass --trust-map (or set CODENAV_TRUST_MAP=1).")


class MapRefused(MapNotBuilt):
    """The map's file is not codenav's to write: a database another application made, or a
    ``.codenav`` folder or map file that a symlink leads out of the root. Nothing is written."""

    default_hint = ("Pass --db PATH (or set CODENAV_DB) to keep the map elsewhere, or move "
                    "the file away; codenav only ever rebuilds a database it made.")


class RootRefused(MapNotBuilt):
    """codenav will not map this root (codenav/roots.py): nothing is read or written."""

    default_hint = "Start codenav in the repository, or pass --allow-large-root."


class NodeNotFound(CodenavError):
    code = "NODE_NOT_FOUND"
    default_hint = "Ids come from map_search or map_overview; the map may be stale (map_rebuild)."


class BadNodeId(CodenavError):
    code = "BAD_NODE_ID"
    default_hint = ("Node ids look like <lang>:<relpath>[#qualifiedName], "
                    "e.g. py:src/app.py#User.save")


class FileNotFound(CodenavError):
    code = "FILE_NOT_FOUND"
    default_hint = "Paths are relative to the root; map_search finds a symbol's file."


class FileDeleted(CodenavError):
    code = "FILE_DELETED"
    default_hint = "The file was indexed but is gone from disk; map_search for its new location."


class SymbolNotFound(CodenavError):
    code = "SYMBOL_NOT_FOUND"
    default_hint = "Check the position with map_outline, or map_rebuild if the file changed."


class LspError(CodenavError):
    """A language server could not answer; map_* tools still can."""


class LspUnavailable(LspError):
    code = "LSP_UNAVAILABLE"
    default_hint = "Install the language server, or pass source:'map'."


class LspFailed(LspError):
    code = "LSP_FAILED"
    default_hint = "The server crashed repeatedly and was disabled; map_status shows its stderr."


class LspTimeout(LspError):
    code = "LSP_TIMEOUT"
    default_hint = "Retry later, or pass source:'map' for an immediate static answer."


class OutOfRoot(CodenavError):
    code = "OUT_OF_ROOT"
    default_hint = "Only paths inside the server's root can be used."


class BadArgs(CodenavError):
    code = "BAD_ARGS"
    default_hint = "See the tool's input schema for the expected arguments."


class Internal(CodenavError):
    code = "INTERNAL"


CODES: frozenset[str] = frozenset(
    cls.code
    for cls in (
        MapNotBuilt, NodeNotFound, BadNodeId, FileNotFound, FileDeleted, SymbolNotFound,
        LspUnavailable, LspFailed, LspTimeout, OutOfRoot, BadArgs, Internal,
    )
)
