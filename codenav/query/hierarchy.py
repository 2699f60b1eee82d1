"""Who calls what, and which types derive from which: from a language server when it can, else
from the map's resolved edges (calls, inherits), as plain trees and lists."""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Collection
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from codenav.errors import SymbolNotFound
from codenav.index.languages import by_code, family
from codenav.lsp.convert import place
from codenav.model import CALLABLE_KINDS, TYPE_KINDS
from codenav.query.live import Target
from codenav.query.locate import (
    GUESSED,
    MAP_ONLY,
    Located,
    aliases_of,
    declarations_of,
    enclosing_scopes,
    merged_folded,
)
from codenav.store.read import MapReader, Node

if TYPE_CHECKING:
    from lsprotocol import types as T

__all__ = ["MAX_SITES", "Call", "Related", "Site", "TypeEntry", "calls_only", "classless_bases",
           "lsp_calls", "lsp_types",
           "map_calls", "map_types", "merged_calls", "merged_declarations", "root_node"]

MAX_CALLS = 400  # nodes in one call tree, whatever the depth
MAX_SITES = 40  # call sites listed per edge (beyond: counted, `sites:N`)
MAX_TYPES = 300
_MIN_REQUEST_S = 0.5  # below this much time left, a hierarchy stops going deeper


@dataclass(frozen=True, slots=True)
class Site:
    path: str
    line: int
    col: int
    guessed: bool = False  # the map matched this call by name alone


@dataclass(frozen=True, slots=True)
class Related:
    """A node a hierarchy names: the map's (``node``), or what a language server called it
    (``server``: its name, kind, place and ``detail``; the map's node where the map has a
    definition there; ``external`` outside the root)."""

    node: Node | None
    name: str
    kind: str
    path: str
    line: int
    col: int
    server: bool = False
    detail: str | None = None
    external: bool = False


@dataclass(frozen=True, slots=True)
class Call:
    """A caller (incoming) or callee (outgoing), where the calls are (``sites``: the first
    ``MAX_SITES``, ``more_sites`` beyond), its own calls one level further, and its mark
    when a server's answer was completed from the map."""

    other: Related
    sites: tuple[Site, ...]
    more_sites: int = 0
    children: tuple[Call, ...] = ()
    mark: str | None = None  # MAP_ONLY: the map's alone, a server answered without it;
    #                          GUESSED: every call site matched by name alone


@dataclass(frozen=True, slots=True)
class TypeEntry:
    """A supertype or subtype, ``level`` steps away (1: direct)."""

    related: Related
    level: int


def merged_declarations(types: list[TypeEntry]) -> list[TypeEntry]:
    """``types`` with TypeScript's merged declarations as one (``merged_folded``): an
    ``interface X`` beside a ``class X`` of the same file and level is the class's own
    declaration, not a second subtype."""
    return merged_folded(types, lambda entry: (entry.related.kind, (
        entry.related.path, entry.related.name, entry.level)))


def root_node(located: Located) -> Node:
    if located.node is None:
        raise SymbolNotFound(f"{located.name!r} is not a definition in the map",
                             hint="Point at a function, method or class (map_search finds it).")
    return located.node


def _mapped(node: Node) -> Related:
    return Related(node, node.name, node.kind, node.path, node.name_line, node.name_col)


# ------------------------------------------------------------------------------ calls

def map_calls(reader: MapReader, node: Node, direction: str, depth: int) -> list[Call]:
    """Callers (incoming) or callees (outgoing) of ``node`` from the map's call edges, most
    central first, ``depth`` levels deep."""
    return _map_calls(reader, node, direction, depth, [MAX_CALLS], {node.id})


