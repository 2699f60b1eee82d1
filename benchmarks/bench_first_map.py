"""``codenav mcp`` on a tree with no map: how soon the first correct answer, how soon the
whole map, beside ``codenav index --full`` of the same tree in the same run.

    python -m benchmarks.bench_first_map [--corpus django] [--repeat 3] [--query QuerySet]

Each round copies the corpus to a fresh folder (no ``.codenav``), spawns ``codenav mcp`` on
it through the MCP SDK's own client (stdio, language servers on as by default, watcher on)
and, from the spawn, asks ``map_search`` for ``--query`` every 50 ms until an answer holds
the definition the finished map holds (its id, taken from a reference map built first),
then ``map_status`` every 50 ms until the map is built. The baseline is ``codenav index
--full`` of a copy of the same tree, timed in the same round. Best of ``--repeat`` rounds
for each figure.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import anyio

from benchmarks.corpora import CORPORA, fetch
from benchmarks.timing import Stopwatch, median


def reference_id(root: Path, query: str) -> str:
    """The id an exact map_search of ``query`` answers first on a finished map."""
    with tempfile.TemporaryDirectory(prefix="codenav-ref-") as tmp:
        db = Path(tmp) / "map.db"
        subprocess.run([sys.executable, "-m", "codenav", "index", str(root), "--db", str(db),
                        "--quiet"], check=True)
        out = subprocess.run([sys.executable, "-m", "codenav", "call", "map_search",
                              json.dumps({"query": query, "exact": True, "detail": "full"}),
                              "--root", str(root), "--db", str(db)],
                             capture_output=True, text=True, check=True)
    return str(json.loads(out.stdout)["data"]["results"][0]["id"])


def index_seconds(source: Path, tmp: Path) -> float:
    tree = tmp / "indexed"
    shutil.copytree(source, tree)
    clock = Stopwatch()
    subprocess.run([sys.executable, "-m", "codenav", "index", str(tree), "--full", "--quiet"],
                   check=True)
    return clock.seconds()


def mcp_seconds(source: Path, tmp: Path, query: str, wanted: str) -> tuple[float, float]:
    """Spawn to the first answer holding ``wanted``, and to map_status saying built."""
    from mcp import ClientSession, StdioServerParameters, stdio_client

    tree = tmp / "served"
    shutil.copytree(source, tree)
    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "codenav", "mcp", str(tree)])
    first = built = 0.0

    async def run() -> None:
        nonlocal first, built
        clock = Stopwatch()
        with open(tmp / "mcp.log", "w") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write), \
                    ClientSession(read, write) as session:
                await session.initialize()
                while True:
                    result = await session.call_tool("map_search", {"query": query,
                                                                     "tokenBudget": 400})
                    if wanted in result.content[0].text:  # type: ignore[union-attr]
                        first = clock.seconds()
                        break
                    await anyio.sleep(0.05)
                while True:
                    result = await session.call_tool("map_status", {"tokenBudget": 300})
                    status = json.loads(result.content[0].text)  # type: ignore[union-attr]
                    if status["ok"] and status["data"].get("built"):
                        built = clock.seconds()
                        break
                    await anyio.sleep(0.05)

    anyio.run(run)
    return first, built


def run(corpus: str = "django", repeat: int = 3, query: str = "QuerySet") -> dict[str, Any]:
    """Rounds of (index, first answer, map built) seconds, printed, and their summary."""
    source = fetch(CORPORA[corpus])
    wanted = reference_id(source, query)
    rows: list[tuple[float, float, float]] = []
    for _ in range(repeat):
        with tempfile.TemporaryDirectory(prefix="codenav-first-") as tmp:
            baseline = index_seconds(source, Path(tmp))
            first, built = mcp_seconds(source, Path(tmp), query, wanted)
        rows.append((baseline, first, built))
        print(f"  codenav index --full {baseline:.2f} s · codenav mcp: first correct "
              f"map_search {first:.2f} s, map built {built:.2f} s "
              f"({built / baseline:.2f}× the index)", flush=True)
    return {"corpus": corpus, "query": query, "id": wanted, "rounds": rows,
            "index_s": min(r[0] for r in rows), "first_s": min(r[1] for r in rows),
            "built_s": min(r[2] for r in rows),
            "ratio_median": median(r[2] / r[0] for r in rows)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default="django", choices=sorted(CORPORA))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--query", default="QuerySet")
    args = parser.parse_args()
    out = run(args.corpus, args.repeat, args.query)
    print(f"\ncorpus {args.corpus}, query {args.query!r} -> {out['id']}; best of {args.repeat}:")
    print(f"  codenav index --full (baseline)         {out['index_s']:6.2f} s")
    print(f"  codenav mcp, first correct map_search   {out['first_s']:6.2f} s after spawn")
    print(f"  codenav mcp, whole map built            {out['built_s']:6.2f} s "
          f"({out['built_s'] / out['index_s']:.2f}× the index; median ratio "
          f"{out['ratio_median']:.2f})")


if __name__ == "__main__":
    main()
