"""``codenav lsp``: the map served to editors over the Language Server Protocol (pygls 2.1).

Definition, references, document symbols, hover, workspace symbols and call hierarchy are
answered from the same map the MCP tools read — from this process's watcher, or from another
process's (an agent's ``codenav mcp``) through the shared map file — and from the editor's
own buffers: a document open with unsaved changes is extracted in memory
(``codenav/buffers.py``), so that positions are the buffer's, not the file's on disk.
Answers come straight from the map: no token budget, no envelope, no language servers of
its own (the editor has those). Positions are LSP's 0-based lines and UTF-16 characters;
the map's columns are UTF-16 too, 1-based.

Like a language server: requests before ``initialize`` are refused (-32002); the root is
the command line's ROOT, else the editor's first workspace folder (codenav/roots.py); a
first build shows as ``$/progress``, and answers that need its links (references, calls)
are empty until it is done, which a ``window/showMessage`` says once.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from lsprotocol import types as T
from pygls.exceptions import JsonRpcServerNotInitialized
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol

from codenav import __version__
from codenav.buffers import Buffer, Overlay, Spanned, Target
from codenav.errors import CodenavError, MapNotBuilt
from codenav.model import Definition
from codenav.paths import relative_path
from codenav.positions import utf16_len
from codenav.query.fresh import Freshness
from codenav.query.locate import locate
from codenav.query.search import search
from codenav.roots import paths_of_uris
from codenav.store.read import MapReader, Node
from codenav.workspace import Workspace

__all__ = ["build_editor_server", "serve_editor"]

log = logging.getLogger("codenav.lsp_server")

MakeWorkspace = Callable[[Sequence[Path]], Workspace]

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
_PROGRESS_EVERY_S = 0.25
_CLOSE_GRACE_S = 1.5
_PROGRESS_TOKEN = "codenav/first-map"


def _kind(node_kind: str) -> T.SymbolKind:
    return _KINDS.get(node_kind, T.SymbolKind.Variable)


class _Protocol(LanguageServerProtocol):
    """pygls' protocol, with LSP's rule for messages before ``initialize``: a request is
    answered -32002 (ServerNotInitialized), a notification other than ``exit`` dropped."""

    def _initialized(self) -> bool:
        return getattr(self, "_workspace", None) is not None

    def _handle_request(self, msg_id: Any, method_name: str, params: Any) -> None:
        if not self._initialized() and method_name != T.INITIALIZE:
            error = JsonRpcServerNotInitialized(
                f"{method_name} before initialize: send initialize first")
            self._send_response(msg_id, None, error.to_response_error())
            return
        super()._handle_request(msg_id, method_name, params)

    def _handle_notification(self, method_name: str, params: Any) -> None:
        if not self._initialized() and method_name != T.EXIT:
            log.debug("dropped %s: it came before initialize", method_name)
            return
        super()._handle_notification(method_name, params)


class _Editor:
    """The handlers, over one workspace (given, or made from the editor's workspace folders
    at ``initialize``)."""

    def __init__(self, ws: Workspace | None, make: MakeWorkspace | None = None) -> None:
        self.ws = ws
        self.make = make
        self.error: CodenavError | None = None
        self.server: LanguageServer | None = None
        self.tasks: set[asyncio.Future[None]] = set()
        self._said: set[str] = set()

    @property
    def workspace(self) -> Workspace:
        if self.ws is None:
            raise self.error or MapNotBuilt("no root yet: the editor has not initialized")
        return self.ws

    # ------------------------------------------------------------------ helpers

    def uri(self, path: str) -> str:
        return (self.workspace.root / path).as_uri()

    def rel(self, uri: str) -> str | None:
        parsed = urlparse(uri)
        if parsed.scheme != "file":
            return None
        ws = self.workspace
        try:
            return relative_path(unquote(parsed.path), ws.root, ws.force_root)
        except CodenavError:
            return None

    @staticmethod
    def name_range(node: Spanned) -> T.Range:
        return T.Range(start=T.Position(line=node.name_line - 1, character=node.name_col - 1),
                       end=T.Position(line=node.name_line - 1,
                                      character=node.name_end_col - 1))

    @staticmethod
    def span(node: Spanned) -> T.Range:
        return T.Range(start=T.Position(line=node.line - 1, character=node.col - 1),
                       end=T.Position(line=node.end_line - 1, character=node.end_col - 1))

    def documents(self) -> dict[str, str]:
        """The editor's open documents inside the root: path -> text."""
        if self.server is None:
            return {}
        try:
            opened = self.server.workspace.text_documents
        except RuntimeError:  # not initialized
            return {}
        out = {}
        for uri, document in list(opened.items()):
            path = self.rel(uri)
            if path is not None:
                out[path] = document.source
        return out

    def overlay(self, reader: MapReader) -> Overlay:
        return Overlay(self.workspace.root, reader, self.documents())

    def say(self, key: str, message: str, kind: T.MessageType = T.MessageType.Info) -> None:
        """``window/showMessage``, once per ``key``."""
        if key in self._said or self.server is None:
            return
        self._said.add(key)
        self.server.window_show_message(T.ShowMessageParams(type=kind, message=message))

    def linked(self) -> bool:
        """Whether the map is linked (not a first build still under way); says so once."""
        ws = self.workspace
        if not ws.building():
            return True
        self.say("building", f"codenav is building the map of {ws.root} "
                             f"({ws.build_progress()}): definitions and symbols come from the "
                             "files mapped so far; references and calls answer once it is "
                             "linked.")
        return False

    def target(self, uri: str, position: T.Position) -> tuple[Overlay, Target | None]:
        """What the position means, read from the editor's buffer when it has unsaved
        changes, else from the map."""
        ws = self.workspace
        reader = ws.reader()
        overlay = self.overlay(reader)
        path = self.rel(uri)
        if path is None:
            return overlay, None
        self.linked()
        buffer = overlay.buffer(path)
        if buffer is not None:
            return overlay, overlay.target_at(buffer, position.line + 1, position.character + 1)
        try:
            located = locate(ws, reader, Freshness(ws), file=path, line=position.line + 1,
                             col=position.character + 1)
        except CodenavError:
            return overlay, None
        node = located.node
        return overlay, Target(node, node.path, None) if node is not None else None

    def location(self, overlay: Overlay, target: Target) -> T.Location | None:
        placed = overlay.place(target)
        if placed is None:
            return None
        path, definition = placed
        return T.Location(uri=self.uri(path), range=self.name_range(definition))

    # ----------------------------------------------------------------- features

    def definition(self, params: T.DefinitionParams) -> list[T.Location] | None:
        overlay, target = self.target(params.text_document.uri, params.position)
        found = self.location(overlay, target) if target is not None else None
        return [found] if found is not None else None

    def references(self, params: T.ReferenceParams) -> list[T.Location] | None:
        overlay, target = self.target(params.text_document.uri, params.position)
        if target is None:
            return None
        if not self.linked():
            return []
        return [T.Location(uri=self.uri(hit.path), range=_hit_range(hit.line, hit.col, hit.name))
                for hit in overlay.references(target, params.context.include_declaration)]

    def document_symbols(self, params: T.DocumentSymbolParams) -> list[T.DocumentSymbol]:
        path = self.rel(params.text_document.uri)
        if path is None:
            return []
        reader = self.workspace.reader()
        buffer = self.overlay(reader).buffer(path)
        if buffer is not None:
            return self._buffer_symbols(buffer)
        stat = reader.file(path)
        if stat is None:
            return []
        symbols: dict[int, T.DocumentSymbol] = {}
        children: dict[int, list[T.DocumentSymbol]] = {}
        top: list[T.DocumentSymbol] = []
        for node in reader.file_nodes(stat.id):
            if node.kind == "module":
                continue
            own: list[T.DocumentSymbol] = []
            symbol = self._symbol(node, own)
            symbols[node.id], children[node.id] = symbol, own
            siblings = children.get(node.parent_id or -1)
            (siblings if siblings is not None else top).append(symbol)
        return top

    def _symbol(self, node: Node | Definition, own: list[T.DocumentSymbol]) -> T.DocumentSymbol:
        return T.DocumentSymbol(name=node.name, kind=_kind(node.kind), range=self.span(node),
                                selection_range=self.name_range(node),
                                detail=node.signature or None, children=own)

    def _buffer_symbols(self, buffer: Buffer) -> list[T.DocumentSymbol]:
        children: list[list[T.DocumentSymbol]] = []
        top: list[T.DocumentSymbol] = []
        for definition in buffer.defs:
            own: list[T.DocumentSymbol] = []
            children.append(own)
            parent = definition.parent
            (children[parent] if 0 <= parent < len(children) else top).append(
                self._symbol(definition, own))
        return top

    def hover(self, params: T.HoverParams) -> T.Hover | None:
        overlay, target = self.target(params.text_document.uri, params.position)
        shown = overlay.definition_of(target) if target is not None else None
        if shown is None:
            return None
        lines = [f"```\n{shown.signature}\n```"] if shown.signature else []
        lines.append(f"*{shown.kind}* `{shown.qname}`")
        if shown.doc:
            lines.append(shown.doc)
        return T.Hover(contents=T.MarkupContent(kind=T.MarkupKind.Markdown,
                                                value="\n\n".join(lines)))

    async def workspace_symbols(self, params: T.WorkspaceSymbolParams
                                ) -> list[T.SymbolInformation]:
        if not params.query.strip():
            return []
        ws = self.workspace
        try:
            reader = ws.reader()
            found = search(ws, reader, params.query, room=_MAX_WORKSPACE_SYMBOLS)
        except CodenavError:  # no map yet, or a query with no name in it
            return []
        out = []
        overlay = self.overlay(reader)
        for _, node in found.matches[:_MAX_WORKSPACE_SYMBOLS]:
            location = self.location(overlay, Target(node, node.path, None))
            if location is not None:
                parent = reader.node_by_id(node.parent_id) if node.parent_id else None
                out.append(T.SymbolInformation(
                    name=node.name, kind=_kind(node.kind), location=location,
                    container_name=parent.qname if parent is not None and parent.qname
                    else None))
        return out

    def prepare_calls(self, params: T.CallHierarchyPrepareParams
                      ) -> list[T.CallHierarchyItem] | None:
        overlay, target = self.target(params.text_document.uri, params.position)
        if target is None or target.node is None:  # calls come from the map's links
            return None
        return [self.item(overlay, target.node)]

    def item(self, overlay: Overlay, node: Node) -> T.CallHierarchyItem:
        placed = overlay.place(Target(node, node.path, None))
        shown: Spanned = placed[1] if placed is not None else node
        return T.CallHierarchyItem(name=node.name, kind=_kind(node.kind), uri=self.uri(node.path),
                                   range=self.span(shown), selection_range=self.name_range(shown),
                                   detail=node.qname, data=node.nid)

    def _calls(self, item: T.CallHierarchyItem,
               incoming: bool) -> tuple[Overlay, list[tuple[Node, list[T.Range]]]]:
        """The nodes calling (or called by) the item's node, each with the call ranges."""
        reader = self.workspace.reader()
        overlay = self.overlay(reader)
        node = reader.node(str(item.data)) if item.data else None
        if node is None or not self.linked():
            return overlay, []
        sites = reader.call_sites(node.id, incoming)
        return overlay, [(other, [_hit_range(h.line, h.col, h.name) for h in sites[other.id]])
                         for other in reader.nodes_by_id(sites).values()]

    def incoming(self, params: T.CallHierarchyIncomingCallsParams
                 ) -> list[T.CallHierarchyIncomingCall]:
        overlay, calls = self._calls(params.item, True)
        return [T.CallHierarchyIncomingCall(from_=self.item(overlay, caller), from_ranges=ranges)
                for caller, ranges in calls if caller.kind != "module"]

    def outgoing(self, params: T.CallHierarchyOutgoingCallsParams
                 ) -> list[T.CallHierarchyOutgoingCall]:
        overlay, calls = self._calls(params.item, False)
        return [T.CallHierarchyOutgoingCall(to=self.item(overlay, callee), from_ranges=ranges)
                for callee, ranges in calls]

    # ------------------------------------------------------------------ session

    def choose_root(self, params: T.InitializeParams) -> None:
        """At ``initialize``, without ROOT on the command line: the editor's first
        workspace folder (or its root URI), else codenav/roots.py's other rules."""
        if self.ws is not None or self.make is None:
            return
        uris = [folder.uri for folder in params.workspace_folders or []]
        if params.root_uri:
            uris.append(params.root_uri)
        if params.root_path:
            uris.append(Path(params.root_path).as_uri() if Path(params.root_path).is_absolute()
                        else params.root_path)
        try:
            self.ws = self.make(paths_of_uris(uris))
        except CodenavError as exc:
            log.warning("%s %s", exc.message, exc.hint)
            self.error = exc
            return
        log.info("root %s (%s)", self.ws.root, self.ws.root_from)
        if self.ws.start_background_build():
            log.info("no usable map at %s: building it in the background", self.ws.db_path)

    async def started(self) -> None:
        """After ``initialized``: the watcher (after the answer to ``initialize``: setting it
        up takes seconds on a large tree), and the first build's progress."""
        if self.error is not None:
            self.say("refused", f"codenav: {self.error.message}. {self.error.hint}",
                     T.MessageType.Warning)
            return
        ws = self.ws
        if ws is None:
            return
        if ws.watch:
            ws.start_watcher(wait=False)
        if ws.build.running:
            await self._progress(ws)

    async def _progress(self, ws: Workspace) -> None:
        """``$/progress`` while the first build runs, when the editor takes it."""
        server = self.server
        window = server.client_capabilities.window if server is not None else None
        if server is None or window is None or not window.work_done_progress:
            return
        try:
            await server.work_done_progress.create_async(_PROGRESS_TOKEN)
        except Exception:  # noqa: BLE001 - an editor that refuses the token gets no progress
            return
        progress = server.work_done_progress
        progress.begin(_PROGRESS_TOKEN, T.WorkDoneProgressBegin(
            title="codenav: building the map", message="finding the files", percentage=0))
        while ws.build.running:
            done, total = ws.build_counts()
            progress.report(_PROGRESS_TOKEN, T.WorkDoneProgressReport(
                message=ws.build_progress(),
                percentage=min(99, done * 100 // total) if total else 0))
            await asyncio.sleep(_PROGRESS_EVERY_S)
        failed = ws.build.last_error
        progress.end(_PROGRESS_TOKEN, T.WorkDoneProgressEnd(
            message=f"failed: {failed[:200]}" if failed else "map built"))
        if not failed:
            self._said.discard("building")


def _hit_range(line: int, col: int, name: str) -> T.Range:
    return T.Range(start=T.Position(line=line - 1, character=col - 1),
                   end=T.Position(line=line - 1, character=col - 1 + utf16_len(name)))


def build_editor_server(editor: _Editor) -> LanguageServer:
    """A pygls server answering from ``editor``'s workspace."""
    server = LanguageServer("codenav", __version__, protocol_cls=_Protocol)
    editor.server = server

    def guarded(handler: Any) -> Any:
        """A failing handler answers nothing rather than an error popup per keystroke."""
        def run(_ls: LanguageServer, params: Any) -> Any:
            try:
                return handler(params)
            except CodenavError as exc:  # no map yet, a file outside the root …
                log.info("%s: %s", exc.code, exc.message)
                return None
        return run

    @server.feature(T.INITIALIZE)
    def initialize(_ls: LanguageServer, params: T.InitializeParams) -> None:
        editor.choose_root(params)

    @server.feature(T.INITIALIZED)
    def initialized(_ls: LanguageServer, _params: T.InitializedParams) -> None:
        task = asyncio.ensure_future(editor.started())  # the progress lasts the first build
        editor.tasks.add(task)
        task.add_done_callback(editor.tasks.discard)

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


def serve_editor(ws: Workspace | None = None, *, make: MakeWorkspace | None = None) -> int:
    """Serve LSP on stdin/stdout until the editor says exit (or closes stdin); ``make``:
    the workspace is made from the editor's workspace folders at ``initialize``. The exit
    status is LSP's: 1 when ``exit`` came without a ``shutdown`` before it, else 0."""
    if ws is not None and ws.start_background_build():
        log.info("no usable map at %s: building it in the background", ws.db_path)
    editor = _Editor(ws, make)
    server = build_editor_server(editor)
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
        if editor.ws is not None:
            editor.ws.close(grace=_CLOSE_GRACE_S)
        if sys.stdout is not None and sys.stdout.closed:
            # pygls closes stdout on exit: later flushes (the interpreter's at exit) would
            # fail on it, and a traceback would turn a clean exit into status 1
            sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115
    return 1 if T.EXIT in said and T.SHUTDOWN not in said else 0
