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
import os
import sqlite3
import time
import uuid
from collections import Counter
from collections.abc import Callable, Collection, Iterator
from contextlib import nullcontext, suppress
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, NamedTuple

from codenav import __version__
from codenav.errors import MapDamaged, MapNotBuilt, MapRefused
from codenav.files import read_regular
from codenav.index.discover import (
    MAX_FILE_BYTES,
    Candidate,
    Discovery,
    consider,
    decodable,
    discover,
)
from codenav.index.extract import PARSE_DEADLINE_S, ParseTimeout, extract
from codenav.index.languages import by_code, language_of
from codenav.index.link import link, project_file_hashes
from codenav.index.modules import config_reader
from codenav.index.rank import compute_hubs
from codenav.index.workers import ParserPool, shared_pool
from codenav.model import FileFacts
from codenav.store import db, origin
from codenav.store.write import FileRow, FileRows, MapWriter, encode

__all__ = [
    "Freshness", "IndexReport", "Progress", "check", "file_hash", "index_tree", "read_facts",
    "refresh_files", "request_relink", "update_files",
]

# A file modified this close before it was read may change again without its mtime moving.
RACY_NS = 2_000_000_000
_BINARY_PROBE = 8192
_SHARED_POOL_BELOW = 48  # fewer files than this go to the process's warm parser process
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

class Job(NamedTuple):
    """One file for a parser process (pickled to it; ``path`` names it in messages)."""

    full: str  # absolute path
    path: str  # repo-relative
    lang: str  # the language discovery chose (by extension)
    size: int
    mtime_ns: int
    known: str  # the content hash already in the map, or ""
    file_id: int


class Same(NamedTuple):
    """A file whose content hash matched the map's: only its stat changes."""

    path: str
    size: int
    mtime_ns: int
    indexed_ns: int


def _work(job: Job) -> FileRows | Same:
    """In a parser process: one file's rows, or ``Same`` when its content is already mapped."""
    facts = read_facts(job)
    return facts if isinstance(facts, Same) else encode(facts, job.file_id)


def _failed(job: Job, status: str) -> FileRows:
    """The rows of a file its parser process did not answer for (``timeout``, ``crashed``)."""
    facts = FileFacts(job.path, job.lang, job.size, job.mtime_ns, "", status=status,
                      indexed_ns=time.time_ns())
    return encode(facts, job.file_id)


def read_facts(job: Job) -> FileFacts | Same:
    """Read one file and, unless its hash equals ``job.known``, extract its facts."""
    rel, size, mtime_ns, known = job.path, job.size, job.mtime_ns, job.known
    lang = by_code(job.lang)
    assert lang is not None
    indexed_ns = time.time_ns()
    try:
        data = read_regular(job.full, MAX_FILE_BYTES)
    except OSError:
        return FileFacts(rel, lang.code, size, mtime_ns, "", status="unreadable",
                         indexed_ns=indexed_ns)
    if len(data) > MAX_FILE_BYTES:
        return FileFacts(rel, lang.code, len(data), mtime_ns, "", status="too_large",
                         indexed_ns=indexed_ns)
    digest = file_hash(data)
    if known and digest == known:
        return Same(rel, len(data), mtime_ns, indexed_ns)
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


