"""Files made to exhaust an indexer, and a server asked questions while it maps them.

    python -m benchmarks.bench_hostile [--repeat 3]

Three files of issue 23, each alone in a tree, indexed by ``codenav index`` (a fresh map
each round): a Go ``var`` of 2,000 names (tree-sitter's query is cubic in the names: 425 s
before parser processes had a hard deadline), a 2 MB one-line JavaScript file of 60,000
declarators (284 s: each declarator's signature sliced and split the whole line), and 2 MiB
of ``a=b`` lines (1.38 GB in one parser process). Measured: the run's wall time, the file's
status, and the peak resident memory of the largest process of the run (``wait4``'s
``ru_maxrss`` covers the parser processes it waited for). Baseline, in the same run: a
well-formed 2 MB Python file (10,000 small functions) — what a big legitimate file costs.
Bars (issue 23): each hostile file ≤ 5 s, ≤ 500 MB, marked ``timeout``.

Then a tree of those three files and 3,000 ordinary ones is given to ``codenav mcp`` with no
map (its first build runs in the background) and ``map_status`` is asked every 50 ms over
stdio until the map is built: the round trips' median and worst. Baseline: the same tree
without the three files. Bar: every answer within 100 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.mcp_wire import answer, send
from benchmarks.timing import Stopwatch, median


def hostile() -> dict[str, str]:
    names = ", ".join(f"a{i}" for i in range(2000))
    parts = ",".join(f"v{i}=function(a){{return a+{i}}}" for i in range(60000))
    return {"v.go": f"package p\nvar {names} int\n",
            "one.js": f"var {parts};\n",
            "ab.py": "a=b\n" * (2 * 1024 * 1024 // 4 - 10)}


def legitimate() -> dict[str, str]:
    body = "".join(f"def f{i}(x, y=1):\n    \"\"\"Doc {i}.\"\"\"\n    return x * y + {i}\n\n\n"
                   for i in range(10000))
    return {"big.py": body[: 2 * 1024 * 1024 - 1024]}


def ordinary(count: int) -> dict[str, str]:
    return {f"pkg/m{i}.py": f"def f{i}(x):\n    return g{i}(x)\n\n\ndef g{i}(y):\n    return y\n"
            for i in range(count)}


def write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


def index_once(root: Path) -> tuple[float, int, list[dict[str, str]]]:
    """Wall seconds, peak RSS (bytes) of the run's largest process, failed files."""
    shutil.rmtree(root / ".codenav", ignore_errors=True)
    clock = Stopwatch()
    proc = subprocess.Popen([sys.executable, "-m", "codenav", "index", str(root), "--json",
                             "--log-level", "error"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL)
    assert proc.stdout is not None
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    took = clock.seconds()
    proc.returncode = os.waitstatus_to_exitcode(status)
    report = json.loads(out)
    return took, usage.ru_maxrss * 1024, report["failed"]


def bench_files(repeat: int) -> list[dict[str, Any]]:
    rows = []
    cases = {**{name: {name: text} for name, text in hostile().items()},
             "big.py (baseline)": legitimate()}
    for label, files in cases.items():
        with tempfile.TemporaryDirectory() as tmp:
            root = write(Path(tmp), files)
            runs = [index_once(root) for _ in range(repeat)]
        rows.append({"file": label, "seconds": median(r[0] for r in runs),
                     "worst_s": max(r[0] for r in runs),
                     "peak_mb": max(r[1] for r in runs) / 2**20,
                     "status": runs[-1][2][0]["status"] if runs[-1][2] else "ok"})
    return rows


def status_latency(root: Path) -> dict[str, float]:
    """map_status round trips over stdio, every 50 ms, while the first map is built."""
    proc = subprocess.Popen([sys.executable, "-m", "codenav", "mcp", str(root), "--lsp", "off",
                             "--no-watch", "--log-level", "error"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        send(proc.stdin, {"id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "bench", "version": "0"}}})
        answer(proc.stdout, 1)
        send(proc.stdin, {"method": "notifications/initialized"})
        times: list[float] = []
        clock, ident = Stopwatch(), 1
        while clock.seconds() < 120:
            ident += 1
            asked = Stopwatch()
            send(proc.stdin, {"id": ident, "method": "tools/call",
                               "params": {"name": "map_status", "arguments": {}}})
            reply = answer(proc.stdout, ident)
            times.append(asked.ms())
            data = reply["result"]["structuredContent"].get("data", {})
            if data.get("built") and not data.get("building"):
                break
            time.sleep(0.05)
        return {"answers": len(times), "p50_ms": median(times),
                "worst_ms": max(times), "build_s": clock.seconds()}
    finally:
        proc.stdin.close()
        proc.wait(10)


def bench_server() -> list[dict[str, Any]]:
    rows = []
    for label, files in (("with the three files", {**ordinary(3000), **hostile()}),
                         ("baseline: without them", ordinary(3000))):
        with tempfile.TemporaryDirectory() as tmp:
            rows.append({"tree": label, **status_latency(write(Path(tmp), files))})
    return rows


def run(repeat: int) -> dict[str, Any]:
    return {"files": bench_files(repeat), "server": bench_server()}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    results = run(args.repeat)
    print(f"codenav index, one file per tree (median of {args.repeat}; bars: <= 5 s, "
          "<= 500 MB, timeout)")
    print(f"{'file':<20} {'median s':>9} {'worst s':>8} {'peak MB':>8}  status")
    for row in results["files"]:
        print(f"{row['file']:<20} {row['seconds']:>9.2f} {row['worst_s']:>8.2f} "
              f"{row['peak_mb']:>8.0f}  {row['status']}")
    print("\nmap_status over stdio every 50 ms while codenav mcp builds its first map "
          "(bar: <= 100 ms)")
    print(f"{'tree':<24} {'answers':>8} {'p50 ms':>8} {'worst ms':>9} {'build s':>8}")
    for row in results["server"]:
        print(f"{row['tree']:<24} {row['answers']:>8} {row['p50_ms']:>8.1f} "
              f"{row['worst_ms']:>9.1f} {row['build_s']:>8.1f}")


if __name__ == "__main__":
    main()
