"""Ground truth from a warm basedpyright: references and definitions at given positions.

    python -m benchmarks.lsp_truth ROOT FILE LINE COL [FILE LINE COL ...]
        [--definitions] [--include-declaration] [--timeout S] [--json]

Positions in and out are codenav's: repo-relative path (relative to ROOT, ``/``-separated),
1-based line, 1-based UTF-16 column; LSP's 0-based positions are used only inside this file.
A result outside ROOT keeps its absolute path. Timings go to stderr, answers to stdout.

``references(root, positions, ...)`` and ``definitions(root, positions, ...)`` start one
server, warm it, ask, and close it; ``TruthServer`` keeps one warm server for many questions.

**Warming up.** basedpyright answers before it has enumerated the workspace, and that early
answer covers only the open files: on Django, ``Field`` got 22 references in 1 file for the
first ~8 s, then 79 in 23 files. Two identical answers in a row are *not* a signal (the cold
answer repeats until the enumeration finishes). The signal is the ``window/logMessage``
"Found N source files" that pyright logs once the file list is built; after it, the probe
question is asked until two consecutive answers are identical. Without that message (another
server) the probe must be stable three times over at least 10 s.

**Imports of the package itself.** When ROOT is a package directory (Django's ``django/``),
``import django.db`` resolves only if ROOT's parent is on the search path, so the parent is
given as ``extraPaths``; without it, ``Field`` has 28 references instead of 79.

**includeDeclaration** is passed through, but basedpyright reads ``false`` as "leave out the
location asked about", not "leave out the declaration" (asked at a use, the ``def`` stays).

Measured on this 2-vCPU machine: Django 5.2.19 ``django/`` (885 files), basedpyright 1.40.2,
one run per line of the CLI, 5 runs, ``Field`` (fields/__init__.py:119:7) as the probe:

- spawn + ``initialize``: 0.42-0.56 s.
- "Found 885 source files": 5.6-7.8 s after spawn (probe file opened at once).
- warm: 8.3-10.0 s after spawn; the first answer after discovery was already complete
  (78, confirmed by the second) and took 1.4-2.1 s.
- asked at once instead (no waiting, one run): the first three answers (taking 1.8, 0.4
  and 5.3 s) had 22 references in 1 file, the fourth (asked at 8.0 s, 2.4 s) 79 in 23 files;
  repeats 0.14-0.21 s.
- warm references: 0.07-0.63 s per question when its file is already open (Field 78,
  CharField 104, QuerySet 12, get_prep_value 17, cached_property 357 references, declaration
  excluded); 1.6-2.3 s for the first question in a file not yet open (query.py, which the
  server then checks).
- warm definitions: 2-50 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import shutil
import statistics
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lsprotocol import types as T

from codenav.lsp.client import LspClient

__all__ = ["Position", "Timings", "TruthServer", "basedpyright_command", "definitions",
           "references"]

Position = tuple[str, int, int]  # path relative to ROOT, 1-based line, 1-based UTF-16 column

_DISCOVERED = re.compile(r"^Found (\d+) source files?\b")
_NO_SIGNAL_STABLE_ANSWERS = 3
_NO_SIGNAL_MIN_SECONDS = 10.0


def basedpyright_command() -> list[str]:
    """``basedpyright-langserver --stdio`` from PATH or next to this Python."""
    name = "basedpyright-langserver"
    found = shutil.which(name) or shutil.which(name, path=str(Path(sys.executable).parent))
    if found is None:
        raise FileNotFoundError(f"{name} not found; pip install basedpyright")
    return [found, "--stdio"]


@dataclass
class Timings:
    """Seconds, all measured from the spawn of the server."""

    initialized: float = 0.0
    discovered: float | None = None  # the "Found N source files" message
    source_files: int | None = None
    warm: float | None = None
    warmup_answers: list[int] = field(default_factory=list)  # sizes while warming
    latencies: list[float] = field(default_factory=list)  # per question once warm

    def summary(self) -> str:
        parts = [f"initialize {self.initialized:.2f} s"]
        if self.discovered is not None:
            parts.append(f"found {self.source_files} source files at {self.discovered:.2f} s")
        if self.warm is not None:
            parts.append(f"warm at {self.warm:.2f} s (answers while warming: "
                         f"{self.warmup_answers})")
        if self.latencies:
            parts.append(f"{len(self.latencies)} questions: min {min(self.latencies):.3f} s, "
                         f"median {statistics.median(self.latencies):.3f} s, "
                         f"max {max(self.latencies):.3f} s")
        return "; ".join(parts)


class TruthServer:
    """One basedpyright on ``root``, warmed once, asked many questions."""

    def __init__(self, root: Path, cmd: Sequence[str] | None = None) -> None:
        self.root = root.resolve()
        self.cmd = list(cmd) if cmd is not None else basedpyright_command()
        self.client = LspClient("codenav-lsp-truth")
        self.timings = Timings()
        self._spawned = 0.0
        self._discovered = asyncio.Event()
        self._warm = False

    async def __aenter__(self) -> TruthServer:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def start(self, init_timeout: float = 60.0) -> None:
        self.client.on_notification(T.WINDOW_LOG_MESSAGE, self._on_log)
        extra = [str(self.root.parent)] if (self.root / "__init__.py").is_file() else []
        analysis = {"extraPaths": extra}
        settings = {"basedpyright": {"analysis": analysis}, "python": {"analysis": analysis}}
        self._spawned = time.perf_counter()
        await self.client.start(self.cmd, self.root, init_timeout=init_timeout,
                                settings=settings)
        self.timings.initialized = time.perf_counter() - self._spawned

    async def close(self) -> None:
        await self.client.close()

    async def warm(self, probe: Position, *, kind: str = "references",
                   include_declaration: bool = False, timeout: float = 180.0) -> None:
        """Return once answers about ``probe`` are complete (see the module docstring)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        self._open(probe[0])
        try:
            await asyncio.wait_for(self._discovered.wait(), timeout)
            needed, min_seconds = 2, 0.0
        except asyncio.TimeoutError:
            print(f"lsp_truth: no 'Found N source files' from the server within {timeout:g} s;"
                  " warming on answer stability alone", file=sys.stderr)
            needed, min_seconds = _NO_SIGNAL_STABLE_ANSWERS, _NO_SIGNAL_MIN_SECONDS
        ask = self._asker(kind, include_declaration)
        previous: list[Position] | None = None
        same = 0
        while True:
            answer = await ask(probe, max(deadline - loop.time(), 1.0))
            self.timings.warmup_answers.append(len(answer))
            same = same + 1 if answer == previous else 1
            previous = answer
            elapsed = time.perf_counter() - self._spawned
            if same >= needed and elapsed >= min_seconds:
                break
            if loop.time() > deadline:
                raise TimeoutError(f"answers about {probe} still changing after {timeout:g} s")
        self.timings.warm = time.perf_counter() - self._spawned
        self._warm = True

    async def references(self, position: Position, include_declaration: bool = False,
                         timeout: float = 60.0) -> list[Position]:
        return await self._timed(self._references, position, timeout,
                                 include_declaration=include_declaration)

    async def definitions(self, position: Position, timeout: float = 60.0) -> list[Position]:
        return await self._timed(self._definitions, position, timeout)

    # -- internals --------------------------------------------------------------------------

    def _on_log(self, _method: str, params: Any) -> None:
        match = _DISCOVERED.match(getattr(params, "message", ""))
        if match and not self._discovered.is_set():
            self.timings.discovered = time.perf_counter() - self._spawned
            self.timings.source_files = int(match.group(1))
            self._discovered.set()

    def _asker(self, kind: str, include_declaration: bool
               ) -> Callable[[Position, float], Awaitable[list[Position]]]:
        if kind == "references":
            return lambda pos, timeout: self._references(pos, timeout, include_declaration)
        if kind == "definitions":
            return self._definitions
        raise ValueError(f"unknown kind {kind!r}")

    async def _timed(self, ask: Callable[..., Awaitable[list[Position]]], position: Position,
                     timeout: float, **kwargs: Any) -> list[Position]:
        if not self._warm:
            raise RuntimeError("call warm() first: a cold basedpyright answers incompletely")
        started = time.perf_counter()
        answer = await ask(position, timeout, **kwargs)
        self.timings.latencies.append(time.perf_counter() - started)
        return answer

    async def _references(self, position: Position, timeout: float,
                          include_declaration: bool = False) -> list[Position]:
        result = await self.client.request(T.TEXT_DOCUMENT_REFERENCES, T.ReferenceParams(
            text_document=self._open(position[0]), position=_to_lsp(position),
            context=T.ReferenceContext(include_declaration=include_declaration)), timeout)
        return self._positions(result)

    async def _definitions(self, position: Position, timeout: float) -> list[Position]:
        result = await self.client.request(T.TEXT_DOCUMENT_DEFINITION, T.DefinitionParams(
            text_document=self._open(position[0]), position=_to_lsp(position)), timeout)
        return self._positions(result)

    def _open(self, rel: str) -> T.TextDocumentIdentifier:
        path = self.root / rel
        if not self.client.is_open(path):
            self.client.open_document(path, path.read_text(encoding="utf-8"), "python")
        return T.TextDocumentIdentifier(uri=self.client.uri_for(path))

    def _positions(self, result: Any) -> list[Position]:
        # lsprotocol structures Sequence[...] results as tuples or lists, a lone Location as is
        items = [] if result is None else result if isinstance(result, (list, tuple)) else [
            result]
        found: set[Position] = set()
        for item in items:
            if isinstance(item, T.LocationLink):
                uri, start = item.target_uri, item.target_selection_range.start
            else:
                uri, start = item.uri, item.range.start
            path = self.client.relpath(uri) or self.client.path_for(uri).as_posix()
            found.add((path, start.line + 1, start.character + 1))
        return sorted(found)


