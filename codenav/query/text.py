"""Lines of code holding a text, literally: grep over the files the map holds — what an agent
runs to prove a list complete, or to find what no definition names (``.send(`` on a receiver
of unknown type, a string key). Files are read as answers read them (inside the root, regular,
of mappable size); the search stops at a bound of bytes and time, and says so."""

from __future__ import annotations

import posixpath
import re
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path

from codenav.files import read_source
from codenav.index.discover import MAX_FILE_BYTES
from codenav.index.languages import family, language_of
from codenav.index.literals import Place, comments_at, word_places
from codenav.query.imports import names_module, without_extension
from codenav.query.locate import FileFilter
from codenav.query.source import excerpt, file_lines
from codenav.store.read import MapReader
from codenav.words import word_pattern

__all__ = ["BaseLines", "ImportLines", "LiteralLines", "TextHit", "TextPage", "base_lines",
           "commented", "import_lines", "imported_modules", "joined", "literal_hits",
           "reads_text", "text_files", "text_search"]

# The languages whose imports, class headers and bindings the text checks read: Python's,
# and JavaScript's and TypeScript's (one family)
_READ_FAMILIES = frozenset({family("py"), family("ts")})


def reads_text(lang: str) -> bool:
    """Whether the text checks read language ``lang``'s imports, class headers and
    bindings (``import_lines``, ``base_lines``, ``references.receiver_origins``)."""
    return family(lang) in _READ_FAMILIES


MAX_SCAN_BYTES = 200 << 20  # text read by one search
MAX_SCAN_S = 3.0
MAX_HITS = 5_000  # lines kept by one search (counted beyond)


@dataclass(frozen=True, slots=True)
class TextHit:
    path: str
    line: int
    code: str  # the line as ``excerpt`` shows it
    tag: str = ""  # what the search's ``keep`` said of the line


@dataclass(frozen=True, slots=True)
class TextPage:
    """Every line holding the text in the files searched (``hits``: the first MAX_HITS,
    ``total`` all of them), ``files`` searched of ``candidates``; ``partial`` when a bound
    stopped the search before the last file."""

    hits: list[TextHit]
    total: int
    files: int
    candidates: int
    partial: bool

    @property
    def incomplete(self) -> bool:
        """Whether lines may be missing from ``hits``: a bound stopped the search, or more
        lines were found than kept."""
        return self.partial or self.total > len(self.hits)


def text_files(reader: MapReader, files: FileFilter, lang: str | None = None,
               langs: Collection[str] = ()) -> list[str]:
    """The map's files a text search reads (``files`` and ``lang``, or any of ``langs``,
    narrow them), by path."""
    return [path for path, file_lang, *_ in reader.files_under("")
            if files(path) and (lang is None or file_lang == lang)
            and (not langs or file_lang in langs)]


def text_search(root: Path, paths: list[str], needle: str, word: bool = False,
                lines: tuple[int, int] | None = None,
                keep: Callable[[str, str], str | None] | None = None) -> TextPage:
    """Lines containing ``needle`` (with ``word``, as a whole identifier: not inside a longer
    name) in ``paths`` (``text_files``), in path then line order, within ``lines`` (first,
    last) when given (an empty needle: every line there), and only those ``keep`` tags
    (it reads a file's path and a whole line: None leaves the line out): no map access, so
    that it can run off the event loop."""
    pattern = word_pattern(needle) if word else None
    hits: list[TextHit] = []
    total = searched = scanned = 0
    started = time.monotonic()
    for path in paths:
        if scanned > MAX_SCAN_BYTES or time.monotonic() - started > MAX_SCAN_S:
            break
        searched += 1
        for number, text in enumerate(file_lines(root, path), 1):
            scanned += len(text) + 1
            if lines is not None and not lines[0] <= number <= lines[1]:
                if number > lines[1]:
                    break
                continue
            if needle not in text:
                continue
            found = pattern.search(text) if pattern is not None else None
            if pattern is not None and found is None:
                continue
            tag = keep(path, text) if keep is not None else ""
            if tag is None:
                continue
            total += 1
            if len(hits) < MAX_HITS:
                at = found.start() if found is not None else text.find(needle)
                # a file's lines read as lines keep their indentation (run 37: whether a
                # call was at module level could not be told from a range's lines)
                indent = text[: len(text) - len(text.lstrip())] if lines is not None else ""
                hits.append(TextHit(path, number, indent + excerpt(text, at), tag))
    return TextPage(hits, total, searched, len(paths), searched < len(paths))


