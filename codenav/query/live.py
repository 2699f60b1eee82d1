"""Asking a language server, and when the map answers instead (docs/contract.md §4–5).

``source``: ``map`` never asks; ``lsp`` insists (its errors are the answer); ``auto`` asks
when the server is ready and otherwise lets the map answer at once, saying why in a
:class:`Fallback` (the renderer words it, once per session). A server that has not answered
anything yet (``warming``) gets a short patience under ``auto``, so that an agent never
waits on a cold server. What a server names is placed in the map's terms here
(:func:`located_at`: its file, line and column, and the map's node when a definition's name
is there) — the one mapping from LSP locations to nodes.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from codenav.errors import LspError, LspTimeout, LspUnavailable
from codenav.index.languages import by_extension
from codenav.lsp.convert import lsp_position, place
from codenav.query.fresh import Freshness
from codenav.query.locate import Located
from codenav.store.read import FileStat, MapReader, Node
from codenav.workspace import Workspace

if TYPE_CHECKING:
    from lsprotocol import types as T

    from codenav.lsp.pool import LspPool

__all__ = ["Fallback", "Live", "PoolCall", "ServerPlace", "Target", "ask", "ask_at",
           "located_at", "locations", "places", "position_request", "target_of"]

WARMING_PATIENCE = 3.0  # seconds `auto` waits on a server that has not answered yet


@dataclass(frozen=True, slots=True)
class Target:
    """Where to ask: a repo-relative file, a 1-based line and UTF-16 column, its language."""

    path: str
    line: int
    col: int
    code: str

    def position(self) -> T.Position:
        return lsp_position(self.line, self.col)

    def at(self, uri: str) -> dict[str, Any]:
        """The ``text_document`` and ``position`` fields of a request about this place in
        document ``uri`` (its LSP parameters take them as keyword arguments)."""
        from lsprotocol import types as T  # lazily: 0.6 s to import
        return {"text_document": T.TextDocumentIdentifier(uri=uri),
                "position": self.position()}


def target_of(located: Located) -> Target | None:
    """The position a language server is asked about: the one given, else the node's name."""
    if located.path is not None and located.line is not None and located.col is not None:
        path, line, col = located.path, located.line, located.col
    elif located.node is not None:
        node = located.node
        path, line, col = node.path, node.name_line, node.name_col
    else:
        return None
    if located.node is not None and located.node.path == path:
        return Target(path, line, col, located.node.lang)  # the map's (a C++ .h header)
    lang = by_extension(path)
    return Target(path, line, col, lang.code) if lang is not None else None


@dataclass(frozen=True, slots=True)
class Fallback:
    """Why the map answers instead of a language server. ``why`` is one of: ``would_start``
    (a one-shot call does not start servers for ``auto``), ``warm_starting`` (a warm server
    is starting them for later shell calls), ``starting``, ``not_installed``,
    ``disabled``, ``untrusted``, ``failed``, ``none`` (no server serves the language),
    ``loading`` (still loading the workspace: a wide question's answer would be partial),
    ``warming`` (it did not answer within the patience a cold server gets), ``stale_place``
    (the map's place of the definition comes from a file that changed), ``refused`` (the
    server could not answer: ``detail`` says what it said)."""

    why: str
    server: str
    what: str | None = None  # the request, when the server was asked
    detail: str = ""  # an install hint, why a server is untrusted, its error, a file


@dataclass(frozen=True, slots=True)
class Live:
    """What asking a server came to: ``answered`` with ``result``, or the map answers, with
    ``fallback`` saying why (None when nothing fell back: ``source: 'map'``, servers off)."""

    answered: bool
    result: Any = None
    fallback: Fallback | None = None


# A request to the pool: ``call(pool, timeout)``.
PoolCall = Callable[["LspPool", float], Coroutine[Any, Any, Any]]


def position_request(target: Target, method: str, build: Callable[[str], Any]) -> PoolCall:
    """A pool call sending ``method`` at ``target`` (``build(uri)`` makes the params)."""
    async def call(pool: LspPool, timeout: float) -> Any:
        return await pool.request(target.code, target.path, method, build, timeout=timeout)
    return call


async def ask_at(ws: Workspace, located: Located, source: str, what: str,
                 call_for: Callable[[Target], PoolCall], *, capability: str | None = None,
                 wide: bool = False) -> Live:
    """``ask`` about ``located`` (its position, else its node's name); with neither, the
    map answers without a fallback. ``call_for(target)`` makes the request. Under ``auto``,
    a place the map has from a file that changed since it was indexed is not asked about:
    a server asked there would answer about whatever is there now."""
    target = target_of(located)
    if target is None:
        return Live(False)
    if located.stale and located.path is None and source == "auto":
        return Live(False, fallback=Fallback("stale_place", "", what,
                                             f"{target.path}\0{located.name}"))
    return await ask(ws, target, source, what, call_for(target), capability=capability,
                     wide=wide)


