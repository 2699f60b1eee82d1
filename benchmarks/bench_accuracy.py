"""Static references (``nav_references`` with ``source: "map"``) against a warm language server.

    python -m benchmarks.bench_accuracy [--corpus django|rxjs|cobra|hiredis|javapoet|ripgrep]
        [--symbols 80] [--seed 11] [--source map|lsp] [--root PATH]

Go, C, Java and Rust (issue #21) are measured on checkouts no registry serves, laid out by
hand in the cache folder (``benchmarks/corpora.py`` ``GIVEN`` says what each holds, ``--root``
names another place): cobra against gopls (its dependencies vendored: gopls runs offline),
hiredis against clangd with its background index over the corpus's compile_commands.json
(only the active configuration counts: see ``run``), javapoet against javac's own
attribution of every name (``benchmarks/truth/JavacReferences.java``: no Java language
server installs here), ripgrep against the hand-labelled sample of
``benchmarks/labels/ripgrep.json`` (rust-analyzer installs through rustup's network only).
``--source lsp`` measures codenav's own language server instead of its map (the pool as a
user runs it: clangd with its index in codenav's cache).

Symbols are picked independently of codenav's own index: from ``ctags -R`` when installed
(else a regex walk over ``def``/``class`` lines), by a seeded random draw stratified by kind.
For each one, at its definition's name: a warm basedpyright's references (declaration left
out, ``benchmarks/lsp_truth.py``) and codenav's ``nav_references`` through the tool (answers cut
by the token budget are drained folder by folder with ``fileFilter``). Prints precision and
recall, micro-averaged over all references, at exact positions and at line level, per kind,
and the worst misses with their source lines. Target (docs/contract.md §7): precision >= 0.95,
recall >= 0.90.

TypeScript corpora (``--corpus rxjs``) are measured the same way against a warm
typescript-language-server (typescript 5.9's tsserver). Two differences in what it answers:
it reads ``includeDeclaration: false`` as "leave out every declaration" (overload signatures,
an overloaded function's implementation), where basedpyright leaves out only the position
asked about, so it is asked with ``true`` and the position asked about is dropped here; and
it resolves names inside comments (JSDoc ``{@link X}``, ``@see X``, ``@throws {X}``), which
codenav does not map: those are set apart (a tree-sitter parse says what is a comment) and
counted only in the ``+ comments`` row. Symbols come from ``ctags -R
--languages=TypeScript``: class, interface, function (and generator), method and property
(of classes and interfaces), enum and enum member, type alias, and variable (``const``/
``let``/``var`` at the top level of a file only: ctags 5.9's TypeScript parser also tags
locals, often under the wrong name, as ``constant``s scoped to a function, misses the scope
of some indented ``let``s, and tags the key of a renamed destructuring ``{ keys: getKeys }``;
locals are left out as they are for Python, whose ctags does not tag them). Construct
signatures (``new (…): T``, tagged as methods named ``new``) are left out, and of a symbol
tagged twice in one scope the first tag is kept. Target for TypeScript (docs/contract.md §7):
precision >= 0.90, recall >= 0.85.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import shlex
import shutil
import subprocess
import tempfile
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from benchmarks.corpora import CORPORA, LANGUAGE_SUFFIXES, fetch, source_files
from benchmarks.lsp_truth import Timings, TruthServer
from benchmarks.symbols import Position, Symbol
from codenav.index.pipeline import index_tree
from codenav.tools.dispatch import call_tool
from codenav.workspace import Workspace

_CTAGS_KINDS = {"class": "class", "function": "function", "member": "method",
                "variable": "variable"}
_TS_CTAGS_KINDS = {"class": "class", "interface": "interface", "function": "function",
                   "generator": "function", "method": "method", "property": "property",
                   "enum": "enum", "enumerator": "enum member", "alias": "type alias",
                   "namespace": "namespace", "constant": "variable", "variable": "variable"}
# Go: ctags 5.9 tags a method as a `func` scoped to its struct; `member` is a struct field
_GO_CTAGS_KINDS = {"func": "function", "member": "field", "const": "constant",
                   "var": "variable", "struct": "struct", "interface": "interface",
                   "type": "type", "talias": "type", "methodSpec": "method"}
# C: definitions only (ctags leaves prototypes and extern declarations out by default)
_C_CTAGS_KINDS = {"function": "function", "member": "field", "macro": "macro",
                  "variable": "variable", "struct": "struct", "union": "struct",
                  "enumerator": "constant", "enum": "enum", "typedef": "typedef"}
_JAVA_CTAGS_KINDS = {"class": "class", "interface": "interface", "enum": "enum",
                     "annotation": "annotation", "method": "method", "field": "field",
                     "enumConstant": "enum constant"}
# per corpus language: ctags language, kind map, language server, its column label
_LANGUAGES = {"python": ("Python", _CTAGS_KINDS, "basedpyright", "pyright"),
              "typescript": ("TypeScript", _TS_CTAGS_KINDS, "typescript-language-server",
                             "tsserver"),
              "go": ("Go", _GO_CTAGS_KINDS, "gopls", "gopls"),
              "c": ("C", _C_CTAGS_KINDS, "clangd", "clangd"),
              # no server: javac's own attribution (benchmarks/truth/JavacReferences.java)
              "java": ("Java", _JAVA_CTAGS_KINDS, "javac", "javac"),
              # no server installable here (rust-analyzer needs rustup's network): the
              # hand-labelled sample of benchmarks/labels/<corpus>.json
              "rust": ("Rust", {}, "labels", "labels")}
# includeDeclaration asked of each server: basedpyright reads false as "leave out the position
# asked about" and keeps the symbol's other declarations; tsserver reads it as "leave out every
# declaration", so it is asked for all of them, and the position asked about is dropped here.
# gopls and clangd read false as "no declaration of the symbol" (clangd: no prototype either).
_INCLUDE_DECLARATION = {"basedpyright": False, "typescript-language-server": True,
                        "gopls": False, "clangd": False}
# servers that resolve names in comments (tsserver: JSDoc {@link X}, @see X, @throws {X})
_COMMENT_REFERENCES = {"typescript-language-server"}
_GRAMMARS = {".ts": "typescript", ".mts": "typescript", ".cts": "typescript", ".tsx": "tsx",
             ".js": "javascript", ".jsx": "javascript", ".py": "python"}


class _Comments:
    """Whether a position is inside a comment, from a tree-sitter parse of its file."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._trees: dict[str, tuple[Any, list[str]]] = {}

    def __contains__(self, position: Position) -> bool:
        path, line, col = position
        grammar = _GRAMMARS.get(Path(path).suffix)
        if grammar is None:
            return False
        if path not in self._trees:
            from tree_sitter_language_pack import get_parser

            source = (self.root / path).read_bytes()
            self._trees[path] = (get_parser(grammar).parse(source),  # type: ignore[arg-type]
                                 source.decode("utf-8", "replace").splitlines())
        tree, lines = self._trees[path]
        if not 0 < line <= len(lines):
            return False
        prefix = lines[line - 1].encode("utf-16-le")[: 2 * (col - 1)].decode("utf-16-le",
                                                                            "replace")
        point = (line - 1, len(prefix.encode("utf-8")))
        node = tree.root_node.descendant_for_point_range(point, point)
        return node is not None and "comment" in node.type


