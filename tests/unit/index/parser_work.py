"""Job functions for parser-process tests (imported by the worker processes themselves):
each job is a ``Job(what, path, arg)`` and does what its first field says, for real."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import Any, NamedTuple


class Job(NamedTuple):
    what: str
    path: str  # names the job in the pool's messages
    arg: Any


def work(job: Job) -> tuple[str, str, int]:
    what, name, arg = job
    if what == "segfault":
        os.kill(os.getpid(), signal.SIGSEGV)
    elif what == "segfault-once":  # dies the first time only (a worker killed from outside)
        marker = Path(arg)
        if not marker.exists():
            marker.write_text("died once")
            os.kill(os.getpid(), signal.SIGSEGV)
    elif what == "raise":  # a bug of the work itself
        raise ValueError(f"not enough values to unpack ({name})")
    elif what == "hang":
        time.sleep(3600)
    elif what == "spin":  # in C, never back to the interpreter's signal handling
        import re

        re.match(r"(a+)+$", "a" * 64 + "b")
    elif what == "hog":
        hoard = []
        while True:
            hoard.append(bytearray(16 << 20))
    return (what, name, os.getpid())
