"""The nav tools that find things: definition, references, hover — parameters, then the
query (``codenav/query``), then the renderer (``render.py``). A language server answers when
``source`` lets it (``query/live.py``); the map answers otherwise, saying why; references are
the server's and the map's merged.

A symbol name that several definitions share (``padding``) is answered for each of them,
best first, in one answer (up to ``MAX_CANDIDATES``)."""

from __future__ import annotations

import re
from typing import Any

import anyio
from pydantic import Field

from codenav.envelope import EVERY, Answer, Cut, Page
from codenav.model import CALLABLE_KINDS
from codenav.query.definitions import hover_text, map_definitions, unresolved
from codenav.query.live import ServerPlace, ask_at, places, position_request
from codenav.query.locate import (
    FileFilter,
    Located,
    declarations_of,
    overloads_of,
    overridden,
    without_stubs,
)
from codenav.query.references import (
    ReferencePage,
    map_references,
    merged_references,
    module_references,
    other_uses,
    own_places,
    server_listed,
    server_references,
)
from codenav.query.source import Lines
from codenav.query.text import commented
from codenav.store.read import MapReader, Node
from codenav.tools.base import CallContext, FileFilterParam, OffsetParam, ToolSpec
from codenav.tools.common import NavParams, checked_text, resolved
from codenav.tools.render import (
    fallback_notes,
    listed,
    map_hover,
    mark_warnings,
    more_warning,
    overload_rows,
    overridden_warning,
    references_answer,
    references_section,
    server_definition,
    several_warning,
    text_entries,
    unlisted,
    unresolved_cuts,
)
from codenav.tools.rows import (
    Rendering,
    closing_paren,
    code_scan,
    one_line,
    parameters_of,
    top_level_parts,
)
from codenav.workspace import Workspace

__all__ = ["NAV_DEFINITION", "NAV_HOVER", "NAV_REFERENCES", "ReferencesParams"]

_REF_COST = 24  # fewest characters a reference costs: never build more than a budget holds


class ReferencesParams(NavParams):
    fileFilter: str | None = FileFilterParam()
    includeDeclaration: bool = Field(default=False, description="List the definition too")
    show: Rendering = Field(default="code", description=(
        "names: no code; lines: no names"))
    offset: int = OffsetParam()


# ------------------------------------------------------------------------- definition

async def nav_definition(ws: Workspace, params: NavParams, ctx: CallContext) -> Answer:
    from lsprotocol import types as T  # lazily: 0.6 s to import
    reader, located = resolved(ws, params, ctx)
    fresh, lines = ctx.fresh, Lines(ws.root)
    warnings: list[str] = []
    if not located.others:  # a name shared by several definitions: the map lists them all
        live = await ask_at(ws, located, params.source, "definition",
                            lambda target: position_request(
                                target, T.TEXT_DOCUMENT_DEFINITION,
                                lambda uri: T.DefinitionParams(**target.at(uri))))
        warnings = fallback_notes(ws, live.fallback)
        if live.answered:
            found = places(reader, ws.root, live.result, fresh)
            if found or located.node is None or params.source == "lsp":
                definitions = [server_definition(where, lines, params.detail, fresh)
                               for where in found]
                if not definitions:
                    warnings.append("the language server knows no definition here")
                data = {"symbol": located.name, "definitions": definitions, "source": "lsp"}
                cut = Cut("definitions", ("definitions",), "Pass a position to pick one")
                return Answer(data, cuts=[cut], elide=("snippet",), warnings=warnings)
            warnings.append("the language server found no definition; the map's answer follows")
    found_defs = map_definitions(reader, located)
    if found_defs.guessed:
        warnings.append(f"{len(found_defs.nodes)} members are named {located.name!r} and the "
                        "receiver's type is unknown (a guess by name): all are listed, "
                        "most used first.")
    fresh.check({n.path for n in found_defs.nodes})
    definitions = []
    for node in found_defs.nodes:
        item = listed(node, params.detail, fresh)
        if params.detail == "full":
            item["anchor"]["snippet"] = lines.line(node.path, node.name_line)
        definitions.append(item)
    data = {"symbol": located.name, "definitions": definitions, "source": "map"}
    cut = Cut("definitions", ("definitions",), "Pass an id to pick one")
    return Answer(data, cuts=[cut], elide=("snippet",),
                  warnings=warnings + more_warning(located))


