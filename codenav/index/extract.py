"""Extraction: one file's bytes in, its definitions, references and imports out.

The tags query of the file's language (``grammars/<lang>/tags.scm``) says what is what; the
rules here are the same for every language (grammars/README.md lists them). Each reference
leaves resolved as far as the file alone can tell (``index/binder.py``). Broken source is not
an error: tree-sitter recovers (helped by ``index/recover.py``) and the problems are reported
beside the facts.
"""

from __future__ import annotations

import hashlib
import re
import time
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any

from tree_sitter import QueryCursor

from codenav.index.binder import LOCAL, TAG, Binder, extend_key, is_static
from codenav.index.languages import Language, Queries, queries
from codenav.index.modules import ModuleSystem, module_system
from codenav.index.overloads import Call, best
from codenav.index.recover import problems, recover
from codenav.model import CALLABLE_KINDS, Definition, Import, Problem, RefRow, node_id
from codenav.positions import LineIndex, lone_cr_as_lf, utf16_len

__all__ = ["PARSE_DEADLINE_S", "Extraction", "ParseTimeout", "extract", "identifier_at",
           "is_identifier", "parse_tree"]

# Bounds per file (notes/RELIABILITY-AND-PERF.md P1). A file's whole extraction — every parse
# (error recovery included), queries, binding and reference collection — shares one budget;
# pseudo-random bytes parse at ~1.5 s/MB, real code at ~10 MB/s. Past the budget the file is
# mapped as ``timeout`` with what was collected by then (its definitions, some references).
# The budget bounds, too, what tree-sitter makes quadratic in nesting depth: ``Node.parent``
# walks down from the root, so asking a member reference's parent costs its depth (``a.b.b…``
# 50k deep, 100 KB: minutes without the budget).
PARSE_DEADLINE_S = 2.0
_CHECK_EVERY = 256  # references collected between looks at the clock
# tree-sitter queries cannot be interrupted (QueryCursor's progress_callback crashes the
# 0.26.1 bindings) and run in quadratic time over an ERROR node whose children are thousands
# of unclosed openers (`[[[[…`: 40k took 3 s, 2 MB would take hours). No source file a
# reader navigates has such a node once recovery has run.
_MAX_ERROR_FANOUT = 10_000
# Queries run in time quadratic in nesting depth (a pattern begun at every level of
# ``a.b.b.b…`` stays in progress until its last capture: 50k levels took 17 s, in C, beyond
# any budget's reach). They start no match deeper than this, which no code a reader navigates
# comes near; a file nested deeper is mapped as ``timeout`` without what lies below.
MAX_QUERY_DEPTH = 1024
_READ_CHUNK = 1 << 16
# The slowest parse seen per byte is ~27 µs (random bytes as TypeScript; real code ~0.1 µs):
# a source whose length times this (with a margin) fits the time left cannot outrun the
# budget: up to ~50 KB with the default 2 s.
_WORST_PARSE_S_PER_BYTE = 40e-6


class ParseTimeout(Exception):
    """The file could not be parsed within the per-file bounds (it is mapped as ``timeout``)."""


class _Deadlined:
    """A parser whose every ``parse`` must finish by one deadline. tree-sitter honours its
    progress callback only when the source comes from a read callback, not from bytes; a
    source too short to outrun the time left, even parsed at the worst rate seen, is parsed
    from its bytes directly (py-tree-sitter 0.26 keeps a reference to every chunk a read
    callback returns: the callback costs memory as well as time)."""

    def __init__(self, parser: Any, seconds: float) -> None:
        self.parser = parser
        self.seconds = seconds
        self.deadline = time.monotonic() + seconds

    def parse(self, data: bytes) -> Any:
        if len(data) * _WORST_PARSE_S_PER_BYTE < self.deadline - time.monotonic():
            return self.parser.parse(data)

        def read(offset: int, _point: Any) -> bytes:
            return data[offset:offset + _READ_CHUNK]

        def late(*_: Any) -> bool:
            return time.monotonic() > self.deadline

        try:
            tree = self.parser.parse(read, progress_callback=late)
        except ValueError:  # "Parsing failed": cancelled by the callback
            tree = None
        if tree is None:
            self.parser.reset()  # else the next parse resumes this one's state
            raise ParseTimeout(f"not parsed within {self.seconds:g} s")
        # A tree parsed from a callback holds no text: every text predicate of a query
        # (#eq?, #match?) would call back into Python for it (twice the query time, and more
        # chunks kept). A reparse of the same bytes reusing the tree yields it with its text:
        # ~1/15 of a parse for an error-free tree, at most about the parse just made in time
        # for one with errors.
        return self.parser.parse(data, old_tree=tree)


def _cursor(query: Any) -> QueryCursor:
    cursor = QueryCursor(query)
    cursor.set_max_start_depth(MAX_QUERY_DEPTH)
    return cursor


def _deeper_than(root: Any, limit: int) -> bool:
    """Whether the tree nests deeper than ``limit``, looked for along its heaviest path (the
    child with the most descendants at each level: where a deep nesting is). Costs the depth
    of that path, found without ``Node.parent`` (which walks down from the root)."""
    cursor = root.walk()
    depth = 0
    while depth <= limit:
        node = cursor.node
        if node is None or node.child_count == 0:
            return False
        heaviest, index = -1, 0
        for i, child in enumerate(node.children):
            weight = child.descendant_count
            if weight > heaviest:
                heaviest, index = weight, i
        cursor.goto_first_child()
        for _ in range(index):
            cursor.goto_next_sibling()
        depth += 1
    return True


def _widest_error(root: Any) -> int:
    """The most children any ERROR node under ``root`` has (0 without errors)."""
    widest = 0
    stack = [root] if root.has_error else []
    while stack:
        node = stack.pop()
        if node.is_error:
            widest = max(widest, node.child_count)
        stack.extend(child for child in node.children if child.has_error)
    return widest

# Higher wins when one identifier is captured by several reference patterns.
_REF_PRIORITY = {
    "name": 0,
    "attribute": 1,
    "call": 2,
    "inheritance": 3,
    "decorator": 4,
    "export": 5,
    "import": 6,
}
_DEFAULT_PRIORITY = 2


def _priority(kind: str) -> int:
    """A reference kind's rank; ``type`` (a name in a type position) and ``<kind>.type``
    (``call.type``: ``new Foo()``) rank just above the kind they refine."""
    if kind == "type":
        return 1
    if kind.endswith(".type"):
        return 2 * _REF_PRIORITY.get(kind[:-5], _DEFAULT_PRIORITY) + 1
    return 2 * _REF_PRIORITY.get(kind, _DEFAULT_PRIORITY)
_RETURN_PASSES = 6  # passes typing what functions return (each may type one more down a chain)
_MAX_SIGNATURE = 2000  # whole signatures (map_node, nav_hover, detail:"full"); rows shorten them
# The bytes a signature is read from: enough for _MAX_SIGNATURE characters and the
# whitespace between them, never the rest of a declaration (`var a=…, b=…` on one 2 MB line
# would be sliced and split once per declarator).
_SIGNATURE_WINDOW = 2 * _MAX_SIGNATURE
_MAX_DOC = 200
_MAX_QUALIFIER = 80
# (a member may be private: ``this.#root``)
_DOTTED = re.compile(r"§?[^\W\d]\w*(?:\.#?[^\W\d]\w*)*")
# A receiver that is a chain of dotted names and calls: ``Base(1, f(x))`` -> ``Base()``,
# ``c.Root().Find(args)`` -> ``c.Root().Find()``; so is ``new Base(1)`` (Java, C#,
# JavaScript …): its skeleton, arguments (and the strings in them) left out.
_CHAIN_SKELETON = re.compile(r"[^\W\d]\w*(?:\(\))?(?:\.[^\W\d]\w*(?:\(\))?)*")
_NEW = re.compile(r"^new\s+")
_MAX_CHAIN = 4000
# A receiver written as a literal (``"".join``, ``f"{x}".strip``, ``[1, 2].map``, ``3.5.hex``):
# its type is the language's own (a string, a list, a number), never a class of the tree.
_LITERAL = re.compile(r"""(?:[A-Za-z]{0,2}["'`]|[\d\[{]).*""", re.S)
LITERAL_RECEIVER = "="
_VARIABLE_KINDS = frozenset({"variable", "constant"})
# Definitions whose initializer may name what they shadow (a field named like a class).
_VALUES = frozenset({"variable", "constant", "field", "attribute", "property"})
_DOC_PREFIX = re.compile(
    r"""^(?:[rRbBuUfF]{0,2}(?:\"\"\"|'''|"|')|/\*\*|/\*!?|///?!?|#+|--+|;+|\*)\s*""")
