"""The nav tools: definition and references. Answered from the map (``source: "map"``);
language servers join them later (SPEC §4–5), with the map as their fallback."""

from __future__ import annotations

from collections import defaultdict
from posixpath import dirname
from typing import Any

from pydantic import Field

from codenav.envelope import Answer, Cut
from codenav.errors import LspUnavailable, SymbolNotFound
from codenav.index.languages import by_code
from codenav.store.read import MapReader, Node, RefHit
from codenav.tools.base import CallContext, ToolSpec
from codenav.tools.common import (
    FileFilter,
    Freshness,
    Lines,
    Located,
    SourceParam,
    TargetParams,
    locate,
    summary,
)
from codenav.workspace import Workspace

__all__ = ["NAV_DEFINITION", "NAV_REFERENCES"]

_NO_SERVER = "source:map (no language server yet): uses via untyped receivers may be missing."
_SNIPPET_COST = 70  # characters a reference with its snippet costs, to read only what fits
_REF_COST = 30  # fewest characters a reference costs: never build more than a budget holds


class NavParams(TargetParams):
    source: SourceParam = Field(default="auto", description="'auto': a language server when "
                                "ready, else the map; 'lsp': only the server; 'map': only the map.")


class ReferencesParams(NavParams):
    fileFilter: str | None = Field(default=None, max_length=1000,
                                   description="Path prefix ('src/') or glob ('**/test_*.py').")
    includeDeclaration: bool = Field(default=False,
                                     description="Also list the definition itself.")


def _source_warnings(source: str, language: str) -> list[str]:
    """Map-only answers for now: 'lsp' cannot be honoured, 'auto' says why it fell back."""
    if source == "lsp":
        raise LspUnavailable(f"no language server for {language} is available in this build",
                             language=language,
                             hint="Pass source:'map' (or 'auto') for the static answer.")
    return [_NO_SERVER] if source == "auto" else []


def _unresolved(reader: MapReader, located: Located) -> SymbolNotFound:
    """Why a reference has no definition in the map, with the candidates when there are."""
    where = (f" at {located.path}:{located.line}:{located.col}" if located.path else "")
    if located.key and located.key.startswith("A::"):
        candidates = [n for n in reader.nodes_named(located.name, 12)
                      if n.kind in ("method", "property", "field")]
        names = ", ".join(n.nid for n in candidates[:8]) or "none in the map"
        return SymbolNotFound(
            f"{located.name!r}{where} is an attribute of a receiver whose type the map cannot "
            f"tell", hint=f"Candidates: {names}. Pass one as id, or source:'lsp' when a "
                          "language server is available.")
    if located.key:
        return SymbolNotFound(
            f"{located.name!r}{where} refers to something outside the mapped files",
            hint="It may come from an installed package or the standard library.")
    return SymbolNotFound(
        f"{located.name!r}{where} is a local name (parameter, local variable) or a builtin: "
        "not a definition in the map",
        hint="Its binding is in the enclosing function; map_outline shows the function.")


def _resolved(ws: Workspace, params: NavParams) -> tuple[MapReader, Located, Freshness]:
    reader = ws.reader()
    fresh = Freshness(ws)
    located = locate(ws, reader, params, fresh)
    return reader, located, fresh


async def nav_definition(ws: Workspace, params: NavParams, ctx: CallContext) -> Answer:
    reader, located, fresh = _resolved(ws, params)
    language = located.node.lang if located.node else "py"
    warnings = _source_warnings(params.source, language) + located.warnings
    lines = Lines(ws.root)
    nodes: list[Node] = [located.node] if located.node is not None else []
    if not nodes and located.key and located.key.startswith("A::"):
        nodes = [n for n in reader.nodes_named(located.name, 12)
                 if n.kind in ("method", "property", "field")]
        if nodes:
            warnings.append(f"{len(nodes)} members are named {located.name!r} and the "
                            "receiver's type is unknown: all are listed, best hub first.")
    if not nodes:
        raise _unresolved(reader, located)
    fresh.check({n.path for n in nodes})
    definitions = []
    for node in nodes:
        item = summary(node, fresh)
        item["anchor"]["snippet"] = lines.line(node.path, node.name_line)
        definitions.append(item)
    data = {"symbol": located.name, "definitions": definitions, "source": "map"}
    cut = Cut("definitions", ("definitions",), "Pass an id to pick one")
    return Answer(data, cuts=[cut], elide=("snippet",), warnings=warnings + fresh.warnings())


