"""Definitions found by name: exact, then case-insensitive, prefix, word parts (camelCase
and snake_case aware), then substring and subsequence when little else matched, then typos
when nothing did; within a tier the most used (hub score) first. ``Class.member`` narrows by
what the qualifier names (enclosing definitions, the module, its folders).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePosixPath

from codenav.errors import BadArgs
from codenav.query.locate import FileFilter
from codenav.store.names import NameScan
from codenav.store.read import MapReader, Node, NodeFilter
from codenav.words import name_words
from codenav.workspace import Workspace

__all__ = ["TIERS", "Found", "search"]

TIERS = ("exact", "exact-nocase", "prefix", "words", "substring", "fuzzy")
_CANDIDATES = 200  # per tier when a filter applied here needs a deeper look
_FUZZY_BELOW = 20  # substring and subsequence tiers run only when fewer results than this


@dataclass(frozen=True, slots=True)
class Found:
    """Matches ranked best first, each with the index of its tier in ``TIERS``; ``capped``:
    some tier had more candidates than were looked at (the count is a lower bound)."""

    matches: list[tuple[int, Node]]
    capped: bool


def _qualifier_matches(node: Node, qualifier: list[str]) -> bool:
    """Whether the parts before the name in a qualified query match the node's qname."""
    parents = node.qname.lower().split(".")[:-1]
    module = PurePosixPath(node.path).stem.lower()
    scope = [*PurePosixPath(node.path).parent.parts, module, *parents]
    position = 0
    for part in qualifier:
        while position < len(scope) and not scope[position].startswith(part):
            position += 1
        if position == len(scope):
            return False
        position += 1
    return True


def search(ws: Workspace, reader: MapReader, query: str, *, room: int,
           kinds: tuple[str, ...] = (), lang: str | None = None, files: FileFilter | None = None,
           exact: bool = False) -> Found:
    """The definitions ``query`` names, ranked; at least ``room`` of each tier are looked at
    (more when a glob or a qualifier filters after the lookup)."""
    text = query.strip()
    parts = [p for p in text.split(".") if p.strip()]
    if not parts:
        raise BadArgs("query must contain a name, e.g. 'Parser' or 'Session.request'")
    name, qualifier = parts[-1].strip(), [p.strip().lower() for p in parts[:-1]]
    files = files or FileFilter(None)
    # a glob or a negated filter is applied after the lookup; a plain prefix in it
    after = files.active and files.prefix is None
    flt = NodeFilter(kinds=kinds, lang=lang, prefix=files.prefix)
    lowered = name.lower()
    limit = _CANDIDATES if qualifier or after else room + 1
    tiers: list[list[Node]] = [reader.named(name, flt, limit),
                               reader.named_nocase(lowered, flt, limit)]
    if not tiers[0]:  # the name other files import it under (`export { A as B }`)
        tiers[0] = [n for n in reader.exported_as(name, limit) if flt.admits(n)]
    if not exact:
        tiers.append(reader.name_prefix(lowered, flt, limit))
        tiers.append(reader.with_words(name_words(name), flt, limit))
    capped = any(len(tier) >= limit for tier in tiers)
    results: list[tuple[int, Node]] = []
    seen: set[int] = set()

    def take(tier: int, nodes: list[Node]) -> None:
        for node in nodes:
            if node.id in seen or (after and not files(node.path)):
                continue
            if qualifier and not _qualifier_matches(node, qualifier):
                continue
            seen.add(node.id)
            results.append((tier, node))

    for tier, nodes in enumerate(tiers):
        take(tier, nodes)
    if not exact and len(results) < _FUZZY_BELOW:
        names = ws.cached("names", lambda: NameScan.load(reader.conn))
        take(4, reader.among(names.matching([lowered]), flt, limit))
        if not results and len(lowered) > 2:  # typos: nothing else matched
            take(5, reader.among(names.matching(list(lowered)), flt, limit))
    results.sort(key=lambda r: (r[0], -r[1].hub, len(r[1].qname), r[1].nid))
    return Found(results, capped)