# XML documentation tags around a summary (C# ``/// <summary>…</summary>``).
_DOC_TAG = re.compile(r"</?(?:summary|remarks|para)\s*>")
_DOC_SUFFIX = re.compile(r"""\s*(?:\"\"\"|'''|"|'|\*/)$""")


@dataclass(slots=True)
class Extraction:
    """What one file holds. ``defs`` are in source order; parents precede children."""

    lines: int
    doc: str | None = None
    defs: list[Definition] = field(default_factory=list)
    refs: list[RefRow] = field(default_factory=list)
    imports: list[Import] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    problem_count: int = 0
    surface: str = ""  # changes exactly when what other files can see of this one changes
    regions: list[tuple[int, int, str]] = field(default_factory=list)  # C's #if branches
    timed_out: bool = False  # past the file's budget: the references are not all here


@dataclass(slots=True)
class _DefCapture:
    kind: str
    name: Any  # tree_sitter.Node
    outer: Any  # widest @definition node: the span
    inner: Any  # narrowest @definition node: the signature and the node's own scope
    doc: Any  # @doc node or None
    pattern: int
    receiver: Any = None  # for an attribute definition: the object it is set on
    type: Any = None  # @definition.type: annotation or constructor
    value: Any = None  # @definition.value: a name whose type it takes
    owner: Any = None  # @definition.owner: the type a method declared outside it belongs to


@dataclass(slots=True)
class _Captures:
    """Everything the query matched, sorted by role."""

    defs: dict[int, _DefCapture] = field(default_factory=dict)
    refs: dict[int, tuple[int, str, Any]] = field(default_factory=dict)
    imports: list[dict[str, list[Any]]] = field(default_factory=list)
    scopes: list[tuple[int, int, bool]] = field(default_factory=list)
    # (name node, type node, member node): a local's type, or the member of the receiver it
    # was destructured from (``const { a, b: c } = this``: a is this.a, c is this.b)
    locals: list[tuple[Any, Any, Any]] = field(default_factory=list)
    outward: list[tuple[Any, bool]] = field(default_factory=list)  # (name node, is global)
    # (name node, type node): `queue = new Queue()` assigning a local declared without a type
    assigned: list[tuple[Any, Any]] = field(default_factory=list)
    # (name node, type node, block): `if (x instanceof C) {…}`: x is a C in the block
    narrowed: list[tuple[Any, Any, Any]] = field(default_factory=list)
    exports: list[tuple[Any, Any]] = field(default_factory=list)  # (name node, exported as)
    owned: dict[int, Any] = field(default_factory=dict)  # reference start -> @reference.owner
    # reference start -> @reference.receiver: the node naming what it is a member of, when
    # no field of its parent holds it (Go `Command{Use: x}`: Use is a member of Command)
    receivers: dict[int, Any] = field(default_factory=dict)
    doc: Any = None


class _Roles:
    """What each pattern of a query captures, learned from its first match."""

    __slots__ = ("learned",)

    def __init__(self) -> None:
        self.learned: dict[int, tuple[str, str, str, int]] = {}

    def of(self, pattern: int, caps: dict[str, list[Any]]) -> tuple[str, str, str, int]:
        role = self._learn(caps)
        self.learned[pattern] = role
        return role

    @staticmethod
    def _learn(caps: dict[str, list[Any]]) -> tuple[str, str, str, int]:
        for name in caps:
            if name.startswith("name.definition."):
                return ("def", name[len("name.definition.") :], name, 0)
            if name.startswith("name.reference."):
                kind = name[len("name.reference.") :]
                return ("ref", kind, name, _priority(kind))
        for name in ("import", "export.name", "doc.module", "local.scope", "local.scope.hidden",
                     "local.definition", "local.global", "local.nonlocal", "local.assigned",
                     "local.narrowed"):
            if name in caps:
                return (name, "", name, 0)
        return ("other", "", "", 0)


_roles: dict[str, _Roles] = {}
_systems: dict[str, ModuleSystem] = {}


def extract(lang: Language, data: bytes, path: str = "",
            budget: float = PARSE_DEADLINE_S) -> Extraction:
    """Parse ``data`` (file ``path``, repo-relative) as ``lang`` and collect its facts within
    ``budget`` seconds.

    Never raises on malformed source; raises ParseTimeout for a file that cannot be parsed
    within the budget (or has an ERROR node too wide to query); a file parsed in time whose
    references take longer comes back with those collected so far and ``timed_out``.
    """
    compiled = queries(lang)
    parser = _Deadlined(compiled.parser, budget)
    data = lone_cr_as_lf(data)  # classic Mac line ends: lines for tree-sitter too
    tree = parser.parse(data)
    root = original = tree.root_node
    index = LineIndex(data)
    out = Extraction(lines=index.line_count)
    blanked: list[tuple[int, int]] = []
    if root.has_error:
        out.problem_count, out.problems = problems(root, index)
        root, blanked = recover(parser, root, data, index)
        if _widest_error(root) > _MAX_ERROR_FANOUT:
            raise ParseTimeout("an ERROR node too wide to query")
        if blanked and _widest_error(original) > _MAX_ERROR_FANOUT:
            blanked = []  # the blanked lines' own references are given up

    too_deep = _deeper_than(root, MAX_QUERY_DEPTH)
    flat = _cursor(compiled.flat).captures(root)
    identifiers = flat.pop("name", [])
    for start, end in blanked:  # what the recovered parse blanked out still has references
        cursor = _cursor(compiled.flat)
        cursor.set_byte_range(start, end)
        identifiers += cursor.captures(original).get("name", [])
    caps = _capture(lang, compiled, root, flat)

    for found in caps.imports:  # a name an import binds is not a definition too
        for site in (*found.get("import.alias", ()), *found.get("import.default", ()),
                     *found.get("import.name", ())):
            caps.defs.pop(site.start_byte, None)
    kept, captured, demoted = _resolve_defs(lang, caps.defs, data, index)
    attributes = {i for i, cap in enumerate(captured) if cap.kind == "attribute"}
    modules = _systems.setdefault(lang.modules, module_system(lang.modules))
    binder = Binder(lang, path, modules, len(data), caps.scopes, kept)
    if lang.predefined:  # a language with a preprocessor: its conditionally compiled lines
        out.regions = modules.regions(data, dict(lang.predefined))
        out_lines = [(line, end) for line, end, cond in out.regions if cond == "0"]
        # a definition compiled out binds no name (`#ifdef _WIN32 typedef … T; #else …`)
        binder.compiled_out = {i for i, d in enumerate(kept)
                               if any(line <= d.name_line <= end for line, end in out_lines)}
    if lang.tags:
        tag_nodes = lang.tag_nodes
        binder.tags = {i for i, cap in enumerate(captured)
                       if cap.name.parent is not None and cap.name.parent.type in tag_nodes}
    import_keys = _bind(binder, kept, captured, demoted, caps, data, path, attributes)
    typed = [i for i, cap in enumerate(captured) if cap.type is not None or cap.value is not None]
    for again in range(_RETURN_PASSES):
        # again for what a function returns: a method ending `return this.add(…)` may come
        # before `add` (and `add` before the one it returns …): until nothing more is typed
        before = len(binder.types)
        for i in typed:
            cap = captured[i]
            if again and (cap.type is not None or i in binder.types or
                          kept[i].kind not in ("function", "method")):
                continue
            binder.set_type(i, _type_text(lang, cap.type, data) if cap.type is not None
                            else None,
                            _text(cap.value, data) if cap.value is not None else None,
                            cap.name.start_byte,
                            cap.value.start_byte if cap.value is not None else None)
        if again and len(binder.types) == before:
            break
    for i, cap in enumerate(captured):  # a builder's method: `@builder def f(self) -> None`
        if cap.type is not None and i not in binder.types and kept[i].kind == "method" and \
                _text(cap.type, data) == "None" and _wrapped(cap, data):
            binder.returns_instance(i)
    for node, type_node in caps.assigned:  # (every name bound and typed first)
        # a member's value (`rect = this._paintRect`) is weaker than a `new` of a class
        made = type_node.parent is not None and type_node.parent.type == "new_expression"
        binder.assign(_text(node, data), node.start_byte, _type_text(lang, type_node, data),
                      weak=not made)
    kept = [d._replace(type=binder.type_key(i)) if i in binder.types else d
            for i, d in enumerate(kept)]
    binder.defs = kept
    out.defs = kept
    out.doc = _doc_line(_text(caps.doc, data)) if caps.doc is not None else None
    # a definition's decorators (before its own node) are evaluated where it is written
    decorated = {i: cap.inner.start_byte for i, cap in enumerate(captured)
                 if cap.inner.start_byte > cap.outer.start_byte
                 and data[cap.outer.start_byte:cap.outer.start_byte + 1] == b"@"}
    out.refs = _collect_refs(identifiers, caps.refs, {c.name.start_byte for c in captured},
                             binder=binder, import_keys=import_keys, index=index, data=data,
                             decorated=decorated,
                             owned=_owned_scopes(lang, kept, caps.owned, data),
                             explicit=caps.receivers,
                             deadline=parser.deadline)
    if lang.reparse and time.monotonic() < parser.deadline:  # a C macro's body
        out.refs += _reparsed_refs(lang, compiled, root, data, binder, index)
    out.timed_out = too_deep or time.monotonic() > parser.deadline
    out.imports = _collect_imports(caps.imports, binder, index, data, path)
    out.imports += _collect_exports(caps.exports, binder, index, data)
    out.surface = _surface(kept, out.imports, out.refs)
    return out


