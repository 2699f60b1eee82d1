"""The renderer: query results (``codenav/query``) as answers — data, cuts, tiers and the
words an agent reads. The only code that knows the row format (``rows.py`` writes and
parses rows; this module decides which row each item becomes), the cheaper renderings an
answer degrades through, and every warning's wording.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from posixpath import dirname
from typing import Any

from codenav.envelope import EVERY, Answer, Cut, Page, Tier
from codenav.query.checks import Diagnostic, Edit
from codenav.query.fresh import Freshness
from codenav.query.hierarchy import Call, Related, TypeEntry
from codenav.query.live import Fallback, ServerPlace
from codenav.query.locate import MODULE, Located
from codenav.query.outline import Entry
from codenav.query.references import (
    GUESSED,
    MAP_ONLY,
    MAP_UNSEEN,
    MAP_UNSEEN_FILES,
    MAX_PLACES,
    FileReferences,
    OtherUses,
    Reference,
    ReferencePage,
    TextCheck,
)
from codenav.query.source import Lines
from codenav.query.text import BaseLines, ImportLines, TextHit, TextPage
from codenav.store.read import Node
from codenav.tools.rows import (
    OUTSIDE_ROOT,
    Detail,
    Rendering,
    bare_signature,
    file_row,
    line_row,
    node_row,
    one_line,
    outline_row,
    place,
    ref_row,
    related_head,
    related_row,
)
from codenav.workspace import Workspace

__all__ = [
    "SERVER_INSTRUCTIONS",
    "anchor",
    "base_text_entries",
    "calls_grouped",
    "calls_rendered",
    "classless_bases_line",
    "deeper_types_warning",
    "diagnostic_row",
    "edit_rows",
    "fallback_notes",
    "freshness_warnings",
    "guessed_calls_warning",
    "hub",
    "import_text_entries",
    "listed",
    "map_hover",
    "mark_warnings",
    "more_warning",
    "outline_answer",
    "overload_rows",
    "overridden_warning",
    "references_answer",
    "references_cut",
    "references_section",
    "related",
    "relinking",
    "server_definition",
    "several_warning",
    "summary",
    "text_answer",
    "text_entries",
    "types_section",
    "unlisted",
    "unresolved_cuts",
]


# What the rows below look like, said once to an MCP client (the server's instructions).
SERVER_INSTRUCTIONS = """\
codenav answers questions about this repository's code from a map it keeps (definitions, \
references, imports), within a token budget: cheaper and more precise than grep and reading \
files.
Answers: {ok, data, tokenBudget:{used, requested?}, truncated?, dropped?, warnings?} (the \
last three only when they say something; requested when you set one). When truncated, \
dropped.note says what was cut and how to narrow; dropped.next is the call that continues \
after what was sent (send it as is). Errors: {ok:false, error:{code, message, hint}}; follow \
the hint.
Items are rows of text unless detail:'full' (objects with every field):
  node: "<id> <kind> <line>[-<endLine>] [key:value …] | <signature>"
  reference (grouped by file): "<line>[:<col>] [(<kind>)] [<in>] [[<mark>]] | <code>" — \
(kind) only when not the answer's refKind (call when absent); <in> is the enclosing function \
or class (<module> at top level), left out when the same as the row above (a file's first \
row with code: when <module>; show "names": every row); an import of the symbol under its \
own name has no code; \
[name]: matched by name only (receiver type unknown), [map]: the map's alone (a server \
answered without it); unmarked rows are confirmed. Long lists lose code, then <in>, before \
any row: a row may be just its line
  types and calls (hierarchies): node rows without what the symbol row says: no "<lang>:" in \
the id and no kind where they are the symbol's, only the name's line: "src/a.py#Sub 12 level:2 \
| (Base)" (types: direct ones unless you pass depth; every row has its level when any \
is beyond 1, else "level":1 once; by:implements: a class implementing a class, no \
subclass; calls of one level: grouped by file when a file has \
several, each row without its file)
  outline: "<indent><line>[-<endLine>] <kind> <name> | <signature>"
A row's signature leaves out the keyword and name the row shows: "(self, x) -> int" (an \
arrow function's, "= (x) =>": "(x)").
Ids: <lang>:<path>#<Qualified.name> (a file's id has no #part). Lines are 1-based, columns \
1-based UTF-16; paths are relative to the root.
Targets of nav_* tools: exactly one of id; file+line(+col); symbol (a name or \
'Class.member'; a name several definitions share is answered for each; with file, only its \
definitions in that file). source: 'auto' \
(a language server when ready, else the map at once), 'lsp', 'map'. offset: skip items \
(paging). tokenBudget: 100-10000, default 2000."""


# ----------------------------------------------------------------------------- nodes

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


def related(node: Node, symbol: Node, fresh: Freshness,
            notes: dict[str, Any] | None = None) -> str:
    """A node in a list about ``symbol`` (its neighbors): a related row, marked stale."""
    stale = {"stale": "true"} if node.path in fresh.stale else {}
    return related_row(node, symbol, True, {**(notes or {}), **stale})


# ----------------------------------------------------------------------------- words

def relinking(ws: Workspace) -> str:
    """What a pending whole relink means for an answer, and when it ends."""
    if ws.watcher is not None:
        return ("Files changed moments ago; the map links every file again in a few seconds, "
                "once edits pause")
    return "Files changed since the last whole link; map_rebuild links every file again"


def freshness_warnings(fresh: Freshness) -> list[str]:
    """What an answer's freshness means for it, said once per answer."""
    out = []
    if fresh.stale:
        out.append(f"{len(fresh.stale)} file(s) changed since the last index; their nodes "
                   "carry stale:true (map_rebuild refreshes them).")
    if fresh.relinking():  # right, but maybe not all there yet
        out.append(relinking(fresh.ws) + ": uses of names defined moments ago may be "
                                         "missing.")
    return out


# what a server still starting would change: asking again is for the unconfirmed rows only
_SETTLES = ("; asking again once it is ready rarely changes more than rows marked [name] or "
            "under 'unresolved'")

