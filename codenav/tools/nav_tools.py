"""The nav tools that find things: definition, references, hover. A language server answers
when ``source`` lets it (``tools/live.py``); the map answers otherwise, saying why.

A symbol name that several definitions share (``padding``) is answered for each of them,
best first, in one answer (up to ``MAX_CANDIDATES``)."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from posixpath import dirname
from typing import Any

from pydantic import Field

from codenav.envelope import EVERY, Answer, Cut, Page
from codenav.errors import SymbolNotFound
from codenav.index.languages import by_code
from codenav.index.overloads import parameter_types
from codenav.store.read import MapReader, Node, RefHit
from codenav.tools.base import CallContext, DetailParam, OffsetParam, ToolSpec
from codenav.tools.common import (
    FileFilter,
    Freshness,
    Lines,
    Located,
    SourceParam,
    TargetParams,
    listed,
    locate,
    scope_names,
    summary,
)
from codenav.tools.live import Live, ask_at, location_item, locations, position_request
from codenav.tools.rows import MODULE, Detail, place, ref_row
from codenav.workspace import Workspace

__all__ = ["NAV_DEFINITION", "NAV_HOVER", "NAV_REFERENCES", "NavParams", "declarations_of",
           "references_of", "resolved"]

_HOVER_CHARS = 4000
_MEMBER_KINDS = frozenset({"method", "field", "property", "attribute"})
# A reference while grouping: (line, col, kind, id of the enclosing node or None, name).
_Ref = tuple[int, int, str, int | None, str]
_ANY_MEMBER = re.compile(r"^(?:V:[^:]*:[^:]*::[^|]*\|)?A:([a-z0-9+]*)::")  # receiver unknown
_SNIPPET_COST = 70  # characters a reference with its code line costs, to read only what fits
_REF_COST = 24  # fewest characters a reference costs: never build more than a budget holds


class NavParams(TargetParams):
    source: SourceParam = Field(default="auto", description="auto | lsp | map")
    detail: Detail = DetailParam()


class ReferencesParams(NavParams):
    fileFilter: str | None = Field(default=None, max_length=1000,
                                   description="Path prefix or glob")
    includeDeclaration: bool = Field(default=False, description="List the definition too")
    offset: int = OffsetParam()


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


def resolved(ws: Workspace, params: TargetParams) -> tuple[MapReader, Located, Freshness]:
    reader = ws.reader()
    fresh = Freshness(ws, links=True)
    located = locate(ws, reader, params, fresh)
    return reader, located, fresh


def more_warning(located: Located) -> list[str]:
    """The warning for definitions a name matched beyond those answered."""
    if not located.more:
        return []
    return [f"{located.matches()} definitions match {located.name!r}; the best "
            f"{located.matches() - located.more} are answered. Pass id or a qualified name "
            f"('Class.{located.name}') to pick one."]


# ------------------------------------------------------------------------- definition

async def nav_definition(ws: Workspace, params: NavParams, ctx: CallContext) -> Answer:
    from lsprotocol import types as T  # lazily: 0.6 s to import
    reader, located, fresh = resolved(ws, params)
    lines = Lines(ws.root)
    warnings = list(located.warnings)
    if not located.others:  # a name shared by several definitions: the map lists them all
        live = await ask_at(ws, located, params.source, "definition",
                            lambda target: position_request(
                                target, T.TEXT_DOCUMENT_DEFINITION,
                                lambda uri: T.DefinitionParams(**target.at(uri))))
        warnings = live.notes + warnings
        if live.answered:
            found = locations(live.result)
            if found or located.node is None or params.source == "lsp":
                definitions = [_lsp_definition(reader, ws, uri, rng, lines, params.detail,
                                               fresh) for uri, rng in found]
                if not definitions:
                    warnings.append("the language server knows no definition here")
                data = {"symbol": located.name, "definitions": definitions, "source": "lsp"}
                cut = Cut("definitions", ("definitions",), "Pass a position to pick one")
                return Answer(data, cuts=[cut], elide=("snippet",),
                              warnings=warnings + fresh.warnings())
            warnings.append("the language server found no definition; the map's answer follows")
    nodes: list[Node] = [c.node for c in located.each() if c.node is not None]
    guess = _ANY_MEMBER.match(located.key) if located.key else None
    if not nodes and guess is not None:
        nodes = [n for n in reader.nodes_named(located.name, 50)
                 if n.kind in _MEMBER_KINDS and _family(n.lang) == _family(guess.group(1))][:12]
        if nodes:
            warnings.append(f"{len(nodes)} members are named {located.name!r} and the "
                            "receiver's type is unknown (a guess by name): all are listed, "
                            "most used first.")
    if not nodes:
        raise _unresolved(reader, located)
    fresh.check({n.path for n in nodes})
    definitions = []
    for node in nodes:
        item = listed(node, params.detail, fresh)
        if params.detail == "full":
            item["anchor"]["snippet"] = lines.line(node.path, node.name_line)
        definitions.append(item)
    data = {"symbol": located.name, "definitions": definitions, "source": "map"}
    cut = Cut("definitions", ("definitions",), "Pass an id to pick one")
    return Answer(data, cuts=[cut], elide=("snippet",),
                  warnings=warnings + more_warning(located) + fresh.warnings())


def _lsp_definition(reader: MapReader, ws: Workspace, uri: str, rng: Any, lines: Lines,
                    detail: Detail, fresh: Freshness) -> Any:
    """A definition a language server named: the map's node row where the map has it, else
    its place and code line (``external`` outside the root; ``stale`` where the map's entry
    of its file is)."""
    item = location_item(reader, ws, uri, rng, {}, fresh)
    if not item.get("external"):
        item["snippet"] = lines.line(item["file"], item["line"])
    if detail == "full":
        return item
    node = reader.node(item["id"]) if "id" in item else None
    if node is not None:
        return listed(node, detail, fresh)
    row = place(item["file"], item["line"], item["col"])
    if item.get("external"):
        return f"{row} (external)"
    return f"{row} | {item['snippet']}" if item.get("snippet") else row


# ------------------------------------------------------------------------- references

@dataclass
class _Refs:
    """One definition's references as a page: per file, in rank order."""

    total: int
    files: int
    shown: list[tuple[str, list[_Ref]]]  # (path, its references on this page)
    guessed: int = 0  # of the total, matched by name alone (receiver type unknown)

    def count(self) -> int:
        return sum(len(refs) for _, refs in self.shown)