def _map_calls(reader: MapReader, node: Node, direction: str, depth: int, budget: list[int],
               seen: set[int]) -> list[Call]:
    incoming = direction == "incoming"
    sites: dict[int, list[Site]] = {}
    # (a call through another name of it is its call: `get_group_all = _c.get_group_all`;
    # a call of an overload is a call of the function: awilix's loadModules, asked at its
    # first signature, had no callers while the calls named the implementation: run 68)
    called_ids = [node.id]
    if incoming:
        lang = by_code(node.lang)
        if lang is not None and lang.overloads == "signatures":  # (TypeScript's: one
            # symbol; Java's are each its own, Rust's `fmt` of two impls two symbols)
            called_ids += [other.id for other in declarations_of(reader, node, family=False)
                           if other.id != node.id and other.kind in CALLABLE_KINDS]
        called_ids += [alias.id for alias in aliases_of(reader, node)]
    for called in called_ids:
        for end, hits in reader.call_sites(called, incoming).items():
            sites.setdefault(end, []).extend(
                Site(hit.path, hit.line, hit.col, bool(hit.guessed)) for hit in hits)
    if incoming:  # a caller is a function, method, class or file: a call in
        # `const d = f()` inside a callback is the function's (or the file's) around it
        merged: dict[int, list[Site]] = {}
        enclosing = enclosing_scopes(reader, set(sites))
        for scope, found in sorted(sites.items()):
            around = enclosing.get(scope)
            merged.setdefault(around.id if around is not None else scope, []).extend(found)
        sites = {scope: sorted(found, key=lambda s: (s.path, s.line, s.col))
                 for scope, found in merged.items()}
    others = reader.nodes_by_id(sites)
    ranked = sorted(others.values(), key=lambda n: (-n.hub, n.nid))
    out = []
    for other in ranked:
        if budget[0] <= 0:
            break
        budget[0] -= 1
        children: list[Call] = []
        if depth > 1 and other.id not in seen:
            seen.add(other.id)
            children = _map_calls(reader, other, direction, depth - 1, budget, seen)
        found = sites[other.id]
        mark = GUESSED if all(site.guessed for site in found) else None
        out.append(Call(_mapped(other), tuple(found[:MAX_SITES]),
                        max(0, len(found) - MAX_SITES), tuple(children), mark))
    return out


def merged_calls(server: list[Call], mapped: list[Call], incoming: bool) -> list[Call]:
    """A server's callers (or callees) completed by the map's: one the map has that the
    server did not report — a call site in a file outside the server's project, a call on
    a receiver the server cannot type — is added, marked ``map`` (or ``name`` when the map
    matched it by name alone). Two answers name the same call when they share a node, or a
    call site. Callers (``incoming``) are the innermost: where the server names a function
    around a call site the map places in a function nested in it (a function expression a
    server does not name: ``const each = (async function* () {…}) as T``), the call site
    goes to the map's, confirmed by the server."""
    if incoming:
        server = _innermost(server, mapped)
    nodes = {call.other.node.id for call in server if call.other.node is not None}
    # a caller is one per call site's line; a line holds several callees (`len(a.send(x))`):
    # outgoing calls are told apart by their column
    sites = {_site_key(site, incoming) for call in server for site in call.sites}
    extra = [replace(call, mark=call.mark or MAP_ONLY) for call in mapped
             if (call.other.node is None or call.other.node.id not in nodes)
             and not any(_site_key(site, incoming) in sites for site in call.sites)]
    return [*server, *extra]