# ------------------------------------------------------------------------- references

async def nav_references(ws: Workspace, params: ReferencesParams, ctx: CallContext) -> Answer:
    from lsprotocol import types as T  # lazily: 0.6 s to import
    reader, located = resolved(ws, params, ctx)
    files = without_stubs(reader, FileFilter(params.fileFilter))
    if located.others:
        return await _several(ws, reader, located, params, ctx, files)
    context = T.ReferenceContext(include_declaration=params.includeDeclaration)
    node = located.node
    warnings: list[str] = []
    if node is not None and node.kind == "module" and params.source != "lsp":
        # a module's uses are the lines importing it (a server asked at a file's first
        # position answers for whatever is written there)
        page = module_references(reader, Lines(ws.root), ctx.fresh, node, files=files,
                                 offset=params.offset, room=ctx.room(_REF_COST))
        found: list[ServerPlace] = []
    else:
        live = await ask_at(ws, located, params.source, "references",
                            lambda target: position_request(
                                target, T.TEXT_DOCUMENT_REFERENCES,
                                lambda uri: T.ReferenceParams(**target.at(uri),
                                                              context=context)), wide=True)
        warnings = fallback_notes(ws, live.fallback)
        found = places(reader, ws.root, live.result) if live.answered else []
        if node is not None and params.source != "lsp":  # (lsp: the server's own word)
            found = own_places(reader, node, found)
        if node is not None and found:
            # no use in code: a JSDoc `{@link X.y}` tsserver names (the text check counts
            # its line among the comments) — under source:'lsp' too, said (tstl's
            # `SharedTimedMutex.lock`: ~40 of 54 rows, run 63)
            spots = [(p.path, p.line, p.col) for p in found if not p.external]
            noted = await anyio.to_thread.run_sync(lambda: commented(ws.root, spots))
            found = [p for p in found if (p.path, p.line, p.col) not in noted]
            if noted and params.source == "lsp":
                warnings.append(f"{len(noted)} place(s) the server listed in documentation "
                                "links ({@link …}, @see) are left out: no use in code")
        page = _page(ws, reader, located, params, ctx, files,
                     found if live.answered else None, warnings)
    if page.external:
        warnings.append(f"{page.external} reference(s) outside the root are not listed")
    if files.skip and node is not None and node.kind != "module":
        stubbed = map_references(reader, Lines(ws.root), ctx.fresh, node, room=0, offset=0,
                                 files=FileFilter(None, only=files.skip),
                                 declaration=False).total
        if stubbed:
            warnings.append(f"{stubbed} reference(s) in .pyi stubs beside their modules are "
                            "not listed (fileFilter:'*.pyi' lists them)")
    extra: dict[str, Any] = {"source": page.source}
    if node is not None:
        warnings += overridden_warning(node, overridden(reader, node))
        if node.kind != "module":
            answered = server_listed(reader, found, files, params.source == "lsp" or
                                     params.includeDeclaration)
            others = other_uses(reader, Lines(ws.root), [node], files, answered)
            extra.update(unlisted(others))
            extra.update(text_entries(await checked_text(
                ws, reader, [node], files, page.places() | answered, others)))
    symbol = (listed(node, params.detail, ctx.fresh, signature=False, whole=False)
              if node is not None else
              located.name if params.detail != "full" else {"name": located.name})
    target: dict[str, Any] = {"symbol": None, "id": None, "file": None, "line": None,
                              "col": None}
    target.update({"id": node.nid} if node is not None else
                  {"file": located.path, "line": located.line, "col": located.col})
    next_page = Page("nav_references", params.continuation(**target), params.offset)
    return references_answer(page, symbol, params.detail, next_page, warnings, extra,
                             params.show)


