"""The warm server a shell's ``codenav call`` asks: one process per workspace that keeps its
language servers running between calls, so that ``source: "auto"`` from a shell is what it is
over MCP.

A one-shot ``codenav call`` cannot wait seconds for a language server to load, and would stop
it again at once. So it first asks the warm server of its workspace (same root, map, trust,
codenav version) over a Unix socket; when none answers, it starts one in the background
(``codenav warm``) and answers this call itself, from the map. A running ``codenav mcp`` or
``codenav lsp`` serves the same socket, so the shell shares the editor's or agent's servers.

The socket lives in an owner-only folder (``$XDG_RUNTIME_DIR/codenav``, else
``/tmp/codenav-<uid>``, mode 0700, refused when another user owns it or it is a link); the
server also checks each caller's uid (``SO_PEERCRED``). One server per workspace: it holds an
exclusive lock beside the socket for its lifetime. A warm server leaves after ``idle``
seconds without a call (10 minutes by default, ``$CODENAV_WARM_IDLE``) or when its root
is gone; its language servers die with it. ``CODENAV_WARM=0`` turns the whole thing off.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import functools
import hashlib
import json
import logging
import os
import socket
import stat
import struct
import subprocess
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from codenav import __version__
from codenav.children import module_command

if TYPE_CHECKING:
    from codenav.workspace import Workspace

__all__ = ["IDLE_S", "ask", "enabled", "idle_seconds", "run", "serve_in_thread",
           "socket_of", "spawn"]

log = logging.getLogger("codenav.warm")

IDLE_S = 600.0  # a warm server with no call for this long leaves
_CONNECT_S = 0.5  # a socket that does not accept this quickly has no server behind it
_ANSWER_S = 90.0  # the longest a call waits for its answer (LSP deadlines are 15 s / 30 s)
_MAX_LINE = 1 << 24  # the largest request or answer line


def enabled() -> bool:
    """Whether shell calls use (and start) warm servers: not with ``CODENAV_WARM=0``."""
    return os.environ.get("CODENAV_WARM", "1").strip().lower() not in ("0", "off", "no",
                                                                       "false")


def idle_seconds() -> float:
    try:
        return max(1.0, float(os.environ.get("CODENAV_WARM_IDLE", IDLE_S)))
    except ValueError:
        return IDLE_S


def _folder() -> Path | None:
    """The owner-only folder of this user's sockets (made when missing), or None when no
    such folder can be had safely."""
    uid = os.getuid()
    runtime = os.environ.get("XDG_RUNTIME_DIR", "")
    base = Path(runtime) / "codenav" if runtime.startswith("/") else \
        Path("/tmp") / f"codenav-{uid}"
    try:
        base.mkdir(mode=0o700, parents=runtime.startswith("/"), exist_ok=True)
        info = os.lstat(base)
    except OSError:
        return None
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != uid or info.st_mode & 0o077:
        log.warning("not using %s for codenav's warm servers: it is not an owner-only folder "
                    "of this user", base)
        return None
    return base


def build_of(package: Path) -> str:
    """The code of ``package`` as installed: codenav's version and the package's modules'
    sizes and times (a reinstall or an edit of the same version is another build, whose calls
    must not be answered by a warm server still running the code it replaced)."""
    stats = []
    for path in sorted(package.rglob("*.py")):
        try:
            info = path.stat()
        except OSError:
            continue
        stats.append(f"{path.relative_to(package)}:{info.st_size}:{info.st_mtime_ns}")
    return hashlib.sha256("\n".join([__version__, *stats]).encode()).hexdigest()[:16]


@functools.cache
def _build() -> str:
    return build_of(Path(__file__).resolve().parent)


def socket_of(ws: Workspace) -> Path | None:
    """Where the warm server of ``ws`` listens: one per root, map, trust and build."""
    folder = _folder()
    if folder is None:
        return None
    identity = json.dumps([_build(), str(ws.root), str(ws.db_path), ws.trust.trusted,
                           bool(ws.trust_map)])
    return folder / (hashlib.sha256(identity.encode()).hexdigest()[:20] + ".sock")


# ------------------------------------------------------------------------------ caller

def ask(path: Path, tool: str, arguments: dict[str, Any]) -> dict[str, Any] | None:
    """The envelope the warm server at ``path`` answers, or None when none answers (no
    server, one that left or broke meanwhile: the caller answers itself)."""
    if not path.exists():
        return None
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(_CONNECT_S)
            sock.connect(str(path))
            sock.settimeout(_ANSWER_S)
            sock.sendall(json.dumps({"tool": tool, "arguments": arguments}).encode() + b"\n")
            sock.shutdown(socket.SHUT_WR)
            data = bytearray()
            while len(data) <= _MAX_LINE:
                chunk = sock.recv(1 << 16)
                if not chunk:
                    break
                data += chunk
        answer = json.loads(data) if data.endswith(b"\n") else None
    except (OSError, ValueError):
        return None
    return answer if isinstance(answer, dict) and "ok" in answer else None


def spawn(argv: Sequence[str]) -> None:
    """Start ``codenav warm`` with ``argv`` in the background, in its own session (it
    outlives this call; it leaves when idle)."""
    try:
        subprocess.Popen(module_command("codenav", "warm", *argv),
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, start_new_session=True, close_fds=True)
    except OSError as exc:
        log.info("could not start a warm server: %s", exc)


# ------------------------------------------------------------------------------ server

class _Server:
    """Answers shell calls for one workspace on one socket."""

    def __init__(self, ws: Workspace, path: Path) -> None:
        self.ws = ws
        self.path = path
        self.last = time.monotonic()
        self.busy = 0

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        from codenav.envelope import to_json
        from codenav.tools.dispatch import call_tool

        self.busy += 1
        try:
            sock = writer.get_extra_info("socket")
            uid = struct.unpack("3i", sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED,
                                                       struct.calcsize("3i")))[1]
            if uid != os.getuid():  # the folder is owner-only; this is the second lock
                return
            line = await reader.readline()
            request = json.loads(line)
            envelope = await call_tool(self.ws, str(request["tool"]),
                                       request.get("arguments", {}))
            writer.write(to_json(envelope).encode() + b"\n")
            await writer.drain()
        except (OSError, ValueError, KeyError, TypeError, asyncio.LimitOverrunError) as exc:
            log.info("a shell call failed: %s", exc)
        finally:
            self.busy -= 1
            self.last = time.monotonic()
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()

    async def serve(self, idle: float | None, stop: threading.Event | None = None) -> None:
        """Accept calls until ``stop`` is set, or (with ``idle``) until no call came for
        that long, or the root is gone."""
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()  # a server that died left it; the lock says none serves now
        server = await asyncio.start_unix_server(self.handle, path=str(self.path),
                                                 limit=_MAX_LINE)
        os.chmod(self.path, 0o600)
        log.info("answering shell calls on %s", self.path)
        try:
            while not (stop is not None and stop.is_set()):
                await asyncio.sleep(0.5)
                if not self.ws.root.is_dir():
                    break
                if idle is not None and not self.busy and \
                        time.monotonic() - self.last > idle:
                    log.info("no call for %.0f s: leaving", idle)
                    break
        finally:
            server.close()
            with contextlib.suppress(FileNotFoundError):
                self.path.unlink()


def _lock(path: Path) -> int | None:
    """Hold the lock of ``path``'s server (a descriptor kept open), or None when another
    process holds it."""
    try:
        fd = os.open(path.with_suffix(".lock"), os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def run(ws: Workspace, idle: float) -> int:
    """``codenav warm``: serve ``ws``'s shell calls until idle; 0, or 1 when another
    process serves them already (or no socket can be had)."""
    path = socket_of(ws)
    fd = _lock(path) if path is not None else None
    if path is None or fd is None:
        return 1
    try:
        # no map yet: calls answer MAP_NOT_BUILT, as a shell's own would (`codenav index`
        # builds it); a warm server does not race the shell with a build of its own
        ws.start_servers()
        asyncio.run(_Server(ws, path).serve(idle))
    finally:
        os.close(fd)
    return 0


def serve_in_thread(ws: Workspace) -> threading.Event | None:
    """Serve ``ws``'s shell calls from a thread of a long-lived process (``codenav mcp``,
    ``codenav lsp``) until the returned event is set; None when shell calls are off or
    another process serves them."""
    if not enabled():
        return None
    path = socket_of(ws)
    fd = _lock(path) if path is not None else None
    if path is None or fd is None:
        return None
    stop = threading.Event()

    def main() -> None:
        try:
            asyncio.run(_Server(ws, path).serve(None, stop))
        except Exception:  # the session goes on without it
            log.exception("serving shell calls failed")
        finally:
            os.close(fd)

    threading.Thread(target=main, name="codenav-warm", daemon=True).start()
    return stop