_FALLBACK_REASONS = {
    "would_start": "source:'lsp' starts {server}",
    "warm_starting": "{server} is starting in the background" + _SETTLES,
    "starting": "{server} is starting" + _SETTLES,
    "disabled": "{server} is disabled by configuration",
    "failed": "{server} crashed repeatedly and is disabled",
    "none": "no language server serves this language",
    "loading": "{server} is still loading the workspace",
    "warming": "{server} is still warming up",
}


def _reason(fallback: Fallback) -> str:
    why, server, detail = fallback.why, fallback.server, fallback.detail
    if why == "not_installed":
        return f"{server} is not installed ({detail})" if server else "no server is installed"
    if why == "untrusted":
        return f"{detail or server}: it starts only for a trusted project"
    if why == "stale_place":
        path, _, name = detail.partition("\0")
        return f"{path} changed since it was indexed (the map's place of {name!r} may be off)"
    if why == "refused":
        return detail
    return _FALLBACK_REASONS[why].format(server=server)


def fallback_notes(ws: Workspace, fallback: Fallback | None) -> list[str]:
    """Why the map answered instead of a language server: said once per session (``source``
    says it on every answer)."""
    if fallback is None:
        return []
    what = f" for {fallback.what}" if fallback.what else ""
    note = f"source:'map'{what} because {_reason(fallback)}"
    return [note] if ws.first_time(note) else []


def more_warning(located: Located) -> list[str]:
    """The warning for definitions a name matched beyond those answered."""
    if not located.more:
        return []
    return [f"{located.matches()} definitions match {located.name!r}; the best "
            f"{located.matches() - located.more} are answered. Pass id or a qualified name "
            f"('Class.{located.name}') to pick one."]


def several_warning(located: Located, what: str) -> list[str]:
    """Said when a name several definitions share is answered for each of them."""
    return [f"{located.matches()} definitions are named {located.name!r}: the {what} of "
            "each follow, best first", *more_warning(located)]


def map_callers_warning(count: int) -> list[str]:
    """What ``[map]`` on a call row means."""
    if not count:
        return []
    return [f"{count} call(s) [{MAP_ONLY}]: the map's alone (the language server did not "
            "report them)"]


def guessed_calls_warning(calls: Sequence[Call]) -> list[str]:
    """What ``[name]`` on a call row (or one of its lines) means, when some row has it."""
    def count(calls: Sequence[Call]) -> int:
        return sum((call.mark == GUESSED or any(site.guessed for site in call.sites))
                   + count(call.children) for call in calls)
    found = count(calls)
    if not found:
        return []
    return [f"{found} call(s) [{GUESSED}]: matched by name only, the receiver's type "
            "unknown"]


def overridden_warning(node: Node, found: Sequence[tuple[Node, int]]) -> list[str]:
    """Said of a member whose bases' namesakes have references: calls made through a base
    type are theirs, and may run this one."""
    if not found:
        return []
    bases = ", ".join(f"{other.nid} ({count} reference(s))" for other, count in found[:3])
    return [f"{node.qname} overrides {bases}: uses through that type are listed there, and "
            "may run this one — ask for it by id"]


def unlisted(others: OtherUses) -> dict[str, Any]:
    """What an answer leaves out of the uses of its name in code: ``unlisted``, one line (the
    check an agent would otherwise run with grep), and ``unresolved``, the uses the map could
    not attribute, row by row with their code, for the reader to judge."""
    out: dict[str, Any] = {"unlisted": _unlisted_line(others)}
    if others.rows:
        common = others.kind or "call"
        out["unresolved"] = {refs.path: _rows(refs, common, others.name, True)
                             for refs in others.rows}
    elif others.by_receiver:  # many: what each is written on, and where
        out["unresolved"] = {path: "; ".join(f"{written}: {','.join(map(str, found))}"
                                             for written, found in receivers)
                             for path, receivers in others.by_receiver}
    if others.receivers and "unresolved" in out:  # where those receivers are bound
        out["receivers"] = {path: [f"{name} {line} | {code}" for name, line, code in bound]
                            for path, bound in others.receivers}
    return out


def classless_bases_line(places: Sequence[tuple[str, int]], line: str) -> str:
    """The ``unlisted`` of subtypes when classes the map holds no node for name the type
    among their bases (``query.hierarchy.classless_bases``): said, with their places, before
    what the line said ("none…" no longer true). Run 34: oak's `class MockNativeServer
    implements OakServer` in an array answered "none: every class … is here"."""
    said = (f"{len(places)} class(es) the map holds no node for name it among their bases "
            f"({_places(places[:MAX_PLACES], len(places))}): judge each")
    return said if line.startswith("none:") else f"{said}; {line}"


def unresolved_cuts(*path: str | int) -> list[Cut]:
    """How the unresolved rows of ``unlisted`` are cut (beside the answer's own rows), and
    the lines where their receivers are bound with them (none left without its rows)."""
    return [Cut("unresolved", (*path, "unresolved", EVERY),
                "map_search text:true with a fileFilter lists them"),
            Cut("receivers", (*path, "receivers", EVERY),
                "map_search text:true with a fileFilter lists them")]


_CHECKED = {"unresolved": "unknown receiver (under 'unresolved')",
            "unattributed": "uses of no definition the map knows", "later": "on later pages",
            "not call": "uses that are not calls", "not inheritance": "uses that are not bases",
            "declared": "definitions/imports/exports/__all__",
            "module": "imports with the word only in the module path (other names imported)",
            "comment": "comments",
            "string": "in strings", "no use": "local names/keys"}


# Places a text check names per category: every one up to MAX_PLACES (a "+N more" sends the
# reader to grep for them), else this many; the unresolved are listed under their own key.
# (an import naming the word only in its module path, none: sequelize-typescript's 149
# `from '../model/…'` lines cost 300 B of `Sequelize.model`'s answer, read by no agent)
_PLACES = {"unresolved": 0, "unattributed": 8, "other": 10, "later": 6, "declared": 4,
           "module": 0, "comment": 4, "string": 4, "no use": 8, "not call": 6,
           "not inheritance": 6}