async def nav_references(ws: Workspace, params: ReferencesParams, ctx: CallContext) -> Answer:
    from lsprotocol import types as T  # lazily: 0.6 s to import
    reader, located, fresh = resolved(ws, params)
    files = FileFilter(params.fileFilter)
    budget = params.tokenBudget or 2000
    if located.others:
        return _several(ws, reader, located, params, files, fresh)
    context = T.ReferenceContext(include_declaration=params.includeDeclaration)
    live = await ask_at(ws, located, params.source, "references", lambda target: position_request(
        target, T.TEXT_DOCUMENT_REFERENCES,
        lambda uri: T.ReferenceParams(**target.at(uri), context=context)), wide=True)
    warnings = live.notes + located.warnings
    node = located.node
    if live.answered:
        lsp = _lsp_refs(ws, reader, live, files)
        mapped = (_map_counts(reader, node, params.includeDeclaration, files)[0]
                  if node is not None else Counter[str]())
        # The server saw fewer files than the map: its project configuration leaves some out.
        missing = [path for path in mapped if path not in lsp.counts]
        if node is None or len(lsp.counts) >= len(mapped):
            return _answer_lsp(ws, reader, params, located, lsp, warnings, fresh)
        if params.source == "lsp":  # insisted on: the server's answer, and what it left out
            warnings.append(f"the map also has references in {len(missing)} file(s) the "
                            "language server did not search (outside its project?); "
                            "source:'auto' adds them")
            return _answer_lsp(ws, reader, params, located, lsp, warnings, fresh)
        if lsp.total:
            warnings.append(
                f"the language server's references cover {len(lsp.counts)} file(s), the map's "
                f"{len(mapped)}: those in the {len(missing)} file(s) it left out (outside its "
                "project?) come from the map")
            return _answer_lsp(ws, reader, params, located, lsp, warnings, fresh,
                               _map_refs(reader, node, params, files, 0, 1 << 30, only=missing))
        warnings.append(f"the language server found no references, the map {mapped.total()} "
                        "(the server's project may leave these files out): the map's answer "
                        "follows")
    if node is None:
        raise _unresolved(reader, located)
    room = max(12, budget * 4 // _REF_COST)
    refs = _map_refs(reader, node, params, files, params.offset, room)
    symbol = listed(node, params.detail, fresh, signature=False, whole=False)
    section = _section(ws, reader, symbol, refs, params.detail, fresh, budget, node.name)
    data = {**section, "source": "map"}
    cut = _refs_cut(refs, params.offset, Page("nav_references",
                                                params.continuation(id=node.nid, symbol=None,
                                                                    file=None, line=None,
                                                                    col=None), params.offset),
                    ("references", EVERY))
    return Answer(data, cuts=[cut], elide=("snippet",),
                  warnings=warnings + _guess_warning(refs.guessed) + fresh.warnings())


def _several(ws: Workspace, reader: MapReader, located: Located, params: ReferencesParams,
             files: FileFilter, fresh: Freshness) -> Answer:
    """The references of every definition a shared name names, one section each (the map
    answers: asking a server once per candidate would take too long)."""
    budget = params.tokenBudget or 2000
    room = max(12, budget * 4 // _REF_COST)
    sections: list[dict[str, Any]] = []
    omitted = guessed = 0
    covered: set[int] = set()  # a property's setter is the same symbol as its getter
    for candidate in located.each():
        assert candidate.node is not None
        if candidate.node.id in covered:
            continue
        covered.update(member.id for member in declarations_of(reader, candidate.node))
        refs = _map_refs(reader, candidate.node, params, files, 0, room)
        room = max(0, room - refs.count())
        omitted += refs.total - refs.count()
        guessed += refs.guessed
        sections.append(_section(ws, reader,
                                 listed(candidate.node, params.detail, fresh, signature=False,
                                        whole=False),
                                 refs, params.detail, fresh, budget // located.matches(),
                                 candidate.node.name))
    data = {"symbol": located.name, "matches": located.matches(), "results": sections,
            "source": "map"}
    cut = Cut("references", ("results", EVERY, "references", EVERY),
              "Pass id (or a qualified name) for one definition's references, paged",
              omitted=omitted)
    warnings = [f"{located.matches()} definitions are named {located.name!r}: the references "
                "of each follow, best first", *more_warning(located)]
    return Answer(data, cuts=[cut], elide=("snippet",),
                  warnings=warnings + _guess_warning(guessed) + fresh.warnings())


def _guess_warning(guessed: int) -> list[str]:
    if not guessed:
        return []
    return [f"{guessed} of these references were matched by name only (the receiver's type is "
            "unknown): check them, or pass source:'lsp'"]


def _map_counts(reader: MapReader, node: Node, declaration: bool, files: FileFilter
                ) -> tuple[Counter[str], dict[str, list[_Ref]], list[int], int | None]:
    """Per-file counts of one definition's references (counted in SQL), the other
    declarations to list with them, and what ``uses_in`` needs to read them."""
    declarations = declarations_of(reader, node)
    members = [member.id for member in declarations] + _constructors(reader, node)
    calls_of = _constructed(node)
    declared: dict[str, list[_Ref]] = defaultdict(list)  # other declarations (a setter …)
    for other in declarations:
        if (other.id != node.id or declaration) and files(other.path):
            declared[other.path].append((other.name_line, other.name_col, "declaration",
                                         other.parent_id, other.name))
    counts = Counter({path: count for path, count in
                      reader.uses_per_file(members, calls_of, declaration, False).items()
                      if files(path)})
    for path, refs in declared.items():
        counts[path] += len(refs)
    return counts, declared, members, calls_of


def _map_refs(reader: MapReader, node: Node, params: ReferencesParams, files: FileFilter,
              offset: int, room: int, only: list[str] | None = None) -> _Refs:
    """A page of the map's references of ``node``: files by reference count, then path;
    ``offset`` references skipped, at most ``room`` read (row by row only for the files on
    the page). ``only`` limits it to some files."""
    counts, declared, members, calls_of = _map_counts(reader, node, params.includeDeclaration,
                                                      files)
    if only is not None:
        counts = Counter({path: counts[path] for path in only if path in counts})
    page = _page(counts, offset, room)
    found: dict[str, list[_Ref]] = {path: list(declared.get(path, ())) for path, _, _ in page}
    seen: set[tuple[str, int, int]] = set()
    for hit in reader.uses_in(members, calls_of, list(found), params.includeDeclaration,
                              False):
        if (hit.path, hit.line, hit.col) not in seen:
            seen.add((hit.path, hit.line, hit.col))
            found[hit.path].append((hit.line, hit.col, hit.kind, hit.scope_id, hit.name))
    shown = [(path, sorted(found[path])[skip: skip + take]) for path, skip, take in page]
    return _Refs(sum(counts.values()), len(counts), shown,
                 reader.guessed_uses(members) if members else 0)


def _page(counts: Mapping[str, int], offset: int, room: int) -> list[tuple[str, int, int]]:
    """(path, skip, take) of each file on a page: files by count then path, the first
    ``offset`` references skipped, at most ``room`` taken."""
    out = []
    for path in sorted(counts, key=lambda p: (-counts[p], p)):
        if room <= 0:
            break
        if offset >= counts[path]:
            offset -= counts[path]
            continue
        take = min(counts[path] - offset, room)
        out.append((path, offset, take))
        room -= take
        offset = 0
    return out


def _section(ws: Workspace, reader: MapReader, symbol: Any, refs: _Refs, detail: Detail,
             fresh: Freshness, budget: int, name: str) -> dict[str, Any]:
    """One symbol's references as shown: rows per file (objects with ``detail`` full). A
    row of an import of ``name`` (the symbol's) under its own name has no code: the line
    says no more than its kind and place do."""
    scopes = scope_names(reader, {scope for _, page in refs.shown for _, _, _, scope, _ in page
                                  if scope is not None})
    fresh.check({path for path, _ in refs.shown})
    lines = Lines(ws.root)
    snippets = max(8, budget * 4 // _SNIPPET_COST)
    kinds = Counter(kind for _, page in refs.shown for _, _, kind, _, _ in page)
    common = max(kinds, key=lambda k: (kinds[k], k == "call")) if kinds else "call"
    grouped: dict[str, list[Any]] = {}
    for path, page in refs.shown:
        items: list[Any] = []
        above = MODULE  # a row's `in` is left out when the row above has it (a file's
        # first row: when it is <module>)
        for line, col, kind, scope_id, used in page:
            code = lines.line(path, line) if snippets > 0 else None
            if code is not None and detail != "full" and kind == "import" and used == name \
                    and not _renames(code, name):
                code = None
            snippets -= code is not None
            scope = scopes.get(scope_id, MODULE) if scope_id is not None else MODULE
            if detail == "full":
                item: dict[str, Any] = {"line": line, "col": col, "kind": kind, "in": scope}
                if code is not None:
                    item["snippet"] = code
                items.append(item)
            else:
                items.append(ref_row(line, col, kind, scope if scope != above else None,
                                     code, used, common))
                above = scope
        grouped[path] = items
    out: dict[str, Any] = {"symbol": symbol, "total": refs.total}
    if detail == "full":
        out["files"] = refs.files
    elif common != "call":  # rows say their kind when it is not refKind (call by default)
        out["refKind"] = common
    stale = sorted(path for path, _ in refs.shown if path in fresh.stale)
    if stale:  # changed on disk since they were indexed: their lines may have moved
        out["staleFiles"] = stale
    out["references"] = grouped
    return out


def _renames(code: str, name: str) -> bool:
    """Whether an import line binds ``name`` under another name (``name as other``)."""
    return re.search(rf"(?<![\w$]){re.escape(name)}\s+as\s", code) is not None


def _refs_cut(refs: _Refs, offset: int, page: Page | None, path: tuple[str, ...]) -> Cut:
    """How a page of references is cut: its rows in order, continued by ``page``; the
    note's narrowing step scopes to the folder of the first file."""
    first = refs.shown[0][0] if refs.shown else ""
    folder = dirname(first)
    hint = f"Pass fileFilter:'{folder}/' to scope results" if folder else \
        "Pass fileFilter:'<folder>/' to scope results"
    return Cut("references", path, hint, page=page,
               omitted=max(0, refs.total - offset - refs.count()))


@dataclass
class _LspRefs:
    by_file: dict[str, list[_Ref]]
    counts: dict[str, int]
    external: int

    @property
    def total(self) -> int:
        return sum(self.counts.values())


def _lsp_refs(ws: Workspace, reader: MapReader, live: Live, files: FileFilter) -> _LspRefs:
    by_file: dict[str, list[_Ref]] = defaultdict(list)
    external = 0
    for uri, rng in locations(live.result):
        item = location_item(reader, ws, uri, rng, {})
        if item.get("external"):
            external += 1
            continue
        if files(item["file"]):
            by_file[item["file"]].append((item["line"], item["col"], "reference", None, ""))
    return _LspRefs(by_file, {path: len(refs) for path, refs in by_file.items()}, external)


def _answer_lsp(ws: Workspace, reader: MapReader, params: ReferencesParams, located: Located,
                lsp: _LspRefs, warnings: list[str], fresh: Freshness,
                extra: _Refs | None = None) -> Answer:
    """The server's references, shown like the map's (with the map's kind and enclosing
    definition where the map has that reference too); ``extra`` are the map's references
    in files the server did not cover."""
    by_file = dict(lsp.by_file)
    if extra is not None:
        for path, page in extra.shown:
            by_file[path] = page
    counts = {path: len(refs) for path, refs in by_file.items()}
    budget = params.tokenBudget or 2000
    shown: list[tuple[str, list[_Ref]]] = []
    for path, skip, take in _page(counts, params.offset, max(12, budget * 4 // _REF_COST)):
        stat = reader.file(path)
        refs = []
        for ref in sorted(by_file[path])[skip: skip + take]:
            line, col, kind, scope, name = ref
            hit = reader.ref_at(stat.id, line, col) if stat is not None else None
            if scope is None and stat is not None:
                around = reader.enclosing(stat.id, line)
                scope = around.id if around is not None else None
            refs.append((line, col, hit[1] if hit else kind, scope, hit[0] if hit else name))
        shown.append((path, refs))
    refs_page = _Refs(sum(counts.values()), len(counts), shown)
    fresh.check({path for path, _ in shown})  # their lines may have moved since indexed
    node = located.node
    symbol = (listed(node, params.detail, fresh, signature=False, whole=False)
              if node is not None else
              located.name if params.detail != "full" else {"name": located.name})
    section = _section(ws, reader, symbol, refs_page, params.detail, fresh, budget,
                       node.name if node is not None else located.name)
    if lsp.external:
        warnings.append(f"{lsp.external} reference(s) outside the root are not listed")
    target: dict[str, Any] = {"symbol": None, "id": None, "file": None, "line": None,
                              "col": None}
    target.update({"id": node.nid} if node is not None else
                  {"file": located.path, "line": located.line, "col": located.col})
    cut = _refs_cut(refs_page, params.offset,
                    Page("nav_references", params.continuation(**target), params.offset),
                    ("references", EVERY))
    data = {**section, "source": "lsp" if extra is None else "lsp+map"}
    return Answer(data, cuts=[cut], elide=("snippet",), warnings=warnings + fresh.warnings())


# ------------------------------------------------------------------------------ hover

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
    if located.others:
        results = [_map_hover(reader, c.node, params.detail, fresh) for c in located.each()
                   if c.node is not None]
        fresh.check({c.node.path for c in located.each() if c.node is not None})
        data: dict[str, Any] = {"symbol": located.name, "matches": located.matches(),
                                "results": results, "source": "map"}
        return Answer(data, cuts=[Cut("definitions", ("results",), "Pass id to pick one")],
                      warnings=more_warning(located) + fresh.warnings())
    live = await ask_at(ws, located, params.source, "hover", lambda target: position_request(
        target, T.TEXT_DOCUMENT_HOVER, lambda uri: T.HoverParams(**target.at(uri))))
    warnings = live.notes + located.warnings
    if live.answered:
        text = _hover_text(live.result)
        if text or located.node is None or params.source == "lsp":
            data = {"symbol": located.name, "hover": text, "source": "lsp"}
            if located.node is not None:
                data["id"] = located.node.nid
                fresh.check({located.node.path})
                fresh.mark(data, located.node.path)
            if not text:
                warnings.append("the language server has nothing to show here")
            return Answer(data, elide=("hover",), warnings=warnings + fresh.warnings())
        warnings.append("the language server had nothing to show; the map's answer follows")
    node = located.node
    if node is None:
        raise _unresolved(reader, located)
    fresh.check({node.path})
    data = {"symbol": located.name, "hover": _map_hover(reader, node, params.detail, fresh),
            "source": "map"}
    return Answer(data, warnings=warnings + fresh.warnings())


def _map_hover(reader: MapReader, node: Node | None, detail: Detail,
               fresh: Freshness) -> dict[str, Any]:
    """What the map knows of a definition: its whole signature, kind, place, first doc line
    and parent."""
    assert node is not None
    parent = reader.node_by_id(node.parent_id) if node.parent_id is not None else None
    if detail == "full":
        item = summary(node, fresh)
        item["qualifiedName"] = node.qname
        if node.doc:
            item["doc"] = node.doc
        if parent is not None and parent.kind != "module":
            item["parent"] = parent.nid
        return item
    out: dict[str, Any] = {"id": node.nid, "kind": node.kind,
                           "at": place(node.path, node.name_line, node.name_col)}
    if node.signature:
        out["signature"] = node.signature
    if node.doc:
        out["doc"] = node.doc
    if parent is not None and parent.kind != "module":
        out["parent"] = parent.nid
    return fresh.mark(out, node.path)


# ---------------------------------------------------------------------- shared lookups

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
    if lang is not None and lang.tags:  # C: `struct P` and its typedef `P` are two symbols
        found = [other for other in found
                 if (other.kind in lang.tag_kinds) == (node.kind in lang.tag_kinds)]
    if lang is not None and lang.overloads == "distinct" and len(found) > 1:
        found = [other for other in found if _same_declaration(other, node)]
    if lang is not None and lang.predefined and len(found) > 1:  # `#ifdef _WIN32 typedef …`
        out = reader.compiled_out(found)
        found = [other for other in found if other.id == node.id or other.id not in out]
    if lang is not None and lang.related_members and node.kind in _MEMBER_KINDS and \
            node.name != lang.constructor:
        found += [other for other in reader.related_members(node)
                  if other.kind in _MEMBER_KINDS]
    return found


def _same_declaration(other: Node, node: Node) -> bool:
    """Whether two namesakes in one scope declare one symbol in a language whose overloads
    are distinct (a C++ prototype and its definition), not two (two overloads, a field and
    a method)."""
    callable_kinds = ("function", "method", "constructor")
    if (other.kind in callable_kinds) != (node.kind in callable_kinds):
        return False
    return node.kind not in callable_kinds or \
        parameter_types(other.signature) == parameter_types(node.signature)


def _constructors(reader: MapReader, node: Node) -> list[int]:
    """For a class of a language with distinct overloads, its constructors: a call of the
    class (``new Foo(1)``) is linked to the constructor it runs, and is a use of the class
    too."""
    lang = by_code(node.lang)
    if lang is None or lang.overloads != "distinct" or node.kind not in lang.containers:
        return []
    return [child.id for child in reader.children(node.id)
            if child.name == node.name and child.kind in ("method", "constructor")]


def _constructed(node: Node) -> int | None:
    """For a constructor, its class: calls of the class (``Foo()``, ``new Foo()``) are uses
    of the constructor too (what a language server reports). A constructor is what the
    language names one (``__init__``, ``constructor``), a ``constructor`` node (Java, C#), or
    a method named like its class (C++). Not where overloads are distinct: there a call of
    the class is linked to the constructor that fits it."""
    if node.parent_id is None or node.kind not in ("method", "constructor"):
        return None
    lang = by_code(node.lang)
    if lang is not None and lang.overloads == "distinct":
        return None
    scope = node.qname.split(".")
    if node.kind == "constructor" or (lang is not None and node.name == lang.constructor) \
            or (len(scope) >= 2 and scope[-2] == node.name):
        return node.parent_id
    return None


def references_of(reader: MapReader, node: Node) -> list[RefHit]:
    """Uses of a symbol: of every declaration of it, and for a constructor the calls of its
    class."""
    return reader.uses_in([member.id for member in declarations_of(reader, node)] +
                          _constructors(reader, node),
                          _constructed(node))


NAV_DEFINITION = ToolSpec(
    name="nav_definition",
    description="Where a symbol is defined: from a use (file+line+col), a name or an id. "
                "Follows imports, re-exports, inherited members and typed receivers.",
    params=NavParams, handler=nav_definition,
    arguments="id or position, `source?` auto/lsp/map, `detail?`",
    returns="`definitions` (node rows)",
    example={"file": "src/app/views.py", "line": 12, "col": 9},
)
NAV_HOVER = ToolSpec(
    name="nav_hover",
    description="What a symbol is: whole signature or type, first doc line, parent. Use it "
                "for a function's parameters instead of reading its body.",
    params=NavParams, handler=nav_hover,
    arguments="id or position, `source?`, `detail?`",
    returns="signature/type, doc",
    example={"symbol": "Session.request"},
)
NAV_REFERENCES = ToolSpec(
    name="nav_references",
    description="Every use of a definition, grouped by file (most uses first), each with its "
                "line, enclosing function and code. The precise grep: no comments, strings "
                "or namesakes.",
    params=ReferencesParams, handler=nav_references,
    arguments="id or position, `fileFilter?`, `includeDeclaration?`, `offset?`, `source?`, "
              "`detail?`",
    returns="total, `references` by file (· files by reference count, then path)",
    example={"symbol": "Session.request", "fileFilter": "src/"},
)
