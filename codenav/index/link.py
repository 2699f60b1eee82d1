"""Linking: resolve the keys extraction left for other files, once every file is mapped.

A key (grammar in ``index/binder.py``) names a module, a node, a class's bases, a file's star
imports or "any member called x", followed by a chain of members. Resolution follows what a
reader of the code would: a module's own definitions, then the names it imports (package
``__init__`` re-exports), then its star imports, then its submodules; a class's own members,
then its bases in order. Results land in ``symbols`` and, through it, in ``refs.target_id``.

A full link resolves every key with the map's tables loaded in memory; an incremental one
(the changed files did not change what others can see of them, ``files.surface``) resolves
only the new keys of the changed files, looking things up with indexed queries.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass
from itertools import islice
from pathlib import Path

from codenav.index.binder import TAG, is_static
from codenav.index.languages import by_code, family
from codenav.index.modules import ConfigReader, ModuleSystem, config_reader, module_system
from codenav.index.overloads import Call, best
from codenav.model import CALLABLE_KINDS
from codenav.store.write import NODE_BITS, file_node
from codenav.words import name_words

__all__ = ["Linker", "link", "project_file_hashes"]

_MAX_DEPTH = 24
_LITERALS = {"s": "string", "n": "number", "b": "boolean", "z": "null"}


def _decoded(text: str) -> Call | None:
    """A call as ``extract.encode_call`` wrote it in a key (``2s=Class;``), None if it is
    not one."""
    digits = len(text) - len(text.lstrip("0123456789"))
    if not digits:
        return None
    kinds: list[str | None] = []
    rest = text[digits:]
    while rest:
        if rest[0] == "=":
            name, _, rest = rest[1:].partition(";")
            kinds.append(f"type:{name}")
        else:
            kinds.append(_LITERALS.get(rest[0]))
            rest = rest[1:]
    return int(text[:digits]), tuple(kinds)
# The container kinds of every language, as the partial index ``nodes_types`` lists them.
_TYPE_KINDS = "'class', 'interface', 'enum', 'record', 'struct', 'trait', 'union', " \
    "'namespace', 'type'"


# Module systems learnt from a tree, reused while its files and the project files they read
# stay the same (a watcher re-indexing one file at a time must not re-learn 10,000 paths).
_LEARNT: dict[str, tuple[list[tuple[str, str | None]], dict[str, ModuleSystem]]] = {}
_LEARNT_MAX = 4


def _module_systems(family: dict[str, str], paths_by_lang: dict[str, list[str]], root_name: str,
                    read: ConfigReader
                    ) -> tuple[dict[str, ModuleSystem], list[tuple[str, str | None]]]:
    """One module system per family name, taught the paths of its languages; and the
    project files they read (path, text or None)."""
    digest = hashlib.sha1(root_name.encode("utf-8", "surrogateescape"))
    for code in sorted(paths_by_lang):
        digest.update(f"\0{code}:{family[code]}\0".encode())
        digest.update("\n".join(sorted(paths_by_lang[code])).encode("utf-8", "surrogateescape"))
    signature = digest.hexdigest()
    cached = _LEARNT.get(signature)
    if cached is not None and all(read(rel) == text for rel, text in cached[0]):
        return cached[1], cached[0]
    seen: list[tuple[str, str | None]] = []

    def recording(rel: str) -> str | None:
        text = read(rel)
        seen.append((rel, text))
        return text

    by_name: dict[str, ModuleSystem] = {}
    for name in dict.fromkeys(family.values()):
        system = by_name[name] = module_system(name)
        system.index([p for code, paths in paths_by_lang.items() if family[code] == name
                      for p in paths], root_name, recording)
    if len(_LEARNT) >= _LEARNT_MAX:
        _LEARNT.pop(next(iter(_LEARNT)))
    _LEARNT[signature] = (seen, by_name)
    return by_name, seen


def project_file_hashes(read: ConfigReader, rels: Collection[str]) -> dict[str, str]:
    """Content hashes of the project files among ``rels`` that exist."""
    out = {}
    for rel in rels:
        text = read(rel)
        if text is not None:
            out[rel] = hashlib.sha1(text.encode("utf-8", "surrogateescape")).hexdigest()
    return out


@dataclass(slots=True)
class _Files:
    """The map's linkable files as a linker looks them up, and the module systems taught
    their paths (one per family: TypeScript, TSX and JavaScript share theirs)."""

    file_node: dict[str, int]
    file_lang: dict[str, str]
    path_of: dict[int, str]  # file node -> path
    systems: dict[str, ModuleSystem]  # by language code
    unique_systems: list[ModuleSystem]
    seen: list[tuple[str, str | None]]  # project files the systems read (path, text)


# Learnt files by (map, files_epoch), for incremental links: reused while no file of the
# map appeared, vanished or changed language or status (every run that does so gives the
# map a new epoch) and the project files read still say the same — a watcher's one-file run
# must not re-read every path. (A project file that appears asks for a whole relink, which
# learns afresh: ``watch.PROJECT_FILES``.)
_FILES: dict[tuple[str, str], _Files] = {}


def _learn_files(conn: sqlite3.Connection, root_name: str, read: ConfigReader,
                 reuse: bool) -> _Files:
    epoch = conn.execute("SELECT value FROM meta WHERE key = 'files_epoch'").fetchone()
    stamp = (str(conn.execute("PRAGMA database_list").fetchone()[2]), str(epoch[0])) \
        if epoch else None
    cached = _FILES.get(stamp) if stamp and reuse else None
    if cached is not None and all(read(rel) == text for rel, text in cached.seen
                                  if text is not None):
        return cached
    files = conn.execute("SELECT id, path, lang FROM files WHERE status = 'ok'").fetchall()
    file_nodes = {path: file_node(fid) for fid, path, _ in files}
    paths_by_lang: dict[str, list[str]] = defaultdict(list)
    for _, path, lang in files:
        paths_by_lang[lang].append(path)
    family = {code: lang.modules if (lang := by_code(code)) else "" for code in paths_by_lang}
    by_name, seen = _module_systems(family, paths_by_lang, root_name, read)
    learnt = _Files(file_nodes, {path: lang for _, path, lang in files},
                    {node: path for path, node in file_nodes.items()},
                    {code: by_name[family[code]] for code in paths_by_lang},
                    list(by_name.values()), seen)
    if stamp is not None:
        if len(_FILES) >= _LEARNT_MAX:
            _FILES.pop(next(iter(_FILES)))
        _FILES[stamp] = learnt
    return learnt


# An unknown receiver's member: the members of that name looked at for one family's root.
_FAMILY_MAX = 8
# Members of the built-in types of a language family (a file's read, a dict's get, a Map's
# has): on a receiver of unknown type such a name is more likely theirs than the one class
# of the map defining it, so it is not guessed (the use stays unresolved, listed as such).
_BUILTIN_MEMBERS = {
    "python": frozenset({
        "get", "items", "keys", "values", "update", "pop", "popitem", "setdefault", "copy",
        "clear", "append", "extend", "insert", "remove", "sort", "reverse", "index", "count",
        "join", "split", "rsplit", "strip", "lstrip", "rstrip", "format", "replace", "startswith",
        "endswith", "encode", "decode", "lower", "upper", "find", "add", "discard", "union",
        "read", "write", "readline", "readlines", "close", "flush", "seek", "tell",
        "set"}),  # (ElementTree's Element.set, Event.set, ContextVar.set)
    "es": frozenset({
        "get", "set", "has", "delete", "clear", "add", "forEach", "keys", "values", "entries",
        "push", "pop", "shift", "unshift", "map", "filter", "reduce", "slice", "splice",
        "includes", "indexOf", "join", "concat", "find", "some", "every", "sort", "split", "trim",
        "replace", "startsWith", "endsWith", "toString", "then", "catch", "finally"}),
}


class Linker:
    """Key resolution against one map (the caller holds the write transaction)."""

    def __init__(self, conn: sqlite3.Connection, root_name: str, *, preload: bool,
                 read: ConfigReader | None = None) -> None:
        self.conn = conn
        self.memo: dict[str, int | None] = {}
        self._busy: set[str] = set()
        learnt = _learn_files(conn, root_name, read or config_reader(None), reuse=not preload)
        self._file_node = learnt.file_node
        self._file_lang = learnt.file_lang
        self._paths_by_node = learnt.path_of
        # Project files that exist (tsconfig.json, go.mod …): a change to one relinks the map.
        self.project_files = {rel: hashlib.sha1(text.encode("utf-8", "surrogateescape"))
                              .hexdigest() for rel, text in learnt.seen if text is not None}
        self._systems = learnt.systems
        self._unique_systems = learnt.unique_systems
        self._containers = {code: (lang.containers if (lang := by_code(code)) else frozenset())
                            for code in learnt.systems}
        self._namespaces = {code: (lang.namespaces if (lang := by_code(code)) else frozenset())
                            for code in learnt.systems}
        self._tag_kinds = {code: lang.tag_kinds for code in learnt.systems
                           if (lang := by_code(code)) is not None and lang.tags}
        self._overloads = {code for code in learnt.systems
                           if (lang := by_code(code)) is not None and lang.overloads}
        self._preloaded = preload
        self._package_files: dict[int, list[int]] = {}
        self._ending: dict[tuple[str, str], list[int]] = {}  # types named …word, by family
        self._reversed: list[str] | None = None  # type names lower-cased and reversed, sorted
        if preload:
            self._load()

    def decide_regions(self, files: list[int] | None) -> None:
        """Decide the conditionally compiled lines extraction left open (``regions``) with
        the project's configuration, which the module systems read, and the macros its
        files define (a node of kind constant or macro, or a bare ``#define``: a use of kind
        ``define``); of ``files`` only, None: of every file."""
        codes = [code for code in self._systems
                 if (lang := by_code(code)) is not None and lang.predefined]
        if not codes:
            return
        marks = ",".join("?" * len(codes))
        where = "" if files is None else f" AND g.file_id IN ({','.join(map(str, files))})"
        rows = self.conn.execute(
            f"SELECT g.rowid, f.path, f.lang, g.cond FROM regions g JOIN files f "
            f"ON f.id = g.file_id WHERE g.cond != '0' AND f.lang IN ({marks}){where}",
            codes).fetchall()
        if not rows:
            return
        defined = {name for (name,) in self.conn.execute(
            f"SELECT DISTINCT n.name FROM nodes n JOIN files f ON f.id = n.file_id "
            f"WHERE f.lang IN ({marks}) AND n.kind IN ('constant', 'macro') "
            "UNION SELECT DISTINCT name FROM refs WHERE kind = 'define'", codes)}
        decided: dict[tuple[str, str], bool | None] = {}
        updates = []
        for rowid, path, code, cond in rows:
            if (path, cond) not in decided:
                decided[(path, cond)] = self._systems[code].decide(path, cond, defined)
            value = decided[(path, cond)]
            updates.append((None if value is None else int(value), rowid))
        self.conn.executemany("UPDATE regions SET active = ? WHERE rowid = ?", updates)

    # --------------------------------------------------------------- lookups

    def _load(self) -> None:
        self._by_nid: dict[str, int] = {}
        self._kind: dict[int, str] = {}
        self._types: dict[int, str] = {}
        self._children: dict[tuple[int, str], list[int]] = defaultdict(list)
        self._members: dict[str, list[int]] = defaultdict(list)
        self._top: dict[str, list[int]] = defaultdict(list)
        self._qnames: dict[str, list[int]] = defaultdict(list)
        self._qname_of: dict[int, str] = {}
        self._head: dict[int, tuple[int | None, str, str]] = {}  # parent, name, callable's sig
        rows = self.conn.execute(
            "SELECT n.id, n.nid, n.parent_id, n.kind, n.name, n.qname, n.type_key, p.kind, "
            "f.lang, CASE WHEN n.kind IN ('function', 'method', 'constructor') "
            "THEN n.signature END FROM nodes n JOIN files f ON f.id = n.file_id "
            "LEFT JOIN nodes p ON p.id = n.parent_id ORDER BY n.id")
        self._types_by_lower: dict[str, list[tuple[int, str, str]]] = defaultdict(list)
        for nid_int, nid, parent, kind, name, qname, type_key, parent_kind, lang, sig in rows:
            self._by_nid[nid] = nid_int
            self._kind[nid_int] = kind
            self._head[nid_int] = (parent, name, sig or "")
            if kind in self._containers.get(lang, ()):
                self._types_by_lower[name.lower()].append((nid_int, kind, lang))
            if type_key:
                self._types[nid_int] = type_key
            if qname:
                self._qnames[qname].append(nid_int)
                self._qname_of[nid_int] = qname
            if parent is not None:
                self._children[(parent, name)].append(nid_int)
                if parent_kind == "module":
                    self._top[name].append(nid_int)
                if parent_kind in self._containers.get(lang, ()):
                    self._members[name].append(nid_int)
        self._imports: dict[tuple[int, str], str | None] = {}
        self._stars: dict[int, list[str]] = defaultdict(list)
        for scope, module, name, alias, wildcard, key in self.conn.execute(
                "SELECT scope_id, module, name, alias, wildcard, key FROM imports"):
            self._index_import(scope, module, name, alias, wildcard, key)
        self._bases: dict[int, list[tuple[int | None, str | None]]] = defaultdict(list)
        for scope, target, key in self.conn.execute(
                "SELECT scope_id, target_id, key FROM refs WHERE kind = 'inheritance' "
                "ORDER BY file_id, line, col"):
            self._bases[scope].append((target, key))

    def _index_import(self, scope: int, module: str, name: str | None, alias: str | None,
                      wildcard: int, key: str | None) -> None:
        if wildcard:
            if key:
                self._stars[scope].append(key)
            return
        bound = alias or name or module.split(".", 1)[0]
        self._imports.setdefault((scope, bound), key)

    def node(self, nid: str) -> int | None:
        if self._preloaded:
            return self._by_nid.get(nid)
        row = self.conn.execute("SELECT id FROM nodes WHERE nid = ?", (nid,)).fetchone()
        return int(row[0]) if row else None

    def kind(self, node: int) -> str | None:
        if self._preloaded:
            return self._kind.get(node)
        row = self.conn.execute("SELECT kind FROM nodes WHERE id = ?", (node,)).fetchone()
        return str(row[0]) if row else None

    def type_of(self, node: int) -> str | None:
        """The key of a variable's or field's class, if extraction could tell."""
        if self._preloaded:
            return self._types.get(node)
        row = self.conn.execute("SELECT type_key FROM nodes WHERE id = ?", (node,)).fetchone()
        return str(row[0]) if row and row[0] else None

    def children(self, node: int, name: str) -> list[int]:
        if self._preloaded:
            return self._children.get((node, name), [])
        return [row[0] for row in self.conn.execute(
            "SELECT id FROM nodes WHERE parent_id = ? AND name = ? ORDER BY id", (node, name))]

    def named(self, node: int, name: str) -> list[int]:
        """``children`` for a name that may be of the tag namespace (``§P``, see
        ``binder.TAG``): a tag name finds only tags (C's struct, union and enum names), an
        ordinary one other nodes before tags (the typedef of ``typedef struct P {…} P``)."""
        if not self._tag_kinds:
            return self.children(node, name)
        tag = name.startswith(TAG)
        return self._by_namespace(self.children(node, name[1:] if tag else name), tag)

    def _by_namespace(self, nodes: list[int], tag: bool) -> list[int]:
        if not self._tag_kinds or not nodes:
            return nodes
        tags = [n for n in nodes if (kind := self.kind(n)) is not None
                and kind in self._tag_kinds.get(self._lang_of(n), ())]
        if tag:
            return tags
        return [n for n in nodes if n not in tags] or nodes

    def imported(self, module_node: int, name: str) -> tuple[bool, str | None]:
        """Whether ``module_node`` binds ``name`` by an import at its top level, and its key."""
        if self._preloaded:
            if (module_node, name) in self._imports:
                return True, self._imports[(module_node, name)]
            return False, None
        for module, imported, alias, key in self.conn.execute(
                "SELECT module, name, alias, key FROM imports WHERE file_id = ? AND scope_id = ? "
                "AND wildcard = 0", (module_node >> NODE_BITS, module_node)):
            if (alias or imported or module.split(".")[0]) == name:
                return True, key
        return False, None

    def stars(self, module_node: int) -> list[str]:
        if self._preloaded:
            return self._stars.get(module_node, [])
        return [row[0] for row in self.conn.execute(
            "SELECT key FROM imports WHERE file_id = ? AND scope_id = ? AND wildcard = 1 "
            "AND key IS NOT NULL", (module_node >> NODE_BITS, module_node))]

    def bases(self, class_node: int) -> list[int]:
        if self._preloaded:
            found = self._bases.get(class_node, [])
        else:
            found = self.conn.execute(
                "SELECT target_id, key FROM refs WHERE scope_id = ? AND kind = 'inheritance' "
                "ORDER BY line, col", (class_node,)).fetchall()
        out = []
        for target, key in found:
            base = self.resolve(key) if target is None and key is not None else target
            if base is not None and base != class_node:
                out.append(base)
        return out

    def top_level(self, name: str) -> Iterable[int]:
        """Nodes called ``name`` at the top level of their file (read lazily)."""
        if self._preloaded:
            return self._top.get(name, [])
        return (row[0] for row in self.conn.execute(
            f"SELECT id FROM nodes WHERE name = ? AND parent_id = (file_id << {NODE_BITS}) "
            "ORDER BY id", (name,)))

    def by_qname(self, qname: str) -> list[int]:
        if self._preloaded:
            return self._qnames.get(qname, [])
        name = qname.rsplit(".", 1)[-1]
        return [row[0] for row in self.conn.execute(
            "SELECT id FROM nodes WHERE name = ? AND qname = ? ORDER BY id", (name, qname))]

    def members_named(self, name: str) -> Iterable[int]:
        """Members of classes (of any file) called ``name`` (read lazily)."""
        if self._preloaded:
            return self._members.get(name, [])
        rows = self.conn.execute(
            "SELECT n.id, p.kind, f.lang FROM nodes n JOIN nodes p ON p.id = n.parent_id "
            "JOIN files f ON f.id = n.file_id WHERE n.name = ?", (name,))
        return (nid for nid, parent_kind, lang in rows
                if parent_kind in self._containers.get(lang, ()))

    def _module_node(self, key: str, lang: str | None) -> int | None:
        """The (first) file node of module ``key``; a module made of several files (a Go
        package) remembers the others, so that member lookups see them all."""
        systems = [self._systems[lang]] if lang in self._systems else self._unique_systems
        for system in systems:
            files = [node for path in system.files_for(key)
                     if (node := self._file_node.get(path)) is not None]
            if files:
                if len(files) > 1:
                    self._package_files[files[0]] = files
                return files[0]
        return None

    def _module_key(self, module_node: int) -> tuple[str, str] | None:
        """The key submodules of this file's module are found under, with its language."""
        path = self._path_of(module_node)
        if path is None:
            return None
        lang = self._file_lang[path]
        system = self._systems.get(lang)
        key = system.package_key(path) if system is not None else None
        return (key, lang) if key is not None else None

    def _free(self, path: str, name: str) -> int | None:
        """A name file ``path`` uses without binding it, looked up as its language says."""
        file_node = self._file_node.get(path)
        lang = by_code(self._file_lang.get(path, ""))
        if file_node is None or lang is None:
            return None
        for step in lang.free_names:
            found: int | None = None
            if step == "stars":
                found = self._from_stars(file_node, name)
            elif step == "package":
                system = self._systems.get(lang.code)
                for peer in system.peers(path) if system is not None else ():
                    peer_node = self._file_node.get(peer)
                    own = self.named(peer_node, name) if peer_node is not None else []
                    if own:
                        found = own[0]
                        break
            elif step == "global":  # of the file's own language family (C and C++)
                family = lang.modules or lang.code
                tag = name.startswith(TAG)
                plain = name[1:] if tag else name
                found = _only(self._by_namespace(
                    [c for c in self.top_level(plain) if self._family_of(c) == family
                     and self.qname(c) == plain], tag))  # not a method declared outside
            if found is not None:
                return found
        return None

    def _qualified(self, qname: str, code: str = "") -> int | None:
        """The node whose qualified name is ``qname`` (namespaces span files), in a file of
        language ``code`` when given."""
        found = self.by_qname(qname)
        if code:
            found = [node for node in found if self._lang_of(node) == code]
        return found[0] if found else None

    def _named_like(self, variable: str, code: str) -> int | None:
        """The one type (a container kind) of ``code``'s language family whose name is
        ``variable``'s, case aside (``_subscriber`` → ``Subscriber``); None if not unique."""
        word = variable.strip("_$").lower()
        lang = by_code(code)
        if len(word) < 3 or lang is None:
            return None
        family = lang.modules or lang.code
        rows = (self._types_by_lower.get(word, []) if self._preloaded else self.conn.execute(
            "SELECT n.id, n.kind, f.lang FROM nodes n JOIN files f ON f.id = n.file_id "
            f"WHERE lower(n.name) = ? AND n.kind IN ({_TYPE_KINDS})", (word,)))
        named = [node for node, kind, node_lang in rows
                 if (other := by_code(node_lang)) is not None and kind in other.containers
                 and (other.modules or other.code) == family]
        if named or len(word) < 5:
            return _only(named)
        # none named so: the types named with it at the end (`adapter`: `BaseAdapter`,
        # `HTTPAdapter`), when they are one class family — its root; else with its last
        # word at the end (`key_field`: `Field`, `String` …)
        found = self._type_family_root(self._types_ending(word, family))
        words = name_words(variable)
        last = words[-1] if words else ""
        if found is None and len(last) >= 5 and last != word:
            found = self._type_family_root(self._types_ending(last, family))
        return found

    def _types_ending(self, word: str, family: str) -> list[int]:
        """Types of a language family whose name ends in ``word`` (case aside)."""
        key = (word, family)
        found = self._ending.get(key)
        if found is None:
            rows: Iterable[tuple[int, str, str]] = (
                self._types_reversed(word[::-1]) if self._preloaded else
                self.conn.execute(
                    "SELECT n.id, n.kind, f.lang FROM nodes n JOIN files f ON f.id = "
                    f"n.file_id WHERE lower(n.name) LIKE ? AND n.kind IN ({_TYPE_KINDS})",
                    ("%" + word.replace("%", "").replace("_", "\\_"),)))
            found = self._ending[key] = [
                node for node, kind, node_lang in rows
                if (other := by_code(node_lang)) is not None and kind in other.containers
                and (other.modules or other.code) == family][: _FAMILY_MAX + 1]
        return found

    def _types_reversed(self, prefix: str) -> Iterator[tuple[int, str, str]]:
        """The types whose lower-cased name, reversed, starts with ``prefix`` (names ending
        in a word: a binary search over the names reversed, sorted once)."""
        if self._reversed is None:
            self._reversed = sorted(name[::-1] for name in self._types_by_lower)
        at = bisect_left(self._reversed, prefix)
        while at < len(self._reversed) and self._reversed[at].startswith(prefix):
            yield from self._types_by_lower[self._reversed[at][::-1]]
            at += 1

    def _type_family_root(self, types: list[int]) -> int | None:
        """The one of ``types`` the others all derive from (through their bases), or None."""
        if not types or len(types) > _FAMILY_MAX:
            return None
        within, roots = set(types), set()
        for cls in types:
            current, seen = cls, {cls}
            while True:
                up = next((base for base in self.bases(current)
                           if base in within and base not in seen), None)
                if up is None:
                    break
                current = up
                seen.add(up)
            roots.add(current)
        return roots.pop() if len(roots) == 1 else None

    def _family_of(self, node: int) -> str:
        """The module system of the language of ``node``'s file (else that language)."""
        return family(self._lang_of(node))

    def _lang_of(self, node: int) -> str:
        """The language code of the file holding ``node``."""
        return str(self._file_lang.get(self._path_of(file_node(node >> NODE_BITS)) or "", ""))

    def _path_of(self, module_node: int) -> str | None:
        return self._paths_by_node.get(module_node)

    # ------------------------------------------------------------- resolving

    def resolve(self, key: str) -> int | None:
        """The node ``key`` names, or None when the map cannot tell."""
        if key in self.memo:
            return self.memo[key]
        if key in self._busy or len(self._busy) > _MAX_DEPTH:
            return None  # an import cycle, or a chain too deep to be code
        self._busy.add(key)
        try:
            found = self._resolve(key)
        finally:
            self._busy.discard(key)
        self.memo[key] = found
        return found

    def _resolve(self, key: str) -> int | None:
        base, hat, text = key.rpartition("^")
        call = _decoded(text) if hat else None
        if call is not None:  # called with these arguments: the overload that takes them
            found = self.resolve(base)
            return self._overload(found, call, self._on_class(base)) \
                if found is not None else None
        return self._resolve_plain(key)

    def _on_class(self, base: str) -> bool | None:
        """Whether the member ``base`` ends with is reached on its class itself
        (``InlineKeyboard.text``: a static member) rather than on an instance
        (``InlineKeyboard.().text``, a typed variable's); None when the key cannot tell."""
        if "|" in base:
            return None
        cut = max(base.rfind("."), base.rfind("::"))
        if cut <= 0:
            return None
        receiver = base[:cut]
        if receiver.endswith("()"):
            return False
        node = self.resolve(receiver)
        kind = self.kind(node) if node is not None else None
        return None if node is None or kind is None else self._is_container(node, kind)

    def target(self, key: str) -> int | None:
        """The node a reference with ``key`` means: ``resolve``, and for a use that is no
        call (no ``^`` arguments), a field rather than a method of the same name."""
        found = self.resolve(key)
        if found is not None and self._overloads and "^" not in key:
            return self._overload(found, None)
        return found

    def guessed(self, key: str) -> bool:
        """Whether ``key`` (resolved) was resolved by a guess from a name: its first
        alternative that resolves is ``V:`` or ``A:`` (the receiver's type unknown)."""
        base = key.rpartition("^")[0] if "^" in key else key
        for alternative in base.split("|"):
            if self.resolve(alternative) is not None:
                return alternative.startswith(("V:", "A:", "R:"))
        return False

    def _overload(self, node: int, call: Call | None, on_class: bool | None = None) -> int:
        """Of the nodes named like ``node`` in its scope (a language with ``overloads``),
        the one a use means: for ``call``, the callable whose parameters fit it best (of a
        class called, its constructor) among the static ones when called on the class
        itself (``on_class``), else among the others (grammY's static and instance
        ``InlineKeyboard.text``, run 40); for another use, a field rather than a method."""
        head = self._node_head(node)
        if head is None or head[0] is None or self._lang_of(node) not in self._overloads:
            return node
        parent, name, _ = head
        assert parent is not None
        kind = self.kind(node)
        if call is not None and kind is not None and self._is_container(node, kind):
            parent = node  # `new Foo(…)`: the constructor (a member named like its class)
        namesakes = self.children(parent, name)
        if call is None:
            if len(namesakes) < 2 or kind not in CALLABLE_KINDS:
                return node
            return next((n for n in namesakes if self.kind(n) not in CALLABLE_KINDS), node)
        callables = [n for n in namesakes if self.kind(n) in CALLABLE_KINDS]
        if on_class is not None and parent != node and len(callables) > 1 and \
                self._static_namesakes(node):
            sided = [n for n in callables if self._static(n) == on_class]
            callables = sided or callables
        if not callables or (len(callables) == 1 and callables[0] == node):
            return node
        signatures = [(self._node_head(n) or (None, "", ""))[2] for n in callables]
        pick = best(signatures, call)
        if pick is not None:
            return callables[pick]
        return node if kind in CALLABLE_KINDS or parent == node else callables[0]

    def _family_root(self, found: Iterable[int], name: str) -> int | None:
        """The one member ``found`` yields or, when several, the one every other overrides
        (a name defined by one class family only: its root); None otherwise."""
        candidates = list(islice(found, _FAMILY_MAX + 1))
        if len(candidates) <= 1 or len(candidates) > _FAMILY_MAX:
            return candidates[0] if len(candidates) == 1 else None
        roots: set[int] = set()
        for member in candidates:
            current = member
            for _ in range(_FAMILY_MAX):
                head = self._node_head(current)
                cls = head[0] if head is not None else None
                up = self._in_bases(cls, name, set()) if cls is not None else None
                if up is None or up == current:
                    break
                current = up
            roots.add(current)
            if len(roots) > 1:
                return None
        return roots.pop()

    def _static_namesakes(self, node: int) -> bool:
        """Whether ``node``'s language tells static from instance namesakes by the
        receiver (TypeScript: ``Cls.m`` the static one, ``Cls.().m`` the other)."""
        lang = by_code(self._lang_of(node))
        return lang is not None and lang.static_namesakes

    def _static(self, node: int) -> bool:
        """Whether callable ``node`` is declared static (its signature says so)."""
        head = self._node_head(node)
        return head is not None and is_static(head[2])

    def _node_head(self, node: int) -> tuple[int | None, str, str] | None:
        """A node's parent, name and (a callable's) signature."""
        if self._preloaded:
            return self._head.get(node)
        row = self.conn.execute(
            "SELECT parent_id, name, CASE WHEN kind IN ('function', 'method', 'constructor') "
            "THEN signature ELSE '' END FROM nodes WHERE id = ?", (node,)).fetchone()
        return (row[0], str(row[1]), str(row[2])) if row else None

    def _resolve_plain(self, key: str) -> int | None:
        if "|" in key:  # alternatives, tried in order
            for alternative in key.split("|"):
                found = self.resolve(alternative)
                if found is not None:
                    return found
            return None
        base, _, chain = key.partition("::")
        names = chain.split(".") if chain else []
        kind, _, rest = base.partition(":")
        node: int | None
        if kind in ("I", "P"):
            node, names = self._module_and_rest(base, names)
        elif kind == "N":
            node = self.node(rest)
        elif kind == "U":
            cls = self.node(rest)
            if cls is None or not names:
                return None
            node = self._in_bases(cls, names[0], set())
            names = names[1:]
        elif kind == "F":
            if not names:
                return None
            node = self._free(rest, names[0])
            names = names[1:]
        elif kind == "Q":
            rest, _, code = rest.partition("@")  # Q:<qualified>@<lang>: of that language only
            if not names:  # the namespace itself (C++ `using a::b::C;` names a.b.C)
                return self._qualified(rest, code) if rest else None
            node = self._qualified(f"{rest}.{names[0]}", code)
            if node is None and rest:  # a member the named node inherits (`a.C` of a.B)
                named = self._qualified(rest, code)
                node = self.member(named, names[0]) if named is not None else None
            names = names[1:]
        elif kind == "V":
            code, _, variable = rest.partition(":")
            node = self._named_like(variable, code)
            if node is not None and names and \
                    names[-1] in _BUILTIN_MEMBERS.get(family(code), ()) and \
                    variable.strip("_$").lower() != (self.qname(node) or "").rpartition(".")[
                        2].lower():
                return None  # `offlineQueue.push(…)`: an array's, likely — not DelayQueue's
                # (`delayQueue.push(…)` names the class itself: guessed still)
        elif kind in ("A", "R"):  # A:<lang>: of that language family only
            candidates = self._without_stubs(self.members_named(names[0])) if names else []
            if rest:
                own = family(rest)
                candidates = [c for c in candidates if self._family_of(c) == own]
                if names and names[0] in _BUILTIN_MEMBERS.get(own, ()):
                    candidates = []  # `f.read()`, `d.get(k)`: a built-in type's, likely
            node = self._family_root(candidates, names[0]) if names else None
            if kind == "R" and node is not None and self.kind(node) in CALLABLE_KINDS:
                return None  # R: a member read, not called: a field's, likelier than a method's
            names = names[1:]
        else:
            return None
        for depth, name in enumerate(names):
            if node is None:
                return None
            found = self.member(node, name)
            if found is None and name == "()" and depth + 1 < len(names):
                # What the call returns is unknown: any member with the final name.
                return (self.resolve(f"A:{self._lang_of(node)}::{names[-1]}")
                        if self._guesses(node) else None)
            node = found
        return node

    def _without_stubs(self, nodes: Iterable[int]) -> list[int]:
        """``nodes`` without those of Python stubs (``.pyi``) when code defines the name too:
        a stub mirrors its module (transitions' core.pyi made Machine.resolve_callable two
        class families, and no unknown receiver was matched to it)."""
        found = list(nodes)
        stub = {node for node in found
                if (self._path_of(file_node(node >> NODE_BITS)) or "").endswith(".pyi")}
        return found if not stub or len(stub) == len(found) else \
            [node for node in found if node not in stub]

    def _module_and_rest(self, base: str, names: list[str]) -> tuple[int | None, list[str]]:
        """The module node of ``base``; a missing package folder is walked as submodules."""
        node = self._module_node(base, None)
        if node is not None:
            return node, names
        for system in self._unique_systems:
            key = base
            for i, name in enumerate(names):
                key = system.submodule(key, name)
                node = self._module_node(key, None)
                if node is not None:
                    return node, names[i + 1 :]
        return None, names

    def member(self, node: int, name: str, seen: frozenset[int] = frozenset()) -> int | None:
        """``node.name``: in a module or a class, as described in the module docstring
        (through a variable's, a field's or a function's type — never round a circle of
        them: ``seen``)."""
        kind = self.kind(node)
        if name == "()":  # an instance of a class, or what an annotated function returns
            if kind is not None and self._is_container(node, kind):
                return node
            returns = self.type_of(node)
            if returns is None and kind == "type":  # a type alias's value: its members
                return node
            return self.resolve(returns) if returns else None
        if kind == "module":
            return self._in_module(node, name)
        if kind is not None and self._is_container(node, kind):
            return self._in_class(node, name, set())
        if kind is not None and self._is_namespace(node, kind):  # reopened in many files
            qname = self.qname(node)
            return self._qualified(f"{qname}.{name}") if qname else None
        own = self.children(node, name)  # a field of an anonymous struct type: its own members
        if own:
            return own[0]
        type_key = self.type_of(node)
        if type_key is not None and len(seen) < _MAX_DEPTH:
            cls = self.resolve(type_key)
            if cls is not None and cls != node and cls not in seen:
                return self.member(cls, name, seen | {node})
        return None

    def _guesses(self, node: int) -> bool:
        """Whether the language of ``node``'s file guesses members of unknown receivers."""
        path = self._path_of(file_node(node >> NODE_BITS))
        lang = by_code(self._file_lang.get(path or "", ""))
        return lang.guess_members if lang is not None else True

    def _is_container(self, node: int, kind: str) -> bool:
        path = self._path_of(file_node(node >> NODE_BITS))
        lang = self._file_lang.get(path or "")
        return kind in self._containers.get(lang or "", ())

    def _is_namespace(self, node: int, kind: str) -> bool:
        path = self._path_of(file_node(node >> NODE_BITS))
        lang = self._file_lang.get(path or "")
        return kind in self._namespaces.get(lang or "", ())

    def _in_module(self, module_node: int, name: str) -> int | None:
        files = self._package_files.get(module_node, [module_node])
        for part in files:
            own = self.named(part, name)
            if own:
                return own[0]
        for part in files:
            bound, key = self.imported(part, name)
            if bound:
                found = self.resolve(key) if key else None
                if found is not None:
                    return found
                break  # `from . import utils` in the package itself: its submodule (below)
        for part in files:
            found = self._from_stars(part, name)
            if found is not None:
                return found
        package = self._module_key(module_node)
        if package is not None:
            system = self._systems.get(package[1])
            if system is not None:
                return self._module_node(system.submodule(package[0], name), package[1])
        return None

    def _from_stars(self, module_node: int, name: str) -> int | None:
        for key in self.stars(module_node):
            found = self.resolve(f"{key}::{name}")
            if found is not None:
                return found
        return None

    def _in_class(self, cls: int, name: str, seen: set[int]) -> int | None:
        own = self.children(cls, name)
        if own and (self.qname(cls) or "").rpartition(".")[2] != name:  # not a constructor
            return own[0]
        outside = self._declared_outside(cls, name)
        if outside is not None:
            return outside
        return self._in_bases(cls, name, seen)

    def _declared_outside(self, cls: int, name: str) -> int | None:
        """A member declared outside its class in another file of the class's package (a Go
        method in a sibling file): a top-level node there whose qualified name is
        ``<class>.<name>`` (extraction names it so when its file lacks the class)."""
        path = self._path_of(file_node(cls >> NODE_BITS))
        system = self._systems.get(self._file_lang.get(path or "", ""))
        if path is None or system is None:
            return None
        peers = system.peers(path)
        if len(peers) < 2:
            return None
        files = {node >> NODE_BITS for peer in peers
                 if (node := self._file_node.get(peer)) is not None}
        qname = self.qname(cls)
        if not qname or "." in qname:
            return None
        for node in self.by_qname(f"{qname}.{name}"):
            if node >> NODE_BITS in files and node >> NODE_BITS != cls >> NODE_BITS:
                return node
        return None

    def qname(self, node: int) -> str | None:
        if self._preloaded:
            return self._qname_of.get(node)
        row = self.conn.execute("SELECT qname FROM nodes WHERE id = ?", (node,)).fetchone()
        return str(row[0]) if row and row[0] else None

    def _in_bases(self, cls: int, name: str, seen: set[int]) -> int | None:
        seen.add(cls)
        for base in self.bases(cls):
            if base in seen:
                continue
            kind = self.kind(base)
            if kind is None or not self._is_container(base, kind):
                continue
            found = self._in_class(base, name, seen)
            if found is not None:
                return found
        return None


def _only(found: Iterable[int]) -> int | None:
    """The one node ``found`` yields; None for none or several (read no further than the
    second: a name defined in thousands of places costs two rows)."""
    first = None
    for node in found:
        if first is not None:
            return None
        first = node
    return first


def link(conn: sqlite3.Connection, root_name: str, changed: Collection[int] | None = None,
         reshaped: Collection[int] = (), *, root: Path | None = None,
         new_names: Collection[str] | None = None) -> int:
    """Resolve keys into ``symbols`` and ``refs.target_id``; returns how many keys resolved.

    ``changed`` (file ids) limits the work to those files' references; None links everything.
    ``reshaped`` are files whose nodes may have moved or vanished: references from other
    files that pointed into them are resolved again. ``new_names`` are the names the changed
    files define and did not before (None: every name they define): unresolved uses of them
    elsewhere are tried again. ``root`` is the tree, whose project files (``tsconfig.json``,
    ``go.mod`` …) module systems may read.
    """
    linker = Linker(conn, root_name, preload=changed is None, read=config_reader(root))
    if changed is None:
        conn.execute("DELETE FROM symbols")
        keys = [key for (key,) in conn.execute(
            "SELECT DISTINCT key FROM refs WHERE key IS NOT NULL")]
        keys += _module_keys(conn, "")
        scope = ""
    else:
        files = sorted({int(i) for i in (*changed, *reshaped)})
        ids = ",".join(map(str, files)) or "NULL"
        before = dict(_pointing_into(conn, reshaped))
        stale = list(before)
        if stale:
            _executemany_chunks(conn, "DELETE FROM symbols WHERE key IN ({})", stale)
        keys = [key for (key,) in conn.execute(
            f"SELECT DISTINCT key FROM refs WHERE file_id IN ({ids}) AND key IS NOT NULL "
            "AND key NOT IN (SELECT key FROM symbols)")]
        keys = sorted({*keys, *stale, *_newly_resolvable(conn, ids, new_names),
                       *_module_keys(conn, f"AND file_id IN ({ids})")})
        scope = f"AND (file_id IN ({ids}) OR key IN (SELECT value FROM json_each(?)))"
    resolved = [(key, target, linker.guessed(key)) for key in keys
                if (target := linker.target(key)) is not None]
    conn.executemany("INSERT OR REPLACE INTO symbols (key, target_id, guessed) VALUES (?, ?, ?)",
                     resolved)
    sql = ("UPDATE refs SET target_id = (SELECT target_id FROM symbols s WHERE s.key = refs.key) "
           f"WHERE key IS NOT NULL {scope}")
    if changed is None:
        conn.execute(sql)
    else:  # elsewhere, only the uses of keys that now mean another node (or none)
        now = {key: target for key, target, _ in resolved}
        moved = [key for key in keys if now.get(key) != before.get(key)]
        conn.execute(sql, (json.dumps(moved),))
    if changed is None:
        conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('project_files', ?)",
                     (json.dumps(linker.project_files, sort_keys=True),))
    linker.decide_regions(None if changed is None else sorted({*changed, *reshaped}))
    return len(resolved)


