"""What a question is about: a node id, a position in a file, or a symbol name, resolved to
the definition it means — with the files it rests on refreshed first — and the lookups every
query shares (a definition's declarations, its uses, what encloses a use, path filters).
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from typing import TypeVar

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
from codenav.index.languages import by_code, by_extension, family, language_of
from codenav.index.literals import literal_at, names_on_line, parsed
from codenav.index.overloads import parameter_types
from codenav.model import CALLABLE_KINDS, TYPE_KINDS
from codenav.paths import relative_path, require_nameable, require_relative
from codenav.query.fresh import Freshness
from codenav.query.source import file_lines
from codenav.store.read import FileStat, MapReader, Node, RefHit
from codenav.workspace import Workspace

__all__ = [
    "GUESSED",
    "MAP_ONLY",
    "MAP_UNSEEN",
    "MAP_UNSEEN_FILES",
    "MAX_CANDIDATES",
    "MEMBER_KINDS",
    "MODULE",
    "NODE_ID",
    "FileFilter",
    "Located",
    "aliases_of",
    "constructed",
    "constructors",
    "declarations_of",
    "enclosing_scopes",
    "family",
    "find_node",
    "locate",
    "mapped_file",
    "merged_folded",
    "overloads_of",
    "overridden",
    "parse_node_id",
    "references_of",
    "scope_names",
    "without_stubs",
]

T = TypeVar("T")

GUESSED = "name"  # a row's mark: matched by name alone, the receiver's type unknown
MAP_ONLY = "map"  # a row's mark: the map's alone, a language server answered without it
# Counted beside the marks of a merged answer (no row's mark): the rows marked MAP_ONLY in
# files the server reported nothing in (outside the files its project holds, as tests are
# when a tsconfig's `include` leaves them out)
MAP_UNSEEN = "map unseen"
MAP_UNSEEN_FILES = "map unseen files"
MAX_CANDIDATES = 8  # definitions a symbol name is answered for in one call
NODE_ID = re.compile(r"^([a-z][a-z0-9+]*):([^#\0]+?)(?:#([^\0]+))?$")
MODULE = "<module>"  # what encloses a use at the top level of a file
MEMBER_KINDS = frozenset({"method", "field", "property", "attribute"})

def parse_node_id(raw: str) -> tuple[str, str, str | None]:
    """(lang, path, qualified name or None); BAD_NODE_ID when ``raw`` is not an id."""
    found = NODE_ID.match(raw.strip()) if raw else None
    if not found:
        raise BadNodeId(f"{raw[:120]!r} is not a node id")
    require_nameable(found.group(2), "the id's path")
    return found.group(1), found.group(2), found.group(3)


def mapped_file(ws: Workspace, reader: MapReader, raw: str) -> tuple[str, FileStat]:
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


class FileFilter:
    """``fileFilter``: a path prefix (``src/``), or a glob (``src/**/*.py``, ``*_test.py``);
    with ``!`` before it, every path but those (``!examples/``); several, separated by commas
    (``!dist/,!docs/``, ``src/,test/``): a path passes when it matches one of those without
    ``!`` (if any) and none of those with it. With ``ranged``, files' lines may be asked
    for (``src/a.py:40-60``, ``src/a.py:42``; several: ``src/a.py:1-9,src/b.py:40-60``, every
    pattern a file's path with its range): ``ranges`` holds them, in order (a text search's);
    elsewhere a range is refused, never silently matched to nothing."""

    def __init__(self, raw: str | None, skip: frozenset[str] = frozenset(),
                 only: frozenset[str] | None = None, ranged: bool = False) -> None:
        self.skip = skip  # paths left out whatever the filter says (stubs beside modules)
        self.only = only  # when given: these paths alone
        text = raw.strip() if raw else raw
        self.text = text  # as given (stripped): another filter made from this one keeps it
        self.included: list[str] = []
        self.excluded: list[str] = []
        # (path, first, last) of each file's lines asked for, 1-based, inclusive
        self.ranges: list[tuple[str, int, int]] = []
        ranges: list[re.Match[str]] = []
        taken = True  # whether a range stands after one file's path alone
        ranged_path: str | None = None  # the path of the range before (`a.py:38,74`)
        for written in (text or "").split(","):
            part = written.strip()
            if ranged and ranged_path is not None and _MORE_LINES.fullmatch(part):
                part = f"{ranged_path}:{part}"  # more lines of the same file (run 39)
            negated = part.startswith("!")
            pattern = part[1:].strip() if negated else part
            ranged_at = _LINE_RANGE.search(pattern)
            if ranged_at is not None:
                pattern = pattern[:ranged_at.start()]
                if not pattern:  # (`:40-60`: no path to take it)
                    raise BadArgs(_RANGE_REFUSED)
                ranges.append(ranged_at)
                taken = taken and not negated and not _is_glob(pattern)
                ranged_path = pattern
            else:
                ranged_path = None
            if pattern:
                require_relative(pattern, "fileFilter")
            pattern = pattern.lstrip("./")
            if not pattern:
                if negated or part not in ("", ".", "./") or "," in (text or ""):
                    raise BadArgs("fileFilter must be a path prefix like 'src/', a glob like "
                                  "'src/**/*.py', or either after '!' to leave those out "
                                  "('!tests/'); several separated by commas ('!dist/,!docs/')")
                continue
            (self.excluded if negated else self.included).append(pattern)
        if ranges:
            if len(ranges) > MAX_RANGES:
                raise BadArgs(f"{len(ranges)} line ranges: one text search takes up to "
                              f"{MAX_RANGES} (several lines of a file: 'a.py:31,62,80-90')")
            if not (ranged and taken and len(ranges) == len(self.included)
                    and not self.excluded):
                raise BadArgs(_RANGE_REFUSED)
            self.ranges = [(path, *_line_range(found))
                           for path, found in zip(self.included, ranges, strict=True)]

    @property
    def active(self) -> bool:
        """Whether the filter leaves any path out by its patterns."""
        return bool(self.included or self.excluded)

    @property
    def prefix(self) -> str | None:
        """The one path prefix the filter is, when it is that alone (a lookup can start
        from it); else None."""
        if len(self.included) == 1 and not self.excluded and not _is_glob(self.included[0]):
            return self.included[0]
        return None

    def __call__(self, path: str) -> bool:
        if path in self.skip or (self.only is not None and path not in self.only):
            return False
        if self.included and not any(_matches(path, p) for p in self.included):
            return False
        return not any(_matches(path, p) for p in self.excluded)


_LINE_RANGE = re.compile(r":(\d{1,9})(?:-(\d{1,9}))?$")
_MORE_LINES = re.compile(r"\d{1,9}(?:-\d{1,9})?")  # `74` or `80-90` after `a.py:38`
MAX_RANGES = 40  # files' line ranges one text search takes (an answer's call lines: run 36)
_RANGE_REFUSED = ("line ranges ('src/a.py:40-60', several: 'src/a.py:1-9,src/b.py:40-60', "
                  f"up to {MAX_RANGES}) are taken by map_search with text:true "
                  "alone, each after one file's path, every pattern with one; other tools "
                  "filter whole files")


def _line_range(found: re.Match[str]) -> tuple[int, int]:
    """The lines ``path:N-M`` (or ``path:N``) asks for; BAD_ARGS when the range is empty."""
    first = int(found.group(1))
    last = int(found.group(2) or first)
    if not 1 <= first <= last:
        raise BadArgs(f"the line range {found.group(0)[1:]!r} is empty: lines start at 1, "
                      "the first before the last")
    return first, last


def _is_glob(pattern: str) -> bool:
    return any(c in pattern for c in "*?[")


def _matches(path: str, pattern: str) -> bool:
    if _is_glob(pattern):
        return fnmatch.fnmatchcase(path, pattern) or fnmatch.fnmatchcase(
            path, pattern.replace("**/", ""))
    return path.startswith(pattern)


def without_stubs(reader: MapReader, files: FileFilter) -> FileFilter:
    """``files`` without the Python stubs that sit beside their modules (``core.pyi`` by
    ``core.py``): a stub mirrors its module's names, and its lines are no uses in code —
    unless the filter asks for stubs (``*.pyi``)."""
    if any(".pyi" in pattern for pattern in files.included):
        return files
    paths = {path for path, *_ in reader.files_under("")}
    stubs = frozenset(path for path in paths if path.endswith(".pyi") and path[:-1] in paths)
    return FileFilter(files.text, stubs) if stubs else files


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
    others: list[Node] = field(default_factory=list)  # more definitions a symbol names
    more: int = 0  # definitions named so beyond ``others``
    stale: bool = False  # the node's file changed since it was indexed: its place may be off

    def each(self) -> list[Located]:
        """One target per definition the arguments name: this one, then ``others``."""
        return [self, *(Located(node, node.name, is_definition=True) for node in self.others)]

    def matches(self) -> int:
        return 1 + len(self.others) + self.more


def locate(ws: Workspace, reader: MapReader, fresh: Freshness, *, id: str | None = None,
           file: str | None = None, line: int | None = None, col: int | None = None,
           symbol: str | None = None) -> Located:
    """Resolve ``id``, ``file`` + ``line`` (+ ``col``) or ``symbol`` (exactly one; a
    ``symbol`` with a ``file`` means its definitions in that file) to the definition it
    means. The files of the definitions found are re-indexed first when they
    changed and that is quick; one that could not be is noted in ``fresh`` and the result
    is ``stale``."""
    if id is not None:
        node = find_node(ws, reader, id, fresh)
        found = Located(node, node.name, is_definition=True)
    elif symbol is not None:
        within = mapped_file(ws, reader, file)[0] if file is not None else None
        found = _by_symbol(reader, symbol, within)
        paths = sorted({c.node.path for c in found.each() if c.node is not None})
        if ws.changed_on_disk(paths):  # positions may have moved: read the files again first
            fresh.refresh(paths)
            found = _by_symbol(ws.reader(), symbol, within)
    else:
        assert file is not None and line is not None
        return _by_position(ws, reader, file, line, col, fresh)
    found.stale = found.node is not None and found.node.path in fresh.stale
    return found


def find_node(ws: Workspace, reader: MapReader, raw: str, fresh: Freshness) -> Node:
    """The node with id ``raw``, its file refreshed first: BAD_NODE_ID, OUT_OF_ROOT (before
    the disk is touched), NODE_NOT_FOUND or FILE_DELETED otherwise."""
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
    return node


def _by_symbol(reader: MapReader, symbol: str, within: str | None = None) -> Located:
    """The definitions ``symbol`` names, best first (only those in file ``within``)."""
    text = symbol.strip()
    name = text.rsplit(".", 1)[-1]
    matches = reader.nodes_named(name)
    if "." in text:
        matches = [n for n in matches if _qualified_as(n, text)]
    if within is not None:
        elsewhere = matches
        matches = [n for n in matches if n.path == within]
        if not matches and elsewhere:
            places = ", ".join(sorted({n.path for n in elsewhere})[:5])
            raise SymbolNotFound(f"no definition named {text!r} in {within}",
                                 hint=f"It is defined in: {places}.")
    if not matches and "." not in text:  # a name it is imported under elsewhere
        matches = reader.exported_as(text)
    if any(n.kind != "module" for n in matches):  # a file named like its class: the class
        matches = [n for n in matches if n.kind != "module"]
    if not matches:
        raise SymbolNotFound(f"no definition named {text!r} in the map",
                             hint="map_search finds near names (camelCase and snake_case "
                                  "aware); the map may be stale (map_rebuild).")
    matches = _merged_folded(_stubs_folded(matches))
    exact = [n for n in matches if n.qname == text]
    ranked = _overloads_folded(exact + [n for n in matches if n not in exact])
    return Located(ranked[0], ranked[0].name, is_definition=True,
                   others=ranked[1:MAX_CANDIDATES], more=max(0, len(ranked) - MAX_CANDIDATES))


def _overloads_folded(ranked: list[Node]) -> list[Node]:
    """``ranked`` with the overloads of one function or method (one name in one scope:
    Python's ``@overload`` stubs, TypeScript's signatures) as one definition, the first —
    except where each is its own symbol (Java, C#, C++ overloads; Rust's trait impls)."""
    seen: set[tuple[int | None, str, bool]] = set()
    out = []
    for node in sorted(ranked, key=lambda n: (n.path, n.line)):
        lang = by_code(node.lang)
        if node.kind in CALLABLE_KINDS and not (lang is not None and (
                lang.overloads == "distinct" or lang.distinct_namesakes)):
            group = (node.parent_id, node.name, node.static)
            if group in seen:
                continue
            seen.add(group)
        out.append(node)
    kept = {node.id for node in out}
    return [node for node in ranked if node.id in kept]


def _stubs_folded(matches: list[Node]) -> list[Node]:
    """``matches`` without the declarations of a Python stub (``.pyi``) that a definition in
    code has the same qualified name as: the stub describes it (``attr/__init__.pyi``'s
    ``resolve_types`` is ``attr/_funcs.py``'s), its own uses are the code's."""
    coded = {n.qname for n in matches if not n.path.endswith(".pyi")}
    return [n for n in matches if not (n.path.endswith(".pyi") and n.qname in coded)]


def merged_folded(items: Iterable[T], kind_at: Callable[[T], tuple[str, Hashable]]) -> list[T]:
    """``items`` without an ``interface X`` that a ``class X`` shares its place with
    (``kind_at``: an item's kind and place — its file and name, and whatever else must
    match): TypeScript merges the two into one symbol (yup declares each schema class
    twice), the class's."""
    listed = list(items)
    classes = {place for kind, place in map(kind_at, listed) if kind == "class"}
    return [item for item in listed
            if not ((found := kind_at(item))[0] == "interface" and found[1] in classes)]


def _merged_folded(matches: list[Node]) -> list[Node]:
    return merged_folded(matches, lambda n: (n.kind, (n.path, n.qname)))


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
            _no_identifier(ws, path, line, col),
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
    """Without a column: the first definition named on the line (``export const f: T = …``
    means ``f``, not its type), else the first identifier there that resolves to a
    definition, else the first identifier."""
    named = reader.first_def_on_line(file_id, line)
    if named is not None:
        return named
    resolving = reader.first_resolved_ref(file_id, line)
    return resolving if resolving is not None else _first_symbol_col(ws, path, line)


def _first_symbol_col(ws: Workspace, path: str, line: int) -> int:
    text = file_lines(ws.root, path)
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


_MAX_NAMES = 8


def _no_identifier(ws: Workspace, path: str, line: int, col: int) -> str:
    """Why (line, col) names nothing: it is in a comment or a string (and which lines that
    spans: a line of a commented-out block reads as code), or where the line's names are."""
    at = f"no identifier at {path}:{line}:{col}"
    data = read_source(ws.root, path, MAX_FILE_BYTES)
    lang = language_of(path, data) if data is not None else None
    if data is None or lang is None:
        return at
    root = parsed(lang, data)  # (one parse for both questions)
    literal = literal_at(lang, data, line, col, root) if root is not None else None
    if literal is not None:
        what, first, last = literal
        return f"{at}: it is inside a {what} (" + (
            f"line {first})" if first == last else f"lines {first}-{last})")
    names = [f"{start} {name}" for start, name in
             (names_on_line(lang, data, line, root) if root is not None else [])]
    if not names:
        return f"{at} (no name in code on that line)"
    more = ", …" if len(names) > _MAX_NAMES else ""
    return f"{at}; names on that line start at col " + ", ".join(names[:_MAX_NAMES]) + more


def _nearby(reader: MapReader, file_id: int, line: int) -> str:
    around = reader.enclosing(file_id, line)
    if around is None:
        return ""
    return (f"Line {line} is inside {around.nid} (lines {around.line}-{around.end_line}); "
            f"its name is at line {around.name_line}, col {around.name_col}.")



# ---------------------------------------------------------------------- shared lookups

def declarations_of(reader: MapReader, node: Node, family: bool = True) -> list[Node]:
    """Every declaration of one symbol: its namesakes in its scope (a property and its
    setter) and, with ``family`` where the language's references say so (TypeScript: what a
    rename must change too), the members it overrides or implements and those overriding
    it."""
    # (a class's static and instance members of one name are two: planck's `Vec2.add`)
    found = [other for other in reader.family(node) if other.static == node.static]
    lang = by_code(node.lang)
    if lang is not None and lang.tags:  # C: `struct P` and its typedef `P` are two symbols
        found = [other for other in found
                 if (other.kind in lang.tag_kinds) == (node.kind in lang.tag_kinds)]
    if lang is not None and lang.overloads == "distinct" and len(found) > 1:
        found = [other for other in found if _same_declaration(other, node)]
    if lang is not None and lang.predefined and len(found) > 1:  # `#ifdef _WIN32 typedef …`
        out = reader.compiled_out(found)
        found = [other for other in found if other.id == node.id or other.id not in out]
    if family and lang is not None and lang.related_members and node.kind in MEMBER_KINDS \
            and node.name != lang.constructor:
        found += [other for other in reader.related_members(node)
                  if other.kind in MEMBER_KINDS]
    return found


def overridden(reader: MapReader, node: Node) -> list[tuple[Node, int]]:
    """The members ``node`` overrides that references reach, with their counts: a call
    through a base class's type is the base method's reference, and may run this one."""
    if node.kind not in MEMBER_KINDS:
        return []
    return [(other, count) for other, count in reader.overridden(node) if count]


def overloads_of(reader: MapReader, node: Node) -> list[Node]:
    """A function's or method's declarations of one name in its scope, itself included, in
    source order (Python's ``@overload`` stubs and their implementation, TypeScript's
    signatures, Java's overloads) — [] when it has no namesake."""
    if node.kind not in CALLABLE_KINDS:
        return []
    found = [other for other in reader.family(node)
             if other.kind in CALLABLE_KINDS and other.static == node.static]
    return sorted(found, key=lambda n: n.line) if len(found) > 1 else []


def _same_declaration(other: Node, node: Node) -> bool:
    """Whether two namesakes in one scope declare one symbol in a language whose overloads
    are distinct (a C++ prototype and its definition), not two (two overloads, a field and
    a method)."""
    if (other.kind in CALLABLE_KINDS) != (node.kind in CALLABLE_KINDS):
        return False
    return node.kind not in CALLABLE_KINDS or \
        parameter_types(other.signature) == parameter_types(node.signature)


def constructors(reader: MapReader, node: Node) -> list[int]:
    """For a class of a language with distinct overloads, its constructors: a call of the
    class (``new Foo(1)``) is linked to the constructor it runs, and is a use of the class
    too."""
    lang = by_code(node.lang)
    if lang is None or lang.overloads != "distinct" or node.kind not in lang.containers:
        return []
    return [child.id for child in reader.children(node.id)
            if child.name == node.name and child.kind in ("method", "constructor")]


def constructed(node: Node) -> int | None:
    """For a constructor, its class: calls of the class (``Foo()``, ``new Foo()``) are uses
    of the constructor too (what a language server reports). A constructor is what the
    language names one (``__init__``, ``constructor``), a ``constructor`` node (Java, C#), or
    a method named like its class (C++). Not where overloads are distinct: there a call of
    the class is linked to the constructor that fits it."""
    if node.parent_id is None or node.kind not in ("method", "constructor"):
        return None
    lang = by_code(node.lang)
    if lang is not None and lang.overloads == "distinct":
        return None
    scope = node.qname.split(".")
    if node.kind == "constructor" or (lang is not None and node.name == lang.constructor) \
            or (len(scope) >= 2 and scope[-2] == node.name):
        return node.parent_id
    return None


def references_of(reader: MapReader, node: Node) -> list[RefHit]:
    """Uses of a symbol: of every declaration of it, and for a constructor the calls of its
    class."""
    return reader.uses_in([member.id for member in declarations_of(reader, node)] +
                          constructors(reader, node),
                          constructed(node))



# Kinds that hold a value rather than code: a use inside one (``x = f()``) is shown as in the
# function, class or module around it.
_VALUE_KINDS = frozenset({"variable", "constant", "field", "attribute", "value", "variant"})


# A value that is a function (`protected _getClaims = async (text) =>`, `x = function ()`):
# code, whose uses are its own (oidc-client-ts's arrow field, run 41)
_FUNCTION_VALUE = re.compile(
    r"(?<![=!<>])=\s*(?:async\s+)?(?:function\b|(?:<[^>]*>\s*)?"
    r"(?:\((?:[^()]|\([^()]*\))*\)|[\w$]+)\s*(?::[^=]*?)?=>|\($)")  # (`= async (`: a
# signature cut at its first line, the parameters on the next ones: prettier's arrow fields)


def _holds_value(node: Node) -> bool:
    return node.kind in _VALUE_KINDS and _FUNCTION_VALUE.search(node.signature or "") is None


def enclosing_scopes(reader: MapReader, ids: set[int]) -> dict[int, Node]:
    """The node each scope id stands for as a use's enclosing definition: itself, or for a
    value (a variable, constant or field holding what was computed) the function, method,
    class or file around it (none when that is not in the map); a field or variable whose
    value is a function (an arrow function in a class field) is itself."""
    nodes = reader.nodes_by_id(ids)
    for _ in range(4):  # values nest a few deep at most (a field of a class in a namespace)
        wanted = {n.parent_id for n in nodes.values() if _holds_value(n) and
                  n.parent_id is not None and n.parent_id not in nodes}
        if not wanted:
            break
        nodes.update(reader.nodes_by_id(wanted))
    out: dict[int, Node] = {}
    for scope in ids:
        node = nodes.get(scope)
        while node is not None and _holds_value(node) and node.parent_id is not None:
            node = nodes.get(node.parent_id)
        if node is not None:
            out[scope] = node
    return out


def scope_names(reader: MapReader, ids: set[int]) -> dict[int, str]:
    """What a reference is ``in``, by its scope id: the enclosing function, method or class
    by qualified name, or ``<module>`` at the top level of a file."""
    found = enclosing_scopes(reader, ids)
    return {scope: node.qname if (node := found.get(scope)) is not None and node.qname
            else MODULE for scope in ids}


def aliases_of(reader: MapReader, node: Node) -> list[Node]:
    """The other names a class or a function has at module level, or a method in its class:
    a variable, constant or field whose whole value is its name, dotted or not (wtforms'
    ``length = Length``, ``export const Rect = _Rect``, bs4's ``replaceWith = replace_with``,
    stevedore's ``get_group_all = _c.get_group_all`` of ``_c = Cache()``) — a use of one is a
    use of the other (wtforms' tests call ``length(…)``, stevedore's ``_cache.get_group_all(…)``:
    run 53). Not a name assigned again or declared twice."""
    if node.kind not in TYPE_KINDS and node.kind not in ("function", "method"):
        return []
    scope = node.parent_id if node.kind == "method" else None
    out = []
    for alias in reader.assigned_from([node.id], scope):
        found = _ALIAS.match(alias.signature)
        if alias.id != node.id and found and found.group(1) == alias.name and \
                found.group(2).rpartition(".")[2] == node.name and \
                len(reader.family(alias)) == 1 and not reader.rebound(alias):
            # (a name assigned again, `default = str`, is no other name of the definition)
            out.append(alias)
    return out


# `length = Length`, `export const Rect = _Rect;`, `var x: typeof Y = Y`, `get = _c.get`: a
# name given the whole value of another.
_ALIAS = re.compile(r"(?:export\s+)?(?:(?:const|let|var)\s+)?([\w$]+)\s*(?::[^=]*)?=\s*"
                    r"([\w$]+(?:\.[\w$]+)*)\s*;?\s*$")
