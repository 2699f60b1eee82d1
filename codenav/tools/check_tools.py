"""nav_diagnostics and nav_rename_preview: what is wrong in a file, and what renaming a
symbol would change (never applied). A language server answers when it can; the map's
fallbacks are tree-sitter syntax errors and the resolved references (``query/checks.py``)."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from pydantic import Field

from codenav.envelope import EVERY, Answer, Cut, Page
from codenav.errors import BadArgs, SymbolNotFound
from codenav.index.languages import by_extension
from codenav.query.checks import (
    map_diagnostics,
    map_edits,
    server_diagnostics,
    server_edits,
)
from codenav.query.live import Live, Target, ask, ask_at, position_request
from codenav.query.locate import mapped_file
from codenav.query.source import Lines
from codenav.tools.base import CallContext, DetailParam, OffsetParam, ToolParams, ToolSpec
from codenav.tools.common import NavParams, SourceParam, resolved
from codenav.tools.render import diagnostic_row, edit_rows, fallback_notes
from codenav.tools.rows import Detail
from codenav.workspace import Workspace

__all__ = ["NAV_DIAGNOSTICS", "NAV_RENAME_PREVIEW"]

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
    ctx.fresh.refresh([path])
    lang = by_extension(path)
    target = Target(path, 1, 1, lang.code) if lang is not None else None
    live = Live(False)
    if target is not None:
        async def call(pool: Any, timeout: float) -> Any:
            return await pool.diagnostics(target.code, target.path, timeout)
        live = await ask(ws, target, params.source, "diagnostics", call)
    warnings = fallback_notes(ws, live.fallback)
    if live.answered:
        items = server_diagnostics(live.result)
        source = "lsp"
    else:
        items = map_diagnostics(reader, path)
        note = "source:'map' diagnostics are syntax errors only (tree-sitter), no type checking"
        if ws.first_time(note):
            warnings.append(note)
        source = "map"
    counts = Counter(item.severity for item in items)
    shown = [diagnostic_row(d, params.detail) for d in items[params.offset:]]
    data = {"file": path, "counts": dict(counts), "diagnostics": shown, "source": source}
    cut = Cut("diagnostics", ("diagnostics",), "Fix the errors first; warnings follow",
              page=Page("nav_diagnostics", params.continuation(), params.offset))
    return Answer(data, cuts=[cut], warnings=warnings)


# ------------------------------------------------------------------------ rename preview

async def nav_rename_preview(ws: Workspace, params: RenameParams, ctx: CallContext) -> Answer:
    from lsprotocol import types as T  # lazily: 0.6 s to import
    if not _IDENTIFIER.match(params.newName):
        raise BadArgs(f"newName must be an identifier, e.g. 'fetch_all'; got "
                      f"{params.newName[:60]!r}")
    reader, located = resolved(ws, params, ctx)
    live = await ask_at(ws, located, params.source, "rename preview",
                        lambda target: position_request(
                            target, T.TEXT_DOCUMENT_RENAME,
                            lambda uri: T.RenameParams(**target.at(uri),
                                                       new_name=params.newName)),
                        capability="rename_provider", wide=True)
    warnings = fallback_notes(ws, live.fallback)
    if live.answered:
        by_file = server_edits(ws.root, live.result)
        source = "lsp"
        if not by_file:
            warnings.append("the language server proposes no edits here")
    else:
        if located.node is None:
            raise SymbolNotFound(f"{located.name!r} is not a definition in the map",
                                 hint="Point at a definition or a resolved use of one.")
        by_file = map_edits(reader, located.node, params.newName)
        warnings.append("source:'map' renames only the uses the map resolved: a use through "
                        "a receiver of unknown type may be missing")
        source = "map"
    lines = Lines(ws.root)
    files = {path: edit_rows(path, by_file[path], lines, params.newName, params.detail)
             for path in sorted(by_file, key=lambda p: (-len(by_file[p]), p))}
    total = sum(len(edits) for edits in by_file.values())
    data = {"symbol": located.name, "newName": params.newName, "total": total,
            "files": files, "applied": False, "source": source}
    cut = Cut("edits", ("files", EVERY), "Preview one folder at a time (nav_references with "
              "fileFilter lists the sites)")
    return Answer(data, cuts=[cut], elide=("snippet",), warnings=warnings)


NAV_DIAGNOSTICS = ToolSpec(
    name="nav_diagnostics",
    brief="errors and warnings of one file",
    order=13,
    description="Errors and warnings of one file from its language server (the map: "
                "syntax errors).",
    params=DiagnosticsParams, handler=nav_diagnostics,
    arguments="`file`, `offset?`, `source?`, `detail?`",
    returns="`diagnostics` (· severity, line); map fallback = tree-sitter syntax errors",
    example={"file": "src/app/models.py"},
)
NAV_RENAME_PREVIEW = ToolSpec(
    name="nav_rename_preview",
    brief="the edits a rename would make (nothing is changed)",
    order=14,
    needs_links=True,
    description="The edits renaming a symbol to newName would make, per file (nothing is "
                "changed).",
    params=RenameParams, handler=nav_rename_preview,
    arguments="id or position, `newName`, `source?`, `detail?`",
    returns="`files`: edits per file (never applied; read-only)",
    example={"symbol": "User.save", "newName": "persist"},
)
