"""Outlines: a file's definitions (map_outline) or a node's children (map_node), in source
order, as rows that degrade by tiers before anything is dropped — rows with signatures, then
names with their lines, then (for a file) its top-level symbols with their members counted —
and are paged by ``offset`` over the rows in source order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from codenav.envelope import Answer, Cut, Page, Tier
from codenav.store.read import Node
from codenav.tools.common import Freshness, summary
from codenav.tools.rows import Detail, outline_row

__all__ = ["Entry", "entries", "outline_answer"]


@dataclass(frozen=True, slots=True)
class Entry:
    node: Node
    depth: int  # nesting below the outline's top level


def entries(nodes: Sequence[Node], top: int | None, kinds: Sequence[str] | None) -> list[Entry]:
    """``nodes`` (source order; their parents come first) with their depth below ``top`` (the
    id of the node whose contents they are). With ``kinds``, only nodes of those kinds and,
    for context, the nodes around them."""
    depth: dict[int | None, int] = {top: -1}
    out: list[Entry] = []
    for node in nodes:
        if node.parent_id not in depth:
            continue  # under a node left out of ``nodes``
        depth[node.id] = depth[node.parent_id] + 1
        out.append(Entry(node, depth[node.id]))
    if not kinds:
        return out
    wanted = set(kinds)
    keep: set[int] = set()
    parents = {entry.node.id: entry.node.parent_id for entry in out}
    for entry in out:
        if entry.node.kind in wanted:
            current: int | None = entry.node.id
            while current is not None and current in parents and current not in keep:
                keep.add(current)
                current = parents[current]
    return [entry for entry in out if entry.node.id in keep]


def outline_answer(data: dict[str, Any], key: str, found: list[Entry], *, offset: int,
                   detail: Detail, page: Page, fresh: Freshness, counts: bool,
                   warnings: list[str], hint: str, signatures: bool = True) -> Answer:
    """``data`` with the page of ``found`` starting at ``offset`` under ``key``: rows and
    their cheaper tiers (``counts``: a tier of top-level rows with members counted), or with
    ``detail`` full, nested objects. Without ``signatures``, the rows are names with their
    lines from the start (a class's members: what they are, not how they are called)."""
    shown = found[offset:]
    if detail == "full":
        data = {**data, key: _nested(shown, fresh)}
        cut = Cut(key, (key,), hint, tree=True)
        return Answer(data, cuts=[cut], warnings=warnings)
    cut = Cut(key, (key,), hint, page=page)
    if not signatures:
        rows = [outline_row(e.node, e.depth, False) for e in shown]
        return Answer({**data, key: rows}, cuts=[cut], warnings=warnings)
    rows = [outline_row(e.node, e.depth, True) for e in shown]
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
