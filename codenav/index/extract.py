"""Extraction: one file's bytes in, its definitions, references and imports out.

The tags query of the file's language (``grammars/<lang>/tags.scm``) says what is what; the
rules here are the same for every language (grammars/README.md lists them). Broken source
is not an error: tree-sitter recovers, the problems are reported beside the facts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any

from tree_sitter import QueryCursor

from codenav.index.languages import Language, parser_and_query
from codenav.model import Definition, Import, Problem, RefRow
from codenav.positions import LineIndex, utf16_len

__all__ = ["Extraction", "extract"]

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
_MAX_PROBLEMS = 50
_MAX_SIGNATURE = 200
_MAX_DOC = 200
_MAX_QUALIFIER = 80
_DOTTED = re.compile(r"[^\W\d]\w*(?:\.[^\W\d]\w*)*")
_VARIABLE_KINDS = frozenset({"variable", "constant"})
_BLANK = bytes(0x0A if b == 0x0A else 0x20 for b in range(256))  # every byte but newline -> space
_DOC_PREFIX = re.compile(
    r"""^(?:[rRbBuUfF]{0,2}(?:\"\"\"|'''|"|')|/\*\*|/\*!?|///?!?|#+|--+|;+|\*)\s*""")
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


@dataclass(slots=True)
class _DefCapture:
    kind: str
    name: Any  # tree_sitter.Node
    outer: Any  # widest @definition node: the span
    inner: Any  # narrowest @definition node: the signature
    doc: Any  # @doc node or None
    pattern: int


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
                return ("ref", kind, name, _REF_PRIORITY.get(kind, _DEFAULT_PRIORITY))
        if "import" in caps:
            return ("import", "", "import", 0)
        if "doc.module" in caps:
            return ("doc", "", "doc.module", 0)
        return ("other", "", "", 0)


_roles: dict[str, _Roles] = {}


def extract(lang: Language, data: bytes) -> Extraction:
    """Parse ``data`` as ``lang`` and collect its facts; never raises on malformed source."""
    parser, query, id_query = parser_and_query(lang)
    tree = parser.parse(data)
    root = original = tree.root_node
    index = LineIndex(data)
    out = Extraction(lines=index.line_count)
    blanked: list[tuple[int, int]] = []
    if root.has_error:
        out.problem_count, out.problems = _problems(root, index)
        root, blanked = _recover(parser, root, data, index)
    roles = _roles.setdefault(lang.name, _Roles())

    defs: dict[int, _DefCapture] = {}
    refs: dict[int, tuple[int, str, Any, Any]] = {}
    imports: list[dict[str, list[Any]]] = []
    module_doc = None
    learned = roles.learned
    identifiers = QueryCursor(id_query).captures(root).get("name", [])
    for start, end in blanked:  # what the recovered parse blanked out still has references
        cursor = QueryCursor(id_query)
        cursor.set_byte_range(start, end)
        identifiers.extend(cursor.captures(original).get("name", []))
    for pattern, caps in QueryCursor(query).matches(root):
        role = learned.get(pattern) or roles.of(pattern, caps)
        if role[0] == "ref":
            _, kind, cap, priority = role
            node = caps[cap][0]
            key = node.start_byte
            seen = refs.get(key)
            if seen is None or priority >= seen[0]:
                qualifier = caps.get("reference.qualifier")
                refs[key] = (priority, kind, node, qualifier[0] if qualifier else None)
        elif role[0] == "def":
            _add_def(defs, role[1], caps, role[2], pattern)
        elif role[0] == "import":
            imports.append(caps)
        elif role[0] == "doc" and module_doc is None:
            module_doc = caps["doc.module"][0]

    kept, names = _resolve_defs(lang, defs, data, index)
    out.defs = kept
    out.doc = _doc_line(_text(module_doc, data)) if module_doc is not None else None
    out.refs = _collect_refs(identifiers, refs, kept, names, index=index, data=data)
    out.imports = _collect_imports(imports, kept, index, data)
    return out


def _recover(parser: Any, root: Any, data: bytes, index: LineIndex,
             rounds: int = 3) -> tuple[Any, list[tuple[int, int]]]:
    """Re-parse with the lines an error swallowed blanked out, so what follows still maps.

    tree-sitter often folds everything after a syntax error into one ERROR node (a missing
    ``)`` hides every later definition). Blank the error's lines up to the next line indented
    no deeper than where the error began, keeping byte offsets, and parse again.
    """
    blanked: list[tuple[int, int]] = []
    patched = bytearray(data)
    for _ in range(rounds):
        regions = [r for r in _swallowed(root, index) if r not in blanked]
        if not regions:
            break
        for start, end in regions:
            patched[start:end] = bytes(patched[start:end]).translate(_BLANK)
        blanked.extend(regions)
        root = parser.parse(bytes(patched)).root_node
        if not root.has_error:
            break
    return root, sorted(blanked)


def _swallowed(root: Any, index: LineIndex) -> list[tuple[int, int]]:
    """Byte ranges of multi-line ERROR nodes, from their first line to where code resumes."""
    regions = []
    stack = [root]
    while stack:
        node = stack.pop()
        if not node.is_error:
            if node.has_error:
                stack.extend(node.children)
            continue
        first, last = node.start_point[0], node.end_point[0]
        head = index.line_bytes(first)
        indent = len(head) - len(head.lstrip())
        for row in range(first + 1, last + 1):
            text = index.line_bytes(row)
            body = text.lstrip()
            if body and len(text) - len(body) <= indent:
                regions.append((index.line_start(first), index.line_start(row)))
                break
    return regions


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
        defs[name.start_byte] = _DefCapture(kind, name, node, node, first_doc, pattern)
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


def _resolve_defs(lang: Language, captures: dict[int, _DefCapture], data: bytes,
                  index: LineIndex) -> tuple[list[Definition], set[int]]:
    """Nest, classify, qualify and number the definitions; demoted ones stay references.

    Returns the definitions and the start bytes of their names.
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
    names: set[int] = set()
    new_index: dict[int, int] = {}
    seen_vars: set[tuple[int, str]] = set()
    key_counts: dict[str, int] = {}
    for i, cap in enumerate(ordered):
        ancestor = parents[i]
        while ancestor >= 0 and ancestor not in new_index:
            ancestor = parents[ancestor]  # the nearest ancestor that stayed a node
        parent = new_index[ancestor] if ancestor >= 0 else -1
        parent_def = kept[parent] if parent >= 0 else None
        kind = cap.kind
        name = _text(cap.name, data)
        if kind in _VARIABLE_KINDS:
            if parent_def is not None and parent_def.kind in lang.scopes:
                continue  # a local binding, not a map node
            if (parent, name) in seen_vars:
                continue  # a re-assignment: the first one is the node
            seen_vars.add((parent, name))
            if parent_def is not None and parent_def.kind in lang.containers and kind == "variable":
                kind = "field"
        elif kind == "function" and parent_def is not None and parent_def.kind in lang.containers:
            kind = "method"
        qname = f"{parent_def.qname}.{name}" if parent_def is not None else name
        count = key_counts.get(qname, 0) + 1
        key_counts[qname] = count
        outer, name_node = cap.outer, cap.name
        srow, scol = outer.start_point
        erow, ecol = outer.end_point
        nrow, ncol = name_node.start_point
        name_col = index.col(nrow, ncol)
        doc = (_doc_line(_text(cap.doc, data)) if cap.doc is not None
               else _comment_doc(lang, outer, data))
        new_index[i] = len(kept)
        names.add(name_node.start_byte)
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
    return kept, names


def _signature(node: Any, data: bytes, comments: frozenset[str]) -> str:
    """The definition's head: up to its body, without comments; else its first line."""
    body = node.child_by_field_name("body")
    if body is None:
        head = data[node.start_byte : node.end_byte].split(b"\n", 1)[0]
    else:
        end = node.start_byte
        for child in node.children:
            if child.start_byte >= body.start_byte or child.is_error:
                break
            if child.type not in comments:
                end = child.end_byte
        head = data[node.start_byte : end]
    text = " ".join(head.decode("utf-8", "replace").split()).rstrip(":{ ")
    return text if len(text) <= _MAX_SIGNATURE else text[: _MAX_SIGNATURE - 1] + "…"


def _doc_line(text: str) -> str | None:
    for raw in text.strip().splitlines():
        line = _DOC_SUFFIX.sub("", _DOC_PREFIX.sub("", raw.strip())).strip()
        if line:
            return line if len(line) <= _MAX_DOC else line[: _MAX_DOC - 1] + "…"
    return None


def _comment_doc(lang: Language, node: Any, data: bytes) -> str | None:
    """The comment block ending on the line above ``node``, if the language has comments."""
    if not lang.comments:
        return None
    block: list[Any] = []
    line = node.start_point[0]
    sibling = node.prev_sibling
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


def _scope_finder(defs: list[Definition]) -> Any:
    """A function mapping byte offsets, visited in increasing order, to the innermost def."""
    stack: list[int] = []
    position = 0

    def scope(offset: int) -> int:
        nonlocal position
        while position < len(defs) and defs[position].start_byte <= offset:
            while stack and defs[stack[-1]].end_byte <= defs[position].start_byte:
                stack.pop()
            stack.append(position)
            position += 1
        while stack and defs[stack[-1]].end_byte <= offset:
            stack.pop()
        return stack[-1] if stack else -1

    return scope


def _collect_refs(identifiers: list[Any], specific: dict[int, tuple[int, str, Any, Any]],
                  defs: list[Definition], names: set[int], *, index: LineIndex,
                  data: bytes) -> list[RefRow]:
    """Every identifier that does not name a node, with the most specific kind captured.

    ``names`` holds the start bytes of the nodes' own names. The hot loop of indexing: one
    pass in document order, with the innermost enclosing definition tracked by a stack.
    """
    items: list[tuple[int, Any, str, Any]] = []
    append_item = items.append
    pop = specific.pop
    for node in identifiers:
        start = node.start_byte
        if start in names:
            continue
        found = pop(start, None)
        if found is None:
            append_item((start, node, "name", None))
        else:
            append_item((start, node, found[1], found[3]))
    # Captures on nodes that are not identifiers (strings in ``__all__`` …).
    items.extend((start, node, kind, qual) for start, (_, kind, node, qual) in specific.items()
                 if start not in names)
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
    for start, node, kind, qualifier_node in items:
        while position < count and starts[position] <= start:
            while stack and ends[stack[-1]] <= starts[position]:
                stack.pop()
            stack.append(position)
            position += 1
        while stack and ends[stack[-1]] <= start:
            stack.pop()
        raw = data[start : node.end_byte]
        row, byte_col = node.start_point
        if ascii_text:
            name = raw.decode("ascii")
            col = byte_col + 1
        else:
            name = raw.decode("utf-8", "replace")
            col = col_of(row, byte_col)
        qualifier = None
        if qualifier_node is not None:
            qualifier = data[qualifier_node.start_byte : qualifier_node.end_byte].decode(
                "utf-8", "replace")
            if len(qualifier) > _MAX_QUALIFIER or not _DOTTED.fullmatch(qualifier):
                qualifier = "*"  # an expression, not a dotted name
        append((name, kind, row + 1, col, stack[-1] if stack else -1, qualifier))
    return rows


def _collect_imports(matches: list[dict[str, list[Any]]], defs: list[Definition],
                     index: LineIndex, data: bytes) -> list[Import]:
    bindings = []
    for caps in matches:
        module = caps.get("import.module")
        if not module:
            continue
        name = caps.get("import.name")
        alias = caps.get("import.alias")
        site = (alias or name or module)[0]
        bindings.append((site.start_byte, module[0], name, alias, "import.wildcard" in caps, site))
    bindings.sort(key=lambda b: b[0])
    scope = _scope_finder(defs)
    out = []
    for start, module, name, alias, wildcard, site in bindings:
        row, byte_col = site.start_point
        out.append(Import(
            module="".join(_text(module, data).split()),
            name=_text(name[0], data) if name else None,
            alias=_text(alias[0], data) if alias else None,
            wildcard=wildcard,
            line=row + 1,
            col=index.col(row, byte_col),
            scope=scope(start),
        ))
    return out


def _problems(root: Any, index: LineIndex) -> tuple[int, list[Problem]]:
    """Syntax errors: ERROR and MISSING nodes, visiting only subtrees that contain errors."""
    found: list[Problem] = []
    count = 0
    stack = [root]
    while stack:
        node = stack.pop()
        if node.is_error or node.is_missing:
            count += 1
            if len(found) < _MAX_PROBLEMS:
                srow, scol = node.start_point
                erow, ecol = node.end_point
                message = f"missing {node.type}" if node.is_missing else "syntax error"
                found.append(Problem(srow + 1, index.col(srow, scol), erow + 1,
                                     index.col(erow, ecol), message))
            if node.is_error:
                continue
        if node.has_error:
            stack.extend(reversed(node.children))
    found.sort()
    return count, found
