"""Typed queries on the map. Tools read through here and never write SQL of their own."""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from codenav.positions import utf16_len
from codenav.store.write import NODE_BITS

__all__ = ["FileStat", "ImportSite", "MapReader", "Node", "NodeFilter", "RefHit"]

_NODE_COLUMNS = ("n.id, n.nid, n.file_id, f.path, f.lang, n.parent_id, n.kind, n.name, n.qname, "
                 "n.line, n.col, n.end_line, n.end_col, n.name_line, n.name_col, n.name_end_col, "
                 "n.start_byte, n.end_byte, n.signature, n.doc, n.hub, n.type_key")
_NODE_FROM = "nodes n JOIN files f ON f.id = n.file_id"


class FileStat(NamedTuple):
    path: str
    lang: str
    size: int
    mtime_ns: int
    status: str
    parse_errors: int
    id: int = 0
    lines: int = 0


class Node(NamedTuple):
    """One definition of the map (a named tuple: answers build hundreds of them)."""

    id: int
    nid: str
    file_id: int
    path: str
    lang: str
    parent_id: int | None
    kind: str
    name: str
    qname: str
    line: int
    col: int
    end_line: int
    end_col: int
    name_line: int
    name_col: int
    name_end_col: int
    start_byte: int
    end_byte: int
    signature: str
    doc: str | None
    hub: float
    type_key: str | None

    @property
    def shown_name(self) -> str:
        """Its name as rows show it: with the ``~n`` its id gives a later definition of the
        same name (``find~2``; a private ``#name`` or a computed ``[a.b]`` kept whole)."""
        key = self.nid.split("#", 1)[1] if "#" in self.nid else ""
        return self.name + (key[len(self.qname):] if key.startswith(self.qname) else "")

    @property
    def static(self) -> bool:
        """Whether it is a member declared ``static`` (in the languages that write it
        first): a class's static and instance members of one name are two symbols."""
        return _STATIC.match(self.signature) is not None


# A declaration's modifiers up to `static` (`public static async find(…)`, Java's
# `private static final int X`, C#'s `internal static`).
_STATIC = re.compile(r"\s*(?:(?:public|private|protected|internal|readonly|abstract|override|"
                     r"async|final|export|declare|sealed|unsafe|extern|new)\s+)*static\s")


@dataclass(frozen=True, slots=True)
class NodeFilter:
    """Restrictions shared by searches: node kinds, language code, file path prefix."""

    kinds: tuple[str, ...] = ()
    lang: str | None = None
    prefix: str | None = None

    def sql(self) -> tuple[str, list[object]]:
        clauses: list[str] = ["n.parent_id IS NOT NULL"]
        args: list[object] = []
        if self.kinds:
            clauses.append(f"n.kind IN ({','.join('?' * len(self.kinds))})")
            args += list(self.kinds)
        if self.lang:
            clauses.append("f.lang = ?")
            args.append(self.lang)
        if self.prefix:
            clauses.append("f.path >= ? AND f.path < ?")
            args += [self.prefix, self.prefix + "\U0010ffff"]
        return " AND ".join(clauses), args

    def admits(self, node: Node) -> bool:
        """Whether ``node`` passes the filter (as ``sql`` would have it)."""
        return (node.parent_id is not None and (not self.kinds or node.kind in self.kinds)
                and (not self.lang or node.lang == self.lang)
                and (not self.prefix or node.path.startswith(self.prefix)))


# A reference the linker matched by name alone: its receiver's type is unknown (keys ``A:``,
# ``R:`` for a member read but not called,
# and ``V:`` guesses from a variable's name, alone or the alternative that resolved;
# index/binder.py, link.py).
_GUESSED = ("(r.key LIKE 'A:%' OR r.key LIKE 'R:%' OR r.key LIKE 'V:%' OR r.key IN "
            "(SELECT key FROM symbols WHERE guessed = 1))")


class RefHit(NamedTuple):
    """One resolved reference: where it is, what kind, and the node it sits in (a named
    tuple: a symbol can have thousands, made at C speed)."""

    path: str
    line: int
    col: int
    name: str
    kind: str
    scope_id: int
    target_id: int | None = None
    guessed: int = 0  # matched by name alone: a receiver of unknown type (keys A:, V:)


class NameUse(NamedTuple):
    """A use of a name (``name_uses``): a reference row with the key it was written as."""

    path: str
    line: int
    col: int
    name: str
    kind: str
    scope_id: int
    target_id: int | None
    guessed: int
    key: str | None
    qualifier: str | None  # the receiver as written: `self.list`, `set`


class ImportSite(NamedTuple):
    """An import (or an ``export … from``) of something: where, in what, and the key it was
    written as (``P:src/a::name``: the module it names, then the name)."""

    path: str
    line: int
    col: int
    scope_id: int
    key: str | None


