"""Lines of code holding a text, literally: grep over the files the map holds — what an agent
runs to prove a list complete, or to find what no definition names (``.send(`` on a receiver
of unknown type, a string key). Files are read as answers read them (inside the root, regular,
of mappable size); the search stops at a bound of bytes and time, and says so."""

from __future__ import annotations

import re
import time
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from codenav.files import read_source
from codenav.index.discover import MAX_FILE_BYTES
from codenav.index.languages import language_of
from codenav.index.literals import Place, word_places
from codenav.query.locate import FileFilter
from codenav.query.source import excerpt, file_lines
from codenav.store.read import MapReader
from codenav.words import word_pattern

__all__ = ["LiteralLines", "TextHit", "TextPage", "literal_hits", "text_files", "text_search"]

MAX_SCAN_BYTES = 200 << 20  # text read by one search
MAX_SCAN_S = 3.0
MAX_HITS = 5_000  # lines kept by one search (counted beyond)


@dataclass(frozen=True, slots=True)
class TextHit:
    path: str
    line: int
    code: str  # the line as ``excerpt`` shows it


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


def text_files(reader: MapReader, files: FileFilter, lang: str | None = None,
               langs: Collection[str] = ()) -> list[str]:
    """The map's files a text search reads (``files`` and ``lang``, or any of ``langs``,
    narrow them), by path."""
    return [path for path, file_lang, *_ in reader.files_under("")
            if files(path) and (lang is None or file_lang == lang)
            and (not langs or file_lang in langs)]


def text_search(root: Path, paths: list[str], needle: str, word: bool = False,
                lines: tuple[int, int] | None = None) -> TextPage:
    """Lines containing ``needle`` (with ``word``, as a whole identifier: not inside a longer
    name) in ``paths`` (``text_files``), in path then line order, within ``lines`` (first,
    last) when given (an empty needle: every line there): no map access, so that it can run
    off the event loop."""
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
            total += 1
            if len(hits) < MAX_HITS:
                at = found.start() if found is not None else text.find(needle)
                hits.append(TextHit(path, number, excerpt(text, at)))
    return TextPage(hits, total, searched, len(paths), searched < len(paths))


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
            for line, place in places(path, pattern, lines).items() if place != "code"}