def joined(pages: list[TextPage]) -> TextPage:
    """Several searches' pages as one (files' line ranges, one each; a file's several
    ranges together, in the order asked), each line once."""
    order: dict[str, int] = {}
    seen: set[tuple[str, int]] = set()
    hits: list[TextHit] = []
    for page in pages:
        for hit in page.hits:
            order.setdefault(hit.path, len(order))
            if (hit.path, hit.line) not in seen:
                seen.add((hit.path, hit.line))
                hits.append(hit)
    hits.sort(key=lambda hit: order[hit.path])  # (stable: each file's ranges as asked)
    files = {hit.path for hit in hits}
    return TextPage(hits[:MAX_HITS], len(hits), len(files) or len(pages),
                    sum(page.candidates for page in pages), any(page.partial for page in pages))


# The time all files' parses may take for one answer's lines (beyond it, the lines' own
# text is all that tells a comment): the text check runs them on the event loop.
MAX_PLACES_S = 0.5


class LiteralLines:
    """Where a word is on lines of the map's files, as each file's parse tells: in comments,
    strings or code (``word_places``), the parses of one answer bounded in time together."""

    def __init__(self, root: Path, seconds: float = MAX_PLACES_S) -> None:
        self.root = root
        self.deadline = time.monotonic() + seconds

    def __call__(self, path: str, word: str | re.Pattern[str],
                 lines: Collection[int]) -> dict[int, Place]:
        left = self.deadline - time.monotonic()
        if left <= 0:
            return {}
        data = read_source(self.root, path, MAX_FILE_BYTES)
        lang = language_of(path, data) if data is not None else None
        if data is None or lang is None:
            return {}
        return word_places(lang, data, word, lines, seconds=left)


def commented(root: Path, positions: Collection[tuple[str, int, int]],
              seconds: float = MAX_PLACES_S) -> set[tuple[str, int, int]]:
    """Which of ``positions`` (path, 1-based line, UTF-16 column) name a symbol in a
    documentation link — ``{@link ContactMaterial.friction}``, ``@see Material`` inside a
    comment, which a TypeScript server reports among references, as each file's parse tells
    (a JSDoc type, ``@type {Foo}``, stays: in JavaScript it is the type annotation); the
    files' parses bounded in time together. Blocking: run it off the event loop."""
    deadline = time.monotonic() + seconds
    by_file: dict[str, list[tuple[int, int]]] = {}
    for path, line, col in positions:
        by_file.setdefault(path, []).append((line, col))
    out: set[tuple[str, int, int]] = set()
    for path, spots in by_file.items():
        left = deadline - time.monotonic()
        if left <= 0:
            break
        data = read_source(root, path, MAX_FILE_BYTES)
        lang = language_of(path, data) if data is not None else None
        if data is None or lang is None:
            continue
        out.update((path, line, col) for (line, col), before in
                   comments_at(lang, data, spots, seconds=left).items()
                   if _DOC_LINK.search(before))
    return out


# A documentation link up to the name: `{@link X.y`, `{@linkcode X`, `@see X`, `@link X`.
_DOC_LINK = re.compile(r"(?:\{@link(?:code|plain)?|@see|@link)\s+[\w$.#]*$")


# The lines of one text answer whose place is looked up (the most a page can show).
MAX_PLACED = 150


def literal_hits(root: Path, hits: list[TextHit], needle: str) -> dict[tuple[str, int], Place]:
    """Which of ``hits`` (the first MAX_PLACED, lines holding ``needle``) have it only in
    comments or strings (a line of a ``/* … */`` block, a docstring): the mark a reader needs
    to tell code from what is not."""
    by_file: dict[str, list[int]] = {}
    for hit in hits[:MAX_PLACED]:
        by_file.setdefault(hit.path, []).append(hit.line)
    places = LiteralLines(root)
    pattern = re.compile(re.escape(needle))
    return {(path, line): place for path, lines in by_file.items()
            for line, place in places(path, pattern, lines).items()
            if place in ("comment", "string")}


# ----------------------------------------------------------------------- import lines

_PY_IMPORT = re.compile(r"\s*(?:from\s+([\w.]+)\s+import\s+(.*)|import\s+(.*))")
_JS_MODULE = re.compile(r"""(?:\bfrom|\bimport|\brequire\s*\(|\bimport\s*\()\s*['"]([^'"]+)['"]""")


