"""Plain data shared by the layers: what extraction produces and what the store holds.

No I/O here. Positions are already in docs/contract.md §2 units (1-based lines, 1-based UTF-16
columns); byte offsets are kept only where source text is sliced.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

__all__ = [
    "CALLABLE_KINDS",
    "TYPE_KINDS",
    "Definition",
    "FileFacts",
    "Import",
    "Problem",
    "RefRow",
    "node_id",
]


# The kinds of definition that are called (and of one name, may be overloads).
CALLABLE_KINDS = frozenset({"function", "method", "constructor"})
# The kinds that are types (the containers of every language).
TYPE_KINDS = frozenset({"class", "interface", "enum", "record", "struct", "trait", "union",
                        "type"})


class Definition(NamedTuple):
    """A definition found in one file; becomes a map node."""

    kind: str  # class, function, method, property, variable, constant, field, type …
    name: str
    qname: str  # qualified inside the file: ``Outer.Inner.method``
    key: str  # qname made unique in the file: ``qname``, ``qname~2`` … (docs/contract.md §2)
    parent: int  # index of the enclosing definition in the same list; -1 = the file
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
    type: str | None = None  # for a variable or field: a key naming its class (index/binder.py)


# One identifier use: (name, kind, line, col, scope, qualifier, target, key); it ends at
# col + utf16_len(name) since identifiers never span lines.
# ``scope`` indexes the innermost enclosing Definition (-1 = file level); ``qualifier`` is the
# receiver of an attribute (``self`` in ``self.save``), or None. ``target`` indexes the
# Definition of this file the use resolves to (-1: none); ``key`` names what it resolves to in
# another file (index/binder.py), or None (a local name, a builtin, or unknown).
RefRow = tuple[str, str, int, int, int, "str | None", int, "str | None"]


class Import(NamedTuple):
    """One name bound by an import statement."""

    module: str  # as written, leading dots kept for relative imports: ``..pkg.mod``
    name: str | None  # imported member (``from m import name``), None for ``import m``
    alias: str | None  # ``as`` name
    wildcard: bool
    line: int
    col: int
    scope: int  # enclosing Definition index, -1 = file level
    key: str | None = None  # what the bound name resolves to (index/binder.py key grammar)


class Problem(NamedTuple):
    """A syntax error tree-sitter recovered from."""

    line: int
    col: int
    end_line: int
    end_col: int
    message: str


@dataclass(slots=True)
class FileFacts:
    """Everything extraction learned about one file."""

    path: str  # repo-relative, ``/`` separators
    lang: str  # short code (``py``)
    size: int
    mtime_ns: int
    hash: str
    status: str = "ok"
    indexed_ns: int = 0  # wall clock when the content was read
    lines: int = 0
    parse_errors: int = 0  # every syntax error; ``problems`` keeps the first few
    surface: str = ""  # digest of what other files resolve against (Extraction.surface)
    doc: str | None = None
    defs: list[Definition] = field(default_factory=list)
    refs: list[RefRow] = field(default_factory=list)
    imports: list[Import] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    # conditionally compiled lines (C's #if): first line, last line, condition ("0": out)
    regions: list[tuple[int, int, str]] = field(default_factory=list)
    parse_ms: float = 0.0


def node_id(lang: str, path: str, key: str | None = None) -> str:
    """``<lang>:<relpath>[#key]`` (docs/contract.md §2)."""
    return f"{lang}:{path}#{key}" if key else f"{lang}:{path}"
