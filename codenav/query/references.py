"""A definition's references as one page, from the map, a language server, or both.

The map counts a symbol's references per file in SQL and reads them row by row only for the
files of the page asked for (``offset``, ``room``). A language server's references are merged
with the map's, not picked over them: every reference either knows is on the page, each with
its provenance — a reference the map matched by name alone (its receiver's type unknown) is
marked ``name``; one only the map has while a server answered for the symbol is marked
``map`` (the server did not confirm it: a file outside its project, or not a use after all).
What the server alone reports needs no mark: it is a use by the types.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from codenav.index.languages import by_code, languages
from codenav.model import CALLABLE_KINDS, TYPE_KINDS
from codenav.query.fresh import Freshness
from codenav.query.imports import (
    MODULE_EXTENSIONS,
    import_statements,
    names_module,
    without_extension,
)
from codenav.query.live import ServerPlace
from codenav.query.locate import (
    GUESSED,
    MAP_ONLY,
    MAP_UNSEEN,
    MAP_UNSEEN_FILES,
    MEMBER_KINDS,
    MODULE,
    FileFilter,
    aliases_of,
    constructed,
    constructors,
    declarations_of,
    family,
    scope_names,
)
from codenav.query.receivers import Outside
from codenav.query.source import Lines, excerpt
from codenav.query.text import TextHit, TextPage, reads_text
from codenav.store.read import MapReader, NameUse, Node
from codenav.words import word_pattern

__all__ = [
    "GUESSED",
    "MAP_ONLY",
    "MAP_UNSEEN",
    "MAP_UNSEEN_FILES",
    "MAX_PLACES",
    "MAX_UNRESOLVED",
    "MAX_UNRESOLVED_LINES",
    "FileReferences",
    "OtherUses",
    "Reference",
    "ReferencePage",
    "TextCheck",
    "definitions_of",
    "family_langs",
    "map_references",
    "merged_references",
    "module_references",
    "module_stem",
    "other_imports",
    "other_uses",
    "own_places",
    "receiver_origins",
    "server_listed",
    "server_references",
    "text_check",
]


# The languages whose macros are text the preprocessor pastes (their bodies parsed again:
# ``reparse`` in language.toml): a use of such a macro is a use of what its body names, as a
# compiler's references are (at the expansion). A Rust macro's body names what it names once.
EXPANDING = tuple(lang.code for lang in languages() if lang.reparse)

# A reference while a page is assembled: (line, col, kind, scope id, name, mark).
_Row = tuple[int, int, str, int | None, str, str | None]


@dataclass(frozen=True, slots=True)
class Reference:
    """One use: where (1-based line, UTF-16 column), its kind (``call``, ``attribute``,
    ``import`` …; ``reference`` for a server's use the map does not have), what encloses it
    (a qualified name, ``MODULE`` at the top level), the name as written, its code line, and
    its mark (None: confirmed)."""

    line: int
    col: int
    kind: str
    scope: str
    name: str
    code: str | None
    mark: str | None = None


@dataclass(frozen=True, slots=True)
class FileReferences:
    path: str
    refs: tuple[Reference, ...]
    stale: bool = False  # the file changed since it was indexed: its lines may have moved


@dataclass(frozen=True, slots=True)
class ReferencePage:
    """A page of one definition's references: files by how many they hold, then path."""

    node: Node | None  # None: a server's answer about a name the map does not define
    name: str
    total: int
    files: int
    offset: int
    shown: tuple[FileReferences, ...]
    source: str  # map, lsp, lsp+map
    marks: Mapping[str, int] = field(default_factory=dict)  # of the total, per mark
    external: int = 0  # a server's references outside the root (not listed)
    unsearched: int = 0  # source lsp: files the map has references in the server left out
    aliases: frozenset[str] = frozenset()  # the node's other names (``aliases_of``)

    def count(self) -> int:
        """References on this page."""
        return sum(len(f.refs) for f in self.shown)

    def places(self) -> set[tuple[str, int]]:
        """(path, line) of the references on this page."""
        return {(f.path, ref.line) for f in self.shown for ref in f.refs}


def _page(counts: Mapping[str, int], offset: int, room: int) -> list[tuple[str, int, int]]:
    """(path, skip, take) of each file on a page: files by count then path, the first
    ``offset`` references skipped, at most ``room`` taken."""
    out = []
    for path in sorted(counts, key=lambda p: (-counts[p], p)):
        if room <= 0:
            break
        if offset >= counts[path]:
            offset -= counts[path]
            continue
        take = min(counts[path] - offset, room)
        out.append((path, offset, take))
        room -= take
        offset = 0
    return out


@dataclass
class _MapSide:
    """What the map knows of a definition's references, before any is read row by row."""

    counts: Counter[str]
    declared: dict[str, list[_Row]]
    members: list[int]
    calls_of: int | None


def _map_side(reader: MapReader, node: Node, declaration: bool, files: FileFilter) -> _MapSide:
    """Per-file counts of one definition's references (counted in SQL), the other
    declarations to list with them, and what ``uses_in`` needs to read them."""
    declarations = declarations_of(reader, node, family=False)
    members = [member.id for member in declarations] + constructors(reader, node) + \
        [alias.id for alias in aliases_of(reader, node)]  # (their lines: uses of the node)
    calls_of = constructed(node)
    declared: dict[str, list[_Row]] = defaultdict(list)  # other declarations (a setter …)
    for other in declarations:
        if declaration and files(other.path):  # (a setter, an overload: no use)
            declared[other.path].append((other.name_line, other.name_col, "declaration",
                                         other.parent_id, other.name, None))
    counts = Counter({path: count for path, count in
                      reader.uses_per_file(members, calls_of, declaration, False,
                                           EXPANDING).items()
                      if files(path)})
    if declared:  # a declaration on a line with a use is one row (`static make(): Foo`)
        used = {(hit.path, hit.line) for hit in reader.uses_in(
            members, calls_of, sorted(declared), declaration, False, EXPANDING)}
        for path, rows in declared.items():
            counts[path] += len({row[0] for row in rows} - {line for at, line in used
                                                             if at == path})
    return _MapSide(counts, declared, members, calls_of)


def _map_rows(reader: MapReader, side: _MapSide, paths: list[str],
              declaration: bool) -> dict[str, dict[tuple[int, int], _Row]]:
    """The map's references in ``paths``, by position (guesses marked)."""
    found: dict[str, dict[tuple[int, int], _Row]] = {
        path: {(r[0], r[1]): r for r in side.declared.get(path, ())} for path in paths}
    for hit in reader.uses_in(side.members, side.calls_of, paths, declaration, False,
                              EXPANDING):
        found[hit.path].setdefault((hit.line, hit.col), (
            hit.line, hit.col, hit.kind, hit.scope_id, hit.name,
            GUESSED if hit.guessed else None))
    return found


def map_references(reader: MapReader, lines: Lines, fresh: Freshness, node: Node, *,
                   files: FileFilter, declaration: bool, offset: int, room: int) -> ReferencePage:
    """The map's page of ``node``'s references: ``offset`` skipped, at most ``room`` read."""
    side = _map_side(reader, node, declaration, files)
    page = _page(side.counts, offset, room)
    found = _map_rows(reader, side, [path for path, _, _ in page], declaration)
    shown = [(path, _one_a_line(found[path].values())[skip: skip + take])
             for path, skip, take in page]
    guessed = len({(path, line) for path, line, _ in reader.guessed_positions(side.members)
                   if files(path)}) if side.members else 0
    return _assemble(reader, lines, fresh, node, node.name, sum(side.counts.values()),
                     len(side.counts), offset, shown, "map",
                     {GUESSED: guessed} if guessed else {})


# The most unresolved uses an answer lists row by row with their code; beyond them it lists
# them by receiver and line (`set.add: 13,14,20`), up to ``MAX_UNRESOLVED_LINES``; beyond
# those (a common name: `get`), it counts them, and a fileFilter lists those of a folder.
MAX_UNRESOLVED = 12
MAX_UNRESOLVED_LINES = 600
MAX_UNRESOLVED_IMPORTS = 40  # files (and lines in each) of imports the map cannot find

# Unresolved uses of one file by receiver as written, with their lines (`set.add`, (13, 14)).
ReceiverLines = tuple[str, tuple[tuple[str, tuple[int, ...]], ...]]


@dataclass(frozen=True, slots=True)
class OtherUses:
    """The uses of a definition's name in code that an answer does not list: ``unresolved``
    (the map could not tell what they mean, or only guessed it: a receiver of unknown type)
    and ``elsewhere`` (they mean another definition so named). ``rows``: the unresolved
    ones by file, with their code (at most ``MAX_UNRESOLVED``), for the caller to judge."""

    name: str
    unresolved: int
    elsewhere: int
    kind: str | None = None  # of these uses only: "call", "inheritance"
    rows: tuple[FileReferences, ...] = ()
    outside: tuple[str, ...] = ()  # what ``elsewhere`` belongs to: types outside the map, or
    # (imports) "path (the module it imports)"
    outside_at: frozenset[tuple[str, int]] = frozenset()  # (path, line) of uses decided another's
    # (imports: of another module so named)
    by_receiver: tuple[ReceiverLines, ...] = ()  # instead of ``rows``, when they are many
    # where the unresolved uses' receivers are bound, by file: (name, line, code)
    receivers: tuple[tuple[str, tuple[tuple[str, int, str], ...]], ...] = ()

    def places(self) -> set[tuple[str, int]]:
        """(path, line) of the unresolved uses listed."""
        return {(refs.path, ref.line) for refs in self.rows for ref in refs.refs} | \
            {(path, line) for path, receivers in self.by_receiver
             for _, lines in receivers for line in lines}


def family_langs(node: Node) -> list[str]:
    """The languages whose files may use ``node`` (a Python method is not called from
    JavaScript; TypeScript's are JavaScript's too)."""
    own = family(node.lang)
    return [lang.code for lang in languages() if family(lang.code) == own]


def definitions_of(reader: MapReader, nodes: Collection[Node]) -> list[int]:
    """The ids a use of one of ``nodes`` links to: every declaration of each (a property's
    setter, an overload), the constructors a class's calls reach, and the other names it has
    (``aliases_of``)."""
    return [other.id for node in nodes for other in declarations_of(reader, node, False)] + \
        [ctor for node in nodes for ctor in constructors(reader, node)] + \
        [alias.id for node in nodes for alias in aliases_of(reader, node)]



def other_uses(reader: MapReader, lines: Lines, nodes: Collection[Node], files: FileFilter,
               listed: Collection[tuple[str, int]] = (), kind: str | None = None
               ) -> OtherUses:
    """What an answer about the references of ``nodes`` (one name's definitions; calls,
    subtypes: uses of ``kind``) leaves out of the uses of their name: the text check an
    agent would run, from the map's rows (no comments or strings), the unresolved ones
    listed."""
    name = next(iter(nodes)).name
    targets = definitions_of(reader, nodes)
    elsewhere: set[tuple[str, int]] = set()  # lines of uses that are another's
    unresolved: list[NameUse] = []
    outside, owners = Outside(reader), Counter[str]()
    outside_at: set[tuple[str, int]] = set()
    langs = family_langs(next(iter(nodes)))
    classes = _explicit_receiver_classes(reader, nodes)
    for hit in reader.name_uses(name, targets, kind, langs):
        if not files(hit.path) or (hit.path, hit.line) in listed:
            continue
        if classes and hit.qualifier is None and hit.scope_id not in classes and \
                hit.kind in ("call", "name"):
            elsewhere.add((hit.path, hit.line))  # `set(…)`: no method's bare name here
            outside_at.add((hit.path, hit.line))
            continue
        owner = outside(hit.key) if hit.target_id is None and not hit.guessed else None
        if owner is not None:  # `d.get(k)` on a dict: a member of a type outside the map
            owners[owner] += 1
            outside_at.add((hit.path, hit.line))
            elsewhere.add((hit.path, hit.line))
        elif hit.target_id is None or hit.guessed:  # a guess for another one tells nothing
            unresolved.append(hit)
        else:
            elsewhere.add((hit.path, hit.line))
    shown: dict[str, dict[int, _Row]] = defaultdict(dict)  # one row a line
    for hit in unresolved:
        shown[hit.path].setdefault(hit.line, (hit.line, hit.col, hit.kind, hit.scope_id,
                                              hit.name, None))
    count = sum(len(by_line) for by_line in shown.values())
    rows = _rows(reader, lines, [(path, list(by_line.values()))
                                 for path, by_line in shown.items()]) \
        if count <= MAX_UNRESOLVED else ()
    by_receiver = _by_receiver(unresolved) \
        if MAX_UNRESOLVED < count <= MAX_UNRESOLVED_LINES else ()
    unresolved_at = {(path, line) for path, by_line in shown.items() for line in by_line}
    return OtherUses(name, count, len(elsewhere - unresolved_at), kind, rows,
                     tuple(owner for owner, _ in owners.most_common()), frozenset(outside_at),
                     by_receiver, receiver_origins(reader, lines, unresolved)
                     if rows and reads_text(next(iter(nodes)).lang) else ())


# Receivers the reader knows without a binding line; the lines looked up above a use for one.
_SELF_NAMES = frozenset({"self", "cls", "this", "super"})
_ORIGIN_SPAN = 150
_ORIGIN_LINE = 400  # characters of a line read for a binding (a longer one is skipped)
MAX_ORIGINS = 12  # receivers' binding lines one answer shows


def receiver_origins(reader: MapReader, lines: Lines, uses: Sequence[NameUse]
                     ) -> tuple[tuple[str, tuple[tuple[str, int, str], ...]], ...]:
    """Where the receivers of unresolved ``uses`` written as a plain name (``ctx.throw(…)``)
    are bound: the nearest line above a use, within the function or class around it, that
    declares, assigns or takes the name as a parameter (``router.get("/", async (ctx) =>
    {``, ``for page in pages:``), or the use's own line before it (``[p.x for p in ps]``),
    by the file's text (not the use's own line's assignment, ``q = q.f(…)``: the one above,
    with its next line when it opens a bracket there, ``q = (``) — what an agent reads next
    to judge an unknown receiver (run 34:
    oak's `ctx.throw` rows took 5 calls of line ranges); none found, the header of the
    function around it. By file, each (name, line) once, at most ``MAX_ORIGINS`` (Python,
    JavaScript and TypeScript: their bindings read so)."""
    scopes = reader.nodes_by_id({use.scope_id for use in uses})
    found: dict[str, dict[tuple[str, int], str]] = {}
    count = 0
    for use in uses:
        name = use.qualifier or ""
        if count >= MAX_ORIGINS or not _PLAIN_NAME.fullmatch(name) or name in _SELF_NAMES:
            continue
        text = lines.all(use.path)
        scope = scopes.get(use.scope_id)
        # a function or class bounds the search; a variable (pdf-lib's `const page1 =
        # pdfDoc1.addPage()` in an anonymous `(async () => {…})()`, run 59) or the module not
        bounded = scope is not None and (scope.kind in CALLABLE_KINDS or scope.kind in TYPE_KINDS)
        first = scope.line if scope is not None and bounded else max(1, use.line - _ORIGIN_SPAN)
        binding = _binding(name)
        at: tuple[int, str] | None = None
        for number in range(min(use.line, len(text)), max(0, first - 1), -1):
            code = text[number - 1]
            if number == use.line:  # (before the use only)
                code = code[: max(0, use.col - 1)]
            if len(code) > _ORIGIN_LINE:
                continue
            bound = binding.search(code)
            if bound is not None and number == use.line and _assigned(name).search(code):
                continue  # `q = q.replace_table(…)`: the use reads the binding above
            if bound is not None:
                at = number, _continued(text, number, bound.start())
                break
        if at is None:  # an imported name (rot.js's `RNG`, run 49: the header had been shown)
            imported = _imported(name)
            for number in range(1, min(first, len(text) + 1)):
                code = text[number - 1]
                if len(code) <= _ORIGIN_LINE and imported.search(code):
                    at = number, excerpt(code)
                    break
        if at is None and scope is not None and bounded and 0 < scope.line <= len(text):
            at = scope.line, excerpt(text[scope.line - 1])  # (a parameter it did not read)
        if at is not None:
            seen = found.setdefault(use.path, {})
            if (name, at[0]) not in seen:
                seen[(name, at[0])] = at[1]
                count += 1
    return tuple((path, tuple((name, line, code) for (name, line), code in by.items()))
                 for path, by in found.items())


_PLAIN_NAME = re.compile(r"[A-Za-z_$][\w$]*")


def _imported(name: str) -> re.Pattern[str]:
    """An import line binding ``name`` (``import RNG from "./rng"``, ``import { a as RNG }``,
    ``from m import RNG``, ``const RNG = require(…)``)."""
    n = re.escape(name)
    return re.compile(rf"^\s*(?:import\b.*(?<![\w$.]){n}\b|from\s+\S+\s+import\b.*\b{n}\b"
                      rf"|(?:const|let|var)\s+{n}\s*=\s*require\()")


def _continued(text: Sequence[str], number: int, at: int) -> str:
    """Line ``number`` as shown, with the next when it opens a bracket it does not close
    (``q = (`` above ``Query.from_(t)``: what makes the value)."""
    code = text[number - 1].rstrip()
    if code.endswith(("(", "[", "\\")) and number < len(text) and text[number].strip():
        return excerpt(f"{code} {text[number].strip()}", at)
    return excerpt(code, at)


def _assignment(n: str) -> str:
    """The pattern of an assignment to the escaped name ``n`` (``q = …``, ``q: T = …``), not
    a comparison or an arrow."""
    return rf"(?<![\w$.]){n}\s*(?::\s*[^=;,)]+)?\s*=(?![=>])"


def _assigned(name: str) -> re.Pattern[str]:
    """A line assigning ``name``."""
    return re.compile(_assignment(re.escape(name)))


def _binding(name: str) -> re.Pattern[str]:
    """A line binding ``name``: a declaration (``let``/``const``/``var``, destructuring), an
    assignment or annotation, a loop variable, an ``as`` target, or a parameter of a function
    header on that line (``def f(…, name``, ``(name) =>``, ``function (name``, ``m(name: T) {``
    — not an argument of a call: ``env.process(child(env, event))`` binds nothing)."""
    n = re.escape(name)
    parameter = rf"[(,]\s*(?:\.\.\.|\*{{1,2}})?(?:\w+\s+)?{n}\s*\??\s*(?:[,):=]|$)"
    return re.compile(
        rf"\b(?:let|const|var)\s+(?:{n}\b|[{{\[][^}}\]]*\b{n}\b)"
        rf"|{_assignment(n)}"
        rf"|(?<![\w$.]){n}\s*=>"
        rf"|\bfor\s*\(?\s*(?:const|let|var)?\s*{n}\b"
        rf"|\bas\s+{n}\b"
        rf"|^(?=.*(?:\bdef\s|\bfunction\b|\blambda\b|=>|^\s*(?!(?:if|while|for|switch|catch)\b)"
        rf"(?:async\s+)?[\w$#]+\s*\(.*\)\s*(?::[^={{]+)?\{{\s*$)).*{parameter}"
        rf"|^\s*(?:\.\.\.)?{n}\s*\??\s*(?::[^=,]+)?(?:=[^,]*)?,?\s*$")  # alone on its line


def _explicit_receiver_classes(reader: MapReader, nodes: Collection[Node]) -> set[int]:
    """The classes whose members ``nodes`` are, when their language names a member only
    through a receiver (``self.set(…)``; Python, JavaScript — not Java's implicit ``this``):
    a bare name outside those classes' bodies is never one of them. Empty otherwise."""
    out: set[int] = set()
    for node in nodes:
        lang = by_code(node.lang)
        parent = reader.node_by_id(node.parent_id) if node.parent_id is not None else None
        if lang is None or lang.implicit_members or parent is None or \
                parent.kind not in TYPE_KINDS:
            return set()
        out.add(parent.id)
    return out


def _by_receiver(uses: Sequence[NameUse]) -> tuple[ReceiverLines, ...]:
    """Uses by file, then by what they are written on (``set.add``, a bare ``add``), with
    their lines in order, each line once."""
    files: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    for use in uses:
        # (`*`: an expression the map keeps no text of — `lines[i]`, `f(x)`: run 33's agent
        # could not read `*.strip`)
        qualifier = _UNNAMED_RECEIVERS.get(use.qualifier or "", use.qualifier)
        written = f"{qualifier}.{use.name}" if qualifier else use.name
        found = files[use.path][written]
        if not found or found[-1] != use.line:
            found.append(use.line)
    return tuple((path, tuple((written, tuple(found)) for written, found in receivers.items()))
                 for path, receivers in files.items())


_UNNAMED_RECEIVERS = {"*": "(expression)", "=": "(literal)"}


# Where a word is on lines of a file (``LiteralLines``): "comment", "string", "module" (an
# import's module path) or "code".
WordPlaces = Callable[[str, str, Collection[int]], Mapping[int, str]]

# The places a text check names per category (beyond them, it counts).
MAX_PLACES = 20
# The most lines a text check shows with their code (those neither listed nor unresolved),
# and the characters of each shown round the word.
MAX_SHOWN_LINES = 4
SHOWN_WIDTH = 72


@dataclass(frozen=True, slots=True)
class TextCheck:
    """The text search an agent runs after an answer, run for it and accounted for: the
    lines holding the name as a word (in the files of its language), how many the answer
    lists, and what each other one is — by category, with its places (``path``, ``line``):
    ``unresolved`` (listed under it), ``later`` (the definition's, on later pages),
    ``not <kind>`` (uses of the definition that are not calls or bases), ``other`` (uses of
    other definitions so named), ``declared`` (definitions, imports, exports of the name),
    ``no use`` (comments, strings, docs: no use of the name in code)."""

    name: str
    lines: int
    listed: int
    categories: tuple[tuple[str, int, tuple[tuple[str, int], ...]], ...]  # name, count, places
    partial: bool
    aliases: tuple[str, ...] = ()  # the names files import it under, searched there too
    # (path, line, category, code) of every line that is neither listed nor unresolved, when
    # they are few (MAX_SHOWN_LINES): the lines an agent would open to believe the count
    shown: tuple[tuple[str, int, str, str], ...] = ()
    aside: int = 0  # lines of the definition itself, not counted (it is no use of itself)
    # the other definitions so named the ``other`` lines use, most used first: (qualified
    # name, lines) — which namesakes they are, what an agent greps them to learn
    others: tuple[tuple[str, int], ...] = ()
    importable: bool = False  # a module's own name another file could import under another


def text_check(reader: MapReader, nodes: Collection[Node], found: TextPage,
               listed: Collection[tuple[str, int]],
               unresolved: Collection[tuple[str, int]], kind: str | None = None,
               outside: Collection[tuple[str, int]] = (),
               aliases: Sequence[tuple[str, TextPage]] = (),
               places: WordPlaces | None = None) -> TextCheck:
    """Account for every line of ``found`` (``text_search`` of the nodes' name as a word)
    and of ``aliases`` (the names files import them under, searched in those files):
    listed by the answer, unresolved, or why not a use of the nodes (of ``kind``);
    ``outside``: lines of uses ``other_uses`` decided are another's; ``places`` tells, from
    a file's parse, whether a line naming no definition has the word in a comment, a string
    or code (else the line's own text tells, as far as it can)."""
    name = next(iter(nodes)).name
    ours = set(definitions_of(reader, nodes))
    listed, unresolved, outside = set(listed), set(unresolved), set(outside)
    buckets: dict[str, list[tuple[str, int]]] = defaultdict(list)
    seen: set[tuple[str, int]] = set()
    unused: dict[tuple[str, str], list[TextHit]] = defaultdict(list)  # by file and word
    namesakes: Counter[int] = Counter()  # the other definitions "other" lines use: lines
    shown = beyond = 0
    partial = False
    code_at: dict[tuple[str, int], str] = {}
    own = {(node.path, node.name_line) for node in nodes}  # (the definition: no news)
    for word, page in ((name, found), *aliases):
        at = _refs_at(reader, word, {hit.path for hit in page.hits})
        pattern = word_pattern(word)
        beyond += page.total - len(page.hits)
        partial = partial or page.partial
        for hit in page.hits:
            place = (hit.path, hit.line)
            if place in seen:
                continue
            seen.add(place)
            if place in own and place not in listed:
                continue  # its own line, set aside
            found_at = pattern.search(hit.code)
            code_at[place] = excerpt(hit.code, found_at.start() if found_at else None,
                                     SHOWN_WIDTH)
            refs = at.get(place, [])
            if place in listed or (kind is not None and any(
                    target in ours and ref_kind == kind for ref_kind, target in refs)):
                shown += 1  # (a base named on a line after its `class` line is listed too)
            else:
                category = _unlisted_kind(place, refs, ours, kind, unresolved, outside)
                if category == "no use":
                    unused[(hit.path, word)].append(hit)
                else:
                    buckets[category].append(place)
                if category == "other":
                    target = next((target for _, target in refs if target is not None), None)
                    if target is not None:
                        namesakes[target] += 1
    for (path, word), hits in unused.items():
        parsed = places(path, word, [hit.line for hit in hits]) if places else {}
        for hit in hits:
            where = parsed.get(hit.line)
            category = _no_use(hit.code, word, hit.path) if where is None else \
                "no use" if where == "code" else where
            buckets[category].append((hit.path, hit.line))
    for bucket in buckets.values():
        bucket.sort()
    order = ("unresolved", "unattributed", "later", f"not {kind}", "other", "declared",
             "module", "comment", "string", "no use")
    categories = tuple((category, len(buckets[category]),
                        tuple(buckets[category][:MAX_PLACES]))
                       for category in order if buckets.get(category))
    others = sorted((*place, category) for category, bucket in buckets.items()
                    if category not in ("unresolved", "later") for place in bucket)
    partial = partial or beyond > 0
    lines = tuple((path, line, category, code_at[(path, line)])
                  for path, line, category in others) \
        if len(others) <= MAX_SHOWN_LINES and not partial else ()
    aside = len(own & seen - set(listed))
    named = reader.nodes_by_id(namesakes)
    by_name: Counter[str] = Counter()
    for target, count in namesakes.items():
        if target in named:
            by_name[named[target].qname] += count
    return TextCheck(name, len(seen) - aside + beyond, shown, categories, partial,
                     tuple(alias for alias, _ in aliases), lines, aside,
                     tuple(sorted(by_name.items(), key=lambda item: (-item[1], item[0]))))


def _refs_at(reader: MapReader, name: str, paths: set[str]
             ) -> dict[tuple[str, int], list[tuple[str, int | None]]]:
    """(kind, target) of the map's references and definitions named ``name``, by line."""
    at: dict[tuple[str, int], list[tuple[str, int | None]]] = defaultdict(list)
    for path, line, ref_kind, target in reader.name_lines(name, sorted(paths)):
        at[(path, line)].append((ref_kind, target))
    for other in reader.nodes_named(name, limit=5_000):  # definitions are nodes, not refs
        if other.path in paths:
            at[(other.path, other.name_line)].append(("declaration", other.id))
    return at


def _unlisted_kind(place: tuple[str, int], refs: list[tuple[str, int | None]], ours: set[int],
                   kind: str | None, unresolved: set[tuple[str, int]],
                   outside: set[tuple[str, int]]) -> str:
    """Why a line holding the word is not listed: its text check category."""
    if place in unresolved:
        return "unresolved"
    if place in outside:  # `this._map.get(k)`: Map's
        return "other"
    if any(target in ours and ref_kind not in _DECLARING for ref_kind, target in refs):
        return f"not {kind}" if kind else "later"  # paged out
    if any(ref_kind in _DECLARING for ref_kind, _ in refs):
        return "declared"
    if any(target is not None for _, target in refs):
        return "other"
    if refs:
        return "unattributed"  # a use of no known definition, not listed under unresolved
    return "no use"


# Languages whose line comments start with `#` (and not `//`); the others' are C's.
_HASH_COMMENTS = (".py", ".pyi", ".rb", ".sh", ".pl", ".r", ".R")
_BOTH_COMMENTS = (".php",)


def _no_use(code: str, word: str, path: str = "") -> str:
    """What a line holding the word but no use of it is, as far as its text tells: a
    ``comment`` (it starts as one in its language, or the word follows a comment's start),
    a ``string`` (every occurrence is between quotes), else ``no use`` (a local or keyword
    name, a docstring's line)."""
    hashes = path.endswith(_HASH_COMMENTS + _BOTH_COMMENTS)
    slashes = not path.endswith(_HASH_COMMENTS)
    line = code.lstrip()
    if (hashes and line.startswith("#")) or (slashes and (
            line.startswith(("//", "/*", "*/")) or line == "*" or line.startswith("* "))):
        return "comment"  # (`*p = 1` and Python's `*rest, last = xs` are code)
    found = [_context(code[: match.start()], hashes, slashes) for match in
             word_pattern(word).finditer(code)]
    if found and all(where == "comment" for where in found):
        return "comment"
    if found and all(where in ("string", "comment") for where in found):
        return "string"
    return "no use"


def _context(before: str, hashes: bool = True, slashes: bool = True) -> str:
    """Where text that follows ``before`` on its line is: in a ``string`` literal, a
    ``comment`` (after ``#`` or ``//`` outside strings, as the language writes them), or
    ``code``."""
    quote = None
    escaped = False
    for i, char in enumerate(before):
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif quote is None and char in "\"'`":
            quote = char
        elif char == quote:
            quote = None
        elif quote is None and ((hashes and char == "#" and (i == 0 or before[i - 1].isspace()))
                                or (slashes and before.startswith("//", i))):
            return "comment"
    return "string" if quote is not None else "code"


_DECLARING = frozenset({"declaration", "import", "export"})


def other_imports(reader: MapReader, lines: Lines, module: Node,
                  listed: Collection[str]) -> OtherUses:
    """What an answer listing the files that import ``module`` (``listed``) leaves out of the
    import statements written with its name (``from ..storage import x``, ``import
    pkg.storage``): ``unresolved`` (the map found no module for them; listed) and
    ``elsewhere`` (another module so named)."""
    stem = module_stem(module.path)
    by_file: dict[str, dict[int, _Row]] = defaultdict(dict)  # one row a line
    elsewhere: dict[str, str] = {}  # path -> the module it imports instead
    elsewhere_at: set[tuple[str, int]] = set()
    for path, line, col, scope, written, key in reader.imports_written(stem):
        if path == module.path or path in listed:
            continue
        bare = without_extension(written.strip("'\"").rstrip("/"))
        bare = bare.removesuffix("/index")  # `./storage/index.js`: the folder's module
        if re.split(r"[./\\]", bare)[-1] != stem and written.strip(".") not in ("", stem):
            continue  # `from x import stem_plus`: LIKE matched a longer name
        if key and key[:2] in ("P:", "I:") and not names_module(key, module.path) and \
                _module_found(reader, key):
            head = key[2:].split("|", 1)[0]
            dotted = key.startswith("I:") and "/" not in head  # `importlib.util`
            elsewhere.setdefault(path, head.replace("::", ".") if dotted
                                 else head.split("::", 1)[0])
            elsewhere_at.add((path, line))
        elif not key or not names_module(key, module.path):
            by_file[path].setdefault(line, (line, col, "import", scope, stem, None))
    rows = _rows(reader, lines, [(path, list(found.values())[:MAX_UNRESOLVED_IMPORTS])
                                 for path, found in by_file.items()][:MAX_UNRESOLVED_IMPORTS])
    return OtherUses(stem, len(by_file), len(elsewhere), "import", rows,
                     tuple(f"{path} ({other})" for path, other in sorted(elsewhere.items())),
                     frozenset(elsewhere_at))


def module_stem(path: str) -> str:
    """The name a module's imports are written with: its file's (``storage`` of
    ``pkg/storage.py``), or its folder's for a package's own file (``__init__``, ``index``,
    ``mod``)."""
    stem = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    if stem in ("__init__", "index", "mod"):
        stem = path.rsplit("/", 2)[-2] if "/" in path else stem
    return stem


_MODULE_FILES = ("", ".d.ts", *MODULE_EXTENSIONS, "/index.ts", "/index.js", "/__init__.py")


def _module_found(reader: MapReader, key: str) -> bool:
    """Whether an import's key names a module the map holds (``P:src/x`` → ``src/x.ts``, a
    dotted ``I:`` name is taken to: its file may be anywhere on a source root)."""
    if not key.startswith("P:"):
        return True
    base = without_extension(key[2:].split("|", 1)[0].split("::", 1)[0])
    return any(reader.file(base + ending) is not None for ending in _MODULE_FILES)


def module_references(reader: MapReader, lines: Lines, fresh: Freshness, node: Node, *,
                      files: FileFilter, offset: int, room: int) -> ReferencePage:
    """A module's references: the lines importing it (``import_statements``), by file."""
    per_file: dict[str, list[_Row]] = {}
    for site in import_statements(reader, node):
        if files(site.path):
            per_file.setdefault(site.path, []).append(
                (site.line, site.col, "import", site.scope_id, "", None))  # code kept
    counts = {path: len(rows) for path, rows in per_file.items()}
    page = _page(counts, offset, room)
    shown = [(path, per_file[path][skip: skip + take]) for path, skip, take in page]
    return _assemble(reader, lines, fresh, node, node.name, sum(counts.values()), len(counts),
                     offset, shown, "map", {})


def server_references(reader: MapReader, lines: Lines, fresh: Freshness, node: Node | None,
                      name: str, places: list[ServerPlace], *, files: FileFilter,
                      declaration: bool, offset: int, room: int) -> ReferencePage:
    """A language server's references alone (``source: 'lsp'``), shown like the map's (with
    the map's kind and enclosing definition where the map has that use too); ``unsearched``
    counts the files the map has references in and the server left out."""
    by_file, external = _server_rows(reader, places, files)
    unsearched = 0
    if node is not None:
        side = _map_side(reader, node, declaration, files)
        unsearched = sum(1 for path in side.counts if path not in by_file)
    lined = {path: _one_a_line(rows.values()) for path, rows in by_file.items()}
    counts = {path: len(rows) for path, rows in lined.items()}
    shown = [(path, lined[path][skip: skip + take])
             for path, skip, take in _page(counts, offset, room)]
    page = _assemble(reader, lines, fresh, node, name, sum(counts.values()), len(counts),
                     offset, shown, "lsp", {})
    return replace(page, external=external, unsearched=unsearched)


def merged_references(reader: MapReader, lines: Lines, fresh: Freshness, node: Node,
                      places: list[ServerPlace], *, files: FileFilter, declaration: bool,
                      offset: int, room: int) -> ReferencePage:
    """A language server's references and the map's, merged (``source: 'auto'``): every
    position either has, once; the map's alone marked ``map``, its guesses the server did
    not confirm ``name``."""
    server, external = _server_rows(reader, places, files, declaration,
                                    unsure=_answers_family(reader, node))
    side = _map_side(reader, node, declaration, files)
    both_files = sorted(set(server) & set(side.counts))
    mapped = _map_rows(reader, side, both_files, declaration)
    guessed_at = {(path, line) for path, line, _ in
                  (reader.guessed_positions(side.members) if side.members else ())}
    guessed_lines = Counter(path for path, _ in guessed_at)
    counts: dict[str, int] = {}
    merged: dict[str, list[_Row]] = {}
    marks: Counter[str] = Counter()
    bound: dict[str, set[str]] = defaultdict(set)  # the other names files import it under
    for path, alias in reader.names_bound([node.id], node.name):
        bound[path].add(alias)
    for path in set(server) | set(side.counts):
        theirs, ours = server.get(path, {}), mapped.get(path)
        if ours is None:  # one side only: counted without reading the other's rows
            if theirs:
                merged[path] = _one_a_line(theirs.values())
                counts[path] = len(merged[path])
                marks.update(row[5] for row in merged[path] if row[5] is not None)
            else:  # the map's alone (its guesses keep their mark)
                counts[path] = side.counts[path]
                marks[GUESSED] += guessed_lines[path]
                marks[MAP_ONLY] += side.counts[path] - guessed_lines[path]
                if side.counts[path] > guessed_lines[path]:
                    marks[MAP_UNSEEN] += side.counts[path] - guessed_lines[path]
                    marks[MAP_UNSEEN_FILES] += 1
            continue
        # a use through a name the file imports it as (`escape as escape_text`) is confirmed
        # by the server's report of that file's import: servers stop at the alias
        aliased = bound.get(path, set()) if any(row[2] == "import" for row in theirs.values()) \
            else set()
        rows = {pos: row if row[4] in aliased and row[5] is None
                else _confirm(row, theirs.get(pos)) for pos, row in ours.items()}
        for pos, row in theirs.items():
            rows.setdefault(pos, row)
        merged[path] = _one_a_line(rows.values())
        counts[path] = len(merged[path])
        marks.update(row[5] for row in merged[path] if row[5] is not None)
    page = _page(counts, offset, room)
    need = [path for path, _, _ in page if path not in merged]  # the map's alone
    for path, found in _map_rows(reader, side, need, declaration).items():
        merged[path] = _one_a_line(_only_mapped(row) for row in found.values())
    shown = [(path, merged[path][skip: skip + take]) for path, skip, take in page]
    page_out = _assemble(reader, lines, fresh, node, node.name, sum(counts.values()),
                         len(counts), offset, shown,
                         "lsp+map" if marks[MAP_ONLY] or marks[GUESSED] else "lsp",
                         {k: v for k, v in marks.items() if v})
    return replace(page_out, external=external)


def own_places(reader: MapReader, node: Node, places: list[ServerPlace]) -> list[ServerPlace]:
    """A server's references of ``node`` without those the map reads as uses or declarations
    of another member of its family — an override's or a base's (TypeScript's references
    take the whole family in: ``Heap.clone`` answered every ``clone`` of the classes around
    it, 45 rows for 9 calls on a Heap). A call through a base's type is the base's use."""
    others = _kin(reader, node)
    if not others:
        return places
    declared = {(other.path, other.name_line) for other in
                reader.nodes_by_id(others).values()}
    at = _MapAt(reader)
    out = []
    for where in places:
        if not where.external:
            hit = at.ref(where)
            if (hit is not None and hit[3] in others) or \
                    (hit is None and (where.path, where.line) in declared):
                continue
        out.append(where)
    return out


def _one_a_line(rows: Iterable[_Row]) -> list[_Row]:
    """Rows in order, one a line (`export {default as X}` names X twice): a line's first
    use, confirmed when any use on it is."""
    out: list[_Row] = []
    for row in sorted(rows, key=lambda row: row[:2]):
        if out and out[-1][0] == row[0]:
            if out[-1][5] is not None and row[5] is None:
                out[-1] = (*out[-1][:5], None)
            continue
        out.append(row)
    return out


def _confirm(ours: _Row, theirs: _Row | None) -> _Row:
    """The map's row of a position: a guess the server confirmed loses its mark; one the
    server did not report is the map's alone."""
    if theirs is not None:
        return (*ours[:5], None)
    return _only_mapped(ours)


def _only_mapped(row: _Row) -> _Row:
    return (*row[:5], row[5] or MAP_ONLY)


class _MapAt:
    """The map's reference where a server named a place (``ref_at``), each file's id read
    once for all of an answer's places."""

    def __init__(self, reader: MapReader) -> None:
        self.reader = reader
        self._ids: dict[str, int | None] = {}

    def file_id(self, path: str) -> int | None:
        if path not in self._ids:
            stat = self.reader.file(path)
            self._ids[path] = stat.id if stat is not None else None
        return self._ids[path]

    def ref(self, where: ServerPlace) -> tuple[str, str, int, int | None, str | None] | None:
        file_id = self.file_id(where.path)
        return None if file_id is None else self.reader.ref_at(file_id, where.line, where.col)

    def defines(self, where: ServerPlace) -> bool:
        """Whether the place is a definition's name (no use: qrcode's `@overload def
        make_image` lines, which basedpyright reports as references — run 59)."""
        file_id = self.file_id(where.path)
        return file_id is not None and self.reader.defines_at(file_id, where.line, where.col)


def server_listed(reader: MapReader, places: list[ServerPlace], files: FileFilter,
                  all_of_them: bool) -> set[tuple[str, int]]:
    """(path, line) of the server's references an answer lists, on any page: every one
    (``all_of_them``: the server's answer alone, or with the declarations), else without
    Python's ``__all__`` strings (``merged_references``)."""
    listed: set[tuple[str, int]] = set()
    at = _MapAt(reader)
    for where in places:
        if where.external or not files(where.path):
            continue
        if not all_of_them:
            hit = at.ref(where)
            if hit is not None and _all_entry(where.path, hit[1]):
                continue  # (a Python `__all__` string)
            if hit is None and at.defines(where):
                continue
        listed.add((where.path, where.line))
    return listed


def _all_entry(path: str, kind: str) -> bool:
    """Whether a use of that kind in that file is a Python ``__all__`` entry (an export in
    Python is nothing else): a name listed in a string, no use of it in code."""
    return kind == "export" and path.endswith((".py", ".pyi"))


def _answers_family(reader: MapReader, node: Node) -> bool:
    """Whether a server's references of ``node`` may be its whole family's: TypeScript's
    and JavaScript's take every override and implementation of a member in (a call of a
    sibling's ``execute`` on a receiver the map cannot type is one of them)."""
    return family(node.lang) == family("ts") and node.kind in MEMBER_KINDS and \
        bool(_kin(reader, node))


def _kin(reader: MapReader, node: Node) -> set[int]:
    """The ids of ``node``'s family that are not its own declarations: the members it
    overrides or implements and those overriding it."""
    own = {other.id for other in declarations_of(reader, node, family=False)}
    return {other.id for other in declarations_of(reader, node)} - own


def _server_rows(reader: MapReader, places: list[ServerPlace], files: FileFilter,
                 declaration: bool = True, unsure: bool = False
                 ) -> tuple[dict[str, dict[tuple[int, int], _Row]], int]:
    """A server's references by file and position, with the map's kind, name and enclosing
    node where the map has that use; and how many lie outside the root. Without
    ``declaration``, no Python ``__all__`` strings (names listed, not used: as the map's).
    ``unsure`` (the server answers a whole family: ``_answers_family``): a use the map saw
    but could not resolve is marked matched by name (its receiver may be a sibling's)."""
    by_file: dict[str, dict[tuple[int, int], _Row]] = defaultdict(dict)
    external = 0
    at = _MapAt(reader)
    for where in places:
        if where.external:
            external += 1
            continue
        if not files(where.path):
            continue
        file_id = at.file_id(where.path)
        hit = at.ref(where)
        scope = None
        if file_id is not None:
            around = reader.enclosing(file_id, where.line)
            scope = around.id if around is not None else None
        kind = hit[1] if hit else "declaration" if at.defines(where) else "reference"
        if not declaration and (_all_entry(where.path, kind) or kind == "declaration"):
            continue
        mark = GUESSED if unsure and hit is not None and hit[3] is None else None
        by_file[where.path][(where.line, where.col)] = (
            where.line, where.col, kind, scope, hit[0] if hit else "", mark)
    return dict(by_file), external


def _assemble(reader: MapReader, lines: Lines, fresh: Freshness, node: Node | None, name: str,
              total: int, files: int, offset: int, shown: list[tuple[str, list[_Row]]],
              source: str, marks: Mapping[str, int]) -> ReferencePage:
    """The page: enclosing definitions by name, code lines, stale files."""
    fresh.check({path for path, _ in shown})
    out = tuple(replace(found, stale=found.path in fresh.stale)
                for found in _rows(reader, lines, shown))
    # (an alias named like the node, stevedore's `get_group_all = _c.get_group_all`: its uses
    # read the same name, nothing to tell)
    aliases = frozenset(a.name for a in aliases_of(reader, node) if a.name != node.name) \
        if node is not None else frozenset()
    return ReferencePage(node, name, total, files, offset, out, source, dict(marks),
                         aliases=aliases)


def _rows(reader: MapReader, lines: Lines, shown: list[tuple[str, list[_Row]]]
          ) -> tuple[FileReferences, ...]:
    """Rows by file as references: their enclosing definitions by name, their code lines."""
    scopes = scope_names(reader, {row[3] for _, rows in shown for row in rows
                                  if row[3] is not None})
    return tuple(FileReferences(path, tuple(
        Reference(line, col, kind, scopes.get(scope, MODULE) if scope is not None else MODULE,
                  used, lines.line(path, line, col), mark)
        for line, col, kind, scope, used, mark in rows)) for path, rows in shown)
