"""nav_call_hierarchy and nav_type_hierarchy: who calls what, and which types derive from
which — from a language server when it can, else derived from the map's resolved edges
(calls, inherits), marked approximate."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from codenav.envelope import Answer, Cut
from codenav.errors import SymbolNotFound
from codenav.index.languages import by_code
from codenav.store.read import MapReader, Node
from codenav.tools.base import CallContext, ToolSpec
from codenav.tools.common import anchor, hub
from codenav.tools.live import FALLBACK_NOTE, PoolCall, Target, ask_at, from_range
from codenav.tools.nav_tools import NavParams, resolved
from codenav.workspace import Workspace

if TYPE_CHECKING:
    from lsprotocol import types as T

__all__ = ["NAV_CALL_HIERARCHY", "NAV_TYPE_HIERARCHY"]

_MAX_CALLS = 400  # nodes in one call tree, whatever the depth
_MAX_SITES = 5  # call sites listed per edge
_MAX_TYPES = 300
_MIN_REQUEST_S = 0.5  # below this much time left, a hierarchy stops going deeper


class CallHierarchyParams(NavParams):
    direction: Literal["incoming", "outgoing"] = Field(
        description="'incoming': who calls it; 'outgoing': what it calls.")
    depth: int = Field(default=1, ge=1, le=3, description="Levels of callers/callees, 1-3.")


class TypeHierarchyParams(NavParams):
    direction: Literal["supertypes", "subtypes"] = Field(
        description="'supertypes': what it derives from; 'subtypes': what derives from it.")


def _root_node(reader: MapReader, located: Any) -> Node:
    if located.node is None:
        raise SymbolNotFound(f"{located.name!r} is not a definition in the map",
                             hint="Point at a function, method or class (map_search finds it).")
    node: Node = located.node
    return node


# ----------------------------------------------------------------------- call hierarchy

def _map_calls(reader: MapReader, node: Node, direction: str, depth: int,
               budget: list[int], seen: set[int]) -> list[dict[str, Any]]:
    """Callers (incoming) or callees (outgoing) of ``node`` from the map's call edges."""
    sites = {other: [anchor(hit.path, hit.line, hit.col) for hit in hits]
             for other, hits in reader.call_sites(node.id, direction == "incoming").items()}
    others = reader.nodes_by_id(sites)
    ranked = sorted(others.values(), key=lambda n: (-n.hub, n.nid))
    out = []
    for other in ranked:
        if budget[0] <= 0:
            break
        budget[0] -= 1
        item: dict[str, Any] = {"id": other.nid, "kind": other.kind,
                                "anchor": anchor(other.path, other.name_line, other.name_col),
                                "hub": hub(other.hub),
                                "callSites": sites[other.id][:_MAX_SITES]}
        if len(sites[other.id]) > _MAX_SITES:
            item["moreCallSites"] = len(sites[other.id]) - _MAX_SITES
        if depth > 1 and other.id not in seen:
            seen.add(other.id)
            children = _map_calls(reader, other, direction, depth - 1, budget, seen)
            if children:
                item["children"] = children
        out.append(item)
    return out


def _item_anchor(ws: Workspace, reader: MapReader, item: T.CallHierarchyItem | T.TypeHierarchyItem,
                 ) -> dict[str, Any]:
    from lsprotocol import types as T  # lazily: 0.6 s to import
    path, inside, line, col, _, _ = from_range(item.uri, item.selection_range, ws.root)
    out: dict[str, Any] = {"name": item.name, "kind": T.SymbolKind(item.kind).name.lower(),
                           "anchor": anchor(path, line, col)}
    if item.detail:
        out["detail"] = item.detail
    if not inside:
        out["external"] = True
        return out
    stat = reader.file(path)
    node = reader.def_at(stat.id, line, col) if stat is not None else None
    if node is not None:
        out["id"] = node.nid
        out["hub"] = hub(node.hub)
    return out


