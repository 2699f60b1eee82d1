"""The nav tools with a language server behind them: latency per ``source``, and agreement.

    python -m benchmarks.bench_lsp [--corpus django] [--questions 30] [--agree 60] [--seed 7]

Builds the corpus's map once (into a temporary file) and draws, with a seed, definitions
from it that have at least one resolved use: methods, functions and classes for most tools,
methods and functions for ``nav_call_hierarchy`` (incoming), classes for
``nav_type_hierarchy`` (supertypes), their files for ``nav_diagnostics``; ``nav_definition``
is asked at one of the symbol's uses, the others at the definition's name.
``nav_rename_preview`` gets ``newName: "renamed_x"``. Every call goes through
``tools.dispatch.call_tool`` (what ``codenav call`` and the MCP server run). Four parts:

1. **First answer, cold.** Per tool and per ``source`` (auto, lsp, map), a fresh Workspace
   (``lsp="auto"``, background start allowed: a long-lived server's setting) and its empty
   pool; the time of its first call. ``auto`` must answer at once from the map while
   basedpyright starts (docs/contract.md §4: an agent never waits on a cold server); ``lsp``
   includes spawning basedpyright and waiting for it to load the workspace.
2. **auto switching over.** One more fresh Workspace asked the first references question with
   ``source: auto`` every 0.25 s: how long until the answer says ``source: lsp``, and how
   many map answers came before. This Workspace stays warm for part 3.
3. **Warm.** On that warm Workspace, ``--questions`` questions per tool, each asked with the
   three sources (their order rotated per question, so that none always pays for opening a
   file at the server first): p50/p95/max per (tool, source), and which source answered
   (``lsp``/``map``, or the error code).
4. **Baseline and agreement.** A basedpyright queried directly (``benchmarks/lsp_truth.py``'s
   ``TruthServer``: spawn, ``initialize``, warmed until its references are complete): its
   spawn-to-warm time and per-question latency. Then, for ``--agree`` symbols (seeded, drawn
   like the others), ``nav_references`` with ``source: "lsp"`` (``tokenBudget`` 10000; a cut
   answer is drained folder by folder with ``fileFilter`` as in ``bench_accuracy``) against
   the TruthServer's references at the same position (the definition's name; the
   declaration excluded on both sides, references outside the root left out on both).
   Positions are compared as codenav's (repo-relative file, 1-based line, 1-based UTF-16
   column; TruthServer converts LSP's 0-based ones). Prints micro-averaged precision and
   recall and the worst disagreements. Issue 6's bar: both >= 0.97 — codenav passes the
   server's answer through, so a difference points at configuration (what the server is
   told) or at a bug in position conversion, grouping, filtering or truncation. To tell the
   two apart, a second TruthServer is told exactly what codenav's pool tells basedpyright
   (``codenav/lsp/servers.toml``'s settings) instead of ``lsp_truth``'s ``extraPaths``
   (Django's ``django/`` is a package: its own absolute imports, ``from django.db import
   …``, resolve only with the root's parent on the search path); codenav's answers are
   scored against both.

Measured on this 2-vCPU machine, Django 5.2.19 ``django/``, basedpyright 1.40.2, defaults
(30 questions, 60 symbols, seed 7), 158 s in all: ``auto``'s first answer 0.00-0.02 s from
the map for every tool, switching to ``lsp`` 4.7 s after the pool was made; ``lsp``'s first
answer 3.1-4.8 s (call hierarchy 9.6 s); warm p50 ``lsp`` 1.4-38 ms (call hierarchy 159 ms),
``map`` 0.5-1.3 ms; basedpyright direct warm at 5.5 s, references p50 250 ms. Agreement with
basedpyright as lsp_truth configures it: precision 1.000, recall 1.000 (261 references, 60
of 60 answers identical). (Before the pool put a package root's parent on basedpyright's
search path, recall was 0.295: ``from django… import X`` sites were unknown to its server.)

The map-only (``source: map``) p50 of part 3 is the comparison for the LSP figures. The
corpus must be cached (``benchmarks/corpora.py``); basedpyright comes with the venv; nothing
else is downloaded. Figures on a shared 2-vCPU machine are noisy: other processes' load
shows up in the cold times first.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import tempfile
from collections import Counter, defaultdict
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from benchmarks.bench_accuracy import drained_references
from benchmarks.corpora import CORPORA, fetch
from benchmarks.lsp_truth import TruthServer
from benchmarks.symbols import Position, Symbol
from benchmarks.timing import Stopwatch, median, percentile
from codenav.index.pipeline import index_tree
from codenav.lsp.pool import server_settings as pool_settings
from codenav.lsp.servers import families
from codenav.tools.dispatch import call_tool
from codenav.workspace import Workspace

Drawn = tuple[Symbol, Position]  # a definition and one resolved use of it

SOURCES = ("auto", "lsp", "map")
TOOLS = ("nav_definition", "nav_references", "nav_hover", "nav_call_hierarchy",
         "nav_type_hierarchy", "nav_diagnostics", "nav_rename_preview")
_CALLABLE = ("method", "function")
_DEFINITIONS = ("class", "method", "function")


def draw_symbols(db: Path) -> list[Drawn]:
    """Every Python class, method and function with a resolved use in a Python file, with
    one such use, where nav_definition is asked (the map also holds the corpus's
    JavaScript: not for basedpyright)."""
    conn = sqlite3.connect(db)
    rows = conn.execute(
        "SELECT n.nid, n.kind, n.name, f.path, n.name_line, n.name_col, "
        "       (SELECT uf.path || char(0) || r.line || char(0) || r.col "
        "          FROM refs r JOIN files uf ON uf.id = r.file_id "
        "         WHERE r.target_id = n.id AND uf.lang = 'py' ORDER BY r.id LIMIT 1) "
        "FROM nodes n JOIN files f ON f.id = n.file_id "
        f"WHERE f.lang = 'py' AND n.kind IN ({','.join('?' * len(_DEFINITIONS))}) "
        "  AND EXISTS (SELECT 1 FROM refs r JOIN files uf ON uf.id = r.file_id "
        "              WHERE r.target_id = n.id AND uf.lang = 'py') ORDER BY n.nid",
        _DEFINITIONS).fetchall()
    conn.close()
    out = []
    for nid, kind, name, path, line, col, use in rows:
        use_path, use_line, use_col = use.split("\0")
        out.append((Symbol(name, kind, path, line, col, nid=nid),
                    (use_path, int(use_line), int(use_col))))
    return out


def questions(drawn: list[Drawn], count: int, seed: int) -> dict[str, list[dict[str, Any]]]:
    """``count`` argument sets per tool (without ``source``), drawn with ``seed``."""
    rng = random.Random(seed)
    picked = rng.sample(drawn, min(count, len(drawn)))
    every = [s for s, _ in picked]
    callables = [s for s, _ in drawn if s.kind in _CALLABLE]
    classes = [s for s, _ in drawn if s.kind == "class"]
    calls = rng.sample(callables, min(count, len(callables)))
    types = rng.sample(classes, min(count, len(classes)))
    files = list(dict.fromkeys(s.path for s in every))
    return {
        "nav_definition": [{"file": use[0], "line": use[1], "col": use[2]}
                           for _, use in picked],
        "nav_references": [s.where for s in every],
        "nav_hover": [s.where for s in every],
        "nav_call_hierarchy": [{**s.where, "direction": "incoming"} for s in calls],
        "nav_type_hierarchy": [{**s.where, "direction": "supertypes"} for s in types],
        "nav_diagnostics": [{"file": f} for f in files],
        "nav_rename_preview": [{**s.where, "newName": "renamed_x"} for s in every],
    }


def answered_by(envelope: dict[str, Any]) -> str:
    """``lsp``/``map`` for an answer, the error code for a failure."""
    if not envelope.get("ok"):
        return str(envelope.get("error", {}).get("code", "?"))
    return str(envelope.get("data", {}).get("source", "?"))


# ------------------------------------------------------------------ 1. first answer, cold

async def first_answers(root: Path, db: Path, asks: dict[str, list[dict[str, Any]]]
                        ) -> dict[tuple[str, str], tuple[float, str]]:
    out: dict[tuple[str, str], tuple[float, str]] = {}
    for tool in TOOLS:
        for source in SOURCES:
            ws = Workspace(root, db, lsp="auto", lsp_background=True)
            try:
                clock = Stopwatch()
                envelope = await call_tool(ws, tool, {**asks[tool][0], "source": source})
                out[tool, source] = (clock.seconds(), answered_by(envelope))
            finally:
                ws.close()
    return out


# ----------------------------------------------------------- 2. auto switching over to lsp

async def switch_over(ws: Workspace, args: dict[str, Any], limit: float = 120.0
                      ) -> tuple[float | None, int, float]:
    """(seconds until ``auto`` answers from the server, map answers before, slowest map
    answer in seconds) for ``nav_references`` asked every 0.25 s."""
    clock = Stopwatch()
    maps, slowest = 0, 0.0
    while clock.seconds() < limit:
        lap = Stopwatch()
        envelope = await call_tool(ws, "nav_references", {**args, "source": "auto"})
        took = lap.seconds()
        if answered_by(envelope) == "lsp":
            return clock.seconds(), maps, slowest
        maps += 1
        slowest = max(slowest, took)
        await asyncio.sleep(0.25)
    return None, maps, slowest


# ------------------------------------------------------------------------------ 3. warm

@dataclass
class Warm:
    latencies: dict[tuple[str, str], list[float]] = field(default_factory=lambda:
                                                          defaultdict(list))
    answered: dict[tuple[str, str], Counter[str]] = field(default_factory=lambda:
                                                          defaultdict(Counter))


async def warm_runs(ws: Workspace, asks: dict[str, list[dict[str, Any]]]) -> Warm:
    warm = Warm()
    for tool in TOOLS:
        for i, args in enumerate(asks[tool]):
            order = SOURCES[i % 3:] + SOURCES[: i % 3]
            for source in order:
                clock = Stopwatch()
                envelope = await call_tool(ws, tool, {**args, "source": source})
                warm.latencies[tool, source].append(clock.seconds())
                warm.answered[tool, source][answered_by(envelope)] += 1
    return warm


# ------------------------------------------------------------------------- 4. agreement

async def lsp_references(ws: Workspace, symbol: Symbol) -> set[Position] | str:
    """Everything ``nav_references`` (source lsp) answers, cut answers drained by folder."""
    return await drained_references(ws, symbol.where, "lsp")


@dataclass
class Agreement:
    symbol: Symbol
    truths: list[set[Position]] = field(default_factory=list)  # one per TruthServer
    codenav: set[Position] = field(default_factory=set)
    error: str | None = None
    truth_s: float = 0.0  # the first TruthServer's time
    codenav_s: float = 0.0


def like_codenav(root: Path) -> TruthServer:
    """A TruthServer told exactly what codenav's pool tells basedpyright (servers.toml's
    settings as the pool completes them, and its initialization options)."""
    truth = TruthServer(root)
    spec = next(s for s in families(root)["python"].servers if s.name == "basedpyright")
    truth.spec = replace(truth.spec, settings=lambda _root: pool_settings(spec, root),
                         initialization_options=lambda _root: spec.initialization_options)
    return truth


async def agreement(ws: Workspace, truths: list[TruthServer], symbols: list[Symbol]
                    ) -> list[Agreement]:
    out = []
    for symbol in symbols:
        row = Agreement(symbol)
        out.append(row)
        position = (symbol.path, symbol.line, symbol.col)
        try:
            for i, truth in enumerate(truths):
                clock = Stopwatch()
                answer = await truth.references(position, include_declaration=False)
                if i == 0:
                    row.truth_s = clock.seconds()
                row.truths.append({p for p in answer if not p[0].startswith("/")} - {position})
        except Exception as exc:  # noqa: BLE001 - a benchmark reports, not crashes
            row.error = f"basedpyright: {type(exc).__name__}"
            continue
        clock = Stopwatch()
        got = await lsp_references(ws, symbol)
        row.codenav_s = clock.seconds()
        if isinstance(got, str):
            row.error = f"codenav: {got}"
        else:
            row.codenav = got - {position}
    return out


# ---------------------------------------------------------------------------- printing

def show_latency(cold: dict[tuple[str, str], tuple[float, str]], warm: Warm) -> None:
    print("\nper tool and source: first answer from a fresh Workspace (cold pool), then warm "
          "p50/p95 (ms); by = which source gave the first answer (a cold auto answer comes "
          "from the map while basedpyright starts); answered = which source answered (warm)")
    print(f"{'tool':<20} {'source':<6} {'first s':>8} {'by':>14} {'n':>4} {'p50 ms':>8} "
          f"{'p95 ms':>8} {'max ms':>8}  answered")
    for tool in TOOLS:
        for source in SOURCES:
            seconds, by = cold[tool, source]
            values = [v * 1000 for v in warm.latencies[tool, source]]
            answered = ", ".join(f"{k} {v}" for k, v in warm.answered[tool, source].most_common())
            if values:
                print(f"{tool:<20} {source:<6} {seconds:>8.2f} {by:>14} {len(values):>4} "
                      f"{median(values):>8.1f} {percentile(values, 0.95):>8.1f} "
                      f"{max(values):>8.1f}  {answered}")
            else:
                print(f"{tool:<20} {source:<6} {seconds:>8.2f} {by:>14} {0:>4}")


def show_agreement(root: Path, rows: list[Agreement], which: int, label: str,
                   worst: int) -> None:
    measured = [r for r in rows if r.error is None]
    errors = Counter(r.error for r in rows if r.error)
    hit = sum(len(r.codenav & r.truths[which]) for r in measured)
    got = sum(len(r.codenav) for r in measured)
    want = sum(len(r.truths[which]) for r in measured)
    precision = hit / got if got else 1.0
    recall = hit / want if want else 1.0
    exact = sum(r.codenav == r.truths[which] for r in measured)
    print(f"\nagreement: nav_references source:lsp vs {label}: {len(measured)} symbols "
          f"({len(rows) - len(measured)} not measured: {dict(errors)}); {exact} identical")
    print(f"  precision {precision:.3f}  recall {recall:.3f}  (micro: {hit} shared, "
          f"{got} codenav, {want} basedpyright; bar >= 0.97 both)")

    def line(position: Position) -> str:
        try:
            text = (root / position[0]).read_text("utf-8", "replace").splitlines()
            return text[position[1] - 1].strip()[:80]
        except (OSError, IndexError):
            return "?"

    ranked = sorted(measured, key=lambda r: -len(r.codenav ^ r.truths[which]))
    shown = [r for r in ranked[:worst] if r.codenav ^ r.truths[which]]
    if shown:
        print("  worst disagreements (- basedpyright only, + codenav only):")
    for r in shown:
        s, truth = r.symbol, r.truths[which]
        missing, extra = sorted(truth - r.codenav), sorted(r.codenav - truth)
        print(f"    {s.kind} {s.nid} ({s.path}:{s.line}:{s.col}): basedpyright "
              f"{len(truth)}, codenav {len(r.codenav)}, -{len(missing)} +{len(extra)}")
        for sign, positions in (("-", missing), ("+", extra)):
            for p in positions[:2]:
                print(f"        {sign} {p[0]}:{p[1]}:{p[2]}  {line(p)}")


# -------------------------------------------------------------------------------- main

async def run(root: Path, db: Path, drawn: list[Drawn], args: argparse.Namespace) -> None:
    asks = questions(drawn, args.questions, args.seed)
    symbols = [s for s, _ in drawn]
    clock = Stopwatch()
    cold = await first_answers(root, db, asks)
    print(f"\n[1] first answers, {len(cold)} fresh Workspaces: "
          f"{clock.seconds():.0f} s")

    ws = Workspace(root, db, lsp="auto", lsp_background=True)
    try:
        switched, maps, slowest = await switch_over(ws, asks["nav_references"][0])
        state = ws.pool.state("py") if ws.pool is not None else "off"
        if switched is None:
            print(f"[2] auto never answered from basedpyright within 120 s (state {state})")
        else:
            print(f"[2] fresh Workspace, nav_references source:auto asked every 0.25 s: "
                  f"{maps} answers from the map (slowest {slowest * 1000:.0f} ms), then "
                  f"source:lsp at {switched:.1f} s (pool state {state})")
        clock = Stopwatch()
        warm = await warm_runs(ws, asks)
        print(f"[3] warm: {sum(len(v) for v in warm.latencies.values())} calls in "
              f"{clock.seconds():.0f} s")
        show_latency(cold, warm)
        substituted = {tool: warm.answered[tool, "lsp"]["map"] for tool in TOOLS
                       if warm.answered[tool, "lsp"]["map"]}
        if substituted:
            print(f"source:lsp answered from the map {substituted}: the server answered, with "
                  "nothing, and the tool put the map's answer in its place (labelled map)")
        map_p50 = [median(warm.latencies[t, "map"]) * 1000 for t in TOOLS
                   if warm.latencies[t, "map"]]
        print(f"map-only p50 over the seven tools: {median(map_p50):.1f} ms "
              f"(median of per-tool p50s; min {min(map_p50):.1f}, max {max(map_p50):.1f})")

        rng = random.Random(args.seed + 1)
        agree = rng.sample(symbols, min(args.agree, len(symbols)))
        truths = [TruthServer(root), like_codenav(root)]
        clock = Stopwatch()
        try:
            probe = next((s for s in agree if s.kind == "class"), agree[0])
            for truth in truths:  # one after the other: the first's spawn-to-warm is clean
                await truth.start()
                await truth.warm((probe.path, probe.line, probe.col))
            rows = await agreement(ws, truths, agree)
        finally:
            for truth in truths:
                await truth.close()
        t = truths[0].timings
        lat = t.latencies[1:] if len(t.latencies) > 1 else t.latencies
        print(f"\n[4] baseline, basedpyright queried directly (TruthServer): initialize "
              f"{t.initialized:.2f} s, "
              f"found {t.source_files} files at {(t.discovered or 0):.2f} s, warm (complete "
              f"references) at {(t.warm or 0):.2f} s after spawn; warm references per "
              f"question: p50 {median(lat) * 1000:.0f} ms, p95 "
              f"{percentile(lat, 0.95) * 1000:.0f} ms, max {max(lat) * 1000:.0f} ms over "
              f"{len(lat)} ({clock.seconds():.0f} s for part 4)")
        measured = [r for r in rows if r.error is None]
        if measured:
            truth_s = [r.truth_s for r in measured]
            codenav_s = [r.codenav_s for r in measured]
            print(f"  same {len(measured)} symbols: basedpyright direct p50 "
                  f"{median(truth_s) * 1000:.0f} ms p95 "
                  f"{percentile(truth_s, 0.95) * 1000:.0f} ms; codenav nav_references source:lsp "
                  f"(tokenBudget 10000, drained) p50 {median(codenav_s) * 1000:.0f} "
                  f"ms p95 {percentile(codenav_s, 0.95) * 1000:.0f} ms")
        show_agreement(root, rows, 0, "basedpyright direct (lsp_truth: extraPaths = the "
                       "root's parent, as bench_accuracy)", args.worst)
        show_agreement(root, rows, 1, "basedpyright direct with codenav's own settings "
                       "(as the pool configures it): pass-through fidelity", args.worst)
    finally:
        ws.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default="django",
                        choices=sorted(n for n, c in CORPORA.items() if c.language == "python"))
    parser.add_argument("--questions", type=int, default=30, help="warm questions per tool")
    parser.add_argument("--agree", type=int, default=60, help="symbols for the agreement")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--worst", type=int, default=6, help="disagreements listed")
    args = parser.parse_args()
    clock = Stopwatch()
    root = fetch(CORPORA[args.corpus])
    db = Path(tempfile.mkdtemp()) / "map.db"
    built = index_tree(root, db)
    symbols = draw_symbols(db)
    print(f"corpus {args.corpus}: {root}; map {built.nodes:,} nodes, {built.refs:,} refs "
          f"built in {built.seconds:.2f} s; {len(symbols):,} classes/methods/functions with "
          f"resolved uses (seed {args.seed})")
    asyncio.run(run(root, db, symbols, args))
    print(f"\ntotal {clock.seconds():.0f} s")


if __name__ == "__main__":
    main()
