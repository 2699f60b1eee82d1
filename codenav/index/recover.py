"""Syntax errors: reporting them, and re-parsing past the lines an error swallowed."""

from __future__ import annotations

from typing import Any

from codenav.model import Problem
from codenav.positions import LineIndex

__all__ = ["problems", "recover"]

_MAX_PROBLEMS = 50
_BLANK = bytes(0x0A if b == 0x0A else 0x20 for b in range(256))  # every byte but newline -> space


def problems(root: Any, index: LineIndex) -> tuple[int, list[Problem]]:
    """Syntax errors: ERROR and MISSING nodes, visiting only subtrees that contain errors.

    Returns the total count and the first few, sorted by position.
    """
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


def recover(parser: Any, root: Any, data: bytes, index: LineIndex,
            rounds: int = 3) -> tuple[Any, list[tuple[int, int]]]:
    """Re-parse with the lines an error swallowed blanked out, so what follows still maps.

    tree-sitter often folds everything after a syntax error into one ERROR node (a missing
    ``)`` hides every later definition). Blank the error's lines up to the next line indented
    no deeper than where the error began, keeping byte offsets, and parse again. Returns the
    new root and the blanked byte ranges.
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