def parse_tree(lang: Language, data: bytes, seconds: float | None = None) -> Any:
    """``data``'s tree, parsed within ``seconds`` (default PARSE_DEADLINE_S; else
    ParseTimeout) by a parser of its own: a query's thread never shares one with the
    indexer's."""
    from tree_sitter import Parser

    limit = PARSE_DEADLINE_S if seconds is None else seconds
    return _Deadlined(Parser(queries(lang).parser.language), limit).parse(data)


def is_identifier(lang: Language, node: Any) -> bool:
    """Whether a tree node is a name of any kind the grammar has (a property's, a field's, a
    type's), not only those the language's references are made of."""
    return node.type in lang.identifiers or node.type.endswith("identifier")


def identifier_at(lang: Language, data: bytes, line: int, col: int) -> tuple[str, int] | None:
    """The identifier covering 1-based (line, UTF-16 col), and the column it starts at: a
    name of any kind the grammar has (a property's, a field's, a type's)."""
    data = lone_cr_as_lf(data)
    index = LineIndex(data)
    offset = index.offset(line, col)
    try:
        node = parse_tree(lang, data).root_node.descendant_for_byte_range(offset, offset)
    except ParseTimeout:
        return None
    if node is None or not is_identifier(lang, node):
        return None
    row, byte_col = node.start_point
    return _text(node, data), index.col(row, byte_col)


def _capture(lang: Language, compiled: Queries, root: Any,
             flat: dict[str, list[Any]]) -> _Captures:
    roles = _roles.setdefault(lang.name, _Roles())
    learned = roles.learned
    caps = _Captures()
    refs = caps.refs
    for name, nodes in flat.items():
        if name.startswith("name.reference."):
            kind = name[len("name.reference.") :]
            priority = _priority(kind)
            for node in nodes:
                key = node.start_byte
                seen = refs.get(key)
                if seen is None or priority >= seen[0]:
                    refs[key] = (priority, kind, node)
        elif name in ("local.scope", "local.scope.hidden"):
            hidden = name == "local.scope.hidden"
            caps.scopes += [(node.start_byte, node.end_byte, hidden) for node in nodes]
        elif name == "local.definition":
            caps.locals += [(node, None, None) for node in nodes]
        elif name in ("local.global", "local.nonlocal"):
            caps.outward += [(node, name == "local.global") for node in nodes]
        elif name == "doc.module" and nodes:
            caps.doc = min(nodes, key=lambda n: n.start_byte)
        elif name == "export.default":
            caps.exports += [(node, "default") for node in nodes]
    for pattern, found in _cursor(compiled.assoc).matches(root):
        role = learned.get(pattern) or roles.of(pattern, found)
        what = role[0]
        if what == "def":
            _add_def(caps.defs, role[1], found, role[2], pattern)
        elif what == "local.definition":
            kind_node = found.get("local.type")
            name_node = found["local.definition"][0]
            member = None
            if found.get("local.member_of"):  # destructured from the receiver
                member = found.get("local.member", [name_node])[0]
            caps.locals.append((name_node, kind_node[0] if kind_node else None, member))
        elif what == "local.assigned" and found.get("local.type"):
            caps.assigned.append((found["local.assigned"][0], found["local.type"][0]))
        elif what == "local.narrowed" and found.get("local.type") and found.get("local.narrowing"):
            caps.narrowed.append((found["local.narrowed"][0], found["local.type"][0],
                                  found["local.narrowing"][0]))
        elif what == "import":
            caps.imports.append(found)
        elif what == "export.name":
            alias = found.get("export.alias")
            caps.exports.append((found["export.name"][0], alias[0] if alias else None))
        elif what == "ref":  # a reference made for a type (Rust `impl Trait for Type`)
            node = found[role[2]][0]
            seen = caps.refs.get(node.start_byte)
            if seen is None or role[3] >= seen[0]:
                caps.refs[node.start_byte] = (role[3], role[1], node)
                receiver = found.get("reference.receiver")
                if receiver:
                    caps.receivers[node.start_byte] = receiver[0]
                else:
                    caps.receivers.pop(node.start_byte, None)
            owner = found.get("reference.owner")
            if owner:
                caps.owned[node.start_byte] = owner[0]
    # an import in an exception handler is the fallback: the name's import in the `try` body
    # or its `else` binds it first (tqdm's autonotebook: `except Exception: from .std import
    # tqdm`, `else: from .notebook import tqdm`; run 65)
    caps.imports.sort(key=lambda found: _in_handler(next(iter(found.values()))[0]))
    return caps


_HANDLERS = ("except_clause", "except_group_clause", "catch_clause")


def _in_handler(node: Any) -> bool:
    while node is not None:
        if node.type in _HANDLERS:
            return True
        node = node.parent
    return False


# decorators that keep what a method returns (a method so decorated returning None does)
_KEEPING = frozenset({"staticmethod", "classmethod", "property", "setter", "deleter",
                      "getter", "abstractmethod", "overload", "override", "cached_property",
                      "contextmanager", "asynccontextmanager", "wraps", "fixture"})


def _wrapped(cap: _DefCapture, data: bytes) -> bool:
    """Whether a Python method annotated ``-> None`` is decorated by what makes it return
    something: called and chained on, its result is its instance (pypika's ``@builder``
    copies the query and returns the copy: `Query.from_(t).select(x).where(y)`; run 66)."""
    if cap.inner.start_byte <= cap.outer.start_byte:
        return False
    names = re.findall(r"^\s*@\s*([\w.]+)", _text(cap.outer, data)[
        : cap.inner.start_byte - cap.outer.start_byte], re.M)
    return any(name.rpartition(".")[2] not in _KEEPING for name in names)


# a guess from a member's name alone (binder's ``A:`` keys), for a member read but not called
_READ_GUESS = re.compile(r"(?:^|(?<=\|))A:")

# a union or intersection of types (TypeScript) is read as its first named type
_TYPE_COMBINATIONS = ("union_type", "intersection_type")
_NAMED_TYPES = ("type_identifier", "nested_type_identifier", "generic_type")


def _type_text(lang: Language, node: Any, data: bytes) -> str:
    """A captured type as a dotted name, through the language's wrappers: the name of
    ``Partial<Observer<T>>`` is ``Observer``; an array literal or type (``[x]``, ``T[]``) is
    an ``Array``. (The node types named here are TypeScript's: only languages with
    ``type_wrappers`` get past the first test.)"""
    if node.type in ("array", "array_type") and "Array" in lang.builtin_types:
        return "Array"
    for _ in range(4):
        generic = node.parent
        if not lang.type_wrappers or generic is None or generic.type != "generic_type" \
                or _text(node, data) not in lang.type_wrappers:
            break
        arguments = generic.child_by_field_name("type_arguments")
        inner = arguments.named_children[0] if arguments is not None and \
            arguments.named_children else None
        while inner is not None and inner.type in _TYPE_COMBINATIONS:  # `Promise<Job | null>`
            inner = next((part for part in inner.named_children
                          if part.type in _NAMED_TYPES or part.type in _TYPE_COMBINATIONS), None)
        if inner is not None and inner.type == "generic_type":
            inner = inner.child_by_field_name("name")
        if inner is None or inner.type not in ("type_identifier", "nested_type_identifier"):
            break
        node = inner
    text = _dotted(lang, _text(node, data))
    if lang.tags and node.parent is not None and node.parent.type in lang.tag_nodes:
        return TAG + text  # `struct P`: the tag
    return text


def _text(node: Any, data: bytes) -> str:
    return data[node.start_byte : node.end_byte].decode("utf-8", "replace")


