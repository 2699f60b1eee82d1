"""Compact rows: how answers show nodes, references and places unless ``detail: "full"``.

An agent reads every character of an answer, so items that repeat are one line of text each
instead of an object (grammar in docs/contract.md, "Rows"):

  place        ``path:line[:col]``
  node row     ``<id> <kind> <line>[-<endLine>][ <key>:<value>…][ | <signature>]`` (a file's
               own node, kind ``module``, has no lines)
  related row  ``<id>[ <kind>] <line>[ <key>:<value>…][ | <signature>]``: a node in a list
               about the answer's ``symbol`` (a hierarchy's types and calls), without what the
               symbol row says — its id leaves out ``<lang>:`` when it is the symbol's
               language (and its path has no colon), its kind is left out when it is the
               symbol's — and with only the line of its name
  ref row      ``<line>[:<col>][ (<kind>)][ <in>][ [<mark>]][ | <code>]``
  outline row  ``<indent><line>[-<endLine>] <kind> <name>[ | <signature>]``

``line`` is where the name is; ``endLine`` where the definition ends; ``key:value`` notes say
how the node relates to the question (``level:2``, ``in:calls``, ``at:244,250``). A row's
signature leaves out the declaring keyword and the name the row already shows (``def f(x)``
→ ``(x)``, ``class C(Base)`` → ``(Base)``; modifiers stay). A ref row's column is left out
when its code line shows the name once; its kind when it is the answer's ``refKind`` (``call``
when the answer has none); ``in`` is the enclosing function, method or class (``<module>`` at
top level), left out when it is the same as the row above's (for a file's first row: when it
is ``<module>``); ``mark`` says why a reference is not confirmed (``name``: matched by name
alone, the receiver's type unknown; ``map``: the map's alone, a language server answered and
did not report it).
Each parser here reads back what its formatter writes (the tests hold both to that).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, Literal, NamedTuple

from codenav.index.languages import by_code
from codenav.model import CALLABLE_KINDS
from codenav.store.read import Node
from codenav.words import word_pattern

__all__ = [
    "INDENT",
    "MODULE",
    "OUTSIDE_ROOT",
    "SIGNATURE",
    "Detail",
    "NodeRow",
    "RefFields",
    "Rendering",
    "bare_signature",
    "closing_paren",
    "code_scan",
    "file_row",
    "line_row",
    "node_row",
    "one_line",
    "outline_row",
    "parameters_of",
    "parse_node_row",
    "parse_ref_row",
    "parse_related_row",
    "place",
    "ref_row",
    "related_head",
    "related_row",
    "short_signature",
    "span",
    "top_level_parts",
    "whole_call_rows",
]

Detail = Literal["compact", "full"]
# How a list of references is shown: rows with their code line, rows with their line and
# enclosing definition, or lines per file (also the tiers an answer degrades by).
Rendering = Literal["code", "names", "lines"]
MODULE = "<module>"
OUTSIDE_ROOT = "(outside the root)"  # the group of calls of what is outside the root
SIGNATURE = 100  # characters of a signature in a compact row
INDENT = "  "

# Words that declare what a row's kind already says (a modifier or a type stays).
_KEYWORDS = frozenset({"def", "class", "function", "function*", "interface", "enum", "type",
                       "struct", "trait", "fn", "func", "namespace", "module", "const", "let",
                       "var", "val", "union", "record", "object", "impl", "macro_rules!"})
_HEAD = re.compile(r"(?:[\w$*!]+\s+)*")
_ARROW = re.compile(r"=\s*(.*?\S)\s*=>", re.S)  # what an arrow function's signature keeps
# … and a function expression's: `= async function name(…)` -> `async (…)`
_FUNCTION_EXPRESSION = re.compile(r"=\s*(async\s+)?function\s*\*?\s*(?:[\w$]+\s*)?(\(.*)", re.S)
_REF_ROW = re.compile(r"^(\d+)(?::(\d+))?(?: \(([\w.-]+)?(?: ?as ([\w$]+))?\))?"
                      r"(?: ([^\s|\[]\S*))?(?: \[(\w+)\])?(?: \| (.*))?$", re.S)
_NODE_ROW = re.compile(
    r"^(.+?) ([\w.-]+)(?: (\d+)(?:-(\d+))?)?((?: [\w-]+:\S+)*)(?: \| (.*))?$", re.S)
_RELATED_ROW = re.compile(
    r"^(.+?)(?: ([a-z][a-z_-]*))?(?: (\d+)(?:-(\d+))?)?((?: [\w-]+:\S+)*)(?: \| (.*))?$", re.S)
_LANG = re.compile(r"^[a-z][a-z0-9+]*:")  # an id's language


def one_line(signature: str) -> str:
    """A signature written over several lines on one: ``(\n    self,\n    x,\n)`` →
    ``(self, x)`` (line breaks and their indentation, and a trailing comma, dropped)."""
    text = re.sub(r"\s*\n\s*", " ", signature)
    text = re.sub(r"([(\[]) (?=\S)", r"\1", text)
    return re.sub(r",? ([)\]])", r"\1", text)


def short_signature(signature: str, limit: int = SIGNATURE, name: str | None = None) -> str:
    """One line of a signature, at most ``limit`` characters (``…`` marks a cut); with
    ``name``, without what the row already says (``bare_signature``)."""
    text = one_line(signature) if "\n" in signature else signature
    if name is not None:
        text = bare_signature(text, name)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def parameter_list(signature: str) -> str:
    """A signature's parameters by name, their types and its return type left out (what
    an outline row needs: the whole signature is map_node's or nav_hover's):
    ``(text: string | Button, data = typeof text === "string" ? text : text.text): Btn``
    -> ``(text, data = typeof text === "string"…)``. Only where types follow names after a
    colon (Python, TypeScript); a default is kept, cut at 24 characters. A signature whose
    parameter list cannot be read whole is returned as it is."""
    start = _top_level(signature, "(")
    if start < 0:
        return signature
    end = closing_paren(signature, start)
    if end < 0:
        return signature  # a list never closed (a cut signature): left as it is
    kept = [_parameter_name(part) for part in _split_top(signature[start + 1:end])]
    return signature[:start] + "(" + ", ".join(p for p in kept if p) + ")"


def _parameter_name(parameter: str) -> str:
    """One parameter without its type: ``x?: T = 1`` -> ``x? = 1``."""
    parameter = parameter.strip()
    equals = _top_level(parameter, "=")
    head, default = (parameter[:equals], parameter[equals + 1:]) if equals >= 0 else \
        (parameter, "")
    colon = _top_level(head, ":")
    name = (head[:colon] if colon >= 0 else head).strip()
    if not default:
        return name
    default = default.strip()
    default = default if len(default) <= 24 else default[:23] + "…"
    spaced = equals > 0 and parameter[equals - 1] == " "
    return f"{name} = {default}" if spaced else f"{name}={default}"


def code_scan(text: str) -> Iterator[tuple[int, str, int]]:
    """``(position, character, depth)`` of each character of ``text`` outside strings, the
    depth counting brackets and a generic's ``<…>`` (``Map<K, V>``, ``Other< "a", "b" >``:
    ``<`` right after a name, not ``<=``; ``>`` while one is open, not part of ``=>`` or
    ``->``: ``x > 10`` is a comparison)."""
    depth, quote, angles = 0, "", 0
    for at, c in enumerate(text):
        if quote:
            if c == quote and text[at - 1] != "\\":
                quote = ""
            continue
        if c in "'\"`":
            quote = c
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "<" and (not text[:at].strip() or text[at - 1].isalnum() or
                           text[at - 1] in "_$") and text[at + 1:at + 2] != "=":
            angles += 1
            depth += 1
        elif c == ">" and angles and text[at - 1:at] not in ("=", "-"):
            angles -= 1
            depth -= 1
        yield at, c, depth


def closing_paren(text: str, start: int) -> int:
    """Where the bracket opened at ``start`` closes (outside strings), -1 when it does not."""
    opened = None
    for at, c, depth in code_scan(text):
        if at == start:
            opened = depth - 1
        elif opened is not None and c == ")" and depth == opened:
            return at
    return -1


def _top_level(text: str, char: str) -> int:
    """Where ``char`` first stands outside brackets and strings in ``text`` (an ``=`` not
    part of ``=>``, ``==``, ``<=``, ``>=`` or ``!=``), -1 when nowhere."""
    for at, c, depth in code_scan(text):
        opening = c in "([{" and depth == 1
        if c == char and (depth == 0 or (opening and char in "([{")) and (
                char != "=" or (text[at + 1:at + 2] not in ("=", ">") and
                                text[at - 1:at] not in ("=", "!", "<", ">"))):
            return at
    return -1


def top_level_parts(text: str) -> list[tuple[int, str]]:
    """``text`` split at its commas outside brackets, generics and strings: each part with
    where it starts."""
    out, last = [], 0
    for at, c, depth in code_scan(text):
        if c == "," and depth == 0:
            out.append((last, text[last:at]))
            last = at + 1
    out.append((last, text[last:]))
    return out


def _split_top(text: str) -> list[str]:
    """The parts of ``text`` between its top-level commas, empty ones left out."""
    return [part for _, part in top_level_parts(text) if part.strip()]


def parameters_of(signature: str) -> list[str]:
    """The parameters of a one-line signature as written (``a: dict[str, int] = {}`` is
    one), its first top-level parameter list read to its end (or the signature's)."""
    start = _top_level(signature, "(")
    if start < 0:
        return []
    end = closing_paren(signature, start)
    return _split_top(signature[start + 1:end if end >= 0 else len(signature)])


def bare_signature(signature: str, name: str) -> str:
    """A signature without the declaring keyword and the name a row already shows:
    ``def f(x) -> int`` → ``(x) -> int``, ``class C(Base)`` → ``(Base)``, ``export async
    function f<T>(…)`` → ``export async <T>(…)``; modifiers and types before the name stay.
    An arrow function assigned to a name keeps what is between ``=`` and ``=>``
    (``const f = async (x) =>`` → ``async (x)``), a function expression its parameters
    on (``const f = function (x): T`` → ``(x): T``). A signature whose head is not words then
    the name is left whole."""
    found = word_pattern(name).search(signature)
    if found is None or not _HEAD.fullmatch(signature[: found.start()]):
        return signature
    kept = [word for word in signature[: found.start()].split() if word not in _KEYWORDS]
    rest = signature[found.end():].lstrip(" :") if signature[found.end():].startswith(
        (" :", ":")) else signature[found.end():].lstrip()
    arrow = _ARROW.fullmatch(rest)
    expression = _FUNCTION_EXPRESSION.fullmatch(rest)
    if arrow is not None:  # const f = (x) => …: the declaration's syntax, like def f(x)
        rest = arrow.group(1)
    elif expression is not None:  # const f = function (x) {…}: the same
        rest = (expression.group(1) or "") + expression.group(2)
    return " ".join([*kept, rest]) if rest else " ".join(kept)


def place(path: str, line: int, col: int | None = None) -> str:
    return f"{path}:{line}" if col is None else f"{path}:{line}:{col}"


def span(line: int, end_line: int) -> str:
    return f"{line}-{end_line}" if end_line != line else str(line)


def node_row(node: Node, signature: bool = True, notes: dict[str, object] | None = None,
             whole: bool = True) -> str:
    """``<id> <kind> <line>[-<endLine>]``, its ``key:value`` notes and `` | <signature>``;
    a file's own node (kind ``module``) has no lines: it is the whole file. Not ``whole``:
    only the line of its name (the node is the subject, not the answer)."""
    row = f"{node.nid} {node.kind}"
    if node.kind != "module":
        row += f" {span(node.name_line, node.end_line) if whole else node.name_line}"
    for key, value in (notes or {}).items():
        row += f" {key}:{value}"
    if signature and node.signature:
        bare = short_signature(node.signature, name=node.name)
        row += f" | {bare}" if bare else ""
    return row


def related_head(nid: str, kind: str, line: int, symbol: Node | None) -> str:
    """``<id>[ <kind>] <line>`` of a related row: the id without ``<lang>:`` and no kind
    where they are ``symbol``'s (a path with a colon keeps its language); a file's own node
    has no line."""
    lang, _, rest = nid.partition(":")
    if kind in CALLABLE_KINDS and _folds_overloads(lang):  # `f~3`: one of f's overloads,
        nid = _OVERLOAD.sub("", nid)  # all of them one definition (its id names them all)
        rest = _OVERLOAD.sub("", rest)
    if symbol is not None and lang == symbol.lang and ":" not in rest:
        nid = rest
    head = nid if symbol is not None and kind == symbol.kind else f"{nid} {kind}"
    return head if kind == "module" else f"{head} {line}"  # a file: no line, it is whole


_OVERLOAD = re.compile(r"~\d+$")


def _folds_overloads(code: str) -> bool:
    """Whether a language's overloads (one name in one scope) are one definition."""
    lang = by_code(code)
    return lang is not None and lang.overloads != "distinct" and not lang.distinct_namesakes


def related_row(node: Node, symbol: Node | None, signature: bool = True,
                notes: dict[str, object] | None = None) -> str:
    """A node in a list about ``symbol`` (the answer's): ``<id>[ <kind>] <line>``, its notes
    and `` | <signature>``, the id without ``<lang>:`` and no kind where they are
    ``symbol``'s; only the line of its name."""
    row = related_head(node.nid, node.kind, node.name_line, symbol)
    for key, value in (notes or {}).items():
        row += f" {key}:{value}"
    if signature and node.signature:
        bare = short_signature(node.signature, name=node.name)
        row += f" | {bare}" if bare else ""
    return row


def outline_row(node: Node, depth: int, signature: bool, end: bool = True,
                names_only: bool = False) -> str:
    """One symbol of an outline, indented by its nesting (without ``end``, only the line its
    name is on); the name keeps a ``~n`` suffix (a second definition of the same name); a
    static method says so (`` (static)``). ``names_only``: a callable's parameters by name
    (``parameter_list``) where the language writes types after them."""
    lines = span(node.name_line, node.end_line) if end else str(node.name_line)
    row = f"{INDENT * depth}{lines} {node.kind} {node.shown_name}"
    static = node.static and node.kind in CALLABLE_KINDS  # (beside an instance namesake: two)
    if static:
        row += " (static)"
    if signature and node.signature:
        bare = bare_signature(one_line(node.signature), node.name)
        if names_only and (node.kind in CALLABLE_KINDS or node.kind == "property") and \
                node.lang in _NAMES_FIRST and not bare.startswith("="):  # (no assignment)
            bare = parameter_list(bare)
            bare = bare[len("static"):].lstrip() if static and bare.startswith("static") \
                else bare
        bare = short_signature(bare)
        row += f" | {bare}" if bare else ""
    return row


# languages whose parameters are written `name: type`: an outline row keeps the names
_NAMES_FIRST = frozenset({"py", "ts", "tsx", "js", "jsx"})


def ref_row(line: int, col: int | None, kind: str, scope: str | None, code: str | None,
            name: str, common_kind: str, mark: str | None = None,
            alias: str | None = None) -> str:
    """A reference inside its file's group; ``scope`` None: the same as the row above;
    ``col`` None: its line only (a rendering without columns); ``alias``: the other name the
    use is written with (``(as asList)``)."""
    shown = col is None or (code is not None and code.count(alias or name) == 1)
    position = str(line) if shown else f"{line}:{col}"
    row = position + _kind_note(None if kind == common_kind else kind, alias)
    row += f" {scope}" if scope is not None else ""
    row += f" [{mark}]" if mark else ""
    return row if code is None else f"{row} | {code}"


def line_row(line: int, mark: str | None, kind: str | None = None,
             alias: str | None = None) -> int | str:
    """A reference as its line only (the cheapest rendering): the number, or a row with its
    kind (when not the answer's ``refKind``), the other name it is written with, and mark."""
    row = str(line) + _kind_note(kind, alias) + (f" [{mark}]" if mark else "")
    return row if kind or mark or alias else line


def _kind_note(kind: str | None, alias: str | None) -> str:
    """`` (kind)``, `` (as other)``, `` (kind as other)`` or nothing."""
    said = " ".join(part for part in (kind, f"as {alias}" if alias else None) if part)
    return f" ({said})" if said else ""


class RefFields(NamedTuple):
    """What a reference row says (``parse_ref_row``)."""

    line: int
    col: int | None
    kind: str | None  # None: the answer's refKind
    scope: str | None  # None: the same as the row above
    mark: str | None
    code: str | None
    alias: str | None = None  # the other name the use is written with


def parse_ref_row(row: int | str) -> RefFields:
    """The fields of a ref row, or of a line alone (ValueError when ``row`` is neither)."""
    if isinstance(row, int) and not isinstance(row, bool):
        return RefFields(row, None, None, None, None, None)
    found = _REF_ROW.match(row) if isinstance(row, str) else None
    if found is None:
        raise ValueError(f"not a reference row: {row!r}")
    line, col, kind, alias, scope, mark, code = found.groups()
    return RefFields(int(line), int(col) if col else None, kind, scope, mark, code, alias)


class NodeRow(NamedTuple):
    id: str
    kind: str
    line: int
    end_line: int
    notes: dict[str, str]
    signature: str | None


def parse_node_row(row: str) -> NodeRow:
    """The fields of a node row (ValueError when ``row`` is not one)."""
    found = _NODE_ROW.match(row)
    if found is None:
        raise ValueError(f"not a node row: {row!r}")
    nid, kind, line, end, notes, signature = found.groups()
    pairs = dict(note.split(":", 1) for note in notes.split())
    first = int(line) if line else 1  # a file's node: the whole file
    return NodeRow(nid, kind, first, int(end or first), pairs, signature)


def parse_related_row(row: str, symbol: str) -> NodeRow:
    """The fields of a related row, its id and kind made whole from ``symbol`` (the answer's
    symbol row; a plain name when the map does not have it); ValueError when ``row`` is not
    a related row."""
    found = _RELATED_ROW.match(row)
    if found is None:
        raise ValueError(f"not a related row: {row!r}")
    nid, kind, line, end, notes, signature = found.groups()
    try:
        head = parse_node_row(symbol)
    except ValueError:
        head = None
    if ":" not in nid:  # an id with a colon (in its path) keeps its language
        if head is None or not _LANG.match(head.id):
            raise ValueError(f"no language in {row!r} and no symbol row to take it from")
        nid = f"{head.id.split(':', 1)[0]}:{nid}"
    if kind is None:
        if head is None:
            raise ValueError(f"no kind in {row!r} and no symbol row to take it from")
        kind = head.kind
    pairs = dict(note.split(":", 1) for note in notes.split())
    if line is None and (kind != "module" or "#" in nid):
        raise ValueError(f"no line in {row!r}, which is not a file's node")
    first = int(line) if line else 1  # a file's node: the whole file
    return NodeRow(nid, kind, first, int(end or first), pairs, signature)


def file_row(row: str, path: str) -> str:
    """A related row (a call's) without the file a group of rows is keyed by: ``a.py#f 3
    at:5`` → ``f 3 at:5``; the file's own code (``a.py module at:5``) → ``<module> at:5``; a
    server's row the map has no node for (``a.py:3:1 function f``) → ``3:1 function f``."""
    if row.startswith((f"{path}#", f"{path}:")):
        return row[len(path) + 1:]
    if row == path or row.startswith(f"{path} "):
        return MODULE + row[len(path):].removeprefix(" module")
    return row


_WHOLE_ID = re.compile(r"[a-z][a-z0-9_+-]*:")  # a row's id that keeps its language


def whole_call_rows(calls: Any) -> list[Any]:
    """The call rows of an answer's ``calls`` as whole related rows: a list (a tree) as it
    is; rows grouped by file (``file_row``) made whole again (the outside group's left out)."""
    if not isinstance(calls, dict):
        return list(calls) if isinstance(calls, list) else []
    out: list[Any] = []
    for path, rows in calls.items():
        if path == OUTSIDE_ROOT or not isinstance(rows, list):
            continue
        for row in rows:
            if not isinstance(row, str):
                continue
            if _WHOLE_ID.match(row) and row.split(":", 1)[1].startswith(path):
                out.append(row)  # (another language's: its id kept whole)
            elif row.startswith(MODULE):
                out.append(path + " module" + row[len(MODULE):])
            elif row[:1].isdigit():
                out.append(f"{path}:{row}")
            else:
                out.append(f"{path}#{row}")
    return out
