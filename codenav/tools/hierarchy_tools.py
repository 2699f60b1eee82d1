"""nav_call_hierarchy and nav_type_hierarchy: who calls what, and which types derive from
which — from a language server when it can, else derived from the map's resolved edges
(calls, inherits): parameters, then the query (``query/hierarchy.py``), then the renderer."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Literal

from pydantic import Field

from codenav.envelope import EVERY, Answer, Cut, Page
from codenav.model import CALLABLE_KINDS, TYPE_KINDS
from codenav.query.hierarchy import (
    Call,
    TypeEntry,
    calls_only,
    classless_bases,
    lsp_calls,
    lsp_types,
    map_calls,
    map_types,
    merged_calls,
    merged_declarations,
    root_node,
)
from codenav.query.live import PoolCall, Target, ask_at
from codenav.query.locate import MAP_ONLY, FileFilter, Located, overridden, without_stubs
from codenav.query.references import other_uses
from codenav.query.source import Lines
from codenav.store.read import MapReader
from codenav.tools.base import CallContext, FileFilterParam, OffsetParam, ToolSpec
from codenav.tools.common import NavParams, checked_bases, checked_text, resolved
from codenav.tools.render import (
    base_text_entries,
    calls_grouped,
    calls_rendered,
    classless_bases_line,
    deeper_types_warning,
    fallback_notes,
    guessed_calls_warning,
    listed,
    map_callers_warning,
    overridden_warning,
    several_warning,
    text_entries,
    types_section,
    unlisted,
    unresolved_cuts,
)
from codenav.workspace import Workspace

__all__ = ["NAV_CALL_HIERARCHY", "NAV_TYPE_HIERARCHY"]


class CallHierarchyParams(NavParams):
    direction: Literal["incoming", "outgoing"] = Field(
        description="incoming: callers; outgoing: callees")
    depth: int = Field(default=1, ge=1, le=3, description="Levels, 1-3")
    fileFilter: str | None = FileFilterParam()


MAX_TYPE_DEPTH = 10


class TypeHierarchyParams(NavParams):
    direction: Literal["supertypes", "subtypes"] = Field(
        description="supertypes: bases; subtypes: derived")
    depth: int = Field(default=1, ge=1, le=MAX_TYPE_DEPTH,
                       description="Levels, 1 (direct) to 10")
    offset: int = OffsetParam()
    fileFilter: str | None = FileFilterParam()


# ----------------------------------------------------------------------- call hierarchy

async def nav_call_hierarchy(ws: Workspace, params: CallHierarchyParams,
                             ctx: CallContext) -> Answer:
    reader, located = resolved(ws, params, ctx)
    # (nav_references takes a fileFilter: an agent passed one here too, run 44)
    code_files = without_stubs(reader, FileFilter(params.fileFilter))
    # one level of calls of one definition, as rows: grouped by file when some file has
    # several (a tree's rows, and the sections of several definitions, keep whole ids)
    one_level = params.depth == 1 and params.detail != "full" and not located.others
    sections = []
    warnings: list[str] = []
    sources = set()
    for candidate in located.each():
        calls, source, notes = await _calls_of(ws, reader, candidate, params)
        if params.fileFilter is not None:  # the callers (callees) in those files
            calls = [call for call in calls if code_files(call.other.path)]
        warnings += notes
        if params.direction == "incoming" and candidate.node is not None:
            warnings += overridden_warning(candidate.node, overridden(reader, candidate.node))
        sources.add(source)
        symbol = (listed(candidate.node, params.detail, ctx.fresh)
                  if candidate.node is not None else candidate.name)
        by_file = calls_grouped(calls, candidate.node) if one_level else None
        section: dict[str, Any] = {
            "symbol": symbol,
            "calls": by_file if by_file is not None else calls_rendered(
                calls, params.detail, candidate.node)}
        if params.direction == "incoming" and candidate.node is not None:
            sites = {(site.path, site.line) for call in calls for site in call.sites}
            others = other_uses(reader, Lines(ws.root), [candidate.node], code_files,
                                sites, kind="call")
            section.update(unlisted(others))
            section.update(text_entries(await checked_text(
                ws, reader, [candidate.node], code_files, sites, others,
                kind="call")))
        sections.append(section)
    common = {"direction": params.direction, "depth": params.depth}
    if len(sections) == 1:
        data: dict[str, Any] = {**sections[0], **common, "source": sources.pop()}
        grouped = isinstance(data["calls"], dict)  # (one level, by file)
        cut = Cut("calls", ("calls", EVERY), "Ask about one of the calls by id") if grouped \
            else Cut("calls", ("calls",), "Lower depth, or ask about one of the calls by id",
                     tree=True)
        extra = unresolved_cuts()
    else:
        data = {"symbol": located.name, "matches": located.matches(), **common,
                "results": sections, "source": "+".join(sorted(sources))}
        cut = Cut("calls", ("results", EVERY, "calls"), "Pass id to pick one definition")
        extra = unresolved_cuts("results", EVERY)
        warnings = [*several_warning(located, "calls")[:1], *warnings,
                    *several_warning(located, "calls")[1:]]
    return Answer(data, cuts=[cut, *extra], elide=("callSites",), warnings=warnings)


async def _calls_of(ws: Workspace, reader: MapReader, located: Located,
                    params: CallHierarchyParams) -> tuple[list[Call], str, list[str]]:
    """One definition's calls: (calls, source, warnings)."""
    def calls_at(target: Target) -> PoolCall:
        async def call(pool: Any, timeout: float) -> Any:
            return await lsp_calls(pool, target, ws.root, reader, params.direction,
                                   params.depth, timeout)
        return call
    live = await ask_at(ws, located, params.source, "call hierarchy", calls_at,
                        capability="call_hierarchy_provider", wide=True)
    notes = fallback_notes(ws, live.fallback)
    node = located.node
    # (a property's readers call its getter: the map's `b.size` is no call, but it runs one)
    server = live.result if not live.answered or node is None or \
        params.direction != "incoming" or params.source == "lsp" or \
        node.kind not in CALLABLE_KINDS else calls_only(reader, node, live.result)
    if live.answered and (node is None or params.source == "lsp"):
        return server, "lsp", notes
    if live.answered and node is not None:  # the server's calls, and the map's it missed
        calls = merged_calls(server, map_calls(reader, node, params.direction,
                                               params.depth),
                             incoming=params.direction == "incoming")
        alone = sum(1 for call in calls if call.mark == MAP_ONLY)
        return calls, "lsp+map" if alone or len(calls) > len(server) else "lsp", \
            notes + map_callers_warning(alone) + guessed_calls_warning(calls)
    node = root_node(located)
    calls = map_calls(reader, node, params.direction, params.depth)
    return calls, "map", notes + guessed_calls_warning(calls)