def _site(uri: str, rng: T.Range, ws: Workspace) -> dict[str, Any]:
    path, _, line, col, _, _ = from_range(uri, rng, ws.root)
    return anchor(path, line, col)


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


async def _lsp_calls(pool: Any, target: Target, ws: Workspace, reader: MapReader,
                     direction: str, depth: int, timeout: float) -> list[dict[str, Any]]:
    from lsprotocol import types as T  # lazily: 0.6 s to import
    clock = _Clock(timeout)
    prepared = await _prepare(pool, target, T.TEXT_DOCUMENT_PREPARE_CALL_HIERARCHY,
                              T.CallHierarchyPrepareParams, clock)
    if not prepared:
        return []
    budget = [_MAX_CALLS]
    method = (T.CALL_HIERARCHY_INCOMING_CALLS if direction == "incoming"
              else T.CALL_HIERARCHY_OUTGOING_CALLS)

    async def level(item: T.CallHierarchyItem, left: int, seen: set[str]) -> list[dict[str, Any]]:
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
            entry = _item_anchor(ws, reader, other)
            # Incoming: ranges are in the caller; outgoing: in the item itself.
            where = other.uri if direction == "incoming" else item.uri
            sites = list({(r.start.line, r.start.character): r for r in call.from_ranges}.values())
            entry["callSites"] = [_site(where, r, ws) for r in sites[:_MAX_SITES]]
            if len(sites) > _MAX_SITES:
                entry["moreCallSites"] = len(sites) - _MAX_SITES
            key = f"{other.uri}#{other.selection_range.start.line}:{other.name}"
            if left > 1 and key not in seen and not clock.expired():
                seen.add(key)
                children = await level(other, left - 1, seen)
                if children:
                    entry["children"] = children
            out.append(entry)
        out.sort(key=lambda e: -float(e.get("hub", 0.0)))
        return out

    return await level(prepared[0], depth, set())


async def nav_call_hierarchy(ws: Workspace, params: CallHierarchyParams,
                             ctx: CallContext) -> Answer:
    reader, located, fresh = resolved(ws, params)
    def calls_at(target: Target) -> PoolCall:
        async def call(pool: Any, timeout: float) -> Any:
            return await _lsp_calls(pool, target, ws, reader, params.direction, params.depth,
                                    timeout)
        return call
    live = await ask_at(ws, located, params.source, "call hierarchy", calls_at,
                        capability="call_hierarchy_provider", wide=True)
    warnings = live.notes + located.warnings
    if live.answered:
        data: dict[str, Any] = {"symbol": located.name, "direction": params.direction,
                                "depth": params.depth, "calls": live.result, "source": "lsp"}
    else:
        node = _root_node(reader, located)
        calls = _map_calls(reader, node, params.direction, params.depth, [_MAX_CALLS], {node.id})
        if not live.notes:
            warnings.append(f"call hierarchy derived via fallback-map — {FALLBACK_NOTE}")
        data = {"symbol": {"id": node.nid, "kind": node.kind}, "direction": params.direction,
                "depth": params.depth, "calls": calls, "source": "map"}
    cut = Cut("calls", ("calls",), "Lower depth, or ask about one of the calls by id",
              shape="tree")
    return Answer(data, cuts=[cut], elide=("callSites",), warnings=warnings + fresh.warnings())


# ----------------------------------------------------------------------- type hierarchy