class MapReader:
    """Read-only queries on one connection."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    # ------------------------------------------------------------ map-wide

    def version(self) -> int:
        """Changes whenever another connection commits to the map (``PRAGMA data_version``)."""
        return int(self.conn.execute("PRAGMA data_version").fetchone()[0])

    def meta(self) -> dict[str, str]:
        return dict(self.conn.execute("SELECT key, value FROM meta").fetchall())

    def counts(self) -> dict[str, int]:
        """Rows per table, as recorded at the end of the last build."""
        raw = self.meta().get("counts")
        return {str(k): int(v) for k, v in json.loads(raw).items()} if raw else {}

    def file_signatures(self) -> list[tuple[str, int, int]]:
        """(path, size, mtime_ns) of every mapped file, by path: what staleness compares."""
        return self.conn.execute(
            "SELECT path, size, mtime_ns FROM files ORDER BY path").fetchall()

    def file_tallies(self) -> tuple[dict[str, int], dict[str, int], int]:
        """Mapped files per language and per status, and how many have syntax errors."""
        by_lang = dict(self.conn.execute(
            "SELECT lang, count(*) FROM files GROUP BY lang ORDER BY lang").fetchall())
        by_status = dict(self.conn.execute(
            "SELECT status, count(*) FROM files GROUP BY status ORDER BY status").fetchall())
        (erring,) = self.conn.execute(
            "SELECT count(*) FROM files WHERE parse_errors > 0").fetchone()
        return by_lang, by_status, int(erring)

    def file(self, path: str) -> FileStat | None:
        row = self.conn.execute(
            "SELECT path, lang, size, mtime_ns, status, parse_errors, id, lines FROM files "
            "WHERE path = ?", (path,)).fetchone()
        return FileStat(*row) if row else None

    def file_stats(self, paths: Iterable[str]) -> dict[str, FileStat]:
        wanted = sorted(set(paths))
        out: dict[str, FileStat] = {}
        for i in range(0, len(wanted), 500):
            chunk = wanted[i : i + 500]
            marks = ",".join("?" * len(chunk))
            for row in self.conn.execute(
                    "SELECT path, lang, size, mtime_ns, status, parse_errors, id, lines "
                    f"FROM files WHERE path IN ({marks})", chunk):
                out[row[0]] = FileStat(*row)
        return out

    # --------------------------------------------------------------- nodes

    def _nodes(self, where: str, args: Sequence[object] = (), tail: str = "") -> list[Node]:
        sql = f"SELECT {_NODE_COLUMNS} FROM {_NODE_FROM} WHERE {where} {tail}"
        return list(map(Node._make, self.conn.execute(sql, args)))

    def node(self, nid: str) -> Node | None:
        found = self._nodes("n.nid = ?", (nid,))
        return found[0] if found else None

    def node_by_id(self, node_id: int) -> Node | None:
        found = self._nodes("n.id = ?", (node_id,))
        return found[0] if found else None

    def nodes_by_id(self, ids: Iterable[int]) -> dict[int, Node]:
        wanted = sorted(set(ids))
        out: dict[int, Node] = {}
        for i in range(0, len(wanted), 500):
            chunk = wanted[i : i + 500]
            for node in self._nodes(f"n.id IN ({','.join('?' * len(chunk))})", chunk):
                out[node.id] = node
        return out

    def file_nodes(self, file_id: int) -> list[Node]:
        """The nodes of one file in source order (the file's own node first)."""
        return self._nodes("n.file_id = ?", (file_id,), "ORDER BY n.id")

    def children(self, node_id: int) -> list[Node]:
        return self._nodes("n.parent_id = ?", (node_id,), "ORDER BY n.id")

    def nodes_named(self, name: str, limit: int = 200) -> list[Node]:
        return self._nodes("n.name = ?", (name,),
                           f"ORDER BY n.hub DESC, n.id LIMIT {int(limit)}")

    def exported_as(self, name: str, limit: int = 50) -> list[Node]:
        """The nodes other files import under ``name`` though it is not their own
        (``export { Hono as HonoBase }``): the linker resolved ``…::name`` to them."""
        pattern = "*::" + "".join(f"[{c}]" if c in "*?[" else c for c in name)
        ids = [target for (target,) in self.conn.execute(
            "SELECT DISTINCT target_id FROM symbols WHERE key GLOB ? LIMIT ?", (pattern, limit))]
        return [node for node in self.nodes_by_id(ids).values() if node.name != name]

    def family(self, node: Node) -> list[Node]:
        """The node and its namesakes in the same scope (``f``, ``f~2``: one symbol declared
        several times, like a property and its setter), in source order."""
        return self._nodes("n.file_id = ? AND n.qname = ?", (node.file_id, node.qname),
                           "ORDER BY n.id")

    def assigned_from(self, targets: Sequence[int], scope: int | None = None) -> list[Node]:
        """The variables, constants and fields declared on a line that names one of
        ``targets``, at module level or in ``scope`` (``length = Length``, ``export const Rect
        = _Rect``, a class's ``replaceWith = replace_with``, ``get = _c.get``): the candidates
        for another name of the same thing."""
        return self._nodes(
            "n.id IN (SELECT v.id FROM refs r JOIN nodes v ON v.file_id = r.file_id AND "
            "v.name_line = r.line JOIN nodes p ON p.id = v.parent_id WHERE r.target_id IN "
            "(SELECT value FROM json_each(?)) AND r.kind IN ('name', 'attribute') AND v.kind IN "
            "('variable', 'constant', 'field', 'attribute') AND (p.qname = '' OR p.id = ?))",
            (json.dumps(list(targets)), scope), "ORDER BY n.id")

    def rebound(self, node: Node) -> bool:
        """Whether ``node``'s name is written again where it is declared, at its column on a
        later line (``default = Length`` then ``default = str``: a reassignment)."""
        return self.conn.execute(
            "SELECT 1 FROM refs WHERE file_id = ? AND target_id = ? AND kind = 'name' AND "
            "col = ? AND line != ? LIMIT 1",
            (node.file_id, node.id, node.name_col, node.name_line)).fetchone() is not None

    def compiled_out(self, nodes: Sequence[Node]) -> set[int]:
        """The ids of those of ``nodes`` declared in lines the preprocessor compiles out
        (``regions`` decided inactive)."""
        return {node.id for node in nodes if self.conn.execute(
            "SELECT 1 FROM regions WHERE file_id = ? AND active = 0 AND ? BETWEEN line AND "
            "end_line", (node.file_id, node.name_line)).fetchone()}

    def related_members(self, node: Node, limit: int = 200) -> list[Node]:
        """Members named like ``node`` in the types its type derives from, and in every type
        deriving from those or from it, transitively: what it overrides or implements, what
        overrides or implements it, and its siblings overriding the same member (one family,
        as TypeScript's references see it)."""
        if node.parent_id is None:
            return []
        down = ("SELECT scope_id FROM refs WHERE target_id = ? AND kind = 'inheritance'")
        ancestors = self._lineage(node.parent_id, "SELECT target_id FROM refs WHERE "
                                  "scope_id = ? AND kind = 'inheritance' "
                                  "AND target_id IS NOT NULL")
        lineage = set(ancestors)
        for top in {node.parent_id, *self._with_member(ancestors, node.name)}:
            lineage |= self._lineage(top, down)
        lineage.discard(node.parent_id)
        if not lineage:
            return []
        ids = ",".join(str(i) for i in sorted(lineage))
        return self._nodes(f"n.parent_id IN ({ids}) AND n.name = ?", (node.name,),
                           f"ORDER BY n.id LIMIT {int(limit)}")

    def overridden(self, node: Node) -> list[tuple[Node, int]]:
        """The members ``node`` overrides: those named like it in the types its type
        derives from, transitively, each with how many references reach it."""
        if node.parent_id is None:
            return []
        ancestors = self._lineage(node.parent_id, "SELECT target_id FROM refs WHERE "
                                  "scope_id = ? AND kind = 'inheritance' "
                                  "AND target_id IS NOT NULL")
        if not ancestors:
            return []
        ids = ",".join(str(i) for i in sorted(ancestors))
        found = self._nodes(f"n.parent_id IN ({ids}) AND n.name = ?", (node.name,),
                            "ORDER BY n.id LIMIT 20")
        return [(other, int(self.conn.execute(
            "SELECT count(*) FROM refs WHERE target_id = ?", (other.id,)).fetchone()[0]))
            for other in found]

    def _with_member(self, types: set[int], name: str) -> set[int]:
        """Those of ``types`` that declare a member called ``name``."""
        if not types:
            return set()
        ids = ",".join(str(i) for i in sorted(types))
        return {row[0] for row in self.conn.execute(
            f"SELECT DISTINCT parent_id FROM nodes WHERE parent_id IN ({ids}) AND name = ?",
            (name,))}

    def _lineage(self, start: int, step: str, limit: int = 500) -> set[int]:
        found: set[int] = set()
        todo = [start]
        while todo and len(found) < limit:
            current = todo.pop()
            for (other,) in self.conn.execute(step, (current,)):
                if other is not None and other != start and other not in found:
                    found.add(int(other))
                    todo.append(int(other))
        return found

    def top_level_named(self, name: str, limit: int = 50) -> list[Node]:
        """Nodes called ``name`` defined at the top level of their file."""
        return self._nodes(f"n.name = ? AND n.parent_id = (n.file_id << {NODE_BITS})", (name,),
                           f"ORDER BY f.path LIMIT {int(limit)}")

    def def_at(self, file_id: int, line: int, col: int) -> Node | None:
        """The node whose name covers (line, col) in file ``file_id``."""
        found = self._nodes("n.file_id = ? AND n.name_line = ? AND n.name_col <= ? "
                            "AND n.name_end_col > ? AND n.parent_id IS NOT NULL",
                            (file_id, line, col, col))
        return found[0] if found else None

    def enclosing(self, file_id: int, line: int) -> Node | None:
        """The innermost node whose span covers ``line``."""
        found = self._nodes("n.file_id = ? AND n.line <= ? AND n.end_line >= ? "
                            "AND n.parent_id IS NOT NULL", (file_id, line, line),
                            "ORDER BY (n.end_line - n.line) ASC, n.id DESC LIMIT 1")
        return found[0] if found else None

    def _filtered(self, where: str, args: list[object], flt: NodeFilter,
                  limit: int) -> list[Node]:
        extra, extra_args = flt.sql()
        return self._nodes(f"{where} AND {extra}", [*args, *extra_args],
                           f"ORDER BY n.hub DESC, n.id LIMIT {int(limit)}")

    def named(self, name: str, flt: NodeFilter, limit: int) -> list[Node]:
        """Nodes named exactly ``name``, best hub first."""
        return self._filtered("n.name = ?", [name], flt, limit)

    def named_nocase(self, lowered: str, flt: NodeFilter, limit: int) -> list[Node]:
        return self._filtered("lower(n.name) = ?", [lowered], flt, limit)

    def name_prefix(self, lowered: str, flt: NodeFilter, limit: int) -> list[Node]:
        return self._filtered("lower(n.name) >= ? AND lower(n.name) < ?",
                              [lowered, lowered + "\U0010ffff"], flt, limit)

    def among(self, ids: Sequence[int], flt: NodeFilter, limit: int) -> list[Node]:
        """The nodes with these ids that pass ``flt``, best hub first."""
        if not ids:
            return []
        return self._filtered("n.id IN (SELECT value FROM json_each(?))", [json.dumps(ids)],
                              flt, limit)

    def with_words(self, prefixes: Sequence[str], flt: NodeFilter, limit: int) -> list[Node]:
        """Nodes having, for every prefix, a name word that starts with it."""
        if not prefixes:
            return []
        unique = sorted(set(prefixes), key=len, reverse=True)  # longer: rarer
        having = " INTERSECT ".join(["SELECT node_id FROM words WHERE word >= ? AND word < ?"]
                                    * len(unique))
        bounds: list[object] = [bound for prefix in unique
                                for bound in (prefix, prefix + "\U0010ffff")]
        return self._filtered(f"n.id IN ({having})", bounds, flt, limit)

    def top_hubs(self, flt: NodeFilter, limit: int, under: int | None = None) -> list[Node]:
        """The most central nodes; with ``under``, only that node's descendants."""
        if under is None:
            return self._filtered("n.kind != 'module'", [], flt, limit)
        ids = self.descendants(under)
        return sorted(self.nodes_by_id(ids).values(), key=lambda n: -n.hub)[:limit]

    # ------------------------------------------------- structural interfaces (Go)

    def method_names(self, node: Node) -> set[str]:
        """The methods of a type: its member methods, and the methods named ``Type.m`` in
        files of its folder (Go declares them outside the type, in any file of the package)."""
        folder = node.path.rsplit("/", 1)[0] + "/" if "/" in node.path else ""
        rows = self.conn.execute(
            "SELECT n.name, f.path FROM nodes n JOIN files f ON f.id = n.file_id "
            "WHERE n.kind = 'method' AND f.lang = ? AND (n.parent_id = ? OR n.qname = ? || "
            "'.' || n.name)", (node.lang, node.id, node.qname))
        return {name for name, path in rows
                if (path.rsplit("/", 1)[0] + "/" if "/" in path else "") == folder}

    def implementers(self, lang: str, names: set[str], limit: int = 200) -> list[Node]:
        """Types of ``lang`` having every method in ``names`` (by receiver and folder)."""
        if not names:
            return []
        have: dict[tuple[str, str], set[str]] = {}
        for qname, name, path in self.conn.execute(
                "SELECT n.qname, n.name, f.path FROM nodes n JOIN files f ON f.id = n.file_id "
                "WHERE n.kind = 'method' AND f.lang = ? AND n.name IN "
                "(SELECT value FROM json_each(?))", (lang, json.dumps(sorted(names)))):
            receiver = qname[: -len(name) - 1] if qname.endswith("." + name) else ""
            if receiver:
                folder = path.rsplit("/", 1)[0] if "/" in path else ""
                have.setdefault((folder, receiver), set()).add(name)
        found: list[Node] = []
        for (folder, receiver), methods in sorted(have.items()):
            if methods >= names and len(found) < limit:
                prefix = f"{folder}/" if folder else ""
                found += [n for n in self._nodes(
                    "n.qname = ? AND f.lang = ? AND n.kind != 'method' AND f.path >= ? "
                    "AND f.path < ?", (receiver, lang, prefix, prefix + "\U0010ffff"))
                    if n.path.rsplit("/", 1)[0] == folder or (not folder and "/" not in n.path)]
        return found[:limit]

    def interfaces_of(self, lang: str, methods: set[str], limit: int = 200) -> list[Node]:
        """Interfaces of ``lang`` with at least one method, all of them in ``methods``."""
        wanted: dict[int, set[str]] = {}
        for parent, name in self.conn.execute(
                "SELECT p.id, n.name FROM nodes n JOIN nodes p ON p.id = n.parent_id "
                "JOIN files f ON f.id = p.file_id WHERE p.kind = 'interface' "
                "AND n.kind = 'method' AND f.lang = ?", (lang,)):
            wanted.setdefault(parent, set()).add(name)
        ids = [i for i, names in wanted.items() if names <= methods][:limit]
        return list(self.nodes_by_id(ids).values())

    def descendants(self, node_id: int, limit: int = 5000) -> list[int]:
        rows = self.conn.execute(
            "WITH RECURSIVE d(id) AS (SELECT id FROM nodes WHERE parent_id = ? UNION ALL "
            f"SELECT n.id FROM nodes n JOIN d ON n.parent_id = d.id LIMIT {int(limit)}) "
            "SELECT id FROM d", (node_id,))
        return [row[0] for row in rows]

    # ---------------------------------------------------------- references

    def ref_at(self, file_id: int, line: int, col: int) -> tuple[str, str, int, int | None,
                                                                   str | None] | None:
        """(name, kind, col, target_id, key) of the identifier covering (line, col)."""
        for name, kind, start, target, key in self.conn.execute(
                "SELECT name, kind, col, target_id, key FROM refs WHERE file_id = ? AND line = ? "
                "AND col <= ? ORDER BY col DESC", (file_id, line, col)):
            if col < start + utf16_len(name):
                return name, kind, start, target, key
            return None
        return None

    def defines_at(self, file_id: int, line: int, col: int) -> bool:
        """Whether a definition's name covers (line, col) (an overload's or a setter's
        `def`, which a server may report among a symbol's references)."""
        return any(start <= col < start + utf16_len(name) for name, start in self.conn.execute(
            "SELECT name, name_col FROM nodes WHERE file_id = ? AND name_line = ?",
            (file_id, line)))

    def linked(self, key: str) -> Node | None:
        """The node the linker resolved key ``key`` to, None when it did not."""
        row = self.conn.execute("SELECT target_id FROM symbols WHERE key = ?", (key,)).fetchone()
        return self.node_by_id(int(row[0])) if row is not None else None

    def name_lines(self, name: str, paths: Sequence[str]
                   ) -> list[tuple[str, int, str, int | None]]:
        """(path, line, kind, target) of every reference named ``name`` in ``paths`` —
        declarations, imports and exports too; a use matched by name alone has no target."""
        return [(str(path), int(line), str(kind), None if guessed else target)
                for path, line, kind, target, guessed in self.conn.execute(
                    f"SELECT f.path, r.line, r.kind, r.target_id, {_GUESSED} FROM refs r "
                    "JOIN files f ON f.id = r.file_id WHERE r.name = ? AND f.path IN "
                    "(SELECT value FROM json_each(?))", (name, json.dumps(list(paths))))]

    def module_known(self, module: str) -> bool:
        """Whether module ``module`` (as an ``I:`` key writes it: ``asyncio``, ``aiosmtpd.smtp``,
        ``events``, ``@scope/pkg``) may be one of the map's: a use through it was linked, or a
        file or folder of the map is named like its first part."""
        head = f"I:{module}"
        for table in ("symbols", "refs"):
            if self.conn.execute(
                    f"SELECT 1 FROM {table} WHERE (key = ? OR (key >= ? AND key < ?)) "
                    "AND target_id IS NOT NULL LIMIT 1",
                    (head, head + "::", head + ":;")).fetchone():
                return True
        first = re.split(r"[./:]", module.lstrip("@"), maxsplit=1)[0]
        if not first:
            return True
        return any(first in re.split(r"[/.]", path) for (path,) in
                   self.conn.execute("SELECT path FROM files WHERE instr(path, ?) > 0",
                                     (first,)))

    def names_bound(self, targets: Sequence[int], name: str) -> list[tuple[str, str]]:
        """(path, name) of the imports and re-exports binding one of ``targets`` under a name
        other than ``name`` (``import Debug from "./debug"`` of ``genDebugFunction``; not
        ``default``, the slot ``export { default as X }`` names)."""
        return [(str(path), str(bound)) for path, bound in self.conn.execute(
            "SELECT DISTINCT f.path, r.name FROM refs r JOIN files f ON f.id = r.file_id "
            "WHERE r.target_id IN (SELECT value FROM json_each(?)) "
            "AND r.kind IN ('import', 'export') AND r.name != ? AND r.name != 'default' "
            "ORDER BY f.path, r.name",
            (json.dumps(list(targets)), name))]

    def derived_from(self, name: str) -> bool:
        """Whether a class of the map names ``name`` among its bases without the map holding
        it (``class Ours(asyncio.BaseTransport)``)."""
        return self.conn.execute(
            "SELECT 1 FROM refs WHERE name = ? AND target_id IS NULL AND key IS NOT NULL "
            "AND kind = 'inheritance' LIMIT 1", (name,)).fetchone() is not None

    def bases(self, node_id: int) -> list[tuple[str, int | None]]:
        """A class's bases as (name, node id), the id None where the map could not link the
        base (defined outside it)."""
        return [(str(name), target) for name, target in self.conn.execute(
            "SELECT name, target_id FROM refs WHERE scope_id = ? AND kind = 'inheritance' "
            "ORDER BY line, col", (node_id,))]

    def node_for_key(self, key: str) -> Node | None:
        """The node a linker key names (``I:pkg.mod::Class.method`` …): as the linker
        resolved it, else as a use elsewhere with that key resolved."""
        row = self.conn.execute("SELECT target_id FROM symbols WHERE key = ?", (key,)).fetchone()
        if row is None:
            row = self.conn.execute("SELECT target_id FROM refs WHERE key = ? AND target_id IS "
                                    "NOT NULL LIMIT 1", (key,)).fetchone()
        return self.node_by_id(int(row[0])) if row is not None else None

    def first_def_on_line(self, file_id: int, line: int) -> int | None:
        """The column of the first definition's name on a line."""
        row = self.conn.execute(
            "SELECT min(name_col) FROM nodes WHERE file_id = ? AND name_line = ? "
            "AND parent_id IS NOT NULL", (file_id, line)).fetchone()
        return int(row[0]) if row and row[0] is not None else None

    def first_resolved_ref(self, file_id: int, line: int) -> int | None:
        """The column of the first identifier on a line that resolves to a node."""
        row = self.conn.execute(
            "SELECT min(col) FROM refs WHERE file_id = ? AND line = ? AND target_id IS NOT NULL",
            (file_id, line)).fetchone()
        return int(row[0]) if row and row[0] is not None else None

    def parent(self, node: Node) -> Node | None:
        """The node that holds ``node`` (None for a file's module node)."""
        return self.node_by_id(node.parent_id) if node.parent_id is not None else None

    def import_sites(self, targets: Sequence[int]) -> list[ImportSite]:
        """The imports and re-exports (``export { x } from``) that name ``targets``."""
        rows = self.conn.execute(
            "SELECT f.path, r.line, r.col, r.scope_id, r.key FROM refs r "
            "JOIN files f ON f.id = r.file_id WHERE r.kind IN ('import', 'export') "
            "AND r.target_id IN (SELECT value FROM json_each(?)) ORDER BY f.path, r.line",
            (json.dumps(list(targets)),))
        return list(map(ImportSite._make, rows))

    def imports_written(self, stem: str) -> list[tuple[str, int, int, int, str, str | None]]:
        """(path, line, col, scope id, module as written, key) of every import whose module as
        written holds ``stem`` (``./storage.js``), or whose imported name is ``stem`` (``from .
        import stem``)."""
        rows = self.conn.execute(
            "SELECT f.path, i.line, i.col, CASE WHEN i.scope_id >= 0 THEN i.scope_id "
            f"ELSE f.id << {NODE_BITS} END, i.module, i.key FROM imports i "
            "JOIN files f ON f.id = i.file_id WHERE i.module LIKE ? OR i.name = ? "
            "ORDER BY f.path, i.line, i.col", (f"%{stem}%", stem))
        return [(str(p), int(line), int(col), int(scope), str(m), k)
                for p, line, col, scope, m, k in rows]

    def name_uses(self, name: str, exclude: Sequence[int], kind: str | None = None,
                  langs: Sequence[str] = (), limit: int = 10_000) -> list[NameUse]:
        """The uses of the name ``name`` in code that do not reach ``exclude`` (unresolved:
        ``target_id`` None; ``guessed``: matched by name alone), by file and position — of
        ``kind`` only when given (``call``, ``inheritance``), in files of ``langs`` only when
        given; not imports, exports or declarations (a name's other spellings)."""
        rows = self.conn.execute(
            f"SELECT f.path, r.line, r.col, r.name, r.kind, r.scope_id, r.target_id, {_GUESSED}, "
            "r.key, r.qualifier FROM refs r JOIN files f ON f.id = r.file_id WHERE r.name = ? "
            "AND r.kind NOT IN ('declaration', 'import', 'export') "
            + ("AND r.kind = ? " if kind else "")
            + (f"AND f.lang IN ({','.join('?' * len(langs))}) " if langs else "")
            + "AND (r.target_id IS NULL OR r.target_id NOT IN "
            "(SELECT value FROM json_each(?))) ORDER BY f.path, r.line, r.col LIMIT ?",
            (name, *([kind] if kind else []), *langs, json.dumps(list(exclude)), limit))
        return list(map(NameUse._make, rows))

    def imports_keyed(self, patterns: Sequence[str]) -> list[ImportSite]:
        """Every import (a name, a wildcard, a re-export) whose key is LIKE one of
        ``patterns`` (keys say the module an import resolved to: ``P:src/types::H3Event``)."""
        if not patterns:
            return []
        where = " OR ".join("i.key LIKE ?" for _ in patterns)
        rows = self.conn.execute(
            "SELECT f.path, i.line, i.col, CASE WHEN i.scope_id >= 0 THEN i.scope_id "
            f"ELSE f.id << {NODE_BITS} END, i.key FROM imports i "
            f"JOIN files f ON f.id = i.file_id WHERE {where} ORDER BY f.path, i.line",
            list(patterns))
        return list(map(ImportSite._make, rows))

    def imports_through(self, module_id: int) -> list[ImportSite]:
        """The imports whose module, written as a path through an alias or into a package
        (``I:ts-graphviz/ast``), the linker resolved to module ``module_id``."""
        rows = self.conn.execute(
            "SELECT f.path, i.line, i.col, CASE WHEN i.scope_id >= 0 THEN i.scope_id "
            f"ELSE f.id << {NODE_BITS} END, i.key FROM symbols s JOIN imports i ON "
            "i.key = s.key OR (i.key >= s.key || '::' AND i.key < s.key || ':;') "
            "JOIN files f ON f.id = i.file_id WHERE s.target_id = ? AND s.key LIKE 'I:%/%' "
            "AND instr(s.key, '::') = 0 ORDER BY f.path, i.line", (module_id,))
        return list(map(ImportSite._make, rows))

    def wildcard_imports(self) -> list[ImportSite]:
        """Every ``from m import *`` / ``export * from 'm'`` (in the file's own node when at
        its top level)."""
        rows = self.conn.execute(
            "SELECT f.path, i.line, i.col, CASE WHEN i.scope_id >= 0 THEN i.scope_id "
            f"ELSE f.id << {NODE_BITS} END, i.key FROM imports i "
            "JOIN files f ON f.id = i.file_id WHERE i.wildcard = 1 ORDER BY f.path, i.line")
        return list(map(ImportSite._make, rows))

    def refs_to(self, node_id: int) -> list[RefHit]:
        """The resolved references to one node."""
        return self.uses_in([node_id], None)

    def passed_through(self, node_id: int) -> set[tuple[str, int]]:
        """(path, line) of the import statements that name the package ``node_id`` only on
        the way to a module inside it (``from icalendar.timezone.pytz import PYTZ`` names
        ``icalendar.timezone``, and imports ``icalendar.timezone.pytz``; a plain ``import
        pkg.sub`` binds ``pkg``: it imports the package too)."""
        rows = self.conn.execute(
            "SELECT f.path, r.line FROM refs r JOIN files f ON f.id = r.file_id "
            "WHERE r.target_id = ? AND r.kind = 'import' AND r.key LIKE 'I:%' AND EXISTS ("
            "SELECT 1 FROM refs o WHERE o.file_id = r.file_id AND o.line = r.line "
            "AND o.kind = 'import' AND substr(o.key, 1, length(r.key) + 1) = r.key || '.' "
            "AND instr(o.key, '::') > 0)",
            (node_id,))
        return {(str(path), int(line)) for path, line in rows}

    @staticmethod
    def _uses(targets: Sequence[int], calls_of: int | None, columns: str,
              paths: Sequence[str] | None = None, declarations: bool = True,
              compiled_out: bool = True, expanding: Sequence[str] = ()
              ) -> tuple[str, list[object]]:
        """SELECT ``columns`` of the references to ``targets`` and the calls of ``calls_of``
        (a constructor's class), in ``paths`` only when given; with its arguments.
        ``declarations``: with the references that are declarations (C prototypes) and
        Python's ``__all__`` entries;
        ``compiled_out``: with those in lines the preprocessor compiles out (``regions``);
        ``expanding``: the languages whose macros' uses are uses of what their bodies name
        (without ``compiled_out`` only)."""
        inside, inside_args = "", []
        if not declarations:  # (nor Python's `__all__` strings: names listed, not used)
            inside = (" AND r.kind != 'declaration' AND NOT (r.kind = 'export' AND r.file_id "
                      "IN (SELECT id FROM files WHERE lang = 'py'))")
        if not compiled_out:
            inside += (" AND NOT EXISTS (SELECT 1 FROM regions g WHERE g.file_id = r.file_id "
                       "AND g.active = 0 AND r.line BETWEEN g.line AND g.end_line)")
        if paths is not None:  # a seek per (target, file) in refs_target, not a scan
            inside += (" AND r.file_id IN (SELECT id FROM files "
                      "WHERE path IN (SELECT value FROM json_each(?)))")
            inside_args = [json.dumps(list(paths))]
        uses = (f"SELECT {columns} FROM refs r WHERE r.target_id IN "
                f"(SELECT value FROM json_each(?)){inside}")
        args: list[object] = [json.dumps(list(targets)), *inside_args]
        if not compiled_out and expanding:
            # A use of a macro whose body names a target (through other macros, too) is a
            # use of the target where the macro is used outside a macro (as a compiler's
            # references are: at the expansion)
            # — in the languages whose macros are text the preprocessor pastes (C, C++:
            # their bodies are parsed again); a Rust macro's body names what it names once,
            # as rust-analyzer's references say.
            pasted = "(SELECT id FROM files WHERE lang IN (SELECT value FROM json_each(?)))"
            uses += (f" UNION ALL SELECT {columns} FROM refs r WHERE r.target_id IN ("
                     "WITH RECURSIVE m(id) AS (SELECT DISTINCT b.scope_id FROM refs b JOIN nodes "
                     "bn ON bn.id = b.scope_id WHERE b.target_id IN (SELECT value FROM "
                     f"json_each(?)) AND bn.kind = 'macro' AND bn.file_id IN {pasted} "
                     "UNION SELECT b.scope_id FROM refs b "
                     "JOIN m ON b.target_id = m.id JOIN nodes bn ON bn.id = b.scope_id WHERE "
                     f"bn.kind = 'macro' AND bn.file_id IN {pasted}) SELECT id FROM m) "
                     "AND NOT EXISTS (SELECT 1 FROM nodes s "
                     f"WHERE s.id = r.scope_id AND s.kind = 'macro'){inside}")
            pasting = json.dumps(list(expanding))
            args += [json.dumps(list(targets)), pasting, pasting, *inside_args]
        if calls_of is not None:
            uses += (f" UNION ALL SELECT {columns} FROM refs r "
                     f"WHERE r.target_id = ? AND r.kind = 'call'{inside}")
            args += [calls_of, *inside_args]
        return uses, args

    def uses_per_file(self, targets: Sequence[int], calls_of: int | None = None,
                      declarations: bool = True, compiled_out: bool = True,
                      expanding: Sequence[str] = ()) -> dict[str, int]:
        """Path -> how many distinct lines refer to any of ``targets`` (or call
        ``calls_of``): counted in SQL, so a symbol used thousands of times costs no more
        than the files it is used in."""
        uses, args = self._uses(targets, calls_of, "r.file_id, r.line, r.col",
                                declarations=declarations, compiled_out=compiled_out,
                                expanding=expanding)
        return dict(self.conn.execute(
            f"SELECT f.path, count(DISTINCT u.line) FROM ({uses}) u "
            "JOIN files f ON f.id = u.file_id GROUP BY u.file_id", args).fetchall())

    def uses_in(self, targets: Sequence[int], calls_of: int | None,
                paths: Sequence[str] | None = None, declarations: bool = True,
                compiled_out: bool = True, expanding: Sequence[str] = ()) -> list[RefHit]:
        """The references ``uses_per_file`` counts, in ``paths`` only when given."""
        uses, args = self._uses(targets, calls_of, "r.file_id, r.line, r.col, r.name, "
                                                   "r.kind, r.scope_id, r.target_id, "
                                                   f"{_GUESSED} AS guessed", paths,
                                declarations, compiled_out, expanding)
        rows = self.conn.execute(
            f"SELECT f.path, u.line, u.col, u.name, u.kind, u.scope_id, u.target_id, "
            f"u.guessed FROM ({uses}) u JOIN files f ON f.id = u.file_id", args)
        return list(map(RefHit._make, rows))

    def guessed_positions(self, targets: Sequence[int]) -> set[tuple[str, int, int]]:
        """(path, line, column) of the references to ``targets`` matched by name alone."""
        rows = self.conn.execute(
            "SELECT f.path, r.line, r.col FROM refs r JOIN files f ON f.id = r.file_id "
            f"WHERE r.target_id IN (SELECT value FROM json_each(?)) AND {_GUESSED}",
            (json.dumps(list(targets)),))
        return set(rows)

    def guessed_from(self, node_id: int) -> int:
        """How many of the references made inside a node were matched by name alone."""
        (count,) = self.conn.execute(
            "SELECT count(*) FROM refs r WHERE scope_id = ? AND target_id IS NOT NULL "
            f"AND {_GUESSED}", (node_id,)).fetchone()
        return int(count)

    def refs_from(self, node_id: int) -> list[RefHit]:
        rows = self.conn.execute(
            "SELECT f.path, r.line, r.col, r.name, r.kind, r.scope_id, r.target_id, "
            f"{_GUESSED} FROM refs r JOIN files f ON f.id = r.file_id "
            "WHERE r.scope_id = ? AND r.target_id IS NOT NULL", (node_id,))
        return list(map(RefHit._make, rows))

    def call_sites(self, node_id: int, incoming: bool) -> dict[int, list[RefHit]]:
        """The calls of a node grouped by the other end: its callers (the node each call
        sits in) when ``incoming``, else its callees; each with the call sites."""
        out: dict[int, list[RefHit]] = {}
        hits = self.refs_to(node_id) if incoming else self.refs_from(node_id)
        for hit in hits:
            other = hit.scope_id if incoming else hit.target_id
            if hit.kind == "call" and other is not None:
                out.setdefault(other, []).append(hit)
        return out

    def degree(self, node_id: int) -> tuple[int, int]:
        """(references to the node, resolved references made from inside it)."""
        incoming = self.conn.execute("SELECT count(*) FROM refs WHERE target_id = ?",
                                     (node_id,)).fetchone()[0]
        outgoing = self.conn.execute(
            "SELECT count(*) FROM refs WHERE scope_id = ? AND target_id IS NOT NULL",
            (node_id,)).fetchone()[0]
        return int(incoming), int(outgoing)

    def problems(self, file_id: int) -> list[tuple[int, int, int, int, str]]:
        return [tuple(row) for row in self.conn.execute(
            "SELECT line, col, end_line, end_col, message FROM problems WHERE file_id = ? "
            "ORDER BY line, col", (file_id,))]

    def files_under(self, prefix: str) -> list[tuple[str, str, str, int, float]]:
        """(path, language, status, node count, hub sum) of the files whose path starts with
        ``prefix`` ('' for all), by path; map_overview folds them into folders."""
        if not prefix:
            return self.conn.execute("SELECT path, lang, status, node_count, hub_mass "
                                     "FROM files ORDER BY path").fetchall()
        return self.conn.execute(
            "SELECT path, lang, status, node_count, hub_mass FROM files "
            "WHERE path >= ? AND path < ? ORDER BY path",
            (prefix, prefix + "\U0010ffff")).fetchall()

    def languages(self) -> dict[str, int]:
        return dict(self.conn.execute(
            "SELECT lang, count(*) FROM files WHERE status = 'ok' GROUP BY lang ORDER BY 2 DESC"))

    def files_by_mass(self, lang: str) -> list[str]:
        """The files of language ``lang`` that mapped, by hub mass (the most central first)."""
        return [str(path) for (path,) in self.conn.execute(
            "SELECT path FROM files WHERE lang = ? AND status = 'ok' "
            "ORDER BY hub_mass DESC, path", (lang,))]

    def central_file(self, lang: str) -> str | None:
        """The file of language ``lang`` that matters most (largest hub mass)."""
        row = self.conn.execute(
            "SELECT path FROM files WHERE lang = ? AND status = 'ok' "
            "ORDER BY hub_mass DESC, path LIMIT 1", (lang,)).fetchone()
        return str(row[0]) if row else None

