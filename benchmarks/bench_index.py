"""Cold and incremental ``codenav index`` against ctags and a bare tree-sitter parse.

    python -m benchmarks.bench_index [--corpus django|rxjs] [--repeat 3]

Prints, from one run on the same files: ctags -R (when installed), a bare tree-sitter parse
(one process, and one worker per CPU), and codenav index --full / incremental, with files/s,
lines/s, peak RSS and the ratios. Each figure is the best of --repeat runs.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from benchmarks.corpora import CORPORA, fetch, source_files
from benchmarks.timing import Stopwatch


def run_measured(cmd: list[str], cwd: Path | None = None) -> tuple[float, float, str]:
    """Wall seconds, peak RSS in MB (largest process of the tree) and stdout of ``cmd``."""
    clock = Stopwatch()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    out = proc.stdout.read() if proc.stdout else b""
    _, status, usage = os.wait4(proc.pid, 0)
    wall = clock.seconds()
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise RuntimeError(f"{cmd} exited {proc.returncode}")
    return wall, usage.ru_maxrss / 1024, out.decode()


# tree-sitter-language-pack grammar per file ending, for the bare parse
_GRAMMARS: dict[str, Any] = {".py": "python", ".ts": "typescript", ".tsx": "tsx"}
_CTAGS_LANGUAGES = {"python": "Python", "typescript": "TypeScript"}


def _parse_chunk(paths: list[str]) -> int:
    from tree_sitter_language_pack import get_parser

    parsers = {suffix: get_parser(grammar) for suffix, grammar in _GRAMMARS.items()}
    for path in paths:
        with open(path, "rb") as handle:
            parsers[os.path.splitext(path)[1]].parse(handle.read())
    return len(paths)


def bare_parse(files: list[Path], workers: int) -> float:
    """Read and parse every file with tree-sitter, nothing else."""
    paths = [str(p) for p in files]
    if workers == 1:
        clock = Stopwatch()
        _parse_chunk(paths)
        return clock.seconds()
    chunks = [paths[i::workers * 8] for i in range(workers * 8)]
    with ProcessPoolExecutor(workers) as pool:
        list(pool.map(_parse_chunk, chunks[:1]))  # start the workers outside the clock
        clock = Stopwatch()
        list(pool.map(_parse_chunk, chunks))
        return clock.seconds()


def codenav(*args: str) -> list[str]:
    return [sys.executable, "-m", "codenav", *args]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default="django", choices=sorted(CORPORA))
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    corpus = CORPORA[args.corpus]
    root = fetch(corpus)
    files = source_files(root, corpus.suffixes)
    ctags_language = _CTAGS_LANGUAGES[corpus.language]
    lines = sum(p.read_bytes().count(b"\n") for p in files)
    cpus = len(os.sched_getaffinity(0))
    endings = "/".join(corpus.suffixes)
    print(f"corpus {args.corpus}: {root} — {len(files)} {endings} files, {lines:,} lines, "
          f"{sum(p.stat().st_size for p in files) / 1e6:.1f} MB; {cpus} CPUs")

    rows: list[tuple[str, float, float | None]] = []  # (what, seconds, peak RSS MB)
    tags = Path(tempfile.mkdtemp()) / "tags"
    if shutil.which("ctags"):
        best = min((run_measured(["ctags", "-R", f"--languages={ctags_language}", "--fields=+n",
                                  "-f", str(tags), str(root)]) for _ in range(args.repeat)),
                   key=lambda r: r[0])
        rows.append((f"ctags -R ({ctags_language} only)", best[0], best[1]))
    else:
        print("ctags not installed: its baseline is skipped")
    rows.append(("bare tree-sitter parse, 1 process",
                 min(bare_parse(files, 1) for _ in range(args.repeat)), None))
    rows.append((f"bare tree-sitter parse, {cpus} workers",
                 min(bare_parse(files, cpus) for _ in range(args.repeat)), None))

    db = Path(tempfile.mkdtemp()) / "map.db"
    cold = [run_measured(codenav("index", str(root), "--full", "--json", "--db", str(db)))
            for _ in range(args.repeat)]
    best_cold = min(cold, key=lambda r: r[0])
    summary = json.loads(best_cold[2])
    rows.append(("codenav index --full (cold)", best_cold[0], best_cold[1]))
    noop = min(run_measured(codenav("index", str(root), "--json", "--db", str(db)))[0]
               for _ in range(args.repeat))
    rows.append(("codenav index (nothing changed)", noop, None))
    target = max(files, key=lambda p: p.stat().st_size)
    original = target.read_bytes()
    edits = []
    try:
        for i in range(args.repeat):
            target.write_bytes(original + f"\n# edit {i}\n".encode())
            edits.append(run_measured(codenav("index", str(root), "--json", "--db", str(db))))
    finally:
        target.write_bytes(original)
    best_edit = min(edits, key=lambda r: r[0])
    rows.append((f"codenav index (1 file edited, {target.stat().st_size // 1024} KB)",
                 best_edit[0], None))
    run_measured(codenav("index", str(root), "--json", "--db", str(db)))

    ctags_s = rows[0][1] if rows[0][0].startswith("ctags") else None
    parse_s = next(s for what, s, _ in rows if what.endswith("1 process"))
    print(f"\n{'what':<44} {'seconds':>8} {'files/s':>9} {'lines/s':>10} {'RSS MB':>7} "
          f"{'× ctags':>8} {'× parse':>8}")
    for what, seconds, rss in rows:
        full_pass = "edited" not in what and "nothing" not in what
        fps = f"{len(files) / seconds:,.0f}" if full_pass else "-"
        lps = f"{lines / seconds:,.0f}" if full_pass else "-"
        vs_ctags = f"{seconds / ctags_s:.1f}" if ctags_s else "-"
        print(f"{what:<44} {seconds:>8.3f} {fps:>9} {lps:>10} "
              f"{(f'{rss:.0f}' if rss else '-'):>7} {vs_ctags:>8} {seconds / parse_s:>8.1f}")
    print(f"\ncodenav map: {summary['nodes']:,} nodes, {summary['refs']:,} refs, "
          f"{db.stat().st_size / 1e6:.1f} MB; phases of the best cold run: {summary['phases']}")
    edit = json.loads(best_edit[2])
    print(f"single-file edit: {edit['parsed']} parsed, {edit['unchanged']} unchanged, "
          f"phases {edit['phases']}")


if __name__ == "__main__":
    main()