def _to_lsp(position: Position) -> T.Position:
    _, line, col = position
    if line < 1 or col < 1:
        raise ValueError(f"positions are 1-based: {position}")
    return T.Position(line=line - 1, character=col - 1)


async def _ask_all(root: Path, positions: list[Position], kind: str, include_declaration: bool,
                   timeout: float, cmd: Sequence[str] | None, warm_timeout: float,
                   timings: Timings | None) -> list[list[Position]]:
    if not positions:
        return []
    server = TruthServer(root, cmd)
    try:
        await server.start()
        await server.warm(positions[0], kind=kind, include_declaration=include_declaration,
                          timeout=warm_timeout)
        answers = []
        for position in positions:
            if kind == "references":
                answers.append(await server.references(position, include_declaration, timeout))
            else:
                answers.append(await server.definitions(position, timeout))
        return answers
    finally:
        await server.close()
        if timings is not None:
            timings.__dict__.update(server.timings.__dict__)


async def references(root: Path, positions: list[Position], include_declaration: bool = False,
                     timeout: float = 60, *, cmd: Sequence[str] | None = None,
                     warm_timeout: float = 180.0,
                     timings: Timings | None = None) -> list[list[Position]]:
    """For each position, the sorted references a warm basedpyright reports."""
    return await _ask_all(root, positions, "references", include_declaration, timeout, cmd,
                          warm_timeout, timings)


