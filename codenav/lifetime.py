"""Child processes die with codenav, however codenav exits (a closed stdin, SIGTERM, SIGKILL).

- A direct child gets ``PR_SET_PDEATHSIG=SIGKILL`` (Linux): it is killed when the thread that
  forked it exits (``die_with_parent_hook``, a ``preexec_fn`` for ``subprocess``). Parser
  processes (``index/workers.py``) need none: they end when their job pipe does.
- PDEATHSIG is not inherited: a language server's own children (basedpyright's ``node``, a
  server that spawns workers) would outlive a SIGKILLed codenav. Each server therefore runs in
  a process group of its own, watched by a ``GroupReaper``: a tiny process that waits on a
  pipe only codenav writes to, and kills the whole group when the pipe ends without codenav
  saying goodbye — which is what a SIGKILL of codenav looks like from outside.
"""

from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from functools import cache
from typing import Any

__all__ = ["GroupReaper", "die_with_parent_hook"]

_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>

# The reaper's whole program: wait for codenav's word or its end; on its end, kill the group.
# Signals a terminal sends to codenav's group (Ctrl-C, hang-up) must not kill it first.
_REAPER = """\
import os, signal, sys
for name in ("SIGINT", "SIGTERM", "SIGHUP"):
    signal.signal(getattr(signal, name), signal.SIG_IGN)
word = sys.stdin.buffer.read(1)
if word != b"q":
    try:
        os.killpg(int(sys.argv[1]), signal.SIGKILL)
    except OSError:
        pass
"""


@cache
def _prctl() -> Any:
    """libc's ``prctl``, resolved in the parent (never load libraries between fork and exec)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong,
                      ctypes.c_ulong]
    prctl.restype = ctypes.c_int
    return prctl


def die_with_parent_hook() -> Callable[[], None] | None:
    """A ``preexec_fn`` giving the child SIGKILL when this process dies (Linux only)."""
    prctl = _prctl()
    if prctl is None:
        return None
    parent = os.getpid()

    def hook() -> None:
        prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:  # the parent died between fork and prctl
            os._exit(1)

    return hook


class GroupReaper:
    """Kills process group ``pgid`` if codenav dies without ``release`` (see the module)."""

    def __init__(self, pgid: int) -> None:
        self.pgid = pgid
        self._proc: subprocess.Popen[bytes] | None = subprocess.Popen(
            [sys.executable, "-I", "-S", "-c", _REAPER, str(pgid)], stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, close_fds=True)

    def release(self) -> None:
        """The group is gone or codenav is closing it itself: the reaper leaves it alone.
        Idempotent."""
        proc, self._proc = self._proc, None
        if proc is None or proc.stdin is None:
            return
        try:
            proc.stdin.write(b"q")
            proc.stdin.close()
        except OSError:
            pass
        try:
            proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
