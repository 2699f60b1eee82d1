"""nav_diagnostics and nav_rename_preview: what is wrong in a file, and what renaming a
symbol would change (never applied). A language server answers when it can; the map's
fallbacks are tree-sitter syntax errors and the resolved references."""

from __future__ import annotations

import re
from collections import defaultdict
from typing import TYPE_CHECKING, Any

from pydantic import Field

from codenav.envelope import EVERY, Answer, Cut, Page
from codenav.errors import BadArgs, SymbolNotFound
from codenav.index.languages import by_extension
from codenav.positions import utf16_len
from codenav.store.read import MapReader, Node
from codenav.tools.base import CallContext, DetailParam, OffsetParam, ToolParams, ToolSpec
from codenav.tools.common import Freshness, Lines, SourceParam, mapped_file
from codenav.tools.live import (
    Live,
    Target,
    ask,
    ask_at,
    from_range,
    position_request,
)
from codenav.tools.nav_tools import NavParams, declarations_of, references_of, resolved
from codenav.tools.rows import Detail
from codenav.workspace import Workspace

if TYPE_CHECKING:
    from lsprotocol import types as T

__all__ = ["NAV_DIAGNOSTICS", "NAV_RENAME_PREVIEW"]

_SEVERITY = {1: "error", 2: "warning", 3: "information", 4: "hint"}
_MESSAGE_CHARS = 400
_IDENTIFIER = re.compile(r"^[^\W\d][\w$]*$|^\$[\w$]*$")


class DiagnosticsParams(ToolParams):
    file: str = Field(min_length=1, max_length=4096, description="Path")
    source: SourceParam = Field(default="auto", description="auto | lsp | map")
    offset: int = OffsetParam()
    detail: Detail = DetailParam()


class RenameParams(NavParams):
    newName: str = Field(min_length=1, max_length=200, description="The new identifier")


# -------------------------------------------------------------------------- diagnostics

async def nav_diagnostics(ws: Workspace, params: DiagnosticsParams, ctx: CallContext) -> Answer:
    reader = ws.reader()
    path, _ = mapped_file(ws, reader, params.file)
    fresh = Freshness(ws)
    fresh.refresh([path])
    lang = by_extension(path)
    target = Target(path, 1, 1, lang.code) if lang is not None else None
    live = Live(False)
    if target is not None:
        async def call(pool: Any, timeout: float) -> Any:
            return await pool.diagnostics(target.code, target.path, timeout)
        live = await ask(ws, target, params.source, "diagnostics", call)
    warnings = list(live.notes)
    if live.answered:
        items = [_lsp_diagnostic(d) for d in live.result]
        source = "lsp"
    else:
        stat = reader.file(path)
        items = [{"severity": "error", "line": line, "col": col, "endLine": end_line,
                  "endCol": end_col, "message": message, "source": "tree-sitter"}
                 for line, col, end_line, end_col, message in
                 (reader.problems(stat.id) if stat is not None else [])]
        note = "source:'map' diagnostics are syntax errors only (tree-sitter), no type checking"
        if ws.first_time(note):
            warnings.append(note)
        source = "map"
    rank = {"error": 0, "warning": 1, "information": 2, "hint": 3}
    items.sort(key=lambda d: (rank.get(d["severity"], 4), d["line"], d["col"]))
    counts: dict[str, int] = defaultdict(int)
    for item in items:
        counts[item["severity"]] += 1
    page = items[params.offset:]
    shown: list[Any] = page if params.detail == "full" else [
        f"{d['line']}:{d['col']} {d['severity']} {d['message']}"
        + (f" [{d['code']}]" if d.get("code") else "") for d in page]
    data = {"file": path, "counts": dict(counts), "diagnostics": shown, "source": source}
    cut = Cut("diagnostics", ("diagnostics",), "Fix the errors first; warnings follow",
              page=Page("nav_diagnostics", params.continuation(), params.offset))
    return Answer(data, cuts=[cut], warnings=warnings + fresh.warnings())


def _lsp_diagnostic(diagnostic: T.Diagnostic) -> dict[str, Any]:
    rng = diagnostic.range
    message = diagnostic.message
    if len(message) > _MESSAGE_CHARS:
        message = message[: _MESSAGE_CHARS - 1] + "…"
    item: dict[str, Any] = {
        "severity": _SEVERITY.get(int(diagnostic.severity or 1), "error"),
        "line": rng.start.line + 1, "col": rng.start.character + 1,
        "endLine": rng.end.line + 1, "endCol": rng.end.character + 1, "message": message}
    if diagnostic.source:
        item["source"] = diagnostic.source
    if diagnostic.code is not None:
        item["code"] = str(diagnostic.code)
    return item


# ------------------------------------------------------------------------ rename preview