@dataclass
class Measured:
    """One symbol's references: the server's (``truth``) and the map's (``mapped``)."""

    symbol: Symbol
    truth: set[Position] = field(default_factory=set)
    in_comments: set[Position] = field(default_factory=set)  # truth inside comments, set apart
    outside: set[Position] = field(default_factory=set)  # in files no build compiles (C)
    mapped: set[Position] = field(default_factory=set)
    error: str | None = None

    @property
    def path(self) -> str:
        return self.symbol.path

    @property
    def line(self) -> int:
        return self.symbol.line

    @property
    def col(self) -> int:
        return self.symbol.col

    @property
    def name(self) -> str:
        return self.symbol.name

    @property
    def kind(self) -> str:
        return self.symbol.kind


def _col(text: str, name: str) -> int | None:
    match = re.search(rf"(?:^|(?<=[^\w]))({re.escape(name)})(?=[^\w]|$)", text)
    if match is None:
        return None
    return len(text[: match.start(1)].encode("utf-16-le")) // 2 + 1


def _last_col(text: str, name: str) -> int | None:
    matches = list(re.finditer(rf"(?:^|(?<=[^\w]))({re.escape(name)})(?=[^\w]|$)", text))
    if not matches:
        return None
    return len(text[: matches[-1].start(1)].encode("utf-16-le")) // 2 + 1