def _module_keys(conn: sqlite3.Connection, where: str) -> list[str]:
    """The modules named by a path through an alias or a package (`I:ts-graphviz/ast`,
    `I:yaml/util`) in imports of names (`I:ts-graphviz/ast::fromModel`): resolved too, so
    that a module's importers include the lines that name it so (a re-exported name's key
    resolves past the module: ts-graphviz's tests, run 61)."""
    return [str(key) for (key,) in conn.execute(
        "SELECT DISTINCT substr(key, 1, instr(key, '::') - 1) FROM refs WHERE kind = 'import' "
        f"AND key LIKE 'I:%/%::%' {where}") if key and "|" not in key]


_MAX_NEW_NAMES = 500


def _newly_resolvable(conn: sqlite3.Connection, changed_ids: str,
                      new_names: Collection[str] | None) -> list[str]:
    """Unresolved keys elsewhere that a name newly defined in the changed files may now
    resolve (a function added to a module that other files already call); none when too
    many names changed (a whole relink follows such runs)."""
    names = [name for name in new_names if name] if new_names is not None else [
        name for (name,) in conn.execute(
            f"SELECT DISTINCT name FROM nodes WHERE file_id IN ({changed_ids}) AND name != ''")]
    if not names or len(names) > _MAX_NEW_NAMES:
        return []
    found: list[str] = []
    for i in range(0, len(names), 250):
        chunk = names[i : i + 250]
        found += [key for (key,) in conn.execute(
            "SELECT DISTINCT key FROM refs WHERE target_id IS NULL AND key IS NOT NULL "
            f"AND name IN ({','.join('?' * len(chunk))}) AND file_id NOT IN ({changed_ids})",
            chunk)]
    return found


def _pointing_into(conn: sqlite3.Connection, files: Collection[int]) -> list[tuple[str, int]]:
    """Keys resolved into ``files`` (with the node each meant), whose nodes moved or
    vanished: each must be resolved again, for the references of every file that uses it —
    the changed files' own too (a branch switch changes a module and its importer at once:
    the importer's key must not keep the module's old node number, now another
    definition's)."""
    out: list[tuple[str, int]] = []
    for file_id in files:
        low, high = file_node(file_id), file_node(file_id + 1)
        out += conn.execute("SELECT key, target_id FROM symbols WHERE target_id >= ? "
                            "AND target_id < ?", (low, high)).fetchall()
    return out


def _executemany_chunks(conn: sqlite3.Connection, sql: str, values: list[str]) -> None:
    for i in range(0, len(values), 500):
        chunk = values[i : i + 500]
        conn.execute(sql.format(",".join("?" * len(chunk))), chunk)
