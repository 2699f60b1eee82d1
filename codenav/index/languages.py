"""The language table: ``grammars/languages.toml`` plus each language's ``tags.scm``.

The grammars folder sits at the top of a checkout and inside the installed package
(``codenav/grammars``, placed there by the wheel build); whichever exists is used.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, cast

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

__all__ = ["Language", "by_code", "by_extension", "grammars_dir", "languages", "parser_and_query"]


@dataclass(frozen=True, slots=True)
class Language:
    """One row of ``languages.toml``."""

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

    @property
    def tags_path(self) -> Path:
        return grammars_dir() / self.name / "tags.scm"


@cache
def grammars_dir() -> Path:
    """The folder holding ``languages.toml`` and the per-language queries."""
    package = Path(__file__).resolve().parent.parent
    for candidate in (package / "grammars", package.parent / "grammars"):
        if (candidate / "languages.toml").is_file():
            return candidate
    raise RuntimeError(f"codenav's grammars folder is missing (looked beside {package})")


@cache
def languages() -> tuple[Language, ...]:
    """Every language codenav maps, in table order."""
    table: dict[str, Any] = tomllib.loads((grammars_dir() / "languages.toml").read_text("utf-8"))
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


@cache
def by_code(code: str) -> Language | None:
    """The language with this short code (``py``), or None."""
    return next((lang for lang in languages() if lang.code == code), None)


@cache
def parser_and_query(lang: Language) -> tuple[Any, Any, Any]:
    """Parser, tags query and identifier query for ``lang``, compiled once per process."""
    from tree_sitter import Parser, Query
    from tree_sitter_language_pack import get_language

    grammar = get_language(cast(Any, lang.grammar))
    identifiers = "[" + " ".join(f"({t})" for t in lang.identifiers) + "] @name"
    return (Parser(grammar), Query(grammar, lang.tags_path.read_text("utf-8")),
            Query(grammar, identifiers))
