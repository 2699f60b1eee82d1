"""Where a symbol is defined and what it is: the map's definitions of what a question names
(or, for an attribute of a receiver whose type the map cannot tell, the members of that
name), why the map has none, and the text of a language server's hover."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from codenav.errors import SymbolNotFound
from codenav.query.locate import MEMBER_KINDS, Located, family
from codenav.store.read import MapReader, Node

__all__ = ["HOVER_CHARS", "Definitions", "hover_text", "map_definitions", "unresolved"]

HOVER_CHARS = 4000
GUESS_LIMIT = 12  # members of one name listed when the receiver's type is unknown
# a receiver of unknown type (``R:``: a member read, not called)
_ANY_MEMBER = re.compile(r"^(?:V:[^:]*:[^:]*::[^|]*\|)?[AR]:([a-z0-9+]*)::")


@dataclass(frozen=True, slots=True)
class Definitions:
    """The map's definitions a question names; ``guessed`` when they are the members of one
    name in the receiver's language family (its type unknown), most used first."""

    nodes: tuple[Node, ...]
    guessed: bool = False


def map_definitions(reader: MapReader, located: Located) -> Definitions:
    """What the map says ``located`` is defined as (SymbolNotFound when nothing)."""
    nodes = tuple(c.node for c in located.each() if c.node is not None)
    if nodes:
        return Definitions(nodes)
    guess = _ANY_MEMBER.match(located.key) if located.key else None
    if guess is not None:
        members = tuple(n for n in reader.nodes_named(located.name, 50)
                        if n.kind in MEMBER_KINDS
                        and family(n.lang) == family(guess.group(1)))[:GUESS_LIMIT]
        if members:
            return Definitions(members, guessed=True)
    raise unresolved(reader, located)


def unresolved(reader: MapReader, located: Located) -> SymbolNotFound:
    """Why a reference has no definition in the map, with the candidates when there are."""
    where = (f" at {located.path}:{located.line}:{located.col}" if located.path else "")
    if located.key and _ANY_MEMBER.match(located.key):
        candidates = [n for n in reader.nodes_named(located.name, 12)
                      if n.kind in MEMBER_KINDS]
        names = ", ".join(n.nid for n in candidates[:8]) or "none in the map"
        return SymbolNotFound(
            f"{located.name!r}{where} is an attribute of a receiver whose type the map cannot "
            f"tell", hint=f"Candidates: {names}. Pass one as id, or source:'lsp' when a "
                          "language server is available.")
    if located.key:
        return SymbolNotFound(
            f"{located.name!r}{where} refers to something outside the mapped files",
            hint="It may come from an installed package or the standard library.")
    return SymbolNotFound(
        f"{located.name!r}{where} is a local name (parameter, local variable) or a builtin: "
        "not a definition in the map",
        hint="Its binding is in the enclosing function; map_outline shows the function.")


def hover_text(result: Any) -> str:
    """Plain text of a server's Hover, whatever shape its contents come in (at most
    ``HOVER_CHARS`` characters)."""
    contents = getattr(result, "contents", None)
    parts = contents if isinstance(contents, (list, tuple)) else [contents]
    out = []
    for part in parts:
        if part is None:
            continue
        if isinstance(part, str):
            out.append(part)
        else:
            value = getattr(part, "value", None)
            if isinstance(value, str):
                out.append(value)
    text = _brief("\n\n".join(p.strip() for p in out if p.strip()))
    return text if len(text) <= HOVER_CHARS else text[: HOVER_CHARS - 1] + "…"


_FENCE = re.compile(r"```.*?```", re.S)
_PROSE_CHARS = 300  # of a hover's first paragraph of prose


def _brief(text: str) -> str:
    """A hover as an answer needs it: the first paragraph of prose (at most
    ``_PROSE_CHARS``) and the code blocks before it — or, when none came before it, the
    first one after it (clangd writes its heading first); the rest of the docstring, its
    examples too, left out (``…``); markdown's ``&nbsp;`` as spaces and its rules dropped."""
    text = text.replace("&nbsp;", " ")
    kept: list[str] = []
    prose = code = cut = False
    position = 0
    for block in [*_FENCE.finditer(text), None]:
        between = text[position: block.start() if block is not None else len(text)]
        for written in re.split(r"\n\s*\n", between):
            paragraph = re.sub(r"(?m)^\s*[-*_]{3,}\s*$", "", written).strip()  # rules
            if not paragraph:
                continue
            if prose:
                cut = True  # (prose beyond the first paragraph)
                continue
            if len(paragraph) > _PROSE_CHARS:  # an `Args:` block with no blank line in it
                paragraph = paragraph[: _PROSE_CHARS - 1].rstrip() + "…"
            kept.append(paragraph)
            prose = True
        if block is None:
            break
        if prose and code:  # an example in the docs
            cut = True
            break
        kept.append(block.group(0))
        code = True
        position = block.end()
        if prose:
            cut = cut or bool(text[position:].strip())
            break
    if cut:
        kept.append("…")
    return "\n\n".join(dict.fromkeys(kept)) if kept else text
