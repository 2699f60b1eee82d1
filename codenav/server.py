"""The MCP server over stdio: the only module that imports ``mcp``.

Tools come from the registry; each call goes through ``tools.dispatch.call_tool`` and its
envelope is returned as ``structuredContent`` plus one compact JSON text block, with ``isError``
mirroring ``ok`` (docs/contract.md §3). Nothing but protocol reaches stdout: while serving,
``mcp``'s stdio transport points fd 1 at stderr (so children and stray prints cannot corrupt the
stream) and ``sys.stdout`` is pointed at stderr as well, so buffered prints cannot surface at
exit either. stdin is read through ``CappedLines``: a line over ``MAX_LINE`` characters is
dropped in pieces and answered -32700, never held whole.
"""

from __future__ import annotations

import io
import json
import logging
import os
import re
import signal
import sys
import threading
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import IO, Any, BinaryIO, cast

import anyio
from mcp import types
from mcp.server import Server, ServerRequestContext
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

from codenav import __version__, warm
from codenav.envelope import clamp_budget, default_budget, failure, to_json
from codenav.errors import CodenavError, MapNotBuilt
from codenav.roots import paths_of_uris
from codenav.tools.dispatch import call_tool
from codenav.tools.registry import TOOLS, by_name, input_schema
from codenav.tools.render import SERVER_INSTRUCTIONS
from codenav.workspace import Workspace

__all__ = ["INSTRUCTIONS", "MAX_LINE", "CappedLines", "build_server", "protocol_error",
           "serve_stdio"]

# A workspace made once the client has said its roots (no ROOT on the command line).
MakeWorkspace = Callable[[Sequence[Path]], Workspace]
_ROOTS_WAIT_S = 3.0  # how long the client may take to answer roots/list
_CLOSE_GRACE_S = 1.5  # language servers' polite exit at the end; the process ends by 3 s

log = logging.getLogger("codenav.server")

# The longest protocol line read (characters): a request to codenav is a few KB; a longer
# line is read on and thrown away in pieces, never held whole, and answered -32700.
MAX_LINE = 8 * 1024 * 1024
_OVERSIZED = "\x00codenav: oversized line\x00"
# A request whose id is not a string or an integer (null, true, 1.5, {}): the SDK reads it as
# a notification and answers nothing, and a client waiting on it would hang.
_BAD_ID = "\x00codenav: request id not a string or integer\x00"
_HEAD = 4096  # characters of a dropped line kept to find its id
_ID = re.compile(r'^\s*\{.*?"id"\s*:\s*(-?\d{1,18}(?![\d.eE])|"(?:[^"\\]|\\.){0,256}")', re.S)

INSTRUCTIONS = SERVER_INSTRUCTIONS  # the renderer's words (tools/render.py)


# Every result is the envelope (its shape is in the instructions, said once): the schema
# says only that much, so that clients know to read ``structuredContent``.
ENVELOPE_SCHEMA: dict[str, Any] = {"type": "object", "required": ["ok"]}


def _tool(spec: Any) -> types.Tool:
    # Hints that only matter for a tool that writes are left out of read-only tools.
    hints = (types.ToolAnnotations(read_only_hint=True, open_world_hint=False) if spec.read_only
             else types.ToolAnnotations(read_only_hint=False, destructive_hint=False,
                                        idempotent_hint=True, open_world_hint=False))
    return types.Tool(name=spec.name, description=spec.description,
                      input_schema=input_schema(spec), output_schema=ENVELOPE_SCHEMA,
                      annotations=hints)


def _result(envelope: dict[str, Any]) -> types.CallToolResult:
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=to_json(envelope))],
        structured_content=envelope,
        is_error=not envelope["ok"],
    )


