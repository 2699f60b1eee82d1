"""What an answer tells a reader: the node ids and (file, line) positions in an envelope,
read the way docs/contract.md says rows are written (compact) or from objects (full).

The benchmarks count a fact as found when it is here: an id named by a node row or an
object, a related row (its id made whole from the answer's symbol row), a reference row's
line in its file's group, an outline or children row (its id rebuilt from the file, the
nesting and the name).
"""

from __future__ import annotations

from typing import Any

from codenav.tools.rows import parse_node_row, parse_ref_row, parse_related_row, whole_call_rows

__all__ = ["facts"]

Position = tuple[str, int]


# Fields that say something about an answer in words, never a row of it; and the uses an
# answer could not attribute (`unresolved`), which it lists for the reader to judge, not claims.
_PROSE = frozenset({"unlisted", "unresolved", "note", "hint"})


def facts(envelope: dict[str, Any]) -> tuple[set[str], set[Position]]:
    """Node ids and (file, line) positions anywhere in an answer."""
    ids: set[str] = set()
    positions: set[Position] = set()
    data = envelope.get("data", {})
    if isinstance(data, dict):
        _outline(data, ids, positions)
    _walk(data, None, ids, positions)
    return ids, positions


def _walk(value: Any, file: str | None, ids: set[str], positions: set[Position]) -> None:
    if isinstance(value, dict):
        here = value.get("file", file) if isinstance(value.get("file", file), str) else file
        if isinstance(value.get("id"), str):
            ids.add(value["id"])
        anchor = value.get("anchor")
        if isinstance(anchor, dict) and isinstance(anchor.get("line"), int):
            where = anchor.get("file", here)
            if isinstance(where, str):
                positions.add((where, anchor["line"]))
        if here and isinstance(value.get("line"), int):
            positions.add((here, value["line"]))
        for key, item in value.items():
            if key in _PROSE:
                continue
            if key == "references" and isinstance(item, dict):
                _references(item, ids, positions)
            elif key in ("types", "calls") and isinstance(value.get("symbol"), str) and \
                    isinstance(item, (list, dict)):
                _related(whole_call_rows(item), value["symbol"], ids, positions)
            elif key not in ("symbols", "children") or not _rows(item):
                _walk(item, here, ids, positions)
    elif isinstance(value, list):
        for item in value:
            _walk(item, file, ids, positions)
    elif isinstance(value, str):
        _node(value, ids, positions)


def _node(row: str, ids: set[str], positions: set[Position]) -> None:
    """A node row (or a hierarchy row headed by an id)."""
    if ":" not in row.split(" ", 1)[0]:
        return
    try:
        parsed = parse_node_row(row)
    except ValueError:
        return
    ids.add(parsed.id)
    _, _, rest = parsed.id.partition(":")
    positions.add((rest.split("#", 1)[0], parsed.line))


def _related(rows: list[Any], symbol: str, ids: set[str], positions: set[Position]) -> None:
    """Related rows (a hierarchy's types and calls, ``{"call": row, "children": […]}`` for
    a call with calls of its own), made whole from the answer's symbol row."""
    for row in rows:
        if isinstance(row, dict):
            _related([row.get("call"), *(row.get("children") or [])], symbol, ids, positions)
            continue
        if not isinstance(row, str):
            continue
        try:
            parsed = parse_related_row(row, symbol)
        except ValueError:  # a type the map does not have: its place, kind and name
            continue
        ids.add(parsed.id)
        positions.add((parsed.id.split(":", 1)[1].split("#", 1)[0], parsed.line))


def _references(groups: dict[str, Any], ids: set[str], positions: set[Position]) -> None:
    for path, rows in groups.items():
        for row in rows if isinstance(rows, list) else []:
            if isinstance(row, (str, int)) and not isinstance(row, bool):  # a line alone: int
                positions.add((path, parse_ref_row(row).line))
            elif isinstance(row, dict) and isinstance(row.get("line"), int):
                positions.add((path, row["line"]))


def _rows(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, str) for v in value)


def _outline(data: dict[str, Any], ids: set[str], positions: set[Position]) -> None:
    """Outline rows (map_outline's ``symbols``) and children rows (map_node's), their ids
    rebuilt from the file or parent id, the indentation and the name."""
    if isinstance(data.get("file"), str) and _rows(data.get("symbols")):
        base, path = f"{data.get('lang', '')}:{data['file']}#", data["file"]
        rows = data["symbols"]
    elif isinstance(data.get("id"), str) and _rows(data.get("children")):
        parent = data["id"]
        base = parent + ("." if "#" in parent else "#")
        path = parent.split(":", 1)[1].split("#", 1)[0]
        rows = data["children"]
    else:
        return
    stack: list[str] = []
    for row in rows:
        depth = (len(row) - len(row.lstrip(" "))) // 2
        head = row.strip().split(" | ", 1)[0].split()
        if len(head) < 3:
            continue
        line = int(head[0].split("-", 1)[0])
        del stack[depth:]
        stack.append(head[2])
        ids.add(base + ".".join(stack))
        positions.add((path, line))
