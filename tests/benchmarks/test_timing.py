"""benchmarks/timing.py: the one percentile every benchmark prints."""

from __future__ import annotations

import pytest

from benchmarks.timing import Stopwatch, median, percentile, summary


def test_percentile_is_the_nearest_rank_a_measured_value() -> None:
    values = [float(v) for v in range(100, 0, -1)]  # 1..100, unsorted
    assert percentile(values, 0.95) == 96.0
    assert percentile(values, 0.5) == 51.0
    assert percentile(values, 1.0) == 100.0
    assert percentile([3.0], 0.95) == 3.0
    with pytest.raises(ValueError):
        percentile([], 0.5)


def test_summary_is_p50_p95_max() -> None:
    assert summary([4.0, 1.0, 3.0, 2.0]) == (2.5, 4.0, 4.0)
    assert median([1, 3, 2]) == 2


def test_stopwatch_counts_up_from_its_start() -> None:
    clock = Stopwatch()
    first = clock.seconds()
    assert 0 <= first <= clock.seconds()
    clock.restart()
    assert clock.ms() >= 0
