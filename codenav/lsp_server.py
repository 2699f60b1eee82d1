"""``codenav lsp``: the map served to editors over the Language Server Protocol (pygls 2.1).

Definition, references, document symbols, hover, workspace symbols and call hierarchy are
answered from the same map the MCP tools read — from this process's watcher, or from another
process's (an agent's ``codenav mcp``) through the shared map file. Answers come straight
from the map: no token budget, no envelope, no language servers of its own (the editor has
those). Positions are LSP's 0-based lines and UTF-16 characters; the map's columns are UTF-16
too, 1-based.
"""

from __future__ import annotations

import logging
import os
import sys
from typing import Any
from urllib.parse import unquote, urlparse

from lsprotocol import types as T
from pygls.lsp.server import LanguageServer

from codenav import __version__
from codenav.errors import CodenavError
from codenav.paths import relative_path
from codenav.positions import utf16_len
from codenav.store.read import MapReader, Node
from codenav.tools.common import Freshness, TargetParams, locate
from codenav.tools.dispatch import call_tool
from codenav.tools.nav_tools import declarations_of, references_of
from codenav.workspace import Workspace

__all__ = ["build_editor_server", "serve_editor"]

log = logging.getLogger("codenav.lsp_server")

_KINDS = {
    "module": T.SymbolKind.Module, "class": T.SymbolKind.Class,
    "interface": T.SymbolKind.Interface, "struct": T.SymbolKind.Struct,
    "enum": T.SymbolKind.Enum, "trait": T.SymbolKind.Interface, "type": T.SymbolKind.Class,
    "typedef": T.SymbolKind.Class, "function": T.SymbolKind.Function,
    "method": T.SymbolKind.Method, "constructor": T.SymbolKind.Constructor,
    "property": T.SymbolKind.Property, "field": T.SymbolKind.Field,
    "attribute": T.SymbolKind.Field, "variable": T.SymbolKind.Variable,
    "constant": T.SymbolKind.Constant, "namespace": T.SymbolKind.Namespace,
    "macro": T.SymbolKind.Function, "union": T.SymbolKind.Struct,
}
_MAX_WORKSPACE_SYMBOLS = 200


def _kind(node_kind: str) -> T.SymbolKind:
    return _KINDS.get(node_kind, T.SymbolKind.Variable)