def _results(jobs: list[Job], workers: int) -> Iterator[FileRows | Same]:
    """Every job's rows, as parser processes finish them (never parsed in this process: a
    query tree-sitter cannot interrupt would stall it, see ``index/workers.py``). A few
    files go to this process's warm one-worker pool; more to a pool of ``workers`` for the
    run, in batches (fewer round trips)."""
    if workers <= 1 or len(jobs) < _SHARED_POOL_BELOW:
        yield from shared_pool().run(jobs, _failed)
        return
    pool = ParserPool(min(workers, len(jobs)))
    try:
        yield from pool.run(jobs, _failed, batch=max(1, min(16, len(jobs) // (workers * 8))))
    finally:
        pool.close()


def _default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


# ------------------------------------------------------------------------------ runs

def _is_current(row: FileRow, candidate: Candidate) -> bool:
    """Size and mtime match, and the mtime was old enough when read to be trusted."""
    size, mtime_ns, indexed_ns = row.size, row.mtime_ns, row.indexed_ns
    return (size == candidate.size and mtime_ns == candidate.mtime_ns
            and indexed_ns - mtime_ns >= RACY_NS)


def index_tree(root: Path, db_path: Path | None = None, *, full: bool = False,
               paths: Collection[str] | None = None, jobs: int | None = None,
               progress: Progress | None = None, progressive: bool = False,
               trust_map: bool = False) -> IndexReport:
    """Bring the map of ``root`` up to date.

    ``full`` re-parses every file, or with ``paths`` every file under those repo-relative
    files or folders; ``paths`` alone limits an incremental run to them. ``progressive``:
    a first build (no map yet, or an interrupted one) commits as it goes, marked
    ``building`` in meta, so that readers can answer from the definitions written so far;
    any other run stays one transaction. A map codenav did not write here is rebuilt from
    nothing unless ``trust_map`` (or ``$CODENAV_TRUST_MAP``) adopts it (``_claim``).
    """
    started = time.perf_counter()
    root = root.resolve()
    db_path = db.map_path(root, db_path)
    found = discover(root)
    report = _execute(root, db_path, found, started, full=full, paths=paths,
                      workers=jobs or _default_jobs(), progress=progress,
                      progressive=progressive,
                      trust_map=trust_map or origin.trust_map_from_env())
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
             progressive: bool = False, trust_map: bool = False) -> IndexReport | None:
    """One run; waits (up to ``busy_timeout``, None: as long as it takes) while another
    process builds the map's first version, whose commits as it goes would otherwise let
    this run in between them."""
    waited_until = None if busy_timeout is None else time.monotonic() + busy_timeout
    if paths is not None:  # a name that is not UTF-8 names nothing the map can hold
        paths = [path for path in paths if decodable(path)]
    repaired = False
    while True:
        try:
            return _execute_once(root, db_path, found, started, full=full, paths=paths,
                                 workers=workers, progress=progress, busy_timeout=busy_timeout,
                                 whole_link=whole_link, progressive=progressive,
                                 trust_map=trust_map)
        except (sqlite3.DatabaseError, MapDamaged, OSError) as exc:
            if db.is_full(exc):
                raise db.unwritable(db_path, exc) from exc
            if repaired or not db.is_damage(exc) or not whole_link:
                raise  # a quick refresh leaves a damaged map to a run that rebuilds it
            said = exc if isinstance(exc, MapDamaged) else db.damage(exc, db_path)
            log.warning("%s", " ".join(said.message.split()))
            db.remove_map(db_path)
            repaired = True
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


def _claim(conn: sqlite3.Connection, db_path: Path, trust_map: bool) -> str:
    """Whether the map in ``conn`` (inside the write transaction, nothing written yet) is
    ``ours`` (stamped here, see ``store/origin.py``), ``new`` (empty, or not stamped but
    trusted by the user and fit to serve: it gets stamped) or must be ``reset`` (rebuilt
    from nothing: it came from elsewhere, a repository perhaps). A trusted map that is unfit
    is refused (MapRefused: ``codenav index`` exits 2)."""
    version = db.schema_version(conn)
    if version == 0:
        return "new"
    try:
        known = db.read_meta(conn)
    except sqlite3.DatabaseError:
        known = {}
    if origin.stamped(known):
        return "ours"
    if not trust_map:
        log.info("the map at %s was not written by codenav on this machine: rebuilding it",
                 db_path)
        return "reset"
    if version != db.SCHEMA_VERSION:
        return "new"  # rebuilt by ensure_schema all the same
    why = origin.foreign_rows(conn, db.expected_schema())
    if why is not None:
        raise MapRefused(f"the map at {db_path} is not codenav's to serve: {why}",
                         hint="Delete it (the map is derived data) and run `codenav index`, "
                              "or leave out --trust-map to have it rebuilt.")
    return "new"


def _execute_once(root: Path, db_path: Path, found: Discovery, started: float, *, full: bool,
                  paths: Collection[str] | None, workers: int, progress: Progress | None,
                  busy_timeout: float | None, whole_link: bool,
                  progressive: bool, trust_map: bool = False) -> IndexReport | None:
    phases = {"discover": time.perf_counter() - started}
    conn = db.connect_writer(db_path, busy_timeout)
    try:
        with db.write_transaction(conn):
            if not whole_link and db.schema_version(conn) != db.SCHEMA_VERSION:
                return None
            claim = _claim(conn, db_path, trust_map)
            if claim == "reset" and not whole_link:
                return None  # a quick refresh leaves a map codenav did not write to a full run
            if claim == "ours" and whole_link:  # a run that can rebuild it checks the file
                problem = db.intact(conn)
                if problem is not None:
                    raise db.damage(sqlite3.DatabaseError(problem), db_path)
            rebuilt = db.ensure_schema(conn, db_path, reset=claim == "reset")
            writer = MapWriter(conn)
            known = {} if claim == "reset" else db.read_meta(conn)
            if claim != "ours" or rebuilt:  # stamped before the first commit a reader may see
                writer.set_meta(origin.new_stamp(known.get("map_id")))
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
        gone = [row.id for path, row in self.known.items()
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

    def _plan(self, candidates: list[Candidate]) -> list[Job]:
        """Jobs for the files that may have changed; unchanged and oversized ones are settled."""
        jobs: list[Job] = []
        for candidate in candidates:
            row = self.known.get(candidate.path)
            if row is not None and not self._force and _is_current(row, candidate):
                self.report.unchanged += 1
            elif candidate.size > MAX_FILE_BYTES:
                self._oversized(candidate, row)
            else:
                file_id = row.id if row else self.writer.new_file_id()
                known_hash = row.hash if row and not self._force else ""
                jobs.append(Job(str(self.root / candidate.path), candidate.path,
                                candidate.lang.code, candidate.size, candidate.mtime_ns,
                                known_hash, file_id))
        jobs.sort(key=lambda job: -job.size)  # big files first: better balance across workers
        return jobs

    def _oversized(self, candidate: Candidate, row: FileRow | None) -> None:
        if row is not None and row.status == "too_large" and row.size == candidate.size:
            self.writer.touch(row.id, candidate.size, candidate.mtime_ns, time.time_ns())
            self.report.unchanged += 1
            return
        self.files_changed |= row is None or row.status != "too_large"
        facts = FileFacts(candidate.path, candidate.lang.code, candidate.size,
                          candidate.mtime_ns, "", status="too_large", indexed_ns=time.time_ns())
        file_id = row.id if row else self.writer.new_file_id()
        self.writer.put(encode(facts, file_id), replacing=row is not None)

    def _write(self, jobs: list[Job]) -> None:
        report, writer = self.report, self.writer
        total = len(jobs)
        every = self._publish_every
        if every is not None:
            self._publish(0, total)  # the schema and the building mark, before any file
        for done, result in enumerate(_results(jobs, self.workers), 1):
            if every is not None and time.perf_counter() - self._published_at > every:
                self._publish(done - 1, total)
            if isinstance(result, Same):
                writer.touch(self.known[result.path].id, result.size, result.mtime_ns,
                             result.indexed_ns)
                report.unchanged += 1
            else:
                old = self.known.get(result.path)
                if old is None or (old.status, old.lang) != (result.status, result.file[2]):
                    self.files_changed = True
                if report.mode != "full":  # for the incremental link
                    self.new_names |= result.names() - (
                        writer.names_in(old.id) if old is not None else set())
                writer.put(result, replacing=old is not None)
                self.changed.add(int(result.file[0]))
                if old is None or old.surface != result.surface:
                    self.surface_changed = True
                    if old is not None:
                        self.reshaped.add(old.id)
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
    """Fold the WAL back into the map after a run; skipped while readers hold it (a short
    wait, not the writer's long one: a reader holding a transaction would otherwise keep
    the run from ending for minutes)."""
    with suppress(sqlite3.OperationalError):  # busy: the next run checkpoints again
        conn.execute("PRAGMA busy_timeout=300")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


# ----------------------------------------------------------------------------- check

@dataclass(slots=True)
class Freshness:
    """How the map compares with the tree (``codenav index --check``)."""

    built: bool
    untrusted: bool = False  # there is a map, but codenav did not write it here
    changed: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)

    @property
    def fresh(self) -> bool:
        return self.built and not (self.changed or self.added or self.removed)

    def to_dict(self) -> dict[str, Any]:
        return {"built": self.built, "untrusted": self.untrusted, "fresh": self.fresh,
                "changed": self.changed,
                "added": self.added, "removed": self.removed}


def check(root: Path, db_path: Path | None = None, *, trust_map: bool = False) -> Freshness:
    """Compare the map with the tree without writing anything. A map codenav did not write
    here counts as missing (``untrusted``) unless ``trust_map`` (or ``$CODENAV_TRUST_MAP``)."""
    root = root.resolve()
    db_path = db.map_path(root, db_path)
    try:
        conn = db.connect_reader(db_path)
    except MapNotBuilt:
        return Freshness(built=False)
    try:
        if not origin.stamped(db.read_meta(conn)):
            if not (trust_map or origin.trust_map_from_env()):
                return Freshness(built=False, untrusted=True)
            why = origin.foreign_rows(conn, db.expected_schema())
            if why is not None:
                raise MapRefused(f"the map at {db_path} is not codenav's to serve: {why}")
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
        return row.status != "too_large" or row.size != candidate.size
    try:
        data = read_regular(root / candidate.path, MAX_FILE_BYTES)
    except OSError:
        return True
    return not row.hash or file_hash(data) != row.hash

