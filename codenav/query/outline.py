"""Outlines as data: a file's definitions or a node's children in source order, each with
its depth, optionally narrowed to some kinds (with what holds them, for context), and the
overloads of one name folded into one entry. ``tools/render.py`` turns them into rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from codenav.index.languages import by_code
from codenav.store.read import Node

__all__ = ["Entry", "asked_kinds", "entries", "one_per_overload"]

_CALLABLE = frozenset({"function", "method", "constructor", "property"})
# Kinds a kind asked for stands for too: a property is a method (its row says property).
_ALSO = {"method": ("property",), "function": ("property",)}


def asked_kinds(kinds: Sequence[str] | None) -> tuple[str, ...]:
    """The kinds a ``kinds`` argument means: ``method`` keeps properties (``@property``,
    getters), which are methods with a mark."""
    out = list(kinds or ())
    for kind in kinds or ():
        out += [also for also in _ALSO.get(kind, ()) if also not in out]
    return tuple(out)


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
    wanted = set(asked_kinds(kinds))
    keep: set[int] = set()
    parents = {entry.node.id: entry.node.parent_id for entry in out}
    for entry in out:
        if entry.node.kind in wanted:
            current: int | None = entry.node.id
            while current is not None and current in parents and current not in keep:
                keep.add(current)
                current = parents[current]
    return [entry for entry in out if entry.node.id in keep]


def one_per_overload(found: list[Entry]) -> tuple[list[Entry], dict[str, int]]:
    """The members with the overloads of one name in one scope listed once (the first;
    a getter and its setter are one too), and how many each stands for."""
    first: dict[tuple[int | None, str, bool], int] = {}
    counts: dict[str, int] = {}
    kept: list[Entry] = []
    for entry in found:
        node = entry.node
        lang = by_code(node.lang)
        if node.kind in _CALLABLE and not (lang is not None and lang.distinct_namesakes):
            group = (node.parent_id, node.name, node.static)  # (static: another symbol)
            if group in first:
                shown = kept[first[group]].node.shown_name  # counted under its row's name
                counts[shown] = counts.get(shown, 1) + 1
                continue
            first[group] = len(kept)
        kept.append(entry)
    return kept, counts