def _ts_binds(text: str, name: str) -> bool:
    """Whether ``text`` declares the variable ``name`` (plainly or destructured, not renamed)."""
    word = re.escape(name)
    head = r"^(?:export\s+)?(?:declare\s+)?(?:const|let|var)\s*"
    return bool(re.match(rf"{head}{word}\b", text)
                or re.match(rf"{head}\{{[^}}]*(?<![\w$.]){word}\b(?!\s*:)", text))


def from_ctags(root: Path, language: str = "python") -> list[Symbol]:
    ctags_language, kinds, _, _ = _LANGUAGES[language]
    extra = ["--langmap=C:+.h"] if ctags_language == "C" else []
    out = subprocess.run(["ctags", "-R", f"--languages={ctags_language}", *extra,
                          "--exclude=vendor", "--exclude=.cache", "--exclude=.codenav",
                          "--fields=+nKs", "--output-format=json", "-f", "-", "."], cwd=root,
                         capture_output=True, text=True, check=True).stdout
    found = []
    seen: set[tuple[str, str, str, str]] = set()
    for line in out.splitlines():
        tag = json.loads(line)
        kind = kinds.get(tag.get("kind", ""))
        if kind is None or "line" not in tag:
            continue
        path = tag["path"].removeprefix("./")
        text = (root / path).read_text("utf-8", "replace").splitlines()[tag["line"] - 1]
        if language == "go" and kind == "function" and tag.get("scopeKind") in (
                "struct", "type", "interface"):
            kind = "method"
        if language == "java":
            if not re.fullmatch(r"\w+", tag["name"]):
                continue  # ctags 5.9 misreads an enum constant's arguments as constants
            if kind == "method" and tag.get("scope", "").rsplit(".", 1)[-1] == tag["name"]:
                kind = "constructor"
        if language == "typescript":
            if path.endswith(".d.ts"):
                continue
            if kind == "variable" and ("scope" in tag or text[:1].isspace()):
                continue  # a local (see the module docstring)
            if kind == "variable" and not _ts_binds(text, tag["name"]):
                continue  # ctags 5.9 misreads `{ keys: getKeys }`, `x: unique symbol` …
            if kind == "method" and re.match(r"\s*new\s*[(<]", text):
                continue  # a construct signature `new (…): T`, tagged as a method "new"
            key = (path, tag.get("scope", ""), tag["name"], kind)
            if key in seen:
                continue  # overloads, declaration merging: the first tag stands for all
            seen.add(key)
        col = _col(text, tag["name"])
        if kind == "typedef" and col is not None:  # `typedef struct X {…} X;`: the last X
            col = _last_col(text, tag["name"]) or col
        if col is not None:
            found.append(Symbol(tag["name"], kind, path, tag["line"], col))
    return found


_TS_DECLARATION = re.compile(
    r"^(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?"
    r"(class|interface|function\*?|enum|type|const|let|var)\s+(\w+)")
_TS_KEYWORD_KINDS = {"class": "class", "interface": "interface", "function": "function",
                     "function*": "function", "enum": "enum", "type": "type alias",
                     "const": "variable", "let": "variable", "var": "variable"}


def from_regex(root: Path, language: str = "python") -> list[Symbol]:
    if language == "typescript":
        return _from_ts_regex(root)
    found = []
    pattern = re.compile(r"^(\s*)(?:async\s+)?(def|class)\s+(\w+)")
    for file in source_files(root):
        rel = file.relative_to(root).as_posix()
        for number, text in enumerate(file.read_text("utf-8", "replace").splitlines(), 1):
            match = pattern.match(text)
            if match:
                kind = "class" if match.group(2) == "class" else (
                    "method" if match.group(1) else "function")
                found.append(Symbol(match.group(3), kind, rel, number, match.start(3) + 1))
    return found


