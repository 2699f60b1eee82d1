"""The nav tools that find things: definition, references, hover. A language server answers
when ``source`` lets it (``tools/live.py``); the map answers otherwise, saying why."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping
from posixpath import dirname
from typing import Any

from pydantic import Field

from codenav.envelope import Answer, Cut
from codenav.errors import SymbolNotFound
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
from codenav.tools.live import Live, ask_at, location_item, locations, position_request
from codenav.workspace import Workspace

__all__ = ["NAV_DEFINITION", "NAV_HOVER", "NAV_REFERENCES", "NavParams", "declarations_of",
           "references_of", "resolved"]

_HOVER_CHARS = 4000
_MEMBER_KINDS = frozenset({"method", "field", "property", "attribute"})
# A reference while grouping: (line, col, kind, id of the enclosing node or None).
_Ref = tuple[int, int, str, int | None]
_ANY_MEMBER = re.compile(r"^(?:V:[^:]*:[^:]*::[^|]*\|)?A:([a-z0-9+]*)::")  # receiver unknown
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


def _unresolved(reader: MapReader, located: Located) -> SymbolNotFound:
    """Why a reference has no definition in the map, with the candidates when there are."""
    where = (f" at {located.path}:{located.line}:{located.col}" if located.path else "")
    if located.key and _ANY_MEMBER.match(located.key):
        candidates = [n for n in reader.nodes_named(located.name, 12)
                      if n.kind in _MEMBER_KINDS]
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


def resolved(ws: Workspace, params: NavParams) -> tuple[MapReader, Located, Freshness]:
    reader = ws.reader()
    fresh = Freshness(ws)
    located = locate(ws, reader, params, fresh)
    return reader, located, fresh


async def nav_definition(ws: Workspace, params: NavParams, ctx: CallContext) -> Answer:
    from lsprotocol import types as T  # lazily: 0.6 s to import
    reader, located, fresh = resolved(ws, params)
    live = await ask_at(ws, located, params.source, "definition", lambda target: position_request(
        target, T.TEXT_DOCUMENT_DEFINITION, lambda uri: T.DefinitionParams(**target.at(uri))))
    warnings = live.notes + located.warnings
    lines = Lines(ws.root)
    if live.answered:
        found = locations(live.result)
        if found or located.node is None or params.source == "lsp":
            cache: dict[str, Any] = {}
            definitions = []
            for uri, rng in found:
                item = location_item(reader, ws, uri, rng, cache)
                if not item.get("external"):
                    item["snippet"] = lines.line(item["file"], item["line"])
                definitions.append(item)
            if not definitions:
                warnings.append("the language server knows no definition here")
            data = {"symbol": located.name, "definitions": definitions, "source": "lsp"}
            cut = Cut("definitions", ("definitions",), "Pass a position to pick one")
            return Answer(data, cuts=[cut], elide=("snippet",), warnings=warnings)
        warnings.append("the language server found no definition; the map's answer follows")
    nodes: list[Node] = [located.node] if located.node is not None else []
    guess = _ANY_MEMBER.match(located.key) if located.key else None
    if not nodes and guess is not None:
        nodes = [n for n in reader.nodes_named(located.name, 50)
                 if n.kind in _MEMBER_KINDS and _family(n.lang) == _family(guess.group(1))][:12]
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
    from lsprotocol import types as T  # lazily: 0.6 s to import
    reader, located, fresh = resolved(ws, params)
    files = FileFilter(params.fileFilter)
    context = T.ReferenceContext(include_declaration=params.includeDeclaration)
    live = await ask_at(ws, located, params.source, "references", lambda target: position_request(
        target, T.TEXT_DOCUMENT_REFERENCES,
        lambda uri: T.ReferenceParams(**target.at(uri), context=context)), wide=True)
    if live.answered:
        return _lsp_references(ws, reader, params, located, live, files)
    node = located.node
    if node is None:
        raise _unresolved(reader, located)
    warnings = live.notes + located.warnings
    declarations = declarations_of(reader, node)
    members = [member.id for member in declarations]
    calls_of = _constructed(node)
    # Counted per file in SQL; only the files that fit the budget are read row by row.
    declared: dict[str, list[_Ref]] = defaultdict(list)  # other declarations (a setter …)
    for other in declarations:
        if (other.id != node.id or params.includeDeclaration) and files(other.path):
            declared[other.path].append((other.name_line, other.name_col, "declaration", None))
    counts = Counter({path: count for path, count in
                      reader.uses_per_file(members, calls_of).items() if files(path)})
    for path, refs in declared.items():
        counts[path] += len(refs)

    def refs_in(paths: list[str]) -> dict[str, list[_Ref]]:
        found: dict[str, list[_Ref]] = {path: list(declared.get(path, ())) for path in paths}
        seen: set[tuple[str, int, int]] = set()
        for hit in reader.uses_in(members, calls_of, paths):
            if (hit.path, hit.line, hit.col) not in seen:
                seen.add((hit.path, hit.line, hit.col))
                found[hit.path].append((hit.line, hit.col, hit.kind, hit.scope_id))
        return found

    total = sum(counts.values())
    budget = params.tokenBudget or 2000
    snippets = max(8, budget * 4 // _SNIPPET_COST)
    shown = _grouped(counts, budget, refs_in)
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
        groups.append(fresh.mark({"file": path, "count": counts[path], "refs": items}, path))
    data = {"symbol": summary(node, fresh), "total": total, "files": len(counts),
            "references": groups, "source": "map"}
    cut = _references_cut(counts, groups, {"id": node.nid}, params.source)
    return Answer(data, cuts=[cut], elide=("snippet",), warnings=warnings + fresh.warnings())


def _by_count(counts: Mapping[str, int]) -> list[str]:
    """Files by reference count, then path."""
    return sorted(counts, key=lambda path: (-counts[path], path))


def _grouped(counts: Mapping[str, int], budget: int,
             refs_in: Callable[[list[str]], dict[str, list[_Ref]]]
             ) -> list[tuple[str, list[_Ref]]]:
    """Files by reference count, then path, with as many of their references (in order) as
    a budget could hold; ``refs_in`` reads the references of the files that fit."""
    room = max(12, budget * 4 // _REF_COST)
    fitting: list[tuple[str, int]] = []
    for path in _by_count(counts):
        if room <= 0:
            break
        fitting.append((path, min(counts[path], room)))
        room -= counts[path]
    found = refs_in([path for path, _ in fitting])
    return [(path, sorted(found.get(path, ()))[:room_here]) for path, room_here in fitting]


def _references_cut(counts: Mapping[str, int], groups: list[dict[str, Any]],
                    target: dict[str, Any], source: str) -> Cut:
    """How a references answer is cut: leaves of the file groups; the follow-up call scopes
    ``target``'s references to the folder of the first reference dropped (or file left out)."""
    listed = {g["file"] for g in groups}
    unshown = next((path for path in _by_count(counts) if path not in listed), None)

    def narrower(dropped: list[Any]) -> dict[str, Any] | None:
        first = next((g["file"] for g in groups if dropped and
                      any(r is dropped[0] for r in g["refs"])), unshown)
        if first is None:
            return None
        folder = dirname(first)
        return {"tool": "nav_references",
                "args": {**target, "fileFilter": f"{folder}/" if folder else first,
                         "source": source}}

    return Cut("references", ("references",), "Pass fileFilter:'<folder>/' to scope results",
               shape="groups", children="refs", next=narrower,
               omitted=sum(counts.values()) - sum(len(g["refs"]) for g in groups))


