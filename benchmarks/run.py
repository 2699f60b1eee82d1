"""Every benchmark in one run: ``benchmarks/REPORT.md`` with tables and PNG plots.

    python -m benchmarks [--quick] [--out benchmarks] [--skip-ts]

Runs, on the cached corpora (``benchmarks/corpora.py``; downloaded on first use), each
benchmark's own functions with smaller samples in ``--quick`` (a few minutes on 2 cores)
and larger ones otherwise (about 12 minutes), and writes ``REPORT.md`` and ``report/*.png`` under
``--out``. Every figure is drawn beside its baseline measured in the same run:

1. indexing: ``codenav index --full`` vs ``ctags -R`` vs a bare tree-sitter parse over growing
   seeded subsets of Django's ``.py`` files (copied to a temporary folder), then cold, no-op
   and one-file-edited runs on the whole corpus (``bench_index``'s helpers), CPython's
   ``Lib/`` cold beside its bare parse, ``codenav mcp`` on Django with no map
   (``bench_first_map``), ``codenav mcp``'s start on 10,000 folders with the watcher on and
   off (``bench_startup``), and trees of 1k to 100k files (``bench_scale``; 1k and 5k in
   ``--quick``; the 100k tree alone takes ~7 minutes);
2. tool latency in process (and over stdio in the full run) (``bench_tools``);
3. accuracy of ``nav_references`` (map) vs a warm basedpyright, and in the full run vs a warm
   typescript-language-server on rxjs (``bench_accuracy``);
4. token economy vs grep-and-read (``bench_tokens``);
5. language servers: cold start to first answer, warm latency, and how often a cold server's
   references differ from its own warm answer (here); the full run adds ``bench_lsp``'s
   per-tool first answers and warm latency through codenav.

Needs matplotlib (``pip install -e '.[bench]'``).
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from benchmarks import (
    bench_accuracy,
    bench_agent,
    bench_first_map,
    bench_index,
    bench_scale,
    bench_startup,
    bench_tokens,
    bench_tools,
)
from benchmarks.corpora import CORPORA, fetch, source_files
from benchmarks.lsp_truth import TruthServer
from benchmarks.timing import Stopwatch, median, percentile

Position = tuple[str, int, int]


def _version(cmd: list[str]) -> str:
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=30, check=False)
        return (out.stdout or out.stderr).strip().splitlines()[0]
    except (OSError, IndexError, subprocess.TimeoutExpired):
        return "?"


# ---------------------------------------------------------------------------- 1. index

def index_scaling(root: Path, fractions: list[float], repeat: int, seed: int = 3
                  ) -> list[dict[str, Any]]:
    """codenav index --full, ctags and a bare parse over seeded subsets of the .py files."""
    files = source_files(root)
    rng = random.Random(seed)
    shuffled = rng.sample(files, len(files))
    rows = []
    for fraction in fractions:
        subset = shuffled[: max(1, round(len(files) * fraction))]
        with tempfile.TemporaryDirectory(prefix="codenav-scale-") as tmp:
            copy = Path(tmp) / root.name
            for file in subset:
                target = copy / file.relative_to(root)
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(file, target)
            copied = source_files(copy)
            lines = sum(p.read_bytes().count(b"\n") for p in copied)
            row: dict[str, Any] = {"fraction": fraction, "files": len(copied), "lines": lines}
            db = Path(tmp) / "map.db"
            runs = [bench_index.run_measured(bench_index.codenav(
                "index", str(copy), "--full", "--json", "--db", str(db)))
                for _ in range(repeat)]
            best = min(runs, key=lambda r: r[0])
            row["codenav_s"], row["codenav_rss"] = best[0], best[1]
            if shutil.which("ctags"):
                tags = Path(tmp) / "tags"
                row["ctags_s"] = min(bench_index.run_measured(
                    ["ctags", "-R", "--languages=Python", "--fields=+n", "-f", str(tags),
                     str(copy)])[0] for _ in range(repeat))
            row["parse_s"] = min(bench_index.bare_parse(copied, 1) for _ in range(repeat))
            rows.append(row)
            print(f"  {fraction:>5.0%}: {len(copied)} files, {lines:,} lines — codenav "
                  f"{row['codenav_s']:.2f} s ({row['codenav_rss']:.0f} MB), ctags "
                  f"{row.get('ctags_s', float('nan')):.2f} s, parse {row['parse_s']:.2f} s")
    return rows


def index_whole(root: Path, db: Path, repeat: int) -> dict[str, Any]:
    """Cold, no-op and one-file-edited ``codenav index`` on the whole corpus; leaves ``db``."""
    files = source_files(root)
    out: dict[str, Any] = {"files": len(files),
                           "lines": sum(p.read_bytes().count(b"\n") for p in files)}
    cold = [bench_index.run_measured(bench_index.codenav(
        "index", str(root), "--full", "--json", "--db", str(db))) for _ in range(repeat)]
    best = min(cold, key=lambda r: r[0])
    summary = json.loads(best[2])
    out.update(cold_s=best[0], cold_rss=best[1], nodes=summary["nodes"], refs=summary["refs"],
               db_mb=db.stat().st_size / 1e6)
    out["noop_s"] = min(bench_index.run_measured(bench_index.codenav(
        "index", str(root), "--json", "--db", str(db)))[0] for _ in range(repeat))
    target = max(files, key=lambda p: p.stat().st_size)
    original = target.read_bytes()
    edits = []
    try:
        for i in range(repeat):
            target.write_bytes(original + f"\n# edit {i}\n".encode())
            edits.append(bench_index.run_measured(bench_index.codenav(
                "index", str(root), "--json", "--db", str(db)))[0])
    finally:
        target.write_bytes(original)
    bench_index.run_measured(bench_index.codenav("index", str(root), "--json", "--db", str(db)))
    out["edit_s"], out["edit_kb"] = min(edits), len(original) // 1024
    if shutil.which("ctags"):
        tags = Path(tempfile.mkdtemp()) / "tags"
        out["ctags_s"] = min(bench_index.run_measured(
            ["ctags", "-R", "--languages=Python", "--fields=+n", "-f", str(tags), str(root)])[0]
            for _ in range(repeat))
    out["parse_s"] = min(bench_index.bare_parse(files, 1) for _ in range(repeat))
    mapped = bench_scale.mapped_files(root)  # what codenav maps: Django's .js files too
    out["mapped"] = len(mapped)
    out["parse_all_s"] = min(bench_scale.bare_parse_all(mapped) for _ in range(repeat))
    print(f"  whole corpus: cold {out['cold_s']:.2f} s ({out['cold_rss']:.0f} MB), no-op "
          f"{out['noop_s']:.2f} s, 1 file edited {out['edit_s']:.2f} s; ctags "
          f"{out.get('ctags_s', float('nan')):.2f} s, parse {out['parse_s']:.2f} s "
          f"(every mapped file: {out['parse_all_s']:.2f} s)")
    return out


def index_cpython(repeat: int) -> dict[str, Any] | None:
    """Cold ``codenav index --full`` of CPython's Lib/ beside a bare parse of its files; None
    where Debian's packages cannot be fetched (no apt-get)."""
    if not (shutil.which("apt-get") and shutil.which("dpkg-deb")):
        print("  no apt-get: CPython's Lib/ (from Debian's packages) is skipped")
        return None
    root = fetch(CORPORA["cpython"])
    files = source_files(root)
    with tempfile.TemporaryDirectory(prefix="codenav-cpython-") as tmp:
        db = Path(tmp) / "map.db"
        runs = [bench_index.run_measured(bench_index.codenav(
            "index", str(root), "--full", "--json", "--db", str(db))) for _ in range(repeat)]
    best = min(runs, key=lambda r: r[0])
    out = {"files": len(files), "lines": sum(p.read_bytes().count(b"\n") for p in files),
           "cold_s": best[0], "cold_rss": best[1],
           "parse_s": min(bench_index.bare_parse(files, 1) for _ in range(repeat))}
    print(f"  CPython Lib/: {out['files']} files, cold {out['cold_s']:.2f} s "
          f"({out['cold_rss']:.0f} MB), bare parse {out['parse_s']:.2f} s")
    return out


