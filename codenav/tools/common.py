"""What the map and nav tools share: addressing a symbol, rendering nodes and anchors,
source snippets, and freshness (read-your-writes, ``stale`` marks).

A symbol is addressed by ``id``, by ``file`` + ``line`` (+ ``col``), or by ``symbol`` (a name
or a qualified name such as ``Session.request``). Positions are 1-based lines and 1-based
UTF-16 columns (docs/contract.md §2).
"""

from __future__ import annotations

import fnmatch
import os
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, model_validator

from codenav.errors import (
    BadArgs,
    BadNodeId,
    FileDeleted,
    FileNotFound,
    NodeNotFound,
    SymbolNotFound,
)
from codenav.files import read_source
from codenav.index.discover import MAX_FILE_BYTES
from codenav.index.extract import identifier_at
from codenav.index.languages import by_extension, language_of
from codenav.paths import relative_path, require_nameable, require_relative
from codenav.positions import BOM
from codenav.store.read import MapReader, Node
from codenav.tools.base import ToolParams
from codenav.tools.rows import MODULE, Detail, node_row
from codenav.workspace import Workspace

__all__ = [
    "MAX_CANDIDATES",
    "NODE_ID",
    "FileFilter",
    "Freshness",
    "Lines",
    "Located",
    "TargetParams",
    "anchor",
    "listed",
    "locate",
    "mapped_file",
    "parse_node_id",
    "relinking",
    "scope_names",
    "summary",
]

MAX_CANDIDATES = 8  # definitions a symbol name is answered for in one call
NODE_ID = re.compile(r"^([a-z][a-z0-9+]*):([^#\0]+?)(?:#([^\0]+))?$")
_SNIPPET = 160
_MAX_POSITION = 1 << 31


class TargetParams(ToolParams):
    """How a position-taking tool is told which symbol: exactly one of id, file+line, symbol.
    (What each means is said once, in the server's instructions.)"""

    id: str | None = Field(default=None, max_length=4096)
    file: str | None = Field(default=None, max_length=4096)
    # Bounded so a huge number is BAD_ARGS, not an SQLite integer overflow (INTERNAL).
    line: int | None = Field(default=None, ge=1, le=_MAX_POSITION)
    col: int | None = Field(default=None, ge=1, le=_MAX_POSITION)
    symbol: str | None = Field(default=None, min_length=1, max_length=500)

    @model_validator(mode="after")
    def _one_target(self) -> TargetParams:
        given = [self.id is not None, self.file is not None or self.line is not None,
                 self.symbol is not None]
        if sum(given) != 1:
            raise ValueError("give exactly one of: id; file + line (+ col); symbol — e.g. "
                             "{\"symbol\": \"Session.request\"} or {\"file\": \"src/app.py\", "
                             "\"line\": 12, \"col\": 9}")
        if (self.file is None) != (self.line is None):
            raise ValueError("file and line go together: {\"file\": \"src/app.py\", "
                             "\"line\": 12}")
        return self


SourceParam = Literal["auto", "lsp", "map"]


def parse_node_id(raw: str) -> tuple[str, str, str | None]:
    """(lang, path, qualified name or None); BAD_NODE_ID when ``raw`` is not an id."""
    found = NODE_ID.match(raw.strip()) if raw else None
    if not found:
        raise BadNodeId(f"{raw[:120]!r} is not a node id")
    require_nameable(found.group(2), "the id's path")
    return found.group(1), found.group(2), found.group(3)


def mapped_file(ws: Workspace, reader: MapReader, raw: str) -> tuple[str, Any]:
    """(repo-relative path, its FileStat) for a ``file`` argument, or the right error."""
    path = relative_path(raw, ws.root, ws.force_root)
    known = reader.file(path)
    exists = (ws.root / path).is_file()
    if known is None:
        if exists and by_extension(path) is None:
            raise FileNotFound(f"{path} is not a language codenav maps",
                               hint="map_status lists the mapped languages.")
        if exists:
            raise FileNotFound(f"{path} is not in the map yet",
                               hint="Run map_rebuild (it may be ignored by .gitignore).")
        raise FileNotFound(f"{path} does not exist under the root")
    if not exists:
        raise FileDeleted(f"{path} was indexed but is gone from disk")
    return path, known