def _lsp_references(ws: Workspace, reader: MapReader, params: ReferencesParams,
                    located: Located, live: Live, files: FileFilter) -> Answer:
    """The server's references, grouped like the map's, with the map's kind and enclosing
    definition where the map has that reference too."""
    by_file: dict[str, list[_Ref]] = defaultdict(list)
    external = 0
    for uri, rng in locations(live.result):
        item = location_item(reader, ws, uri, rng, {})
        if item.get("external"):
            external += 1
            continue
        if files(item["file"]):
            by_file[item["file"]].append((item["line"], item["col"], "reference", None))
    counts = {path: len(refs) for path, refs in by_file.items()}
    total = sum(counts.values())
    shown = _grouped(counts, params.tokenBudget or 2000, lambda _paths: by_file)
    lines = Lines(ws.root)
    snippets = max(8, (params.tokenBudget or 2000) * 4 // _SNIPPET_COST)
    groups: list[dict[str, Any]] = []
    for path, refs in shown:
        stat = reader.file(path)
        items = []
        for line, col, kind, _ in refs:
            entry: dict[str, Any] = {"line": line, "col": col, "kind": kind}
            hit = reader.ref_at(stat.id, line, col) if stat is not None else None
            if hit is not None:
                entry["kind"] = hit[1]
            scope = reader.enclosing(stat.id, line) if stat is not None else None
            if scope is not None and scope.qname:
                entry["in"] = scope.qname
            if snippets > 0:
                entry["snippet"] = lines.line(path, line)
                snippets -= 1
            items.append(entry)
        groups.append({"file": path, "count": len(by_file[path]), "refs": items})
    symbol: dict[str, Any] = ({"id": located.node.nid, "kind": located.node.kind}
                              if located.node is not None else {"name": located.name})
    data = {"symbol": symbol, "total": total, "files": len(by_file), "references": groups,
            "source": "lsp"}
    warnings = list(located.warnings)
    if external:
        warnings.append(f"{external} reference(s) outside the root are not listed")
    target: dict[str, Any] = ({"id": located.node.nid} if located.node is not None else
                              {"file": located.path, "line": located.line, "col": located.col})
    cut = _references_cut(counts, groups, target, params.source)
    return Answer(data, cuts=[cut], elide=("snippet",), warnings=warnings)


def _hover_text(result: Any) -> str:
    """Plain text of a Hover's contents, whatever shape they come in."""
    contents = getattr(result, "contents", None)
    parts = contents if isinstance(contents, (list, tuple)) else [contents]
    out = []
    for part in parts:
        if part is None:
            continue
        if isinstance(part, str):
            out.append(part)
        else:
            value = getattr(part, "value", None)
            if isinstance(value, str):
                out.append(value)
    text = "\n\n".join(p.strip() for p in out if p.strip())
    return text if len(text) <= _HOVER_CHARS else text[: _HOVER_CHARS - 1] + "…"


async def nav_hover(ws: Workspace, params: NavParams, ctx: CallContext) -> Answer:
    from lsprotocol import types as T  # lazily: 0.6 s to import
    reader, located, fresh = resolved(ws, params)
    live = await ask_at(ws, located, params.source, "hover", lambda target: position_request(
        target, T.TEXT_DOCUMENT_HOVER, lambda uri: T.HoverParams(**target.at(uri))))
    warnings = live.notes + located.warnings
    if live.answered:
        text = _hover_text(live.result)
        if text or located.node is None or params.source == "lsp":
            data: dict[str, Any] = {"symbol": located.name, "hover": text, "source": "lsp"}
            if located.node is not None:
                data["id"] = located.node.nid
            if not text:
                warnings.append("the language server has nothing to show here")
            return Answer(data, elide=("hover",), warnings=warnings)
        warnings.append("the language server had nothing to show; the map's answer follows")
    node = located.node
    if node is None:
        raise _unresolved(reader, located)
    fresh.check({node.path})
    item = summary(node, fresh)
    item["qualifiedName"] = node.qname
    if node.doc:
        item["doc"] = node.doc
    parent = reader.node_by_id(node.parent_id) if node.parent_id is not None else None
    if parent is not None and parent.kind != "module":
        item["parent"] = parent.nid
    data = {"symbol": located.name, "hover": item, "source": "map"}
    return Answer(data, warnings=warnings + fresh.warnings())


def _family(code: str) -> str:
    """The language family of a language code (TypeScript, TSX and JavaScript are one)."""
    lang = by_code(code)
    return (lang.modules or lang.code) if lang is not None else code


def declarations_of(reader: MapReader, node: Node) -> list[Node]:
    """Every declaration of one symbol: its namesakes in its scope (a property and its
    setter) and, where the language's references say so (TypeScript), the members it
    overrides or implements and those overriding it."""
    found = reader.family(node)
    lang = by_code(node.lang)
    if lang is not None and lang.related_members and node.kind in _MEMBER_KINDS and \
            node.name != lang.constructor:
        found += [other for other in reader.related_members(node)
                  if other.kind in _MEMBER_KINDS]
    return found


def _constructed(node: Node) -> int | None:
    """For a constructor, its class: calls of the class (``Foo()``, ``new Foo()``) are uses
    of the constructor too (what a language server reports). A constructor is what the
    language names one (``__init__``, ``constructor``), a ``constructor`` node (Java, C#), or
    a method named like its class (C++)."""
    if node.parent_id is None or node.kind not in ("method", "constructor"):
        return None
    lang = by_code(node.lang)
    scope = node.qname.split(".")
    if node.kind == "constructor" or (lang is not None and node.name == lang.constructor) \
            or (len(scope) >= 2 and scope[-2] == node.name):
        return node.parent_id
    return None


def references_of(reader: MapReader, node: Node) -> list[RefHit]:
    """Uses of a symbol: of every declaration of it, and for a constructor the calls of its
    class."""
    return reader.uses_in([member.id for member in declarations_of(reader, node)],
                          _constructed(node))


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
NAV_HOVER = ToolSpec(
    name="nav_hover",
    description=(
        "What a symbol is (by id, position or name): a language server's hover — type, "
        "signature and documentation — or, from the map, its signature, kind, qualified name "
        "and first doc line."),
    params=NavParams, handler=nav_hover,
    arguments="id or position, `source?`",
    returns="signature/type, doc",
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