class _Session:
    """The workspace one MCP session answers from: the one named on the command line, or
    one made once the client has said its roots (``roots/list``). The watcher starts once
    the client is initialized — after ``initialize`` was answered: setting the OS watch up
    takes seconds on a large tree (and holds the GIL)."""

    def __init__(self, ws: Workspace | None, make: MakeWorkspace | None) -> None:
        self.ws = ws
        self.error: CodenavError | None = None
        self._make = make
        self._started = False
        self._ready: anyio.Event | None = None
        self._warm: threading.Event | None = None  # serving shell calls (codenav/warm.py)

    def start_now(self) -> None:
        """Before serving, with a named root: the first map (unless the command line
        started it) and the language servers; no watcher yet."""
        ws = self.ws
        if ws is None or ws.build.running:  # started already: servers follow the build
            return
        if ws.lsp != "off" and self._warm is None:  # shell calls share this session's servers
            self._warm = warm.serve_in_thread(ws)
        if ws.start_background_build(on_done=ws.start_servers):
            log.info("no usable map at %s: building it in the background", ws.db_path)
        else:
            ws.start_servers()  # language servers warm up while the agent reads the map

    async def begin(self, ctx: ServerRequestContext[dict[str, Any]]) -> None:
        """Once per session, at ``notifications/initialized`` (or at the first request of
        a client that sends none): choose the root if it is the client's to say, start what
        a workspace runs, then the watcher."""
        if self._started:
            return
        self._started = True
        ready = self._ready_event()
        try:
            if self.ws is None and self._make is not None:
                roots = await self._client_roots(ctx)
                make = self._make
                try:
                    self.ws = await anyio.to_thread.run_sync(lambda: make(roots))
                except CodenavError as exc:  # a root codenav refuses: every call says so
                    log.warning("%s %s", exc.message, exc.hint)
                    self.error = exc
                    return
                log.info("root %s (%s)", self.ws.root, self.ws.root_from)
                self.start_now()
            ws = self.ws
            if ws is not None and ws.watch:
                await anyio.to_thread.run_sync(lambda: ws.start_watcher(wait=False))
        finally:
            ready.set()

    def _ready_event(self) -> anyio.Event:
        if self._ready is None:
            self._ready = anyio.Event()
        return self._ready

    @staticmethod
    async def _client_roots(ctx: ServerRequestContext[dict[str, Any]]) -> list[Path]:
        """The client's roots that are local folders, when it has the capability (a client
        that does not answer in time has none)."""
        capabilities = ctx.session.client_capabilities
        if capabilities is None or capabilities.roots is None:
            return []
        try:
            with anyio.fail_after(_ROOTS_WAIT_S):
                listed = await ctx.session.send_request(
                    types.ListRootsRequest(), types.ListRootsResult,
                    request_read_timeout_seconds=_ROOTS_WAIT_S)
        except Exception as exc:  # noqa: BLE001 - any failure means: no roots from the client
            log.info("the client's roots/list failed (%s): choosing the root without it", exc)
            return []
        return paths_of_uris([str(root.uri) for root in listed.roots])

    async def workspace(self, ctx: ServerRequestContext[dict[str, Any]]) -> Workspace:
        """The session's workspace, once known; MAP_NOT_BUILT (RootRefused) when codenav
        refused the root."""
        if self.ws is not None and self._started:
            return self.ws
        if not self._started:
            await self.begin(ctx)
        with anyio.move_on_after(_ROOTS_WAIT_S + 5):
            await self._ready_event().wait()
        if self.ws is not None:
            return self.ws
        raise self.error or MapNotBuilt("the root is not chosen yet: the client's roots "
                                        "have not arrived", hint="Retry in a moment.")

    def close(self) -> None:
        if self._warm is not None:
            self._warm.set()
        if self.ws is not None:
            self.ws.close(grace=_CLOSE_GRACE_S)


