"""The language-server pool: one server per language family of one root, started in the
background, shared by every request, restarted after a crash and disabled after a crash loop.

The pool runs its own event loop in a daemon thread. Servers are spawned from that thread,
which lives as long as the process, so ``PR_SET_PDEATHSIG`` (``lsp/client.py``) ties them to
codenav's life, not to a short-lived worker's. Callers on any loop or thread use
:meth:`LspPool.run` (async) or :meth:`LspPool.run_sync`.

States of a family (``map_status`` shows them): ``idle`` (not asked for yet), ``starting``,
``warming`` (initialized, still loading the workspace: its cross-file answers would be
partial), ``ready``, ``not_installed``, ``disabled`` (by configuration), ``untrusted`` (its
server runs the project's own code, and the project is not trusted), ``failed`` (crashed 3
times within 3 minutes; stays off, its stderr tail kept). A server is ready when it says so
(``ready_log`` / ``ready_progress`` in servers.toml), after its first answer when it has no
such signal, or after ``WARM_LIMIT`` seconds at most.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import contextlib
import json
import logging
import os
import re
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from lsprotocol import types as T

from codenav.config import Trust
from codenav.errors import LspFailed, LspTimeout, LspUnavailable
from codenav.files import read_source
from codenav.index.discover import MAX_FILE_BYTES
from codenav.lsp.client import (
    LspClient,
    LspRequestTimeout,
    LspResponseError,
    LspServerExited,
)
from codenav.lsp.compile_db import PLACEHOLDER, stage
from codenav.lsp.servers import (
    Family,
    NotRestrictable,
    ServerSpec,
    families,
    family_of,
    find_command,
    language_id,
    restricted,
    withheld,
)
from codenav.positions import BOM

__all__ = ["DEADLINE", "LONG_DEADLINE", "LspPool", "SlotStatus", "server_settings"]

log = logging.getLogger("codenav.lsp")

DEADLINE = 15.0  # seconds, docs/contract.md §5
LONG_DEADLINE = 30.0  # references, hierarchies, rename
CRASH_LIMIT = 3
CRASH_WINDOW = 180.0
START_TIMEOUT = 60.0  # spawn + initialize
PROJECT_GRACE = 2.0  # seconds without a project loading before a server of many is ready
WARM_LIMIT = 120.0  # a server that never signals it is loaded counts as loaded after this
MAX_OPEN_DOCUMENTS = 64
METHOD_NOT_FOUND = -32601
_STDERR_SHOWN = 2000

R = TypeVar("R")


@dataclass(slots=True)
class SlotStatus:
    family: str
    languages: tuple[str, ...]
    server: str | None
    state: str
    restarts: int
    pid: int | None
    error: str | None
    stderr_tail: str
    install: str | None
    withheld: str | None  # what an untrusted project's server is not given (servers.toml)


@dataclass(slots=True)
class _Slot:
    family: Family
    state: str = "idle"
    spec: ServerSpec | None = None
    argv: list[str] | None = None
    client: LspClient | None = None
    starting: asyncio.Task[None] | None = None
    restarts: int = 0
    crashes: deque[float] = field(default_factory=deque)
    error: str | None = None
    stderr_tail: str = ""
    documents: OrderedDict[str, tuple[int, int]] = field(default_factory=OrderedDict)
    closing: bool = False
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    loading_tokens: set[str] = field(default_factory=set)
    # (language code, file) opened to start loading: the central file, then one of each
    # other project (``ServerSpec.project_files``)
    warm_paths: list[tuple[str, str]] = field(default_factory=list)

    @property
    def name(self) -> str:
        """The server's name in messages."""
        return self.spec.name if self.spec is not None else "the server"