# ------------------------------------------------------------------------ 3. accuracy

def accuracy(corpus_name: str, symbols: int, seed: int = 11) -> dict[str, Any]:
    corpus = CORPORA[corpus_name]
    root = fetch(corpus)
    _, _, server, label = bench_accuracy._LANGUAGES[corpus.language]
    candidates = (bench_accuracy.from_ctags(root, corpus.language) if shutil.which("ctags")
                  else bench_accuracy.from_regex(root, corpus.language))
    chosen = [bench_accuracy.Measured(s) for s in bench_accuracy.pick(candidates, symbols, seed)]
    db = Path(tempfile.mkdtemp()) / "map.db"
    from codenav.index.pipeline import index_tree

    index_tree(root, db)
    timings = asyncio.run(bench_accuracy.run(root, chosen, db, server))
    bench_accuracy.show(root, chosen, label, worst=5)
    measured = [s for s in chosen if s.error is None]
    out: dict[str, Any] = {"corpus": corpus_name, "server": server, "drawn": len(chosen),
                           "measured": len(measured), "symbols": measured,
                           "errors": dict(Counter(s.error for s in chosen if s.error)),
                           "warm_s": timings.warm, "root": root}
    for level in ("position", "line"):
        p, r, hit, mapped, truth = bench_accuracy.score(measured, level)
        out[level] = {"precision": p, "recall": r, "hits": hit, "mapped": mapped,
                      "truth": truth}
    out["kinds"] = {}
    for kind in sorted({s.kind for s in measured}):
        of_kind = [s for s in measured if s.kind == kind]
        p, r, _, _, truth = bench_accuracy.score(of_kind, "position")
        out["kinds"][kind] = {"n": len(of_kind), "precision": p, "recall": r, "truth": truth}
    return out


# ---------------------------------------------------------------------- 5. cold vs warm

