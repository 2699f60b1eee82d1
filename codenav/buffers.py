"""An editor's open documents, answered from their own text.

``codenav lsp`` answers about what the editor shows: a document whose text differs from the
file on disk (unsaved edits) is extracted in memory — definitions, references and their
positions come from that text — and joined to the map by node id (``<lang>:<path>#<key>``)
and by the linker's keys, which the map resolves for names defined in other files. Nothing
is written: the map follows the files on disk (the watcher), the overlay the buffers.

Positions here are the map's: 1-based lines and 1-based UTF-16 columns.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple, Protocol

from codenav.index.extract import PARSE_DEADLINE_S, ParseTimeout, extract
from codenav.index.languages import by_extension, language_of
from codenav.model import Definition, RefRow, node_id
from codenav.positions import utf16_len
from codenav.query.locate import declarations_of, references_of
from codenav.store.read import MapReader, Node

__all__ = ["Buffer", "Hit", "Overlay", "Spanned", "Target", "read_buffer"]

_CACHE_SIZE = 32


class Spanned(Protocol):
    """What a map node and a buffer's definition share: where it is and where its name is."""

    @property
    def line(self) -> int: ...
    @property
    def col(self) -> int: ...
    @property
    def end_line(self) -> int: ...
    @property
    def end_col(self) -> int: ...
    @property
    def name_line(self) -> int: ...
    @property
    def name_col(self) -> int: ...
    @property
    def name_end_col(self) -> int: ...


@dataclass(slots=True)
class Buffer:
    """One document's facts, extracted from the editor's text."""

    path: str
    lang: str
    defs: list[Definition]
    refs: list[RefRow]
    ids: list[str]  # node id of each definition
    index: dict[str, int] = field(default_factory=dict)  # node id -> definition

    def __post_init__(self) -> None:
        self.index = {nid: i for i, nid in enumerate(self.ids)}


class Target(NamedTuple):
    """What a position means: a definition of the map, one of the buffer (a name the map
    does not have yet), or both (the same node id)."""

    node: Node | None
    path: str
    local: int | None  # index into the buffer's definitions


class Hit(NamedTuple):
    """A use or declaration found: where the name is."""

    path: str
    line: int
    col: int
    name: str


_cache: OrderedDict[tuple[str, str], Buffer] = OrderedDict()


def read_buffer(root: Path, path: str, text: str) -> Buffer | None:
    """``text`` of the repo-relative ``path`` extracted in memory; None when it is what the
    file on disk holds (the map answers then), or when it is not a mapped language or cannot
    be extracted within the per-file budget."""
    data = text.encode("utf-8", "surrogatepass")
    try:
        if (root / path).read_bytes() == data:
            return None
    except OSError:
        pass  # a new, unsaved file: the buffer is all there is
    digest = hashlib.blake2b(data, digest_size=16).hexdigest()
    hit = _cache.get((path, digest))
    if hit is not None:
        _cache.move_to_end((path, digest))
        return hit
    lang = language_of(path, data) or by_extension(path)
    if lang is None:
        return None
    try:
        found = extract(lang, data, path, PARSE_DEADLINE_S)
    except ParseTimeout:
        return None
    buffer = Buffer(path, lang.code, found.defs, found.refs,
                    [node_id(lang.code, path, d.key) for d in found.defs])
    _cache[(path, digest)] = buffer
    if len(_cache) > _CACHE_SIZE:
        _cache.popitem(last=False)
    return buffer