def calls_only(reader: MapReader, node: Node, server: list[Call]) -> list[Call]:
    """A server's callers of ``node`` without the sites where the map reads the name as a
    use that is no call: TypeScript's call hierarchy counts a method handed out as a value
    (cannon-es's getters ``return this.convexConvex`` were three callers of it), nor where
    the map links every call of the name on the line to another definition (a sibling's
    or the interface's: a TypeScript server answers a member's whole family). A site the
    map has no use of the name on, or cannot type, is kept (the server's word stands)."""
    paths = sorted({site.path for call in server for site in call.sites})
    kinds: dict[tuple[str, int], set[str]] = defaultdict(set)
    targets: dict[tuple[str, int], set[int | None]] = defaultdict(set)
    for path, line, kind, target in reader.name_lines(node.name, paths):
        kinds[(path, line)].add(kind)
        if kind in _CALLING:
            targets[(path, line)].add(target)
    # a call the map links to another definition so named is not one of ours, though a
    # TypeScript server answers a member's whole family (bolt-js's `ack.bind()` on a
    # SocketModeResponseAck, `this.receiver.start()` on the Receiver interface: run 69)
    # (its namesakes — overloads, a setter — and the node itself: which overload a call
    # reaches the map only guesses, the server knows)
    ours = {other.id for other in reader.family(node)} | \
        {alias.id for alias in aliases_of(reader, node)}

    def another(site: Site) -> bool:
        found = targets.get((site.path, site.line), set())
        return bool(found) and None not in found and not found & ours

    out = []
    for call in server:
        sites = tuple(site for site in call.sites if not another(site) and not (
            (found := kinds.get((site.path, site.line))) and not found & _CALLING))
        if sites or call.more_sites:
            out.append(call if len(sites) == len(call.sites) else replace(call, sites=sites))
    return out


_CALLING = frozenset({"call", "decorator"})


def _site_key(site: Site, incoming: bool) -> tuple[str, int, int]:
    return (site.path, site.line, 0 if incoming else site.col)


def _innermost(server: list[Call], mapped: list[Call]) -> list[Call]:
    """``server``'s callers with each call site the map places in a function nested in the
    server's caller moved to that function (the map's caller, unmarked); so is a site whose
    server caller the map has no definition for (a lambda, an anonymous callback: the named
    function around it is the caller)."""
    placed = {(site.path, site.line): call for call in mapped if call.other.node is not None
              and not call.more_sites for site in call.sites}
    out: list[Call] = []
    moved: dict[int, list[Site]] = {}
    for call in server:
        outer = call.other.node
        keep: list[Site] = []
        for site in call.sites:
            inner = placed.get((site.path, site.line))
            node = inner.other.node if inner is not None else None
            nested = outer is not None and node is not None and call.more_sites == 0 and \
                node.id != outer.id and node.path == outer.path and \
                outer.line <= node.line and node.end_line <= outer.end_line
            if node is not None and (nested or (outer is None and not call.other.external)):
                moved.setdefault(node.id, []).append(site)
            else:
                keep.append(site)
        if keep:
            out.append(call if len(keep) == len(call.sites) else replace(call, sites=tuple(keep)))
    for call in mapped:
        node = call.other.node
        if node is None or node.id not in moved:
            continue
        at = next((i for i, kept in enumerate(out)  # the server named it too: one row
                   if kept.other.node is not None and kept.other.node.id == node.id), None)
        if at is None:
            out.append(replace(call, sites=tuple(moved[node.id]), mark=None))
        else:
            out[at] = replace(out[at], sites=tuple(sorted(
                {*out[at].sites, *moved[node.id]}, key=lambda s: (s.path, s.line, s.col))))
    return out


def _server_item(reader: MapReader, root: Path, item: Any) -> Related:
    """A server's hierarchy item as a Related: the map's node and kind where a definition's
    name is at its place (the map's vocabulary, not the server's)."""
    from lsprotocol import types as T  # lazily: 0.6 s to import
    where = place(item.uri, item.selection_range, root)
    kind = T.SymbolKind(item.kind).name.lower()
    node = None
    if where.inside:
        stat = reader.file(where.path)
        node = reader.def_at(stat.id, where.line, where.col) if stat is not None else None
    return Related(node, item.name, node.kind if node is not None else kind, where.path,
                   where.line, where.col, server=True, detail=item.detail or None,
                   external=not where.inside)


class _Clock:
    """One deadline shared by every request of a hierarchy (prepare, then one per item)."""

    def __init__(self, timeout: float) -> None:
        self.end = time.monotonic() + timeout

    def left(self) -> float:
        return self.end - time.monotonic()

    def expired(self) -> bool:
        return self.left() < _MIN_REQUEST_S


