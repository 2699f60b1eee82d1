"""Where one process's extraction time goes, phase by phase, beside a bare parse.

    python -m benchmarks.bench_extract [--corpus django|rxjs] [--repeat 3]

Runs ``codenav.index.extract.extract`` over every source file of the corpus in this process
(no workers, no database), timing its phases — tree-sitter's parse and its two query passes
(C), then codenav's own Python steps — and prints them against a bare tree-sitter parse of
the same bytes. This is the evidence behind the cold-index bar: the C part alone sets a
floor under ``codenav index --full``.
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import codenav.index.extract as extraction
from benchmarks.corpora import CORPORA, fetch, source_files
from benchmarks.timing import Stopwatch
from codenav.index.languages import by_extension, queries

# codenav's own steps inside extract(), timed by wrapping the module's functions
_STEPS = ("_resolve_defs", "_bind", "_collect_refs", "_collect_imports", "_surface")


@contextmanager
def _timed(totals: dict[str, float]) -> Iterator[None]:
    """Wrap the parser, the query cursor and the steps of extract() with timers."""
    saved: dict[str, Any] = {name: getattr(extraction, name)
                             for name in (*_STEPS, "_capture", "QueryCursor", "_Deadlined")}

    def clock(name: str, call: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            clock = Stopwatch()
            try:
                return call(*args, **kwargs)
            finally:
                totals[name] += clock.seconds()
        return timed

    cursor, parser = saved["QueryCursor"], saved["_Deadlined"]

    class Cursor:
        def __init__(self, query: Any) -> None:
            self._cursor = cursor(query)

        def captures(self, node: Any) -> Any:
            return clock("C: identifier query (captures)", self._cursor.captures)(node)

        def matches(self, node: Any) -> Any:
            return clock("C: definitions query (matches)", self._cursor.matches)(node)

        def set_byte_range(self, start: int, end: int) -> None:
            self._cursor.set_byte_range(start, end)

        def set_max_start_depth(self, depth: int) -> None:
            self._cursor.set_max_start_depth(depth)

    class Parser:
        def __init__(self, *args: Any) -> None:
            self._parser = parser(*args)
            self.deadline = self._parser.deadline

        def parse(self, data: bytes) -> Any:
            return clock("C: parse (with deadline)", self._parser.parse)(data)

    setattr(extraction, "QueryCursor", Cursor)  # noqa: B010 - replaced for the run only
    setattr(extraction, "_Deadlined", Parser)  # noqa: B010
    for name in _STEPS:
        setattr(extraction, name, clock(f"py: {name}", saved[name]))
    extraction._capture = clock("py: _capture (incl. definitions query)", saved["_capture"])
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(extraction, name, value)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default="django", choices=sorted(CORPORA))
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    corpus = CORPORA[args.corpus]
    root = fetch(corpus)
    files = [(str(p.relative_to(root)), p.read_bytes()) for p in
             source_files(root, corpus.suffixes)]
    langs = {rel: by_extension(rel) for rel, _ in files}
    for known in {lang for lang in langs.values() if lang is not None}:
        queries(known)  # compiled outside the clock

    bare = float("inf")
    for _ in range(args.repeat):
        clock = Stopwatch()
        for rel, data in files:
            language = langs[rel]
            if language is not None:
                queries(language).parser.parse(data)
        bare = min(bare, clock.seconds())

    best: dict[str, float] | None = None
    for _ in range(args.repeat):
        totals: dict[str, float] = defaultdict(float)
        with _timed(totals):
            clock = Stopwatch()
            for rel, data in files:
                language = langs[rel]
                if language is not None:
                    extraction.extract(language, data, rel)
            totals["extract(), whole"] = clock.seconds()
        if best is None or totals["extract(), whole"] < best["extract(), whole"]:
            best = dict(totals)
    assert best is not None

    whole = best["extract(), whole"]
    print(f"corpus {args.corpus}: {len(files)} files, one process, best of {args.repeat}\n")
    print(f"{'phase':<44} {'seconds':>8} {'share':>6} {'× bare parse':>13}")
    print(f"{'bare tree-sitter parse (baseline)':<44} {bare:>8.3f} {'':>6} {1.0:>13.2f}")
    for name, seconds in sorted(best.items(), key=lambda kv: -kv[1]):
        print(f"{name:<44} {seconds:>8.3f} {seconds / whole:>6.0%} {seconds / bare:>13.2f}")
    c_part = sum(s for name, s in best.items() if name.startswith("C:"))
    print(f"\nC (parse + queries): {c_part:.3f} s; the rest of extract(), Python: "
          f"{whole - c_part:.3f} s. On N cores a cold index needs at least "
          f"{c_part:.2f} / N s for the C part alone.")


if __name__ == "__main__":
    main()
