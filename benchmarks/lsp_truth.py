"""Ground truth from a warm basedpyright (Python) or typescript-language-server (TypeScript).

    python -m benchmarks.lsp_truth ROOT FILE LINE COL [FILE LINE COL ...]
        [--server basedpyright|typescript-language-server]
        [--definitions] [--include-declaration] [--timeout S] [--json]

Positions in and out are codenav's: repo-relative path (relative to ROOT, ``/``-separated),
1-based line, 1-based UTF-16 column; LSP's 0-based positions are used only inside this file.
A result outside ROOT keeps its absolute path. Timings go to stderr, answers to stdout.

``references(root, positions, ...)`` and ``definitions(root, positions, ...)`` start one
server, warm it, ask, and close it; ``TruthServer`` keeps one warm server for many questions.
``server=`` names the server (``SERVERS``); basedpyright is the default.

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

**typescript-language-server** (``--stdio``, installed on first use by
``benchmarks/npm_tools.py``: typescript-language-server 5.3.0, typescript 5.9.3, whose
``tsserver`` is given as the ``tsserver.path`` initialization option; automatic type
acquisition is off: it ran npm in the background and delayed loading a 3-file project from
~2.7 s to ~8 s). tsserver builds one
program per ``tsconfig.json``, found upwards from each opened file, so ROOT needs one that
includes its sources (``write_minimal_tsconfig`` writes one; the corpora write their own).
It also answers before the program is loaded, from the open file alone: on rxjs 7.8.2
``src/``, ``Observable`` had 17 references in 1 file until ~4 s, then 392 in 80 files. The
signal is the end of the ``$/progress`` whose begin was titled "Initializing JS/TS language
features"; after it, two identical answers in a row. With ``includeDeclaration: false`` the
server leaves out every declaration of the symbol (all overload signatures, not only the one
asked about); import and export specifiers are references. Measured on rxjs ``src/`` (251
files), ``Observable`` as the probe: spawn + ``initialize`` 0.2-0.4 s, program loaded 3-5 s,
first answer after that 0.3 s, repeats 0.07-0.09 s; 150 questions: median 0.02 s, max 0.3 s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import sys
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lsprotocol import types as T

from benchmarks.symbols import Position, Symbol
from benchmarks.timing import Stopwatch, median
from codenav.lsp.client import LspClient

__all__ = ["SERVERS", "Position", "ServerSpec", "Symbol", "Timings", "TruthServer",
           "basedpyright_command", "definitions", "references",
           "typescript_language_server_command", "write_minimal_tsconfig"]


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


def typescript_language_server_command() -> list[str]:
    """``typescript-language-server --stdio``, the pinned one, installed on first use."""
    from benchmarks.npm_tools import typescript_language_server_command as command

    return command()


def _tsls_init_options(_root: Path) -> dict[str, Any]:
    from benchmarks.npm_tools import tsserver_path

    # no automatic type acquisition: it would run npm in the background for @types packages
    return {"tsserver": {"path": str(tsserver_path())},
            "disableAutomaticTypingAcquisition": True}


def _pyright_settings(root: Path) -> dict[str, Any]:
    extra = [str(root.parent)] if (root / "__init__.py").is_file() else []
    analysis = {"extraPaths": extra}
    return {"basedpyright": {"analysis": analysis}, "python": {"analysis": analysis}}


@dataclass(frozen=True)
class ServerSpec:
    """How to run one language server and tell when it is warm."""

    name: str
    command: Callable[[], list[str]]
    language_ids: Mapping[str, str]  # file suffix -> LSP languageId
    settings: Callable[[Path], Mapping[str, Any] | None] = lambda _root: None
    initialization_options: Callable[[Path], Mapping[str, Any] | None] = lambda _root: None
    # the workspace is loaded once a window/logMessage matches this (group 1: file count) …
    discovered_log: re.Pattern[str] | None = None
    # … or once the $/progress that began with this title ends
    loading_progress: str | None = None
    # server-specific notifications accepted and ignored (pygls logs unknown methods)
    ignored_notifications: tuple[str, ...] = ()
    # the server's process environment, added to this one's
    env: Mapping[str, str] | None = None

    def language_id(self, rel: str) -> str:
        for suffix, language_id in self.language_ids.items():
            if rel.endswith(suffix):
                return language_id
        return next(iter(self.language_ids.values()))


SERVERS = {
    "basedpyright": ServerSpec(
        "basedpyright", basedpyright_command, {".py": "python", ".pyi": "python"},
        settings=_pyright_settings, discovered_log=_DISCOVERED),
    "typescript-language-server": ServerSpec(
        "typescript-language-server", typescript_language_server_command,
        {".tsx": "typescriptreact", ".ts": "typescript", ".mts": "typescript",
         ".cts": "typescript", ".jsx": "javascriptreact", ".js": "javascript",
         ".mjs": "javascript", ".cjs": "javascript"},
        initialization_options=_tsls_init_options,
        loading_progress="Initializing JS/TS language features",
        ignored_notifications=("$/typescriptVersion",)),
    # gopls on a module whose dependencies are vendored (vendor/modules.txt): offline, the
    # go command reads them from there and never from a proxy or the module cache
    "gopls": ServerSpec(
        "gopls", lambda: _on_path("gopls", "apt-get install gopls golang-go"), {".go": "go"},
        loading_progress="Setting up workspace",
        env={"GOFLAGS": "-mod=vendor", "GOPROXY": "off", "GOTOOLCHAIN": "local"}),
    # clangd with its background index over ROOT's compile_commands.json (written into the
    # corpus copy's .cache/clangd): loaded when the "indexing" progress ends
    "clangd": ServerSpec(
        "clangd", lambda: [*_on_path("clangd", "apt-get install clangd"),
                           "--background-index"], {".c": "c", ".h": "c"},
        loading_progress="indexing"),
}


def _on_path(name: str, install: str) -> list[str]:
    found = shutil.which(name)
    if found is None:
        raise FileNotFoundError(f"{name} not found; {install}")
    return [found]


def write_minimal_tsconfig(root: Path, include: Sequence[str] = ("**/*",)) -> Path | None:
    """Write ``root/tsconfig.json`` making ``root`` one program, unless a tsconfig is there."""
    path = root / "tsconfig.json"
    if path.exists() or (root / "jsconfig.json").exists():
        return None
    config = {"compilerOptions": {"allowJs": False, "noEmit": True, "strict": True,
                                  "target": "es2022", "module": "esnext",
                                  "moduleResolution": "bundler", "jsx": "preserve",
                                  "skipLibCheck": True},
              "include": list(include), "exclude": ["node_modules"]}
    path.write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")
    return path


@dataclass
class Timings:
    """Seconds, all measured from the spawn of the server."""

    initialized: float = 0.0
    discovered: float | None = None  # "Found N source files", or the end of project loading
    source_files: int | None = None  # N (basedpyright only)
    warm: float | None = None
    warmup_answers: list[int] = field(default_factory=list)  # sizes while warming
    latencies: list[float] = field(default_factory=list)  # per question once warm

    def summary(self) -> str:
        parts = [f"initialize {self.initialized:.2f} s"]
        if self.discovered is not None and self.source_files is not None:
            parts.append(f"found {self.source_files} source files at {self.discovered:.2f} s")
        elif self.discovered is not None:
            parts.append(f"project loaded at {self.discovered:.2f} s")
        if self.warm is not None:
            parts.append(f"warm at {self.warm:.2f} s (answers while warming: "
                         f"{self.warmup_answers})")
        if self.latencies:
            parts.append(f"{len(self.latencies)} questions: min {min(self.latencies):.3f} s, "
                         f"median {median(self.latencies):.3f} s, "
                         f"max {max(self.latencies):.3f} s")
        return "; ".join(parts)


class TruthServer:
    """One language server on ``root``, warmed once, asked many questions."""

    def __init__(self, root: Path, cmd: Sequence[str] | None = None, *,
                 server: str = "basedpyright") -> None:
        self.root = root.resolve()
        self.spec = SERVERS[server]
        self.cmd = list(cmd) if cmd is not None else self.spec.command()
        self.client = LspClient("codenav-lsp-truth")
        self.timings = Timings()
        self._spawned = Stopwatch()  # restarted at spawn
        self._discovered = asyncio.Event()
        self._loading_tokens: set[str] = set()
        self._warm = False

    async def __aenter__(self) -> TruthServer:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def start(self, init_timeout: float = 60.0) -> None:
        if self.spec.discovered_log is not None:
            self.client.on_notification(T.WINDOW_LOG_MESSAGE, self._on_log)
        if self.spec.loading_progress is not None:
            self.client.on_notification(T.PROGRESS, self._on_progress)
        for method in self.spec.ignored_notifications:
            self.client.on_notification(method, lambda _method, _params: None)
        self._spawned.restart()
        await self.client.start(self.cmd, self.root, init_timeout=init_timeout,
                                settings=self.spec.settings(self.root),
                                initialization_options=self.spec.initialization_options(
                                    self.root),
                                env=({**os.environ, **self.spec.env} if self.spec.env
                                     else None))
        self.timings.initialized = self._spawned.seconds()

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
            print(f"lsp_truth: no sign from {self.spec.name} that the workspace is loaded "
                  f"within {timeout:g} s; warming on answer stability alone", file=sys.stderr)
            needed, min_seconds = _NO_SIGNAL_STABLE_ANSWERS, _NO_SIGNAL_MIN_SECONDS
        ask = self._asker(kind, include_declaration)
        previous: list[Position] | None = None
        same = 0
        while True:
            answer = await ask(probe, max(deadline - loop.time(), 1.0))
            self.timings.warmup_answers.append(len(answer))
            same = same + 1 if answer == previous else 1
            previous = answer
            elapsed = self._spawned.seconds()
            if same >= needed and elapsed >= min_seconds:
                break
            if loop.time() > deadline:
                raise TimeoutError(f"answers about {probe} still changing after {timeout:g} s")
        self.timings.warm = self._spawned.seconds()
        self._warm = True

    async def references(self, position: Position, include_declaration: bool = False,
                         timeout: float = 60.0) -> list[Position]:
        return await self._timed(self._references, position, timeout,
                                 include_declaration=include_declaration)

    async def definitions(self, position: Position, timeout: float = 60.0) -> list[Position]:
        return await self._timed(self._definitions, position, timeout)

    async def document_symbols(self, rel: str, timeout: float = 60.0) -> list[Symbol]:
        """Every symbol the server outlines in ``rel``, nested ones after their parent, each
        with its qualified name (``Class.method``), LSP kind (``Class``, ``Method``,
        ``Property`` …), name's position and whole line span."""
        if not self._warm:
            raise RuntimeError("call warm() first")
        result = await self.client.request(T.TEXT_DOCUMENT_DOCUMENT_SYMBOL, T.DocumentSymbolParams(
            text_document=self._open(rel)), timeout)
        out: list[Symbol] = []

        def walk(items: Sequence[Any], prefix: str) -> None:
            for item in items:
                if isinstance(item, T.SymbolInformation):  # a flat answer: no nesting
                    start = item.location.range.start
                    out.append(Symbol(item.name, T.SymbolKind(item.kind).name, rel,
                                      start.line + 1, start.character + 1,
                                      start=start.line + 1,
                                      end=item.location.range.end.line + 1))
                    continue
                name = prefix + item.name
                at = item.selection_range.start
                out.append(Symbol(name, T.SymbolKind(item.kind).name, rel, at.line + 1,
                                  at.character + 1, start=item.range.start.line + 1,
                                  end=item.range.end.line + 1))
                walk(item.children or (), name + ".")

        walk(result or (), "")
        return out

    async def hover(self, position: Position, timeout: float = 60.0) -> str:
        """The server's hover text at ``position`` (markdown or plain), or ""."""
        if not self._warm:
            raise RuntimeError("call warm() first")
        result = await self.client.request(T.TEXT_DOCUMENT_HOVER, T.HoverParams(
            text_document=self._open(position[0]), position=_to_lsp(position)), timeout)
        if result is None:
            return ""
        contents = result.contents
        parts = contents if isinstance(contents, (list, tuple)) else [contents]
        return "\n".join(p if isinstance(p, str) else p.value for p in parts)

    # -- internals --------------------------------------------------------------------------

    def _on_log(self, _method: str, params: Any) -> None:
        assert self.spec.discovered_log is not None
        match = self.spec.discovered_log.match(getattr(params, "message", ""))
        if match and not self._discovered.is_set():
            self.timings.discovered = self._spawned.seconds()
            self.timings.source_files = int(match.group(1))
            self._discovered.set()

    def _on_progress(self, _method: str, params: Any) -> None:
        token, value = getattr(params, "token", None), getattr(params, "value", None)
        kind = _field(value, "kind")
        title = _field(value, "title")
        if kind == "begin" and isinstance(title, str) and self.spec.loading_progress and \
                title.startswith(self.spec.loading_progress):
            self._loading_tokens.add(str(token))
        elif kind == "end" and str(token) in self._loading_tokens and \
                not self._discovered.is_set():
            self.timings.discovered = self._spawned.seconds()
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
            raise RuntimeError(f"call warm() first: a cold {self.spec.name} answers "
                               "incompletely")
        clock = Stopwatch()
        answer = await ask(position, timeout, **kwargs)
        self.timings.latencies.append(clock.seconds())
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

    def forget(self, rel: str) -> None:
        """Close ``rel`` if it is open (clangd answers for an open header from that header
        parsed alone, not from the index of the files including it)."""
        path = self.root / rel
        if self.client.is_open(path):
            self.client.close_document(path)

    def _open(self, rel: str) -> T.TextDocumentIdentifier:
        path = self.root / rel
        if not self.client.is_open(path):
            self.client.open_document(path, path.read_text(encoding="utf-8"),
                                      self.spec.language_id(rel))
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


