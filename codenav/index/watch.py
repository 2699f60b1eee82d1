"""Following edits: watchfiles reports changes under the root, and the map is brought up to
date for exactly those files, in batches: parsed, written and linked at once (uses elsewhere
of a name they newly define included), while the whole relink and the hub ranking wait until
edits pause for ``SETTLE_S`` seconds.

Change kinds are not trusted (an editor's atomic save is a delete and an add; a rename is
two events; a new folder's first files may go unreported): folders in a batch are walked, and
each batch is a set of paths handed to an incremental index run limited to
them, which stats every path itself — gone files leave the map, new and changed ones are
parsed. What no discovery would map (other languages, ignored or vendored paths, the map's
own folder) triggers nothing. A burst larger than ``BURST`` (a branch switch) becomes one
incremental run over the whole tree, which compares sizes, mtimes and hashes instead.

Another process may be writing the map (``codenav index`` in CI, an editor's
``codenav lsp``): the run waits for the write lock (SQLite's busy timeout), never fails on it.
A batch that fails all the same (a full disk) is tried again after a growing pause.

What is watched is the root's real folders, each on its own (no recursive OS watch, which
would follow symlinks out of the root — ``/`` or ``/usr`` — and enter ``node_modules``):
excluded folders and symlinks are never entered, and a folder that cannot be read or holds a
name that is not UTF-8 (which the OS watch cannot report) is left unwatched and said so in
``map_status``. A new folder makes the watch start again with it.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from codenav.index.discover import decodable, is_excluded_dir, is_walked_dir, shown, watched
from codenav.index.languages import languages
from codenav.index.modules import project_files

__all__ = ["BURST", "WatchState", "Watched", "Watcher", "watched_folders"]

log = logging.getLogger("codenav.watch")
logging.getLogger("watchfiles").setLevel(logging.WARNING)  # it logs every batch at INFO

BURST = 500  # more changed files than this: one incremental run over the whole tree
STEP_MS = 50  # a batch is handed over once no new change came for this long …
DEBOUNCE_MS = 1600  # … or once it has been collecting for this long
SETTLE_S = 2.0  # quiet seconds after which deferred relinking and hub ranking run
SETTLE_POLL_S = 0.5
RESTART_FIRST_S = 1.0  # a failed watch restarts after this pause, doubling up to …
RESTART_MAX_S = 60.0
RETRY_FIRST_S = 1.0  # a batch that failed is tried again after this pause, doubling up to …
RETRY_MAX_S = 60.0
_UNWATCHED_SHOWN = 10
# Project files module systems read (codenav/index/modules): a change relinks the map.
PROJECT_FILES = project_files({lang.modules for lang in languages()})


class Watched(Protocol):
    """What the watcher needs of the map it keeps up to date (``workspace.Workspace``): its
    root, and runs over it. The watcher knows nothing else of the workspace that owns it."""

    @property
    def root(self) -> Path: ...

    def building_now(self) -> bool:
        """Whether a build of the whole map is running (the first, or a rebuild)."""
        ...

    def map_exists(self) -> bool: ...

    def rebuild(self) -> Any:
        """An incremental run over the whole tree (relinks what is pending)."""
        ...

    def update(self, paths: list[str]) -> Any:
        """An incremental run over these paths only."""
        ...

    def request_relink(self) -> None: ...

    def relink_pending(self) -> bool: ...


@dataclass(slots=True)
class WatchState:
    """What the watcher did, for map_status."""

    state: str = "starting"  # starting, watching, restarting, stopped, failed
    batches: int = 0
    restarts: int = 0
    files: int = 0
    last_at: float | None = None
    last_files: int = 0
    last_ms: float = 0.0
    error: str | None = None
    settles: int = 0
    folders: int = 0  # folders watched
    unwatched: dict[str, str] = field(default_factory=dict)  # folder -> why not
    pending: int = 0  # changed files waiting for a failed batch's next try

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"state": self.state, "batches": self.batches,
                               "filesReindexed": self.files, "relinks": self.settles,
                               "folders": self.folders}
        if self.restarts:
            out["restarts"] = self.restarts
        if self.unwatched:
            shown = sorted(self.unwatched.items())[:_UNWATCHED_SHOWN]
            out["unwatched"] = {"count": len(self.unwatched),
                                "folders": [f"{folder}: {why}" for folder, why in shown]}
        if self.pending:
            out["pendingRetry"] = self.pending
        if self.last_at is not None:
            out["last"] = {"at": time.strftime("%Y-%m-%dT%H:%M:%S%z",
                                               time.localtime(self.last_at)),
                           "files": self.last_files, "ms": round(self.last_ms, 1)}
        if self.error:
            out["error"] = self.error
        return out


class Watcher:
    """Watches ``ws.root`` in a thread and re-indexes what changes."""

    def __init__(self, ws: Watched, *, on_batch: Callable[[list[str]], None] | None = None,
                 step_ms: int = STEP_MS, debounce_ms: int = DEBOUNCE_MS) -> None:
        self.ws = ws
        self.state = WatchState()
        self._on_batch = on_batch
        self._step, self._debounce = step_ms, debounce_ms
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._background = False
        self._folders: set[str] = set()  # the folders watched, as last listed
        self._retry: set[str] = set()  # paths of batches that failed, for the next try
        self._retry_at = 0.0
        self._retry_pause = RETRY_FIRST_S
        self._retry_lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, name="codenav-watch", daemon=True)
        # Its own thread: the watch loop may see no quiet moment at all (readers of the map
        # touch files under .codenav, filtered out but still waking the OS watch).
        self._settler = threading.Thread(target=self._settle_loop, name="codenav-settle",
                                         daemon=True)

    def start(self, *, wait: bool = True) -> None:
        """Start watching; with ``wait``, return once the OS watch is set up (later edits
        are seen). Setting it up holds the GIL (watchfiles' Rust side walks the tree): a
        server starts it only after answering its client's ``initialize``."""
        self._background = not wait
        self._thread.start()
        self._settler.start()
        if wait:
            self._ready.wait(timeout=10)

    def stop(self, timeout: float = 5.0) -> None:
        """Stop watching; waits up to ``timeout`` seconds for each thread (both are daemons:
        one still setting its watch up does not hold the process)."""
        self._stop.set()
        for thread in (self._thread, self._settler):
            if thread.is_alive():
                thread.join(timeout=timeout)
        if self.state.state != "failed":
            self.state.state = "stopped"

    # ------------------------------------------------------------------ thread

    def _run(self) -> None:
        """Watch until stopped. A watch that fails (a name the OS watch cannot report that
        appeared since the folders were listed, a folder the OS refuses to watch) is started
        again after a growing pause — at once when listing the folders again cures it — and
        what changed meanwhile is caught up by an incremental run over the tree."""
        pause = RESTART_FIRST_S
        try:
            while not self._stop.is_set():
                started = time.monotonic()
                try:
                    if not self._watch_once():
                        return  # stopped
                    continue  # a new folder: list the folders again and watch on
                except Exception as exc:  # noqa: BLE001 - whatever stops a watch, it restarts
                    cured = "decode path" in str(exc)  # its folder is left out when listed
                    log.warning("the file watcher failed (%s: %s); it restarts in %.0f s",
                                type(exc).__name__, exc, 0 if cured else pause)
                    state = self.state
                    state.restarts += 1
                    state.state, state.error = "restarting", f"{type(exc).__name__}: {exc}"
                    self._ready.set()
                if time.monotonic() - started > RESTART_MAX_S:
                    pause = RESTART_FIRST_S  # it had been watching a good while: start over
                if not cured:
                    if self._stop.wait(pause):
                        return
                    pause = min(pause * 2, RESTART_MAX_S)
                self._catch_up()
        finally:
            self._ready.set()
            if self.state.state == "restarting":
                self.state.state = "failed"

    def _watch_once(self) -> bool:
        """Watch the root's folders until stopped (False) or a folder appears (True)."""
        from watchfiles import Change, watch

        root = self.ws.root
        folders, unwatched = watched_folders(root)
        self.state.folders, self.state.unwatched = len(folders), unwatched
        # Folders new since the last listing: what was written in them before their watch
        # was set up (the first yield) is reported by nothing, so they are walked then.
        new = [_relative(root, f) for f in set(folders) - self._folders] if self._folders \
            else []
        self._folders = set(folders)
        for changes in watch(*folders, watch_filter=self._wanted, step=self._step,
                             debounce=self._debounce, stop_event=self._stop,
                             yield_on_timeout=True, rust_timeout=200, raise_interrupt=False,
                             recursive=False, ignore_permission_denied=True):
            if self.state.state in ("starting", "restarting"):
                first = self.state.state == "starting"
                self.state.state = "watching"
                self._ready.set()
                # set up in the background (a server answered its client first): edits
                # made meanwhile went unseen; an incremental run catches up
                if first and self._background and not self.ws.building_now() and \
                        self.ws.map_exists():
                    self._catch_up()
            if new:
                self.apply(sorted(new))
                new = []
            if not changes:
                continue
            rels = {_relative(root, path) for _, path in changes}
            self.apply(sorted(rel for rel in rels if rel))
            if any(change == Change.added and os.path.isdir(path) and not os.path.islink(path)
                   for change, path in changes):
                return True
        return False

    def _catch_up(self) -> None:
        """After a restart: whatever changed while nothing watched, by an incremental run."""
        try:
            self.ws.rebuild()
            self.state.last_at = time.time()
        except Exception:
            log.exception("catching up after the watcher restarted failed")

    def _settle_loop(self) -> None:
        while not self._stop.wait(SETTLE_POLL_S):
            self._retry_if_due()
            self._settle_if_quiet()

    def _failed(self, paths: list[str], exc: Exception) -> None:
        """Keep a failed batch's paths for a try after a growing pause (a full disk, a map
        another process holds for too long): the edits are not lost."""
        with self._retry_lock:
            self._retry.update(paths)
            self._retry_at = time.monotonic() + self._retry_pause
            log.warning("re-indexing %d changed file(s) failed (%s: %s); trying again in "
                        "%.0f s", len(paths), type(exc).__name__, exc, self._retry_pause)
            self._retry_pause = min(self._retry_pause * 2, RETRY_MAX_S)
            self.state.pending = len(self._retry)
        self.state.error = f"{type(exc).__name__}: {exc}"

    def _succeeded(self) -> None:
        with self._retry_lock:
            self._retry_pause = RETRY_FIRST_S
            self.state.pending = len(self._retry)

    def _retry_if_due(self) -> None:
        with self._retry_lock:
            if not self._retry or time.monotonic() < self._retry_at:
                return
            paths, self._retry = sorted(self._retry), set()
        self.apply(paths)

    def _settle_if_quiet(self) -> None:
        """Once edits pause, finish what quick updates deferred: the whole relink (new names
        resolved everywhere) and the hub scores. No file is parsed again."""
        last = self.state.last_at
        if last is None or time.time() - last < SETTLE_S or not self.ws.relink_pending():
            return
        started = time.perf_counter()
        try:
            self.ws.rebuild()
        except Exception as exc:
            log.exception("relinking after edits failed")
            self.state.error = f"{type(exc).__name__}: {exc}"
            return
        self.state.settles += 1
        log.info("relinked after edits in %.0f ms", (time.perf_counter() - started) * 1000)

    def _wanted(self, change: Any, path: str) -> bool:
        """Cheap first filter, per event: no excluded folder on the way (the map's own
        ``.codenav`` among them). The rest is decided per batch by ``watched``."""
        rel = _relative(self.ws.root, path)
        return bool(rel) and not any(is_excluded_dir(p) for p in rel.split("/")[:-1]) \
            and not is_excluded_dir(rel.split("/")[-1])

    def apply(self, rels: list[str]) -> None:
        """Bring the map up to date for these changed paths (also called by tests)."""
        if any(rel.rsplit("/", 1)[-1] in PROJECT_FILES for rel in rels):
            try:  # how imports resolve may have changed: relink all once edits pause
                self.ws.request_relink()
                self.state.last_at = time.time()
            except Exception:
                log.exception("asking for a relink failed")
        try:
            paths = watched(self.ws.root, _with_folder_contents(self.ws.root, rels))
        except Exception:
            log.exception("filtering changed paths failed")
            return
        if not paths:
            return
        started = time.perf_counter()
        try:
            if len(paths) > BURST:
                self.ws.rebuild()
            else:
                self.ws.update(paths)
        except Exception as exc:  # noqa: BLE001 - whatever failed, the batch is tried again
            self._failed(paths, exc)
            return
        self._succeeded()
        state = self.state
        state.batches += 1
        state.files += len(paths)
        state.last_at, state.last_files = time.time(), len(paths)
        state.last_ms = (time.perf_counter() - started) * 1000
        state.error = None
        if self._on_batch is not None:
            self._on_batch(paths)


def watched_folders(root: Path) -> tuple[list[str], dict[str, str]]:
    """The real folders under ``root`` to watch (never a symlink, never an excluded folder),
    and those left out with why: one that cannot be read, or that holds a name that is not
    UTF-8 (an OS watch on it fails as soon as that name has an event)."""
    folders: list[str] = []
    unwatched: dict[str, str] = {}
    pending = [(str(root), "")]
    while pending:
        path, rel = pending.pop()
        try:
            with os.scandir(path) as listing:
                entries = list(listing)
        except OSError as exc:
            unwatched[rel or "."] = f"cannot be read ({exc.strerror or exc})"
            continue
        odd = [e.name for e in entries if not decodable(e.name)]
        if odd:
            unwatched[rel or "."] = f"holds a name that is not UTF-8 ({shown(odd[0])})"
        else:
            folders.append(path)
        for entry in entries:
            if not decodable(entry.name) or is_excluded_dir(entry.name) or \
                    not is_walked_dir(entry.path):  # /proc, /sys, /dev (a root of /)
                continue
            try:
                if entry.is_dir(follow_symlinks=False):
                    pending.append((entry.path, f"{rel}/{entry.name}" if rel else entry.name))
            except OSError:
                continue
    return folders, unwatched


def _with_folder_contents(root: Path, rels: list[str]) -> list[str]:
    """``rels`` plus every file under those that are folders: files created in a new folder
    before the OS watch on it was set up are never reported (inotify), a moved-in folder
    reports only itself."""
    out = list(rels)
    for rel in rels:
        folder = root / rel
        if not folder.is_dir() or folder.is_symlink():
            continue
        for current, dirs, files in os.walk(folder):
            dirs[:] = [d for d in dirs if not is_excluded_dir(d)]
            base = Path(current).relative_to(root).as_posix()
            out += [f"{base}/{name}" for name in files]
    return out


def _relative(root: Path, path: str) -> str:
    try:
        return Path(path).relative_to(root).as_posix()
    except ValueError:
        return ""
