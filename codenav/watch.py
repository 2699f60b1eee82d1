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
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from codenav.index.discover import PSEUDO_FILE_SYSTEMS, is_excluded_dir, watched

if TYPE_CHECKING:
    from codenav.workspace import Workspace

__all__ = ["BURST", "WatchState", "Watcher"]

log = logging.getLogger("codenav.watch")
logging.getLogger("watchfiles").setLevel(logging.WARNING)  # it logs every batch at INFO

BURST = 500  # more changed files than this: one incremental run over the whole tree
STEP_MS = 50  # a batch is handed over once no new change came for this long …
DEBOUNCE_MS = 1600  # … or once it has been collecting for this long
SETTLE_S = 2.0  # quiet seconds after which deferred relinking and hub ranking run
SETTLE_POLL_S = 0.5
RESTART_FIRST_S = 1.0  # a failed watch restarts after this pause, doubling up to …
RESTART_MAX_S = 60.0
# Project files module systems read (codenav/index/modules): a change relinks the map.
PROJECT_FILES = frozenset({"tsconfig.json", "jsconfig.json", "go.mod", "composer.json",
                           "Cargo.toml", "pyproject.toml"})


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

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"state": self.state, "batches": self.batches,
                               "filesReindexed": self.files, "relinks": self.settles}
        if self.restarts:
            out["restarts"] = self.restarts
        if self.last_at is not None:
            out["last"] = {"at": time.strftime("%Y-%m-%dT%H:%M:%S%z",
                                               time.localtime(self.last_at)),
                           "files": self.last_files, "ms": round(self.last_ms, 1)}
        if self.error:
            out["error"] = self.error
        return out


class Watcher:
    """Watches ``ws.root`` in a thread and re-indexes what changes."""

    def __init__(self, ws: Workspace, *, on_batch: Callable[[list[str]], None] | None = None,
                 step_ms: int = STEP_MS, debounce_ms: int = DEBOUNCE_MS) -> None:
        self.ws = ws
        self.state = WatchState()
        self._on_batch = on_batch
        self._step, self._debounce = step_ms, debounce_ms
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._background = False
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
        """Watch until stopped. A watch that fails (a file name the OS watch cannot report,
        a vanished folder, the OS refusing a watch) is started again after a growing pause,
        and what changed meanwhile is caught up by an incremental run over the tree."""
        pause = RESTART_FIRST_S
        try:
            while not self._stop.is_set():
                started = time.monotonic()
                try:
                    self._watch_once()
                    return  # stopped
                except Exception as exc:  # noqa: BLE001 - whatever stops a watch, it restarts
                    log.warning("the file watcher failed (%s: %s); it restarts in %.0f s",
                                type(exc).__name__, exc, pause)
                    state = self.state
                    state.restarts += 1
                    state.state, state.error = "restarting", f"{type(exc).__name__}: {exc}"
                    self._ready.set()
                if time.monotonic() - started > RESTART_MAX_S:
                    pause = RESTART_FIRST_S  # it had been watching a good while: start over
                if self._stop.wait(pause):
                    return
                pause = min(pause * 2, RESTART_MAX_S)
                self._catch_up()
        finally:
            self._ready.set()
            if self.state.state == "restarting":
                self.state.state = "failed"

    def _watch_once(self) -> None:
        from watchfiles import watch

        root = self.ws.root
        for changes in watch(*_watch_paths(root), watch_filter=self._wanted, step=self._step,
                             debounce=self._debounce, stop_event=self._stop,
                             yield_on_timeout=True, rust_timeout=200, raise_interrupt=False):
            if self.state.state in ("starting", "restarting"):
                first = self.state.state == "starting"
                self.state.state = "watching"
                self._ready.set()
                # set up in the background (a server answered its client first): edits
                # made meanwhile went unseen; an incremental run catches up
                if first and self._background and not self.ws.build.running and \
                        self.ws.map_exists():
                    self._catch_up()
            if not changes:
                continue
            rels = {_relative(root, path) for _, path in changes}
            self.apply(sorted(rel for rel in rels if rel))

    def _catch_up(self) -> None:
        """After a restart: whatever changed while nothing watched, by an incremental run."""
        try:
            self.ws.rebuild()
            self.state.last_at = time.time()
        except Exception:
            log.exception("catching up after the watcher restarted failed")

    def _settle_loop(self) -> None:
        while not self._stop.wait(SETTLE_POLL_S):
            self._settle_if_quiet()

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
        except Exception as exc:
            log.exception("re-indexing %d changed file(s) failed", len(paths))
            self.state.error = f"{type(exc).__name__}: {exc}"
            return
        state = self.state
        state.batches += 1
        state.files += len(paths)
        state.last_at, state.last_files = time.time(), len(paths)
        state.last_ms = (time.perf_counter() - started) * 1000
        state.error = None
        if self._on_batch is not None:
            self._on_batch(paths)


def _watch_paths(root: Path) -> list[Path]:
    """What to hand the OS watch: the root, or — for a root holding a pseudo file system
    (``/`` with ``--allow-large-root``) — its folders but those (files right in such a root
    go unwatched)."""
    if not any(Path(fs).parent == root for fs in PSEUDO_FILE_SYSTEMS):
        return [root]
    out = []
    for entry in sorted(os.scandir(root), key=lambda e: e.name):
        if entry.is_dir(follow_symlinks=False) and entry.path not in PSEUDO_FILE_SYSTEMS \
                and not is_excluded_dir(entry.name):
            out.append(Path(entry.path))
    return out or [root]


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