class LspPool:
    """Language servers for one root. Thread-safe entry points: ``ensure``, ``state``,
    ``status``, ``run``/``run_sync`` and ``close``."""

    def __init__(self, root: Path, *, table: dict[str, Family] | None = None,
                 start_timeout: float = START_TIMEOUT, deadline: float = DEADLINE,
                 long_deadline: float = LONG_DEADLINE,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.root = root
        self.deadline, self.long_deadline = deadline, long_deadline
        self._table = table if table is not None else families(root)
        self._slots = {name: _Slot(family) for name, family in self._table.items()}
        self._start_timeout = start_timeout
        self._clock = clock
        # pygls warns about every notification it has no handler for ($/typescriptVersion …)
        logging.getLogger("pygls.protocol.json_rpc").setLevel(logging.ERROR)
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="codenav-lsp",
                                        daemon=True)
        self._thread.start()
        self._closed = False
        atexit.register(self.close)  # no server outlives an interpreter that forgot close()

    # ------------------------------------------------------------ any thread

    def family(self, code: str) -> Family | None:
        return family_of(code, self._table)

    def _slot(self, code: str) -> _Slot | None:
        family = self.family(code)
        return self._slots[family.name] if family is not None else None

    def _known_slot(self, code: str) -> _Slot:
        slot = self._slot(code)
        if slot is None:
            raise LspUnavailable(f"no language server is known for language {code!r}",
                                 language=code)
        return slot

    def state(self, code: str) -> str:
        """The state of the server for map language ``code`` (``none`` if no family)."""
        slot = self._slot(code)
        return slot.state if slot is not None else "none"

    def ensure(self, code: str, path: str | None = None, others: Sequence[str] = ()) -> None:
        """Start the server for ``code`` in the background if it is not running; ``path``
        (a file of that language) is opened once it is up, which makes servers that load
        their project lazily (tsserver) start loading it, and so are ``others`` (one file of
        each other project: ``project_files``)."""
        slot = self._slot(code)
        if slot is not None and not self._closed:
            if path is not None and not slot.warm_paths:
                slot.warm_paths = [(code, one) for one in (path, *others)]
            self._loop.call_soon_threadsafe(self._ensure_started, slot)
            self._loop.call_soon_threadsafe(self._open_warm_paths, slot)

    def project_files(self, code: str) -> tuple[str, ...]:
        """The files that make a project of the server for ``code`` (``ServerSpec``)."""
        slot = self._slot(code)
        if slot is None:
            return ()
        spec = slot.spec or (slot.family.servers[0] if slot.family.servers else None)
        return spec.project_files if spec is not None else ()

    def status(self) -> list[SlotStatus]:
        out = []
        for name, slot in self._slots.items():
            client = slot.client
            tail = client.stderr_tail if client is not None else slot.stderr_tail
            out.append(SlotStatus(
                family=name, languages=slot.family.languages,
                server=slot.spec.name if slot.spec else None, state=slot.state,
                restarts=slot.restarts, pid=client.pid if client is not None else None,
                error=slot.error, stderr_tail=tail[-_STDERR_SHOWN:],
                install=slot.family.install_hint if slot.state == "not_installed" else None,
                withheld=withheld(slot.family, slot.spec)))
        return out

    async def run(self, coro: Coroutine[Any, Any, R]) -> R:
        """Run ``coro`` on the pool's loop and await it from the caller's loop; cancelling
        the caller cancels it there too (and so the request at the server)."""
        future = asyncio.run_coroutine_threadsafe(coro, self._loop)
        try:
            return await asyncio.wrap_future(future)
        except asyncio.CancelledError:
            future.cancel()
            raise

    def submit(self, coro: Coroutine[Any, Any, R]) -> concurrent.futures.Future[R]:
        """Start ``coro`` on the pool's loop; its future, for threads without a loop."""
        return asyncio.run_coroutine_threadsafe(coro, self._loop)

    def run_sync(self, coro: Coroutine[Any, Any, R], timeout: float | None = None) -> R:
        return self.submit(coro).result(timeout)

    def close(self, grace: float = 3.0) -> None:
        """Shut every server down (politely, then by force) and stop the pool's thread."""
        if self._closed:
            return
        self._closed = True
        try:
            self.run_sync(self._close_all(grace), timeout=grace + 10)
        except (concurrent.futures.TimeoutError, RuntimeError):
            log.warning("language servers did not all stop in time")
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=5)
        if not self._thread.is_alive():
            self._loop.close()
        atexit.unregister(self.close)

    # ---------------------------------------------------------- the pool's loop

    async def request(self, code: str, path: str, method: str,
                      params: Callable[[str], Any], *, timeout: float = DEADLINE,
                      wait_start: bool = True, wait_loaded: bool = True) -> Any:
        """Sync document ``path`` (repo-relative) with the server for ``code`` and send one
        request; ``params`` builds the request from the document's URI. ``wait_loaded``
        first waits (within the deadline) for the workspace to be loaded: before that even
        a definition may be unknown to a server that has only read the open file (tsserver).

        Raises LspUnavailable (no server, not installed, disabled, or — with ``wait_start``
        false — still starting), LspFailed (crash loop, server error) or LspTimeout.
        """
        slot = self._known_slot(code)
        deadline = self._loop.time() + timeout
        client = await self._ready_client(slot, code, deadline, wait_start)
        if wait_loaded and slot.state == "warming" and slot.spec is not None and \
                slot.spec.signals_loaded:
            self._sync(slot, client, code, path)  # opening a file starts some servers loading
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(slot.ready.wait(),
                                       max(deadline - self._loop.time() - 1.0, 0.0))
        try:
            uri = self._sync(slot, client, code, path)
            remaining = max(deadline - self._loop.time(), 0.1)
            result = await client.request(method, params(uri), remaining)
        except LspRequestTimeout as exc:
            noise = (f"; it writes non-protocol output on stdout ({client.noise!r}): it may not "
                     "be a language server, or logs to the wrong stream" if client.noise else "")
            raise LspTimeout(f"{slot.name} did not answer "
                             f"{method} within {timeout:.0f} s (request cancelled){noise}",
                             language=code,
                             hint="Retry with source:'map' for the static answer.") from exc
        except LspServerExited as exc:
            what = exc.refused or f"exited (code {exc.exit_code})"
            raise LspFailed(f"{slot.name} {what} during {method}; it is being restarted",
                            language=code, hint="Retry shortly, or pass source:'map'.") from exc
        except LspResponseError as exc:
            if exc.code == METHOD_NOT_FOUND:
                raise LspUnavailable(f"{slot.name} does "
                                     f"not provide {method}", language=code,
                                     hint="Pass source:'map' for the map's answer.") from exc
            for pattern, hint in slot.spec.unavailable if slot.spec is not None else ():
                if re.search(pattern, exc.message):  # it cannot answer for this file
                    raise LspUnavailable(f"{slot.name} cannot answer for {path}: "
                                         f"{exc.message}", language=code, file=path,
                                         hint=hint or None) from exc
            raise LspFailed(f"{slot.name} refused "
                            f"{method}: {exc}", language=code,
                            hint="Pass source:'map' for the static answer.") from exc
        if slot.state == "warming" and slot.spec is not None and \
                not slot.spec.signals_loaded:
            self._loaded(slot)
        return result

    async def diagnostics(self, code: str, path: str, timeout: float) -> Any:
        """The diagnostics the server publishes for ``path`` once it is open and current."""
        slot = self._known_slot(code)
        deadline = self._loop.time() + timeout
        client = await self._ready_client(slot, code, deadline, True)
        self._sync(slot, client, code, path)
        absolute = self.root / path
        version = client.document_version(absolute)
        try:
            found = await client.wait_for_diagnostics(
                absolute, max(deadline - self._loop.time(), 0.1), min_version=version)
        except LspRequestTimeout as exc:
            raise LspTimeout(f"{slot.name} published no "
                             f"diagnostics for {path} within {timeout:.0f} s", language=code,
                             hint="Retry with source:'map' for syntax errors only.") from exc
        except LspServerExited as exc:
            raise LspFailed(f"{slot.name} exited",
                            language=code, hint="Retry shortly, or pass source:'map'.") from exc
        return found

    def supports(self, code: str, capability: str) -> bool | None:
        """Whether the running server advertises ``capability`` (a ServerCapabilities
        field such as ``type_hierarchy_provider``); None when no server is up."""
        slot = self._slot(code)
        client = slot.client if slot is not None else None
        caps = client.capabilities if client is not None else None
        if caps is None:
            return None
        return bool(getattr(caps, capability, None))

    async def _ready_client(self, slot: _Slot, code: str, deadline: float,
                            wait_start: bool) -> LspClient:
        self._ensure_started(slot)
        self._raise_if_off(slot, code)
        if slot.state == "starting":
            if not wait_start or slot.starting is None:
                raise LspUnavailable(f"{slot.name} is "
                                     "starting", language=code, hint="Retry in a few seconds.")
            remaining = deadline - self._loop.time()
            done, _ = await asyncio.wait({slot.starting}, timeout=max(remaining, 0.0))
            if not done:
                raise LspTimeout(f"{slot.name} did not "
                                 "finish starting in time", language=code,
                                 hint="Retry shortly, or pass source:'map'.")
            self._raise_if_off(slot, code)
        if slot.client is None or not slot.client.running:
            raise LspFailed(f"{slot.name} is not running",
                            language=code, hint="Retry shortly, or pass source:'map'.")
        return slot.client

    def _raise_if_off(self, slot: _Slot, code: str) -> None:
        if slot.state == "not_installed":
            raise LspUnavailable(f"no language server for {slot.family.name} is installed",
                                 language=code, hint=slot.family.install_hint)
        if slot.state == "disabled":
            raise LspUnavailable(f"the {slot.family.name} language server is disabled by "
                                 "configuration", language=code,
                                 hint="Remove `enabled = false` from the [lsp] configuration.")
        if slot.state == "untrusted":
            why = slot.family.untrusted or slot.error or "it would run the project's code"
            raise LspUnavailable(f"{why}: it starts only for a trusted project", language=code,
                                 hint=Trust(False, "").allow + ", or pass source:'map'.")
        if slot.state == "failed":
            raise LspFailed(f"{slot.name} crashed "
                            f"{CRASH_LIMIT} times within {CRASH_WINDOW:.0f} s and is disabled: "
                            f"{slot.error or ''}".strip(), language=code,
                            hint="See map_status for its stderr; restart codenav to retry.")

    def _ensure_started(self, slot: _Slot) -> None:
        if self._closed or slot.state not in ("idle",):
            return
        if not slot.family.enabled:
            slot.state = "disabled"
            return
        if slot.family.untrusted:
            slot.state, slot.error = "untrusted", slot.family.untrusted
            return
        for spec in slot.family.servers:
            argv = find_command(spec.command)
            if argv is not None:
                if any(PLACEHOLDER in arg for arg in argv):
                    try:
                        staged = str(stage(self.root, slot.family.languages))
                    except OSError as exc:
                        slot.state, slot.error = "failed", f"no compile database: {exc}"
                        return
                    argv = [arg.replace(PLACEHOLDER, staged) for arg in argv]
                slot.spec, slot.argv = spec, argv
                break
        else:
            slot.state = "not_installed"
            slot.spec = slot.family.servers[0] if slot.family.servers else None
            return
        if not slot.family.trusted:  # nothing executable from the repository
            try:
                slot.spec = restricted(spec, argv, self.root)
            except NotRestrictable as exc:
                slot.state, slot.error = "untrusted", str(exc)
                return
        self._start(slot)

    def _start(self, slot: _Slot) -> None:
        slot.state = "starting"
        slot.starting = self._loop.create_task(self._spawn(slot))

    async def _spawn(self, slot: _Slot) -> None:
        assert slot.spec is not None and slot.argv is not None
        client = LspClient("codenav", "0.1")
        try:
            await client.start(slot.argv, self.root, init_timeout=self._start_timeout,
                               initialization_options=slot.spec.initialization_options,
                               settings=server_settings(slot.spec, self.root),
                               env={**os.environ, **slot.spec.env} if slot.spec.env else None)
        except FileNotFoundError:
            slot.state, slot.error = "not_installed", f"{slot.argv[0]} not found"
            return
        except (LspRequestTimeout, LspServerExited, LspResponseError, OSError,
                RuntimeError) as exc:  # a failed handshake counts as a crash
            slot.stderr_tail = client.stderr_tail
            await client.close(grace=1.0)
            self._crashed(slot, f"failed to start: {exc}")
            return
        if self._closed:
            await client.close()
            return
        slot.client, slot.documents = client, OrderedDict()
        slot.state, slot.error = "warming", None
        slot.ready = asyncio.Event()
        slot.loading_tokens = set()
        self._listen_for_loaded(slot, client)
        self._loop.create_task(self._watch(slot, client))
        self._loop.call_later(WARM_LIMIT, self._loaded_anyway, slot, client)
        self._open_warm_paths(slot)

    def _open_warm_paths(self, slot: _Slot) -> None:
        """Open the slot's warm-up files in a server still loading with nothing open yet."""
        client = slot.client
        if client is None or slot.state != "warming" or not slot.warm_paths or \
                slot.documents:
            return
        for code, path in slot.warm_paths:
            with contextlib.suppress(Exception):
                self._sync(slot, client, code, path)

    def _listen_for_loaded(self, slot: _Slot, client: LspClient) -> None:
        spec = slot.spec
        if spec is None:
            return
        if spec.ready_log:
            pattern = re.compile(spec.ready_log)

            def on_log(_method: str, params: Any) -> None:
                if pattern.search(str(_field(params, "message") or "")):
                    self._loaded(slot)
            client.on_notification(T.WINDOW_LOG_MESSAGE, on_log)
        if spec.ready_progress:
            title = spec.ready_progress

            def on_progress(_method: str, params: Any) -> None:
                token, value = _field(params, "token"), _field(params, "value")
                kind = _field(value, "kind")
                if kind == "begin" and str(_field(value, "title") or "").startswith(title):
                    slot.loading_tokens.add(str(token))
                    if slot.state == "ready":  # another project loading (tsserver): until
                        slot.state = "warming"  # it is, answers would leave its files out
                        slot.ready.clear()
                        self._loop.call_later(WARM_LIMIT, self._loaded_anyway, slot, client)
                elif kind == "end" and str(token) in slot.loading_tokens:
                    slot.loading_tokens.discard(str(token))
                    if not slot.loading_tokens and len(slot.warm_paths) > 1:
                        # other projects' files were opened: their loads start a moment
                        # after the first ends; ready once none has begun for a while
                        self._loop.call_later(PROJECT_GRACE, self._settled, slot)
                    elif not slot.loading_tokens:
                        self._loaded(slot)
            client.on_notification(T.PROGRESS, on_progress)

    def _loaded(self, slot: _Slot) -> None:
        if slot.state == "warming":
            slot.state = "ready"
        slot.ready.set()

    def _settled(self, slot: _Slot) -> None:
        if not slot.loading_tokens:
            self._loaded(slot)

    def _loaded_anyway(self, slot: _Slot, client: LspClient) -> None:
        if slot.client is client:
            self._loaded(slot)

    async def _watch(self, slot: _Slot, client: LspClient) -> None:
        code = await client.wait_exit()
        if slot.closing or self._closed or slot.client is not client:
            return
        slot.stderr_tail = client.stderr_tail
        slot.client = None
        await client.close(grace=0.5)  # reap whatever is left of its group
        self._crashed(slot, client.refused or f"exited with code {code}")

    def _crashed(self, slot: _Slot, why: str) -> None:
        now = self._clock()
        slot.crashes.append(now)
        while slot.crashes and now - slot.crashes[0] > CRASH_WINDOW:
            slot.crashes.popleft()
        slot.error = why
        log.warning("%s %s", slot.spec.name if slot.spec else slot.family.name, why)
        if len(slot.crashes) >= CRASH_LIMIT:
            slot.state = "failed"
            return
        slot.restarts += 1
        self._start(slot)

    def _sync(self, slot: _Slot, client: LspClient, code: str, path: str) -> str:
        """Open ``path`` at the server, or send its new text when it changed on disk."""
        absolute = self.root / path
        try:
            stat = absolute.stat()
            signature = (stat.st_mtime_ns, stat.st_size)
        except OSError:
            signature = (0, 0)
        known = slot.documents.get(path)
        if known is None or not client.is_open(absolute):
            text = _read(self.root, path)
            client.open_document(absolute, text, language_id(slot.family, code, path))
            slot.documents[path] = signature
            pinned = {warm for _, warm in slot.warm_paths}  # a project's one open file: closed,
            for oldest in list(slot.documents):  # tsserver drops that project
                if len(slot.documents) <= MAX_OPEN_DOCUMENTS:
                    break
                if oldest in pinned:
                    continue
                del slot.documents[oldest]
                with contextlib.suppress(Exception):
                    client.close_document(self.root / oldest)
        else:
            slot.documents.move_to_end(path)
            if known != signature:
                client.change_document(absolute, _read(self.root, path))
                slot.documents[path] = signature
        return client.uri_for(absolute)

    async def _close_all(self, grace: float) -> None:
        starting = []
        for slot in self._slots.values():
            slot.closing = True
            if slot.starting is not None and not slot.starting.done():
                slot.starting.cancel()  # the half-started server is killed by the start itself
                starting.append(slot.starting)
        if starting:
            await asyncio.wait(starting, timeout=grace)
        clients = [slot.client for slot in self._slots.values() if slot.client is not None]
        await asyncio.gather(*(client.close(grace) for client in clients),
                             return_exceptions=True)


