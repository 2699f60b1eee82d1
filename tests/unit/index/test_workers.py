"""Parser processes: a file that hangs, loops in C, eats memory or crashes its worker costs
that file (``timeout`` or ``crashed``), never the run, and no worker outlives its pool."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

from codenav.index.workers import GRACE_S, ParserPool
from tests.unit.index.parser_work import Job

WORK = "tests.unit.index.parser_work:work"
BUDGET = 0.3  # the hard deadline is this plus GRACE_S


def failed(job: Job, status: str) -> tuple[str, str, str]:
    return ("failed", job.path, status)


@pytest.fixture
def pool() -> Any:
    made = ParserPool(2, work=WORK, budget=BUDGET)
    yield made
    made.close()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is not alive
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return False


def test_every_job_is_answered_once_whatever_the_batching(pool: ParserPool) -> None:
    jobs = [Job("ok", f"f{i}", i) for i in range(40)]
    for batch in (1, 7):
        results = list(pool.run(jobs, failed, batch=batch))
        assert sorted(name for _, name, _ in results) == sorted(name for _, name, _ in jobs)
    assert len({pid for _, _, pid in results}) == 2  # both workers, kept across runs


@pytest.mark.parametrize("what", ["hang", "spin", "hog"])
def test_a_file_past_its_deadline_or_memory_is_a_timeout_and_the_rest_goes_on(
        pool: ParserPool, what: str) -> None:
    jobs = [Job("ok", "before", 0), Job(what, "bad", 0),
            *(Job("ok", f"after{i}", i) for i in range(5))]
    started = time.monotonic()
    results = list(pool.run(jobs, failed, batch=3))
    took = time.monotonic() - started
    assert ("failed", "bad", "timeout") in results
    assert sorted(r[1] for r in results if r[0] == "ok") == \
        ["after0", "after1", "after2", "after3", "after4", "before"]
    assert took < 4 * (BUDGET + GRACE_S) + 5  # a generous bound: the point is it ends


def test_a_crash_is_tried_again_alone_then_mapped_crashed(pool: ParserPool,
                                                          tmp_path: Path) -> None:
    jobs = [Job("segfault", "crash", 0), Job("segfault-once", "flaky", str(tmp_path / "m")),
            *(Job("ok", f"f{i}", i) for i in range(6))]
    results = list(pool.run(jobs, failed, batch=4))
    assert ("failed", "crash", "crashed") in results
    assert any(r[:2] == ("segfault-once", "flaky") for r in results)  # the second try
    assert len(results) == len(jobs)


def test_an_abandoned_run_ends_its_busy_workers_and_the_next_run_works(
        pool: ParserPool) -> None:
    run = pool.run([Job("hang", "slow", 0), Job("ok", "quick", 0)], failed)
    first = next(run)
    assert first[1] == "quick"
    busy = [w.proc.pid for w in pool._idle]  # the quick one's worker went back idle
    run.close()  # the hanging one's worker is ended, not left to answer the next run
    assert [r[1] for r in pool.run([Job("ok", "next", 0)], failed)] == ["next"]
    assert all(_alive(pid) for pid in busy)


def test_closing_the_pool_leaves_no_process(tmp_path: Path) -> None:
    pool = ParserPool(2, work=WORK, budget=BUDGET)
    pids = {pid for _, _, pid in pool.run([Job("ok", f"f{i}", i) for i in range(8)], failed)}
    assert pids and all(_alive(pid) for pid in pids)
    pool.close()
    assert not any(_alive(pid) for pid in pids)


def test_a_file_whose_work_raises_is_crashed_and_its_process_lives_on(
        pool: ParserPool, caplog: pytest.LogCaptureFixture) -> None:
    # attrs' tests/test_slots.py raised in the binder: the exception killed the parser
    # process, the file was parsed again alone, and the log blamed a signal ("exit -9")
    jobs = [Job("ok", "before", 0), Job("raise", "bad", 0), Job("ok", "after", 1)]
    results = list(pool.run(jobs, failed, batch=3))
    assert ("failed", "bad", "crashed") in results
    pids = {r[2] for r in results if r[0] == "ok"}
    assert len(pids) == 1 and all(_alive(pid) for pid in pids)  # one worker did all three
    assert "not enough values to unpack (bad)" in caplog.text
    assert "a bug in codenav" in caplog.text
