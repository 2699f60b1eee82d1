"""Latency of each tool on a real map: in process through the envelope, and over stdio.

    python -m benchmarks.bench_tools [--corpus django] [--calls 200] [--no-stdio]

Builds the corpus's map once (into a temporary file), picks arguments with a seeded random
walk over the map (names, ids, files, positions of references), then times every call
through ``tools.dispatch.call_tool`` (what `codenav call` and the MCP server run) and, over
stdio, through the MCP SDK's own client against `codenav mcp`. Prints p50/p95/max in ms and
the mean tokens answered. Targets (docs/contract.md §7): p95 <= 10 ms in process, <= 25 ms over
stdio.
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

import anyio

from benchmarks.corpora import CORPORA, fetch
from benchmarks.timing import Stopwatch, summary
from codenav.index.pipeline import index_tree
from codenav.tools.dispatch import call_tool
from codenav.workspace import Workspace


def pick_calls(db: Path, count: int, seed: int = 7) -> list[tuple[str, dict[str, Any]]]:
    """Representative arguments for every map tool, drawn from the map itself."""
    rng = random.Random(seed)
    conn = sqlite3.connect(db)
    nodes = conn.execute("SELECT nid, name FROM nodes WHERE parent_id IS NOT NULL").fetchall()
    classes = [n for (n,) in conn.execute("SELECT nid FROM nodes WHERE kind = 'class'")]
    files = [p for (p,) in conn.execute("SELECT path FROM files WHERE status = 'ok'")]
    refs = conn.execute(
        "SELECT f.path, r.line, r.col FROM refs r JOIN files f ON f.id = r.file_id "
        "WHERE r.target_id IS NOT NULL AND r.rowid % 37 = 0").fetchall()
    targets = [n for (n,) in conn.execute(
        "SELECT t.nid FROM refs r JOIN nodes t ON t.id = r.target_id "
        "WHERE r.rowid % 29 = 0")]
    conn.close()
    calls: list[tuple[str, dict[str, Any]]] = []
    for _ in range(count):
        nid, name = rng.choice(nodes)
        path, line, col = rng.choice(refs)
        calls += [
            ("map_status", {}),
            ("map_overview", {"focus": rng.choice(["", rng.choice(files).rsplit("/", 1)[0]])}),
            ("map_search", {"query": rng.choice([name, name[: max(3, len(name) // 2)]])}),
            ("map_outline", {"file": rng.choice(files)}),
            ("map_node", {"id": nid}),
            ("map_neighbors", {"id": rng.choice([*classes, nid])}),
            ("nav_definition", {"file": path, "line": line, "col": col, "source": "map"}),
            ("nav_references", {"id": rng.choice(targets), "source": "map"}),
        ]
    rng.shuffle(calls)
    return calls


def report(title: str, timings: dict[str, list[float]], tokens: dict[str, list[int]]) -> None:
    print(f"\n{title}")
    print(f"{'tool':<16} {'calls':>6} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} {'tokens':>7}")
    for tool in sorted(timings):
        p50, p95, worst = summary(timings[tool])
        print(f"{tool:<16} {len(timings[tool]):>6} {p50:>8.2f} {p95:>8.2f} "
              f"{worst:>8.2f} {statistics.mean(tokens[tool]):>7.0f}")


Timings = dict[str, list[float]]
Tokens = dict[str, list[int]]


def in_process(root: Path, db: Path, calls: list[tuple[str, dict[str, Any]]]
               ) -> tuple[Timings, Tokens]:
    """Prints the table and returns the ms and tokens of every call, per tool."""
    ws = Workspace(root, db)
    timings: dict[str, list[float]] = {}
    tokens: dict[str, list[int]] = {}

    async def run() -> None:
        for tool, args in calls[:50]:  # warm caches and connections
            await call_tool(ws, tool, args)
        for tool, args in calls:
            clock = Stopwatch()
            envelope = await call_tool(ws, tool, args)
            timings.setdefault(tool, []).append(clock.ms())
            tokens.setdefault(tool, []).append(envelope["tokenBudget"]["used"])
            if not envelope["ok"] and envelope["error"]["code"] == "INTERNAL":
                raise RuntimeError(f"{tool} {args}: {envelope}")

    try:
        anyio.run(run)
    finally:
        ws.close()
    report("in process, through the envelope (tools.dispatch.call_tool)", timings, tokens)
    return timings, tokens


def over_stdio(root: Path, db: Path, calls: list[tuple[str, dict[str, Any]]]
               ) -> tuple[Timings, Tokens, float]:
    """Prints the table; returns ms and tokens per tool, and spawn-to-first-answer ms."""
    from mcp import ClientSession, StdioServerParameters, stdio_client

    params = StdioServerParameters(command=sys.executable, args=[
        "-m", "codenav", "mcp", str(root), "--db", str(db), "--no-watch", "--lsp", "off"])
    timings: dict[str, list[float]] = {}
    tokens: dict[str, list[int]] = {}
    startup = 0.0

    async def run() -> None:
        nonlocal startup
        clock = Stopwatch()
        with open(tempfile.mktemp(suffix=".log"), "w") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write), \
                    ClientSession(read, write) as session:
                await session.initialize()
                first = await session.call_tool("map_search", {"query": "main"})
                startup = clock.ms()
                assert first.structured_content is not None
                for tool, args in calls[:50]:
                    await session.call_tool(tool, args)
                for tool, args in calls:
                    lap = Stopwatch()
                    result = await session.call_tool(tool, args)
                    timings.setdefault(tool, []).append(lap.ms())
                    used = json.loads(result.content[0].text)[  # type: ignore[union-attr]
                        "tokenBudget"]["used"]
                    tokens.setdefault(tool, []).append(used)
        print(f"\ncodenav mcp: spawn to first map_search answer {startup:.0f} ms "
              "(target, docs/contract.md §7: 1000 ms)")

    anyio.run(run)
    report("over stdio, MCP round trip (mcp.ClientSession against `codenav mcp`)", timings, tokens)
    return timings, tokens, startup


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default="django", choices=sorted(CORPORA))
    parser.add_argument("--calls", type=int, default=100, help="calls per tool")
    parser.add_argument("--no-stdio", action="store_true")
    args = parser.parse_args()
    root = fetch(CORPORA[args.corpus])
    db = Path(tempfile.mkdtemp()) / "map.db"
    built = index_tree(root, db)
    print(f"corpus {args.corpus}: {root}; map {built.nodes:,} nodes, {built.refs:,} refs "
          f"built in {built.seconds:.2f} s")
    calls = pick_calls(db, args.calls)
    in_process(root, db, calls)
    if not args.no_stdio:
        over_stdio(root, db, calls)


if __name__ == "__main__":
    main()