def build_server(ws: Workspace | None = None, *,
                 make: MakeWorkspace | None = None) -> Server[dict[str, Any]]:
    """The MCP server for ``ws`` — or, without one, for the workspace ``make`` gives once
    the client has said its roots: its tools, instructions and lifespan."""
    session = _Session(ws, make)

    @asynccontextmanager
    async def lifespan(_: Server[dict[str, Any]]) -> AsyncIterator[dict[str, Any]]:
        session.start_now()
        try:
            yield {}
        finally:
            session.close()

    async def initialized(ctx: ServerRequestContext[dict[str, Any]],
                          params: types.NotificationParams) -> None:
        await session.begin(ctx)

    async def list_tools(ctx: ServerRequestContext[dict[str, Any]],
                         params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[_tool(spec) for spec in TOOLS])

    async def on_call(ctx: ServerRequestContext[dict[str, Any]],
                      params: types.CallToolRequestParams) -> types.CallToolResult:
        if by_name(params.name) is None:  # not a tool of this server: a protocol error
            known = ", ".join(t.name for t in TOOLS)
            raise MCPError(code=types.INVALID_PARAMS,
                           message=f"Unknown tool: {params.name[:80]!r}; the tools are: {known}")

        async def progress(done: float, total: float | None, message: str | None) -> None:
            await ctx.session.report_progress(done, total, message)

        try:
            current = await session.workspace(ctx)
        except CodenavError as exc:
            return _result(default_budget(failure(exc, clamp_budget(None)[0])))
        envelope = await call_tool(current, params.name, params.arguments, progress)
        return _result(envelope)

    server = Server("codenav", version=__version__, instructions=INSTRUCTIONS,
                    lifespan=lifespan, on_list_tools=list_tools, on_call_tool=on_call)
    server.add_notification_handler("notifications/initialized", types.NotificationParams,
                                    initialized)
    return server


class CappedLines:
    """The lines of a binary stream as text, none longer than ``limit`` characters: the rest
    of a longer line is read in pieces and dropped, and the line becomes a marker that
    ``protocol_error`` answers with -32700. (The SDK's transport reads whole lines: one
    endless line from a client would otherwise take all memory.)"""

    def __init__(self, raw: BinaryIO, limit: int = MAX_LINE) -> None:
        self._text = io.TextIOWrapper(raw, encoding="utf-8", errors="replace")
        self._limit = limit

    def readline(self) -> str:
        line = self._text.readline(self._limit + 1)
        if len(line) <= self._limit or line.endswith("\n"):
            return _BAD_ID + "\n" if _bad_id(line) else line
        while True:
            rest = self._text.readline(1 << 20)
            if not rest or rest.endswith("\n"):  # its head is kept: where an id would be
                return f"{_OVERSIZED}{line[:_HEAD].replace(chr(10), ' ')}\n"


def _claim_stdin() -> anyio.AsyncFile[str]:
    """stdin for the transport, capped (``CappedLines``) and read through a private
    duplicate of fd 0, which is pointed at the null device so that nothing else in the
    process (a child inheriting it) can take protocol bytes — what the SDK does for the
    stdin it opens itself."""
    try:
        import fcntl
        private = fcntl.fcntl(0, fcntl.F_DUPFD_CLOEXEC, 3)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
        raw: BinaryIO = os.fdopen(private, "rb", closefd=False)
    except (ImportError, OSError):  # no fcntl or no fd 0 to duplicate: read it in place
        raw = sys.stdin.buffer
    return anyio.wrap_file(cast(IO[str], CappedLines(raw)))


def serve_stdio(ws: Workspace | None = None, *, make: MakeWorkspace | None = None) -> None:
    """Serve MCP on stdin/stdout until the client closes stdin (``make``: the workspace is
    made once the client has said its roots)."""
    server = build_server(ws, make=make)

    async def main() -> None:
        async with stdio_server(stdin=_claim_stdin()) as (read_stream, write_stream):
            # After the transport claimed fd 1: a buffered print must never reach it.
            sys.stdout = sys.stderr
            # The SDK drops a line that is not a valid message without a word; a client
            # waiting on that id would hang. Answer it here (JSON-RPC 2.0 §5.1), pass the rest.
            send, receive = anyio.create_memory_object_stream[SessionMessage | Exception](0)

            async def screen() -> None:
                async with send:
                    async for item in read_stream:
                        if isinstance(item, SessionMessage):
                            await send.send(item)
                            continue
                        reply = protocol_error(item)
                        if reply is not None:
                            await write_stream.send(SessionMessage(reply))

            async with anyio.create_task_group() as tasks:
                tasks.start_soon(screen)
                await server.run(receive, write_stream, server.create_initialization_options())
                tasks.cancel_scope.cancel()

    # SIGTERM and SIGINT end the process through SystemExit, so that the lifespan closes
    # the language servers (they would die with codenav anyway: PDEATHSIG, closed stdin).
    signal.signal(signal.SIGTERM, _exit_on_signal)
    signal.signal(signal.SIGINT, _exit_on_signal)
    try:
        anyio.run(main)
    except SystemExit as exc:
        # The lifespan has closed the workspace by now. The transport reads stdin in a
        # worker thread still blocked in read(), and interpreter exit would wait for it until
        # the client closed stdin (SIGTERM then hung for good): leave without waiting.
        _leave(exc.code if isinstance(exc.code, int) else 1)
    # stdin closed and the lifespan closed the workspace (servers stopped, WAL folded in).
    # Threads still busy (a watch being set up, a run in the background) would hold the
    # interpreter's exit: leave now, so that the process ends within 3 s of stdin closing.
    _leave(0)


