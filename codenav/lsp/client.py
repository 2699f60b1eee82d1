"""One language server process spoken to over stdio, with deadlines and a clean death.

``LspClient`` wraps pygls 2.1's ``LanguageClient`` (the JSON-RPC framing and lsprotocol's typed
messages) and adds what a long-lived, unattended client needs:

- **Spawning.** The server runs in its own process group (``start_new_session``) so that the
  whole tree it starts (basedpyright-langserver is a Python wrapper around a ``node`` child)
  can be signalled at once. On Linux the direct child also gets ``PR_SET_PDEATHSIG=SIGKILL``,
  so it dies with codenav however codenav exits. PDEATHSIG fires when the *thread* that
  forked exits, so start servers from the event-loop thread that outlives them, and it is not
  inherited by grandchildren: those rely on the group kill in :meth:`LspClient.close`, on
  their stdin closing, and on the ``processId`` watchdog of the initialize request.
- **stderr** is drained continuously; the last 64 KiB are kept as ``stderr_tail``. pygls
  pipes it and never reads it, and a chatty server then blocks on a full pipe.
- **Requests** carry ids of our own (``codenav-N``) and a deadline. Past the deadline the
  pending entry is dropped, ``$/cancelRequest`` is sent for that id and
  :class:`LspRequestTimeout` (a ``TimeoutError``) is raised. If the server dies meanwhile,
  pending requests fail with :class:`LspServerExited` within ~0.1 s of the death (plus up
  to 0.5 s to collect the last stderr), not at their deadline. Error responses become
  :class:`LspResponseError` with the JSON-RPC code (``-32801`` ContentModified …).
- **Server-to-client traffic** is answered: ``workspace/configuration`` from ``settings``
  (``None`` per item by default), ``window/workDoneProgress/create``, capability
  registration, ``workspace/workspaceFolders``; ``workspace/applyEdit`` is refused (codenav
  is read-only). Notifications (``publishDiagnostics``, ``$/progress``, basedpyright's
  ``pyright/*Progress``, log and show messages) are accepted silently and passed to
  listeners added with :meth:`LspClient.on_notification`; the latest diagnostics per URI
  are kept.
- **Closing** is bounded: ``shutdown`` and ``exit`` within two thirds of ``grace``, then
  SIGTERM to the process group for the rest of it, then SIGKILL. Nothing of the group is
  left behind.

pygls traps this module works around (pygls 2.1.1):

- ``JsonRPCProtocol`` keeps one dict of futures and one of result types keyed by message id
  for *both* directions. A server-to-client request whose id equals one of ours (servers
  count 0, 1, 2 …) removes our pending future, and our answer is then dropped as "unknown
  message id". Our ids are therefore strings no server uses.
- ``asyncio.subprocess.Process.wait()`` returns only once every pipe is closed, so a dead
  server whose grandchild still holds stdout would look alive forever; exit is detected by
  polling ``returncode`` instead (the child watcher sets it at once).
- ``JsonRPCClient.stop()`` gathers its tasks without ``return_exceptions`` and raises the
  reader's ``IncompleteReadError`` when a server died mid-message; it is not used.
- ``feature()`` refuses a second handler for one method, hence the listener lists.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import re
import signal
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any
from urllib.parse import urlparse
from urllib.request import url2pathname

from lsprotocol import types as T
from pygls.exceptions import JsonRpcException
from pygls.lsp.client import LanguageClient

from codenav.lifetime import GroupReaper, die_with_parent_hook

__all__ = [
    "CONTENT_MODIFIED",
    "REQUEST_CANCELLED",
    "SERVER_CANCELLED",
    "STDERR_TAIL_BYTES",
    "LspClient",
    "LspRequestTimeout",
    "LspResponseError",
    "LspServerExited",
    "NotificationListener",
    "default_client_capabilities",
]

log = logging.getLogger(__name__)

STDERR_TAIL_BYTES = 64 * 1024
# The largest message read from a server. A hot symbol's references in a big project are a
# few MB; a message past this would be held whole and parsed on the pool's loop (a 300 MB
# result took 118 s, a claimed 10 GB grew codenav to 7 GB): the server is ended instead.
MAX_MESSAGE_BYTES = 32 << 20
# JSON-RPC error codes a caller may want to retry on.
REQUEST_CANCELLED = -32800
CONTENT_MODIFIED = -32801
SERVER_CANCELLED = -32802

_EXIT_POLL = 0.05  # seconds between returncode checks while the server runs
_STDERR_SETTLE = 0.5  # after an exit, how long to wait for the last stderr bytes

NotificationListener = Callable[[str, Any], None]
_HEADER = re.compile(rb"^(?:Content-Length|Content-Type): [^\r\n]*\r\n$", re.I)


class LspRequestTimeout(TimeoutError):
    """No answer within the deadline; the request was cancelled at the server."""

    def __init__(self, method: str, timeout: float) -> None:
        super().__init__(f"{method}: no answer within {timeout:g} s")
        self.method = method
        self.timeout = timeout


class LspServerExited(RuntimeError):
    """The server process is gone (crashed, killed, or closed) while it was needed."""

    def __init__(self, exit_code: int | None, stderr_tail: str,
                 refused: str | None = None) -> None:
        super().__init__(f"language server {refused}" if refused else
                         f"language server exited with code {exit_code}")
        self.exit_code = exit_code
        self.stderr_tail = stderr_tail
        self.refused = refused  # why codenav ended it, when it did


class LspResponseError(RuntimeError):
    """The server answered a request with a JSON-RPC error."""

    def __init__(self, method: str, code: int, message: str, data: Any = None) -> None:
        super().__init__(f"{method}: error {code}: {message}")
        self.method = method
        self.code = code
        self.message = message
        self.data = data


def default_client_capabilities() -> T.ClientCapabilities:
    """What codenav can consume: plain locations, UTF-16 positions, no edits applied."""
    return T.ClientCapabilities(
        general=T.GeneralClientCapabilities(position_encodings=[T.PositionEncodingKind.Utf16]),
        text_document=T.TextDocumentClientCapabilities(
            synchronization=T.TextDocumentSyncClientCapabilities(did_save=False),
            definition=T.DefinitionClientCapabilities(link_support=False),
            declaration=T.DeclarationClientCapabilities(link_support=False),
            type_definition=T.TypeDefinitionClientCapabilities(link_support=False),
            implementation=T.ImplementationClientCapabilities(link_support=False),
            references=T.ReferenceClientCapabilities(),
            hover=T.HoverClientCapabilities(
                content_format=[T.MarkupKind.Markdown, T.MarkupKind.PlainText]),
            document_symbol=T.DocumentSymbolClientCapabilities(
                hierarchical_document_symbol_support=True),
            call_hierarchy=T.CallHierarchyClientCapabilities(),
            type_hierarchy=T.TypeHierarchyClientCapabilities(),
            rename=T.RenameClientCapabilities(prepare_support=True),
            publish_diagnostics=T.PublishDiagnosticsClientCapabilities(version_support=True),
        ),
        workspace=T.WorkspaceClientCapabilities(
            configuration=True, workspace_folders=True,
            symbol=T.WorkspaceSymbolClientCapabilities()),
        window=T.WindowClientCapabilities(work_done_progress=True),
    )


def _lookup_setting(settings: Mapping[str, Any] | None, section: str | None) -> Any:
    """The value for one ``workspace/configuration`` item: a dotted section in ``settings``."""
    if settings is None:
        return None
    if not section:
        return dict(settings)
    if section in settings:
        return settings[section]
    node: Any = settings
    for part in section.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return None
        node = node[part]
    return node


@dataclass
class _OpenDocument:
    language_id: str
    version: int
    text: str


class LspClient:
    """One language-server process: ``start``, ``request``/``notify``, document sync, ``close``.

    Use from a single event loop. One instance runs one process once; restart by making a new
    client. Always ``close()`` it (``async with LspClient() as client: await client.start(...)``
    does): an unclosed server lives on until codenav exits.
    """

    def __init__(self, name: str = "codenav", version: str = "0") -> None:
        self._lc = LanguageClient(name, version)
        self._proc: asyncio.subprocess.Process | None = None
        self._root: Path | None = None
        self._settings: Mapping[str, Any] | None = None
        self._ids = itertools.count(1)
        self._stderr = bytearray()
        self._drain_task: asyncio.Task[None] | None = None
        self._watch_task: asyncio.Task[None] | None = None
        self._exit_future: asyncio.Future[int] | None = None
        self._close_lock = asyncio.Lock()
        self._closed = False
        self._reaper: GroupReaper | None = None
        self.noise: str | None = None  # the first non-protocol line the server wrote on stdout
        self.refused: str | None = None  # how it broke the protocol's bounds, if it did
        self._init: T.InitializeResult | None = None
        self._docs: dict[str, _OpenDocument] = {}
        self._diagnostics: dict[str, T.PublishDiagnosticsParams] = {}
        self._diagnostics_changed = asyncio.Event()
        self._listeners: dict[str, list[NotificationListener]] = {}
        self._register_handlers()

    # -- lifecycle --------------------------------------------------------------------------

    async def start(self, cmd: Sequence[str], root: Path, *, init_timeout: float = 30.0,
                    initialization_options: Mapping[str, Any] | None = None,
                    settings: Mapping[str, Any] | None = None,
                    env: Mapping[str, str] | None = None,
                    capabilities: T.ClientCapabilities | None = None) -> T.InitializeResult:
        """Spawn ``cmd`` in ``root`` and complete ``initialize``/``initialized``.

        ``settings`` answers ``workspace/configuration`` (a nested mapping looked up by dotted
        section, e.g. ``{"basedpyright": {"analysis": {...}}}``). A missing binary raises
        ``FileNotFoundError``; a failed or slow handshake raises after killing the process.
        """
        if self._proc is not None or self._closed:
            raise RuntimeError("an LspClient starts one server once; make a new client")
        if not cmd:
            raise ValueError("empty server command")
        self._root = root.resolve()
        self._settings = settings
        kwargs: dict[str, Any] = {"cwd": str(self._root), "start_new_session": True}
        hook = die_with_parent_hook()
        if hook is not None:
            kwargs["preexec_fn"] = hook
        if env is not None:
            kwargs["env"] = dict(env)
        await self._lc.start_io(cmd[0], *cmd[1:], **kwargs)
        proc = self._lc._server
        if proc is None or proc.stderr is None:
            raise RuntimeError("pygls did not start the server process")
        self._watch_protocol(proc.stdout)
        self._proc = proc
        try:  # its own children die with codenav too, even if codenav is SIGKILLed
            self._reaper = GroupReaper(proc.pid)
        except OSError:
            log.warning("no reaper for language server %s: its children may outlive codenav",
                        proc.pid)
        self._exit_future = asyncio.get_running_loop().create_future()
        self._drain_task = asyncio.create_task(self._drain(proc.stderr))
        self._watch_task = asyncio.create_task(self._watch_exit(proc))
        folder = T.WorkspaceFolder(uri=self._root.as_uri(), name=self._root.name)
        params = T.InitializeParams(
            process_id=os.getpid(),
            client_info=T.ClientInfo(name=self._lc.name, version=self._lc.version),
            root_uri=folder.uri,
            root_path=str(self._root),
            workspace_folders=[folder],  # basedpyright resolves nothing across files without it
            initialization_options=(dict(initialization_options)
                                    if initialization_options is not None else None),
            capabilities=capabilities or default_client_capabilities(),
        )
        try:
            result = await self.request(T.INITIALIZE, params, init_timeout)
            if not isinstance(result, T.InitializeResult):
                raise LspResponseError(T.INITIALIZE, 0, f"unexpected result {result!r}")
            self._init = result
            self.notify(T.INITIALIZED, T.InitializedParams())
        except BaseException:
            await self._kill_and_reap()
            raise
        return result

    def _watch_protocol(self, stream: Any) -> None:
        """Watch what the server writes on stdout as pygls reads it: note the first line that
        is no part of the protocol (pygls skips such lines without a word; a request would
        then just time out), and refuse a message over ``MAX_MESSAGE_BYTES`` or a header line
        over the stream's limit before it is read (``Content-Length: 10000000000`` would be
        read whole into memory): the server is then ended, and the requests it had are
        answered with why."""
        if stream is None:
            return
        read, read_exactly = stream.readline, stream.readexactly

        async def readline() -> bytes:
            try:
                line: bytes = await read()
            except ValueError:  # a header line past the stream's limit (asyncio's 64 KiB)
                self._refuse("wrote a header line of over 64 KiB")
                return b""
            if self.noise is None and line.strip() and not _HEADER.match(line):
                self.noise = line[:200].decode("utf-8", "replace").strip()
                log.warning("language server %s wrote non-protocol output on stdout: %r",
                            self.pid, self.noise)
            return line

        async def readexactly(size: int) -> bytes:
            if size > MAX_MESSAGE_BYTES:
                self._refuse(f"sent a message of {size:,} bytes, over codenav's limit of "
                             f"{MAX_MESSAGE_BYTES:,}")
                return b""  # pygls stops reading
            body: bytes = await read_exactly(size)
            return body

        stream.readline = readline  # run_async has not started reading yet
        stream.readexactly = readexactly

    def _refuse(self, what: str) -> None:
        """End a server that broke the protocol's bounds; its requests fail saying so."""
        self.refused = f"{what}; codenav ended it"
        log.warning("language server %s %s", self.pid, self.refused)
        self._signal_group(signal.SIGKILL)

    async def close(self, grace: float = 3.0) -> None:
        """Shut the server down politely, then by force; return once the whole group is gone.

        Takes at most about ``grace`` seconds (plus the time SIGKILL needs). Idempotent.
        """
        async with self._close_lock:
            if self._closed:
                return
            self._closed = True
            if self._proc is None:
                return
            loop = asyncio.get_running_loop()
            deadline = loop.time() + grace
            polite = deadline - grace / 3
            if self.running:
                # jedi-language-server takes 3-4 s to exit with documents open (its pending
                # diagnostics hit a closed stdout), under 1 s once they are closed
                for uri in list(self._docs):
                    self.close_document(self.path_for(uri))
                with contextlib.suppress(LspRequestTimeout, LspServerExited, LspResponseError):
                    await self.request(T.SHUTDOWN, None, max(polite - loop.time(), 0.01))
                if self.running:
                    self._lc.protocol.notify(T.EXIT, None)
                    self._close_stdin()  # EOF, too: some servers only act on that
                    await self._wait_exit(polite - loop.time())
            if self.running:
                log.info("language server %s ignored shutdown; SIGTERM", self.pid)
                self._signal_group(signal.SIGTERM)
                await self._wait_exit(deadline - loop.time())
            await self._kill_and_reap()

    async def __aenter__(self) -> LspClient:
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None,
                        exc: BaseException | None, tb: TracebackType | None) -> None:
        await self.close()

    # -- state ------------------------------------------------------------------------------

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.returncode is None

    @property
    def exit_code(self) -> int | None:
        """The server's exit status once it is gone (negative: killed by that signal)."""
        return self._proc.returncode if self._proc is not None else None

    @property
    def stderr_tail(self) -> str:
        """The last 64 KiB the server wrote to stderr."""
        return self._stderr.decode("utf-8", errors="replace")

    @property
    def root(self) -> Path | None:
        return self._root

    @property
    def initialize_result(self) -> T.InitializeResult | None:
        return self._init

    @property
    def capabilities(self) -> T.ServerCapabilities | None:
        return self._init.capabilities if self._init is not None else None

    @property
    def server_info(self) -> T.ServerInfo | None:
        return self._init.server_info if self._init is not None else None

    @property
    def position_encoding(self) -> str:
        """What the server chose; LSP says UTF-16 when it does not say."""
        caps = self.capabilities
        chosen = caps.position_encoding if caps is not None else None
        return str(chosen) if chosen is not None else T.PositionEncodingKind.Utf16.value

    # -- messages ---------------------------------------------------------------------------

    async def request(self, method: str, params: Any, timeout: float) -> Any:
        """Send one request and wait at most ``timeout`` seconds for its result.

        Results of standard methods come back as lsprotocol objects. Raises
        :class:`LspRequestTimeout` (after ``$/cancelRequest``), :class:`LspServerExited`,
        or :class:`LspResponseError`. Cancelling the awaiting task also cancels at the server.
        """
        exit_future = self._require_running()
        msg_id = f"codenav-{next(self._ids)}"
        future = self._lc.protocol.send_request_async(method, params, msg_id=msg_id)
        try:
            done, _ = await asyncio.wait({future, exit_future}, timeout=timeout,
                                         return_when=asyncio.FIRST_COMPLETED)
        finally:
            if not future.done():  # timed out, server gone, or the caller gave up
                self._forget(msg_id)
                future.cancel()
                if self.running:
                    self._lc.protocol.notify(T.CANCEL_REQUEST, T.CancelParams(id=msg_id))
        if future in done:
            try:
                return future.result()
            except JsonRpcException as exc:
                raise LspResponseError(method, exc.code, exc.message, exc.data) from exc
            except RuntimeError as exc:  # pygls: "Server process N exited ..."
                if self.running:
                    raise
                raise self._exited_error() from exc
        if exit_future in done:
            raise self._exited_error()
        raise LspRequestTimeout(method, timeout)

    async def wait_exit(self) -> int | None:
        """Wait until the server process has exited (for whatever reason); its exit code."""
        if self._exit_future is None:
            return None
        return await asyncio.shield(self._exit_future)

    def notify(self, method: str, params: Any) -> None:
        """Send a notification (fire and forget)."""
        self._require_running()
        self._lc.protocol.notify(method, params)

    def on_notification(self, method: str, listener: NotificationListener) -> Callable[[], None]:
        """Call ``listener(method, params)`` for each ``method`` notification from the server.

        Returns a function that removes the listener. Listeners run on the event loop and
        must not block; an exception in one is logged and ignored.
        """
        self._ensure_handler(method)
        listeners = self._listeners.setdefault(method, [])
        listeners.append(listener)
        return lambda: listeners.remove(listener) if listener in listeners else None

    # -- documents --------------------------------------------------------------------------

    def uri_for(self, path: Path | str) -> str:
        """The ``file://`` URI of ``path`` (absolute, or relative to the root)."""
        p = Path(path)
        if not p.is_absolute():
            if self._root is None:
                raise RuntimeError("relative path before start()")
            p = self._root / p
        return p.resolve().as_uri()

    @staticmethod
    def path_for(uri: str) -> Path:
        """The filesystem path of a ``file://`` URI."""
        parsed = urlparse(uri)
        if parsed.scheme != "file":
            raise ValueError(f"not a file URI: {uri}")
        return Path(url2pathname(parsed.path))

    def relpath(self, uri: str) -> str | None:
        """``uri`` as a root-relative path with ``/`` separators; ``None`` when outside."""
        if self._root is None:
            return None
        try:
            return self.path_for(uri).relative_to(self._root).as_posix()
        except ValueError:
            return None

    def open_document(self, path: Path | str, text: str, language_id: str) -> int:
        """``didOpen`` at version 1; an already open document gets ``change_document``."""
        uri = self.uri_for(path)
        if uri in self._docs:
            return self.change_document(path, text)
        self.notify(T.TEXT_DOCUMENT_DID_OPEN, T.DidOpenTextDocumentParams(
            text_document=T.TextDocumentItem(uri=uri, language_id=language_id, version=1,
                                             text=text)))
        self._docs[uri] = _OpenDocument(language_id, 1, text)
        return 1

    def change_document(self, path: Path | str, text: str) -> int:
        """Full-text ``didChange`` with the next version (nothing is sent if the text is equal)."""
        uri = self.uri_for(path)
        doc = self._docs.get(uri)
        if doc is None:
            raise ValueError(f"{path} is not open")
        if text == doc.text:
            return doc.version
        version = doc.version + 1
        self.notify(T.TEXT_DOCUMENT_DID_CHANGE, T.DidChangeTextDocumentParams(
            text_document=T.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[T.TextDocumentContentChangeWholeDocument(text=text)]))
        doc.version, doc.text = version, text
        return version

    def close_document(self, path: Path | str) -> None:
        """``didClose``; a document that is not open is ignored."""
        uri = self.uri_for(path)
        if self._docs.pop(uri, None) is not None and self.running:
            self.notify(T.TEXT_DOCUMENT_DID_CLOSE, T.DidCloseTextDocumentParams(
                text_document=T.TextDocumentIdentifier(uri=uri)))

    def is_open(self, path: Path | str) -> bool:
        return self.uri_for(path) in self._docs

    def document_version(self, path: Path | str) -> int | None:
        doc = self._docs.get(self.uri_for(path))
        return doc.version if doc is not None else None

    @property
    def open_documents(self) -> dict[str, int]:
        """URI → version of every open document."""
        return {uri: doc.version for uri, doc in self._docs.items()}

    # -- diagnostics ------------------------------------------------------------------------

    def diagnostics(self, path: Path | str) -> list[T.Diagnostic] | None:
        """The latest diagnostics published for ``path``; ``None`` if none were published."""
        published = self._diagnostics.get(self.uri_for(path))
        return list(published.diagnostics) if published is not None else None

    @property
    def all_diagnostics(self) -> dict[str, list[T.Diagnostic]]:
        return {uri: list(p.diagnostics) for uri, p in self._diagnostics.items()}

    async def wait_for_diagnostics(self, path: Path | str, timeout: float, *,
                                   min_version: int | None = None) -> list[T.Diagnostic]:
        """Wait until diagnostics for ``path`` are published (for ``min_version`` or later,
        when the server reports versions). Raises ``LspRequestTimeout`` or ``LspServerExited``.
        """
        uri = self.uri_for(path)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            published = self._diagnostics.get(uri)
            if published is not None and (min_version is None or published.version is None
                                          or published.version >= min_version):
                return list(published.diagnostics)
            exit_future = self._require_running()
            changed = self._diagnostics_changed
            waiter: asyncio.Future[Any] = asyncio.ensure_future(changed.wait())
            try:
                await asyncio.wait({waiter, exit_future}, timeout=deadline - loop.time(),
                                   return_when=asyncio.FIRST_COMPLETED)
            finally:
                waiter.cancel()
            if not changed.is_set():
                if exit_future.done():
                    raise self._exited_error()
                raise LspRequestTimeout(T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, timeout)

    # -- internals --------------------------------------------------------------------------

    def _register_handlers(self) -> None:
        def answer(method: str, value: Callable[[Any], Any]) -> None:
            def handler(params: Any) -> Any:
                return value(params)
            self._lc.feature(method)(handler)

        answer(T.WORKSPACE_CONFIGURATION, self._configuration)
        answer(T.WORKSPACE_WORKSPACE_FOLDERS, lambda _: (
            [T.WorkspaceFolder(uri=self._root.as_uri(), name=self._root.name)]
            if self._root is not None else None))
        answer(T.WORKSPACE_APPLY_EDIT, lambda _: T.ApplyWorkspaceEditResult(
            applied=False, failure_reason="codenav is read-only"))
        for method in (T.WINDOW_WORK_DONE_PROGRESS_CREATE, T.CLIENT_REGISTER_CAPABILITY,
                       T.CLIENT_UNREGISTER_CAPABILITY, T.WINDOW_SHOW_MESSAGE_REQUEST,
                       T.WINDOW_SHOW_DOCUMENT, T.WORKSPACE_SEMANTIC_TOKENS_REFRESH,
                       T.WORKSPACE_INLAY_HINT_REFRESH, T.WORKSPACE_INLINE_VALUE_REFRESH,
                       T.WORKSPACE_CODE_LENS_REFRESH, T.WORKSPACE_DIAGNOSTIC_REFRESH,
                       T.WORKSPACE_FOLDING_RANGE_REFRESH):
            answer(method, lambda _: None)
        for method in (T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, T.WINDOW_LOG_MESSAGE,
                       T.WINDOW_SHOW_MESSAGE, T.PROGRESS, T.TELEMETRY_EVENT, T.LOG_TRACE,
                       "pyright/beginProgress", "pyright/reportProgress",
                       "pyright/endProgress"):
            self._ensure_handler(method)

    def _ensure_handler(self, method: str) -> None:
        if method in self._lc.protocol.fm.features:
            return

        def handler(params: Any) -> None:
            self._dispatch(method, params)

        self._lc.feature(method)(handler)

    def _dispatch(self, method: str, params: Any) -> None:
        if method == T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS and isinstance(
                params, T.PublishDiagnosticsParams):
            self._diagnostics[params.uri] = params
            changed, self._diagnostics_changed = self._diagnostics_changed, asyncio.Event()
            changed.set()
        for listener in list(self._listeners.get(method, ())):
            try:
                listener(method, params)
            except Exception:
                log.exception("listener for %s failed", method)

    def _configuration(self, params: Any) -> list[Any]:
        items = getattr(params, "items", None) or []
        return [_lookup_setting(self._settings, getattr(item, "section", None))
                for item in items]

    def _require_running(self) -> asyncio.Future[int]:
        if self._proc is None or self._exit_future is None:
            raise RuntimeError("the language server was not started")
        if self._exit_future.done() or self._proc.returncode is not None:
            raise self._exited_error()
        return self._exit_future

    def _exited_error(self) -> LspServerExited:
        return LspServerExited(self.exit_code, self.stderr_tail, self.refused)

    def _forget(self, msg_id: str) -> None:
        """Drop a pending request so that a late answer is ignored (pygls logs a warning)."""
        self._lc.protocol._request_futures.pop(msg_id, None)
        self._lc.protocol._result_types.pop(msg_id, None)

    async def _drain(self, stream: asyncio.StreamReader) -> None:
        while chunk := await stream.read(65536):
            self._stderr += chunk
            if len(self._stderr) > STDERR_TAIL_BYTES:
                del self._stderr[:-STDERR_TAIL_BYTES]

    async def _watch_exit(self, proc: asyncio.subprocess.Process) -> None:
        while proc.returncode is None:
            await asyncio.sleep(_EXIT_POLL)
        log.info("language server %s exited with %s", proc.pid, proc.returncode)
        self._signal_group(signal.SIGKILL)  # nothing the server started outlives it
        if self._drain_task is not None:
            await asyncio.wait({self._drain_task}, timeout=_STDERR_SETTLE)
        if self._exit_future is not None and not self._exit_future.done():
            self._exit_future.set_result(proc.returncode)

    def _close_stdin(self) -> None:
        if self._proc is not None and self._proc.stdin is not None:
            self._proc.stdin.close()

    async def _wait_exit(self, timeout: float) -> None:
        if self._exit_future is not None and not self._exit_future.done():
            await asyncio.wait({self._exit_future}, timeout=max(timeout, 0.0))

    def _signal_group(self, sig: int) -> None:
        if self._proc is None:
            return
        try:
            if sys.platform == "win32":
                self._proc.kill()
            else:
                os.killpg(self._proc.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass

    async def _kill_and_reap(self) -> None:
        """SIGKILL the group, wait for the exit to be seen, and release every pipe and task."""
        self._closed = True
        proc = self._proc
        if proc is None:
            return
        if proc.returncode is None:
            self._signal_group(signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            if proc.returncode is None:
                proc.kill()  # the leader left its group (it called setsid itself)
        if self._watch_task is not None:  # the child watcher sees a SIGKILLed child at once
            await asyncio.wait({self._watch_task}, timeout=5.0)
        self._signal_group(signal.SIGKILL)
        tasks = [t for t in (*self._lc._async_tasks, self._drain_task, self._watch_task)
                 if t is not None]
        if tasks:
            _, pending = await asyncio.wait(tasks, timeout=1.0)
            # pipes still held by a process that escaped the group: stop reading them
            transport = getattr(proc, "_transport", None)
            if transport is not None:
                transport.close()
            for task in pending:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        if self._reaper is not None:  # the group is gone: nothing left for it to kill
            self._reaper.release()
        self._lc._stop_event.set()