# Categories whose places are listed whole only up to a few: no use of the name, told by
# the file's parse (run 20's 31 comment and string places of `Range` cost 1 KB of a 3.5 KB
# answer; run 22's "+2 more" of 6 strings sent an agent to grep for them)
# (and definitions of the name up to 6: run 42's 17 overrides of describe_mismatch listed cost
# 0.9 KB, "bookkeeping" to its agent)
_FEW = {"comment": 12, "string": 12, "declared": 6}


# How a line a text check shows is marked: what it is, when it is no use of the name.
_SHOWN_MARKS = {"unattributed": "unknown", "not call": "not a call",
                "not inheritance": "not a base", "other": "another's", "declared": "declaration",
                "module": "module path", "comment": "comment", "string": "string",
                "no use": "local name"}


def text_entries(check: TextCheck) -> dict[str, Any]:
    """The text check as an answer's ``text`` line, and ``textLines``: the few lines it
    accounts for that are neither listed nor unresolved, each with its code and what it is
    (``"100 (string) | the task to serialize_date"``) — what an agent would open to believe
    the count."""
    out: dict[str, Any] = {"text": text_line(check)}
    for path, line, category, code in check.shown:
        mark = _SHOWN_MARKS.get(category, category)
        out.setdefault("textLines", {}).setdefault(path, []).append(f"{line} ({mark}) | {code}")
    return out


def text_line(check: TextCheck) -> str:
    """The text search an agent would run after the answer, accounted for in one line: how
    many lines hold the name, how many the answer lists, and what the others are, where."""
    name, lines = check.name, check.lines
    lines_shown = {(path, line) for path, line, _, _ in check.shown}
    word = (f"the word or a name it is imported as ({_first(check.aliases, 5)})"
            if check.aliases else "the word (imported under no other name)"
            if check.importable else "the word")
    if check.aside:  # (a grep would show the definition's own line too)
        word += " besides its definition"
    if not check.categories and not check.partial:
        return f"all {lines} line(s) holding {word} are listed"
    parts = [f"{lines} line(s) hold {word}: {check.listed} listed"]
    for category, count, places in check.categories:
        label = _CHECKED.get(category, f"of other {name!r}" if category == "other" else
                             category)
        if category == "other" and check.others:  # which namesakes: what a grep would tell
            label += f" ({_namesakes(check.others)})"
        limit = _PLACES.get(category, 6)
        whole = _FEW.get(category, MAX_PLACES)
        shown = places if limit and count <= whole else places[:limit]
        if shown and count == len(shown) and all(place in lines_shown for place in shown):
            shown = ()  # each one under textLines, with its code
        where = " " + _places(shown, count) if shown else ""
        parts.append(f"{count} {label}{where}")
    more = " (the search stopped at its bound)" if check.partial else ""
    return "; ".join(parts) + more


def _first(names: Sequence[str], count: int) -> str:
    """The first ``count`` of ``names``, a `` …`` when there are more."""
    return ", ".join(names[:count]) + (" …" if len(names) > count else "")


_LINES_SHOWN = 4  # import or class header lines not listed shown with their code (the rest:
# places)
_STOPPED = "; the search stopped at its bound: there may be more"


def _shown_lines(hits: Sequence[TextHit], mark: str) -> dict[str, Any]:
    """``textLines`` of the first few lines a grep check did not find listed, with their
    code (``"12 (import) | from .util import x"``); none: no key."""
    out: dict[str, Any] = {}
    for hit in hits[:_LINES_SHOWN]:
        out.setdefault("textLines", {}).setdefault(hit.path, []).append(
            f"{hit.line} ({mark}) | {hit.code}")
    return out


def base_text_entries(check: BaseLines) -> dict[str, Any]:
    """The class header lines an agent would grep for after a list of subtypes, as the
    answer's ``text`` line (how many name the type among their bases, how many are the
    classes listed, where the others are) and ``textLines`` (the first few others, with
    their code) — runs 33-35: agents re-checked subtypes with references or a text search of
    'extends '."""
    name, lines = check.name, check.lines
    stopped = _STOPPED if check.partial else ""
    if not check.unlisted and not check.other:
        return {"text": f"all {lines} class header line(s) naming {name!r} among their bases "
                        f"are the classes listed{stopped}"}
    parts = [f"{lines} class header line(s) name {name!r} among their bases: "
             f"{check.listed} the classes listed"]
    if check.other:  # linked to another type so named: counted by it (kombu, run 55)
        parts.append(f"{sum(count for _, count in check.other)} of another {name!r} "
                     f"({_namesakes(check.other)})")
    places = [(hit.path, hit.line) for hit in check.unlisted]
    if places:
        parts.append(f"{len(places)} not {_places(places[:MAX_PLACES], len(places))}")
    return {"text": "; ".join(parts) + stopped, **_shown_lines(check.unlisted, "not listed")}


