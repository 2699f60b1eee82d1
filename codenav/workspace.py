"""The workspace: one root, its map, and the services every front end shares.

``codenav mcp``, ``codenav call`` and (later) ``codenav lsp`` each hold one Workspace. It
knows where the map is, hands out read-only connections (one per thread), runs index builds
one at a time (in the background when the map is missing), and says what state it is in.
"""

from __future__ import annotations

import logging
import os
import subprocess
import threading
import time
from collections.abc import Callable, Collection, Hashable
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar, cast

from codenav.children import module_command
from codenav.config import decide_trust
from codenav.errors import MapNotBuilt, MapRefused, MapUntrusted, RootRefused
from codenav.index.discover import discover
from codenav.index.pipeline import (
    IndexReport,
    Progress,
    builder_alive,
    index_tree,
    refresh_files,
    request_relink,
    update_files,
)
from codenav.index.watch import Watcher
from codenav.lifetime import die_with_parent_hook
from codenav.lsp.projects import one_file_per_project
from codenav.paths import canonical, require_inside
from codenav.roots import RootChoice, check_root
from codenav.store import db, origin
from codenav.store.read import MapReader

if TYPE_CHECKING:
    from codenav.lsp.pool import LspPool

__all__ = ["BuildState", "Workspace"]

log = logging.getLogger("codenav.workspace")

# Read-your-writes: files re-indexed inside a call only while that stays within ~50 ms.
_FRESHEN_FILES = 8
_FRESHEN_BYTES = 256 * 1024
_FRESHEN_BUSY_S = 0.05
_MEMO_SIZE = 64

T = TypeVar("T")


@dataclass(slots=True)
class BuildState:
    """What the index builder is doing, for map_status and MAP_NOT_BUILT hints."""

    running: bool = False
    started: float = 0.0
    last_error: str | None = None
    last_report: IndexReport | None = None
    done: threading.Event = field(default_factory=threading.Event)