def server_settings(spec: ServerSpec, root: Path) -> dict[str, Any] | None:
    """The server's settings, with ``package_root_setting`` filled in: when the root is itself
    a package (Django's ``django/``), its parent goes on the server's search path, or every
    ``import django.x`` inside it would be unresolved."""
    settings = spec.settings
    if not spec.package_root_setting or not (root / "__init__.py").is_file():
        return settings
    out: dict[str, Any] = json.loads(json.dumps(settings or {}))
    for dotted in spec.package_root_setting.split(","):
        *parents, leaf = dotted.strip().split(".")
        node = out
        for part in parents:
            node = node.setdefault(part, {})
        node[leaf] = [*node.get(leaf, []), str(root.parent)]
    return out


def _field(value: Any, name: str) -> Any:
    """A field of a notification's params, which pygls gives as an object or a dict."""
    if isinstance(value, dict):
        return value.get(name)
    return getattr(value, name, None)


def _read(root: Path, path: str) -> str:
    """A document's text for the server: a regular file inside the root, of mappable size
    (a path from the map is checked like an argument), else empty."""
    data = read_source(root, path, MAX_FILE_BYTES)
    if data is None:
        return ""
    # A byte-order mark is not text (servers strip it from the files they read themselves,
    # and the map's columns do not count it): sent, it would shift line 1 by one column.
    return data[:MAX_FILE_BYTES].removeprefix(BOM).decode("utf-8", "replace")
