"""What is wrong in a file, and what renaming a symbol would change (never applied): a
language server's diagnostics and workspace edits in the map's terms, or the map's own —
tree-sitter's syntax errors, and the declarations and resolved uses of the symbol."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from codenav.lsp.convert import place
from codenav.positions import utf16_len
from codenav.query.locate import declarations_of, references_of
from codenav.store.read import MapReader, Node

__all__ = ["SEVERITIES", "Diagnostic", "Edit", "map_diagnostics", "map_edits",
           "server_diagnostics", "server_edits"]

_SEVERITY = {1: "error", 2: "warning", 3: "information", 4: "hint"}
SEVERITIES = ("error", "warning", "information", "hint")  # in the order they are listed
_MESSAGE_CHARS = 400


@dataclass(frozen=True, slots=True)
class Diagnostic:
    severity: str
    line: int
    col: int
    end_line: int
    end_col: int
    message: str
    source: str | None = None
    code: str | None = None


@dataclass(frozen=True, slots=True)
class Edit:
    """One replacement: the span and its new text (``external``: outside the root)."""

    line: int
    col: int
    end_line: int
    end_col: int
    new_text: str
    external: bool = False


def _ranked(items: list[Diagnostic]) -> list[Diagnostic]:
    rank = {severity: i for i, severity in enumerate(SEVERITIES)}
    return sorted(items, key=lambda d: (rank.get(d.severity, 4), d.line, d.col))


def map_diagnostics(reader: MapReader, path: str) -> list[Diagnostic]:
    """The map's diagnostics of a file: tree-sitter's syntax errors, errors first."""
    stat = reader.file(path)
    return _ranked([Diagnostic("error", line, col, end_line, end_col, message, "tree-sitter")
                    for line, col, end_line, end_col, message in
                    (reader.problems(stat.id) if stat is not None else [])])


def server_diagnostics(found: Any) -> list[Diagnostic]:
    """A server's published diagnostics, errors first (messages at most 400 characters)."""
    out = []
    for diagnostic in found:
        rng = diagnostic.range
        message = diagnostic.message
        if len(message) > _MESSAGE_CHARS:
            message = message[: _MESSAGE_CHARS - 1] + "…"
        out.append(Diagnostic(
            _SEVERITY.get(int(diagnostic.severity or 1), "error"),
            rng.start.line + 1, rng.start.character + 1, rng.end.line + 1,
            rng.end.character + 1, message, diagnostic.source or None,
            str(diagnostic.code) if diagnostic.code is not None else None))
    return _ranked(out)


def server_edits(root: Path, edit: Any) -> dict[str, list[Edit]]:
    """Edits per file from a WorkspaceEdit's ``changes`` or ``documentChanges`` (files
    outside the root keep their absolute path, marked ``external``)."""
    from lsprotocol import types as T  # lazily: 0.6 s to import
    out: dict[str, list[Edit]] = defaultdict(list)
    if edit is None:
        return out
    pairs: list[tuple[str, Any]] = []
    for uri, edits in (edit.changes or {}).items():
        pairs += [(uri, e) for e in edits]
    for change in edit.document_changes or []:
        if isinstance(change, T.TextDocumentEdit):
            pairs += [(change.text_document.uri, e) for e in change.edits]
    for uri, text_edit in pairs:
        rng = getattr(text_edit, "range", None)
        if rng is None:
            continue
        where = place(uri, rng, root)
        out[where.path].append(Edit(where.line, where.col, where.end_line, where.end_col,
                                    text_edit.new_text, external=not where.inside))
    return out


def map_edits(reader: MapReader, node: Node, new_name: str) -> dict[str, list[Edit]]:
    """The declarations and resolved uses of ``node``, each its name replaced."""
    out: dict[str, list[Edit]] = defaultdict(list)
    width = utf16_len(node.name)
    seen: set[tuple[str, int, int]] = set()
    sites = [(d.path, d.name_line, d.name_col) for d in declarations_of(reader, node)]
    sites += [(h.path, h.line, h.col) for h in references_of(reader, node)
              if h.name == node.name]
    for path, line, col in sites:
        if (path, line, col) in seen:
            continue
        seen.add((path, line, col))
        out[path].append(Edit(line, col, line, col + width, new_name))
    return out