def import_text_entries(check: ImportLines, listed: Collection[str] = (),
                        said: Collection[str] = ()) -> dict[str, Any]:
    """The import lines an agent would grep for after a module's importers, as the answer's
    ``text`` line (how many name the module, where the others are: not again when they are
    all in files ``listed`` or that ``unlisted`` counted as importing another module so
    named, ``said`` — run 32: 65 lines of mutagen's other `_util` modules, 20 of them
    placed; which of the two, said — run 55's agent read "already counted" as listed) and
    ``textLines`` (the few not listed, with their code)."""
    stem, lines = check.stem, check.lines
    # (the module, not a name it defines: run 57's agent could not tell which `Filter`)
    named = f"the module {stem!r}" + (" (or its folder: './', '..')" if check.folder else "")
    stopped = _STOPPED if check.partial else ""
    if lines == check.listed:
        return {"text": f"all {lines} import line(s) naming {named} are in the files "
                        f"listed{stopped}"}
    parts = [f"{lines} import line(s) name {named}: {check.listed} in the files listed"]
    if check.unresolved:
        parts.append(f"{check.unresolved} under 'unresolved'")
    if check.other:
        other_files = {path for path, _ in check.other}
        if other_files <= set(listed):  # (urwid's `from urwid.util import str_util`, run 45)
            parts.append(f"{len(check.other)} import it from another module, in files "
                         "listed (a re-export, or another module so named)")
        elif other_files <= {*listed, *said}:
            where = "the files" if not other_files & set(listed) else "files listed or"
            parts.append(f"{len(check.other)} of another module so named, in {where} "
                         "'unlisted' names")
        else:
            parts.append(f"{len(check.other)} of another module so named "
                         f"{_places(check.other[:MAX_PLACES], len(check.other))}")
    if check.unlisted:
        places = [(hit.path, hit.line) for hit in check.unlisted]
        parts.append(f"{len(places)} not listed {_places(places[:MAX_PLACES], len(places))}")
    return {"text": "; ".join(parts) + stopped, **_shown_lines(check.unlisted, "import")}


_NAMESAKES = 4  # the other definitions a text check names (the rest counted)


def _namesakes(others: Sequence[tuple[str, int]]) -> str:
    """``BlockParser.register 12, InlineParser.register 10`` (+ how many more)."""
    text = ", ".join(f"{name} {count}" for name, count in others[:_NAMESAKES])
    return text + (f", +{len(others) - _NAMESAKES} more" if len(others) > _NAMESAKES else "")


def _places(places: Sequence[tuple[str, int]], count: int) -> str:
    """``a.py:3,9 b.py:1`` (+ how many more)."""
    by_file: dict[str, list[str]] = {}
    for path, line in places:
        by_file.setdefault(path, []).append(str(line))
    text = " ".join(f"{path}:{','.join(lines)}" for path, lines in by_file.items())
    return text + (f" +{count - len(places)} more" if count > len(places) else "")


def _unlisted_line(others: OtherUses) -> str:
    name, unresolved, elsewhere = others.name, others.unresolved, others.elsewhere
    bound = ", their receivers' bindings under 'receivers'" if others.receivers else ""
    where = (f"under 'unresolved' with their code{bound}: judge each" if others.rows
             else f"under 'unresolved' by receiver and line{bound}: judge each"
             if others.by_receiver else
             "too many to list: a fileFilter lists those of a folder")
    if others.kind == "inheritance":
        if not unresolved and not elsewhere:
            return "none: every class naming it among its bases is here"
        if not unresolved:
            return f"none unresolved; {elsewhere} class(es) derive from another {name!r}"
        other = f"; {elsewhere} another {name!r}" if elsewhere else ""
        return (f"{unresolved} class(es) name a {name!r} the map cannot tell among their "
                f"bases ({where}){other}")
    if others.kind == "import":
        if not unresolved and not elsewhere:
            return "none: every import of it in code is here"
        other = (f"{elsewhere} file(s) import another module named {name!r}: "
                 f"{_first(others.outside, 5)}"
                 if elsewhere else "")
        if not unresolved:
            return f"none unresolved; {other}"
        return (f"{unresolved} file(s) import a {name!r} the map cannot find ({where})"
                + (f"; {other}" if other else ""))
    use = "call" if others.kind == "call" else "use"
    owners = f" ({_first(others.outside, 3)})" if others.outside else ""
    if not unresolved and not elsewhere:
        return f"none: every {use} in code is here"
    if not unresolved:
        return f"none unresolved; {elsewhere} {use}(s) of other {name!r}{owners}"
    other = f"; {elsewhere} of other {name!r}{owners}" if elsewhere else ""
    return (f"{unresolved} {use}(s) of {name!r} on a receiver of unknown type ({where})"
            f"{other}")


def mark_warnings(marks: Mapping[str, int], shown: Sequence[FileReferences] = ()) -> list[str]:
    """What the marks on reference rows mean, for the marks an answer has."""
    out = []
    if marks.get(GUESSED):
        out.append(f"{marks[GUESSED]} row(s) [{GUESSED}]: matched by name only, the "
                   "receiver's type unknown")
    if marks.get(MAP_ONLY):
        unseen, files = marks.get(MAP_UNSEEN, 0), marks.get(MAP_UNSEEN_FILES, 0)
        # in files the server said nothing of: most likely outside its project (tests a
        # tsconfig leaves out), not uses it denied (run 30's agent searched them to be sure)
        where = "" if not unseen else (
            f", all in {files} file(s) " if unseen == marks[MAP_ONLY] else
            f", {unseen} of them in {files} file(s) ") + (
            "the server reported nothing in (likely outside its project's files); the map "
            "resolved them through imports and types, not by name")
        out.append(f"{marks[MAP_ONLY]} row(s) [{MAP_ONLY}]: the map's alone (the language "
                   f"server did not report them){where}")
    return out


# ------------------------------------------------------------------------ references

def _renames(code: str, name: str) -> bool:
    """Whether an import line binds ``name`` under another name (``name as other``)."""
    return re.search(rf"(?<![\w$]){re.escape(name)}\s+as\s", code) is not None


def _common_kind(page: ReferencePage) -> str:
    kinds = Counter(ref.kind for f in page.shown for ref in f.refs)
    return max(kinds, key=lambda k: (kinds[k], k == "call")) if kinds else "call"


def _rows(refs: FileReferences, common: str, name: str, code: bool,
          aliases: frozenset[str] = frozenset(), judged: bool = True) -> list[Any]:
    """A file's references as rows: with their code lines (``code``; an import of ``name``
    under its own name has none: its kind and place say it all), or with their line and
    what encloses them only."""
    items: list[Any] = []
    # with code, a row's `in` is left out when the row above has it (a file starts at module
    # level: its first rows' code tells); without, every row says it (`<module>` at module
    # level: run 31's agent took a row left so for one enclosed by nothing and asked again),
    # but an import at module level, which says where it is by its kind
    above = MODULE if code else None
    for ref in refs.refs:
        line = ref.code if code or (judged and _judged_by_code(ref, common)) else None
        if line is not None and ref.kind == "import" and ref.name == name and \
                not _renames(line, name):
            line = None
        leading = not code and ref.kind == "import" and ref.scope == MODULE
        items.append(ref_row(ref.line, ref.col if code else None, ref.kind,
                             None if leading or ref.scope == above else ref.scope, line,
                             ref.name, common, ref.mark, _alias(ref, aliases)))
        above = above if leading or not code else ref.scope
    return items


