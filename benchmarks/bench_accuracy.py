"""Static references (``nav_references`` with ``source: "map"``) against a warm basedpyright.

    python -m benchmarks.bench_accuracy [--corpus django] [--symbols 80] [--seed 11]

Symbols are picked independently of codenav's own index: from ``ctags -R`` when installed
(else a regex walk over ``def``/``class`` lines), by a seeded random draw stratified by kind.
For each one, at its definition's name: a warm basedpyright's references (declaration left
out, ``benchmarks/lsp_truth.py``) and codenav's ``nav_references`` through the tool (answers cut
by the token budget are drained folder by folder with ``fileFilter``). Prints precision and
recall, micro-averaged over all references, at exact positions and at line level, per kind,
and the worst misses with their source lines. SPEC §7 bar: precision >= 0.95, recall >= 0.90.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import shutil
import subprocess
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.corpora import CORPORA, fetch, source_files
from benchmarks.lsp_truth import TruthServer
from codenav.index.pipeline import index_tree
from codenav.tools.dispatch import call_tool
from codenav.workspace import Workspace

Position = tuple[str, int, int]

_CTAGS_KINDS = {"class": "class", "function": "function", "member": "method",
                "variable": "variable"}


@dataclass
class Symbol:
    path: str
    line: int
    col: int
    name: str
    kind: str
    truth: set[Position] = field(default_factory=set)
    mapped: set[Position] = field(default_factory=set)
    error: str | None = None


def _col(text: str, name: str) -> int | None:
    match = re.search(rf"(?:^|(?<=[^\w]))({re.escape(name)})(?=[^\w]|$)", text)
    if match is None:
        return None
    return len(text[: match.start(1)].encode("utf-16-le")) // 2 + 1


def from_ctags(root: Path) -> list[Symbol]:
    out = subprocess.run(["ctags", "-R", "--languages=Python", "--fields=+nK",
                          "--output-format=json", "-f", "-", "."], cwd=root,
                         capture_output=True, text=True, check=True).stdout
    found = []
    for line in out.splitlines():
        tag = json.loads(line)
        kind = _CTAGS_KINDS.get(tag.get("kind", ""))
        if kind is None or "line" not in tag:
            continue
        path = tag["path"].removeprefix("./")
        text = (root / path).read_text("utf-8", "replace").splitlines()[tag["line"] - 1]
        col = _col(text, tag["name"])
        if col is not None:
            found.append(Symbol(path, tag["line"], col, tag["name"], kind))
    return found


def from_regex(root: Path) -> list[Symbol]:
    found = []
    pattern = re.compile(r"^(\s*)(?:async\s+)?(def|class)\s+(\w+)")
    for file in source_files(root):
        rel = file.relative_to(root).as_posix()
        for number, text in enumerate(file.read_text("utf-8", "replace").splitlines(), 1):
            match = pattern.match(text)
            if match:
                kind = "class" if match.group(2) == "class" else (
                    "method" if match.group(1) else "function")
                found.append(Symbol(rel, number, match.start(3) + 1, match.group(3), kind))
    return found


def pick(symbols: list[Symbol], count: int, seed: int) -> list[Symbol]:
    """A seeded draw, spread evenly over kinds (private names kept: they are code too)."""
    rng = random.Random(seed)
    by_kind: dict[str, list[Symbol]] = {}
    for symbol in symbols:
        by_kind.setdefault(symbol.kind, []).append(symbol)
    chosen: list[Symbol] = []
    kinds = sorted(by_kind)
    while len(chosen) < count and any(by_kind.values()):
        for kind in kinds:
            if by_kind[kind] and len(chosen) < count:
                chosen.append(by_kind[kind].pop(rng.randrange(len(by_kind[kind]))))
    return chosen


async def _references(ws: Workspace, args: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    envelope = await call_tool(ws, "nav_references", {**args, "source": "map",
                                                      "tokenBudget": 10000})
    return envelope, bool(envelope.get("truncated"))


async def map_references(ws: Workspace, symbol: Symbol) -> set[Position] | str:
    """Everything ``nav_references`` answers, draining cut answers folder by folder."""
    where = {"file": symbol.path, "line": symbol.line, "col": symbol.col}
    envelope, truncated = await _references(ws, where)
    if not envelope["ok"]:
        return envelope["error"]["code"]
    found: set[Position] = set()

    def collect(answer: dict[str, Any]) -> None:
        for group in answer["data"].get("references", []):
            for ref in group["refs"]:
                found.add((group["file"], ref["line"], ref["col"]))

    collect(envelope)
    if truncated:
        pending = sorted({p.rsplit("/", 1)[0] + "/" if "/" in p else p
                          for p in (f.relative_to(ws.root).as_posix()
                                    for f in ws.root.iterdir())})
        while pending:
            scope = pending.pop()
            answer, cut = await _references(ws, {**where, "fileFilter": scope})
            if cut and scope.endswith("/"):
                pending += [f"{scope}{child.name}" + ("/" if child.is_dir() else "")
                            for child in (ws.root / scope).iterdir()]
            collect(answer)
    return found


def score(symbols: list[Symbol], level: str) -> tuple[float, float, int, int, int]:
    def key(position: Position) -> tuple[Any, ...]:
        return position if level == "position" else position[:2]

    hit = mapped = truth = 0
    for s in symbols:
        got, want = {key(p) for p in s.mapped}, {key(p) for p in s.truth}
        hit += len(got & want)
        mapped += len(got)
        truth += len(want)
    return (hit / mapped if mapped else 1.0, hit / truth if truth else 1.0, hit, mapped, truth)


async def run(root: Path, symbols: list[Symbol], db: Path) -> None:
    ws = Workspace(root, db)
    async with TruthServer(root) as truth:
        probe = symbols[0]
        await truth.warm((probe.path, probe.line, probe.col))
        print(f"basedpyright: {truth.timings.summary()}")
        for symbol in symbols:
            try:
                symbol.truth = set(await truth.references(
                    (symbol.path, symbol.line, symbol.col), include_declaration=False))
            except Exception as exc:  # noqa: BLE001 - a benchmark reports, not crashes
                symbol.error = f"basedpyright: {exc}"
                continue
            symbol.truth = {p for p in symbol.truth if not p[0].startswith("/")}
            symbol.truth.discard((symbol.path, symbol.line, symbol.col))
            mapped = await map_references(ws, symbol)
            if isinstance(mapped, str):
                symbol.error = f"codenav: {mapped}"
            else:
                symbol.mapped = mapped
    print(f"basedpyright: {truth.timings.summary()}")


def show(root: Path, symbols: list[Symbol]) -> None:
    measured = [s for s in symbols if s.error is None]
    errors = Counter(s.error for s in symbols if s.error)
    print(f"\n{len(measured)} symbols measured ({len(symbols) - len(measured)} not: "
          f"{dict(errors)})")
    print(f"{'':<24} {'precision':>10} {'recall':>8} {'hits':>6} {'codenav':>8} "
          f"{'pyright':>8}")
    for level in ("position", "line"):
        p, r, hit, mapped, truth = score(measured, level)
        print(f"{'all, ' + level:<24} {p:>10.3f} {r:>8.3f} {hit:>6} {mapped:>8} {truth:>8}")
    for kind in sorted({s.kind for s in measured}):
        of_kind = [s for s in measured if s.kind == kind]
        p, r, hit, mapped, truth = score(of_kind, "position")
        print(f"{kind + f' ({len(of_kind)})':<24} {p:>10.3f} {r:>8.3f} {hit:>6} {mapped:>8} "
              f"{truth:>8}")
    macro_r = [len(s.mapped & s.truth) / len(s.truth) for s in measured if s.truth]
    if macro_r:
        print(f"per-symbol mean recall {sum(macro_r) / len(macro_r):.3f} over "
              f"{len(macro_r)} symbols with references")

    def line(position: Position) -> str:
        try:
            text = (root / position[0]).read_text("utf-8", "replace").splitlines()
            return text[position[1] - 1].strip()[:100]
        except (OSError, IndexError):
            return "?"

    print("\nworst misses (pyright found, codenav did not):")
    ranked = sorted(measured, key=lambda s: -len(s.truth - s.mapped))
    for s in ranked[:8]:
        missing = sorted(s.truth - s.mapped)
        if not missing:
            break
        print(f"  {s.kind} {s.name} ({s.path}:{s.line}) — {len(missing)} of {len(s.truth)} "
              "missing, e.g.:")
        for position in missing[:3]:
            print(f"      {position[0]}:{position[1]}:{position[2]}  {line(position)}")
    print("\nworst extras (codenav found, pyright did not):")
    ranked = sorted(measured, key=lambda s: -len(s.mapped - s.truth))
    for s in ranked[:8]:
        extra = sorted(s.mapped - s.truth)
        if not extra:
            break
        print(f"  {s.kind} {s.name} ({s.path}:{s.line}) — {len(extra)} of {len(s.mapped)} "
              "extra, e.g.:")
        for position in extra[:3]:
            print(f"      {position[0]}:{position[1]}:{position[2]}  {line(position)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default="django", choices=sorted(CORPORA))
    parser.add_argument("--symbols", type=int, default=80)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    root = fetch(CORPORA[args.corpus])
    candidates = from_ctags(root) if shutil.which("ctags") else from_regex(root)
    source = "ctags" if shutil.which("ctags") else "a regex walk"
    symbols = pick(candidates, args.symbols, args.seed)
    print(f"corpus {args.corpus}: {root}; {len(candidates)} candidate symbols from {source}, "
          f"{len(symbols)} drawn (seed {args.seed}): {dict(Counter(s.kind for s in symbols))}")
    db = Path(tempfile.mkdtemp()) / "map.db"
    report = index_tree(root, db)
    print(f"codenav map: {report.nodes:,} nodes, {report.refs:,} refs in {report.seconds:.2f} s")
    asyncio.run(run(root, symbols, db))
    show(root, symbols)


if __name__ == "__main__":
    main()