async def _prepare(pool: Any, target: Target, method: str, params: Any, clock: _Clock) -> Any:
    """The items a hierarchy starts from (``prepareCallHierarchy``/``prepareTypeHierarchy``)."""
    return await pool.request(target.code, target.path, method,
                              lambda uri: params(**target.at(uri)), timeout=clock.left(),
                              wait_loaded=True)


async def lsp_calls(pool: Any, target: Target, root: Path, reader: MapReader, direction: str,
                    depth: int, timeout: float) -> list[Call]:
    """A language server's call hierarchy, ``depth`` levels, within ``timeout`` for all."""
    from lsprotocol import types as T  # lazily: 0.6 s to import
    clock = _Clock(timeout)
    prepared = await _prepare(pool, target, T.TEXT_DOCUMENT_PREPARE_CALL_HIERARCHY,
                              T.CallHierarchyPrepareParams, clock)
    if not prepared:
        return []
    budget = [MAX_CALLS]
    method = (T.CALL_HIERARCHY_INCOMING_CALLS if direction == "incoming"
              else T.CALL_HIERARCHY_OUTGOING_CALLS)

    async def level(item: T.CallHierarchyItem, left: int, seen: set[str]) -> list[Call]:
        params: Any = (T.CallHierarchyIncomingCallsParams(item=item) if direction == "incoming"
                       else T.CallHierarchyOutgoingCallsParams(item=item))
        calls = await pool.request(target.code, target.path, method, lambda _uri: params,
                                   timeout=max(clock.left(), _MIN_REQUEST_S)) or []
        out = []
        for call in calls:
            if budget[0] <= 0:
                break
            budget[0] -= 1
            other = call.from_ if direction == "incoming" else call.to
            related = _server_item(reader, root, other)
            # Incoming: ranges are in the caller; outgoing: in the item itself.
            where = other.uri if direction == "incoming" else item.uri
            ranges = list({(r.start.line, r.start.character): r
                           for r in call.from_ranges}.values())
            sites = []
            for rng in ranges[:MAX_SITES]:
                site = place(where, rng, root)
                sites.append(Site(site.path, site.line, site.col))
            key = f"{other.uri}#{other.selection_range.start.line}:{other.name}"
            children: list[Call] = []
            if left > 1 and key not in seen and not clock.expired():
                seen.add(key)
                children = await level(other, left - 1, seen)
            out.append(Call(related, tuple(sites), max(0, len(ranges) - MAX_SITES),
                            tuple(children)))
        out.sort(key=lambda c: -(c.other.node.hub if c.other.node is not None else 0.0))
        return out

    return await level(prepared[0], depth, set())


# ------------------------------------------------------------------------------ types

def map_types(reader: MapReader, node: Node, direction: str) -> list[TypeEntry]:
    """Transitive supertypes or subtypes through the map's inheritance edges, nearest first,
    each with its level."""
    out: list[TypeEntry] = []
    frontier = [node, *_merged_types(reader, node)]
    seen, level = {n.id for n in frontier}, 0
    while frontier and len(out) < MAX_TYPES and level < 10:
        level += 1
        found: dict[int, Node] = {}
        for current in frontier:
            if direction == "supertypes":
                ids = [h.target_id for h in reader.refs_from(current.id)
                       if h.kind == "inheritance" and h.target_id is not None]
            else:
                ids = [h.scope_id for h in reader.refs_to(current.id)
                       if h.kind == "inheritance" and h.scope_id is not None]
            # an anonymous class inside a function (`return class extends Base {}`) is no
            # subtype the map can name: its function is not one either
            others = [n for n in reader.nodes_by_id(i for i in ids if i not in seen).values()
                      if n.kind not in CALLABLE_KINDS]
            others += [n for n in _implicit(reader, current, direction) if n.id not in seen]
            for other in others:
                found[other.id] = other
                seen.add(other.id)
        frontier = sorted(found.values(), key=lambda n: (-n.hub, n.nid))
        out += [TypeEntry(_mapped(n), level) for n in frontier]
    return merged_declarations(out[:MAX_TYPES])