def _lines(refs: FileReferences, common: str, aliases: frozenset[str],
           judged: bool = True) -> list[Any]:
    """A file's references as their lines only: a number each, a row (``"57 (import)"``,
    ``"57 [name]"``) when its kind is not the answer's ``refKind`` or it is marked (with
    ``judged``, with the code of a row its reader judges by it)."""
    return [_judged(line_row(ref.line, ref.mark, ref.kind if ref.kind != common else None,
                             _alias(ref, aliases)),
                    ref.code if judged and _judged_by_code(ref, common) else None)
            for ref in refs.refs]


def _alias(ref: Reference, aliases: frozenset[str]) -> str | None:
    """The other name of the definition a use is written with (pyparsing's `asList =
    as_list`, whose uses are as_list's: run 61's agents could not tell them apart in a list
    of lines); not a name an import gives it (its import row says so)."""
    return ref.name if ref.name in aliases and ref.kind not in ("import", "export") else None


def _judged_by_code(ref: Reference, common: str) -> bool:
    """Whether a row keeps its code line in every rendering: its reader judges it by its
    code — matched by name alone (its receiver), or among calls a use that is none (a
    method passed as a value, `pytest.raises(E, x.interrupt)`, or a call the map missed).
    Runs 30-32: agents asked again for the code of such rows, one call each."""
    return ref.mark == GUESSED or (common == "call" and ref.kind in ("attribute", "name"))


def _judged(row: int | str, code: str | None) -> int | str:
    """A line row with the code its reader judges it by (``_judged_by_code``)."""
    return f"{row} | {code}" if code is not None else row


def _full(refs: FileReferences) -> list[dict[str, Any]]:
    items = []
    for ref in refs.refs:
        item: dict[str, Any] = {"line": ref.line, "col": ref.col, "kind": ref.kind,
                                "in": ref.scope}
        if ref.mark:
            item["mark"] = ref.mark
        if ref.code is not None:
            item["snippet"] = ref.code
        items.append(item)
    return items


def references_section(page: ReferencePage, symbol: Any, detail: Detail,
                       rendering: Rendering = "code", judged: bool = True) -> dict[str, Any]:
    """One definition's page of references as shown: rows per file with their code
    (``rendering`` code), with their line and enclosing name only (``names``), or as lines
    (``lines``) — those two, with ``judged``, keeping the code of rows their reader judges
    by it (not in a tier the budget forced); objects with ``detail`` full, whatever the
    rendering."""
    common = _common_kind(page)
    name = page.node.name if page.node is not None else page.name
    grouped: dict[str, list[Any]] = {}
    for refs in page.shown:
        if detail == "full":
            grouped[refs.path] = _full(refs)
        elif rendering == "lines":
            grouped[refs.path] = _lines(refs, common, page.aliases, judged)
        else:
            grouped[refs.path] = _rows(refs, common, name, rendering == "code", page.aliases,
                                       judged)
    out: dict[str, Any] = {"symbol": symbol, "total": page.total}
    if detail == "full":
        out["files"] = page.files
    elif common != "call":  # rows say their kind when it is not refKind (call by default)
        out["refKind"] = common
    stale = [refs.path for refs in page.shown if refs.stale]
    if stale:  # changed on disk since they were indexed: their lines may have moved
        out["staleFiles"] = sorted(stale)
    out["references"] = grouped
    return out


def references_cut(page: ReferencePage, next_page: Page | None,
                   path: tuple[str | int, ...]) -> Cut:
    """How a page of references is cut: its rows in order, continued by ``next_page``; the
    note's narrowing step scopes to the folder of the first file."""
    first = page.shown[0].path if page.shown else ""
    folder = dirname(first)
    hint = f"Pass fileFilter:'{folder}/' to scope results" if folder else \
        "Pass fileFilter:'<folder>/' to scope results"
    return Cut("references", path, hint, page=next_page,
               omitted=max(0, page.total - page.offset - page.count()))


def references_answer(page: ReferencePage, symbol: Any, detail: Detail, next_page: Page,
                      warnings: list[str], extra: dict[str, Any] | None = None,
                      show: Rendering = "code") -> Answer:
    """One definition's references as ``show`` asks (rows with their code, rows with their
    line and enclosing name, lines per file), degrading by the cheaper tiers before anything
    is dropped (the text check's lines go first: rows matter more; a tier the caller did not
    ask for leaves the text line out too)."""
    def data(rendering: Rendering, shown: bool = False) -> dict[str, Any]:
        more = {key: value for key, value in (extra or {}).items()
                if (rendering == show or key != "text") and (shown or key != "textLines")}
        return {**references_section(page, symbol, detail, rendering,
                                     judged=rendering == show), **more}

    cut = references_cut(page, next_page, ("references", EVERY))
    cuts = [cut, *unresolved_cuts()] if extra and "unresolved" in extra else [cut]
    tiers = []
    shown = sum(map(len, (extra or {}).get("textLines", {}).values()))
    if shown:  # the text check's lines go first, unsaid (its line names their places)
        tiers.append(Tier(data(show), "textLines", shown, f"the code of {shown} lines the "
                          "text check accounts for", "Ask with a larger tokenBudget",
                          cuts=cuts, noted=False))
    if detail != "full" and page.count():
        if show == "code":
            coded = sum(1 for f in page.shown for ref in f.refs if ref.code is not None)
            tiers.append(Tier(data("names"), "code", coded, f"the code lines of {coded} "
                              "references (listed with their line and enclosing definition)",
                              "Pass fileFilter to see fewer with their code", cuts=cuts))
        if show != "lines":
            tiers.append(Tier(data("lines"), "rows", page.count(), "what encloses "
                              f"{page.count()} references (listed by line)",
                              "Pass fileFilter to see fewer in rows", cuts=cuts))
    return Answer(data(show, shown=True), cuts=cuts, elide=("snippet",), tiers=tiers,
                  warnings=warnings + mark_warnings(page.marks))