def _page(ws: Workspace, reader: MapReader, located: Located, params: ReferencesParams,
          ctx: CallContext, files: FileFilter, found: list[ServerPlace] | None,
          warnings: list[str]) -> ReferencePage:
    """The page to show: a server's references (``found``, None when no server answered)
    merged with the map's (``auto``), a server's alone (``lsp``, or a name the map does not
    define), or the map's."""
    node, lines = located.node, Lines(ws.root)
    common: dict[str, Any] = {"files": files, "declaration": params.includeDeclaration,
                              "offset": params.offset, "room": ctx.room(_REF_COST)}
    if found is not None:
        if node is None or params.source == "lsp":
            page = server_references(reader, lines, ctx.fresh, node, located.name, found,
                                     **common)
            if page.unsearched:
                warnings.append(f"the map also has references in {page.unsearched} file(s) "
                                "the language server did not search (outside its project?); "
                                "source:'auto' adds them")
            return page
        if any(not where.external and files(where.path) for where in found):
            return merged_references(reader, lines, ctx.fresh, node, found, **common)
        page = map_references(reader, lines, ctx.fresh, node, **common)
        if page.total:
            warnings.append(f"the language server found no references, the map {page.total} "
                            "(the server's project may leave these files out): the map's "
                            "answer follows")
        return page
    if node is None:
        raise unresolved(reader, located)
    return map_references(reader, lines, ctx.fresh, node, **common)


async def _several(ws: Workspace, reader: MapReader, located: Located,
                   params: ReferencesParams, ctx: CallContext, files: FileFilter) -> Answer:
    """The references of every definition a shared name names, one section each (the map
    answers: asking a server once per candidate would take too long)."""
    room = ctx.room(_REF_COST)
    lines = Lines(ws.root)
    sections: list[dict[str, Any]] = []
    omitted = 0
    marks: dict[str, int] = {}
    covered: set[int] = set()  # a property's setter is the same symbol as its getter
    pages = []
    for candidate in located.each():
        assert candidate.node is not None
        if candidate.node.id in covered:
            continue
        covered.update(member.id for member in
                       declarations_of(reader, candidate.node, family=False))
        page = map_references(reader, lines, ctx.fresh, candidate.node, files=files,
                              declaration=params.includeDeclaration, offset=0, room=room)
        pages.append(page)
        room = max(0, room - page.count())
        omitted += page.total - page.count()
        for mark, count in page.marks.items():
            marks[mark] = marks.get(mark, 0) + count
        symbol = listed(candidate.node, params.detail, ctx.fresh, signature=False, whole=False)
        sections.append(references_section(page, symbol, params.detail, params.show))
    data = {"symbol": located.name, "matches": located.matches(), "results": sections,
            "source": "map"}
    nodes = [candidate.node for candidate in located.each() if candidate.node is not None]
    others = other_uses(reader, lines, nodes, files)  # of every one of them
    data.update(unlisted(others))
    shown = {place for section in pages for place in section.places()}
    data.update(text_entries(await checked_text(ws, reader, nodes, files, shown, others)))
    cut = Cut("references", ("results", EVERY, "references", EVERY),
              "Pass id (or a qualified name) for one definition's references, paged",
              omitted=omitted)
    cuts = [cut, *unresolved_cuts()] if "unresolved" in data else [cut]
    return Answer(data, cuts=cuts, elide=("snippet",),
                  warnings=several_warning(located, "references") + mark_warnings(marks))


# ------------------------------------------------------------------------------ hover

async def nav_hover(ws: Workspace, params: NavParams, ctx: CallContext) -> Answer:
    from lsprotocol import types as T  # lazily: 0.6 s to import
    reader, located = resolved(ws, params, ctx)
    fresh = ctx.fresh
    if located.others:  # the best one whole; the others by signature, to pick by id
        best = located.node
        assert best is not None
        fresh.check({best.path, *(n.path for n in located.others)})
        data: dict[str, Any] = {
            "symbol": located.name, "matches": located.matches(),
            "hover": map_hover(best, reader.parent(best), params.detail, fresh),
            "others": [listed(n, params.detail, fresh) for n in located.others],
            "source": "map"}
        return Answer(data, cuts=[Cut("definitions", ("others",), "Pass id to pick one")],
                      warnings=more_warning(located))
    live = await ask_at(ws, located, params.source, "hover", lambda target: position_request(
        target, T.TEXT_DOCUMENT_HOVER, lambda uri: T.HoverParams(**target.at(uri))))
    warnings = fallback_notes(ws, live.fallback)
    # every declaration of an overloaded function, by line: the hover is one of them
    overloads = overloads_of(reader, located.node) if located.node is not None else []
    if live.answered:
        text = hover_text(live.result)
        if located.node is not None and located.node.lang == "py":
            text = _as_annotated(located.node, _without_unknowns(text))
        if text or located.node is None or params.source == "lsp":
            data = {"symbol": located.name, "hover": text, "source": "lsp"}
            if located.node is not None:
                data["id"] = located.node.nid
                fresh.check({located.node.path})
                fresh.mark(data, located.node.path)
            if overloads:
                data["overloads"] = overload_rows(overloads)
            declared = _declared_apart(located.node, text)
            if declared:  # the parameters as written: a server shows what it infers
                data["declared"] = declared
            if not text:
                warnings.append("the language server has nothing to show here")
            return Answer(data, elide=("hover",), warnings=warnings)
        warnings.append("the language server had nothing to show; the map's answer follows")
    node = located.node
    if node is None:
        raise unresolved(reader, located)
    fresh.check({node.path})
    data = {"symbol": located.name,
            "hover": map_hover(node, reader.parent(node), params.detail, fresh), "source": "map"}
    if overloads:
        data["overloads"] = overload_rows(overloads)
    return Answer(data, warnings=warnings)