# ----------------------------------------------------------------------- type hierarchy

async def nav_type_hierarchy(ws: Workspace, params: TypeHierarchyParams,
                             ctx: CallContext) -> Answer:
    reader, located = resolved(ws, params, ctx)
    located = _types_only(located)
    # (run 58: ~100 test classes of clipanion's Command read for a question on sources/)
    code_files = without_stubs(reader, FileFilter(params.fileFilter))
    sections = []
    warnings: list[str] = []
    sources = set()
    for candidate in located.each():
        def types_at(target: Target) -> PoolCall:
            async def call(pool: Any, timeout: float) -> Any:
                return await lsp_types(pool, target, ws.root, reader, params.direction,
                                       timeout, levels=params.depth + 1)
            return call
        live = await ask_at(ws, candidate, params.source, "type hierarchy", types_at,
                            capability="type_hierarchy_provider", wide=True)
        warnings += fallback_notes(ws, live.fallback)
        types: list[TypeEntry]
        if live.answered:
            types, source = live.result, "lsp"
        else:
            types, source = map_types(reader, root_node(candidate), params.direction), "map"
        sources.add(source)
        types = sorted(merged_declarations([entry for entry in types  # not stubs
                                            if code_files(entry.related.path)]),
                       key=lambda t: (t.level, t.related.external, t.related.path,
                                      t.related.line))  # in order, to read
        deeper = [entry for entry in types if entry.level > params.depth]
        warnings += deeper_types_warning(deeper, params.direction, exact=source == "map")
        symbol = (listed(candidate.node, params.detail, ctx.fresh, signature=False)
                  if candidate.node is not None else candidate.name)
        section = types_section(symbol, [t for t in types if t.level <= params.depth],
                                params.detail, ctx.fresh, candidate.node)
        if params.direction == "subtypes" and candidate.node is not None:
            # classes naming it among their bases the map could not link (the grep check)
            bases = {(t.related.path, t.related.line) for t in types if t.level == 1}
            others = other_uses(reader, Lines(ws.root), [candidate.node], code_files,
                                bases, kind="inheritance")
            section.update(unlisted(others))
            strays, named = classless_bases(reader, candidate.node, code_files, {
                t.related.node.id for t in types
                if t.level == 1 and t.related.node is not None})
            if strays:
                section["unlisted"] = classless_bases_line(strays, section["unlisted"])
            # the grep of class headers naming it (not of the name: a class name's text is
            # mostly annotations and calls)
            check = await checked_bases(ws, reader, candidate.node, bases | named,
                                        code_files)
            if check is not None:
                section.update(base_text_entries(check))
        sections.append(section)
    if len(sections) == 1:
        data: dict[str, Any] = {**sections[0], "source": sources.pop()}
        if params.detail == "full":
            data["direction"] = params.direction
        data["total"] = len(data["types"])
        data["types"] = data["types"][params.offset:]
        cut = Cut("types", ("types",), "Ask about one of the types by id to go further",
                  page=Page("nav_type_hierarchy", params.continuation(), params.offset))
        extra = unresolved_cuts()
    else:
        data = {"symbol": located.name, "matches": located.matches(),
                "direction": params.direction, "results": sections,
                "source": "+".join(sorted(sources))}
        cut = Cut("types", ("results", EVERY, "types"), "Pass id to pick one definition")
        extra = unresolved_cuts("results", EVERY)
        warnings = [*several_warning(located, "types")[:1], *warnings,
                    *several_warning(located, "types")[1:]]
    return Answer(data, cuts=[cut, *extra], warnings=warnings)