# ----------------------------------------------------------------------- definitions

def server_definition(where: ServerPlace, lines: Lines, detail: Detail,
                      fresh: Freshness) -> Any:
    """A definition a language server named: the map's node row where the map has it, else
    its place and code line (``external`` outside the root; ``stale`` where the map's entry
    of its file is)."""
    if detail != "full" and where.node is not None:
        return listed(where.node, detail, fresh)
    row = place(where.path, where.line, where.col)
    if where.external:
        if detail == "full":
            return {"file": where.path, "line": where.line, "col": where.col,
                    **({"endLine": where.end_line} if where.end_line != where.line else {}),
                    "external": True}
        return f"{row} (external)"
    snippet = lines.line(where.path, where.line)
    if detail == "full":
        item: dict[str, Any] = {"file": where.path, "line": where.line, "col": where.col}
        if where.end_line != where.line:
            item["endLine"] = where.end_line
        if where.stale:
            item["stale"] = True
        if where.node is not None:
            item["id"] = where.node.nid
            item["kind"] = where.node.kind
        if snippet is not None:
            item["snippet"] = snippet
        return item
    return f"{row} | {snippet}" if snippet else row


def map_hover(node: Node, parent: Node | None, detail: Detail, fresh: Freshness
              ) -> dict[str, Any]:
    """What the map knows of a definition: its whole signature, kind, place, first doc line
    and ``parent``."""
    if detail == "full":
        item = summary(node, fresh)
        item["qualifiedName"] = node.qname
        if node.doc:
            item["doc"] = node.doc
        if parent is not None and parent.kind != "module":
            item["parent"] = parent.nid
        return item
    # the id says the file and the name: the line, and the signature without its name
    out: dict[str, Any] = {"id": node.nid, "kind": node.kind, "line": node.name_line}
    if node.signature:
        out["signature"] = bare_signature(one_line(node.signature), node.name)
    if node.doc:
        out["doc"] = node.doc
    if parent is not None and parent.kind != "module":
        out["parent"] = parent.nid
    return fresh.mark(out, node.path)


def overload_rows(nodes: Sequence[Node]) -> list[str]:
    """A function's declarations of one name as ``<line> | <signature>`` rows, in source
    order (the implementation of Python's ``@overload`` stubs is the last)."""
    return [f"{node.name_line} | {bare_signature(one_line(node.signature), node.name)}"
            for node in nodes]


# ----------------------------------------------------------------------- hierarchies

def _related_full(related: Related) -> dict[str, Any]:
    """A related node as an object: the map's summary of it (map answers), or what the
    server called it with the map's id, kind and hub score where the map has it."""
    node = related.node
    if not related.server and node is not None:
        return {"id": node.nid, "kind": node.kind,
                "anchor": anchor(node.path, node.name_line, node.name_col), "hub": hub(node.hub)}
    out: dict[str, Any] = {"name": related.name, "kind": related.kind,
                           "anchor": anchor(related.path, related.line, related.col)}
    if related.detail:
        out["detail"] = related.detail
    if related.external:
        out["external"] = True
    elif node is not None:
        out["id"] = node.nid
        out["hub"] = hub(node.hub)
    return out


def _related_head(related: Related, symbol: Node | None) -> str:
    """A related node as a row's head: a related row's where the map has it, else its
    place, kind and name (``(external)`` outside the root)."""
    if related.node is not None:
        return related_head(related.node.nid, related.node.kind, related.line, symbol)
    row = f"{place(related.path, related.line, related.col)} {related.kind} {related.name}"
    return row + (" (external)" if related.external else "")


def _call_full(call: Call) -> dict[str, Any]:
    item = _related_full(call.other)
    item["callSites"] = [anchor(site.path, site.line, site.col) for site in call.sites]
    if call.mark is None and any(site.guessed for site in call.sites):
        item["guessedSites"] = [anchor(site.path, site.line, site.col)
                                for site in call.sites if site.guessed]
    if call.more_sites:
        item["moreCallSites"] = call.more_sites
    if call.children:
        item["children"] = [_call_full(child) for child in call.children]
    if call.mark:
        item["source"] = call.mark
    return item


def calls_grouped(calls: Sequence[Call], symbol: Node | None) -> dict[str, list[str]] | None:
    """Calls without calls of their own (one level) as rows grouped by the file of what
    calls or is called, when some file has several (else None: the list is as short): files
    in the order of their first call (the best ranked), each row without its file
    (``Parser.parse 40 at:52``; a file's own code ``<module> at:7``; a server's caller the
    map has not, ``12:5 function f``; a row of another language keeps its whole id); calls
    of what is outside the root last, under ``OUTSIDE_ROOT``, by name. Run 31: 27 callers
    repeated their file in each row, 28% of the answer."""
    groups: dict[str, list[str]] = {}
    for call in calls:
        if not call.other.external:
            path = call.other.path
            groups.setdefault(path, []).append(file_row(_call_row(call, symbol), path))
    if len(groups) == sum(map(len, groups.values())):
        return None
    outside = _outside(calls)
    if outside:
        groups[OUTSIDE_ROOT] = outside
    return groups


def _outside(calls: Sequence[Call]) -> list[str]:
    """Calls of what is outside the root (builtins, libraries), by name: ``isinstance
    at:688``, each name once with the lines of its sites."""
    lines: dict[str, list[int]] = {}
    for call in calls:
        if call.other.external and not call.children:
            found = lines.setdefault(call.other.name, [])
            found += [site.line for site in call.sites if site.line not in found]
    return [f"{name} at:{','.join(map(str, sorted(found)))}" for name, found in lines.items()]