def imported_modules(line: str, python: bool, path: str = "") -> list[tuple[str, str]]:
    """The modules an import line of file ``path`` names, as ``(last part, key)``, the key as
    ``names_module`` reads it: ``from .b import c`` in ``pkg/a.py`` → ``("b", "I:pkg.b")``,
    ``("c", "I:pkg.b.c")`` (a name imported from a package may be its submodule); ``import a.b
    as x`` → ``("b", "I:a.b")``; ``… from '../x/y.js'`` in ``src/a/m.ts`` → ``("y",
    "P:src/x/y")`` (``'./x/index'``: ``x``); a package's ``'pkg/sub'`` → ``("sub",
    "I:pkg/sub")``. Nothing for a line that is no import (in TypeScript and JavaScript: holds
    no module string of one)."""
    folder = posixpath.dirname(path)
    if not python:
        out = []
        for written in _JS_MODULE.findall(line):
            bare = without_extension(written.rstrip("/"))
            last = re.split(r"[/\\]", bare.removesuffix("/index"))[-1]
            relative = written.startswith(".")
            key = ("P:" + posixpath.normpath(posixpath.join(folder, bare)) if relative
                   else "I:" + bare)
            out.append((last, key))
        return out
    found = _PY_IMPORT.match(line)
    if found is None:
        return []
    source, listed, plain = found.groups()
    modules: list[str] = []
    if source is not None:
        dots = len(source) - len(source.lstrip("."))
        base = source[dots:]
        if dots:  # relative: from the file's package, one folder up per dot after the first
            parts = folder.split("/") if folder else []
            parts = parts[:len(parts) - (dots - 1)] if dots - 1 <= len(parts) else []
            base = ".".join([*parts, base] if base else parts)
        modules += [base] if source.strip(".") else []
    for item in (listed if source is not None else plain).strip().strip("()\\").split(","):
        words = item.split()
        name = words[0].strip("()") if words else ""
        if not name or not all(part.isidentifier() for part in name.split(".")):
            continue
        if source is None and len(words) == 1:  # `import a.b` imports (and binds) a too
            parts = name.split(".")
            modules += [".".join(parts[:n]) for n in range(1, len(parts))]
        modules.append(f"{base}.{name}" if source is not None and base else name)
    return [(module.rsplit(".", 1)[-1], "I:" + module) for module in modules]


@dataclass(frozen=True, slots=True)
class ImportLines:
    """The import lines naming a module's stem — the grep an agent runs after a list of the
    module's importers — accounted for: importing it from the files the answer lists
    (``listed``), listed under ``unresolved``, importing another module so named (``other``),
    or importing it from a file not listed (``unlisted``, with their code); ``partial`` when
    a bound stopped the search."""

    stem: str
    listed: int
    unresolved: int
    other: list[tuple[str, int]]
    unlisted: list[TextHit]
    partial: bool
    folder: bool = False  # an index module's: lines naming its folder (`'./'`, `'..'`) too

    @property
    def lines(self) -> int:
        return self.listed + self.unresolved + len(self.other) + len(self.unlisted)


def import_lines(root: Path, paths: list[str], module: str, stem: str, python: bool,
                 listed: Collection[str], unresolved: Collection[tuple[str, int]],
                 aliased: Collection[str] = ()) -> ImportLines:
    """The import lines of ``paths`` naming ``stem`` (``imported_modules``), ``module``'s own
    file aside, each read as importing ``module`` or another module so named, accounted for
    against the files an answer lists (``listed``) and its unresolved imports (places): off
    the event loop. In the ``aliased`` files the linker resolved a path through an alias
    (tsconfig ``paths``: ``'ts-graphviz/ast'``) to the module: their lines name it."""
    def keep(path: str, text: str) -> str | None:
        keys = [key for last, key in imported_modules(text, python, path) if last == stem]
        if not keys or path == module:
            return None
        return "own" if any(names_module(key, module) for key in keys) else "other"

    page = text_search(root, paths, stem, word=True, keep=keep)
    hits, partial = page.hits, page.incomplete
    folder = not python and posixpath.basename(without_extension(module)) == "index"
    if folder:
        # a folder's index module is imported as the folder too, without its name: `from
        # './'`, `'..'`, `'./index'` (brain.js, run 33: 7 text searches for them)
        def keep_folder(path: str, text: str) -> str | None:
            if path == module or not any(word in text for word in _IMPORT_WORDS):
                return None
            keys = [key for last, key in imported_modules(text, python, path) if last != stem]
            return "own" if any(names_module(key, module) for key in keys) else None
        unnamed = text_search(root, paths, "", keep=keep_folder)
        hits = sorted([*hits, *unnamed.hits], key=lambda hit: (hit.path, hit.line))
        partial = partial or unnamed.incomplete
    counted = {"listed": 0, "unresolved": 0}
    others: list[tuple[str, int]] = []
    unlisted: list[TextHit] = []
    for hit in hits:
        if hit.tag == "other" and hit.path not in aliased:
            others.append((hit.path, hit.line))
        elif hit.path in listed:
            counted["listed"] += 1
        elif (hit.path, hit.line) in unresolved:
            counted["unresolved"] += 1
        else:
            unlisted.append(hit)
    return ImportLines(stem, counted["listed"], counted["unresolved"], others, unlisted,
                       partial, folder)