async def ask(ws: Workspace, target: Target, source: str, what: str, call: PoolCall,
              capability: str | None = None, wide: bool = False) -> Live:
    """Run ``call(pool, timeout)`` as ``source`` says. ``lsp`` raises what the server
    could not do; ``auto`` turns it into a fallback and the map answers. ``capability`` is
    the ``ServerCapabilities`` field the request needs (a server without it is not asked).
    ``wide`` questions span files: their deadline is the long one, and ``auto`` does not
    ask them of a server still loading the workspace (its answer would be partial)."""
    if source == "map":
        return Live(False)
    pool = ws.pool
    if pool is None:
        if source == "lsp":
            raise LspUnavailable("language servers are off (--lsp off)",
                                 hint="Restart codenav with --lsp auto, or pass source:'map'.")
        return Live(False)  # off by the user's choice: nothing fell back, nothing to say
    timeout = pool.long_deadline if wide else pool.deadline
    state = pool.state(target.code)
    family = pool.family(target.code)
    server = family.servers[0].name if family and family.servers else "a language server"
    if source == "auto":
        if state == "idle" and not ws.lsp_background:
            why = "warm_starting" if ws.warm_elsewhere else "would_start"
            return Live(False, fallback=Fallback(why, server))
        if state in ("idle", "starting"):
            pool.ensure(target.code, target.path)
            return Live(False, fallback=Fallback("starting", server))
        if state in ("not_installed", "disabled", "untrusted", "failed", "none"):
            detail = (family.install_hint if family and state == "not_installed" else
                      (family.untrusted or "") if family and state == "untrusted" else "")
            return Live(False, fallback=Fallback(state, server if family else "", None,
                                                 detail))
        if state == "warming" and wide:
            pool.ensure(target.code, target.path)  # a server loading lazily starts now
            return Live(False, fallback=Fallback("loading", server))
        if state == "warming":
            timeout = min(timeout, WARMING_PATIENCE)
    try:
        if capability is not None and state in ("warming", "ready") and \
                pool.supports(target.code, capability) is False:
            raise LspUnavailable(f"{server} does not provide {what}", language=target.code,
                                 hint="Pass source:'map' for the map's answer.")
        return Live(True, await pool.run(call(pool, timeout)))
    except LspError as exc:
        if source == "lsp":
            raise
        if state == "warming" and isinstance(exc, LspTimeout):
            return Live(False, fallback=Fallback("warming", server, what))
        detail = exc.message
        if isinstance(exc, LspUnavailable) and exc.extra.get("file"):
            detail = f"{detail.rstrip()} ({exc.hint})"  # no project for the file: what to run
        return Live(False, fallback=Fallback("refused", server, what, detail))


@dataclass(frozen=True, slots=True)
class ServerPlace:
    """A place a server named, in the map's terms: the file (absolute when ``external``),
    line, column and end line; the map's node when a definition's name is there; whether
    the map's entry of the file is stale."""

    path: str
    line: int
    col: int
    end_line: int
    end_col: int
    external: bool = False
    node: Node | None = None
    stale: bool = False


def located_at(reader: MapReader, root: Path, uri: str, rng: T.Range,
               files: dict[str, FileStat | None], fresh: Freshness | None = None
               ) -> ServerPlace:
    """``uri`` and ``rng`` (a server's) as a :class:`ServerPlace`; ``files`` caches the
    map's file rows across the places of one answer; with ``fresh``, a file that changed
    since it was indexed is marked."""
    where = place(uri, rng, root)
    if not where.inside:
        return ServerPlace(where.path, where.line, where.col, where.end_line, where.end_col,
                           external=True)
    stale = False
    if fresh is not None:
        fresh.check({where.path})
        stale = where.path in fresh.stale
    if where.path not in files:
        files[where.path] = reader.file(where.path)
    stat = files[where.path]
    node = reader.def_at(stat.id, where.line, where.col) if stat is not None else None
    if node is not None and node.name_line != where.line:
        node = None
    return ServerPlace(where.path, where.line, where.col, where.end_line, where.end_col,
                       node=node, stale=stale)


def places(reader: MapReader, root: Path, result: Any,
           fresh: Freshness | None = None) -> list[ServerPlace]:
    """Every location of a definition/references result, placed (one cache of file rows)."""
    files: dict[str, FileStat | None] = {}
    return [located_at(reader, root, uri, rng, files, fresh)
            for uri, rng in locations(result)]


def locations(result: Any) -> list[tuple[str, T.Range]]:
    """(uri, range) of a definition/references result in any of its LSP shapes."""
    from lsprotocol import types as T  # lazily: 0.6 s to import
    if result is None:
        return []
    items = result if isinstance(result, (list, tuple)) else [result]
    out = []
    for item in items:
        if isinstance(item, T.Location):
            out.append((item.uri, item.range))
        elif isinstance(item, T.LocationLink):
            out.append((item.target_uri, item.target_selection_range))
    return out