def _call_row(call: Call, symbol: Node | None) -> str:
    """A call as a related row with ``at:`` its sites' lines, ``sites:`` their number when
    more are not listed, and its mark."""
    row = _related_head(call.other, symbol)
    if call.sites:
        # A site matched by name alone among confirmed ones is marked on its own; a line
        # with several calls is one line (`at:78`, not `at:78,78,78`).
        guessed: dict[int, bool] = {}  # line -> every site on it matched by name alone
        for site in call.sites:
            guessed[site.line] = guessed.get(site.line, True) and site.guessed
        row += " at:" + ",".join(f"{line}[{GUESSED}]" if alone and call.mark is None
                                 else str(line) for line, alone in guessed.items())
    if call.more_sites:
        row += f" sites:{len(call.sites) + call.more_sites}"
    if call.mark:
        row += f" [{call.mark}]"
    return row


def calls_rendered(calls: Sequence[Call], detail: Detail, symbol: Node | None) -> list[Any]:
    """Calls as shown: objects (``detail`` full), else related rows with ``at:`` the lines
    of the call sites (in the caller for incoming calls, in the callee's caller — the
    symbol asked about — for outgoing ones) and ``sites:`` their number when more are not
    listed; a call with calls of its own is ``{"call": row, "children": [...]}``. Calls
    of what is outside the root (builtins, libraries) are one last row, by name."""
    if detail == "full":
        return [_call_full(call) for call in calls]
    out: list[Any] = [
        {"call": _call_row(call, symbol),
         "children": calls_rendered(call.children, detail, symbol)} if call.children else
        _call_row(call, symbol)
        for call in calls if not (call.other.external and not call.children)]
    outside = _outside(calls)
    if outside:
        out.append("outside the root: " + ", ".join(outside))
    return out


def deeper_types_warning(deeper: Sequence[TypeEntry], direction: str, exact: bool
                         ) -> list[str]:
    """Said when types lie beyond the levels asked for (``exact``: all of them counted;
    else the next level's only)."""
    if not deeper:
        return []
    levels = sorted({entry.level for entry in deeper})
    span = f"level {levels[0]}" if len(levels) == 1 else f"levels {levels[0]}-{levels[-1]}"
    count = f"{len(deeper)}" if exact else f"at least {len(deeper)}"
    noun = direction.removesuffix("s")
    return [f"{count} more {noun}(s) at {span}, through those listed: pass depth (up to 10) "
            "for them"]


_IMPLEMENTS = re.compile(r"\bimplements\b")


def implements_only(signature: str | None, name: str) -> bool:
    """Whether a class header names ``name`` only after ``implements`` (a TypeScript class
    may implement another class's shape without deriving from it)."""
    parts = _IMPLEMENTS.split(signature or "", maxsplit=1)
    if len(parts) < 2:
        return False
    head, tail = parts
    word = re.compile(rf"(?<![\w$]){re.escape(name)}(?![\w$])")
    return bool(word.search(tail)) and not word.search(head)


def types_section(symbol: Any, types: Sequence[TypeEntry], detail: Detail, fresh: Freshness,
                  node: Node | None) -> dict[str, Any]:
    """One definition's types as shown: objects (``detail`` full), else related rows (no
    language and no kind where they are ``node``'s, only the line of the name). Every row
    says its ``level:`` when some type is not direct; when all are, the section says
    ``"level": 1`` once."""
    deep = any(entry.level > 1 for entry in types)
    out: list[Any] = []
    for entry in types:
        related, level = entry.related, entry.level
        if not related.server and related.node is not None:
            if detail == "full":
                out.append(listed(related.node, detail, fresh, {"level": level}))
                continue
            notes: dict[str, object] = {"level": level} if deep else {}
            if level == 1 and node is not None and node.kind == "class" and \
                    implements_only(related.node.signature, node.name):
                notes["by"] = "implements"  # TypeScript's `class B implements A`: no subclass
            if related.node.path in fresh.stale:
                notes["stale"] = "true"
            # A first level's signature names the type asked about; a deeper one's, the
            # type it comes through.
            out.append(related_row(related.node, node, level > 1, notes))
        elif detail == "full":
            out.append({**_related_full(related), "level": level})
        else:
            out.append(_related_head(related, node) + (f" level:{level}" if deep else ""))
    section: dict[str, Any] = {"symbol": symbol}
    if types and not deep and detail != "full":
        section["level"] = 1  # every type listed is direct
    section["types"] = out
    return section


# ----------------------------------------------------------------------------- text

def text_answer(page: TextPage, query: str, offset: int, next_page: Page,
                places: Mapping[tuple[str, int], str] | None = None) -> Answer:
    """Lines holding a text, grouped by file as references are: ``"<line> | <code>"``, and
    ``"<line> (comment) | <code>"`` where ``places`` says the text is only in a comment (or a
    string) there."""
    places = places or {}
    grouped: dict[str, list[str]] = {}
    for hit in page.hits[offset:]:
        place = places.get((hit.path, hit.line))
        mark = f" ({place})" if place else ""
        grouped.setdefault(hit.path, []).append(f"{hit.line}{mark} | {hit.code}")
    # `searched`: the files read (run 32's agent took a `files` count for files with lines)
    data: dict[str, Any] = {"query": query, "text": True, "total": page.total,
                            "searched": page.files, "results": grouped}
    warnings = []
    if page.partial:
        warnings.append(f"searched {page.files} of {page.candidates} files before the "
                        "search's bound: narrow with fileFilter or lang")
    if page.total > len(page.hits):  # lines beyond those kept are counted, never paged to
        warnings.append(f"only the first {len(page.hits):,} of {page.total:,} lines can be "
                        "listed: narrow with fileFilter or lang")
    if not page.total:
        warnings.append(f"no code line in the map's {page.files} files holds {query!r} "
                        "(the map holds source files only, not docs)")
    first = page.hits[offset].path if offset < len(page.hits) else ""
    folder = dirname(first)
    cut = Cut("lines", ("results", EVERY),
              f"Pass fileFilter:'{folder}/' to scope results" if folder else
              "Pass fileFilter to scope results", page=next_page)
    return Answer(data, cuts=[cut], warnings=warnings)