# What a Python server's hover says of a value it knows nothing of (basedpyright's
# `tlist: Unknown`, `x: Unknown | None = None`, `self: Self@Template`): nothing to a reader.
_UNKNOWN = re.compile(r"(?<=\w):\s*Unknown(?:\s*\|\s*None)?(?=\s*[=,)\n])")
_SELF = re.compile(r"\b(self|cls):\s*(?:type\[)?Self@\w+\]?")


def _without_unknowns(hover: str) -> str:
    """A Python hover without the annotations that say nothing: ``Unknown`` (or ``Unknown |
    None``) parameter types and ``Self@X`` receivers (Template.__init__'s 27 parameters:
    1.4 KB -> 0.9 KB)."""
    return _SELF.sub(r"\1", _UNKNOWN.sub("", hover))


def _as_annotated(node: Node, hover: str) -> str:
    """A Python hover without the types the server infers for parameters the code leaves
    unannotated (gunicorn's ``load_class(uri, default="…")`` hovered as ``default: str =
    "…"``: an agent read two more calls to learn whether ``str`` was written, run 43), and
    with the parameters spaced as written (``_as_written``). Only in the hover's parameter
    list, and only a parameter's own annotation (at its start): its doc, defaults and
    lambdas are left as they are."""
    if node.kind not in CALLABLE_KINDS or not node.signature:
        return hover
    bare = {written.split("=", 1)[0].strip().lstrip("*")
            for written in parameters_of(one_line(node.signature))}
    bare = {name for name in bare if name.isidentifier() and name not in ("self", "cls")}
    opened = hover.find("(", hover.find(f"{node.name}(") if f"{node.name}(" in hover else 0)
    found = closing_paren(hover[opened:], 0) if opened >= 0 else -1  # (from the list:
    closed = opened + found if found >= 0 else -1  # the hover's fences are backticks)
    if not bare or closed < 0:
        return hover
    params = hover[opened + 1:closed]
    out, at = [], 0
    for part_start, part in top_level_parts(params):
        name = part.lstrip().split(":", 1)[0].strip().lstrip("*")
        colon = part.find(":")
        if name in bare and colon >= 0 and part[:colon].strip().lstrip("*") == name:
            begin = part_start + colon
            out.append(params[at:begin])
            at = _annotation_end(params, begin + 1)
    params = _as_written("".join(out) + params[at:], parameters_of(one_line(node.signature)))
    return hover[:opened + 1] + params + hover[closed:]


def _as_written(params: str, written: list[str]) -> str:
    """A hover's parameters, each one the code writes the same but for spaces as the code
    writes it (basedpyright's ``hostname = 'localhost'``, ``size = 2 ** 20`` for
    ``hostname='localhost'``, ``size=2**20``: runs 54-55's agents read the source again for
    the defaults as written), or whose default the server cut short (pexpect's
    ``password_regex = r'(?i)(?:password:)|(?:passphrase ``: run 56); the hover's layout
    kept."""
    same = {re.sub(r"\s+", "", part): part.strip() for part in written}
    out, at = [], 0
    for part_start, part in top_level_parts(params):
        shown = part.strip()
        squeezed = re.sub(r"\s+", "", shown)
        code = same.get(squeezed) or _cut_from(squeezed, same)
        if code is not None and code != shown:
            begin = part_start + len(part) - len(part.lstrip())
            out += [params[at:begin], code]
            at = begin + len(shown)
    return "".join(out) + params[at:]


