"""Wall time and its summaries: one definition for every benchmark.

``Stopwatch`` reads ``time.perf_counter`` (monotonic, the finest clock) from when it was
made or last restarted. ``percentile`` is the nearest rank without interpolation,
``sorted(values)[min(n - 1, int(n * q))]``: a reported p95 is a time that was measured (for
100 values, the 96th smallest). ``summary`` is the (p50, p95, max) triple the tables print.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterable

__all__ = ["Stopwatch", "median", "percentile", "summary"]


class Stopwatch:
    """Seconds (or milliseconds) since it was made or last restarted."""

    __slots__ = ("started",)

    def __init__(self) -> None:
        self.started = time.perf_counter()

    def seconds(self) -> float:
        return time.perf_counter() - self.started

    def ms(self) -> float:
        return self.seconds() * 1000

    def restart(self) -> None:
        self.started = time.perf_counter()


def percentile(values: Iterable[float], q: float) -> float:
    """The nearest-rank ``q`` quantile (0 ≤ q ≤ 1) of ``values``, one of them."""
    ordered = sorted(values)
    if not ordered:
        raise ValueError("percentile of no values")
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def median(values: Iterable[float]) -> float:
    """The median (the mean of the middle two for an even count)."""
    return statistics.median(values)


def summary(values: Iterable[float]) -> tuple[float, float, float]:
    """(p50, p95, max) of ``values``."""
    ordered = sorted(values)
    return median(ordered), percentile(ordered, 0.95), ordered[-1]