class Workspace:
    """A root directory and its map."""

    def __init__(self, root: Path, db_path: Path | None = None, *,
                 force_root: Path | None = None, watch: bool = False,
                 lsp: str = "off", lsp_background: bool = True,
                 lsp_deadlines: tuple[float, float] | None = None,
                 trust_project: bool = False, trust_map: bool = False,
                 root_from: str = "argument", allow_large_root: bool = False) -> None:
        self.root = canonical(root)
        # Which rule chose the root (codenav/roots.py; map_status's rootFrom), and whether
        # a root codenav would refuse (/, the home folder, a huge tree) is mapped anyway.
        self.root_from = root_from
        self.allow_large_root = allow_large_root
        check_root(RootChoice(self.root, root_from), allow_large=allow_large_root)
        # Set once the root is found too large to map (counted before a first build).
        self.refused: RootRefused | None = None
        self._sized = False
        self.force_root = canonical(force_root) if force_root is not None else None
        # Whether the repository's own configuration may name programs (codenav/config.py).
        self.trust = decide_trust(self.root, flag=trust_project, forced=force_root is not None)
        require_inside(self.root, self.force_root, "root")
        # Whether a map codenav did not write here may be served (store/origin.py).
        self.trust_map = trust_map or origin.trust_map_from_env()
        self._db_arg = db_path  # as the user named it (a first build's child is told this)
        self.db_path = db.map_path(self.root, db_path)
        require_inside(self.db_path, self.force_root, "--db")
        self.watch = watch
        self.lsp = lsp
        # Whether `auto` answers may start servers in the background (a long-lived server:
        # yes; a one-shot `codenav call`: no, only source:'lsp' starts one).
        self.lsp_background = lsp_background
        # a warm server (codenav/warm.py) is starting this workspace's language servers for
        # later shell calls: this one-shot call answers from the map meanwhile
        self.warm_elsewhere = False
        self._pool: LspPool | None = None
        self.watcher: Watcher | None = None
        # (deadline, long deadline); docs/contract.md §5's by default
        self._lsp_deadlines = lsp_deadlines
        self._pool_lock = threading.Lock()
        self._closed = False
        self._builder: subprocess.Popen[bytes] | None = None  # a first build's process
        self.build = BuildState()
        self._build_lock = threading.Lock()
        self._local = threading.local()
        self._memo: dict[Hashable, tuple[tuple[int, int], object]] = {}
        self._told: set[str] = set()
        self._told_lock = threading.Lock()

    # ------------------------------------------------------------------ reading

    def reader(self) -> MapReader:
        """This thread's read-only view of the map; MAP_NOT_BUILT when there is none."""
        if self.refused is not None:
            raise self.refused
        try:
            identity = os.stat(self.db_path).st_ino
        except OSError:
            raise self._not_built() from None
        cached: MapReader | None = getattr(self._local, "reader", None)
        if cached is None or self._local.identity != identity:
            try:
                conn = db.connect_reader(self.db_path)
            except MapNotBuilt as exc:
                if self.build.running:
                    raise self._not_built() from exc
                raise
            if cached is not None:
                cached.conn.close()
            cached = MapReader(conn)
            self._local.reader, self._local.identity = cached, identity
            self._local.checked = self._local.vetted = None
        self._check_finished(cached)
        return cached

    def _check_finished(self, reader: MapReader) -> None:
        """Refuse a map that is an interrupted first build; note one under way (``building``).
        Looked at again whenever another connection committed, and on every call while a
        build is under way (its builder may die)."""
        version = reader.version()
        if self._local.checked == version and not self._local.growing:
            return
        meta = reader.meta()
        self._check_origin(reader, meta)
        state = meta.get("building")
        growing = builder_alive(meta)
        if state == "interrupted" or (state == "1" and not growing):
            self._local.checked = None
            raise MapNotBuilt(f"the first build of the map of {self.root} was interrupted",
                              hint="Rebuild it: `codenav index` in the root, or map_rebuild.")
        self._local.checked, self._local.growing = version, growing

    def _check_origin(self, reader: MapReader, meta: dict[str, str]) -> None:
        """Refuse a map codenav did not write here (it came with the repository, or from
        another machine) unless the user trusts it; a trusted one is served only when its
        schema is codenav's and its paths stay inside the root (checked once per map file)."""
        if origin.stamped(meta):
            return
        if not self.trust_map:
            if self.build.running:
                raise self._not_built()
            raise MapUntrusted(f"the map at {self.db_path} was not written by codenav on this "
                               "machine (it came with the repository, or from elsewhere): it "
                               "is not served until it is rebuilt")
        if self._local.vetted == id(reader):
            return
        why = origin.foreign_rows(reader.conn, db.expected_schema())
        if why is not None:
            raise MapRefused(f"the map at {self.db_path} is not codenav's to serve: {why}",
                             hint="Rebuild it: `codenav index` without --trust-map.")
        self._local.vetted = id(reader)

    def first_time(self, note: str) -> bool:
        """Whether ``note`` is news to this workspace's client (said once per session: an
        agent need not read why the map answers on every call)."""
        with self._told_lock:
            if note in self._told:
                return False
            self._told.add(note)
            return True

    def cached(self, key: Hashable, compute: Callable[[], T]) -> T:
        """``compute()``, remembered until the map changes (another connection commits):
        for answers that aggregate the whole map, such as map_overview's."""
        reader = self.reader()
        stamp = (id(reader), reader.version())
        hit = self._memo.get(key)
        if hit is not None and hit[0] == stamp:
            return cast(T, hit[1])
        value = compute()
        if len(self._memo) >= _MEMO_SIZE:
            self._memo.pop(next(iter(self._memo)))
        self._memo[key] = (stamp, value)
        return value

    def _not_built(self) -> MapNotBuilt:
        if self.build.running:
            waited = time.monotonic() - self.build.started
            return MapNotBuilt(
                f"the first map of {self.root} is being built ({waited:.0f} s so far)",
                hint="Retry in a few seconds; map_status shows progress.")
        return MapNotBuilt(f"no map of {self.root} yet",
                           hint="Build it: `codenav index` in the root (a shell), or the "
                                "map_rebuild tool.")

    def map_exists(self) -> bool:
        """Whether there is a map to answer from: built, or a first build under way (which
        answers from what it has written so far); not an interrupted first build."""
        try:
            self.building()
        except MapNotBuilt:
            return False
        return True

    def building(self) -> bool:
        """Whether the map is a first build still under way (in this process or another):
        its definitions are there as far as it got, references across files come when it is
        done. MAP_NOT_BUILT when there is no map, or only an interrupted first build."""
        self.reader()
        return bool(self._local.growing)

    def build_counts(self) -> tuple[int, int]:
        """(files mapped, files to map) of a first build under way, as it last committed;
        (0, 0) while it is still finding the files."""
        try:
            done, _, total = self.reader().meta().get("building_progress", "").partition("/")
        except MapNotBuilt:
            return 0, 0
        try:
            return int(done), int(total)
        except ValueError:
            return 0, 0

    def build_progress(self) -> str:
        """How far a first build under way got (as it last committed), said for warnings."""
        done, total = self.build_counts()
        if not total:
            return "finding the files"
        return f"{done:,} of {total:,} files mapped"

    # ------------------------------------------------------------------ building

    def check_size(self) -> None:
        """Before a first build: RootRefused when the root holds more files than codenav maps
        without ``--allow-large-root`` and is no git work tree (counted once; a root that
        already has a map is not counted)."""
        if self.refused is not None:
            raise self.refused
        if self._sized or self.allow_large_root:
            return
        if not self.db_path.exists():
            try:
                check_root(RootChoice(self.root, self.root_from), count=True)
            except RootRefused as exc:
                self.refused = exc
                raise
        self._sized = True

    def rebuild(self, *, full: bool = False, paths: Collection[str] | None = None,
                progress: Progress | None = None) -> IndexReport:
        """Run the indexer now (blocking; one build at a time in this process)."""
        self.check_size()
        with self._build_lock:
            self.build.running, self.build.started = True, time.monotonic()
            self.build.done.clear()
            try:
                report = index_tree(self.root, self.db_path, full=full, paths=paths,
                                    progress=progress, trust_map=self.trust_map)
            except Exception as exc:
                self.build.last_error = f"{type(exc).__name__}: {exc}"
                raise
            finally:
                self.build.running = False
                self.build.done.set()
            self.build.last_error = None
            self.build.last_report = report
            return report

    def update(self, paths: Collection[str]) -> IndexReport | None:
        """Re-index changed files now without a whole relink (the watcher's path); the
        relink it defers runs in ``settle``."""
        with self._build_lock:
            if not self.map_exists():
                return None  # the first build is running or failed: it will see them
            return update_files(self.root, self.db_path, paths)

    def request_relink(self) -> None:
        """Have the map linked again as a whole (see ``pipeline.request_relink``)."""
        if self.map_exists():
            with self._build_lock:
                request_relink(self.db_path)

    def building_now(self) -> bool:
        """Whether this workspace runs a build of the whole map now (a first one, in a child
        process, or a rebuild)."""
        return self.build.running

    def relink_pending(self) -> bool:
        try:
            return self.reader().meta().get("relink_pending") == "1"
        except MapNotBuilt:
            return False

    def start_background_build(self, on_done: Callable[[], None] | None = None, *,
                               damaged: bool = False) -> bool:
        """Build the map if it is missing or unusable (``damaged``: SQLite found it so);
        True if a build was started.

        The build is ``codenav index --progressive`` in a child process (dying with this
        one): it commits as it grows, so that tools answer from what it has mapped so far,
        and it has the CPU to itself — parser processes, no lock shared with this
        process's threads (the MCP server imports and serves meanwhile). ``on_done`` runs
        once it has ended. A run that meets a damaged map deletes it and builds it anew."""
        if self.build.running or self.refused is not None or \
                (not damaged and self.map_exists()):
            return False
        self.build.running, self.build.started = True, time.monotonic()
        self.build.done.clear()
        # (the root was checked here, counted too, before the child starts: it need not)
        command = module_command("codenav", "index", str(self.root), "--progressive",
                                 "--log-level", "warning", "--allow-large-root")
        if self._db_arg is not None:  # only a path the user named (never the resolved one)
            command += ["--db", str(self._db_arg)]
        if self.trust_map:
            command.append("--trust-map")

        def finished() -> None:
            self.build.running = False
            self.build.done.set()
            if on_done is not None:
                on_done()

        def wait() -> None:
            try:  # counted here, not before answering: a client's initialize never waits
                self.check_size()
            except RootRefused as exc:
                log.warning("%s %s", exc.message, exc.hint)
                self.build.last_error = exc.message
                finished()
                return
            if self._closed:
                finished()
                return
            # (the hook only calls prctl, resolved beforehand: safe between fork and exec)
            builder = subprocess.Popen(command, stdin=subprocess.DEVNULL,
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                       preexec_fn=die_with_parent_hook())  # noqa: PLW1509
            self._builder = builder
            if self._closed:  # closed while it started: close() may have missed it
                builder.kill()
            out, err = builder.communicate()
            if builder.returncode == 0:  # its last line: "codenav index ROOT: <summary>"
                summary = out.decode("utf-8", "replace").strip().rpartition(": ")[2]
                log.info("first map built: %s", summary)
                self.build.last_error = None
            else:
                tail = err.decode("utf-8", "replace").strip()[-600:]
                self.build.last_error = f"codenav index exited {builder.returncode}: {tail}"
                if not self._closed:
                    log.warning("building the first map failed: %s", self.build.last_error)
            finished()

        threading.Thread(target=wait, name="codenav-first-build", daemon=True).start()
        return True

    # --------------------------------------------------------- read-your-writes

    def changed_on_disk(self, paths: Collection[str] | None = None) -> list[str]:
        """Mapped files among ``paths`` (None: all of them) whose size or mtime differs from
        the map, or that are gone, by path."""
        reader = self.reader()
        known = (reader.file_signatures() if paths is None else
                 [(s.path, s.size, s.mtime_ns) for s in reader.file_stats(paths).values()])
        out = []
        root = str(self.root)
        stat = os.stat
        for path, size, mtime_ns in known:
            try:
                info = stat(f"{root}/{path}")  # plain strings: pathlib costs 3x the stat
            except OSError:
                out.append(path)
                continue
            if info.st_size != size or info.st_mtime_ns != mtime_ns:
                out.append(path)
        return sorted(out)

    def added_on_disk(self) -> list[str]:
        """Files a discovery would map that the map does not have yet (what ``--check``
        calls added)."""
        mapped = {path for path, _, _ in self.reader().file_signatures()}
        return sorted(c.path for c in discover(self.root).files if c.path not in mapped)

    def freshen(self, paths: Collection[str]) -> list[str]:
        """Re-index changed files among ``paths`` if that fits in a short time slice
        (docs/contract.md §2).

        Returns the files still stale: too many or too big to parse now, or the map is busy
        with another writer. Never waits on a running build.
        """
        changed = self.changed_on_disk(paths)
        if not changed:
            return []
        size = 0
        for path in changed:
            with suppress(OSError):
                size += os.stat(self.root / path).st_size
        if len(changed) > _FRESHEN_FILES or size > _FRESHEN_BYTES:
            return changed
        if not self._build_lock.acquire(blocking=False):
            return changed
        try:
            report = refresh_files(self.root, self.db_path, changed,
                                   busy_timeout=_FRESHEN_BUSY_S)
        finally:
            self._build_lock.release()
        return changed if report is None else []

    # ------------------------------------------------------------------ watching

    def start_watcher(self, *, wait: bool = True) -> None:
        """Follow edits under the root (``codenav mcp`` unless ``--no-watch``). Without
        ``wait``, returns before the OS watch is set up (seconds on a large tree): the
        servers start it after answering ``initialize``."""
        if self.watcher is None and self.refused is None and not self._closed:
            self.watcher = Watcher(self)
            self.watcher.start(wait=wait)

    # ---------------------------------------------------------- language servers

    @property
    def pool(self) -> LspPool | None:
        """The language-server pool (made on first use), or None with ``--lsp off`` or once
        the workspace is closed (a first build ending after its session must start none)."""
        if self.lsp == "off":
            return None
        with self._pool_lock:
            if self._closed:
                return None
            if self._pool is None:
                from codenav.lsp.pool import DEADLINE, LONG_DEADLINE, LspPool
                from codenav.lsp.servers import families

                short, long = self._lsp_deadlines or (DEADLINE, LONG_DEADLINE)
                self._pool = LspPool(self.root, table=families(self.root, self.trust),
                                     deadline=short, long_deadline=long)
            return self._pool

    @property
    def started_pool(self) -> LspPool | None:
        """The pool if something has used it already; never makes one."""
        return self._pool

    def start_servers(self) -> None:
        """Start, in the background, a server for every language the map holds, each with
        its most central file open: a server that loads its project only once a file is
        open (tsserver) starts loading at once, not at the first question."""
        pool = self.pool
        if pool is None or not self.lsp_background:
            return
        try:
            reader = self.reader()
            languages = reader.languages()
        except MapNotBuilt:
            return
        for code in languages:
            configs = pool.project_files(code)  # (files by centrality only when needed)
            ranked = reader.files_by_mass(code) if configs else []
            central = ranked[0] if ranked else reader.central_file(code)
            pool.ensure(code, central, one_file_per_project(self.root, ranked, configs, central))

    def close(self, grace: float = 3.0) -> None:
        """Stop the watcher, a first build and the language servers (``grace`` seconds for
        them to leave politely), then checkpoint the map's WAL into it."""
        with self._pool_lock:
            self._closed = True
            pool, self._pool = self._pool, None
        if self.watcher is not None:
            self.watcher.stop(timeout=min(grace, 1.0))
        builder = self._builder
        if builder is not None and builder.poll() is None:
            builder.kill()  # its map is marked building: the next run starts it again
            builder.wait()
        if pool is not None:
            pool.close(grace=grace)
        cached = getattr(self._local, "reader", None)
        if cached is not None:
            cached.conn.close()
            self._local.reader = None
        # A reader closing last leaves the WAL at its largest (it may not checkpoint); a
        # writer's checkpoint folds it into the map and truncates it. Skipped when another
        # process holds the map (its own exit does it).
        if self.refused is None and not self.build.running:
            db.checkpoint(self.db_path)
