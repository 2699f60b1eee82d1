"""Parser processes: every file is parsed in a worker process under a hard deadline and a
memory bound, so that no file can stall or exhaust the process that asked for it.

tree-sitter's queries cannot be interrupted, and some inputs make them take minutes (a Go
``var`` of 2,000 names: cubic in the names) or gigabytes (a 2 MiB file of ``a=b`` lines), so
the per-file budget (``pipeline.file_budget``, checked between steps) needs a backstop that
does not depend on the file's work returning: before each file a worker arms ``SIGALRM`` at
the budget plus a grace, with the signal's default action — the kernel ends the worker in
the middle of whatever C code runs — and its address space is bounded (``RLIMIT_AS``: what
it had at start plus ``MEMORY_BYTES``). The pool sees the worker's end, maps that file as
``timeout`` and goes on with a new worker; a worker that dies otherwise (a parser crash, a
kill from outside) has its file tried once more alone, then mapped as ``crashed``.

Workers are fresh interpreters (``subprocess``, no ``multiprocessing`` helpers: no fork of a
threaded server, no resource tracker or fork server to outlive codenav). A worker exits when
its job pipe closes — which is also what codenav's end, however it ends, looks like to it —
and runs at most one file's hard deadline past that. Results come back as each file is done,
in no particular order.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import importlib
import logging
import os
import resource
import signal
import subprocess
import sys
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any, NamedTuple, Protocol, TypeVar

from codenav.children import python_command

__all__ = ["GRACE_S", "MEMORY_BYTES", "ParserPool", "shared_pool"]

log = logging.getLogger("codenav.index")

GRACE_S = 1.0  # past the soft budget, before the kernel ends the worker
MEMORY_BYTES = 400 << 20  # address space a worker may add to what it started with
# A worker that dies with its peak memory this close to the bound ran out of it (a parser's
# malloc failing ends in a segfault as often as in MemoryError): its file is a timeout.
_NEAR_BOUND = 0.8
_SILENCE_S = 5.0  # past the hard deadline: a worker the alarm did not end is killed
_MEMORY_EXIT = 75  # a worker's exit status after MemoryError (its file: timeout)
_WORK = "codenav.index.pipeline:_work"


class _Failure(NamedTuple):
    """A worker's answer for a job whose work raised (its traceback), instead of dying."""

    trace: str


class Job(Protocol):
    """One file's work, pickled to a worker (``pipeline.Job``); its path names it in
    messages."""

    @property
    def path(self) -> str: ...


J = TypeVar("J", bound=Job)


@dataclass(slots=True)
class _Worker:
    proc: subprocess.Popen[bytes]
    jobs: Connection
    results: Connection
    outstanding: deque[Any] = field(default_factory=deque)
    since: float = 0.0  # when its current file started, as far as the pool can tell