# The kinds a type hierarchy is about (a type alias or a variable named like a class is not).
_HIERARCHY_KINDS = TYPE_KINDS - {"type", "union"}


def _types_only(located: Located) -> Located:
    """``located`` without the definitions that have no hierarchy (konva's `type Shape` aliases
    beside `class Shape`), when some definition it names has one."""
    kept = [c.node for c in located.each()
            if c.node is not None and c.node.kind in _HIERARCHY_KINDS]
    if not kept or len(kept) == len(located.others) + 1:
        return located
    return replace(located, node=kept[0], name=kept[0].name, others=kept[1:])


NAV_CALL_HIERARCHY = ToolSpec(
    name="nav_call_hierarchy",
    brief="callers (incoming) or callees (outgoing), with call lines (at:): call sites, "
          "no other uses",
    order=11,
    needs_links=True,
    description="Who calls a function (incoming) or what it calls (outgoing), up to 3 levels, "
                "with call lines.",
    params=CallHierarchyParams, handler=nav_call_hierarchy,
    arguments="id or position, `direction` incoming/outgoing, `depth?` 1–3, `fileFilter?`, "
              "`source?`, `detail?`",
    returns="`calls` tree with call-site lines (· hub score); one level: grouped by file "
            "where a file has several",
    example={"symbol": "Session.send", "direction": "incoming"},
)
NAV_TYPE_HIERARCHY = ToolSpec(
    name="nav_type_hierarchy",
    brief="direct subtypes or supertypes (depth: further levels, each row with its level)",
    order=12,
    needs_links=True,
    description="Base types (supertypes) or derived types (subtypes) of a class or "
                "interface, `depth` levels.",
    params=TypeHierarchyParams, handler=nav_type_hierarchy,
    arguments="id or position, `direction` supertypes/subtypes, `depth?` 1–10 (1: direct), "
              "`fileFilter?`, `offset?`, `source?`, `detail?`",
    returns="`types` (· level, then hub score)",
    example={"symbol": "BaseAdapter", "direction": "subtypes"},
)