async def cold_vs_warm(root: Path, positions: list[Position], server: str, rounds: int,
                       include_declaration: bool) -> dict[str, Any]:
    """Spawn the server and ask references of every position at once (cold), then warm it and
    ask again: which cold answers differ from the warm ones. ``rounds`` fresh servers, the
    order of the positions rotated per round."""
    cold: list[dict[str, Any]] = []
    warm_latency: list[float] = []
    starts: list[dict[str, Any]] = []
    for rnd in range(rounds):
        shift = (rnd * len(positions)) // max(rounds, 1)
        order = positions[shift:] + positions[:shift]
        truth = TruthServer(root, server=server)
        answers: list[tuple[Position, float, float, set[Position] | None]] = []
        try:
            await truth.start()
            for position in order:
                asked = truth._spawned.seconds()
                try:
                    got: set[Position] | None = set(await truth._references(
                        position, 60.0, include_declaration))
                except Exception:  # noqa: BLE001 - a timeout is an incomplete answer
                    got = None
                answers.append((position, asked, truth._spawned.seconds(), got))
            await truth.warm(order[0], include_declaration=include_declaration)
            for position, asked, done, got in answers:
                final = set(await truth.references(position,
                                                   include_declaration=include_declaration))
                cold.append({"round": rnd, "asked_s": asked, "answered_s": done,
                             "cold": len(got) if got is not None else None,
                             "warm": len(final),
                             "complete": got is not None and got == final,
                             "share": (len(got & final) / len(final) if got is not None and final
                                       else (1.0 if got is not None else 0.0))})
            warm_latency += truth.timings.latencies
            t = truth.timings
            starts.append({"initialize_s": t.initialized, "discovered_s": t.discovered,
                           "warm_s": t.warm, "first_answer_s": answers[0][2]})
        finally:
            await truth.close()
    incomplete = sum(not c["complete"] for c in cold)
    print(f"  {server}: {len(cold)} cold answers, {incomplete} differ from the warm answer; "
          f"first answer {median(s['first_answer_s'] for s in starts):.2f} s, warm "
          f"at {median(s['warm_s'] or 0 for s in starts):.2f} s after spawn; warm "
          f"references p50 {median(warm_latency) * 1000:.0f} ms")
    return {"server": server, "cold": cold, "starts": starts, "warm_latency": warm_latency,
            "incomplete": incomplete}