class ParserPool:
    """Up to ``size`` parser processes, started when first needed and kept for later runs
    until ``close``. ``work`` is the job function (``module:function``) workers run."""

    def __init__(self, size: int, *, work: str = _WORK, budget: float | None = None) -> None:
        self.size = max(1, size)
        self.work = work
        self._budget = budget
        self._idle: list[_Worker] = []
        self._lock = threading.Lock()  # one run at a time

    @property
    def hard_deadline(self) -> float:
        if self._budget is None:
            from codenav.index.pipeline import file_budget

            self._budget = file_budget()
        return self._budget + GRACE_S

    def run(self, jobs: Sequence[J], failed: Callable[[J, str], Any], *,
            batch: int = 1) -> Iterator[Any]:
        """Each job's result as it is done (a job whose worker was ended: ``failed(job,
        "timeout" | "crashed")``). ``batch`` jobs go to a worker at a time. A run abandoned
        before its end ends the workers still busy with it."""
        with self._lock:
            yield from self._run(jobs, failed, batch)

    def _run(self, jobs: Sequence[J], failed: Callable[[J, str], Any], batch: int
             ) -> Iterator[Any]:
        size = max(1, batch)
        queue: deque[list[J]] = deque(list(jobs[i:i + size])
                                        for i in range(0, len(jobs), size))
        busy: dict[Connection, _Worker] = {}
        retried: set[int] = set()
        hard = self.hard_deadline
        try:
            while queue or busy:
                while queue and len(busy) < self.size:
                    worker = self._idle.pop() if self._idle else self._spawn()
                    work = queue.popleft()
                    if not self._send(worker, work):
                        queue.appendleft(work)  # an idle worker that died meanwhile
                        continue
                    busy[worker.results] = worker
                ready = wait(list(busy), timeout=hard + _SILENCE_S)
                if not ready:
                    self._kill_silent(busy.values(), hard)
                    continue
                for conn in ready:
                    worker = busy[conn]  # type: ignore[index]
                    try:
                        result = worker.results.recv()
                    except (EOFError, OSError):
                        del busy[worker.results]
                        yield from self._ended(worker, queue, retried, failed)
                        continue
                    job = worker.outstanding.popleft()
                    worker.since = time.monotonic()
                    if not worker.outstanding:
                        del busy[worker.results]
                        self._idle.append(worker)
                    if isinstance(result, _Failure):
                        log.error("reading %s failed (a bug in codenav: please report it); it "
                                  "is mapped as crashed\n%s", job.path, result.trace.rstrip())
                        result = failed(job, "crashed")
                    yield result
        finally:
            for worker in busy.values():  # abandoned mid-run: its results are nobody's
                self._stop(worker, kill=True)

    def _ended(self, worker: _Worker, queue: deque[list[J]], retried: set[int],
               failed: Callable[[J, str], Any]) -> Iterator[Any]:
        """A worker's pipe ended: its file is mapped ``timeout`` (the alarm or the memory
        bound ended it) or tried once more alone, then ``crashed``; its other jobs go back."""
        late = time.monotonic() - worker.since >= self.hard_deadline
        code, peak = self._stop(worker, kill=True)
        if not worker.outstanding:
            return
        culprit = worker.outstanding.popleft()
        if worker.outstanding:
            queue.appendleft(list(worker.outstanding))
        if code in (-signal.SIGALRM, _MEMORY_EXIT) or late or \
                peak >= _NEAR_BOUND * MEMORY_BYTES:
            log.warning("%s was not parsed within %.1f s or %d MiB; it is mapped as timeout",
                        culprit.path, self.hard_deadline, MEMORY_BYTES >> 20)
            yield failed(culprit, "timeout")
        elif id(culprit) in retried:
            log.warning("%s crashed the parser (exit %s); it is mapped as crashed",
                        culprit.path, code)
            yield failed(culprit, "crashed")
        else:
            log.warning("a parser process died (exit %s) on %s; it is parsed again, alone",
                        code, culprit.path)
            retried.add(id(culprit))
            queue.appendleft([culprit])

    def _kill_silent(self, workers: Any, hard: float) -> None:
        """The backstop of the backstop: a worker silent well past its file's deadline."""
        now = time.monotonic()
        for worker in workers:
            if now - worker.since > hard + _SILENCE_S:
                _kill(worker.proc)  # its pipe ends: a late end, as the alarm's

    def _send(self, worker: _Worker, work: Sequence[Job]) -> bool:
        try:
            worker.jobs.send(work)
        except OSError:
            self._stop(worker, kill=True)
            return False
        worker.outstanding.extend(work)
        worker.since = time.monotonic()
        return True

    def _spawn(self) -> _Worker:
        jobs_read, jobs_write = os.pipe()
        results_read, results_write = os.pipe()
        try:  # an isolated interpreter: a repository's `json.py` is never imported
            proc = subprocess.Popen(
                python_command("from codenav.index.workers import serve; serve()",
                               str(jobs_read), str(results_write), self.work,
                               str(self.hard_deadline)),
                pass_fds=(jobs_read, results_write), stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL)
        finally:
            os.close(jobs_read)
            os.close(results_write)
        return _Worker(proc, Connection(jobs_write, readable=False),
                       Connection(results_read, writable=False))

    def _stop(self, worker: _Worker, *, kill: bool) -> tuple[int, int]:
        """End a worker (its job pipe closed: an idle one exits at once; ``kill``: now);
        its exit status and peak memory in bytes."""
        with contextlib.suppress(OSError):
            worker.jobs.close()
        if kill:
            _kill(worker.proc)
        code, peak = _reap(worker.proc, 0.0 if kill else 1.0)
        with contextlib.suppress(OSError):
            worker.results.close()
        return code, peak

    def close(self) -> None:
        """End the idle workers (their job pipes close; each exits at once)."""
        with self._lock:
            idle, self._idle = self._idle, []
        for worker in idle:
            self._stop(worker, kill=False)


def _kill(proc: subprocess.Popen[bytes]) -> None:
    """SIGKILL, without ``Popen.kill``'s reaping poll (which would lose the peak memory
    ``_reap`` reads); the pool is the only one to reap its workers."""
    if proc.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(proc.pid, signal.SIGKILL)


def _reap(proc: subprocess.Popen[bytes], grace: float) -> tuple[int, int]:
    """Wait for ``proc`` (killed after ``grace`` seconds); its exit status and peak RSS."""
    deadline = time.monotonic() + grace
    while True:
        try:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG if grace else 0)
        except ChildProcessError:  # reaped already
            return proc.returncode if proc.returncode is not None else 0, 0
        if pid:
            proc.returncode = os.waitstatus_to_exitcode(status)
            return proc.returncode, usage.ru_maxrss * 1024
        if time.monotonic() > deadline:
            _kill(proc)
            grace = 0.0
        else:
            time.sleep(0.01)


@functools.cache
def shared_pool() -> ParserPool:
    """This process's one-worker pool for runs of a few files (an answer's read-your-writes,
    the watcher's batches): started once, kept warm, closed at exit."""
    pool = ParserPool(1)
    atexit.register(pool.close)
    return pool


# ------------------------------------------------------------------------- the worker

def serve() -> None:
    """A worker's main loop: ``argv`` = job fd, result fd, ``module:function``, hard
    deadline in seconds. Batches of jobs in, one result per job out, until the job pipe
    ends."""
    jobs_fd, results_fd, work_name, hard = sys.argv[1:5]
    signal.signal(signal.SIGALRM, signal.SIG_DFL)  # the kernel ends a file past its deadline
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    module, _, name = work_name.partition(":")
    work: Callable[[Job], Any] = getattr(importlib.import_module(module), name)
    _bound_memory()
    jobs = Connection(int(jobs_fd), writable=False)
    results = Connection(int(results_fd), readable=False)
    seconds = float(hard)
    while True:
        try:
            batch = jobs.recv()
        except (EOFError, OSError):
            return
        for job in batch:
            signal.setitimer(signal.ITIMER_REAL, seconds)
            try:
                result = work(job)
            except MemoryError:
                os._exit(_MEMORY_EXIT)  # the heap is in no state to go on
            except Exception:  # noqa: BLE001 - a bug of the work on this file: said; it lives
                result = _Failure(traceback.format_exc(limit=12))
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            try:
                results.send(result)
            except OSError:
                return


def _bound_memory() -> None:
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            pages = int(statm.read().split()[0])
        current = pages * os.sysconf("SC_PAGE_SIZE")
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        limit = current + MEMORY_BYTES
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (OSError, ValueError):  # not Linux: the deadline alone bounds a file
        pass
