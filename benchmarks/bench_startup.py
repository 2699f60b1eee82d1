"""``codenav mcp`` from spawn to ``initialize`` answered, on a tree of many folders, with the
file watcher on and off; how long the watch then takes to be set up (what ``initialize``
used to wait for); and how soon the process is gone once stdin closes.

    python -m benchmarks.bench_startup [--folders 10000] [--repeat 3]

The tree is written once into a temporary folder: ``--folders`` folders (100 per parent),
one Python file in every 50th, and mapped first (``codenav index``), so that each round is a
start on a mapped tree — what an agent's client does every session. Each round spawns
``codenav mcp ROOT --lsp off`` (and again with ``--no-watch``) and speaks JSON-RPC to it by
hand: the time from the spawn to the line answering ``initialize``; then
``notifications/initialized`` and ``map_status`` every 20 ms until the watcher says
``watching`` (the watch's setup, measured from the spawn); then stdin is closed and the
time until the process has exited, and the size of ``map.db-wal`` left. Median of
``--repeat`` rounds. Target (issue #22): ``initialize`` within 1.5 s with the watcher on;
exit within 3 s of stdin closing.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.mcp_wire import answer, send
from benchmarks.timing import Stopwatch, median


def make_tree(root: Path, folders: int) -> None:
    for i in range(folders):
        folder = root / f"d{i // 100:03}" / f"e{i % 100:02}"
        folder.mkdir(parents=True, exist_ok=True)
        if i % 50 == 0:
            (folder / f"m{i}.py").write_text(f"def f{i}(x):\n    return x + {i}\n")


def one_start(root: Path, watch: bool) -> dict[str, float]:
    command = [sys.executable, "-m", "codenav", "mcp", str(root), "--lsp", "off",
               "--log-level", "warning"] + ([] if watch else ["--no-watch"])
    clock = Stopwatch()
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL)
    assert proc.stdin is not None and proc.stdout is not None
    send(proc.stdin, {"id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "bench_startup", "version": "1"}}})
    answer(proc.stdout, 1)
    initialized = clock.seconds()
    send(proc.stdin, {"method": "notifications/initialized"})
    watching = float("nan")
    ident = 2
    waited = Stopwatch()
    while watch and waited.seconds() < 120:
        send(proc.stdin, {"id": ident, "method": "tools/call",
                           "params": {"name": "map_status", "arguments": {}}})
        result = answer(proc.stdout, ident)["result"]["structuredContent"]
        ident += 1
        if result["data"]["watcher"]["state"] == "watching":
            watching = clock.seconds()
            break
        time.sleep(0.02)
    proc.stdin.close()
    closed = Stopwatch()
    proc.wait(timeout=30)
    gone = closed.seconds()
    proc.stdout.close()
    wal = root / ".codenav" / "map.db-wal"
    return {"initialize_s": initialized, "watching_s": watching, "exit_s": gone,
            "wal_bytes": wal.stat().st_size if wal.exists() else 0}


def run(folders: int = 10_000, repeat: int = 3) -> dict[str, Any]:
    """Median figures with the watcher on and off, printed as a table."""
    with tempfile.TemporaryDirectory(prefix="codenav-startup-") as tmp:
        root = Path(tmp) / "tree"
        make_tree(root, folders)
        subprocess.run([sys.executable, "-m", "codenav", "index", str(root), "--quiet"],
                       check=True)
        rows: dict[str, dict[str, float]] = {}
        for watch in (True, False):
            runs = [one_start(root, watch) for _ in range(repeat)]
            rows["on" if watch else "off"] = {key: median(r[key] for r in runs)
                                              for key in runs[0]}
    print(f"codenav mcp on {folders:,} folders ({folders // 50} .py files), map built; "
          f"median of {repeat}")
    print("| watcher | spawn → initialize answered | spawn → watch set up | stdin closed → "
          "exit | WAL left |")
    print("|---|---:|---:|---:|---:|")
    for mode, row in rows.items():
        watching = f"{row['watching_s']:.2f} s" if mode == "on" else "—"
        print(f"| {'on' if mode == 'on' else 'off (--no-watch)'} | "
              f"{row['initialize_s']:.2f} s | {watching} | {row['exit_s']:.2f} s | "
              f"{row['wal_bytes']:,.0f} B |")
    on = rows["on"]
    print(f"initialize with the watcher on: {on['initialize_s']:.2f} s (target ≤ 1.5 s): "
          f"{'met' if on['initialize_s'] <= 1.5 else 'MISSED'}; exit {on['exit_s']:.2f} s "
          f"(target ≤ 3 s): {'met' if on['exit_s'] <= 3 else 'MISSED'}", flush=True)
    return {"folders": folders, "repeat": repeat, **rows}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--folders", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    run(args.folders, args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