def _add_def(defs: dict[int, _DefCapture], kind: str, caps: dict[str, list[Any]],
             cap: str, pattern: int) -> None:
    name = caps[cap][0]
    node = caps["definition." + kind][0]
    doc = caps.get("doc")
    seen = defs.get(name.start_byte)
    if seen is None:
        first_doc = doc[0] if doc else None
        receiver, typed, value, owner = (caps.get(f"definition.{part}")
                                          for part in ("receiver", "type", "value", "owner"))
        defs[name.start_byte] = _DefCapture(kind, name, node, node, first_doc, pattern,
                                            receiver[0] if receiver else None,
                                            typed[0] if typed else None,
                                            value[0] if value else None,
                                            owner[0] if owner else None)
        return
    width = node.end_byte - node.start_byte
    outer = seen.outer.end_byte - seen.outer.start_byte
    if width > outer or (width == outer and pattern >= seen.pattern):
        seen.kind, seen.pattern = kind, pattern
        if width > outer:
            seen.outer = node
    if width < seen.inner.end_byte - seen.inner.start_byte:
        seen.inner = node
    if seen.doc is None and doc:
        seen.doc = doc[0]
    if seen.type is None and caps.get("definition.type"):
        seen.type = caps["definition.type"][0]
    if seen.value is None and caps.get("definition.value"):
        seen.value = caps["definition.value"][0]


def _resolve_defs(lang: Language, captures: dict[int, _DefCapture], data: bytes,
                  index: LineIndex) -> tuple[list[Definition], list[_DefCapture], list[Any]]:
    """Nest, classify, qualify and number the definitions.

    Returns the nodes, their captures (parallel to the nodes), and the name nodes of the
    variables demoted to local bindings or re-assignments (they stay references).
    """
    ordered = sorted(captures.values(), key=lambda d: (d.outer.start_byte, -d.outer.end_byte))
    parents: list[int] = []
    stack: list[int] = []
    for i, cap in enumerate(ordered):
        start, end = cap.outer.start_byte, cap.outer.end_byte
        # Names sharing one span (``a, b = 1, 2``) are siblings, not nested.
        while stack and (ordered[stack[-1]].outer.end_byte <= start
                         or (ordered[stack[-1]].outer.end_byte == end
                         and ordered[stack[-1]].outer.start_byte == start)):
            stack.pop()
        parents.append(stack[-1] if stack else -1)
        stack.append(i)

    kept: list[Definition] = []
    captured: list[_DefCapture] = []
    demoted: list[Any] = []
    new_index: dict[int, int] = {}
    seen_vars: set[tuple[int, str]] = set()
    key_counts: dict[str, int] = {}
    receivers: dict[int, str | None] = {}
    # Names each capture declares directly (methods, class attributes …): an instance
    # attribute never shadows one of them, wherever it is declared in the class.
    declared: dict[int, set[str]] = {}
    for i, cap in enumerate(ordered):
        if cap.kind != "attribute" and parents[i] >= 0:
            declared.setdefault(parents[i], set()).add(_text(cap.name, data))
    ordinal_of: dict[int, int] = {}  # kept index -> ordered index
    for i, cap in enumerate(ordered):
        ancestor = parents[i]
        while ancestor >= 0 and ancestor not in new_index:
            ancestor = parents[ancestor]  # the nearest ancestor that stayed a node
        parent = new_index[ancestor] if ancestor >= 0 else -1
        parent_def = kept[parent] if parent >= 0 else None
        kind = cap.kind
        name = _text(cap.name, data)
        sigil = len(lang.sigil) if lang.sigil and name.startswith(lang.sigil) else 0
        name = name[sigil:]  # Ruby's `attr_reader :name` declares `name`
        if kind == "attribute":
            owner = _attribute_owner(lang, kept, captured, parent, cap, data, receivers)
            assigned = cap.name.parent is not None and cap.name.parent.type == "member_expression"
            if owner < 0 or (owner, name) in seen_vars or (lang.declared_fields and assigned) or \
                    name in declared.get(ordinal_of[owner], ()):
                continue  # not set on the receiver, set before, or declared: a reference
            seen_vars.add((owner, name))
            parent, parent_def, kind = owner, kept[owner], "field"
        elif kind in _VARIABLE_KINDS:
            if (parent_def is not None and parent_def.kind in lang.scopes) or \
                    (parent, name) in seen_vars:
                demoted.append(cap.name)  # a local binding, or a re-assignment
                continue
            seen_vars.add((parent, name))
            if parent_def is not None and parent_def.kind in lang.containers and kind == "variable":
                kind = "field"
        elif kind == "function" and parent_def is not None and parent_def.kind in lang.containers:
            kind = "method"
        if cap.owner is not None:  # declared outside its type: parent fixed below
            kind = "method" if kind == "function" else kind
            qname = f"{_owner_text(lang, cap.owner, data)}.{name}"
            if parent_def is not None and parent_def.kind in lang.namespaces:
                qname = f"{parent_def.qname}.{qname}"  # in the namespace it is written in
            else:
                parent, parent_def = -1, None
        else:
            qname = f"{parent_def.qname}.{name}" if parent_def is not None else name
        count = key_counts.get(qname, 0) + 1
        key_counts[qname] = count
        outer, name_node = cap.outer, cap.name
        srow, scol = outer.start_point
        erow, ecol = outer.end_point
        nrow, ncol = name_node.start_point
        name_col = index.col(nrow, ncol + sigil)
        doc = (_doc_line(_text(cap.doc, data)) if cap.doc is not None
               else _comment_doc(lang, outer, data))
        new_index[i] = len(kept)
        ordinal_of[len(kept)] = i
        captured.append(cap)
        kept.append(Definition(
            kind=kind, name=name, qname=qname,
            key=qname if count == 1 else f"{qname}~{count}",
            parent=parent,
            line=srow + 1, col=index.col(srow, scol),
            end_line=erow + 1, end_col=index.col(erow, ecol),
            name_line=nrow + 1, name_col=name_col, name_end_col=name_col + utf16_len(name),
            start_byte=outer.start_byte, end_byte=outer.end_byte,
            signature=_signature(cap.inner, data, lang.comments),
            doc=doc,
        ))
    _attach_to_owners(lang, kept, captured, data)
    return kept, captured, demoted


def _attach_to_owners(lang: Language, kept: list[Definition], captured: list[_DefCapture],
                      data: bytes) -> None:
    """Definitions declared outside their type go into it when the file defines it."""
    types: dict[str, int] = {}
    for i, d in enumerate(kept):
        if d.parent < 0 and d.kind in lang.containers:
            types.setdefault(d.name, i)
    spaces: dict[str, int] = {}
    if lang.namespaces:  # ns::Foo::bar, or Foo::bar written in namespace ns
        for i, d in enumerate(kept):
            if d.kind in lang.containers:
                types.setdefault(d.qname, i)
            elif d.kind in lang.namespaces:
                spaces.setdefault(d.qname, i)
    for i, cap in enumerate(captured):
        if cap.owner is not None:
            owner = kept[i].qname[: -len(kept[i].name) - 1]
            container = types.get(owner, types.get(_owner_text(lang, cap.owner, data)))
            if container is not None:
                kept[i] = kept[i]._replace(parent=container)
            elif lang.namespaces and kept[i].kind == "method" and \
                    cap.kind == "function" and owner in spaces:
                # `void ns::f() {}`: a function of a namespace this file opens
                kept[i] = kept[i]._replace(parent=spaces[owner], kind="function")


def _attribute_owner(lang: Language, kept: list[Definition], captured: list[_DefCapture],
                     parent: int, cap: _DefCapture, data: bytes,
                     receivers: dict[int, str | None]) -> int:
    """The class an instance attribute belongs to: the container of the nearest enclosing
    method whose receiver parameter is the object the attribute is set on (-1: none)."""
    if not lang.receiver:
        return -1
    method = parent
    while method >= 0:
        owner = kept[method].parent
        if kept[method].kind in lang.scopes and owner >= 0 and kept[owner].kind in lang.containers:
            if cap.receiver is None:  # declared on the instance (TypeScript parameter property)
                return owner
            if lang.receiver != "first_parameter":
                return owner if _text(cap.receiver, data) == lang.receiver else -1
            if method not in receivers:
                receivers[method] = _first_parameter(captured[method].inner, lang, data)
            return owner if receivers[method] == _text(cap.receiver, data) else -1
        method = owner
    return -1


def _first_parameter(function: Any, lang: Language, data: bytes) -> str | None:
    parameters = function.child_by_field_name("parameters")
    if parameters is None or not parameters.named_children:
        return None
    first = parameters.named_children[0]
    names = _identifiers(first, lang.identifiers)
    return _text(names[0], data) if names else None