_MERGING = frozenset({"class", "interface"})


def _merged_types(reader: MapReader, node: Node) -> list[Node]:
    """The other declarations one TypeScript type merges (`interface Path` beside `class
    Path` in one file: zrender's subclasses extend the interface's symbol, which is the
    class's too), whose edges are the type's own."""
    if node.kind not in _MERGING or family(node.lang) != family("ts"):
        return []
    return [other for other in reader.family(node)
            if other.id != node.id and other.kind in _MERGING]


def _implicit(reader: MapReader, node: Node, direction: str) -> list[Node]:
    """Where a language has no ``implements`` (Go): an interface's subtypes are the types
    having all its methods, and a type's supertypes the interfaces it has all methods of."""
    lang = by_code(node.lang)
    if lang is None or not lang.implicit_interfaces or node.kind == "method":
        return []
    if direction == "subtypes":
        if node.kind != "interface":
            return []
        return [n for n in reader.implementers(node.lang, reader.method_names(node))
                if n.id != node.id]
    return [n for n in reader.interfaces_of(node.lang, reader.method_names(node))
            if n.id != node.id]


async def lsp_types(pool: Any, target: Target, root: Path, reader: MapReader, direction: str,
                    timeout: float, levels: int = 10) -> list[TypeEntry]:
    """A language server's type hierarchy, level by level (``levels`` at most), within
    ``timeout`` for all."""
    from lsprotocol import types as T  # lazily: 0.6 s to import
    clock = _Clock(timeout)
    prepared = await _prepare(pool, target, T.TEXT_DOCUMENT_PREPARE_TYPE_HIERARCHY,
                              T.TypeHierarchyPrepareParams, clock)
    if not prepared:
        return []
    method = (T.TYPE_HIERARCHY_SUPERTYPES if direction == "supertypes"
              else T.TYPE_HIERARCHY_SUBTYPES)
    out: list[TypeEntry] = []
    frontier, seen, level = [prepared[0]], set(), 0
    while frontier and len(out) < MAX_TYPES and level < levels and not clock.expired():
        level += 1
        following = []
        for item in frontier:
            if clock.expired():
                break
            params: Any = (T.TypeHierarchySupertypesParams(item=item)
                           if direction == "supertypes"
                           else T.TypeHierarchySubtypesParams(item=item))
            for other in await pool.request(target.code, target.path, method,
                                            lambda _uri, p=params: p,
                                            timeout=max(clock.left(), _MIN_REQUEST_S)) or []:
                key = f"{other.uri}#{other.selection_range.start.line}:{other.name}"
                if key in seen:
                    continue
                seen.add(key)
                out.append(TypeEntry(_server_item(reader, root, other), level))
                following.append(other)
        frontier = following
    return out


def classless_bases(reader: MapReader, node: Node, files: Callable[[str], bool],
                    listed: Collection[int] = ()) -> tuple[list[tuple[str, int]],
                                                          set[tuple[str, int]]]:
    """Where ``node`` is named among a class's bases in a class the map holds no node for
    (its reference sits in a function, not a class: a class expression in a place the map
    does not define one) — subtypes the answer cannot list, said instead of "none" — and
    where the types ``listed`` (ids) name it (a file's own default class, `export default
    class extends Base`, is its module: listed, not classless)."""
    found = [hit for hit in reader.refs_to(node.id)
             if hit.kind == "inheritance" and files(hit.path)]
    scopes = reader.nodes_by_id({hit.scope_id for hit in found})
    strays: set[tuple[str, int]] = set()
    named: set[tuple[str, int]] = set()
    for hit in found:
        scope = scopes.get(hit.scope_id)
        if hit.scope_id in listed:
            named.add((hit.path, hit.line))
        elif scope is None or scope.kind not in TYPE_KINDS:
            strays.add((hit.path, hit.line))
    return sorted(strays), named