def _map_types(reader: MapReader, node: Node, direction: str) -> list[dict[str, Any]]:
    """Transitive supertypes or subtypes through the map's inheritance edges, nearest first."""
    out: list[dict[str, Any]] = []
    frontier, seen, level = [node], {node.id}, 0
    while frontier and len(out) < _MAX_TYPES and level < 10:
        level += 1
        found: dict[int, Node] = {}
        for current in frontier:
            if direction == "supertypes":
                ids = [h.target_id for h in reader.refs_from(current.id)
                       if h.kind == "inheritance" and h.target_id is not None]
            else:
                ids = [h.scope_id for h in reader.refs_to(current.id)
                       if h.kind == "inheritance" and h.scope_id is not None]
            others = list(reader.nodes_by_id(i for i in ids if i not in seen).values())
            others += [n for n in _implicit(reader, current, direction) if n.id not in seen]
            for other in others:
                found[other.id] = other
                seen.add(other.id)
        frontier = sorted(found.values(), key=lambda n: (-n.hub, n.nid))
        out += [{"id": n.nid, "kind": n.kind, "signature": n.signature,
                 "anchor": anchor(n.path, n.name_line, n.name_col), "hub": hub(n.hub),
                 "level": level} for n in frontier]
    return out[:_MAX_TYPES]


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


async def _lsp_types(pool: Any, target: Target, ws: Workspace, reader: MapReader,
                     direction: str, timeout: float) -> list[dict[str, Any]]:
    from lsprotocol import types as T  # lazily: 0.6 s to import
    clock = _Clock(timeout)
    prepared = await _prepare(pool, target, T.TEXT_DOCUMENT_PREPARE_TYPE_HIERARCHY,
                              T.TypeHierarchyPrepareParams, clock)
    if not prepared:
        return []
    method = (T.TYPE_HIERARCHY_SUPERTYPES if direction == "supertypes"
              else T.TYPE_HIERARCHY_SUBTYPES)
    out: list[dict[str, Any]] = []
    frontier, seen, level = [prepared[0]], set(), 0
    while frontier and len(out) < _MAX_TYPES and level < 10 and not clock.expired():
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
                entry = _item_anchor(ws, reader, other)
                entry["level"] = level
                out.append(entry)
                following.append(other)
        frontier = following
    return out


async def nav_type_hierarchy(ws: Workspace, params: TypeHierarchyParams,
                             ctx: CallContext) -> Answer:
    reader, located, fresh = resolved(ws, params)
    def types_at(target: Target) -> PoolCall:
        async def call(pool: Any, timeout: float) -> Any:
            return await _lsp_types(pool, target, ws, reader, params.direction, timeout)
        return call
    live = await ask_at(ws, located, params.source, "type hierarchy", types_at,
                        capability="type_hierarchy_provider", wide=True)
    warnings = live.notes + located.warnings
    if live.answered:
        data: dict[str, Any] = {"symbol": located.name, "direction": params.direction,
                                "types": live.result, "source": "lsp"}
    else:
        node = _root_node(reader, located)
        if not live.notes:
            warnings.append(f"type hierarchy derived via fallback-map — {FALLBACK_NOTE}")
        data = {"symbol": {"id": node.nid, "kind": node.kind}, "direction": params.direction,
                "types": _map_types(reader, node, params.direction), "source": "map"}
    cut = Cut("types", ("types",), "Ask about one of the types by id to go further")
    return Answer(data, cuts=[cut], warnings=warnings + fresh.warnings())


NAV_CALL_HIERARCHY = ToolSpec(
    name="nav_call_hierarchy",
    description=(
        "Who calls a function or method (direction 'incoming') or what it calls ('outgoing'), "
        "as a tree up to depth 3 with call-site anchors, busiest first."),
    params=CallHierarchyParams, handler=nav_call_hierarchy,
    arguments="id or position, `direction` incoming/outgoing, `depth?` 1–3, `source?`",
    returns="`calls` tree with call-site anchors (· hub score)",
)
NAV_TYPE_HIERARCHY = ToolSpec(
    name="nav_type_hierarchy",
    description=(
        "The base types of a class or interface ('supertypes') or the types deriving from it "
        "('subtypes'), transitively, nearest first, each with its level."),
    params=TypeHierarchyParams, handler=nav_type_hierarchy,
    arguments="id or position, `direction` supertypes/subtypes, `source?`",
    returns="`types` (· hub score)",
)