def _cut_from(shown: str, written: dict[str, str]) -> str | None:
    """The written parameter ``shown`` (squeezed) is a cut of: the same up to its ``=``, its
    default a string the start of the written one's (cut short, it keeps its closing
    quote)."""
    head, equals, default = shown.partition("=")
    if not equals or len(default) < _CUT_AT or default[-1] not in _QUOTES:
        return None  # (only a long string is cut: `n = 1` is no cut of a stale map's `n=10`)
    start = f"{head}={default[:-1]}"
    return next((code for whole, code in written.items()
                 if whole.startswith(start) and len(whole) > len(shown)), None)


_QUOTES = frozenset("'\"")
_CUT_AT = 24  # a shorter default a server shows is whole (basedpyright cut one of 43 at 34)


def _annotation_end(text: str, start: int) -> int:
    """Where the annotation starting at ``start`` ends: the first ``=`` or ``,`` (or the
    end) outside its brackets, the spaces before it kept."""
    end = next((at for at, char, depth in code_scan(text)
                if at >= start and depth == 0 and char in "=,"), len(text))
    while end > start and text[end - 1] in " \n":
        end -= 1
    return end


def _declared_apart(node: Node | None, hover: str) -> str | None:
    """A callable's signature as the code writes it, when a server's hover does not show
    those parameters as written: each one's name, and its default exactly as written
    (basedpyright shows ``value: str = ""`` for ``value=''``); a type the server adds to a
    parameter the code leaves unannotated is no difference."""
    if node is None or node.kind not in CALLABLE_KINDS or not node.signature:
        return None
    written = one_line(node.signature)
    squeezed = re.sub(r"\s+", "", hover)
    for spaced in parameters_of(written):
        param = re.sub(r"\s+", "", spaced)
        if param in ("self", "cls", "this") or param in squeezed:
            continue
        name, default = param.split("=", 1) if "=" in param else (param, None)
        if ":" in name or default is None:  # annotated, or no default: shown as written
            return written
        if not re.search(rf"(?<![\w$]){re.escape(name)}(?::[^=,()]+)?={re.escape(default)}"
                         r"(?=[,)]|$)", squeezed):
            return written
    return None


NAV_DEFINITION = ToolSpec(
    name="nav_definition",
    brief="where a symbol is defined (from a use, a name or an id)",
    order=8,
    description="Where a symbol is defined (from a use, name or id), through imports, "
                "re-exports and typed receivers.",
    params=NavParams, handler=nav_definition,
    arguments="id or position, `source?` auto/lsp/map, `detail?`",
    returns="`definitions` (node rows)",
    example={"file": "src/app/views.py", "line": 12, "col": 9},
)
NAV_HOVER = ToolSpec(
    name="nav_hover",
    brief="signature or type and doc (a function's parameters)",
    order=10,
    description="What a symbol is: whole signature or type, doc, parent (a function's "
                "parameters).",
    params=NavParams, handler=nav_hover,
    arguments="id or position, `source?`, `detail?`",
    returns="signature/type, doc (a server's hover: with `declared`, the parameters as "
            "written, when it shows others)",
    example={"symbol": "Session.request"},
)
NAV_REFERENCES = ToolSpec(
    name="nav_references",
    brief="every use by file, with enclosing function and code line (show \"names\": line and "
          "enclosing function only; \"lines\": line numbers only; both far cheaper)",
    order=9,
    needs_links=True,
    description="Every use of a definition by file, with line, enclosing function and "
                "code: the precise grep (no comments, strings or namesakes).",
    params=ReferencesParams, handler=nav_references,
    arguments="id or position, `fileFilter?`, `includeDeclaration?`, `show?` code/names/lines, "
              "`offset?`, `source?`, `detail?`",
    returns="total, `references` by file (· files by reference count, then path), "
            "`unlisted`: the name's uses in code left out (none: complete), `unresolved`: "
            "those on a receiver of unknown type, by file with their code (many: by receiver "
            "and line)",
    example={"symbol": "Session.request", "fileFilter": "src/"},
)