async def nav_rename_preview(ws: Workspace, params: RenameParams, ctx: CallContext) -> Answer:
    from lsprotocol import types as T  # lazily: 0.6 s to import
    if not _IDENTIFIER.match(params.newName):
        raise BadArgs(f"newName must be an identifier, e.g. 'fetch_all'; got "
                      f"{params.newName[:60]!r}")
    reader, located, fresh = resolved(ws, params)
    live = await ask_at(ws, located, params.source, "rename preview",
                        lambda target: position_request(
                            target, T.TEXT_DOCUMENT_RENAME,
                            lambda uri: T.RenameParams(**target.at(uri),
                                                       new_name=params.newName)),
                        capability="rename_provider", wide=True)
    warnings = live.notes + located.warnings
    if live.answered:
        by_file = _workspace_edit(ws, live.result)
        source = "lsp"
        if not by_file:
            warnings.append("the language server proposes no edits here")
    else:
        if located.node is None:
            raise SymbolNotFound(f"{located.name!r} is not a definition in the map",
                                 hint="Point at a definition or a resolved use of one.")
        by_file = _map_edits(reader, located.node, params.newName)
        warnings.append("source:'map' renames only the uses the map resolved: a use through "
                        "a receiver of unknown type may be missing")
        source = "map"
    lines = Lines(ws.root)
    files: dict[str, list[Any]] = {}
    for path in sorted(by_file, key=lambda p: (-len(by_file[p]), p)):
        edits = sorted(by_file[path], key=lambda e: (e["line"], e["col"]))
        for edit in edits:
            if "external" not in edit:
                edit["snippet"] = lines.line(path, edit["line"])
        files[path] = (edits if params.detail == "full" else
                       [_edit_row(edit, params.newName) for edit in edits])
    total = sum(len(edits) for edits in by_file.values())
    data = {"symbol": located.name, "newName": params.newName, "total": total,
            "files": files, "applied": False, "source": source}
    cut = Cut("edits", ("files", EVERY), "Preview one folder at a time (nav_references with "
              "fileFilter lists the sites)")
    return Answer(data, cuts=[cut], elide=("snippet",), warnings=warnings + fresh.warnings())


def _edit_row(edit: dict[str, Any], new_name: str) -> str:
    """``line:col-endCol | code``: the range replaced by newName (``endLine:endCol`` when it
    spans lines; `` -> text`` when a server's edit writes something else)."""
    end = (f"{edit['endCol']}" if edit["endLine"] == edit["line"] else
           f"{edit['endLine']}:{edit['endCol']}")
    row = f"{edit['line']}:{edit['col']}-{end}"
    if edit.get("newText", new_name) != new_name:
        row += f" -> {edit['newText']}"
    if edit.get("snippet"):
        row += f" | {edit['snippet']}"
    return row


def _workspace_edit(ws: Workspace, edit: Any) -> dict[str, list[dict[str, Any]]]:
    """Edits per repo-relative file from a WorkspaceEdit's ``changes`` or
    ``documentChanges`` (files outside the root are listed as such)."""
    from lsprotocol import types as T  # lazily: 0.6 s to import
    out: dict[str, list[dict[str, Any]]] = defaultdict(list)
    if edit is None:
        return out
    pairs: list[tuple[str, Any]] = []
    for uri, edits in (edit.changes or {}).items():
        pairs += [(uri, e) for e in edits]
    for change in edit.document_changes or []:
        if isinstance(change, T.TextDocumentEdit):
            pairs += [(change.text_document.uri, e) for e in change.edits]
    for uri, text_edit in pairs:
        rng = getattr(text_edit, "range", None)
        if rng is None:
            continue
        path, inside, line, col, end_line, end_col = from_range(uri, rng, ws.root)
        item: dict[str, Any] = {"line": line, "col": col, "endLine": end_line,
                                "endCol": end_col, "newText": text_edit.new_text}
        if not inside:
            item["external"] = True
        out[path].append(item)
    return out


def _map_edits(reader: MapReader, node: Node, new_name: str) -> dict[str, list[dict[str, Any]]]:
    """The declarations and resolved uses of ``node``, each its name replaced."""
    out: dict[str, list[dict[str, Any]]] = defaultdict(list)
    width = utf16_len(node.name)
    seen: set[tuple[str, int, int]] = set()
    sites = [(d.path, d.name_line, d.name_col) for d in declarations_of(reader, node)]
    sites += [(h.path, h.line, h.col) for h in references_of(reader, node)
              if h.name == node.name]
    for path, line, col in sites:
        if (path, line, col) in seen:
            continue
        seen.add((path, line, col))
        out[path].append({"line": line, "col": col, "endLine": line, "endCol": col + width,
                          "newText": new_name})
    return out


NAV_DIAGNOSTICS = ToolSpec(
    name="nav_diagnostics",
    description="Errors and warnings of one file from its language server, errors first "
                "(from the map: syntax errors only).",
    params=DiagnosticsParams, handler=nav_diagnostics,
    arguments="`file`, `offset?`, `source?`, `detail?`",
    returns="`diagnostics` (· severity, line); map fallback = tree-sitter syntax errors",
    example={"file": "src/app/models.py"},
)
NAV_RENAME_PREVIEW = ToolSpec(
    name="nav_rename_preview",
    description="The edits renaming a symbol to newName would make, per file. Read-only: "
                "nothing is changed.",
    params=RenameParams, handler=nav_rename_preview,
    arguments="id or position, `newName`, `source?`, `detail?`",
    returns="`files`: edits per file (never applied; read-only)",
    example={"symbol": "User.save", "newName": "persist"},
)
