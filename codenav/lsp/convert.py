"""Where LSP's coordinates meet the map's — the one place they are converted (pygls'
``position_codec`` is the model).

LSP speaks file URIs, 0-based lines and 0-based UTF-16 characters; the map and every answer
speak repo-relative POSIX paths, 1-based lines and 1-based UTF-16 columns (docs/contract.md
§2). Both count UTF-16 code units, so a column is a character plus one, a line a line plus
one; a URI outside the root stays an absolute path, marked so.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple
from urllib.parse import unquote, urlparse

if TYPE_CHECKING:
    from lsprotocol import types as T

__all__ = ["Place", "lsp_position", "lsp_range", "path_of", "place", "uri_of"]


class Place(NamedTuple):
    """A place a language server named, in the map's terms: ``path`` repo-relative when
    ``inside`` the root, else absolute; 1-based lines and UTF-16 columns."""

    path: str
    inside: bool
    line: int
    col: int
    end_line: int
    end_col: int


def uri_of(root: Path, path: str) -> str:
    """The file URI of repo-relative ``path`` under ``root``."""
    return (root / path).as_uri()


def path_of(uri: str, root: Path) -> tuple[str, bool]:
    """(repo-relative path, True) for a file URI under ``root`` (symlinks resolved);
    (absolute path, False) otherwise."""
    parsed = urlparse(uri)
    absolute = Path(unquote(parsed.path)) if parsed.scheme == "file" else Path(uri)
    try:
        return absolute.resolve().relative_to(root).as_posix(), True
    except (ValueError, OSError):
        return str(absolute), False


def place(uri: str, rng: T.Range, root: Path) -> Place:
    """An LSP location (``uri`` and ``rng``) as a place."""
    path, inside = path_of(uri, root)
    return Place(path, inside, rng.start.line + 1, rng.start.character + 1,
                 rng.end.line + 1, rng.end.character + 1)


def lsp_position(line: int, col: int) -> T.Position:
    """A 1-based line and column as an LSP position."""
    from lsprotocol import types as T  # lazily: 0.6 s to import
    return T.Position(line=line - 1, character=col - 1)


def lsp_range(line: int, col: int, end_line: int, end_col: int) -> T.Range:
    """A 1-based span as an LSP range."""
    from lsprotocol import types as T  # lazily: 0.6 s to import
    return T.Range(start=lsp_position(line, col), end=lsp_position(end_line, end_col))
