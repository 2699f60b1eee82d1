"""The languages codenav maps: one folder each under ``grammars/`` holding ``language.toml``
(the fields are described in ``grammars/README.md``) and ``tags.scm``.

The grammars folder sits at the top of a checkout and inside the installed package
(``codenav/grammars``, placed there by the wheel build); whichever exists is used.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, cast

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

__all__ = ["Language", "Queries", "by_code", "by_extension", "family", "grammars_dir",
           "language_of", "languages", "queries", "split_patterns"]


@dataclass(frozen=True, slots=True)
class Language:
    """One ``grammars/<name>/language.toml``."""

    name: str
    code: str
    grammar: str
    extensions: tuple[str, ...]
    identifiers: tuple[str, ...]
    comments: frozenset[str]
    scopes: frozenset[str]
    containers: frozenset[str]
    receiver: str
    super_call: str
    modules: str
    constructor: str
    receivers: tuple[tuple[str, str], ...]  # (member-access node type, receiver field)
    free_names: tuple[str, ...]  # where names bound nowhere in the file are looked up
    implicit_members: bool  # a bare name inside a method may be a member of its class
    related_members: bool = False  # references of a member include its overrides' and bases'
    declared_fields: bool = False  # a field is declared in its class's body, never by `this.x =`
    static_namesakes: bool = False  # a class may have a static and an instance member so named
    receiver_aliases: tuple[str, ...] = ()  # more keywords naming the receiver (PHP ``self``)
    separators: tuple[str, ...] = ()  # member separators besides "." (``->``, ``::``)
    sigil: str = ""  # a variable name's prefix dropped in receivers and types (PHP ``$``)
    attributes: frozenset[str] = frozenset()  # between a doc comment and its item (Rust ``#[…]``)
    guess_members: bool = True  # an unknown receiver's member: the one member of that name
    include: tuple[str, ...] = ()  # languages whose tags.scm come before this one's
    namespaces: frozenset[str] = frozenset()  # kinds reopened across files (C++ namespace)
    decorator_suffix: str = ""  # a decorator names the class with this suffix (C# Attribute)
    implicit_interfaces: bool = False  # a type satisfies interfaces by its methods (Go)
    type_wrappers: frozenset[str] = frozenset()  # generics standing for their argument (Partial)
    paths: frozenset[str] = frozenset()  # node types whose receiver is a module path (Rust)
    subscripts: bool = False  # `a[i].x`, `(*p).x`: members of `a`'s, `p`'s type (C, Go)
    # container kinds whose instance type is whoever implements them (a Rust trait): a
    # receiver alias there (`Self`) names no node
    implementor_kinds: frozenset[str] = frozenset()
    # the language's own global types: a receiver of one (`const stack = [x]`, `new Map()`,
    # `Array.prototype.pop`) is no value of the map's, its member another definition's
    builtin_types: frozenset[str] = frozenset()
    # node type -> a wrapper (``%s``: the node's text) that makes the code a grammar leaves
    # unparsed parse as code (a C macro's body): its names are references too
    reparse: tuple[tuple[str, str], ...] = ()
    # "distinct": callables of one name in one scope are overloads, each its own symbol
    # (Java, C#, C++); "signatures": overload signatures of one symbol (TypeScript). Either
    # way a call reaches the one whose parameters fit its arguments (index/overloads.py)
    overloads: str = ""
    # callables of one name in one scope are distinct symbols without being overloads
    # (Rust: the `fmt` of `impl Display` and of `impl Debug`): never folded into one
    distinct_namesakes: bool = False
    # macros the preprocessor defines before any file (a value; False: known undefined)
    predefined: tuple[tuple[str, int | bool], ...] = ()
    # (node type, kind): names written in such a node live apart (C's `struct P` tags)
    tags: tuple[tuple[str, str], ...] = ()

    @property
    def tag_nodes(self) -> frozenset[str]:
        return frozenset(node for node, _ in self.tags)

    @property
    def tag_kinds(self) -> frozenset[str]:
        return frozenset(kind for _, kind in self.tags)
    # (ending, pattern): files of another language's ending that are this one's by content
    claims: tuple[tuple[str, re.Pattern[bytes]], ...] = ()

    @property
    def tags_path(self) -> Path:
        return grammars_dir() / self.name / "tags.scm"

    @property
    def tags_paths(self) -> list[Path]:
        """The query files of this language, included ones first."""
        return [grammars_dir() / name / "tags.scm" for name in self.include] + [self.tags_path]


@cache
def grammars_dir() -> Path:
    """The folder holding one sub-folder per language."""
    package = Path(__file__).resolve().parent.parent
    for candidate in (package / "grammars", package.parent / "grammars"):
        if (candidate / "python" / "language.toml").is_file():
            return candidate
    raise RuntimeError(f"codenav's grammars folder is missing (looked beside {package})")


@cache
def languages() -> tuple[Language, ...]:
    """Every language codenav maps, by folder name."""
    table: dict[str, Any] = {
        folder.name: tomllib.loads((folder / "language.toml").read_text("utf-8"))
        for folder in sorted(grammars_dir().iterdir())
        if (folder / "language.toml").is_file()}
    return tuple(
        Language(
            name=name,
            code=row["code"],
            grammar=row.get("grammar", name),
            extensions=tuple(row["extensions"]),
            identifiers=tuple(row.get("identifiers", ("identifier",))),
            comments=frozenset(row.get("comments", ())),
            scopes=frozenset(row.get("scopes", ())),
            containers=frozenset(row.get("containers", ())),
            receiver=row.get("receiver", ""),
            super_call=row.get("super_call", ""),
            modules=row.get("modules", ""),
            constructor=row.get("constructor", ""),
            receivers=tuple(sorted(row.get("receivers", {}).items())),
            free_names=tuple(row.get("free_names", ())),
            implicit_members=bool(row.get("implicit_members", False)),
            related_members=bool(row.get("related_members", False)),
            declared_fields=bool(row.get("declared_fields", False)),
            static_namesakes=bool(row.get("static_namesakes", False)),
            include=tuple(row.get("include", ())),
            namespaces=frozenset(row.get("namespaces", ())),
            receiver_aliases=tuple(row.get("receiver_aliases", ())),
            separators=tuple(row.get("separators", ())),
            sigil=row.get("sigil", ""),
            attributes=frozenset(row.get("attributes", ())),
            guess_members=bool(row.get("guess_members", True)),
            decorator_suffix=row.get("decorator_suffix", ""),
            implicit_interfaces=bool(row.get("implicit_interfaces", False)),
            type_wrappers=frozenset(row.get("type_wrappers", ())),
            builtin_types=frozenset(row.get("builtin_types", ())),
            paths=frozenset(row.get("paths", ())),
            subscripts=bool(row.get("subscripts", False)),
            tags=tuple(sorted(row.get("tags", {}).items())),
            predefined=tuple(sorted(row.get("predefined", {}).items())),
            overloads=str(row.get("overloads", "")),
            distinct_namesakes=bool(row.get("distinct_namesakes", False)),
            implementor_kinds=frozenset(row.get("implementor_kinds", ())),
            reparse=tuple(sorted(row.get("reparse", {}).items())),
            claims=tuple((ending, re.compile(pattern.encode())) for ending, pattern
                         in sorted(row.get("claims", {}).items())),
        )
        for name, row in table.items()
    )


@cache
def _extension_table() -> dict[str, Language]:
    return {ext: lang for lang in languages() for ext in lang.extensions}


def by_extension(path: str) -> Language | None:
    """The language of a file name, or None when codenav does not map it."""
    dot = path.rfind(".")
    if dot < 0 or "/" in path[dot:]:
        return None
    return _extension_table().get(path[dot + 1 :].lower())


_CLAIM_PROBE = 64 * 1024  # how much of a file a content claim looks at


@cache
def _claims_table() -> dict[str, tuple[tuple[Language, re.Pattern[bytes]], ...]]:
    table: dict[str, list[tuple[Language, re.Pattern[bytes]]]] = {}
    for lang in languages():
        for ending, pattern in lang.claims:
            table.setdefault(ending, []).append((lang, pattern))
    return {ending: tuple(found) for ending, found in table.items()}


def language_of(path: str, data: bytes) -> Language | None:
    """The language of a file given its text: its ending's, unless another language claims
    the ending for text like this (a ``.h`` header written in C++)."""
    lang = by_extension(path)
    if lang is None:
        return None
    ending = path[path.rfind(".") + 1 :].lower()
    for other, pattern in _claims_table().get(ending, ()):
        if pattern.search(data, 0, _CLAIM_PROBE):
            return other
    return lang


@cache
def by_code(code: str) -> Language | None:
    """The language with this short code (``py``), or None."""
    return next((lang for lang in languages() if lang.code == code), None)


def family(code: str) -> str:
    """The language family of a language code — its module system (TypeScript, TSX and
    JavaScript are one), else the code itself."""
    lang = by_code(code)
    return (lang.modules or lang.code) if lang is not None else code


@dataclass(frozen=True, slots=True)
class Queries:
    """A language's compiled queries: ``assoc`` patterns relate several captures (run with
    ``matches``); ``flat`` ones capture one node each, every identifier as ``@name`` among
    them (run with ``captures``, much cheaper per result)."""

    parser: Any
    assoc: Any
    flat: Any


def split_patterns(source: str) -> list[str]:
    """The top-level patterns of a query file, comments dropped."""
    patterns: list[str] = []
    current: list[str] = []
    depth, i, n = 0, 0, len(source)
    while i < n:
        char = source[i]
        if char == ";":  # a comment, to the end of the line
            while i < n and source[i] != "\n":
                i += 1
            continue
        if char == '"':  # a string: copied whole, escapes included
            end = i + 1
            while end < n and source[end] != '"':
                end += 2 if source[end] == "\\" else 1
            if depth == 0 and "".join(current).strip():
                patterns.append("".join(current))
                current = []
            current.append(source[i : end + 1])
            i = end + 1
            continue
        if char in "([" and depth == 0 and "".join(current).strip():
            patterns.append("".join(current))
            current = []
        if char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
        current.append(char)
        i += 1
    if "".join(current).strip():
        patterns.append("".join(current))
    return [p.strip() for p in patterns]


_CAPTURE = re.compile(r"@([A-Za-z][\w.-]*)")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def _is_flat(pattern: str) -> bool:
    """One capture that is not a helper (``@_x``): nothing to associate."""
    return len(set(_CAPTURE.findall(_STRING.sub("", pattern)))) == 1


@cache
def queries(lang: Language) -> Queries:
    """The parser and compiled queries of ``lang``, once per process."""
    from tree_sitter import Parser, Query
    from tree_sitter_language_pack import get_language

    grammar = get_language(cast(Any, lang.grammar))
    patterns = [pattern for path in lang.tags_paths
                for pattern in split_patterns(path.read_text("utf-8"))]
    identifiers = "[" + " ".join(f"({t})" for t in lang.identifiers) + "] @name"
    # Each query is one walk of the tree: the identifiers ride along with the flat patterns.
    flat = "\n".join([identifiers, *(p for p in patterns if _is_flat(p))])
    assoc = "\n".join(p for p in patterns if not _is_flat(p))
    return Queries(Parser(grammar), Query(grammar, assoc), Query(grammar, flat))