async def nav_references(ws: Workspace, params: ReferencesParams, ctx: CallContext) -> Answer:
    reader, located, fresh = _resolved(ws, params)
    node = located.node
    if node is None:
        raise _unresolved(reader, located)
    warnings = _source_warnings(params.source, node.lang) + located.warnings
    files = FileFilter(params.fileFilter)
    # (line, col, kind, scope id) per file: cheap tuples for all; dicts only for what can fit.
    by_file: dict[str, list[tuple[int, int, str, int | None]]] = defaultdict(list)
    for other in reader.family(node):  # the symbol's other declarations (a setter), its own
        if (other.id != node.id or params.includeDeclaration) and files(other.path):
            by_file[other.path].append((other.name_line, other.name_col, "declaration", None))
    seen: set[tuple[str, int, int]] = set()
    for hit in _references_of(reader, node):
        where = (hit.path, hit.line, hit.col)
        if where not in seen and files(hit.path):
            seen.add(where)
            by_file[hit.path].append((hit.line, hit.col, hit.kind, hit.scope_id))
    order = sorted(by_file, key=lambda path: (-len(by_file[path]), path))
    total = sum(len(refs) for refs in by_file.values())
    budget = params.tokenBudget or 2000
    room, snippets = max(12, budget * 4 // _REF_COST), max(8, budget * 4 // _SNIPPET_COST)
    shown: list[tuple[str, list[tuple[int, int, str, int | None]]]] = []
    for path in order:
        if room <= 0:
            break
        refs = sorted(by_file[path])[:room]
        room -= len(refs)
        shown.append((path, refs))
    scopes = reader.nodes_by_id({scope for _, refs in shown for *_, scope in refs
                                 if scope is not None})
    fresh.check({path for path, _ in shown})
    lines = Lines(ws.root)
    groups = []
    for path, refs in shown:
        items = []
        for line, col, kind, scope_id in refs:
            item: dict[str, Any] = {"line": line, "col": col, "kind": kind}
            scope = scopes.get(scope_id) if scope_id is not None else None
            if scope is not None and scope.qname:
                item["in"] = scope.qname
            if snippets > 0:
                item["snippet"] = lines.line(path, line)
                snippets -= 1
            items.append(item)
        groups.append(fresh.mark({"file": path, "count": len(by_file[path]), "refs": items},
                                 path))
    data = {"symbol": summary(node, fresh), "total": total, "files": len(order),
            "references": groups, "source": "map"}
    unshown = next((path for path in order[len(shown):]), None)

    def narrower(dropped: list[Any]) -> dict[str, Any] | None:
        first = next((g["file"] for g in groups if dropped and
                      any(r is dropped[0] for r in g["refs"])), unshown)
        if first is None:
            return None
        folder = dirname(first)
        return {"tool": "nav_references",
                "args": {"id": node.nid, "fileFilter": f"{folder}/" if folder else first,
                         "source": params.source}}

    hint = "Pass fileFilter:'<folder>/' to scope results"
    cut = Cut("references", ("references",), hint, shape="groups", children="refs",
              next=narrower, omitted=total - sum(len(g["refs"]) for g in groups))
    return Answer(data, cuts=[cut], elide=("snippet",), warnings=warnings + fresh.warnings())


def _references_of(reader: MapReader, node: Node) -> list[RefHit]:
    """Uses of a symbol: of every declaration of it, and for a constructor the calls of its
    class (what a language server reports too)."""
    hits = [hit for member in reader.family(node) for hit in reader.refs_to(member.id)]
    lang = by_code(node.lang)
    if (lang is not None and node.name == lang.constructor and node.kind == "method"
            and node.parent_id is not None):
        hits += [hit for hit in reader.refs_to(node.parent_id) if hit.kind == "call"]
    return hits


NAV_DEFINITION = ToolSpec(
    name="nav_definition",
    description=(
        "Go to the definition of the symbol at a position (file + line + col), of a name "
        "('Session.request') or of a node id. Resolves imports, re-exports, self/cls members, "
        "inherited members and annotated or constructed types."),
    params=NavParams, handler=nav_definition,
    arguments="id or position, `source?` auto/lsp/map",
    returns="`definitions` (anchors + ids)",
)
NAV_REFERENCES = ToolSpec(
    name="nav_references",
    description=(
        "Every place that uses a definition (given by id, position or name), grouped by file, "
        "files with most uses first, each with its line, column, kind (call, import, "
        "inheritance …) and enclosing definition. Scope with fileFilter."),
    params=ReferencesParams, handler=nav_references,
    arguments="id or position, `fileFilter?`, `includeDeclaration?`, `source?`",
    returns="total, `references` grouped by file (· files by reference count, then path)",
)