class _Editor:
    """The handlers, over one workspace."""

    def __init__(self, ws: Workspace) -> None:
        self.ws = ws

    # ------------------------------------------------------------------ helpers

    def uri(self, path: str) -> str:
        return (self.ws.root / path).as_uri()

    def rel(self, uri: str) -> str | None:
        parsed = urlparse(uri)
        if parsed.scheme != "file":
            return None
        try:
            return relative_path(unquote(parsed.path), self.ws.root, self.ws.force_root)
        except CodenavError:
            return None

    def name_range(self, node: Node) -> T.Range:
        return T.Range(start=T.Position(line=node.name_line - 1, character=node.name_col - 1),
                       end=T.Position(line=node.name_line - 1,
                                      character=node.name_end_col - 1))

    def span(self, node: Node) -> T.Range:
        return T.Range(start=T.Position(line=node.line - 1, character=node.col - 1),
                       end=T.Position(line=node.end_line - 1, character=node.end_col - 1))

    def location(self, node: Node) -> T.Location:
        return T.Location(uri=self.uri(node.path), range=self.name_range(node))

    def at(self, uri: str, position: T.Position) -> tuple[MapReader, Node | None]:
        """The definition meant at a position (its own name, or a use of it)."""
        path = self.rel(uri)
        if path is None:
            return self.ws.reader(), None
        reader = self.ws.reader()
        params = TargetParams(file=path, line=position.line + 1, col=position.character + 1)
        try:
            located = locate(self.ws, reader, params, Freshness(self.ws))
        except CodenavError:
            return reader, None
        return reader, located.node

    # ----------------------------------------------------------------- features

    def definition(self, params: T.DefinitionParams) -> list[T.Location] | None:
        _, node = self.at(params.text_document.uri, params.position)
        return [self.location(node)] if node is not None else None

    def references(self, params: T.ReferenceParams) -> list[T.Location] | None:
        reader, node = self.at(params.text_document.uri, params.position)
        if node is None:
            return None
        out: list[T.Location] = []
        seen: set[tuple[str, int, int]] = set()
        for other in declarations_of(reader, node):
            if other.id != node.id or params.context.include_declaration:
                seen.add((other.path, other.name_line, other.name_col))
                out.append(self.location(other))
        for hit in references_of(reader, node):
            if (hit.path, hit.line, hit.col) in seen:
                continue
            seen.add((hit.path, hit.line, hit.col))
            start = T.Position(line=hit.line - 1, character=hit.col - 1)
            end = T.Position(line=hit.line - 1, character=hit.col - 1 + utf16_len(hit.name))
            out.append(T.Location(uri=self.uri(hit.path), range=T.Range(start=start, end=end)))
        return out

    def document_symbols(self, params: T.DocumentSymbolParams) -> list[T.DocumentSymbol]:
        path = self.rel(params.text_document.uri)
        reader = self.ws.reader()
        stat = reader.file(path) if path is not None else None
        if stat is None:
            return []
        symbols: dict[int, T.DocumentSymbol] = {}
        children: dict[int, list[T.DocumentSymbol]] = {}
        top: list[T.DocumentSymbol] = []
        for node in reader.file_nodes(stat.id):
            if node.kind == "module":
                continue
            own: list[T.DocumentSymbol] = []
            symbol = T.DocumentSymbol(name=node.name, kind=_kind(node.kind),
                                      range=self.span(node),
                                      selection_range=self.name_range(node),
                                      detail=node.signature or None, children=own)
            symbols[node.id], children[node.id] = symbol, own
            siblings = children.get(node.parent_id or -1)
            (siblings if siblings is not None else top).append(symbol)
        return top

    def hover(self, params: T.HoverParams) -> T.Hover | None:
        _, node = self.at(params.text_document.uri, params.position)
        if node is None:
            return None
        lines = [f"```\n{node.signature}\n```"] if node.signature else []
        lines.append(f"*{node.kind}* `{node.qname}`")
        if node.doc:
            lines.append(node.doc)
        return T.Hover(contents=T.MarkupContent(kind=T.MarkupKind.Markdown,
                                                value="\n\n".join(lines)))

    async def workspace_symbols(self, params: T.WorkspaceSymbolParams
                                ) -> list[T.SymbolInformation]:
        if not params.query.strip():
            return []
        envelope = await call_tool(self.ws, "map_search",
                                   {"query": params.query, "tokenBudget": 10000,
                                    "detail": "full"})
        if not envelope.get("ok"):
            return []
        out = []
        reader = self.ws.reader()
        for item in envelope["data"].get("results", [])[:_MAX_WORKSPACE_SYMBOLS]:
            node = reader.node(item["id"])
            if node is not None:
                parent = reader.node_by_id(node.parent_id) if node.parent_id else None
                out.append(T.SymbolInformation(
                    name=node.name, kind=_kind(node.kind), location=self.location(node),
                    container_name=parent.qname if parent is not None and parent.qname
                    else None))
        return out

    def prepare_calls(self, params: T.CallHierarchyPrepareParams
                      ) -> list[T.CallHierarchyItem] | None:
        _, node = self.at(params.text_document.uri, params.position)
        return [self.item(node)] if node is not None else None

    def item(self, node: Node) -> T.CallHierarchyItem:
        return T.CallHierarchyItem(name=node.name, kind=_kind(node.kind), uri=self.uri(node.path),
                                   range=self.span(node), selection_range=self.name_range(node),
                                   detail=node.qname, data=node.nid)

    def _calls(self, item: T.CallHierarchyItem,
               incoming: bool) -> list[tuple[Node, list[T.Range]]]:
        """The nodes calling (or called by) the item's node, each with the call ranges."""
        reader = self.ws.reader()
        node = reader.node(str(item.data)) if item.data else None
        if node is None:
            return []
        sites = reader.call_sites(node.id, incoming)
        return [(other, [_hit_range(h.line, h.col, h.name) for h in sites[other.id]])
                for other in reader.nodes_by_id(sites).values()]

    def incoming(self, params: T.CallHierarchyIncomingCallsParams
                 ) -> list[T.CallHierarchyIncomingCall]:
        return [T.CallHierarchyIncomingCall(from_=self.item(caller), from_ranges=ranges)
                for caller, ranges in self._calls(params.item, True)
                if caller.kind != "module"]

    def outgoing(self, params: T.CallHierarchyOutgoingCallsParams
                 ) -> list[T.CallHierarchyOutgoingCall]:
        return [T.CallHierarchyOutgoingCall(to=self.item(callee), from_ranges=ranges)
                for callee, ranges in self._calls(params.item, False)]