def _bind(binder: Binder, defs: list[Definition], captured: list[_DefCapture],
          demoted: list[Any], caps: _Captures, data: bytes, path: str,
          attributes: set[int]) -> dict[int, str | None]:
    """Tell the binder every name this file binds; returns the keys of import identifiers.

    Instance attributes (``attributes``) bind no name: they are reached through the receiver.
    """
    for i, cap in enumerate(captured):
        if i not in attributes and cap.owner is None:  # members are reached through objects
            binder.bind_def(i, cap.outer.start_byte, (cap.inner.start_byte, cap.inner.end_byte))
    for node in demoted:
        binder.bind_local(_text(node, data), node.start_byte)
    aliased = {captured[i].name.start_byte: i for i in attributes}
    for node, type_node, member in caps.locals:
        if node.start_byte in aliased:  # a parameter that declares a field
            binder.bind_alias(aliased[node.start_byte], node.start_byte)
            continue
        if member is not None and binder.lang.receiver:
            type_text: str | None = f"{binder.lang.receiver}.{_text(member, data)}"
        elif type_node is not None:
            type_text = _type_text(binder.lang, type_node, data)
        else:
            type_text = None
        # `add = self.add`: the local holds what the attribute is (not what a call makes)
        holds = type_node is not None and type_node.type in _MEMBER_VALUES and \
            type_node.parent is not None and type_node.parent.type in _ASSIGNING
        binder.bind_local(_text(node, data), node.start_byte, type_text, value=holds)
    for node, is_global in caps.outward:
        binder.declare_outward(_text(node, data), node.start_byte, is_global)
    for node, type_node, block in caps.narrowed:
        binder.narrow(_text(node, data), node.start_byte, block.start_byte + 1,
                      _type_text(binder.lang, type_node, data))

    import_keys: dict[int, str | None] = {}
    for found in caps.imports:
        _bind_import(binder, found, data, path, import_keys)
    containers = binder.lang.containers
    keyword = binder.lang.receiver not in ("", "first_parameter")
    for i, (d, cap) in enumerate(zip(defs, captured, strict=True)):
        body = cap.inner.child_by_field_name("body")
        if body is None and not keyword:
            continue
        span = (cap.inner.start_byte, cap.inner.end_byte)
        value = _function_value(cap.inner) if body is None else None
        if value is not None:  # `onWaiting = () => { this.tick() }`: the function sees `this`
            span, body = (value.start_byte, value.end_byte), value.child_by_field_name("body")
        if not keyword and _STATIC_METHOD in data[cap.outer.start_byte:cap.inner.start_byte]:
            continue  # a Python @staticmethod's first parameter is no instance (tqdm's
            # `bar2callback(bar, …)`: `bar.set_postfix` was read as the class's, run 65)
        if d.parent >= 0 and defs[d.parent].kind in containers:
            # `this` needs no body to start after: a C# property's accessors see it too
            binder.set_receiver(i, span, body.start_byte if body is not None else span[1])
        elif cap.owner is not None and body is not None:
            # its type is declared in another file (of the package, or imported: Rust's
            # `impl Display for User` after `use crate::models::User`)
            written = _owner_text(binder.lang, cap.owner, data)
            qualifier, _, last = written.rpartition(".")
            declared, owner = binder.resolve(last, cap.outer.start_byte, qualifier or None)
            if declared >= 0:
                owner = f"N:{node_id(binder.lang.code, path, defs[declared].key)}"
            elif d.parent >= 0 and defs[d.parent].kind in binder.lang.namespaces:
                owner = f"Q:{defs[d.parent].qname}@{binder.lang.code}::{written}"  # in ns
            binder.set_receiver(i, span, body.start_byte, owner_key=owner)
    return import_keys


def _identifiers(node: Any, types: tuple[str, ...]) -> list[Any]:
    if node.type in types:
        return [node]
    out: list[Any] = []
    for child in node.children:
        out.extend(_identifiers(child, types))
    return out


def _bind_import(binder: Binder, found: dict[str, list[Any]], data: bytes, path: str,
                 import_keys: dict[int, str | None]) -> None:
    """Keys for one import binding: its module's parts, the imported name, the alias."""
    module_nodes = found.get("import.module")
    if not module_nodes:
        return
    modules, types = binder.modules, binder.lang.identifiers
    module_text = _modules_text(binder.lang, module_nodes, data)
    prefixes = modules.prefix_keys(path, module_text)
    parts = [part for node in sorted(module_nodes, key=lambda n: n.start_byte)
             for part in _identifiers(node, types)]
    for i, node in enumerate(parts):  # a part without a key (above the root) stays unresolved
        import_keys[node.start_byte] = (prefixes[i] or None) if i < len(prefixes) else None
    module_key = modules.module_key(path, module_text)
    name_nodes, alias_nodes = found.get("import.name"), found.get("import.alias")
    if "import.wildcard" in found:
        binder.bind_import("*", module_nodes[0].start_byte, module_key)
        return
    key: str | None
    default = found.get("import.default")
    if default:  # import X from "m": X is the module's default export
        key = extend_key(module_key, ["default"]) if module_key else None
        import_keys[default[0].start_byte] = key
        binder.bind_import(_text(default[0], data), default[0].start_byte, key)
        return
    if name_nodes:  # from M import name [as alias]
        name = _text(name_nodes[0], data)
        key = extend_key(module_key, [name]) if module_key else None
        for node in _identifiers(name_nodes[0], types)[:1]:
            import_keys[node.start_byte] = key
        bound, site = (alias_nodes[0], alias_nodes[0]) if alias_nodes else (name_nodes[0], None)
    elif alias_nodes:  # import a.b as c
        key, bound, site = module_key, alias_nodes[0], alias_nodes[0]
    else:  # import a.b binds a
        named = _identifiers(module_nodes[0], types)
        if not named:  # a path (Go's import "a/b/store"): the module system names it
            path_name = modules.bound_name(module_text)
            if path_name:
                binder.bind_import(path_name, module_nodes[0].start_byte, module_key)
            return
        key = prefixes[0] if prefixes else None
        bound, site = named[0], None
    if site is not None:
        import_keys[site.start_byte] = key
    binder.bind_import(_text(bound, data), bound.start_byte, key)


def _dotted(lang: Language, text: str) -> str:
    """A receiver or type written with the language's own separators and sigil (PHP
    ``$this->repo``, Ruby ``A::B``) in the dotted form the binder reads (``this.repo``)."""
    if not (lang.separators or lang.sigil):
        return text
    for separator in lang.separators:
        text = text.replace(separator, ".")
    if lang.sigil:
        text = ".".join(part.strip().removeprefix(lang.sigil) for part in text.split("."))
    return text.strip(".") if "." in text else text


def _modules_text(lang: Language, nodes: list[Any], data: bytes) -> str:
    """The module of an import whose path is written in parts (Rust's nested groups: `use
    a::{b::{C}}` — `a` and `b`, joined by the language's separator)."""
    if len(nodes) == 1:
        return _module_text(nodes[0], data)
    joiner = lang.separators[0] if lang.separators else "."
    return joiner.join(_module_text(node, data)
                       for node in sorted(nodes, key=lambda n: n.start_byte))


def _module_text(node: Any, data: bytes) -> str:
    """A module as written, without whitespace or the quotes of a string literal."""
    return "".join(_text(node, data).split()).strip("\"'`")


def _signature(node: Any, data: bytes, comments: frozenset[str]) -> str:
    """The definition's head: up to its body, without comments (of a function value, up to
    the function's: ``const datetime = function (`` and its parameters on the lines below);
    else its first line."""
    body, scan = node.child_by_field_name("body"), node
    if body is None:
        scan = _function_value(node) or node
        body = scan.child_by_field_name("body")
    window = node.start_byte + _SIGNATURE_WINDOW
    if body is None:
        head = data[node.start_byte : min(node.end_byte, window)].split(b"\n", 1)[0]
    else:
        end = node.start_byte
        for child in scan.children:
            if child.start_byte >= body.start_byte or child.is_error:
                break
            if child.type not in comments:
                end = child.end_byte
        end = min(end, window)
        head = _without(data, node.start_byte, end, _comments_in(node, end, comments))
    text = _squeezed(head.decode("utf-8", "replace")).rstrip(":{ ")
    return text if len(text) <= _MAX_SIGNATURE else text[: _MAX_SIGNATURE - 1] + "…"


_STATIC_METHOD = b"@staticmethod"  # (among a Python definition's decorators)

# a local assigned an attribute's value as written (`add = self.add`, `const add = this.add`)
_MEMBER_VALUES = frozenset({"attribute", "member_expression"})
_ASSIGNING = frozenset({"assignment", "variable_declarator"})

# a JS/TS function written as a value: `const f = function (…) {…}`, `f = async (…) => …`
_FUNCTION_VALUES = frozenset({"function_expression", "function", "arrow_function",
                              "generator_function"})


