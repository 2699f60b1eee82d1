"""The indexing run: discover → decide what changed → extract in workers → write → link.

Incremental by default: a file whose size and mtime match the map is unchanged; one whose
stat differs (or was written too close to its last read to trust its mtime, the racy-git
case) is hashed, and only a changed hash is parsed again. A map copied from another checkout
of the same commit is therefore reused as is: paths are repo-relative and hashes match.

All writes of a run happen in one ``BEGIN IMMEDIATE`` transaction: readers keep seeing the
previous map until the new one is complete, and a killed run leaves the previous map intact.
"""

from __future__ import annotations

import hashlib
import json
import logging
import multiprocessing
import os
import sqlite3
import stat
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Collection, Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import nullcontext, suppress
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from codenav import __version__
from codenav.errors import MapNotBuilt
from codenav.index.discover import MAX_FILE_BYTES, Candidate, Discovery, consider, discover
from codenav.index.extract import PARSE_DEADLINE_S, ParseTimeout, extract
from codenav.index.languages import by_extension, language_of
from codenav.index.link import link, project_file_hashes
from codenav.index.modules import config_reader
from codenav.index.rank import compute_hubs
from codenav.lifetime import die_with_parent
from codenav.model import FileFacts
from codenav.store import db
from codenav.store.write import FileRow, FileRows, MapWriter, encode

__all__ = [
    "Freshness", "IndexReport", "Progress", "check", "file_hash", "index_tree", "read_facts",
    "refresh_files", "request_relink", "update_files",
]

# A file modified this close before it was read may change again without its mtime moving.
RACY_NS = 2_000_000_000
_BINARY_PROBE = 8192
_IN_PROCESS_BELOW = 48  # fewer files than this are parsed without starting workers
_PUBLISH_EVERY_S = 0.25  # a first build published as it grows: commits this often
# indexes a map still being built keeps, for the tools that answer from it meanwhile
# (search by name and word, outlines, members); the rest are built once at the end
_SEARCHED_INDEXES = ("nodes_name", "nodes_lname", "nodes_file", "nodes_parent", "words_word")
log = logging.getLogger("codenav.index")
# reported as failures, not just skips
FAILED_STATUSES = frozenset({"unreadable", "timeout", "crashed"})

Progress = Callable[[int, int], None]


@dataclass(slots=True)
class IndexReport:
    """What one run did; ``summary()`` is the final line ``codenav index`` prints."""

    root: str
    db: str
    mode: str  # full | incremental
    parsed: int = 0
    unchanged: int = 0
    removed: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    skipped_paths: dict[str, list[str]] = field(default_factory=dict)  # reason -> some paths
    failed: list[tuple[str, str]] = field(default_factory=list)  # (path, status)
    files: int = 0
    nodes: int = 0
    refs: int = 0
    parse_errors: int = 0
    seconds: float = 0.0
    phases: dict[str, float] = field(default_factory=dict)  # seconds per phase

    def summary(self) -> str:
        skipped = sum(self.skipped.values())
        return (f"{self.parsed} parsed, {self.unchanged} unchanged, {self.removed} removed, "
                f"{skipped} skipped · {self.nodes:,} nodes · {self.refs:,} refs · "
                f"{self.seconds:.2f} s")

    def to_dict(self) -> dict[str, Any]:
        return {
            "root": self.root, "db": self.db, "mode": self.mode,
            "parsed": self.parsed, "unchanged": self.unchanged, "removed": self.removed,
            "skipped": sum(self.skipped.values()), "skippedBy": dict(sorted(self.skipped.items())),
            "skippedFiles": dict(sorted(self.skipped_paths.items())),
            "failed": [{"file": path, "status": status} for path, status in self.failed],
            "files": self.files, "nodes": self.nodes, "refs": self.refs,
            "parseErrors": self.parse_errors, "seconds": round(self.seconds, 3),
            "phases": {name: round(value, 3) for name, value in self.phases.items()},
        }


