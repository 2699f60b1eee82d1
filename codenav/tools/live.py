"""Asking a language server for a nav tool, and falling back to the map (docs/contract.md §4–5).

``source``: ``map`` never asks; ``lsp`` insists (its errors are the answer); ``auto`` asks
when the server is ready and otherwise answers from the map at once with a warning naming
why. A server that has not answered anything yet (``warming``) gets a short patience under
``auto``, so that an agent never waits on a cold server. Positions cross between the map's
anchors (1-based lines, 1-based UTF-16 columns, repo-relative files) and LSP's (0-based,
URIs) here and nowhere else.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlparse

from codenav.errors import LspError, LspTimeout, LspUnavailable
from codenav.index.languages import by_extension
from codenav.store.read import MapReader, Node
from codenav.tools.common import Freshness, Located
from codenav.workspace import Workspace

if TYPE_CHECKING:
    from lsprotocol import types as T

    from codenav.lsp.pool import LspPool

__all__ = ["Live", "PoolCall", "Target", "ask", "ask_at", "from_range",
           "location_item", "locations", "position_request", "target_of"]

WARMING_PATIENCE = 3.0  # seconds `auto` waits on a server that has not answered yet


@dataclass(frozen=True, slots=True)
class Target:
    """Where to ask: a repo-relative file, a 1-based line and UTF-16 column, its language."""

    path: str
    line: int
    col: int
    code: str

    def position(self) -> T.Position:
        from lsprotocol import types as T  # lazily: 0.6 s to import
        return T.Position(line=self.line - 1, character=self.col - 1)

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


@dataclass(slots=True)
class Live:
    """What asking a server came to: ``answered`` with ``result``, or ``notes`` saying why
    the map answers instead."""

    answered: bool
    result: Any = None
    notes: list[str] = field(default_factory=list)


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
    map answers without a note. ``call_for(target)`` makes the request."""
    target = target_of(located)
    if target is None:
        return Live(False)
    if located.stale and located.path is None and source == "auto":
        # the map's place of the definition is out of date: a server asked there would
        # answer about whatever is there now
        return _from_map(ws, f"{target.path} changed since it was indexed (the map's place of "
                             f"{located.name!r} may be off)", what)
    return await ask(ws, target, source, what, call_for(target), capability=capability,
                     wide=wide)


async def ask(ws: Workspace, target: Target, source: str, what: str, call: PoolCall,
              capability: str | None = None, wide: bool = False) -> Live:
    """Run ``call(pool, timeout)`` as ``source`` says. ``lsp`` raises what the server
    could not do; ``auto`` turns it into a note and the map answers. ``capability`` is the
    ``ServerCapabilities`` field the request needs (a server without it is not asked).
    ``wide`` questions span files: their deadline is the long one, and ``auto`` does not
    ask them of a server still loading the workspace (its answer would be partial)."""
    live = await _ask(ws, target, source, what, call, capability, wide)
    return live if isinstance(live, Live) else Live(True, live)


async def _ask(ws: Workspace, target: Target, source: str, what: str, call: PoolCall,
               capability: str | None, wide: bool) -> Any:
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
            return _from_map(ws, f"source:'lsp' starts {server}")
        if state in ("idle", "starting"):
            pool.ensure(target.code, target.path)
            return _from_map(ws, f"{server} is starting")
        if state in ("not_installed", "disabled", "untrusted", "failed", "none"):
            reason = {"not_installed": f"{server} is not installed ({family.install_hint})"
                      if family else "no server is installed",
                      "disabled": f"{server} is disabled by configuration",
                      "untrusted": f"{family.untrusted if family else server}: it starts only "
                                   "for a trusted project",
                      "failed": f"{server} crashed repeatedly and is disabled",
                      "none": "no language server serves this language"}[state]
            return _from_map(ws, reason)
        if state == "warming" and wide:
            pool.ensure(target.code, target.path)  # a server loading lazily starts now
            return _from_map(ws, f"{server} is still loading the workspace")
        if state == "warming":
            timeout = min(timeout, WARMING_PATIENCE)
    try:
        if capability is not None and state in ("warming", "ready") and \
                pool.supports(target.code, capability) is False:
            raise LspUnavailable(f"{server} does not provide {what}", language=target.code,
                                 hint="Pass source:'map' for the map's answer.")
        return await pool.run(call(pool, timeout))
    except LspError as exc:
        if source == "lsp":
            raise
        why = (f"{server} is still warming up" if state == "warming" and
               isinstance(exc, LspTimeout) else exc.message)
        if isinstance(exc, LspUnavailable) and exc.extra.get("file"):
            why = f"{why.rstrip()} ({exc.hint})"  # no project for the file: what to run
        return _from_map(ws, why, what)


def _from_map(ws: Workspace, reason: str, what: str | None = None) -> Live:
    """The map answers; why is said once per session (``source`` says it every time)."""
    note = f"source:'map'{f' for {what}' if what else ''} because {reason}"
    return Live(False, notes=[note] if ws.first_time(note) else [])


def _path_of(uri: str, root: Path) -> tuple[str, bool]:
    """(repo-relative path, True) for a file under root; (absolute path, False) otherwise."""
    parsed = urlparse(uri)
    absolute = Path(unquote(parsed.path)) if parsed.scheme == "file" else Path(uri)
    try:
        return absolute.resolve().relative_to(root).as_posix(), True
    except ValueError:
        return str(absolute), False


def from_range(uri: str, rng: T.Range, root: Path) -> tuple[str, bool, int, int, int, int]:
    """(path, inside root, line, col, end line, end col) in the map's convention."""
    path, inside = _path_of(uri, root)
    return (path, inside, rng.start.line + 1, rng.start.character + 1, rng.end.line + 1,
            rng.end.character + 1)


def location_item(reader: MapReader, ws: Workspace, uri: str, rng: T.Range,
                  node_cache: dict[str, Any] | None = None,
                  fresh: Freshness | None = None) -> dict[str, Any]:
    """An LSP location as an anchor, with the map's node id when a definition's name is
    there; files outside the root are marked ``external``, files whose map entry is stale
    (with ``fresh``) ``stale``."""
    path, inside, line, col, end_line, _ = from_range(uri, rng, ws.root)
    item: dict[str, Any] = {"file": path, "line": line, "col": col}
    if end_line != line:
        item["endLine"] = end_line
    if not inside:
        item["external"] = True
        return item
    if fresh is not None:
        fresh.check({path})
        fresh.mark(item, path)
    stats = node_cache if node_cache is not None else {}
    if path not in stats:
        stats[path] = reader.file(path)
    stat = stats[path]
    if stat is not None:
        node: Node | None = reader.def_at(stat.id, line, col)
        if node is not None and node.name_line == line:
            item["id"] = node.nid
            item["kind"] = node.kind
    return item


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