def _function_value(node: Any) -> Any:
    """The function a declaration or field holds as its value, or None."""
    if node.type in ("lexical_declaration", "variable_declaration"):
        node = next((c for c in node.named_children if c.type == "variable_declarator"), None)
        if node is None:
            return None
    value = node.child_by_field_name("value")
    return value if value is not None and value.type in _FUNCTION_VALUES else None


def _squeezed(text: str) -> str:
    """``text`` with each run of whitespace one space — outside string literals, whose
    spaces are kept as written (a default of four spaces stays four)."""
    out: list[str] = []
    quote = ""
    space = False
    i = 0
    while i < len(text):
        char = text[i]
        if quote and char == "\n":  # no string after all (a Rust lifetime, a char)
            quote = ""
            space = True
        elif quote:
            out.append(char)
            if char == "\\" and i + 1 < len(text):
                out.append(text[i + 1])
                i += 1
            elif char == quote:
                quote = ""
        elif char.isspace():
            space = True
        else:
            if space and out:
                out.append(" ")
            space = False
            out.append(char)
            if char in "\"'`":
                quote = char
        i += 1
    return "".join(out)


def _comments_in(node: Any, end: int, comments: frozenset[str]) -> list[tuple[int, int]]:
    """The byte ranges of the comments inside ``node`` before ``end`` (a comment among the
    parameters: ``def f(  # noqa``)."""
    found: list[tuple[int, int]] = []
    stack = [child for child in node.children if child.start_byte < end]
    while stack and len(found) < 64:
        current = stack.pop()
        if current.type in comments:
            found.append((current.start_byte, current.end_byte))
        elif current.child_count:
            stack += [child for child in current.children if child.start_byte < end]
    return sorted(found)


def _without(data: bytes, start: int, end: int, ranges: list[tuple[int, int]]) -> bytes:
    """``data[start:end]`` with ``ranges`` left out."""
    out, at = [], start
    for first, last in ranges:
        out.append(data[at:first])
        at = max(at, last)
    out.append(data[at:end])
    return b" ".join(out)


def _doc_line(text: str) -> str | None:
    for raw in text.strip().splitlines():
        line = _DOC_SUFFIX.sub("", _DOC_PREFIX.sub("", raw.strip())).strip()
        line = _DOC_TAG.sub("", line).strip()
        if line:
            return line if len(line) <= _MAX_DOC else line[: _MAX_DOC - 1] + "…"
    return None


def _comment_doc(lang: Language, node: Any, data: bytes) -> str | None:
    """The comment block ending on the line above ``node``, if the language has comments."""
    if not lang.comments:
        return None
    block: list[Any] = []
    line = node.start_point[0]
    # A definition wrapped on its own line (`export class …`): the comment is above the wrapper.
    while node.prev_named_sibling is None and node.parent is not None and \
            node.parent.parent is not None and node.parent.start_point[0] == line and \
            node.parent.start_byte < node.start_byte:
        node = node.parent
    sibling = node.prev_sibling
    while (sibling is not None and sibling.type in lang.attributes  # `#[derive(…)]` lines
           and sibling.end_point[0] >= line - 1):
        line = sibling.start_point[0]
        sibling = sibling.prev_sibling
    while (sibling is not None and sibling.type in lang.comments
           and sibling.end_point[0] >= line - 1):
        block.append(sibling)
        line = sibling.start_point[0]
        sibling = sibling.prev_sibling
    for comment in reversed(block):
        found = _doc_line(_text(comment, data))
        if found:
            return found
    return None


def _collect_refs(identifiers: list[Any], specific: dict[int, tuple[int, str, Any]],
                  name_starts: set[int], *, binder: Binder, import_keys: dict[int, str | None],
                  index: LineIndex, data: bytes, owned: dict[int, int] | None = None,
                  explicit: dict[int, Any] | None = None,
                  decorated: dict[int, int] | None = None,
                  deadline: float = float("inf")) -> list[RefRow]:
    """Every identifier that does not name a node, with its most specific kind and what it
    resolves to. ``name_starts`` are the start bytes of the nodes' own names; ``owned``
    gives references made for a type of the file (``@reference.owner``) that type as scope;
    ``explicit`` their receivers named by the query (``@reference.receiver``); ``decorated``
    where each decorated definition's own node starts (what comes before it, its
    decorators, is in the scope around it).

    The hot loop of indexing: one pass in document order, with the innermost enclosing
    definition tracked by a stack.
    """
    defs = binder.defs
    items: list[tuple[int, Any, str]] = []
    append_item = items.append
    pop = specific.pop
    for node in identifiers:
        start = node.start_byte
        if start in name_starts or node.end_byte == start:  # a name, or one the parser made up
            continue
        found = pop(start, None)
        append_item((start, node, "name" if found is None else found[1]))
    # Captures on nodes that are not identifiers (strings in ``__all__`` …).
    items.extend((start, node, kind) for start, (_, kind, node) in specific.items()
                 if start not in name_starts)
    items.sort(key=itemgetter(0))

    starts = [d.start_byte for d in defs]
    ends = [d.end_byte for d in defs]
    count = len(defs)
    stack: list[int] = []
    position = 0
    rows: list[RefRow] = []
    append = rows.append
    ascii_text = data.isascii()
    col_of = index.col
    resolve = binder.resolve_in
    scope_at = binder.sweep()
    super_call = binder.lang.super_call
    receivers = dict(binder.lang.receivers)
    methods: dict[tuple[int, str], int] = {}
    for i, d in enumerate(defs):
        if d.kind in CALLABLE_KINDS and d.parent >= 0:
            methods.setdefault((d.parent, d.name), i)
    overloads = binder.lang.overloads
    namesakes: dict[tuple[int, str], list[int]] = {}
    if overloads:
        for i, d in enumerate(defs):
            namesakes.setdefault((d.parent, d.name), []).append(i)
    rewrite = bool(binder.lang.separators or binder.lang.sigil)
    suffix = binder.lang.decorator_suffix
    path_nodes = binder.lang.paths
    subscripts = binder.lang.subscripts
    tag_nodes = binder.lang.tag_nodes
    outer_this = f".{binder.lang.receiver}" if binder.lang.receiver not in (
        "", "first_parameter") else ""
    countdown = _CHECK_EVERY
    for start, node, captured_kind in items:
        if captured_kind == "keyword":  # `f(msg=1)`: a parameter's name, no use of a node
            continue
        countdown -= 1
        if not countdown:
            if time.monotonic() > deadline:
                break  # past the file's budget: what was collected stands
            countdown = _CHECK_EVERY
        raw = data[start : node.end_byte]
        name = raw.decode("ascii") if ascii_text else raw.decode("utf-8", "replace")
        qualifier = None
        # ``type`` / ``<kind>.type``: the name means a type (``call.type`` is stored as ``call``)
        types = captured_kind == "type" or captured_kind.endswith(".type")
        kind = captured_kind[:-5] if types and captured_kind != "type" else captured_kind
        given = explicit.get(start) if explicit else None
        if given is not None or (kind != "name" and receivers):
            span: tuple[int, int] | None
            if given is not None:
                span = given.start_byte, given.end_byte
                if tag_nodes and given.parent is not None and given.parent.type in tag_nodes:
                    span = None
                    qualifier = TAG + _text(given, data)  # `(struct P *)x`: the tag
            else:
                parent = node.parent
                field_name = receivers.get(parent.type) if parent is not None else None
                span = _receiver_span(node, parent, field_name) if field_name else None
            if span is not None:
                qualifier = data[span[0] : span[1]].decode("utf-8", "replace")
                if rewrite:
                    qualifier = _dotted(binder.lang, qualifier)
                if subscripts and ("[" in qualifier or "*" in qualifier or "((" in qualifier):
                    qualifier = _element_of(qualifier)
                if outer_this and qualifier.endswith(outer_this):  # `Outer.this`: an Outer
                    qualifier = qualifier[: -len(outer_this)]
                if qualifier != super_call and (len(qualifier) > _MAX_QUALIFIER
                                                or not _DOTTED.fullmatch(qualifier)):
                    called = _called_chain(qualifier) if len(qualifier) <= _MAX_CHAIN and \
                        "(" in qualifier else None
                    # an instance made by a call, a literal, or any other expression
                    qualifier = (called if called else
                                 LITERAL_RECEIVER if _LITERAL.match(qualifier) else "*")
        if start in import_keys:
            target, key = -1, import_keys[start]
        else:
            looked_up = TAG + name if tag_nodes and node.parent is not None and \
                node.parent.type in tag_nodes else name
            target, key = resolve(scope_at(start), looked_up, qualifier, types)
            if qualifier is None and target >= 0 and defs[target].kind in _VALUES and \
                    defs[target].start_byte <= start < defs[target].end_byte:
                # `static MissingRefError = MissingRefError`, `x = x` in a class body: a
                # value's own initializer reads the name from around its scope
                around = binder.scopes[scope_at(start)].parent
                target, key = resolve(around, looked_up, qualifier, types) if around >= 0 \
                    else (-1, None)
            if target == LOCAL:  # a parameter or local variable: the file alone answers
                named = binder.called_local(start, name) if kind == "call" and \
                    qualifier is None else None
                if named is None:
                    continue
                target, key = named, None  # (a local holding a function: `add = self.add`)
            if key is None and target < 0 and qualifier and path_nodes and \
                    node.parent is not None and node.parent.type in path_nodes:
                head, *rest = qualifier.split(".")  # `crate::util::help()`: a module path
                key = binder.path_key(head, [*rest, name])
            if kind == "decorator" and suffix and target < 0 and not name.endswith(suffix):
                # `[Obsolete]`: the class may be ObsoleteAttribute (tried after the name)
                longer, longer_key = resolve(scope_at(start), name + suffix, qualifier, True)
                if longer >= 0:
                    target, key = longer, None
                elif longer_key:
                    key = f"{key}|{longer_key}" if key else longer_key
            if kind == "call" and target >= 0 and defs[target].kind not in CALLABLE_KINDS:
                # a field and a method of one name (Java): the call means the method
                target = methods.get((defs[target].parent, defs[target].name), target)
            if kind == "attribute" and key is not None and "A:" in key:
                key = _READ_GUESS.sub("R:", key)  # read, not called: no method's by its name
            if overloads and (target >= 0 or key is not None):
                call = _call_of(node, binder.lang.comments, binder, scope_at(start), data) \
                    if kind == "call" else None
                if target >= 0:
                    target = _overload(defs, namesakes, target, call, binder.lang.containers,
                                       binder.lang.static_namesakes)
                elif key is not None and call is not None:
                    key = f"{key}^{encode_call(call)}"  # the linker picks the overload
        while position < count and starts[position] <= start:
            while stack and ends[stack[-1]] <= starts[position]:
                stack.pop()
            stack.append(position)
            position += 1
        while stack and ends[stack[-1]] <= start:
            stack.pop()
        row, byte_col = node.start_point
        col = byte_col + 1 if ascii_text else col_of(row, byte_col)
        scope = stack[-1] if stack else -1
        depth = len(stack) - 1
        # A field declared from inside a method (``self.x = f()``) belongs to its class but
        # sits in the method: the use is the method's (the innermost definition whose parent
        # is the one around it).
        while depth > 0 and defs[stack[depth]].parent != stack[depth - 1]:
            depth -= 1
            scope = stack[depth]
        # in a decorator (`@pytest.mark.parametrize(...)` above a def): the scope around it
        while decorated and scope >= 0 and start < decorated.get(scope, -1):
            depth -= 1
            scope = stack[depth] if depth >= 0 else -1
        if owned and start in owned:
            scope = owned[start]
        append((name, kind, row + 1, col, scope, qualifier, target, key))
    return rows