async def definitions(root: Path, positions: list[Position], timeout: float = 60, *,
                      cmd: Sequence[str] | None = None, warm_timeout: float = 180.0,
                      timings: Timings | None = None) -> list[list[Position]]:
    """For each position, the sorted definitions a warm basedpyright reports."""
    return await _ask_all(root, positions, "definitions", False, timeout, cmd, warm_timeout,
                          timings)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path, help="a Python tree, e.g. Django's django/ folder")
    parser.add_argument("triples", nargs="+", metavar="FILE LINE COL",
                        help="positions: repo-relative file, 1-based line, 1-based column")
    parser.add_argument("--definitions", action="store_true", help="ask for definitions")
    parser.add_argument("--include-declaration", action="store_true")
    parser.add_argument("--timeout", type=float, default=60.0, help="per question, seconds")
    parser.add_argument("--warm-timeout", type=float, default=180.0)
    parser.add_argument("--json", action="store_true", help="one JSON document on stdout")
    args = parser.parse_args(argv)
    if len(args.triples) % 3:
        parser.error("positions come in threes: FILE LINE COL")
    try:
        positions = [(args.triples[i], int(args.triples[i + 1]), int(args.triples[i + 2]))
                     for i in range(0, len(args.triples), 3)]
    except ValueError:
        parser.error("LINE and COL are integers")
    if not args.root.is_dir():
        parser.error(f"{args.root} is not a directory")

    timings = Timings()
    if args.definitions:
        answers = asyncio.run(definitions(args.root, positions, args.timeout,
                                          warm_timeout=args.warm_timeout, timings=timings))
    else:
        answers = asyncio.run(references(args.root, positions, args.include_declaration,
                                         args.timeout, warm_timeout=args.warm_timeout,
                                         timings=timings))
    kind = "definitions" if args.definitions else "references"
    if args.json:
        print(json.dumps({"root": str(args.root), "kind": kind, "timings": timings.__dict__,
                          "answers": [{"position": list(p), kind: [list(a) for a in answer]}
                                      for p, answer in zip(positions, answers, strict=True)]}))
    else:
        for position, answer in zip(positions, answers, strict=True):
            print(f"{position[0]}:{position[1]}:{position[2]}  {len(answer)} {kind}")
            for path, line, col in answer:
                print(f"    {path}:{line}:{col}")
    print(f"lsp_truth: {timings.summary()}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
