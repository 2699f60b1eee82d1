"""How indexing grows with the tree: files/s, peak RSS, one-file re-index and edit-visible
latency from 1k to 100k files, with the fitted growth exponent.

    python -m benchmarks.bench_scale [--sizes 1000,5000,20000,100000] [--edits 15]

Trees are synthesised from a real one (Django 5.2's ``django/``, its ``.py`` and ``.js``
files): copy ``k`` is the package renamed ``django_k`` (folder and every ``django`` word in
the text), so each copy's imports resolve inside it as the original's do and the links stay
realistic; the last copy is cut to reach the size exactly. Trees are written once into the
benchmark cache (``$CODENAV_BENCH_CACHE/scale/<size>``), never into the repository.

For each size, in one run: a bare tree-sitter parse of the same files (one process, the
baseline), ``codenav index --full`` cold (wall, peak RSS of the largest process), then, on
that map, ``--edits`` seeded single-file edits re-indexed the watcher's way
(``Workspace.update``) and through the read-your-writes path of the tools
(``refresh_files``), and the same number of edits made under a running watcher, timed from
the write until a read-only connection sees the new definition. The exponent ``b`` of
``time = a * files^b`` is fitted by least squares on the logs.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.bench_index import bare_parse, run_measured
from benchmarks.corpora import CORPORA, cache_dir, fetch
from benchmarks.timing import Stopwatch, median

_PACKAGE = "django"
_WORD = re.compile(rb"\bdjango\b")
_SUFFIXES = (".py", ".js")


def _source_files(root: Path) -> list[Path]:
    """The corpus files codenav maps (minified scripts are skipped by codenav too)."""
    return sorted(p for p in root.rglob("*") if p.suffix in _SUFFIXES and p.is_file()
                  and not p.name.endswith(".min.js"))


def synthesise(size: int) -> Path:
    """A tree of exactly ``size`` mapped files, built once in the benchmark cache."""
    source = fetch(CORPORA["django"])
    target = cache_dir() / "scale" / str(size)
    done = target / ".complete"
    if done.is_file():
        return target
    shutil.rmtree(target, ignore_errors=True)
    files = _source_files(source)
    written = 0
    copy = 0
    while written < size:
        name = f"{_PACKAGE}_{copy}".encode()
        for path in files:
            if written == size:
                break
            rel = path.relative_to(source)
            out = target / f"{_PACKAGE}_{copy}" / rel
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_bytes(_WORD.sub(name, path.read_bytes()))
            written += 1
        copy += 1
    done.write_text(json.dumps({"files": size, "copies": copy}))
    return target


def mapped_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.suffix in _SUFFIXES and p.is_file())


def _visible(db_path: Path, name: str) -> bool:
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        return conn.execute("SELECT 1 FROM nodes WHERE name = ? LIMIT 1",
                            (name,)).fetchone() is not None
    finally:
        conn.close()


def _append(path: Path, name: str, i: int) -> None:
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(f"\n\ndef {name}():\n    return {i}\n")


def edits(root: Path, db_path: Path, count: int, seed: int) -> dict[str, list[float]]:
    """Milliseconds of: the watcher's update of one file, the tools' refresh of one file,
    and an edit made under a running watcher until a reader sees it."""
    from codenav.index.pipeline import refresh_files
    from codenav.workspace import Workspace

    rng = random.Random(seed)
    candidates = [p for p in root.rglob("*.py") if 200 < p.stat().st_size < 60_000]
    out: dict[str, list[float]] = {"update": [], "refresh": [], "visible": []}
    ws = Workspace(root, db_path)
    try:
        for i in range(count):
            path = rng.choice(candidates)
            _append(path, f"scaled_update_{i}", i)
            clock = Stopwatch()
            ws.update([str(path.relative_to(root))])
            out["update"].append(clock.ms())
            path = rng.choice(candidates)
            _append(path, f"scaled_refresh_{i}", i)
            clock = Stopwatch()
            refresh_files(root, db_path, [str(path.relative_to(root))], busy_timeout=5)
            out["refresh"].append(clock.ms())
    finally:
        ws.close()
    ws = Workspace(root, db_path, watch=True)
    ws.start_watcher()
    try:
        time.sleep(1.0)
        for i in range(count):
            path = rng.choice(candidates)
            name = f"scaled_visible_{i}"
            _append(path, name, i)
            clock = Stopwatch()
            while not _visible(db_path, name):
                if clock.seconds() > 30:
                    raise SystemExit(f"edit {i} of {path} never became visible")
                time.sleep(0.002)
            out["visible"].append(clock.ms())
            time.sleep(0.3)  # one edit per batch, as a person types
    finally:
        ws.close()
    return out


def exponent(sizes: list[float], seconds: list[float]) -> float:
    """``b`` of ``seconds = a * sizes^b``, least squares on the logs."""
    xs = [math.log(s) for s in sizes]
    ys = [math.log(t) for t in seconds]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / \
        sum((x - mx) ** 2 for x in xs)


def measure(size: int, edit_count: int, seed: int) -> dict[str, float]:
    root = synthesise(size)
    files = mapped_files(root)
    bare = bare_parse_all(files)
    with tempfile.TemporaryDirectory(prefix="codenav-scale-") as tmp:
        work = Path(tmp) / "tree"
        shutil.copytree(root, work, ignore=shutil.ignore_patterns(".complete"))
        db_path = Path(tmp) / "map.db"
        wall, rss, out = run_measured([sys.executable, "-m", "codenav", "index", str(work),
                                       "--full", "--json", "--db", str(db_path)])
        summary = json.loads(out)
        times = edits(work, db_path, edit_count, seed)
    row = {"files": len(files), "bare": bare, "index": wall, "rss": rss,
           "nodes": summary["nodes"], "refs": summary["refs"], "phases": summary["phases"]}
    for what, values in times.items():
        row[f"{what}_p50"] = median(values)
        row[f"{what}_max"] = max(values)
    return row


def bare_parse_all(files: list[Path]) -> float:
    """A bare parse of ``.py`` and ``.js`` files in one process (bench_index's helper)."""
    from benchmarks import bench_index

    bench_index._GRAMMARS.setdefault(".js", "javascript")
    return bare_parse(files, 1)


def plot(rows: list[dict[str, float]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sizes = [r["files"] for r in rows]
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    panels = [("cold index", "seconds", True, [("index", "o-", "codenav index --full"),
                                               ("bare", "s--", "bare tree-sitter parse")]),
              ("incremental", "ms (median)", False,
               [("update_p50", "o-", "one file re-indexed"),
                ("visible_p50", "s-", "edit visible (watcher)")])]
    for axis, (title, unit, log_y, series) in zip(axes, panels, strict=True):
        for key, style, label in series:
            draw = axis.loglog if log_y else axis.semilogx
            draw(sizes, [r[key] for r in rows], style, label=label)
        axis.set_xlabel("files")
        axis.set_ylabel(unit)
        axis.legend()
        axis.set_title(title)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def table(rows: list[dict[str, float]]) -> list[str]:
    lines = [f"{'files':>8} {'bare s':>8} {'index s':>8} {'× bare':>7} {'files/s':>8} "
             f"{'RSS MB':>7} {'update p50/max ms':>18} {'refresh p50 ms':>15} "
             f"{'visible p50/max ms':>19}"]
    for r in rows:
        lines.append(
            f"{r['files']:>8,.0f} {r['bare']:>8.2f} {r['index']:>8.2f} "
            f"{r['index'] / r['bare']:>7.1f} {r['files'] / r['index']:>8,.0f} "
            f"{r['rss']:>7.0f} {r['update_p50']:>9.1f}/{r['update_max']:<8.1f} "
            f"{r['refresh_p50']:>15.1f} {r['visible_p50']:>9.0f}/{r['visible_max']:<9.0f}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,5000,20000,100000")
    parser.add_argument("--edits", type=int, default=15)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--plot", type=Path, default=None, help="write a PNG here")
    parser.add_argument("--json", type=Path, default=None, help="write the rows here")
    args = parser.parse_args()
    rows = []
    for size in (int(s) for s in args.sizes.split(",")):
        row = measure(size, args.edits, args.seed)
        rows.append(row)
        print(table([row])[-1], "· phases", row["phases"], flush=True)
    print("\n" + "\n".join(table(rows)))
    if len(rows) > 1:
        sizes = [r["files"] for r in rows]
        print(f"\ngrowth exponent, cold index: {exponent(sizes, [r['index'] for r in rows]):.3f}"
              f" (bare parse: {exponent(sizes, [r['bare'] for r in rows]):.3f}); "
              f"peak RSS: {exponent(sizes, [r['rss'] for r in rows]):.3f}")
    if args.plot:
        plot(rows, args.plot)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