_SUBSCRIPT = re.compile(r"\[[^\[\]]*\]")
# a parenthesized cast: ``((T *)x)`` (qualifiers such as ``struct``, ``const`` before T)
_CAST = re.compile(r"\(\s*\(\s*(?:[^\W\d]\w*\s+)*([^\W\d]\w*)\s*\**\s*\)\s*[^()]*?\)")
_DEREF = re.compile(r"\(\s*\*+\s*([^\W\d][\w.]*)\s*\)|^\*+\s*")


def _element_of(text: str) -> str:
    """A receiver read without pointer and array levels (``subscripts``): ``r.element[0]``
    -> ``r.element``, ``(*p).x`` -> ``p.x``; a cast is its type: ``((T *)r).element`` ->
    ``T.element``."""
    text = _CAST.sub(lambda m: m.group(1), text)
    for _ in range(4):
        stripped = _SUBSCRIPT.sub("", text)
        if stripped == text:
            break
        text = stripped
    return _DEREF.sub(lambda m: m.group(1) or "", text).strip()


def _called_chain(text: str) -> str | None:
    """A receiver made by calls, their arguments dropped: ``c.Root().Find(a)`` ->
    ``c.Root().Find()``, ``new Foo(1)`` -> ``Foo()``, ``a.b(x).c`` -> ``a.b().c``; None when
    it is not such a chain. One pass: what is inside parentheses (strings too) is skipped."""
    out: list[str] = []
    depth, i, n = 0, 0, len(text)
    text = _NEW.sub("", text.strip())
    n = len(text)
    while i < n:
        char = text[i]
        if char in "\"'`" and depth:  # a string in the arguments: to its end
            end = i + 1
            while end < n and text[end] != char:
                end += 2 if text[end] == "\\" else 1
            i = end + 1
            continue
        if char == "(":
            if depth == 0:
                out.append("()")
            depth += 1
        elif char == ")":
            depth -= 1
            if depth < 0:
                return None
        elif depth == 0 and not char.isspace():
            out.append(char)
        i += 1
    chain = "".join(out)
    return chain if depth == 0 and _CHAIN_SKELETON.fullmatch(chain) else None


def _overload(defs: list[Definition], namesakes: dict[tuple[int, str], list[int]],
              target: int, call: Call | None, containers: frozenset[str],
              sided: bool = False) -> int:
    """Of the definitions of one name in one scope, the one a use means: for a call, the
    callable whose parameters fit it best (of a class called, its constructor: a member
    named like it); for any other use, a field rather than a method of the same name."""
    d = defs[target]
    if call is not None and d.kind in containers:
        candidates = namesakes.get((target, d.name), [])
    else:
        candidates = namesakes.get((d.parent, d.name), [])
    if call is None:
        if len(candidates) > 1 and d.kind in CALLABLE_KINDS:
            return next((i for i in candidates if defs[i].kind not in CALLABLE_KINDS), target)
        return target
    callables = [i for i in candidates if defs[i].kind in CALLABLE_KINDS]
    if sided and d.kind in CALLABLE_KINDS:  # static or not, as the binder found it (on the
        static = is_static(d.signature)  # class or not: TypeScript's static namesakes)
        callables = [i for i in callables if is_static(defs[i].signature) == static] or \
            callables
    if not callables or callables == [target]:
        return target
    pick = best([defs[i].signature for i in callables], call)
    return callables[pick] if pick is not None else target


# literal argument kinds by node type (read from the words of the grammars' own names)
def _literal(node: Any) -> str | None:
    kind = node.type
    if kind in ("argument", "parenthesized_expression") and node.named_child_count == 1:
        return _literal(node.named_children[0])
    if "string" in kind:
        return "string"
    if kind in ("true", "false", "boolean_literal"):
        return "boolean"
    if "null" in kind or kind == "nullptr":
        return "null"
    if any(word in kind for word in ("integer", "number", "floating", "real_literal")):
        return "number"
    return None


_MAX_ARGS_DEPTH = 3


def _call_of(node: Any, comments: frozenset[str], binder: Binder, scope: int,
             data: bytes) -> Call | None:
    """The arguments of the call named by ``node``: their count, and each one's literal kind
    or declared type (a variable's), from the nearest node around it with an ``arguments``
    field that the name comes before."""
    around = node.parent
    for _ in range(_MAX_ARGS_DEPTH):
        if around is None:
            return None
        arguments = around.child_by_field_name("arguments")
        if arguments is not None and arguments.start_byte >= node.end_byte:
            found = [a for a in arguments.named_children if a.type not in comments]
            return len(found), tuple(_argument(a, binder, scope, data) for a in found)
        around = around.parent
    return None


def _argument(node: Any, binder: Binder, scope: int, data: bytes) -> str | None:
    """What a call's argument is known to be: a literal's kind, or ``type:Name`` for a
    variable the file declares with a type."""
    literal = _literal(node)
    if literal is not None:
        return literal
    if node.type == "argument" and node.named_child_count == 1:
        node = node.named_children[0]
    if node.type in binder.lang.identifiers:
        declared = binder.declared_type(_text(node, data), scope)
        return f"type:{declared}" if declared else None
    return None


def encode_call(call: Call) -> str:
    """A call in a key: ``^2sn`` (two arguments, a string and a number literal),
    ``^2_=Class;`` (two, the second a variable declared ``Class``)."""
    letters = {"string": "s", "number": "n", "boolean": "b", "null": "z"}
    return str(call[0]) + "".join(
        f"={kind[5:]};" if kind and kind.startswith("type:") else letters.get(kind or "", "_")
        for kind in call[1])