def _leave(code: int) -> None:
    logging.shutdown()
    sys.stderr.flush()
    os._exit(code)


def protocol_error(exc: Exception) -> types.JSONRPCError | None:
    """The JSON-RPC error for a line that is not a valid message; None for a blank line.

    Not JSON: -32700 with a null id. JSON but not a valid message (no method, params not an
    object, not an object at all): -32600, with the line's id when it has a usable one.
    """
    problems = exc.errors() if isinstance(exc, ValidationError) else []
    if problems and problems[0]["type"] == "json_invalid":
        raw = problems[0].get("input")
        if isinstance(raw, (str, bytes)) and not raw.strip():
            return None
        text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw)
        if text.startswith(_BAD_ID):
            return _rpc_error(None, types.INVALID_REQUEST, "Invalid Request: a request's id "
                              "must be a string or an integer")
        if text.startswith(_OVERSIZED):
            return _rpc_error(_id_in(text[len(_OVERSIZED):]), types.PARSE_ERROR,
                              f"Parse error: the line is longer than {MAX_LINE:,} characters "
                              "and was dropped")
        lenient = _lenient_json(text)
        if isinstance(lenient, dict):  # JSON after all (a NUL, a lone surrogate in a string)
            return _rpc_error(_usable_id(lenient.get("id")), types.INVALID_REQUEST,
                              "Invalid Request: the message holds characters JSON-RPC text "
                              "cannot (a NUL, a lone surrogate)")
        return _rpc_error(None, types.PARSE_ERROR, "Parse error: the line is not JSON")
    ident: int | str | None = None
    for problem in problems:
        value = problem.get("input")
        if isinstance(value, dict):
            candidate = value.get("id")
            if isinstance(candidate, (int, str)) and not isinstance(candidate, bool):
                ident = candidate
            break
    return _rpc_error(ident, types.INVALID_REQUEST,
                      "Invalid Request: expected a JSON-RPC 2.0 request or notification object")


def _lenient_json(text: str) -> Any:
    """``text`` parsed the way Python's json reads it (control characters in strings and lone
    surrogates allowed), or None (also when it nests deeper than the parser can follow)."""
    try:
        return json.loads(text, strict=False)
    except (ValueError, RecursionError):
        return None


def _bad_id(line: str) -> bool:
    """Whether ``line`` is a request (it has a method) whose id is there but is neither a
    string nor an integer (JSON-RPC 2.0 §4; MCP: never null)."""
    if '"id"' not in line or '"method"' not in line:
        return False
    message = _lenient_json(line)
    if not isinstance(message, dict) or "method" not in message or "id" not in message:
        return False
    ident = message["id"]
    return isinstance(ident, bool) or not isinstance(ident, (int, str))


def _usable_id(value: Any) -> int | str | None:
    if isinstance(value, (int, str)) and not isinstance(value, bool):
        return value
    return None


def _id_in(head: str) -> int | str | None:
    """The id of a request from the start of its (dropped) line, when it is there."""
    found = _ID.match(head)
    if found is None:
        return None
    value = _lenient_json(found.group(1))
    return _usable_id(value)


def _rpc_error(ident: int | str | None, code: int, message: str) -> types.JSONRPCError:
    return types.JSONRPCError(jsonrpc="2.0", id=ident,
                              error=types.ErrorData(code=code, message=message))


def _exit_on_signal(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)