def file_hash(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


# ---------------------------------------------------------------------------- workers

# (absolute path, repo-relative path, size, mtime_ns, hash already in the map or "", file id)
_Job = tuple[str, str, int, int, str, int]
# A file whose content hash matched the map: (path, size, mtime_ns, indexed_ns).
_Same = tuple[str, int, int, int]


def _work(job: _Job) -> FileRows | _Same:
    """In a parser process: one file's rows, or _Same when its content is already mapped."""
    facts = read_facts(*job[:5])
    return facts if isinstance(facts, tuple) else encode(facts, job[5])


def _work_many(jobs: list[_Job]) -> list[FileRows | _Same]:
    return [_work(job) for job in jobs]


def _batches(jobs: list[_Job], workers: int) -> list[list[_Job]]:
    """Jobs in the batches workers take: one file each at first, so that the first rows
    arrive (and a first build is published) at once, then up to 16 files (fewer round
    trips)."""
    size = max(1, min(16, len(jobs) // (workers * 8)))
    head = min(len(jobs), workers * 2)
    return [[job] for job in jobs[:head]] + [jobs[i : i + size]
                                            for i in range(head, len(jobs), size)]


def read_facts(full: str, rel: str, size: int, mtime_ns: int,
               known: str = "") -> FileFacts | _Same:
    """Read one file and, unless its hash equals ``known``, extract its facts."""
    lang = by_extension(rel)
    assert lang is not None
    indexed_ns = time.time_ns()
    try:
        data = _read_regular(full)
    except OSError:
        return FileFacts(rel, lang.code, size, mtime_ns, "", status="unreadable",
                         indexed_ns=indexed_ns)
    if len(data) > MAX_FILE_BYTES:
        return FileFacts(rel, lang.code, len(data), mtime_ns, "", status="too_large",
                         indexed_ns=indexed_ns)
    digest = file_hash(data)
    if known and digest == known:
        return (rel, len(data), mtime_ns, indexed_ns)
    lang = language_of(rel, data) or lang  # a .h header written in C++ is C++
    facts = FileFacts(rel, lang.code, len(data), mtime_ns, digest, indexed_ns=indexed_ns)
    if b"\0" in data[:_BINARY_PROBE]:
        facts.status = "binary"
        return facts
    started = time.perf_counter()
    try:
        found = extract(lang, data, rel, file_budget())
    except ParseTimeout:  # flagged and reported as failed; the run goes on
        facts.status = "timeout"
        facts.parse_ms = (time.perf_counter() - started) * 1000
        return facts
    facts.parse_ms = (time.perf_counter() - started) * 1000
    if found.timed_out:  # mapped with what was found in time, and flagged
        facts.status = "timeout"
    facts.lines, facts.doc = found.lines, found.doc
    facts.defs, facts.refs, facts.imports = found.defs, found.refs, found.imports
    facts.problems, facts.parse_errors = found.problems, found.problem_count
    facts.surface, facts.regions = found.surface, found.regions
    return facts


def file_budget() -> float:
    """Seconds one file's extraction may take: ``$CODENAV_FILE_BUDGET`` (the user's, never
    the repository's), else 2; at least 0.1."""
    try:
        return max(0.1, float(os.environ.get("CODENAV_FILE_BUDGET", PARSE_DEADLINE_S)))
    except ValueError:
        return PARSE_DEADLINE_S


def _read_regular(full: str) -> bytes:
    """Up to one byte more than ``MAX_FILE_BYTES`` of a regular file. Opened without blocking
    and checked after opening: a file replaced by a FIFO since it was listed would otherwise
    block the run for good (OSError when it is not a regular file)."""
    fd = os.open(full, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{full} is not a regular file")
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb", closefd=False) as handle:
            return handle.read(MAX_FILE_BYTES + 1)
    finally:
        os.close(fd)


def _results(jobs: list[_Job], workers: int) -> Iterator[FileRows | _Same]:
    if workers <= 1 or len(jobs) < _IN_PROCESS_BELOW:
        yield from map(_work, jobs)
        return
    # fork is cheap and safe from a single-threaded CLI; a threaded host (the MCP server)
    # gets forkserver so no worker inherits another thread's locks.
    method = "fork" if threading.active_count() == 1 and os.name == "posix" else "spawn"
    if method == "spawn" and "forkserver" in multiprocessing.get_all_start_methods():
        method = "forkserver"
    context = multiprocessing.get_context(method)
    if method == "forkserver":  # workers fork from a server that imported the parser once
        context.set_forkserver_preload([__name__])
    remaining = jobs
    # A worker that dies under the run (killed by the OOM killer or a signal, or crashed by a
    # file that crashes the parser) breaks the pool: the first file it had not answered for
    # is parsed alone in a process of its own — mapped as `crashed` if that dies too — and
    # the rest by a new pool. Never in this process: a file that crashed a worker would
    # crash the run.
    while remaining:
        done = 0
        try:
            with ProcessPoolExecutor(workers, mp_context=context,
                                     initializer=die_with_parent) as pool:
                for batch in pool.map(_work_many, _batches(remaining, workers)):
                    for result in batch:
                        done += 1
                        yield result
            return
        except BrokenProcessPool:
            remaining = remaining[done:]
            log.warning("a parser process died; %d file(s) are parsed again, %s alone",
                        len(remaining), remaining[0][1])
            yield _alone(remaining[0], context)
            remaining = remaining[1:]


def _alone(job: _Job, context: Any) -> FileRows | _Same:
    """One file parsed in a process of its own; mapped as ``crashed`` when that dies."""
    try:
        with ProcessPoolExecutor(1, mp_context=context, initializer=die_with_parent) as pool:
            return pool.submit(_work, job).result()
    except BrokenProcessPool:
        _full, rel, size, mtime_ns, _known, file_id = job
        log.warning("%s crashed the parser; it is mapped as crashed", rel)
        lang = by_extension(rel)
        facts = FileFacts(rel, lang.code if lang else "", size, mtime_ns, "",
                          status="crashed", indexed_ns=time.time_ns())
        return encode(facts, file_id)


def _default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


# ------------------------------------------------------------------------------ runs

def _is_current(row: FileRow, candidate: Candidate) -> bool:
    """Size and mtime match, and the mtime was old enough when read to be trusted."""
    size, mtime_ns, indexed_ns = row[1], row[2], row[5]
    return (size == candidate.size and mtime_ns == candidate.mtime_ns
            and indexed_ns - mtime_ns >= RACY_NS)


def index_tree(root: Path, db_path: Path | None = None, *, full: bool = False,
               paths: Collection[str] | None = None, jobs: int | None = None,
               progress: Progress | None = None, progressive: bool = False) -> IndexReport:
    """Bring the map of ``root`` up to date.

    ``full`` re-parses every file, or with ``paths`` every file under those repo-relative
    files or folders; ``paths`` alone limits an incremental run to them. ``progressive``:
    a first build (no map yet, or an interrupted one) commits as it goes, marked
    ``building`` in meta, so that readers can answer from the definitions written so far;
    any other run stays one transaction.
    """
    started = time.perf_counter()
    root = root.resolve()
    db_path = db.map_path(root, db_path)
    found = discover(root)
    report = _execute(root, db_path, found, started, full=full, paths=paths,
                      workers=jobs or _default_jobs(), progress=progress,
                      progressive=progressive)
    assert report is not None  # the long busy timeout waits for other writers
    return report


def refresh_files(root: Path, db_path: Path, paths: Collection[str], *,
                  busy_timeout: float) -> IndexReport | None:
    """Re-index just these files (an answer reading its writes), in this process.

    Skips discovery and a whole-map relink: cross-file references into a file whose
    exported names changed are re-resolved, the rest waits for the next full run
    (``meta.relink_pending``). None when another writer holds the map longer than
    ``busy_timeout`` seconds, or the map is missing or from another schema.
    """
    started = time.perf_counter()
    found = Discovery()
    for rel in paths:
        consider(root, rel, found)
    try:
        return _execute(root, db_path, found, started, full=False, paths=paths, workers=1,
                        progress=None, busy_timeout=busy_timeout, whole_link=False)
    except sqlite3.OperationalError:
        return None  # locked by another writer


def update_files(root: Path, db_path: Path, paths: Collection[str]) -> IndexReport | None:
    """Re-index these changed, added or deleted files for the file watcher: like
    ``refresh_files`` (no discovery, no whole relink: ``meta.relink_pending`` asks for one
    later), but waiting for another writer as long as ``codenav index`` would."""
    started = time.perf_counter()
    found = Discovery()
    for rel in paths:
        consider(root, rel, found)
    return _execute(root, db_path, found, started, full=False, paths=paths,
                    workers=_default_jobs(), progress=None, whole_link=False)


def _project_files_changed(root: Path, conn: sqlite3.Connection) -> bool:
    """Whether a project file the module systems read at the last whole link (tsconfig.json,
    go.mod …) changed or vanished since: how imports resolve may have changed."""
    row = conn.execute("SELECT value FROM meta WHERE key = 'project_files'").fetchone()
    if row is None or not row[0]:
        return False
    try:
        recorded = json.loads(row[0])
    except ValueError:
        return True
    return bool(recorded) and project_file_hashes(config_reader(root), recorded) != recorded


def request_relink(db_path: Path) -> None:
    """Ask the next run to link the whole map again, e.g. because a project file that says
    how imports resolve (tsconfig.json, go.mod …) changed; no file is parsed for it."""
    conn = db.connect_writer(db_path, None)
    try:
        with db.write_transaction(conn):
            MapWriter(conn).set_meta({"relink_pending": "1"})
    finally:
        conn.close()


class _BuilderBusy(Exception):
    """Another process is building this map's first version, committing as it goes."""


_BUILDER_POLL_S = 0.2


def _execute(root: Path, db_path: Path, found: Discovery, started: float, *, full: bool,
             paths: Collection[str] | None, workers: int, progress: Progress | None,
             busy_timeout: float | None = None, whole_link: bool = True,
             progressive: bool = False) -> IndexReport | None:
    """One run; waits (up to ``busy_timeout``, None: as long as it takes) while another
    process builds the map's first version, whose commits as it goes would otherwise let
    this run in between them."""
    waited_until = None if busy_timeout is None else time.monotonic() + busy_timeout
    while True:
        try:
            return _execute_once(root, db_path, found, started, full=full, paths=paths,
                                 workers=workers, progress=progress, busy_timeout=busy_timeout,
                                 whole_link=whole_link, progressive=progressive)
        except _BuilderBusy:
            if waited_until is not None and time.monotonic() + _BUILDER_POLL_S > waited_until:
                return None  # a quick refresh does not wait out a first build
            time.sleep(_BUILDER_POLL_S)


def builder_alive(meta: dict[str, str]) -> bool:
    """Whether the map's meta says a first build is under way in a live process (else an
    interrupted one, or none)."""
    if meta.get("building") != "1":
        return False
    try:
        pid = int(meta.get("building_pid", ""))
        if pid <= 0:
            return False
        os.kill(pid, 0)
    except (ValueError, ProcessLookupError):
        return False
    except PermissionError:  # alive, another user's
        return True
    return True


def _execute_once(root: Path, db_path: Path, found: Discovery, started: float, *, full: bool,
                  paths: Collection[str] | None, workers: int, progress: Progress | None,
                  busy_timeout: float | None, whole_link: bool,
                  progressive: bool) -> IndexReport | None:
    phases = {"discover": time.perf_counter() - started}
    conn = db.connect_writer(db_path, busy_timeout)
    try:
        with db.write_transaction(conn):
            if not whole_link and db.schema_version(conn) != db.SCHEMA_VERSION:
                return None
            rebuilt = db.ensure_schema(conn, db_path)
            writer = MapWriter(conn)
            known = db.read_meta(conn)
            building = known.get("building")
            if known.get("building_pid") != str(os.getpid()) and builder_alive(known):
                raise _BuilderBusy
            unfinished = building in ("1", "interrupted")  # a first build cut short
            everything = rebuilt or unfinished or (full and paths is None)
            report = IndexReport(str(root), str(db_path),
                                 "full" if everything else "incremental", phases=phases)
            limited = None if everything else paths
            first = rebuilt or unfinished or not writer.has_files()
            run = _Run(root, writer, report, workers, progress, whole_link, limited)
            if limited is not None:
                run.limit_to(limited, force=full)
            if progressive and everything and first:
                run.publish_as_it_goes()
            try:
                run.apply(found)
            except BaseException:
                if run.published:  # what was committed is a part: say so, for readers
                    with suppress(sqlite3.Error):
                        conn.execute("ROLLBACK")
                        conn.execute("BEGIN IMMEDIATE")
                        writer.set_meta({"building": "interrupted"})
                        conn.execute("COMMIT")
                        conn.execute("BEGIN")  # for the context manager's own rollback
                raise
            mark = time.perf_counter()
            report.seconds = mark - started
            meta = {"schema": str(db.SCHEMA_VERSION), "codenav": __version__,
                    "root": str(root)}
            if whole_link:
                meta.update({
                    "last_build": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                    "last_build_ms": str(round(report.seconds * 1000)),
                    "last_build_mode": report.mode,
                    "counts": json.dumps(run.counts),
                })
            if run.relink_pending is not None:
                meta["relink_pending"] = "1" if run.relink_pending else "0"
            if run.published or unfinished:
                meta.update(building="0", building_pid="", building_progress="")
            run.writer.set_meta(meta)
        phases["commit"] = time.perf_counter() - mark
        mark = time.perf_counter()
        if whole_link:
            _checkpoint(conn)
        phases["checkpoint"] = time.perf_counter() - mark
    finally:
        conn.close()
    report.seconds = time.perf_counter() - started
    return report


class _Run:
    """One indexing run inside the write transaction."""

    def __init__(self, root: Path, writer: MapWriter, report: IndexReport, workers: int,
                 progress: Progress | None, whole_link: bool = True,
                 paths: Collection[str] | None = None) -> None:
        self.root = root
        self.whole_link = whole_link  # may relink the whole map when exports changed
        self.relink_pending: bool | None = None  # None: unchanged
        self.writer = writer
        self.report = report
        self.workers = workers
        self.progress = progress
        if report.mode == "full":
            writer.clear()
        self.known = writer.known_files(paths)  # a run limited to paths reads only theirs
        self._selected: Callable[[str], bool] = lambda _path: True
        self._force = False
        self.changed: set[int] = set()  # ids of files written this run
        self.surface_changed = False  # a file appeared, vanished, or changed what it exports
        # a file appeared or vanished, or changed language or status: which files the
        # linker resolves into changed (``files_epoch``)
        self.files_changed = report.mode == "full"
        self.published = False  # parts of this run were committed (a first build)
        self._publish_every: float | None = None
        self._published_at = 0.0
        self.new_names: set[str] = set()  # names the changed files define that they did not

    def publish_as_it_goes(self) -> None:
        """Commit what is written every so often, marked as a build under way: a first
        build, which readers may answer from while it grows (definitions at once,
        references across files once linked)."""
        self._publish_every = _PUBLISH_EVERY_S
        self.writer.set_meta({"building": "1", "building_pid": str(os.getpid())})
        # one checkpoint when done, not one per commit
        self.writer.conn.execute("PRAGMA wal_autocheckpoint=0")

    def _publish(self, done: int, total: int) -> None:
        conn = self.writer.conn
        self.writer.set_meta({"building_progress": f"{done}/{total}"})
        conn.execute("COMMIT")
        conn.execute("BEGIN IMMEDIATE")
        self.published = True
        self._published_at = time.perf_counter()

    def limit_to(self, paths: Collection[str], force: bool) -> None:
        """Only look at these files or folders (repo-relative); ``force`` re-parses them."""
        wanted = {p.strip("/") for p in paths}
        if "" in wanted or "." in wanted:
            self._force = force
            return
        prefixes = tuple(f"{p}/" for p in wanted)
        self._selected = lambda path: path in wanted or path.startswith(prefixes)
        self._force = force

    def apply(self, found: Discovery) -> None:
        report, writer = self.report, self.writer
        candidates = [c for c in found.files if self._selected(c.path)]
        report.skipped.update(found.skipped)
        for reason, paths in found.skipped_paths.items():
            report.skipped_paths.setdefault(reason, []).extend(paths)
        present = {c.path for c in found.files}
        gone = [row[0] for path, row in self.known.items()
                if path not in present and self._selected(path)]
        writer.remove(gone)
        report.removed = len(gone)
        self.surface_changed = bool(gone)
        self.files_changed |= bool(gone)
        self.reshaped: set[int] = set(gone)  # files whose node ids others may point into
        jobs = self._plan(candidates)
        big = report.mode == "full" or len(jobs) > max(500, len(self.known) // 2)
        mark = time.perf_counter()
        # A map published as it grows keeps what searches and outlines read indexed.
        kept = _SEARCHED_INDEXES if self._publish_every is not None else ()
        with writer.bulk(keep=kept) if big else nullcontext():
            self._write(jobs)
            report.phases["extract+write"] = time.perf_counter() - mark
            mark = time.perf_counter()
            if self.files_changed or writer.meta("files_epoch") is None:
                # before linking: the linker keys what it learns of the files by it
                writer.set_meta({"files_epoch": uuid.uuid4().hex})
            pending = self.whole_link and (self.writer.relink_pending()
                                           or _project_files_changed(self.root, writer.conn))
            self._link(everything=big or pending or (self.surface_changed and self.whole_link))
        report.phases["indexes"] = time.perf_counter() - mark - report.phases.get("link", 0.0) \
            - report.phases.get("hubs", 0.0)
        if self.whole_link:
            self.counts = writer.counts()
            report.files, report.nodes, report.refs = (
                self.counts["files"], self.counts["nodes"], self.counts["refs"])

    def _link(self, everything: bool) -> None:
        """Resolve cross-file references; rank hubs again when the graph's shape changed."""
        if not everything and not self.changed and not self.reshaped:
            return
        mark = time.perf_counter()
        if everything:
            link(self.writer.conn, self.root.name, root=self.root)
            self.relink_pending = False
        else:
            link(self.writer.conn, self.root.name, self.changed, self.reshaped, root=self.root,
                 new_names=self.new_names)
            if self.surface_changed:
                self.relink_pending = True
        self.report.phases["link"] = time.perf_counter() - mark
        if everything:
            mark = time.perf_counter()
            compute_hubs(self.writer.conn)
            self.report.phases["hubs"] = time.perf_counter() - mark

    def _plan(self, candidates: list[Candidate]) -> list[_Job]:
        """Jobs for the files that may have changed; unchanged and oversized ones are settled."""
        jobs: list[_Job] = []
        for candidate in candidates:
            row = self.known.get(candidate.path)
            if row is not None and not self._force and _is_current(row, candidate):
                self.report.unchanged += 1
            elif candidate.size > MAX_FILE_BYTES:
                self._oversized(candidate, row)
            else:
                file_id = row[0] if row else self.writer.new_file_id()
                known_hash = row[3] if row and not self._force else ""
                jobs.append((str(self.root / candidate.path), candidate.path, candidate.size,
                             candidate.mtime_ns, known_hash, file_id))
        jobs.sort(key=lambda job: -job[2])  # big files first: better balance across workers
        return jobs

    def _oversized(self, candidate: Candidate, row: FileRow | None) -> None:
        if row is not None and row[4] == "too_large" and row[1] == candidate.size:
            self.writer.touch(row[0], candidate.size, candidate.mtime_ns, time.time_ns())
            self.report.unchanged += 1
            return
        self.files_changed |= row is None or row[4] != "too_large"
        facts = FileFacts(candidate.path, candidate.lang.code, candidate.size,
                          candidate.mtime_ns, "", status="too_large", indexed_ns=time.time_ns())
        file_id = row[0] if row else self.writer.new_file_id()
        self.writer.put(encode(facts, file_id), replacing=row is not None)

    def _write(self, jobs: list[_Job]) -> None:
        report, writer = self.report, self.writer
        total = len(jobs)
        every = self._publish_every
        if every is not None:
            self._publish(0, total)  # the schema and the building mark, before any file
        for done, result in enumerate(_results(jobs, self.workers), 1):
            if every is not None and time.perf_counter() - self._published_at > every:
                self._publish(done - 1, total)
            if isinstance(result, tuple):
                path, size, mtime_ns, indexed_ns = result
                writer.touch(self.known[path][0], size, mtime_ns, indexed_ns)
                report.unchanged += 1
            else:
                old = self.known.get(result.path)
                if old is None or (old[4], old[7]) != (result.status, result.file[2]):
                    self.files_changed = True
                if report.mode != "full":  # for the incremental link
                    self.new_names |= result.names() - (
                        writer.names_in(old[0]) if old is not None else set())
                writer.put(result, replacing=old is not None)
                self.changed.add(int(result.file[0]))
                if old is None or old[6] != result.surface:
                    self.surface_changed = True
                    if old is not None:
                        self.reshaped.add(old[0])
                if result.status == "ok":
                    report.parsed += 1
                    report.parse_errors += result.parse_errors
                else:
                    report.skipped[result.status] += 1
                    if result.status in FAILED_STATUSES:
                        report.failed.append((result.path, result.status))
            if self.progress is not None:
                self.progress(done, total)


def _checkpoint(conn: sqlite3.Connection) -> None:
    """Fold the WAL back into the map after a run; skipped while readers hold it."""
    with suppress(sqlite3.OperationalError):  # busy: the next run checkpoints again
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


# ----------------------------------------------------------------------------- check

@dataclass(slots=True)
class Freshness:
    """How the map compares with the tree (``codenav index --check``)."""

    built: bool
    changed: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)

    @property
    def fresh(self) -> bool:
        return self.built and not (self.changed or self.added or self.removed)

    def to_dict(self) -> dict[str, Any]:
        return {"built": self.built, "fresh": self.fresh, "changed": self.changed,
                "added": self.added, "removed": self.removed}


def check(root: Path, db_path: Path | None = None) -> Freshness:
    """Compare the map with the tree without writing anything."""
    root = root.resolve()
    db_path = db.map_path(root, db_path)
    try:
        conn = db.connect_reader(db_path)
    except MapNotBuilt:
        return Freshness(built=False)
    try:
        rows = MapWriter.known_rows(conn)
    finally:
        conn.close()
    out = Freshness(built=True)
    found = discover(root)
    present = set()
    for candidate in found.files:
        present.add(candidate.path)
        row = rows.get(candidate.path)
        if row is None:
            out.added.append(candidate.path)
        elif not _is_current(row, candidate) and _content_changed(root, candidate, row):
            out.changed.append(candidate.path)
    out.removed = sorted(set(rows) - present)
    return out


def _content_changed(root: Path, candidate: Candidate, row: FileRow) -> bool:
    if candidate.size > MAX_FILE_BYTES:
        return row[4] != "too_large" or row[1] != candidate.size
    try:
        data = (root / candidate.path).read_bytes()
    except OSError:
        return True
    return not row[3] or file_hash(data) != row[3]

