"""nav_call_hierarchy and nav_type_hierarchy: who calls what, and which types derive from
which — from a language server when it can, else derived from the map's resolved edges
(calls, inherits)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from codenav.envelope import EVERY, Answer, Cut, Page
from codenav.errors import SymbolNotFound
from codenav.index.languages import by_code
from codenav.store.read import MapReader, Node
from codenav.tools.base import CallContext, OffsetParam, ToolSpec
from codenav.tools.common import Freshness, Located, anchor, hub, listed
from codenav.tools.live import PoolCall, Target, ask_at, from_range
from codenav.tools.nav_tools import NavParams, more_warning, resolved
from codenav.tools.rows import Detail, place, related_head, related_row
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
        description="incoming: callers; outgoing: callees")
    depth: int = Field(default=1, ge=1, le=3, description="Levels, 1-3")


class TypeHierarchyParams(NavParams):
    direction: Literal["supertypes", "subtypes"] = Field(
        description="supertypes: bases; subtypes: derived")
    offset: int = OffsetParam()


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
    if node is not None:  # the map's id and kind (its vocabulary, not the server's)
        out["id"] = node.nid
        out["kind"] = node.kind
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
    sections = []
    warnings = list(located.warnings)
    sources = set()
    for candidate in located.each():
        calls, source, notes = await _calls_of(ws, reader, candidate, params)
        warnings += notes
        sources.add(source)
        symbol = (listed(candidate.node, params.detail, fresh) if candidate.node is not None
                  else candidate.name)
        sections.append({"symbol": symbol,
                         "calls": _rendered(calls, params.detail, candidate.node)})
    common = {"direction": params.direction, "depth": params.depth}
    if len(sections) == 1:
        data: dict[str, Any] = {**sections[0], **common, "source": sources.pop()}
        cut = Cut("calls", ("calls",), "Lower depth, or ask about one of the calls by id",
                  tree=True)
    else:
        data = {"symbol": located.name, "matches": located.matches(), **common,
                "results": sections, "source": "+".join(sorted(sources))}
        cut = Cut("calls", ("results", EVERY, "calls"), "Pass id to pick one definition")
        warnings = [f"{located.matches()} definitions are named {located.name!r}: the calls of "
                    "each follow, best first", *warnings, *more_warning(located)]
    return Answer(data, cuts=[cut], elide=("callSites",), warnings=warnings + fresh.warnings())


async def _calls_of(ws: Workspace, reader: MapReader, located: Located,
                    params: CallHierarchyParams) -> tuple[list[dict[str, Any]], str, list[str]]:
    """One definition's calls: (items, source, warnings)."""
    def calls_at(target: Target) -> PoolCall:
        async def call(pool: Any, timeout: float) -> Any:
            return await _lsp_calls(pool, target, ws, reader, params.direction, params.depth,
                                    timeout)
        return call
    live = await ask_at(ws, located, params.source, "call hierarchy", calls_at,
                        capability="call_hierarchy_provider", wide=True)
    if live.answered:
        return live.result, "lsp", live.notes
    node = _root_node(reader, located)
    calls = _map_calls(reader, node, params.direction, params.depth, [_MAX_CALLS], {node.id})
    notes = list(live.notes)
    guessed = (reader.guessed_uses([node.id]) if params.direction == "incoming"
               else reader.guessed_from(node.id))
    if guessed:
        notes.append(f"{guessed} of the map's call edges here were matched by name only (a "
                     "receiver of unknown type): check them, or pass source:'lsp'")
    return calls, "map", notes


def _rendered(calls: list[dict[str, Any]], detail: Detail, symbol: Node | None) -> list[Any]:
    """Call items as rows (``detail`` compact): related rows (no language and no kind where
    they are ``symbol``'s) with ``at:`` the lines of the call sites (in the caller for
    incoming calls, in the callee's caller — the symbol asked about — for outgoing ones)
    and ``sites:`` their number when more are not listed; an item with callers or callees
    of its own is ``{"call": row, "children": [...]}``."""
    if detail == "full":
        return calls
    out: list[Any] = []
    for item in calls:
        row = _item_row(item, symbol)
        sites = item.get("callSites") or []
        if sites:
            row += " at:" + ",".join(str(site["line"]) for site in sites)
        if item.get("moreCallSites"):
            row += f" sites:{len(sites) + item['moreCallSites']}"
        children = item.get("children")
        out.append({"call": row, "children": _rendered(children, detail, symbol)}
                   if children else row)
    return out