def _hit_range(line: int, col: int, name: str) -> T.Range:
    return T.Range(start=T.Position(line=line - 1, character=col - 1),
                   end=T.Position(line=line - 1, character=col - 1 + utf16_len(name)))


def build_editor_server(ws: Workspace) -> LanguageServer:
    """A pygls server answering from ``ws``'s map."""
    server = LanguageServer("codenav", __version__)
    editor = _Editor(ws)

    def guarded(handler: Any) -> Any:
        """A failing handler answers nothing rather than an error popup per keystroke."""
        def run(_ls: LanguageServer, params: Any) -> Any:
            try:
                return handler(params)
            except CodenavError as exc:  # no map yet, a file outside the root …
                log.info("%s: %s", exc.code, exc.message)
                return None
        return run

    server.feature(T.TEXT_DOCUMENT_DEFINITION)(guarded(editor.definition))
    server.feature(T.TEXT_DOCUMENT_REFERENCES)(guarded(editor.references))
    server.feature(T.TEXT_DOCUMENT_DOCUMENT_SYMBOL)(guarded(editor.document_symbols))
    server.feature(T.TEXT_DOCUMENT_HOVER)(guarded(editor.hover))
    server.feature(T.TEXT_DOCUMENT_PREPARE_CALL_HIERARCHY)(guarded(editor.prepare_calls))
    server.feature(T.CALL_HIERARCHY_INCOMING_CALLS)(guarded(editor.incoming))
    server.feature(T.CALL_HIERARCHY_OUTGOING_CALLS)(guarded(editor.outgoing))

    @server.feature(T.WORKSPACE_SYMBOL)
    async def workspace_symbol(_ls: LanguageServer, params: T.WorkspaceSymbolParams
                               ) -> list[T.SymbolInformation]:
        try:
            return await editor.workspace_symbols(params)
        except CodenavError:
            return []

    return server


def serve_editor(ws: Workspace) -> int:
    """Serve LSP on stdin/stdout until the editor says exit (or closes stdin). The exit
    status is LSP's: 1 when ``exit`` came without a ``shutdown`` before it, else 0."""
    if ws.start_background_build():
        log.info("no usable map at %s: building it in the background", ws.db_path)
    if ws.watch:
        ws.start_watcher()
    server = build_editor_server(ws)
    said: set[str] = set()

    @server.feature(T.SHUTDOWN)
    def shutdown(_ls: LanguageServer, _params: None) -> None:
        said.add(T.SHUTDOWN)

    @server.feature(T.EXIT)
    def exit_(_ls: LanguageServer, _params: None) -> None:
        said.add(T.EXIT)

    try:
        server.start_io()
    finally:
        ws.close()
        if sys.stdout is not None and sys.stdout.closed:
            # pygls closes stdout on exit: later flushes (the interpreter's at exit) would
            # fail on it, and a traceback would turn a clean exit into status 1
            sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115
    return 1 if T.EXIT in said and T.SHUTDOWN not in said else 0