# Split source files kept across calls (agents ask about the same files again and again),
# each valid while its size and mtime are: (size, mtime_ns, lines) by absolute path.
_SPLIT: OrderedDict[str, tuple[int, int, list[str]]] = OrderedDict()
_SPLIT_FILES = 64
_SPLIT_LOCK = threading.Lock()


def _split_file(root: Path, path: str) -> list[str]:
    """The lines of repo-relative ``path`` (a path from the map or an argument: read only
    inside the root, as a regular file of mappable size; none otherwise)."""
    absolute = f"{root}/{path}"
    try:
        info = os.stat(absolute)
    except OSError:
        return []
    with _SPLIT_LOCK:
        kept = _SPLIT.get(absolute)
        if kept is not None and kept[0] == info.st_size and kept[1] == info.st_mtime_ns:
            _SPLIT.move_to_end(absolute)
            return kept[2]
    data = read_source(root, path, MAX_FILE_BYTES)
    if data is None:
        return []
    lines = _text_lines(data[:MAX_FILE_BYTES])
    with _SPLIT_LOCK:
        _SPLIT[absolute] = (info.st_size, info.st_mtime_ns, lines)
        while len(_SPLIT) > _SPLIT_FILES:
            _SPLIT.popitem(last=False)
    return lines


_LINE_END = re.compile(r"\r\n|\r|\n")


def _text_lines(data: bytes) -> list[str]:
    """A file's lines as the map numbers them: a byte-order mark is not text; ``\\r\\n``,
    ``\\n`` and a lone ``\\r`` end lines, and nothing else does (``str.splitlines`` also
    splits at form feeds and other separators, which would shift every later line)."""
    lines = _LINE_END.split(data.removeprefix(BOM).decode("utf-8", "replace"))
    return lines[:-1] if lines and lines[-1] == "" else lines


