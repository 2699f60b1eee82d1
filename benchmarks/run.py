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
import json
import random
import shutil
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
from benchmarks.report import write_report
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