# --------------------------------------------------------------------------- checks

def diagnostic_row(item: Diagnostic, detail: Detail) -> Any:
    """A diagnostic as ``line:col severity message [code]``, or an object (full)."""
    if detail == "full":
        out: dict[str, Any] = {"severity": item.severity, "line": item.line, "col": item.col,
                               "endLine": item.end_line, "endCol": item.end_col,
                               "message": item.message}
        if item.source:
            out["source"] = item.source
        if item.code is not None:
            out["code"] = item.code
        return out
    return (f"{item.line}:{item.col} {item.severity} {item.message}"
            + (f" [{item.code}]" if item.code else ""))


def edit_rows(path: str, edits: Sequence[Edit], lines: Lines, new_name: str,
              detail: Detail) -> list[Any]:
    """A file's edits in order, each with its code line: ``line:col-endCol | code`` (the
    range replaced by newName; ``endLine:endCol`` when it spans lines; `` -> text`` when a
    server's edit writes something else), or objects (full)."""
    out: list[Any] = []
    for edit in sorted(edits, key=lambda e: (e.line, e.col)):
        snippet = None if edit.external else lines.line(path, edit.line)
        if detail == "full":
            item: dict[str, Any] = {"line": edit.line, "col": edit.col,
                                    "endLine": edit.end_line, "endCol": edit.end_col,
                                    "newText": edit.new_text}
            if edit.external:
                item["external"] = True
            else:
                item["snippet"] = snippet
            out.append(item)
            continue
        end = (f"{edit.end_col}" if edit.end_line == edit.line else
               f"{edit.end_line}:{edit.end_col}")
        row = f"{edit.line}:{edit.col}-{end}"
        if edit.new_text != new_name:
            row += f" -> {edit.new_text}"
        if snippet:
            row += f" | {snippet}"
        out.append(row)
    return out


# --------------------------------------------------------------------------- outlines

# Symbols an outline lists with their parameters at most: a longer one is names and lines
# (gunicorn's config.py, 141 symbols: 6 KB of parameters no agent read, run 43)
OUTLINE_PARAMETERS = 40


def outline_answer(data: dict[str, Any], key: str, found: list[Entry], *, offset: int,
                   detail: Detail, page: Page, fresh: Freshness, counts: bool,
                   warnings: list[str], hint: str, signatures: bool = True,
                   names_only: bool = False) -> Answer:
    """``data`` with the page of ``found`` starting at ``offset`` under ``key``: rows and
    their cheaper tiers (``counts``: a tier of top-level rows with members counted), or with
    ``detail`` full, nested objects. Without ``signatures``, the rows are names with their
    lines from the start (a class's members: what they are, not how they are called);
    ``names_only``: callables' parameters by name, without types (an outline's rows)."""
    shown = found[offset:]
    if detail == "full":
        data = {**data, key: _nested(shown, fresh)}
        cut = Cut(key, (key,), hint, tree=True)
        return Answer(data, cuts=[cut], warnings=warnings)
    cut = Cut(key, (key,), hint, page=page)
    if names_only and len(shown) > OUTLINE_PARAMETERS:  # a long outline: names and lines
        warnings = [*warnings, f"{len(shown)} symbols: listed without their parameters "
                    "(pass kinds, or ask map_node for one class or nav_hover for one function)"]
        signatures = False
    if not signatures:
        rows = [outline_row(e.node, e.depth, False) for e in shown]
        return Answer({**data, key: rows}, cuts=[cut], warnings=warnings)
    rows = [outline_row(e.node, e.depth, True, names_only=names_only) for e in shown]
    named = sum(1 for e in shown if e.node.signature)
    tiers = [Tier({**data, key: [_name_row(e) for e in shown]}, "signatures", named,
                  f"the signatures of {named} symbols (listed by name and line)",
                  "Pass kinds (e.g. ['method']) or offset to see fewer with signatures",
                  cuts=[cut])]
    if counts:
        top = [i for i, e in enumerate(shown) if e.depth == 0]
        nested = len(shown) - len(top)
        if nested:
            positions = [offset + i for i in top]
            tiers.append(Tier(
                {**data, key: [_counted_row(shown, i) for i in top]}, "members", nested,
                f"{nested} nested symbols (counted under their parents)",
                "Pass kinds, or ask map_node with include:['children'] for one class",
                cuts=[Cut(key, (key,), hint,
                          page=Page(page.tool, page.args, offset, positions))]))
    return Answer({**data, key: rows}, cuts=[cut], warnings=warnings, tiers=tiers)


def _name_row(entry: Entry) -> str:
    return outline_row(entry.node, entry.depth, False, end=False)


def _counted_row(shown: list[Entry], index: int) -> str:
    """A top-level row with what is nested under it counted by kind."""
    entry = shown[index]
    kinds: Counter[str] = Counter()
    for inner in shown[index + 1:]:
        if inner.depth == 0:
            break
        kinds[inner.node.kind] += 1
    row = outline_row(entry.node, 0, False)
    if kinds:
        row += " | " + ", ".join(f"{n} {kind}" for kind, n in kinds.most_common())
    return row


def _nested(shown: list[Entry], fresh: Freshness) -> list[dict[str, Any]]:
    """Entries as nested objects (``children``); one whose parent is not on the page is
    at the top."""
    items: dict[int, dict[str, Any]] = {}
    top: list[dict[str, Any]] = []
    for entry in shown:
        node = entry.node
        item = summary(node, fresh)
        item["name"] = node.name
        item["line"] = node.line
        item["endLine"] = node.end_line
        items[node.id] = item
        parent = items.get(node.parent_id) if node.parent_id is not None else None
        if parent is None:
            top.append(item)
        else:
            parent.setdefault("children", []).append(item)
    return top