def _from_ts_regex(root: Path) -> list[Symbol]:
    """Top-level declarations only (no members): the fallback when ctags is missing."""
    found = []
    seen: set[tuple[str, str]] = set()
    for file in source_files(root, LANGUAGE_SUFFIXES["typescript"]):
        rel = file.relative_to(root).as_posix()
        for number, text in enumerate(file.read_text("utf-8", "replace").splitlines(), 1):
            match = _TS_DECLARATION.match(text)
            if match and (rel, match.group(2)) not in seen:
                seen.add((rel, match.group(2)))
                found.append(Symbol(match.group(2), _TS_KEYWORD_KINDS[match.group(1)], rel,
                                    number, match.start(2) + 1))
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


async def drained_references(ws: Workspace, where: dict[str, Any],
                             source: str) -> set[Position] | str:
    """Everything ``nav_references`` answers with ``source`` at ``where``: an answer cut by
    the token budget is followed page by page (``dropped.next``); the error code if it
    fails."""
    args: dict[str, Any] | None = {**where, "source": source, "tokenBudget": 10000,
                                   "detail": "full"}
    found: set[Position] = set()
    while args is not None:
        envelope = await call_tool(ws, "nav_references", args)
        if not envelope["ok"]:
            return str(envelope["error"]["code"])
        for path, refs in envelope["data"].get("references", {}).items():
            for ref in refs:
                found.add((path, ref["line"], ref["col"]))
        follow = envelope.get("dropped", {}).get("next")
        args = follow["args"] if follow else None
    return found


async def map_references(ws: Workspace, symbol: Symbol | Measured,
                         source: str = "map") -> set[Position] | str:
    """Everything ``nav_references`` answers from the map for ``symbol`` (or from
    ``source``: ``lsp``, codenav's own language server)."""
    where = {"file": symbol.path, "line": symbol.line, "col": symbol.col}
    return await drained_references(ws, where, source)


def score(symbols: list[Measured], level: str) -> tuple[float, float, int, int, int]:
    def key(position: Position) -> tuple[Any, ...]:
        return position if level == "position" else position[:2]

    hit = mapped = truth = 0
    for s in symbols:
        got, want = {key(p) for p in s.mapped}, {key(p) for p in s.truth}
        hit += len(got & want)
        mapped += len(got)
        truth += len(want)
    return (hit / mapped if mapped else 1.0, hit / truth if truth else 1.0, hit, mapped, truth)


def active_files(root: Path) -> set[str] | None:
    """The files of the active configuration of a C project: the translation units of its
    compile_commands.json and the project headers they include (``-MM`` of each command);
    None without a compile database. A language server indexes exactly these: references
    elsewhere (a .c no build compiles, a header none includes) are not in its answers."""
    database = root / "compile_commands.json"
    if not database.is_file():
        return None
    found: set[str] = set()
    for entry in json.loads(database.read_text("utf-8")):
        argv = entry.get("arguments") or shlex.split(entry["command"])
        kept: list[str] = []
        skip = False
        for arg in argv:
            if skip:
                skip = False
            elif arg == "-o":
                skip = True
            elif arg != "-c":
                kept.append(arg)
        deps = subprocess.run([*kept, "-MM", "-MF", "-"], cwd=entry["directory"],
                              capture_output=True, text=True, check=False).stdout
        for word in deps.replace("\\\n", " ").split()[1:]:
            path = (Path(entry["directory"]) / word).resolve()
            if path.is_relative_to(root):
                found.add(path.relative_to(root).as_posix())
    return found