def lsp_positions(acc: dict[str, Any], count: int) -> list[Position]:
    """Positions of accuracy symbols the warm server found references to, most first."""
    with_refs = [s for s in acc["symbols"] if s.truth]
    with_refs.sort(key=lambda s: -len(s.truth))
    rng = random.Random(17)
    chosen = with_refs[: count // 2] + rng.sample(with_refs[count // 2:],
                                                  min(count - count // 2,
                                                      len(with_refs[count // 2:])))
    return [(s.path, s.line, s.col) for s in chosen]


def bench_lsp_tools(root: Path, db: Path, questions: int) -> dict[str, Any]:
    """bench_lsp's parts 1-3 (first answers from a cold pool, auto's switch-over, warm)."""
    from benchmarks import bench_lsp

    symbols = bench_lsp.draw_symbols(db)
    asks = bench_lsp.questions(symbols, questions, 7)

    async def go() -> dict[str, Any]:
        cold = await bench_lsp.first_answers(root, db, asks)
        from codenav.workspace import Workspace

        ws = Workspace(root, db, lsp="auto", lsp_background=True)
        try:
            switched, maps, _ = await bench_lsp.switch_over(ws, asks["nav_references"][0])
            warm = await bench_lsp.warm_runs(ws, asks)
        finally:
            ws.close()
        bench_lsp.show_latency(cold, warm)
        return {"cold": cold, "switched_s": switched, "map_answers": maps, "warm": warm}

    return asyncio.run(go())


# ----------------------------------------------------------------------------- plots

def _plots(out_dir: Path, results: dict[str, Any]) -> list[str]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out_dir.mkdir(parents=True, exist_ok=True)
    made = []

    def save(fig: Any, name: str) -> None:
        fig.tight_layout()
        # (tight: a legend placed outside the axes is kept in the picture)
        fig.savefig(out_dir / name, dpi=110, bbox_inches="tight")
        plt.close(fig)
        made.append(name)

    scale = results["index_scale"]
    fig, ax = plt.subplots(figsize=(6.4, 4))
    files = [r["files"] for r in scale]
    ax.plot(files, [r["codenav_s"] for r in scale], "o-", label="codenav index --full")
    ax.plot(files, [r["parse_s"] for r in scale], "s--", label="bare tree-sitter parse (1 core)")
    if all("ctags_s" in r for r in scale):
        ax.plot(files, [r["ctags_s"] for r in scale], "^--", label="ctags -R")
    ax.set_xlabel("Python files (seeded subsets of Django's django/)")
    ax.set_ylabel("seconds (best of runs)")
    ax.set_title("Indexing time vs repository size")
    ax.grid(alpha=0.3)
    ax.legend()
    save(fig, "index_scale.png")

    tools = results["tools_in_process"]
    names = sorted(tools[0])
    fig, ax = plt.subplots(figsize=(7.5, 4.6))
    x = range(len(names))
    width = 0.38 if results.get("tools_stdio") else 0.6
    p95 = [percentile(tools[0][n], 0.95) for n in names]
    p50 = [median(tools[0][n]) for n in names]
    ax.bar([i - (width / 2 if results.get("tools_stdio") else 0) for i in x], p95, width,
           label="in process p95", color="#4c72b0")
    ax.scatter([i - (width / 2 if results.get("tools_stdio") else 0) for i in x], p50,
               color="k", zorder=3, s=12, label="p50")
    if results.get("tools_stdio"):
        stdio = results["tools_stdio"][0]
        ax.bar([i + width / 2 for i in x], [percentile(stdio[n], 0.95) for n in names], width,
               label="over stdio (MCP) p95", color="#dd8452")
        ax.axhline(25, color="#dd8452", ls=":", lw=1, label="target, stdio p95 25 ms")
    ax.axhline(10, color="#4c72b0", ls=":", lw=1, label="target, in process p95 10 ms")
    grep_ms = [r["grep_ms"] for r in results["tokens"]["rows"] if r["type"] != "file"]
    if grep_ms:
        ax.axhline(median(grep_ms), color="gray", ls="--", lw=1,
                   label="baseline: grep -rnw + reads, median per question")
    ax.set_xticks(list(x), [n.replace("_", "_\n", 1) for n in names], fontsize=8)
    ax.set_ylabel("ms")
    ax.set_yscale("log")
    ax.set_title("Tool latency on the Django map")
    # below the axes: inside, it hid the tallest bars (map_status) and the baseline
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=3,
              frameon=False)
    save(fig, "tool_latency.png")

    rows = results["tokens"]["rows"]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(9, 4))
    kinds = [r["type"] for r in rows]
    x = range(len(kinds))
    ax1.bar([i - 0.2 for i in x], [r["codenav_tokens"] for r in rows], 0.4, label="codenav")
    ax1.bar([i + 0.2 for i in x], [r["grep_tokens"] for r in rows], 0.4,
            label="grep + read hit files")
    ax1.set_yscale("log")
    ax1.set_xticks(list(x), kinds)
    ax1.set_ylabel("tokens per question (median)")
    ax1.set_title("Tokens to answer")
    ax1.legend(fontsize=8)
    ax2.bar([i - 0.2 for i in x], [r["codenav_facts"] for r in rows], 0.4, label="codenav")
    ax2.bar([i + 0.2 for i in x], [r["grep_facts"] for r in rows], 0.4,
            label="grep + read hit files")
    ax2.set_ylim(0, 1.05)
    ax2.set_xticks(list(x), kinds)
    ax2.set_ylabel("share of expected facts found")
    ax2.set_title("Facts found")
    save(fig, "tokens.png")

    accs = results["accuracy"]
    fig, axes = plt.subplots(1, len(accs), figsize=(5.2 * len(accs), 4), squeeze=False)
    for ax, acc in zip(axes[0], accs, strict=True):
        kinds = list(acc["kinds"])
        x = range(len(kinds) + 1)
        prec = [acc["position"]["precision"]] + [acc["kinds"][k]["precision"] for k in kinds]
        rec = [acc["position"]["recall"]] + [acc["kinds"][k]["recall"] for k in kinds]
        ax.bar([i - 0.2 for i in x], prec, 0.4, label="precision")
        ax.bar([i + 0.2 for i in x], rec, 0.4, label="recall")
        ax.set_xticks(list(x), ["all", *kinds], fontsize=8, rotation=30)
        ax.set_ylim(0, 1.05)
        bars = (0.95, 0.90) if acc["server"] == "basedpyright" else (0.90, 0.85)
        ax.axhline(bars[0], color="C0", ls=":", lw=1)
        ax.axhline(bars[1], color="C1", ls=":", lw=1)
        ax.set_title(f"{acc['corpus']}: map references vs warm {acc['server']}\n"
                     f"({acc['measured']} symbols; dotted: targets)", fontsize=9)
        ax.legend(fontsize=8, loc="lower left")
    save(fig, "accuracy.png")

    lsps = results["lsp"]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.2),
                                   gridspec_kw={"width_ratios": [1.1, 1]})
    for i, lsp in enumerate(lsps):
        cold = lsp["cold"]
        ax1.scatter([c["answered_s"] for c in cold], [c["share"] for c in cold],
                    color=f"C{i}", alpha=0.7, label=lsp["server"])
        for s in lsp["starts"]:
            if s["warm_s"]:
                ax1.axvline(s["warm_s"], color=f"C{i}", ls=":", lw=1)
    ax1.set_xlabel("seconds since the server was spawned")
    ax1.set_ylabel("share of the warm answer's references")
    ax1.set_ylim(-0.05, 1.05)
    ax1.set_title("Cold answers vs the same server warm\n(dotted: declared warm)", fontsize=9)
    ax1.legend(fontsize=8)
    labels, values = [], []
    for lsp in lsps:
        labels += [f"{lsp['server']}: first answer", f"{lsp['server']}: warm p50"]
        values += [median(s["first_answer_s"] for s in lsp["starts"]) * 1000,
                   median(lsp["warm_latency"]) * 1000]
    refs = results["tools_in_process"][0].get("nav_references")
    colors = [f"C{i // 2}" for i in range(len(values))]
    if refs:
        labels.append("codenav map: nav_references p50")
        values.append(median(refs))
        colors.append("gray")
    # one bar a row, its label beside it: server names side by side under vertical bars
    # overlapped whatever the font size
    rows = range(len(values))
    ax2.barh(list(rows), values, color=colors)
    ax2.set_yticks(list(rows), labels, fontsize=8)
    ax2.invert_yaxis()
    ax2.set_xscale("log")
    ax2.set_xlabel("ms (log)")
    for row, value in zip(rows, values, strict=True):
        ax2.annotate(f"{value:,.0f}" if value >= 10 else f"{value:.1f}", (value, row),
                     xytext=(3, 0), textcoords="offset points", va="center", fontsize=7)
    ax2.set_title("References: cold first answer, warm, and the map", fontsize=9)
    save(fig, "lsp.png")
    return made


# ---------------------------------------------------------------------------- report

def _fmt(value: float | None, spec: str = ".2f") -> str:
    return "-" if value is None else format(value, spec)