class Overlay:
    """The documents open in the editor that differ from disk, over a map reader."""

    def __init__(self, root: Path, reader: MapReader, documents: Mapping[str, str]) -> None:
        self.root = root
        self.reader = reader
        self._documents = documents  # repo-relative path -> the editor's text
        self._buffers: dict[str, Buffer | None] = {}
        self._keys: dict[str, Node | None] = {}

    def buffer(self, path: str) -> Buffer | None:
        """The buffer of ``path`` when it is open and differs from disk, else None."""
        if path not in self._buffers:
            text = self._documents.get(path)
            self._buffers[path] = read_buffer(self.root, path, text) if text is not None \
                else None
        return self._buffers[path]

    def modified(self) -> Iterator[Buffer]:
        for path in self._documents:
            buffer = self.buffer(path)
            if buffer is not None:
                yield buffer

    def _key(self, key: str) -> Node | None:
        if key not in self._keys:
            self._keys[key] = self.reader.node_for_key(key)
        return self._keys[key]

    # ----------------------------------------------------------------- positions

    def target_at(self, buffer: Buffer, line: int, col: int) -> Target | None:
        """The definition meant at (line, col) of the buffer: its own name, or a use of it
        (resolved in the buffer, else through the map by the linker's key)."""
        for i, d in enumerate(buffer.defs):
            if d.name_line == line and d.name_col <= col < d.name_end_col:
                return self._local(buffer, i)
        for name, _kind, at_line, at_col, _scope, _qualifier, target, key in buffer.refs:
            if at_line != line or not at_col <= col < at_col + utf16_len(name):
                continue
            if target >= 0:
                return self._local(buffer, target)
            node = self._key(key) if key else None
            return Target(node, node.path, None) if node is not None else None
        return None

    def _local(self, buffer: Buffer, index: int) -> Target:
        return Target(self.reader.node(buffer.ids[index]), buffer.path, index)

    def place(self, target: Target) -> tuple[str, Definition | Node] | None:
        """Where the target's definition is, as the editor shows it: in its buffer when
        its file is open and changed (None when the buffer no longer defines it)."""
        path = target.node.path if target.node is not None else target.path
        buffer = self.buffer(path)
        if buffer is not None:
            nid = target.node.nid if target.node is not None else buffer.ids[target.local or 0]
            index = buffer.index.get(nid)
            return (path, buffer.defs[index]) if index is not None else None
        return (path, target.node) if target.node is not None else None

    def definition_of(self, target: Target) -> Definition | Node | None:
        """The target's definition with its signature and doc as the editor shows them."""
        found = self.place(target)
        return found[1] if found is not None else target.node

    # ---------------------------------------------------------------- references

    def references(self, target: Target, include_declaration: bool) -> list[Hit]:
        """Uses of the target (and its declarations if asked): the map's, except in changed
        buffers, whose own uses replace them."""
        node = target.node
        if node is None:  # defined only in an unsaved buffer: its uses are in that buffer
            buffer = self.buffer(target.path)
            assert buffer is not None and target.local is not None
            wanted = {buffer.ids[target.local]}
            hits = [Hit(buffer.path, line, col, name)
                    for name, _k, line, col, _s, _q, index, _key in buffer.refs
                    if index == target.local]
            return self._with_declarations(hits, wanted, [], include_declaration)
        declarations = declarations_of(self.reader, node)
        wanted = {d.nid for d in declarations}
        changed = {b.path: b for b in self.modified()}
        hits = [Hit(h.path, h.line, h.col, h.name) for h in references_of(self.reader, node)
                if h.path not in changed]
        for buffer in changed.values():
            for name, _kind, line, col, _scope, _qualifier, index, key in buffer.refs:
                meant: str | None
                if index >= 0:
                    meant = buffer.ids[index]
                else:
                    found = self._key(key) if key else None
                    meant = found.nid if found is not None else None
                if meant in wanted:
                    hits.append(Hit(buffer.path, line, col, name))
        on_disk = [d for d in declarations if d.path not in changed]
        return self._with_declarations(hits, wanted, on_disk, include_declaration,
                                       skip=node.nid)

    def _with_declarations(self, hits: list[Hit], wanted: set[str], on_disk: list[Node],
                           include: bool, skip: str | None = None) -> list[Hit]:
        """``hits`` after the declarations (all of them, or all but the asked one), each
        place once."""
        out: list[Hit] = []
        seen: set[tuple[str, int, int]] = set()
        declared = [(n.nid, Hit(n.path, n.name_line, n.name_col, n.name)) for n in on_disk]
        for buffer in self.modified():
            declared += [(nid, Hit(buffer.path, d.name_line, d.name_col, d.name))
                         for nid, d in zip(buffer.ids, buffer.defs, strict=True)
                         if nid in wanted]
        for nid, hit in declared:
            place = (hit.path, hit.line, hit.col)
            seen.add(place)
            if include or (nid != skip and skip is not None):
                out.append(hit)
        for hit in hits:
            place = (hit.path, hit.line, hit.col)
            if place not in seen:
                seen.add(place)
                out.append(hit)
        return out