async def _where_to_ask(truth: TruthServer, root: Path, symbol: Measured,
                        active: set[str]) -> Position | None:
    """Where to ask a C server about ``symbol`` (see ``run``): its definition in a .c file;
    for a header's, the first use in a compiled .c file whose definition the server says is
    it; else its definition, if the server resolves anything there."""
    at = (symbol.path, symbol.line, symbol.col)
    if symbol.path.endswith(".h"):
        word = re.compile(rf"(?<![\w]){re.escape(symbol.name)}(?![\w])")
        tried = 0
        for rel in sorted(p for p in active if p.endswith(".c")):
            lines = (root / rel).read_text("utf-8", "replace").splitlines()
            for number, text in enumerate(lines, 1):
                for match in word.finditer(text):
                    tried += 1
                    if tried > 40:
                        break
                    use = (rel, number, len(text[: match.start()].encode("utf-16-le")) // 2 + 1)
                    found = await truth.definitions(use)
                    # all of them: on a word it cannot resolve (a parameter's own name),
                    # clangd answers every symbol of that name its index has
                    if found and all(d[:2] == (symbol.path, symbol.line) for d in found):
                        return use
    found_here = await truth.hover(at)
    if not found_here and symbol.path.endswith(".h"):
        truth.forget(symbol.path)
    return at if found_here else None


_JAVAC_TOOL = Path(__file__).parent / "truth" / "JavacReferences.java"
_JAVAC_EXPORTS = "jdk.compiler/com.sun.tools.javac.tree=ALL-UNNAMED"


def javac_truth(root: Path) -> dict[Position, set[Position]]:
    """Every use of every declaration of ``root``'s Java files, by declaration (the name's
    position), as javac attributes them: overloads, fields and methods of one name, and
    inherited members are told apart as the compiler does."""
    if shutil.which("javac") is None or shutil.which("java") is None:
        raise FileNotFoundError("javac and java not found; apt-get install default-jdk")
    sources = [str(p) for p in source_files(root, ".java")]
    with tempfile.TemporaryDirectory() as classes:
        subprocess.run(["javac", "-d", classes, "--add-exports", _JAVAC_EXPORTS,
                        str(_JAVAC_TOOL)], check=True)
        lines = subprocess.run(["java", "-cp", classes, "--add-exports", _JAVAC_EXPORTS,
                                "JavacReferences", str(root), *sources], check=True,
                               capture_output=True, text=True).stdout.splitlines()
    truth: dict[Position, set[Position]] = {}
    for line in lines:
        path, use_line, use_col, decl_path, decl_line, decl_col, _ = line.split("\t")
        use = (path, int(use_line), int(use_col))
        declared = (decl_path, int(decl_line), int(decl_col))
        if use != declared:
            truth.setdefault(declared, set()).add(use)
    return truth


async def run_javac(root: Path, symbols: list[Measured], db: Path) -> None:
    """Fills each symbol's ``truth`` from javac and ``mapped`` from codenav's map."""
    uses = javac_truth(root)
    print(f"javac: {sum(len(v) for v in uses.values())} uses of {len(uses)} declarations")
    ws = Workspace(root, db)
    for symbol in symbols:
        symbol.truth = set(uses.get((symbol.path, symbol.line, symbol.col), ()))
        mapped = await map_references(ws, symbol)
        if isinstance(mapped, str):
            symbol.error = f"codenav: {mapped}"
        else:
            symbol.mapped = mapped
    ws.close()


_LABELS = Path(__file__).parent / "labels"


def labelled(root: Path, corpus: str) -> list[Measured]:
    """The hand-labelled symbols of ``benchmarks/labels/<corpus>.json`` with their truth;
    every labelled position must still name the symbol in ``root`` (the right commit)."""
    doc = json.loads((_LABELS / f"{corpus}.json").read_text("utf-8"))
    symbols = []
    lines: dict[str, list[str]] = {}

    def position(text: str, name: str) -> Position:
        path, line, col = text.rsplit(":", 2)
        if path not in lines:
            lines[path] = (root / path).read_text("utf-8", "replace").splitlines()
        written = lines[path][int(line) - 1]
        start = len(written.encode("utf-16-le")[: 2 * (int(col) - 1)].decode("utf-16-le"))
        if written[start : start + len(name)] != name:
            raise ValueError(f"{text} does not name {name}: is {root} {doc['corpus']} at "
                             f"{doc['commit']}?")
        return path, int(line), int(col)

    for item in doc["symbols"]:
        path, line, col = position(item["at"], item["name"])
        symbol = Measured(Symbol(item["name"], item["kind"], path, line, col))
        symbol.truth = {position(ref, item["name"]) for ref in item["refs"]}
        symbols.append(symbol)
    return symbols


async def run_labelled(root: Path, symbols: list[Measured], db: Path) -> None:
    """Fills each labelled symbol's ``mapped`` from codenav's map."""
    ws = Workspace(root, db)
    for symbol in symbols:
        mapped = await map_references(ws, symbol)
        if isinstance(mapped, str):
            symbol.error = f"codenav: {mapped}"
        else:
            symbol.mapped = mapped
    ws.close()


async def run(root: Path, symbols: list[Measured], db: Path,
              server: str = "basedpyright", source: str = "map") -> Timings:
    """Fills each symbol's ``truth`` and ``mapped``; returns the server's timings.

    With a compile database (C), only the active configuration counts: symbols defined in
    files it does not compile are not asked about, references in them are set apart. A
    symbol defined in a header is asked about at a use in a compiled .c file that the server
    says means it: asked in the header, clangd parses the header alone (without what its
    includer defines first, `#define FFC_IMPL` before `#include "ffc.h"`) and answers for
    the open header from that parse rather than from its index. A symbol the server resolves
    to nothing where it is asked about is not measured."""
    ws = Workspace(root, db, lsp="auto" if source == "lsp" else "off",
                   lsp_deadlines=(60.0, 120.0))
    comments = _Comments(root)
    active = active_files(root)
    if active is not None:
        print(f"active configuration: {len(active)} files of compile_commands.json and the "
              "headers they include")
    async with TruthServer(root, server=server) as truth:
        probe = next((s for s in symbols if not s.path.endswith(".h")), symbols[0])
        await truth.warm((probe.path, probe.line, probe.col))
        print(f"{server}: {truth.timings.summary()}")
        for symbol in symbols:
            asked: Position | None = (symbol.path, symbol.line, symbol.col)
            if active is not None:
                if symbol.path not in active:
                    symbol.error = "defined outside the active configuration"
                    continue
                asked = await _where_to_ask(truth, root, symbol, active)
                if asked is None:
                    symbol.error = f"{server} resolves nothing where it is asked"
                    continue
            assert asked is not None
            try:
                symbol.truth = set(await truth.references(
                    asked, include_declaration=_INCLUDE_DECLARATION[server]))
            except Exception as exc:  # noqa: BLE001 - a benchmark reports, not crashes
                symbol.error = f"{server}: {exc}"
                continue
            finally:
                if symbol.path.endswith(".h"):
                    truth.forget(symbol.path)
            symbol.truth = {p for p in symbol.truth if not p[0].startswith("/")}
            symbol.truth.discard((symbol.path, symbol.line, symbol.col))
            if server in _COMMENT_REFERENCES:
                symbol.in_comments = {p for p in symbol.truth if p in comments}
                symbol.truth -= symbol.in_comments
            mapped = await map_references(ws, symbol, source)
            if isinstance(mapped, str):
                symbol.error = f"codenav: {mapped}"
            else:
                symbol.mapped = mapped
            if active is not None:  # set apart: what no compiled file holds
                symbol.outside = {p for p in symbol.mapped | symbol.truth if p[0] not in active}
                symbol.truth -= symbol.outside
                symbol.mapped -= symbol.outside
    print(f"{server}: {truth.timings.summary()}")
    ws.close()
    return truth.timings


def show(root: Path, symbols: list[Measured], label: str = "pyright", worst: int = 8) -> None:
    measured = [s for s in symbols if s.error is None]
    errors = Counter(s.error for s in symbols if s.error)
    print(f"\n{len(measured)} symbols measured ({len(symbols) - len(measured)} not: "
          f"{dict(errors)})")
    print(f"{'':<24} {'precision':>10} {'recall':>8} {'hits':>6} {'codenav':>8} "
          f"{label:>8}")
    for level in ("position", "line"):
        p, r, hit, mapped, truth = score(measured, level)
        print(f"{'all, ' + level:<24} {p:>10.3f} {r:>8.3f} {hit:>6} {mapped:>8} {truth:>8}")
    outside = sum(len(s.outside) for s in measured)
    if outside:
        print(f"{outside} references in files outside the active configuration set apart")
    in_comments = sum(len(s.in_comments) for s in measured)
    if in_comments:
        with_comments = [replace(s, truth=s.truth | s.in_comments, in_comments=set())
                         for s in measured]
        p, r, hit, mapped, truth = score(with_comments, "position")
        print(f"{'+ comments, position':<24} {p:>10.3f} {r:>8.3f} {hit:>6} {mapped:>8} "
              f"{truth:>8}")
    for kind in sorted({s.kind for s in measured}):
        of_kind = [s for s in measured if s.kind == kind]
        p, r, hit, mapped, truth = score(of_kind, "position")
        print(f"{kind + f' ({len(of_kind)})':<24} {p:>10.3f} {r:>8.3f} {hit:>6} {mapped:>8} "
              f"{truth:>8}")
    macro_r = [len(s.mapped & s.truth) / len(s.truth) for s in measured if s.truth]
    if macro_r:
        print(f"per-symbol mean recall {sum(macro_r) / len(macro_r):.3f} over "
              f"{len(macro_r)} symbols with references")
    if in_comments:
        print(f"{in_comments} of {label}'s references are inside comments (JSDoc {{@link X}}, "
              "@see, @throws {X}): left out of every row but '+ comments', as codenav maps "
              "code, not comment text")

    def line(position: Position) -> str:
        try:
            text = (root / position[0]).read_text("utf-8", "replace").splitlines()
            return text[position[1] - 1].strip()[:100]
        except (OSError, IndexError):
            return "?"

    print(f"\nworst misses ({label} found, codenav did not):")
    ranked = sorted(measured, key=lambda s: -len(s.truth - s.mapped))
    for s in ranked[:worst]:
        missing = sorted(s.truth - s.mapped)
        if not missing:
            break
        print(f"  {s.kind} {s.name} ({s.path}:{s.line}) — {len(missing)} of {len(s.truth)} "
              "missing, e.g.:")
        for position in missing[:3]:
            print(f"      {position[0]}:{position[1]}:{position[2]}  {line(position)}")
    print(f"\nworst extras (codenav found, {label} did not):")
    ranked = sorted(measured, key=lambda s: -len(s.mapped - s.truth))
    for s in ranked[:worst]:
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
    parser.add_argument("--source", default="map", choices=("map", "lsp"),
                        help="what codenav answers from: its map, or its own language server "
                             "(nav_references with source 'lsp': the pool as users run it)")
    parser.add_argument("--root", type=Path,
                        help="the corpus's folder, instead of the cache's (see corpora.GIVEN)")
    parser.add_argument("--symbols", type=int, default=80)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--worst", type=int, default=8, help="symbols listed per worst list")
    parser.add_argument("--dump", type=Path, help="write every symbol's answers as JSON here")
    args = parser.parse_args()
    corpus = CORPORA[args.corpus]
    root = args.root.resolve() if args.root else fetch(corpus)
    _, _, server, label = _LANGUAGES[corpus.language]
    if server == "labels":
        symbols = labelled(root, args.corpus)
        print(f"corpus {args.corpus}: {root}; {len(symbols)} hand-labelled symbols "
              f"(benchmarks/labels/{args.corpus}.json), "
              f"{sum(len(s.truth) for s in symbols)} references")
    else:
        candidates = (from_ctags(root, corpus.language) if shutil.which("ctags")
                      else from_regex(root, corpus.language))
        source = "ctags" if shutil.which("ctags") else "a regex walk"
        symbols = [Measured(s) for s in pick(candidates, args.symbols, args.seed)]
        print(f"corpus {args.corpus}: {root}; {len(candidates)} candidate symbols from "
              f"{source}, {len(symbols)} drawn (seed {args.seed}): "
              f"{dict(Counter(s.kind for s in symbols))}")
    db = Path(tempfile.mkdtemp()) / "map.db"
    report = index_tree(root, db)
    print(f"codenav map: {report.nodes:,} nodes, {report.refs:,} refs in {report.seconds:.2f} s")
    if server == "javac":
        asyncio.run(run_javac(root, symbols, db))
    elif server == "labels":
        asyncio.run(run_labelled(root, symbols, db))
    else:
        asyncio.run(run(root, symbols, db, server, args.source))
    show(root, symbols, label, args.worst)
    if args.dump:
        args.dump.write_text(json.dumps([
            {"path": s.path, "line": s.line, "col": s.col, "name": s.name, "kind": s.kind,
             "error": s.error, "truth": sorted(s.truth), "in_comments": sorted(s.in_comments),
             "mapped": sorted(s.mapped)}
            for s in symbols], indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