class Lines:
    """Source lines of files for snippets: read once per call, and kept across calls while
    the file is unchanged on disk."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._files: dict[str, list[str]] = {}

    def line(self, path: str, line: int) -> str | None:
        lines = self._files.get(path)
        if lines is None:
            lines = self._files[path] = _split_file(self.root, path)
        if 1 <= line <= len(lines):
            text = lines[line - 1].strip()
            return text if len(text) <= _SNIPPET else text[: _SNIPPET - 1] + "…"
        return None

    def source(self, path: str, start: int, end: int) -> str | None:
        data = read_source(self.root, path, MAX_FILE_BYTES)
        return None if data is None else data[start:end].decode("utf-8", "replace")


@dataclass
class Freshness:
    """Which files an answer touches changed on disk since they were indexed."""

    ws: Workspace
    links: bool = False  # the answer follows links across files: say when some may be missing
    stale: set[str] = field(default_factory=set)
    _checked: dict[str, bool] = field(default_factory=dict)

    def refresh(self, paths: list[str]) -> None:
        """Re-index these files now if they changed and it is quick (read-your-writes)."""
        still = self.ws.freshen(paths)
        self.stale.update(still)
        for path in paths:
            self._checked[path] = path in self.stale

    def check(self, paths: set[str]) -> None:
        """Note which of these mapped files changed on disk (no re-indexing)."""
        todo = [p for p in paths if p not in self._checked]
        if not todo:
            return
        changed = set(self.ws.changed_on_disk(todo))
        for path in todo:
            self._checked[path] = path in changed
        self.stale.update(changed)

    def mark(self, item: dict[str, Any], path: str) -> dict[str, Any]:
        if path in self.stale:
            item["stale"] = True
        return item

    def warnings(self) -> list[str]:
        out = []
        if self.stale:
            out.append(f"{len(self.stale)} file(s) changed since the last index; their nodes "
                       "carry stale:true (map_rebuild refreshes them).")
        if self.links and self.ws.relink_pending():  # right, but maybe not all there yet
            out.append(relinking(self.ws) + ": uses of names defined moments ago may be "
                                            "missing.")
        return out


def anchor(path: str, line: int, col: int, end_line: int | None = None,
           snippet: str | None = None) -> dict[str, Any]:
    """An anchor as docs/contract.md §2 draws it."""
    out: dict[str, Any] = {"file": path, "line": line, "col": col}
    if end_line is not None and end_line != line:
        out["endLine"] = end_line
    if snippet is not None:
        out["snippet"] = snippet
    return out


def hub(score: float) -> float:
    """A hub score as shown: three significant digits (scores span orders of magnitude)."""
    return float(f"{score:.3g}")


def summary(node: Node, fresh: Freshness | None = None) -> dict[str, Any]:
    """A node in a list: id, kind, signature, where its name is, hub score."""
    item: dict[str, Any] = {"id": node.nid, "kind": node.kind}
    if node.signature:
        item["signature"] = node.signature
    item["anchor"] = anchor(node.path, node.name_line, node.name_col, node.end_line)
    item["hub"] = hub(node.hub)
    return fresh.mark(item, node.path) if fresh is not None else item


def listed(node: Node, detail: Detail, fresh: Freshness | None = None,
           notes: dict[str, Any] | None = None, signature: bool = True,
           whole: bool = True) -> Any:
    """A node in a list: its row (``detail`` compact; without its signature unless
    ``signature``, with only its name's line unless ``whole``) or its summary object (full),
    with ``notes`` (``level``, ``in`` …) and a stale mark."""
    stale = fresh is not None and node.path in fresh.stale
    if detail == "full":
        item = summary(node)
        item.update(notes or {})
        if stale:
            item["stale"] = True
        return item
    return node_row(node, signature,
                    notes={**(notes or {}), **({"stale": "true"} if stale else {})}, whole=whole)


# Kinds that hold a value rather than code: a use inside one (``x = f()``) is shown as in the
# function, class or module around it.
_VALUE_KINDS = frozenset({"variable", "constant", "field", "attribute", "value", "variant"})


def scope_names(reader: MapReader, ids: set[int]) -> dict[int, str]:
    """What a reference is ``in``, by its scope id: the enclosing function, method or class
    by qualified name, or ``<module>`` at the top level of a file."""
    nodes = reader.nodes_by_id(ids)
    for _ in range(4):  # values nest a few deep at most (a field of a class in a namespace)
        wanted = {n.parent_id for n in nodes.values() if n.kind in _VALUE_KINDS and
                  n.parent_id is not None and n.parent_id not in nodes}
        if not wanted:
            break
        nodes.update(reader.nodes_by_id(wanted))
    out: dict[int, str] = {}
    for scope in ids:
        node = nodes.get(scope)
        while node is not None and node.kind in _VALUE_KINDS and node.parent_id is not None:
            node = nodes.get(node.parent_id)
        out[scope] = node.qname if node is not None and node.qname else MODULE
    return out


def relinking(ws: Workspace) -> str:
    """What a pending whole relink means for an answer, and when it ends."""
    if ws.watcher is not None:
        return ("Files changed moments ago; the map links every file again in a few seconds, "
                "once edits pause")
    return "Files changed since the last whole link; map_rebuild links every file again"


class FileFilter:
    """``fileFilter``: a path prefix (``src/``), or a glob (``src/**/*.py``, ``*_test.py``)."""

    def __init__(self, raw: str | None) -> None:
        if raw:
            require_relative(raw, "fileFilter")
        self.raw = raw.strip().lstrip("./") if raw else None
        if raw is not None and not self.raw and raw.strip() not in ("", ".", "./"):
            raise BadArgs("fileFilter must be a path prefix like 'src/' or a glob like "
                          "'src/**/*.py'")
        self._glob = self.raw is not None and any(c in self.raw for c in "*?[")

    def __call__(self, path: str) -> bool:
        if not self.raw:
            return True
        if self._glob:
            return fnmatch.fnmatchcase(path, self.raw) or fnmatch.fnmatchcase(
                path, self.raw.replace("**/", ""))
        return path.startswith(self.raw)


@dataclass
class Located:
    """What a position-taking tool was pointed at."""

    node: Node | None  # the definition meant
    name: str  # the identifier at the position (or the node's name)
    path: str | None = None  # the file of the position, when one was given
    line: int | None = None
    col: int | None = None
    key: str | None = None  # an unresolved reference's key (binder grammar)
    is_definition: bool = False  # the position is the definition's own name
    warnings: list[str] = field(default_factory=list)
    others: list[Node] = field(default_factory=list)  # more definitions a symbol names
    more: int = 0  # definitions named so beyond ``others``
    stale: bool = False  # the node's file changed since it was indexed: its place may be off

    def each(self) -> list[Located]:
        """One target per definition the arguments name: this one, then ``others``."""
        return [self, *(Located(node, node.name, is_definition=True) for node in self.others)]

    def matches(self) -> int:
        return 1 + len(self.others) + self.more


def locate(ws: Workspace, reader: MapReader, params: TargetParams,
           fresh: Freshness) -> Located:
    """Resolve id / file+line(+col) / symbol to the definition it means (the parameters'
    model has checked that exactly one is given). The files of the definitions found are
    re-indexed first when they changed and that is quick; one that could not be is noted
    in ``fresh`` and the result is ``stale``."""
    if params.id is not None:
        found = _by_id(ws, reader, params.id, fresh)
    elif params.symbol is not None:
        found = _by_symbol(reader, params.symbol)
        paths = sorted({c.node.path for c in found.each() if c.node is not None})
        if ws.changed_on_disk(paths):  # positions may have moved: read the files again first
            fresh.refresh(paths)
            found = _by_symbol(ws.reader(), params.symbol)
    else:
        assert params.file is not None and params.line is not None
        return _by_position(ws, reader, params.file, params.line, params.col, fresh)
    found.stale = found.node is not None and found.node.path in fresh.stale
    return found


def _by_id(ws: Workspace, reader: MapReader, raw: str, fresh: Freshness) -> Located:
    _, path, _ = parse_node_id(raw)
    relative_path(path, ws.root, ws.force_root)  # OUT_OF_ROOT before touching the disk
    if (ws.root / path).is_file():
        fresh.refresh([path])
    node = reader.node(raw.strip())
    if node is None:
        if reader.file(path) is not None and not (ws.root / path).is_file():
            raise FileDeleted(f"{path} was indexed but is gone from disk")
        raise NodeNotFound(f"{raw[:200]} is not in the map")
    if not (ws.root / node.path).is_file():
        raise FileDeleted(f"{node.path} was indexed but is gone from disk")
    return Located(node, node.name, is_definition=True)


def _by_symbol(reader: MapReader, symbol: str) -> Located:
    text = symbol.strip()
    name = text.rsplit(".", 1)[-1]
    matches = reader.nodes_named(name)
    if "." in text:
        matches = [n for n in matches if _qualified_as(n, text)]
    if any(n.kind != "module" for n in matches):  # a file named like its class: the class
        matches = [n for n in matches if n.kind != "module"]
    if not matches:
        raise SymbolNotFound(f"no definition named {text!r} in the map",
                             hint="map_search finds near names (camelCase and snake_case "
                                  "aware); the map may be stale (map_rebuild).")
    exact = [n for n in matches if n.qname == text]
    ranked = exact + [n for n in matches if n not in exact]
    return Located(ranked[0], ranked[0].name, is_definition=True,
                   others=ranked[1:MAX_CANDIDATES], more=max(0, len(ranked) - MAX_CANDIDATES))


def _qualified_as(node: Node, text: str) -> bool:
    """Whether ``text`` names ``node``: its qualified name or a tail of it
    (``Session.request``), or its module's dotted path and its qualified name, whole or in
    part either way (``cells.cell_len``, ``rich.cells.cell_len`` for ``cells.py#cell_len``
    mapped from inside the package)."""
    if node.qname == text or ("." + node.qname).endswith("." + text):
        return True
    module = node.path.rsplit(".", 1)[0].replace("/", ".")
    for tail in (".__init__", ".index", ".mod"):
        module = module.removesuffix(tail)
    full = f"{module}.{node.qname}" if node.qname else module
    return ("." + full).endswith("." + text) or ("." + text).endswith("." + full)


def _by_position(ws: Workspace, reader: MapReader, raw: str, line: int, col: int | None,
                 fresh: Freshness) -> Located:
    path, _ = mapped_file(ws, reader, raw)
    fresh.refresh([path])
    known = reader.file(path)
    if known is None:  # removed by the refresh: it vanished from disk meanwhile
        raise FileDeleted(f"{path} was indexed but is gone from disk")
    if path in fresh.stale:  # changed, and not re-indexed now (another writer is busy)
        raise SymbolNotFound(f"{path} changed since it was indexed and is being re-indexed: "
                             "its positions cannot be read from the map yet",
                             hint="Retry in a moment (map_status shows the watcher), or run "
                                  "map_rebuild.")
    if col is None:
        col = _best_col(reader, ws, known.id, path, line)
    node = reader.def_at(known.id, line, col)
    if node is not None:
        return Located(node, node.name, path, line, col, is_definition=True)
    hit = reader.ref_at(known.id, line, col)
    if hit is None:
        word = _identifier_at(ws, path, line, col)
        if word is not None:  # an identifier the map does not keep: a local name
            return Located(None, word[0], path, line, word[1])
        raise SymbolNotFound(
            f"no identifier at {path}:{line}:{col}",
            hint=_nearby(reader, known.id, line) or "map_outline lists the file's symbols.")
    name, _kind, start, target, key = hit
    target_node = reader.node_by_id(target) if target is not None else None
    return Located(target_node, name, path, line, start, key=key)


def _identifier_at(ws: Workspace, path: str, line: int, col: int) -> tuple[str, int] | None:
    """The identifier covering (line, UTF-16 col) in the file on disk, and where it starts."""
    data = read_source(ws.root, path, MAX_FILE_BYTES)
    if data is None:
        return None
    lang = language_of(path, data)
    return identifier_at(lang, data, line, col) if lang is not None else None


def _best_col(reader: MapReader, ws: Workspace, file_id: int, path: str, line: int) -> int:
    """Without a column: the definition named on the line, else the first identifier there
    that resolves to a definition, else the first identifier."""
    col = _first_symbol_col(ws, path, line)
    if reader.def_at(file_id, line, col) is not None:
        return col
    resolving = reader.first_resolved_ref(file_id, line)
    return resolving if resolving is not None else col


def _first_symbol_col(ws: Workspace, path: str, line: int) -> int:
    text = _split_file(ws.root, path)
    if not 1 <= line <= len(text):
        return 1
    found = re.search(r"[^\W\d]", text[line - 1])
    if found is None:
        return 1
    # Skip the keywords that start definitions, so `def save` points at `save`.
    keyword = re.match(r"\s*(?:async\s+)?(?:def|class|function|func|fn|struct|interface|"
                       r"type|enum|trait|impl)\s+(?=[^\W\d])", text[line - 1])
    index = keyword.end() if keyword else found.start()
    return len(text[line - 1][:index].encode("utf-16-le")) // 2 + 1


def _nearby(reader: MapReader, file_id: int, line: int) -> str:
    around = reader.enclosing(file_id, line)
    if around is None:
        return ""
    return (f"Line {line} is inside {around.nid} (lines {around.line}-{around.end_line}); "
            f"its name is at line {around.name_line}, col {around.name_col}.")