def _reparsed_refs(lang: Language, compiled: Queries, root: Any, data: bytes, binder: Binder,
                   index: LineIndex) -> list[RefRow]:
    """The references in code the grammar leaves unparsed (``reparse``: a C macro's body),
    parsed again inside the language's wrapper: each name in the scope where the code is
    (a macro's parameters are its locals), a member through its receiver's text."""
    wrappers = dict(lang.reparse)
    nodes: list[Any] = []
    stack = [root]
    while stack:  # the nodes to parse again (a macro body is a leaf of the tree)
        node = stack.pop()
        if node.type in wrappers:
            nodes.append(node)
        elif node.child_count and node.type not in lang.identifiers:
            stack.extend(node.children)
    rows: list[RefRow] = []
    if not nodes:
        return rows
    defs = binder.defs
    receivers = dict(lang.receivers)
    for node in nodes:
        head, _, tail = wrappers[node.type].partition("%s")
        body = data[node.start_byte : node.end_byte].replace(b"\\\n", b"  ")
        text = head.encode() + body + tail.encode()
        shift = node.start_byte - len(head.encode())
        scope_def = next((i for i in range(len(defs) - 1, -1, -1)
                          if defs[i].start_byte <= node.start_byte < defs[i].end_byte), -1)
        found = _cursor(compiled.flat).captures(compiled.parser.parse(text).root_node)
        kinds: dict[int, str] = {}
        for name, captured in found.items():
            if name.startswith("name.reference."):
                for ident in captured:
                    kinds[ident.start_byte] = name[len("name.reference."):]
        for ident in found.get("name", ()):
            start = ident.start_byte
            if start < len(head) or start >= len(head) + len(body):
                continue
            name = text[start : ident.end_byte].decode("utf-8", "replace")
            kind = kinds.get(start, "name")
            qualifier = None
            parent = ident.parent
            field_name = receivers.get(parent.type) if parent is not None else None
            receiver = parent.child_by_field_name(field_name) if parent is not None and \
                field_name and field_name[0] not in "^-" else None
            if kind != "name" and receiver is not None and receiver.start_byte != start:
                qualifier = _dotted(lang, text[receiver.start_byte : receiver.end_byte].decode(
                    "utf-8", "replace"))
                if lang.subscripts:
                    qualifier = _element_of(qualifier)
                if not _DOTTED.fullmatch(qualifier):
                    qualifier = _called_chain(qualifier) if "(" in qualifier else None
                    qualifier = qualifier or "*"
            original = start + shift
            target, key = binder.resolve(name, original, qualifier)
            if target == LOCAL:
                continue
            line, col = index.point(original)
            rows.append((name, kind, line, col, scope_def, qualifier, target, key))
    return rows


def _owned_scopes(lang: Language, defs: list[Definition], owned: dict[int, Any],
                  data: bytes) -> dict[int, int]:
    """Reference start -> the top-level container its @reference.owner names in this file."""
    if not owned:
        return {}
    types: dict[str, int] = {}
    for i, d in enumerate(defs):
        if d.parent < 0 and d.kind in lang.containers:
            types.setdefault(d.name, i)
    return {start: types[name] for start, node in owned.items()
            if (name := _text(node, data)) in types}


def _chain_top(node: Any) -> Any:
    """The outermost of a chain of right-nested nodes of ``node``'s type (C++ ``a::b::C``
    nests as ``a::(b::C)``): the node the whole qualified name starts with."""
    top = node
    while (top.parent is not None and top.parent.type == node.type
           and top.parent.start_byte < top.start_byte):
        top = top.parent
    return top


def _receiver_span(node: Any, parent: Any, field_name: str) -> tuple[int, int] | None:
    """Bytes of the receiver of member ``node``: its receiver node, widened to the start of a
    right-nested chain (``a::b`` for ``C`` in ``a::b::C``); for the receiver part of an inner
    link of such a chain (``b``), the chain before it (``a``)."""
    target = _receiver_node(node, parent, field_name)
    if target is None:
        return None
    if target.start_byte == node.start_byte:
        grand = parent.parent
        if field_name.startswith(("^", "-")) or grand is None or grand.type != parent.type \
                or grand.start_byte >= parent.start_byte:
            return None
        return _receiver_span(parent, grand, field_name)
    holder = parent.parent if field_name.startswith("^") else parent  # owns the receiver
    # min: a receiver outside the parent (``^field``) starts before it
    return min(_chain_top(holder).start_byte, target.start_byte), target.end_byte


def _owner_text(lang: Language, owner: Any, data: bytes) -> str:
    """The type an out-of-type definition names, whole when it ends a right-nested chain
    (``ns::Foo`` of ``ns::Foo::bar``), with the language's separators read as ``.``."""
    parent = owner.parent
    start = owner.start_byte
    if parent is not None:
        top = _chain_top(parent)
        if top is not parent:
            start = top.start_byte
    return _dotted(lang, data[start : owner.end_byte].decode("utf-8", "replace"))


def _receiver_node(node: Any, parent: Any, field_name: str) -> Any:
    """The receiver of member ``node`` as ``receivers`` says: ``parent``'s field, ``-`` the
    named node before it, ``^field`` a field of the grandparent (C# ``a?.B``, ``a.B<T>``)."""
    if field_name == "-":
        return node.prev_named_sibling
    if field_name.startswith("^"):
        grand = parent.parent
        return grand.child_by_field_name(field_name[1:]) if grand is not None else None
    return parent.child_by_field_name(field_name)


def _collect_imports(matches: list[dict[str, list[Any]]], binder: Binder, index: LineIndex,
                     data: bytes, path: str) -> list[Import]:
    bindings = []
    for caps in matches:
        module = caps.get("import.module")
        if not module:
            continue
        name = caps.get("import.name")
        alias = caps.get("import.alias") or caps.get("import.default")
        site = (alias or name or module)[0]
        bindings.append((site.start_byte, module, name, alias, "import.wildcard" in caps, site,
                         "import.default" in caps))
    bindings.sort(key=lambda b: (_in_handler(b[5]), b[0]))  # a fallback's after (above)
    defs = binder.defs
    out = []
    modules = binder.modules
    for start, module, name, alias, wildcard, site, default in bindings:
        row, byte_col = site.start_point
        module_text = _modules_text(binder.lang, module, data)
        name_text = (_text(name[0], data) if name else
                     "default" if default else None)
        module_key = modules.module_key(path, module_text)
        if module_key is None or wildcard or name_text is None:
            key = module_key
        else:
            key = extend_key(module_key, [name_text])
        # The innermost definition around the import's scope: a namespace, which is no
        # scope (C# `namespace A;` spans the file), leaves its imports at the file's level.
        inner_scope = binder.scope_at(start)
        around = binder.scopes[inner_scope]
        scope = -1
        if inner_scope > 0:  # 0: the file's own scope
            for i, d in enumerate(defs):
                if d.start_byte <= around.start and around.end <= d.end_byte:
                    scope = i
        out.append(Import(
            module=module_text,
            name=name_text,
            alias=_text(alias[0], data) if alias else None,
            wildcard=wildcard,
            line=row + 1,
            col=index.col(row, byte_col),
            scope=scope,
            key=key,
        ))
    return out


def _collect_exports(exports: list[tuple[Any, Any]], binder: Binder, index: LineIndex,
                     data: bytes) -> list[Import]:
    """``export { a as b }`` / ``export default a``: the module's name ``b`` means whatever
    ``a`` means at its top level. Kept as import rows the linker reads, binding nothing."""
    out = []
    for node, alias in exports:
        name = _text(node, data)
        exported = alias if isinstance(alias, str) else _text(alias, data) if alias else name
        target, key = binder.resolve_in(0, name, None)
        if target >= 0:
            key = f"N:{node_id(binder.lang.code, binder.path, binder.defs[target].key)}"
        row, byte_col = node.start_point
        out.append(Import(module="", name=name, alias=exported, wildcard=False, line=row + 1,
                          col=index.col(row, byte_col), scope=-1,
                          key=key if target != LOCAL else None))
    return out


def _surface(defs: list[Definition], imports: list[Import], refs: list[RefRow]) -> str:
    """A digest of what other files can resolve against: node keys and kinds in order,
    module-level imports, and the bases of classes."""
    digest = hashlib.blake2b(digest_size=12)
    for d in defs:
        digest.update(f"d{d.key}\0{d.kind}\0{d.type}\n".encode())
    for i in imports:
        if i.scope < 0:
            digest.update(f"i{i.module}\0{i.name}\0{i.alias}\0{i.wildcard}\n".encode())
    for name, kind, _line, _col, scope, qualifier, _target, _key in refs:
        if kind == "inheritance":
            digest.update(f"b{scope}\0{qualifier}\0{name}\n".encode())
    return digest.hexdigest()