def _field(value: Any, name: str) -> Any:
    """A field of a progress value, which pygls gives as a dict or an attribute object."""
    if isinstance(value, Mapping):
        return value.get(name)
    return getattr(value, name, None)


def _to_lsp(position: Position) -> T.Position:
    _, line, col = position
    if line < 1 or col < 1:
        raise ValueError(f"positions are 1-based: {position}")
    return T.Position(line=line - 1, character=col - 1)


async def _ask_all(root: Path, positions: list[Position], kind: str, include_declaration: bool,
                   timeout: float, cmd: Sequence[str] | None, warm_timeout: float,
                   timings: Timings | None, server_name: str) -> list[list[Position]]:
    if not positions:
        return []
    server = TruthServer(root, cmd, server=server_name)
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
                     warm_timeout: float = 180.0, timings: Timings | None = None,
                     server: str = "basedpyright") -> list[list[Position]]:
    """For each position, the sorted references a warm server (basedpyright) reports."""
    return await _ask_all(root, positions, "references", include_declaration, timeout, cmd,
                          warm_timeout, timings, server)


async def definitions(root: Path, positions: list[Position], timeout: float = 60, *,
                      cmd: Sequence[str] | None = None, warm_timeout: float = 180.0,
                      timings: Timings | None = None,
                      server: str = "basedpyright") -> list[list[Position]]:
    """For each position, the sorted definitions a warm server (basedpyright) reports."""
    return await _ask_all(root, positions, "definitions", False, timeout, cmd, warm_timeout,
                          timings, server)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path, help="a source tree, e.g. Django's django/ folder")
    parser.add_argument("triples", nargs="+", metavar="FILE LINE COL",
                        help="positions: repo-relative file, 1-based line, 1-based column")
    parser.add_argument("--server", default="basedpyright", choices=sorted(SERVERS))
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
                                          warm_timeout=args.warm_timeout, timings=timings,
                                          server=args.server))
    else:
        answers = asyncio.run(references(args.root, positions, args.include_declaration,
                                         args.timeout, warm_timeout=args.warm_timeout,
                                         timings=timings, server=args.server))
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
