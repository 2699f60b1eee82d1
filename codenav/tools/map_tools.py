"""The map tools: overview, search, outline, node, neighbors — answered from the map alone."""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any, Literal

import anyio
from pydantic import Field, model_validator

from codenav.config import read_toml
from codenav.envelope import Answer, Cut, Page
from codenav.errors import BadArgs, NodeNotFound
from codenav.index.literals import Place
from codenav.paths import relative_path
from codenav.query.fresh import Freshness
from codenav.query.imports import importers, through_others
from codenav.query.locate import NODE_ID, FileFilter, find_node, locate, mapped_file, parse_node_id
from codenav.query.outline import asked_kinds, entries, one_per_overload
from codenav.query.references import other_imports
from codenav.query.search import TIERS, search
from codenav.query.source import Lines
from codenav.query.text import TextPage, joined, literal_hits, text_files, text_search
from codenav.store.read import MapReader, Node, NodeFilter
from codenav.tools.base import (
    CallContext,
    DetailParam,
    FileFilterParam,
    OffsetParam,
    ToolParams,
    ToolSpec,
)
from codenav.tools.common import checked_imports
from codenav.tools.render import (
    anchor,
    hub,
    import_text_entries,
    listed,
    outline_answer,
    related,
    text_answer,
    unlisted,
    unresolved_cuts,
)
from codenav.tools.rows import Detail, one_line, place, span
from codenav.workspace import Workspace

__all__ = ["MAP_NEIGHBORS", "MAP_NODE", "MAP_OUTLINE", "MAP_OVERVIEW", "MAP_SEARCH"]

_RESULT_COST = 120  # fewest characters one search result takes
_ENTRY_FILES = frozenset({"__main__.py", "manage.py", "wsgi.py", "asgi.py", "setup.py"})
EdgeKind = Literal["calls", "references", "imports", "inherits", "contains"]
_EDGE_OF_REF = {"call": "calls", "decorator": "calls", "inheritance": "inherits",
                "import": "imports"}


def _edge(ref_kind: str) -> str:
    return _EDGE_OF_REF.get(ref_kind, "references")


# --------------------------------------------------------------------- map_overview

class OverviewParams(ToolParams):
    focus: str | None = Field(default=None, max_length=1000, description="Folder or node id")
    depth: int = Field(default=1, ge=1, le=4, description="Folder levels shown")
    detail: Detail = DetailParam()