_IMPORT_WORDS = ("from", "import", "require")


# ------------------------------------------------------------------------- base lines

@dataclass(frozen=True, slots=True)
class BaseLines:
    """The class header lines naming a type among their bases — the grep an agent runs
    after a list of subtypes (``class X(Base)``, ``class X extends Base``, ``implements
    Base``) — accounted for: the classes the answer lists (``listed``), and the others, by
    place (``unlisted``: another type so named, a base the map could not link, a generic
    constraint), for the reader; ``partial`` when a bound stopped the search."""

    name: str
    listed: int
    unlisted: list[TextHit]
    partial: bool
    # of the unlisted, those whose base the map linked to another type so named: that
    # type's label and how many (``Counted.other``)
    other: tuple[tuple[str, int], ...] = ()

    @property
    def lines(self) -> int:
        return self.listed + len(self.unlisted) + sum(count for _, count in self.other)


def base_lines(root: Path, paths: list[str], name: str, python: bool,
               listed: Collection[tuple[str, int]]) -> BaseLines:
    """The header lines of ``paths`` naming ``name`` as a base (the line a class's name is
    on, and in TypeScript and JavaScript a line going on with ``extends``/``implements``; a
    Python base on a later line is not read), accounted for against the places of the
    subtypes an answer lists (``listed``): off the event loop."""
    headers = (("head", _PY_BASES),) if python else \
        (("head", _ES_BASES), ("next", _ES_CONTINUED))
    word = re.compile(rf"(?<![\w$]){re.escape(name)}(?![\w$])")

    def keep(path: str, text: str) -> str | None:
        if len(text) > _HEADER_WIDTH or text.lstrip().startswith(_COMMENT_STARTS):
            return None  # (a minified line; a class commented out)
        for tag, header in headers:
            found = header.search(text)
            if found is not None and word.search(found.group("bases")):
                return tag
        return None

    page = text_search(root, paths, name, word=True, keep=keep)
    # a listed class's header: its name's line, or a line going on from it (`class X<T>` /
    # `  implements Base {`) one of the few after it
    heads = set(listed)
    going_on = {(path, line + after) for path, line in listed
                for after in range(1, _HEADER_LINES)}
    unlisted = [hit for hit in page.hits
                if (hit.path, hit.line) not in (heads if hit.tag == "head" else going_on)]
    return BaseLines(name, len(page.hits) - len(unlisted), unlisted, page.incomplete)


# `class X(Base, Other):` (Python: the bases in the parentheses); `class X<T> extends Base
# implements I {`, `interface I extends J, K {` (TypeScript, JavaScript: after the keyword)
_PY_BASES = re.compile(r"^\s*class\s+\w+\s*\((?P<bases>.*)")
_ES_BASES = re.compile(
    r"\b(?:class|interface)\b(?:[^{=<]|<[^<>]*>)*?\b(?:extends|implements)\b(?P<bases>.*)")
# a header's next line (`> implements CollectionBase {` after a type parameter list)
_ES_CONTINUED = re.compile(r"^\s*>?\s*(?:extends|implements)\b(?P<bases>.*)")
_HEADER_LINES = 6  # (a type parameter list over several lines, then `extends`, `implements`)
_HEADER_WIDTH = 400  # a longer line is no class header an agent reads
_COMMENT_STARTS = ("#", "//", "/*", "*")