def _item_row(item: dict[str, Any], symbol: Node | None) -> str:
    """A hierarchy item as a row: a related row's head where the map has it, else its
    place, kind and name (``(external)`` outside the root)."""
    at = item["anchor"]
    if "id" in item:
        return related_head(item["id"], item["kind"], at["line"], symbol)
    row = f"{place(at['file'], at['line'], at['col'])} {item['kind']} {item.get('name', '')}"
    return row + (" (external)" if item.get("external") else "")


# ----------------------------------------------------------------------- type hierarchy

def _map_types(reader: MapReader, node: Node, direction: str) -> list[tuple[Node, int]]:
    """Transitive supertypes or subtypes through the map's inheritance edges, nearest first,
    each with its level."""
    out: list[tuple[Node, int]] = []
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
        out += [(n, level) for n in frontier]
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
    sections = []
    warnings = list(located.warnings)
    sources = set()
    for candidate in located.each():
        def types_at(target: Target, candidate: Located = candidate) -> PoolCall:
            async def call(pool: Any, timeout: float) -> Any:
                return await _lsp_types(pool, target, ws, reader, params.direction, timeout)
            return call
        live = await ask_at(ws, candidate, params.source, "type hierarchy", types_at,
                            capability="type_hierarchy_provider", wide=True)
        warnings += live.notes
        if live.answered:
            types, source = live.result, "lsp"
        else:
            types, source = _map_types(reader, _root_node(reader, candidate),
                                       params.direction), "map"
        sources.add(source)
        symbol = (listed(candidate.node, params.detail, fresh, signature=False)
                  if candidate.node is not None else candidate.name)
        sections.append({"symbol": symbol,
                         "types": _type_rows(types, params.detail, fresh, candidate.node)})
    if len(sections) == 1:
        data: dict[str, Any] = {**sections[0], "source": sources.pop()}
        if params.detail == "full":
            data["direction"] = params.direction
        data["total"] = len(data["types"])
        data["types"] = data["types"][params.offset:]
        cut = Cut("types", ("types",), "Ask about one of the types by id to go further",
                  page=Page("nav_type_hierarchy", params.continuation(), params.offset))
    else:
        data = {"symbol": located.name, "matches": located.matches(),
                "direction": params.direction, "results": sections,
                "source": "+".join(sorted(sources))}
        cut = Cut("types", ("results", EVERY, "types"), "Pass id to pick one definition")
        warnings = [f"{located.matches()} definitions are named {located.name!r}: the types of "
                    "each follow, best first", *warnings, *more_warning(located)]
    return Answer(data, cuts=[cut], warnings=warnings + fresh.warnings())


def _type_rows(types: list[Any], detail: Detail, fresh: Freshness,
               symbol: Node | None) -> list[Any]:
    """Types as shown: objects (``detail`` full), else related rows (rows.py: no language
    and no kind where they are ``symbol``'s, only the line of the name) with ``level:``
    beyond the first level."""
    out: list[Any] = []
    for item in types:
        if isinstance(item, tuple):
            node, level = item
            if detail == "full":
                out.append(listed(node, detail, fresh, {"level": level}))
                continue
            notes: dict[str, object] = {"level": level} if level > 1 else {}
            if node.path in fresh.stale:
                notes["stale"] = "true"
            # A first level's signature names the type asked about; a deeper one's, the
            # type it comes through.
            out.append(related_row(node, symbol, level > 1, notes))
        elif detail == "full":
            out.append(item)
        else:
            out.append(_lsp_type_row(item, symbol))
    return out


def _lsp_type_row(item: dict[str, Any], symbol: Node | None) -> str:
    """A language server's type as a related row where the map has it, else as its place,
    kind and name (``(external)`` outside the root)."""
    level = item.get("level", 1)
    return _item_row(item, symbol) + (f" level:{level}" if level > 1 else "")


NAV_CALL_HIERARCHY = ToolSpec(
    name="nav_call_hierarchy",
    description="Who calls a function (incoming) or what it calls (outgoing), up to 3 levels, "
                "with the lines of the call sites.",
    params=CallHierarchyParams, handler=nav_call_hierarchy,
    arguments="id or position, `direction` incoming/outgoing, `depth?` 1–3, `source?`, "
              "`detail?`",
    returns="`calls` tree with call-site lines (· hub score)",
    example={"symbol": "Session.send", "direction": "incoming"},
)
NAV_TYPE_HIERARCHY = ToolSpec(
    name="nav_type_hierarchy",
    description="Base types (supertypes) or derived types (subtypes) of a class or interface, "
                "transitively, nearest first: e.g. every subclass of a mixin.",
    params=TypeHierarchyParams, handler=nav_type_hierarchy,
    arguments="id or position, `direction` supertypes/subtypes, `offset?`, `source?`, "
              "`detail?`",
    returns="`types` (· level, then hub score)",
    example={"symbol": "BaseAdapter", "direction": "subtypes"},
)