def _entry_points(ws: Workspace, reader: MapReader, flt: FileFilter,
                  entry_files: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """Console scripts, conventional entry files ((path, language) pairs already found
    under the focus) and top-level main() functions, at most 20."""
    found: list[dict[str, Any]] = []
    project = read_toml(ws.root / "pyproject.toml")
    scripts = project.get("project", {}).get("scripts", {})
    for script, target in scripts.items() if isinstance(scripts, dict) else ():
        module, _, attr = str(target).partition(":")
        for candidate in (module.replace(".", "/") + ".py",
                          "src/" + module.replace(".", "/") + ".py"):
            stat = reader.file(candidate)
            if stat is None:
                continue
            node = reader.node(f"{stat.lang}:{candidate}#{attr}" if attr else
                               f"{stat.lang}:{candidate}")
            if node is not None and flt(node.path):
                found.append({"id": node.nid, "why": f"console script '{script}'"})
            break
    for path, lang in entry_files:
        found.append({"id": f"{lang}:{path}", "why": path.rsplit("/", 1)[-1]})
    for main in reader.top_level_named("main"):
        if main.kind == "function" and flt(main.path):
            found.append({"id": main.nid, "why": "a top-level main()"})
    unique: dict[str, dict[str, Any]] = {}
    for entry in found:
        unique.setdefault(entry["id"], entry)
    return list(unique.values())[:20]


async def map_overview(ws: Workspace, params: OverviewParams, ctx: CallContext) -> Answer:
    reader = ws.reader()
    fresh = ctx.fresh
    focus = (params.focus or "").strip()
    if "#" in focus or (NODE_ID.match(focus) and reader.node(focus) is not None):
        if NODE_ID.match(focus):
            relative_path(parse_node_id(focus)[1], ws.root, ws.force_root)
        return _overview_of_node(reader, focus, fresh, params.detail)
    if focus not in ("", ".", "./"):  # a folder: inside the root (OUT_OF_ROOT otherwise)
        focus = relative_path(focus, ws.root, ws.force_root)
    prefix = focus.strip("/").removeprefix("./")
    prefix = f"{prefix}/" if prefix else ""
    summary_of_map = ws.cached(("map_overview", prefix, params.depth, params.detail),
                               lambda: _overview_data(ws, reader, prefix, params.depth,
                                                      params.detail))
    if summary_of_map is None:
        raise BadArgs(f"focus {focus!r} is neither a mapped folder nor a node id",
                      hint="Folders are relative to the root, e.g. 'src/app/'; ids come from "
                           "map_search.")
    # the cached summary is shared: the hubs a stale mark changes are made anew (the
    # envelope copies whatever it cuts)
    hubs: list[Node] = summary_of_map["_hubs"]
    fresh.check({node.path for node in hubs})
    data = {key: value for key, value in summary_of_map.items() if key != "_hubs"}
    if fresh.stale:
        data["hubs"] = [listed(node, params.detail, fresh) for node in hubs]
    cuts = [Cut("folders", ("dirs",), "Pass focus:'<folder>/' to zoom in"),
            Cut("hubs", ("hubs",), "Pass focus:'<folder>/' to zoom in")]
    return Answer(data, cuts=cuts)


def _overview_data(ws: Workspace, reader: MapReader, prefix: str, depth: int,
                   detail: Detail) -> dict[str, Any] | None:
    """map_overview's data for a folder prefix (None: no mapped file under it)."""
    rows = reader.files_under(prefix)
    if prefix and not rows:
        return None
    languages: dict[str, int] = defaultdict(int)
    dirs: dict[str, list[float]] = {}
    for path, lang, status, nodes, mass in rows:
        if status == "ok":
            languages[lang] += 1
        parts = path[len(prefix):].split("/")
        key = "/".join(parts[:depth]) + ("/" if len(parts) > depth else "")
        entry = dirs.setdefault(prefix + key, [0, 0, 0.0])
        entry[0] += 1
        entry[1] += nodes
        entry[2] += mass
    ranked = sorted(dirs.items(), key=lambda kv: (-kv[1][2], kv[0]))
    folders: list[Any] = (
        [{"path": path, "files": int(v[0]), "nodes": int(v[1]), "hubMass": hub(v[2])}
         for path, v in ranked] if detail == "full" else
        [f"{path} {_count(int(v[0]), 'file')}, {_count(int(v[1]), 'definition')}"
         for path, v in ranked])
    hubs = reader.top_hubs(NodeFilter(prefix=prefix or None), 60)
    entries = [(path, lang) for path, lang, status, _, _ in rows
               if status == "ok" and path.rsplit("/", 1)[-1] in _ENTRY_FILES]
    points = _entry_points(ws, reader, FileFilter(prefix or None), entries)
    return {
        "root": str(ws.root), "focus": prefix or ".",
        "languages": dict(sorted(languages.items(), key=lambda kv: -kv[1])),
        "files": len(rows),
        "dirs": folders,
        "hubs": [listed(node, detail) for node in hubs],
        "_hubs": hubs,
        "entryPoints": points if detail == "full" else
        [f"{entry['id']} ({entry['why']})" for entry in points],
    }


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _overview_of_node(reader: MapReader, focus: str, fresh: Freshness,
                      detail: Detail) -> Answer:
    node = reader.node(focus)
    if node is None:
        parse_node_id(focus)
        raise NodeNotFound(f"{focus[:200]} is not in the map")
    fresh.check({node.path})
    hubs = [listed(n, detail, fresh) for n in reader.top_hubs(NodeFilter(), 60, under=node.id)]
    data = {"focus": node.nid, "node": listed(node, detail, fresh), "hubs": hubs}
    return Answer(data, cuts=[Cut("hubs", ("hubs",), "Ask map_node for one of them")])


# ----------------------------------------------------------------------- map_search

class SearchParams(ToolParams):
    query: str = Field(max_length=300, description=(
        "Name, part, or Class.member (text: '' for fileFilter a.py:N-M)"))
    kinds: list[str] | None = Field(default=None, max_length=20,
                                    description="e.g. ['class','method']")
    lang: str | None = Field(default=None, max_length=20, description="Language code, e.g. py")
    fileFilter: str | None = FileFilterParam()
    exact: bool = Field(default=False, description="Exact names only")
    text: bool = Field(default=False, description="Lines holding query (grep -F)")
    offset: int = OffsetParam()
    detail: Detail = DetailParam()


async def map_search(ws: Workspace, params: SearchParams, ctx: CallContext) -> Answer:
    reader = ws.reader()
    if params.text:
        files = FileFilter(params.fileFilter, ranged=True)
        if not params.query and not files.ranges:
            raise BadArgs("query is empty: give the text to find (or \"\" with fileFilter "
                          "'path:N-M' for every line of that range)")
        paths = text_files(reader, files, params.lang)
        for path, _, _ in files.ranges:  # a file's lines: its path exactly, not a prefix
            if path not in paths:
                raise BadArgs(f"a line range takes one mapped file's path: {path!r} is none "
                              "('src/a.py:40-60')")

        # up to MAX_SCAN_S of reading files: off the event loop, which serves other calls
        def scan() -> tuple[TextPage, dict[tuple[str, int], Place]]:
            found = text_search(ws.root, paths, params.query) if not files.ranges else \
                joined([text_search(ws.root, [path], params.query, lines=(first, last))
                        for path, first, last in files.ranges])
            return found, (literal_hits(ws.root, found.hits[params.offset:], params.query)
                           if params.query else {})  # ("": every line; nothing to place)
        lines, places = await anyio.to_thread.run_sync(scan)
        ctx.fresh.check({hit.path for hit in lines.hits[params.offset:]})
        return text_answer(lines, params.query, params.offset,
                           Page("map_search", params.continuation(), params.offset), places)
    query = params.query.strip()
    if not query:
        raise BadArgs("query is empty: give a name, part of one or Class.member")
    room = ctx.room(_RESULT_COST, least=10) + params.offset
    found = search(ws, reader, query, room=room, kinds=asked_kinds(params.kinds),
                   lang=params.lang, files=FileFilter(params.fileFilter), exact=params.exact)
    results = found.matches
    fresh = ctx.fresh
    page = results[params.offset:room]
    fresh.check({node.path for _, node in page})
    items = []
    for tier, node in page:
        item = listed(node, params.detail, fresh)
        if params.detail == "full":
            item["match"] = TIERS[tier]
        items.append(item)
    data: dict[str, Any] = {"query": query, "total": len(results), "results": items}
    if found.capped:
        data["atLeast"] = True  # more matches than were looked at: total is a lower bound
    hint = ("Narrow with kinds:['class'], lang, fileFilter:'src/' or a longer or qualified "
            "query ('Class.method')")
    warnings: list[str] = []
    if not items:
        warnings.append("No match. Try part of the name, or check map_status: the map may be "
                        "stale or still building.")
    cut = Cut("results", ("results",), hint, omitted=max(0, len(results) - room),
              page=Page("map_search", params.continuation(), params.offset))
    return Answer(data, cuts=[cut], warnings=warnings)


# ---------------------------------------------------------------------- map_outline

class OutlineParams(ToolParams):
    file: str = Field(min_length=1, max_length=4096, description="Path, e.g. 'src/app.py'")
    kinds: list[str] | None = Field(default=None, max_length=20,
                                    description="Only these kinds (and what holds them)")
    offset: int = OffsetParam()
    detail: Detail = DetailParam()


async def map_outline(ws: Workspace, params: OutlineParams, ctx: CallContext) -> Answer:
    reader = ws.reader()
    path, _ = mapped_file(ws, reader, params.file)
    fresh = ctx.fresh
    fresh.refresh([path])
    stat = reader.file(path)
    if stat is None:
        path, _ = mapped_file(ws, reader, params.file)  # raises FILE_DELETED
    assert stat is not None
    nodes = reader.file_nodes(stat.id)
    module = nodes[0] if nodes and nodes[0].kind == "module" else None
    found = entries([n for n in nodes if n is not module],
                    module.id if module is not None else None, params.kinds)
    # one row per name in a scope: overloads (ajv's validate: 8 signatures) as map_node does
    found, overloads = one_per_overload(found)
    data: dict[str, Any] = {"file": path, "lang": stat.lang, "lines": stat.lines}
    if overloads:
        data["overloads"] = overloads
    if stat.status != "ok":
        data["status"] = stat.status
    if module is not None and module.doc:
        data["doc"] = module.doc
    if stat.parse_errors:
        data["syntaxErrors"] = stat.parse_errors
    if path in fresh.stale:
        data["stale"] = True
    data["total"] = len(found)
    return outline_answer(
        data, "symbols", found, offset=params.offset, detail=params.detail,
        page=Page("map_outline", params.continuation(), params.offset), fresh=fresh,
        counts=True, warnings=[], names_only=True,
        hint="Ask map_node with include:['children'] for one class")


# ------------------------------------------------------------------------- map_node

class NodeParams(ToolParams):
    id: str | None = Field(default=None, min_length=1, max_length=4096,
                           description="Node id")
    symbol: str | None = Field(default=None, min_length=1, max_length=500)
    file: str | None = Field(default=None, max_length=4096)
    include: list[Literal["source", "doc", "children", "signatures"]] | None = Field(
        default=None, description="Default doc, children; source: its text; signatures: "
                                  "children's")
    kinds: list[str] | None = Field(default=None, max_length=20,
                                    description="Only children of these kinds")
    offset: int = OffsetParam()
    detail: Detail = DetailParam()

    @model_validator(mode="after")
    def _one_target(self) -> NodeParams:
        if (self.id is None) == (self.symbol is None) or (self.file and self.id):
            raise ValueError("give exactly one of: id; symbol (+ file) — e.g. {\"symbol\": "
                             "\"User\"} or {\"id\": \"py:src/app/models.py#User\"}")
        return self


def _node_of_symbol(ws: Workspace, reader: MapReader, symbol: str, file: str | None,
                    fresh: Freshness, warnings: list[str]) -> Node:
    """The best definition ``symbol`` names (the others, when it names several, in a
    warning: their ids pick them)."""
    located = locate(ws, reader, fresh, symbol=symbol, file=file)
    assert located.node is not None
    if located.others:
        others = ", ".join(n.nid for n in located.others[:5])
        warnings.append(f"{located.matches()} definitions are named {located.name!r}; this is "
                        f"the best. Others (pass one as id): {others}")
    if (ws.root / located.node.path).is_file():
        fresh.refresh([located.node.path])
    return located.node


async def map_node(ws: Workspace, params: NodeParams, ctx: CallContext) -> Answer:
    reader = ws.reader()
    fresh = ctx.fresh
    told: list[str] = []
    node = (find_node(ws, reader, params.id, fresh) if params.id is not None else
            _node_of_symbol(ws, reader, params.symbol or "", params.file, fresh, told))
    include = set(params.include if params.include is not None else ("doc", "children"))
    incoming, outgoing = reader.degree(node.id)
    parent = reader.node_by_id(node.parent_id) if node.parent_id is not None else None
    data: dict[str, Any] = {"id": node.nid, "kind": node.kind}
    if params.detail == "full":
        data.update({
            "name": node.name, "qualifiedName": node.qname or None,
            "signature": node.signature or None,
            "anchor": anchor(node.path, node.name_line, node.name_col, node.end_line),
            "span": {"line": node.line, "col": node.col, "endLine": node.end_line,
                     "endCol": node.end_col},
            "parent": parent.nid if parent is not None else None,
            "inDegree": incoming, "outDegree": outgoing, "hub": hub(node.hub)})
    else:
        data.update({"at": place(node.path, node.name_line, node.name_col),
                     "lines": span(node.line, node.end_line),
                     "signature": one_line(node.signature) if node.signature else None,
                     "parent": parent.nid if parent is not None and parent.kind != "module"
                     else None,
                     "inDegree": incoming, "outDegree": outgoing})
    if node.type_key:
        data["type"] = node.type_key
    if "doc" in include and node.doc:
        data["doc"] = node.doc
    fresh.mark(data, node.path)
    if "source" in include:
        if node.kind == "module":
            data["source"] = Lines(ws.root).source(node.path, 0, 1 << 30)
        else:
            data["source"] = Lines(ws.root).source(node.path, node.start_byte, node.end_byte)
    data = {k: v for k, v in data.items() if v is not None}
    if "children" not in include and "signatures" not in include:
        return Answer(data, warnings=told,
                      hint="Leave 'source' out of include, or read the file's lines")
    children = reader.children(node.id)
    found = entries(children, node.id, params.kinds)
    if params.kinds:  # what the filter left out, so that no second call is needed to know
        shown = {entry.node.id for entry in found}
        left = Counter(child.kind for child in children
                       if child.parent_id == node.id and child.id not in shown)
        data["notShown"] = ", ".join(f"{n} {kind}(s)" for kind, n in sorted(left.items())) \
            if left else "none: every member is of these kinds"
    # one member per name: overloads (`@overload` stubs, Java's), a getter and its setter
    found, overloads = one_per_overload(found)
    if overloads:  # name -> how many definitions the member listed stands for
        data["overloads"] = overloads
    data["total"] = len(found)
    answer = outline_answer(
        data, "children", found, offset=params.offset, detail=params.detail,
        page=Page("map_node", params.continuation(), params.offset), fresh=fresh, counts=False,
        warnings=told, hint="Pass kinds:['method'] or ask map_node for one "
                                               "child", signatures="signatures" in include)
    answer.elide = ("source",)
    answer.hint = "Leave 'source' out of include, or read the file's lines"
    return answer


# -------------------------------------------------------------------- map_neighbors

class NeighborsParams(ToolParams):
    id: str = Field(min_length=1, max_length=4096, description="Node id")
    edgeKinds: list[EdgeKind] | None = Field(default=None, description="Default: all")
    direction: Literal["in", "out", "both"] = Field(
        default="both", description="out: what it uses; in: what uses it")
    depth: int = Field(default=1, ge=1, le=3, description="Hops, 1-3")
    offset: int = OffsetParam()
    detail: Detail = DetailParam()


_MAX_FRONTIER = 400


async def map_neighbors(ws: Workspace, params: NeighborsParams, ctx: CallContext) -> Answer:
    reader = ws.reader()
    fresh = ctx.fresh
    start = find_node(ws, reader, params.id, fresh)
    kinds: set[str] = set(params.edgeKinds or ("calls", "references", "imports", "inherits",
                                               "contains"))
    found: dict[tuple[int, str, str], dict[str, Any]] = {}
    frontier, seen = [start.id], {start.id}
    for hop in range(1, params.depth + 1):
        following: list[int] = []
        for node_id in frontier[:_MAX_FRONTIER]:
            for other, edge, direction, site in _edges(reader, node_id, params.direction, kinds):
                if other == start.id:
                    continue
                key = (other, edge, direction)
                entry = found.get(key)
                if entry is None:
                    found[key] = {"node": other, "edge": edge, "direction": direction,
                                  "hops": hop, "count": 1, "site": site}
                    if other not in seen:
                        seen.add(other)
                        following.append(other)
                elif entry["hops"] == hop:
                    entry["count"] += 1
        frontier = following
    nodes = reader.nodes_by_id(e["node"] for e in found.values())
    fresh.check({n.path for n in nodes.values()} | {start.path})
    # One edge kind one way (importers of a module): said once, not on every row.
    single = (f"{params.direction}:{next(iter(kinds))}"
              if len(kinds) == 1 and params.direction != "both" else None)
    # a module's importers in path order, a list to read and copy (runs 32, 34: agents
    # copying 17 and 32 files ranked by hub score dropped one and wrote a namesake); else
    # the most central first
    by_path = single == "in:imports" and start.kind == "module"
    ranked = sorted((e for e in found.values() if e["node"] in nodes),
                    key=lambda e: (nodes[e["node"]].path, e["hops"]) if by_path else
                    (-nodes[e["node"]].hub, e["hops"], nodes[e["node"]].nid, e["edge"],
                     e["direction"]))
    # an importer through another module (a namespace it re-exports): which, on its row
    via = through_others(reader, start) if by_path else {}
    neighbors = [_neighbor(nodes[e["node"]], e, params.detail, fresh, start, single is None,
                           via.get((e["site"]["file"], e["site"]["line"])) if e["site"]
                           else None)
                 for e in ranked[params.offset:]]
    data: dict[str, Any] = {"node": listed(start, params.detail, fresh)}
    if single is not None and params.detail != "full":
        data["edges"] = single
    data.update(total=len(ranked), neighbors=neighbors)
    hint = "Pass edgeKinds:['calls'], direction:'in' or 'out', or depth:1"
    page = Page("map_neighbors", params.continuation(), params.offset)
    cuts = [Cut("neighbors", ("neighbors",), hint, page=page)]
    if single == "in:imports" and start.kind == "module" and params.depth == 1:
        # the grep an agent would run: imports written with the module's name, not listed
        importing = {nodes[e["node"]].path for e in ranked}
        others = other_imports(reader, Lines(ws.root), start, importing)
        data.update(unlisted(others))
        check = await checked_imports(ws, reader, start, importing, others)
        if check is not None:
            data.update(import_text_entries(
                check, importing, {path for path, _ in others.outside_at}))
        if "unresolved" in data:
            cuts += unresolved_cuts()
    return Answer(data, cuts=cuts)


def _neighbor(node: Node, entry: dict[str, Any], detail: Detail, fresh: Freshness,
              start: Node, edge: bool = True, via: str | None = None) -> Any:
    """One neighbor: its related row (about ``start``: no language or kind where they are
    its own, a file without lines) with ``<direction>:<edge>`` (unless every row has the same),
    ``n:`` (edges, when more than one), ``hops:`` (when more than one), ``at:`` (the line
    of the first site: in the neighbor for an incoming edge, in the start node's file for an
    outgoing one) and ``via:`` (the other module an import line names)."""
    if detail == "full":
        notes: dict[str, Any] = {"edge": entry["edge"], "direction": entry["direction"],
                                 "hops": entry["hops"], "count": entry["count"]}
        if entry["site"] is not None:
            notes["site"] = entry["site"]
        return listed(node, detail, fresh, notes)
    short: dict[str, Any] = {entry["direction"]: entry["edge"]} if edge else {}
    if entry["count"] > 1:
        short["n"] = entry["count"]
    if entry["hops"] > 1:
        short["hops"] = entry["hops"]
    if entry["site"] is not None:
        short["at"] = entry["site"]["line"]
    if via is not None:
        short["via"] = via
    return related(node, start, fresh, short)


def _edges(reader: MapReader, node_id: int, direction: str,
           kinds: set[str]) -> list[tuple[int, str, str, dict[str, Any] | None]]:
    """(other node, edge kind, direction, site anchor) around one node."""
    out: list[tuple[int, str, str, dict[str, Any] | None]] = []
    if direction in ("out", "both"):
        for hit in reader.refs_from(node_id):
            edge = _edge(hit.kind)
            if edge in kinds and hit.target_id is not None:
                out.append((hit.target_id, edge, "out", anchor(hit.path, hit.line, hit.col)))
        if "contains" in kinds:
            out += [(child.id, "contains", "out", None) for child in reader.children(node_id)]
    if direction in ("in", "both"):
        importing: set[str] = set()
        # a package named on the way to a module inside it is not what the line imports
        through = reader.passed_through(node_id) if "imports" in kinds else set()
        for hit in reader.refs_to(node_id):
            edge = _edge(hit.kind)
            if edge == "imports" and (hit.path, hit.line) in through:
                continue
            if edge in kinds:
                out.append((hit.scope_id, edge, "in", anchor(hit.path, hit.line, hit.col)))
            if edge == "imports":
                importing.add(hit.path)
        if "imports" in kinds:
            out += _importers(reader, node_id, importing)
        if "contains" in kinds:
            node = reader.node_by_id(node_id)
            if node is not None and node.parent_id is not None:
                out.append((node.parent_id, "contains", "in", None))
    return out


def _importers(reader: MapReader, node_id: int, known: set[str]
               ) -> list[tuple[int, str, str, dict[str, Any] | None]]:
    """A module's importers besides the files in ``known`` (those whose import the map links
    to the module itself): the files naming only what it defines, or all of it with a
    wildcard (``query/imports.py``)."""
    module = reader.node_by_id(node_id)
    if module is None or module.kind != "module":
        return []
    return [(site.scope_id, "imports", "in", anchor(site.path, site.line, site.col))
            for site in importers(reader, module) if site.path not in known]


# ------------------------------------------------------------------------- registry

MAP_OVERVIEW = ToolSpec(
    name="map_overview",
    brief="languages, main folders, most central definitions, entry points",
    order=3,
    description="Orient in a repository: languages, main folders, central definitions, entry "
                "points.",
    params=OverviewParams, handler=map_overview,
    arguments="`focus?` (folder or node id), `depth?` 1–4, `detail?`",
    returns="languages, `dirs` (· hub mass), `hubs` (· hub score), `entryPoints`",
    example={"focus": "src/app/"},
)
MAP_SEARCH = ToolSpec(
    name="map_search",
    brief="definitions by name or part of one, most used first; text:true: code lines "
          "holding query (grep -F; comments/strings marked; query \"\" with fileFilter "
          "\"a.py:40-60,74,b.py:7\": those lines)",
    order=4,
    description="Definitions by name, part of one or Class.member (then fuzzy), most used "
                "first; or code lines (text).",
    params=SearchParams, handler=map_search,
    arguments="`query`, `kinds?`, `lang?`, `fileFilter?`, `exact?`, `text?` (code lines "
              "holding query, by file), `offset?`, `detail?`",
    returns="`results` (· exact > prefix > word-part > substring/fuzzy, then hub score; "
            "text: lines by file)",
    example={"query": "Session.request"},
)
MAP_OUTLINE = ToolSpec(
    name="map_outline",
    brief="every definition of a file with lines and parameter names (one class's members: "
          "map_node; a whole signature: nav_hover)",
    order=5,
    description="Every definition in one file, nested, with lines and parameters: far "
                "cheaper than reading it.",
    params=OutlineParams, handler=map_outline,
    arguments="`file`, `kinds?`, `offset?`, `detail?`",
    returns="`symbols` rows in source order (parameter names, then names, then counts; paged)",
    example={"file": "src/app/models.py", "kinds": ["class", "method"]},
)
MAP_NODE = ToolSpec(
    name="map_node",
    brief="one definition: signature, doc, parent, members; source on request",
    order=6,
    description="One definition: signature, doc, place, parent, use counts, members (kinds "
                "filter); source on request.",
    params=NodeParams, handler=map_node,
    arguments="`id` or `symbol` (+ `file`), `include?` ⊆ source, doc, children, signatures, "
              "`kinds?`, `offset?`, `detail?`",
    returns="node with signature, doc, place, parent, in/out degree; `source` (elided last); "
            "`children` (· source order; paged)",
    example={"id": "py:src/app/models.py#User", "kinds": ["method"]},
)
MAP_NEIGHBORS = ToolSpec(
    name="map_neighbors",
    brief="what a definition calls/imports/inherits (out) or is used by (in); a module's "
          "importers: edgeKinds imports, direction in",
    order=7,
    needs_links=True,
    description="What a definition calls, references, imports, inherits or contains (out), "
                "or what does so to it (in).",
    params=NeighborsParams, handler=map_neighbors,
    arguments="`id`, `edgeKinds?` ⊆ calls, references, imports, inherits, contains, "
              "`direction?` in/out/both, `depth?` 1–3, `offset?`, `detail?`",
    returns="`neighbors` with edge, direction, hops, site line (· hub score; a module's "
            "importers: · path)",
    example={"id": "py:src/app/models.py", "edgeKinds": ["imports"], "direction": "in"},
)