def write_report(path: Path, results: dict[str, Any], quick: bool, seconds: float) -> None:
    whole = results["index_whole"]
    scale = results["index_scale"]
    tok = results["tokens"]["rows"]
    lines = [
        "# codenav benchmark report",
        "",
        f"Generated by `python -m benchmarks{' --quick' if quick else ''}` on "
        f"{dt.datetime.now(dt.timezone.utc):%Y-%m-%d %H:%M} UTC in {seconds:.0f} s "
        f"({'quick' if quick else 'full'} run) on {os.cpu_count()} CPUs, Python "
        f"{platform.python_version()}; {results['versions']}. Corpora: Django "
        f"`{results['django_root'].parent.name}/django` (PyPI sdist)"
        + (", rxjs 7.8.2 `src/` (npm)" if results.get("rxjs") else "") + ". "
        "Every figure is measured in this run beside its baseline; a shared 2-vCPU machine "
        "is noisy, so treat differences under ~20 % as noise.",
        "",
        "CPython's `Lib/` comes from Debian's packages of it (`libpython3.11-minimal`, "
        "`-stdlib`, `-testsuite`, `python3-lib2to3`, `python3-tk`): its source tarball is on "
        "python.org, which this machine does not reach.",
        "",
        "## Indexing",
        "",
        f"Whole corpus ({whole['files']} `.py` files, {whole['lines']:,} lines; codenav also "
        "maps the corpus's other languages it knows — Django's `.js` files), best of "
        f"{results['repeat']}:",
        "",
        "| what | seconds | files/s | peak RSS MB |",
        "|---|---:|---:|---:|",
        f"| ctags -R (Python only) | {_fmt(whole.get('ctags_s'))} | "
        f"{_fmt(whole['files'] / whole['ctags_s'] if whole.get('ctags_s') else None, ',.0f')}"
        " | - |",
        f"| bare tree-sitter parse, 1 process | {whole['parse_s']:.2f} | "
        f"{whole['files'] / whole['parse_s']:,.0f} | - |",
        f"| **codenav index --full** (parse, refs, links, hub scores) | "
        f"**{whole['cold_s']:.2f}** | {whole['files'] / whole['cold_s']:,.0f} | "
        f"{whole['cold_rss']:.0f} |",
        f"| codenav index, nothing changed | {whole['noop_s']:.2f} | - | - |",
        f"| codenav index, largest file ({whole['edit_kb']} KB) edited | "
        f"{whole['edit_s']:.2f} | - | - |",
        f"| bare tree-sitter parse of every file codenav maps ({whole['mapped']}: `.py` and "
        f"`.js`), 1 process | {whole['parse_all_s']:.2f} | "
        f"{whole['mapped'] / whole['parse_all_s']:,.0f} | - |",
        "",
        f"Map: {whole['nodes']:,} nodes, {whole['refs']:,} references, "
        f"{whole['db_mb']:.1f} MB. codenav --full is "
        f"{whole['cold_s'] / whole['parse_all_s']:.1f}× a bare parse of the same files "
        f"({whole['cold_s'] / whole['parse_s']:.1f}× one of the `.py` files alone)"
        + (f" and {whole['cold_s'] / whole['ctags_s']:.0f}× ctags"
           if whole.get("ctags_s") else "") + ".",
        "",
    ]
    cpython = results.get("index_cpython")
    if cpython:
        lines += [
            f"CPython 3.11's `Lib/` ({cpython['files']:,} `.py` files, "
            f"{cpython['lines']:,} lines), best of {results['repeat']}: codenav index --full "
            f"**{cpython['cold_s']:.2f} s** ({cpython['cold_rss']:.0f} MB peak RSS), a bare "
            f"parse {cpython['parse_s']:.2f} s: "
            f"{cpython['cold_s'] / cpython['parse_s']:.1f}× the bare parse.",
            "",
        ]
    first = results.get("first_map")
    if first:
        lines += [
            f"`codenav mcp` on {first['corpus'].capitalize()} with no map (best of "
            f"{len(first['rounds'])} rounds; `bench_first_map`): the first `map_search` "
            f"answer holding `{first['id']}` came **{first['first_s']:.2f} s** after spawn, "
            f"the whole map was built at {first['built_s']:.2f} s, "
            f"{first['built_s'] / first['index_s']:.2f}× a `codenav index --full` of the same "
            f"tree in the same round ({first['index_s']:.2f} s; median ratio "
            f"{first['ratio_median']:.2f}).",
            "",
        ]
    start = results.get("startup")
    if start:
        on, off = start["on"], start["off"]
        lines += [
            f"`codenav mcp` started on a mapped tree of {start['folders']:,} folders (median "
            f"of {start['repeat']}; `bench_startup`): `initialize` answered "
            f"**{on['initialize_s']:.2f} s** after spawn with the watcher on "
            f"({off['initialize_s']:.2f} s with `--no-watch`; target 1.5 s), the watch set up "
            f"at {on['watching_s']:.2f} s, afterwards; gone {on['exit_s']:.2f} s after stdin "
            f"closed (target 3 s), leaving a WAL of {on['wal_bytes']:,.0f} bytes.",
            "",
        ]
    lines += [
        "Growing seeded subsets of the `.py` files, copied to a temporary folder:",
        "",
        "![indexing time vs size](report/index_scale.png)",
        "",
        "| files | lines | codenav s | RSS MB | ctags s | bare parse s | codenav / parse |",
        "|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in scale:
        lines.append(f"| {r['files']} | {r['lines']:,} | {r['codenav_s']:.2f} | "
                     f"{r['codenav_rss']:.0f} | {_fmt(r.get('ctags_s'))} | {r['parse_s']:.2f} | "
                     f"{r['codenav_s'] / r['parse_s']:.1f} |")
    growth = results.get("growth")
    if growth:
        sizes = [r["files"] for r in growth]
        lines += ["", "## Growth to 100,000 files", "",
                  "Trees synthesised from renamed copies of Django's `django/` (`bench_scale`): "
                  "each copy's imports resolve inside it, as the original's do. Cold index, "
                  "one-file re-index (the watcher's update; the tools' read-your-writes "
                  "refresh) and an edit made under a running watcher until a reader sees it:",
                  "", "![growth](report/growth.png)", "",
                  "| files | bare parse s | codenav index s | × bare | files/s | peak RSS MB | "
                  "re-index p50 / max ms | refresh p50 ms | edit visible p50 / max ms |",
                  "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for r in growth:
            lines.append(f"| {r['files']:,} | {r['bare']:.2f} | {r['index']:.2f} | "
                         f"{r['index'] / r['bare']:.1f} | {r['files'] / r['index']:,.0f} | "
                         f"{r['rss']:.0f} | {r['update_p50']:.1f} / {r['update_max']:.0f} | "
                         f"{r['refresh_p50']:.1f} | {r['visible_p50']:.0f} / "
                         f"{r['visible_max']:.0f} |")
        if len(growth) > 1:
            lines += ["", f"Fitted growth exponent (time = a · files^b) from {sizes[0]:,} to "
                          f"{sizes[-1]:,} files: codenav index "
                          f"**{bench_scale.exponent(sizes, [r['index'] for r in growth]):.3f}**"
                          f", bare parse "
                          f"{bench_scale.exponent(sizes, [r['bare'] for r in growth]):.3f}, "
                          f"peak RSS "
                          f"{bench_scale.exponent(sizes, [r['rss'] for r in growth]):.3f}. "
                          "The first re-index in a process learns the tree's files once "
                          "(the max column)."]
    tools, _ = results["tools_in_process"]
    stdio = results.get("tools_stdio")
    lines += ["", "## Tool latency", "",
              f"Seeded calls drawn from the Django map ({results['calls']} per tool), through "
              "`tools.dispatch.call_tool` (in process)"
              + (" and over stdio against `codenav mcp` (MCP SDK client)" if stdio else "")
              + ". Targets (docs/contract.md §7): p95 ≤ 10 ms in process, ≤ 25 ms over stdio. "
              "Baseline: the "
              "token benchmark's grep-and-read, "
              f"median {median(r['grep_ms'] for r in tok):.0f} ms per question "
              f"(codenav's answers there: median "
              f"{median(r['codenav_ms'] for r in tok):.1f} ms).", "",
              "![tool latency](report/tool_latency.png)", "",
              "| tool | p50 ms | p95 ms | max ms | mean tokens |"
              + (" stdio p50 | stdio p95 |" if stdio else ""),
              "|---|---:|---:|---:|---:|" + ("---:|---:|" if stdio else "")]
    for name in sorted(tools):
        v = tools[name]
        row = (f"| {name} | {median(v):.2f} | {percentile(v, 0.95):.2f} | {max(v):.2f} | "
               f"{statistics.mean(results['tools_in_process'][1][name]):.0f} |")
        if stdio:
            s = stdio[0][name]
            row += f" {median(s):.2f} | {percentile(s, 0.95):.2f} |"
        lines.append(row)
    if stdio:
        lines += ["", f"`codenav mcp` spawn to first `map_search` answer: {stdio[2]:.0f} ms "
                  "(bar 1000 ms)."]
    lines += ["", "## Accuracy: references from the map vs a warm language server", "",
              "Symbols drawn (seeded, stratified by kind) from `ctags -R`, independent of "
              "codenav's index; truth is the warm server's references (declaration left out). "
              "Micro-averaged over all references (`bench_accuracy`).", "",
              "![accuracy](report/accuracy.png)", "",
              "| corpus | server | symbols | precision | recall | line precision | line recall "
              "| references (server) |",
              "|---|---|---:|---:|---:|---:|---:|---:|"]
    for acc in results["accuracy"]:
        pos, line = acc["position"], acc["line"]
        lines.append(f"| {acc['corpus']} | {acc['server']} | {acc['measured']} of "
                     f"{acc['drawn']} | {pos['precision']:.3f} | {pos['recall']:.3f} | "
                     f"{line['precision']:.3f} | {line['recall']:.3f} | {pos['truth']} |")
    for acc in results["accuracy"]:
        top = max(acc["symbols"], key=lambda s: len(s.mapped - s.truth))
        extra = len(top.mapped - top.truth)
        if extra:
            rest = [s for s in acc["symbols"] if s is not top]
            p, r, *_ = bench_accuracy.score(rest, "position")
            lines += ["", f"On {acc['corpus']}, the symbol with most extras (the map found, "
                      f"{acc['server']} did not) is {top.kind} `{top.name}` ({top.path}:"
                      f"{top.line}): {extra} of its {len(top.mapped)}, e.g. `"
                      f"{sorted(top.mapped - top.truth)[0][0]}:"
                      f"{sorted(top.mapped - top.truth)[0][1]}`; without it, precision "
                      f"{p:.3f} and recall {r:.3f}."]
    for acc in results["accuracy"]:
        worst = sorted(acc["symbols"], key=lambda s: -len(s.truth - s.mapped))[:5]
        worst = [s for s in worst if s.truth - s.mapped]
        if worst:
            lines += ["", f"Worst misses on {acc['corpus']} ({acc['server']} found, the map "
                      "did not):", ""]
            for s in worst:
                missing = sorted(s.truth - s.mapped)
                lines.append(f"- {s.kind} `{s.name}` ({s.path}:{s.line}): {len(missing)} of "
                             f"{len(s.truth)} missing, e.g. `{missing[0][0]}:{missing[0][1]}`")
    grep = (f"`{' '.join(bench_tokens.grep_command('NAME')[:-2])} NAME .` (ripgrep is not "
            "installed)" if not shutil.which("rg") else "`rg -n -w NAME`")
    lines += ["", "## Token economy: codenav vs grep-and-read", "",
              "A fixed, seeded set of questions on Django "
              f"({results['tokens']['per_type']} per type; `bench_tokens`). codenav: the tool "
              "calls an agent makes, default token budget, cost = the envelopes' "
              "`tokenBudget.used` (the `map_search` turning a name into an id is counted for "
              f"callers, class and impact). Baseline: {grep}, then the hit files read in full "
              "(most hits first) until the facts are seen or 10 files are read; cost = "
              "ceil(chars / 4) of the grep output (capped at 100k chars) and of the files "
              "read. Ground truth (the expected facts) comes from the map's own tables — the "
              "map's accuracy is the section above; a fact that is a position counts as found "
              "at line level.", "",
              "![tokens](report/tokens.png)", "",
              "| question | n | facts | codenav tokens | grep+read tokens | grep / codenav "
              "| total codenav / grep | codenav found (complete) | grep found (complete) "
              "| files read | grep lines |",
              "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in tok:
        lines.append(f"| {r['type']} | {r['questions']} | {r['facts']} | "
                     f"{r['codenav_tokens']:.0f} | {r['grep_tokens']:.0f} | {r['ratio']:.1f}× | "
                     f"{r['codenav_sum']:,} / {r['grep_sum']:,} | "
                     f"{r['codenav_facts']:.2f} ({r['codenav_complete']:.2f}) | "
                     f"{r['grep_facts']:.2f} ({r['grep_complete']:.2f}) | "
                     f"{r['grep_files']:.0f} | {r['grep_lines']:.0f} |")
    codenav_sum = sum(r["codenav_sum"] for r in tok)
    grep_sum = sum(r["grep_sum"] for r in tok)
    lines += ["", f"All {sum(r['questions'] for r in tok)} questions together: codenav "
              f"{codenav_sum:,} tokens, grep-and-read {grep_sum:,} "
              f"({grep_sum / max(codenav_sum, 1):.1f}×).",
              "", "Tokens are medians per question; grep / codenav is the median of the "
              "per-question ratios; found = share of expected facts in the answer (in brackets, "
              "share of questions answered completely). codenav answers cut by the default "
              "budget (`truncated: true`; an agent would page with a narrower call): "
              + ", ".join(f"{r['type']} {r['codenav_truncated']}" for r in tok)
              + ". where: the definition's id (codenav) "
              "or its `def` line; callers: the calling functions (grep must read a file to see "
              "which function a call is in); file / class: the members; impact: every "
              "reference. grep lines counts every line grep printed, matches in comments, "
              "strings and same-named symbols included.",
              "", *bench_agent.section(*results["agent"]),
              "", "## Language servers: cold and warm", "",
              "A fresh server is spawned and asked the references of "
              f"{len(results['lsp'][0]['cold']) // max(results['lsp_rounds'], 1)} symbols one "
              "after the other at once (cold); then it is warmed (`lsp_truth`: workspace "
              "loaded, answers stable) and asked again. A cold answer is *incomplete* when it "
              f"differs from the same server's warm answer. {results['lsp_rounds']} fresh "
              "server(s) per language server.", "",
              "![lsp](report/lsp.png)", "",
              "| server | initialize s | first answer s | warm at s | warm p50 ms | warm p95 ms "
              "| cold answers differing from warm |",
              "|---|---:|---:|---:|---:|---:|---:|"]
    for lsp in results["lsp"]:
        starts = lsp["starts"]
        lines.append(
            f"| {lsp['server']} | {median(s['initialize_s'] for s in starts):.2f} | "
            f"{median(s['first_answer_s'] for s in starts):.2f} | "
            f"{median(s['warm_s'] or 0 for s in starts):.2f} | "
            f"{median(lsp['warm_latency']) * 1000:.0f} | "
            f"{percentile(lsp['warm_latency'], 0.95) * 1000:.0f} | {lsp['incomplete']} of "
            f"{len(lsp['cold'])} |")
    tools_lsp = results.get("lsp_tools")
    if tools_lsp:
        lines += ["", "Through codenav (`bench_lsp` parts 1-3, basedpyright behind the nav "
                  "tools): first answer from a fresh Workspace per source, and warm p50.", "",
                  "| tool | auto first s (by) | lsp first s | map first s | warm p50 ms lsp "
                  "| warm p50 ms map |", "|---|---:|---:|---:|---:|---:|"]
        warm = tools_lsp["warm"]
        for tool in sorted({t for t, _ in tools_lsp["cold"]}):
            c = tools_lsp["cold"]

            def p50(source: str, tool: str = tool) -> str:
                values = warm.latencies[tool, source]
                return f"{median(values) * 1000:.1f}" if values else "-"

            lines.append(f"| {tool} | {c[tool, 'auto'][0]:.2f} ({c[tool, 'auto'][1]}) | "
                         f"{c[tool, 'lsp'][0]:.2f} | {c[tool, 'map'][0]:.2f} | {p50('lsp')} | "
                         f"{p50('map')} |")
        if tools_lsp["switched_s"] is not None:
            lines += ["", f"`source: auto` answered from the map "
                      f"{tools_lsp['map_answers']} times, then from basedpyright "
                      f"{tools_lsp['switched_s']:.1f} s after the Workspace was made."]
    if quick:
        lines += ["", "Not in this quick run: tool latency over stdio, the TypeScript corpus "
                  "(accuracy and typescript-language-server), `bench_lsp`'s per-tool figures "
                  "through codenav; `python -m benchmarks` (full) adds them."]
    lines += ["", "Reproduce: `pip install -e '.[bench]'` then `python -m benchmarks"
              f"{' --quick' if quick else ''}`; each part also runs alone "
              "(`python -m benchmarks.bench_index`, `bench_tools`, `bench_accuracy`, "
              "`bench_tokens`, `bench_lsp`, `bench_watch`).", ""]
    path.write_text("\n".join(lines), encoding="utf-8")


# ------------------------------------------------------------------------------ main

def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller samples, a few minutes")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent,
                        help="folder for REPORT.md and report/ (default: benchmarks/)")
    parser.add_argument("--skip-ts", action="store_true",
                        help="full run without the TypeScript corpus")
    args = parser.parse_args(argv)
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        sys.exit("matplotlib is needed for the plots: pip install -e '.[bench]'")
    quick = args.quick
    clock = Stopwatch()
    results: dict[str, Any] = {}
    root = fetch(CORPORA["django"])
    results["django_root"] = root
    basedpyright = shutil.which("basedpyright") or str(Path(sys.executable).parent / "basedpyright")
    results["versions"] = (f"{_version([basedpyright, '--version'])}, "
                           f"ctags: {_version(['ctags', '--version'])}")
    with_ts = not quick and not args.skip_ts and shutil.which("npm") is not None

    def phase(name: str) -> None:
        print(f"\n== {name} ({clock.seconds():.0f} s)", flush=True)

    repeat = 1 if quick else 3
    results["repeat"] = repeat
    phase("indexing: growing subsets")
    results["index_scale"] = index_scaling(root, [0.1, 0.25, 0.5, 1.0], repeat)
    phase("indexing: whole corpus")
    work = Path(tempfile.mkdtemp(prefix="codenav-bench-"))
    db = work / "django.db"
    results["index_whole"] = index_whole(root, db, repeat)

    phase("indexing: CPython's Lib/")
    results["index_cpython"] = index_cpython(repeat)
    phase("a first map under codenav mcp")
    results["first_map"] = bench_first_map.run("django", repeat)
    phase("codenav mcp's start on 10,000 folders")
    results["startup"] = bench_startup.run(10_000, repeat)
    sizes = [1000, 5000] if quick else [1000, 5000, 20000, 100000]
    phase(f"growth: {', '.join(f'{n:,}' for n in sizes)} files")
    results["growth"] = [bench_scale.measure(n, 5 if quick else 10, 7) for n in sizes]

    phase("tool latency")
    results["calls"] = 20 if quick else 100
    calls = bench_tools.pick_calls(db, results["calls"])
    results["tools_in_process"] = bench_tools.in_process(root, db, calls)
    if not quick:
        results["tools_stdio"] = bench_tools.over_stdio(root, db, calls)

    phase("token economy")
    per_type = 8 if quick else 40
    answers = bench_tokens.run(root, db, per_type)
    results["tokens"] = {"per_type": per_type, "rows": bench_tokens.show(answers)}

    phase("an agent's questions: codenav vs grep (rich" + (", rxjs)" if with_ts else ")"))
    results["agent"] = bench_agent.run(("rich", "rxjs") if with_ts else ("rich",))

    phase("accuracy: django vs basedpyright")
    results["accuracy"] = [accuracy("django", 40 if quick else 300)]
    if with_ts:
        phase("accuracy: rxjs vs typescript-language-server")
        results["accuracy"].append(accuracy("rxjs", 150))
        results["rxjs"] = True

    phase("language servers: cold vs warm")
    rounds = 1 if quick else 3
    results["lsp_rounds"] = rounds
    count = 8 if quick else 12
    results["lsp"] = [asyncio.run(cold_vs_warm(
        root, lsp_positions(results["accuracy"][0], count), "basedpyright", rounds, False))]
    if with_ts:
        acc = results["accuracy"][1]
        results["lsp"].append(asyncio.run(cold_vs_warm(
            acc["root"], lsp_positions(acc, count), "typescript-language-server", rounds,
            True)))
    if not quick:
        phase("bench_lsp: nav tools through codenav with basedpyright")
        results["lsp_tools"] = bench_lsp_tools(root, db, 20)

    phase("plots and report")
    seconds = clock.seconds()
    _plots(args.out / "report", results)
    bench_scale.plot(results["growth"], args.out / "report" / "growth.png")
    write_report(args.out / "REPORT.md", results, quick, seconds)
    shutil.rmtree(work, ignore_errors=True)
    print(f"\nwrote {args.out / 'REPORT.md'} and {args.out / 'report'}/*.png in {seconds:.0f} s")


if __name__ == "__main__":
    main()
