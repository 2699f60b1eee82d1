"""Query tests in rust-analyzer's ``check(fixture, expect)`` shape: a small tree written inline,
a cursor in it, and what a query answers there as plain text.

A fixture is files separated by ``//- path`` lines; ``$0`` marks the cursor (removed before
the tree is written and indexed)::

    check('''
    //- pkg/core.py
    class Base:
        def save(self): ...
    //- pkg/use.py
    from pkg.core import Base
    Base().sa$0ve()
    ''', references, '''
    pkg/use.py:2:8 call <module>
    ''')

The query is a function of a ``Query`` (the workspace, its map, the cursor) returning lines;
the expectation is compared line for line after dedenting. Queries are the functions of
``codenav/query`` — the tests see their plain data, not the rows an agent reads.
"""

from __future__ import annotations

import tempfile
import textwrap
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from codenav.index.pipeline import index_tree
from codenav.query.fresh import Freshness
from codenav.query.hierarchy import map_calls, map_types
from codenav.query.locate import FileFilter, Located, locate
from codenav.query.references import map_references
from codenav.query.source import Lines
from codenav.store.read import MapReader
from codenav.workspace import Workspace

__all__ = ["Query", "callees", "callers", "check", "definition", "others", "outline",
           "overrides", "references", "subtypes", "supertypes", "target", "texts"]

CURSOR = "$0"


@dataclass
class Query:
    ws: Workspace
    reader: MapReader
    fresh: Freshness
    path: str | None
    line: int
    col: int

    def at(self) -> Located:
        """What the cursor points at."""
        assert self.path is not None, "this query needs a $0 cursor in the fixture"
        return locate(self.ws, self.reader, self.fresh, file=self.path, line=self.line,
                      col=self.col)


def _write(fixture: str, root: Path) -> tuple[str | None, int, int]:
    """Write the fixture's files under ``root``; the cursor's (path, line, UTF-16 col)."""
    cursor: tuple[str | None, int, int] = (None, 0, 0)
    text = textwrap.dedent(fixture).strip("\n")
    sections = text.split("//- ")[1:]
    assert sections, "a fixture starts with a '//- path' line"
    for section in sections:
        path, _, body = section.partition("\n")
        path = path.strip()
        for number, line in enumerate(body.splitlines(), 1):
            if CURSOR in line:
                before = line[:line.index(CURSOR)]
                cursor = (path, number, len(before.encode("utf-16-le")) // 2 + 1)
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(body.replace(CURSOR, ""), encoding="utf-8")
    return cursor


def check(fixture: str, query: Callable[[Query], Iterable[str]], expect: str) -> None:
    """Index ``fixture``, run ``query`` at its cursor, and compare its lines with ``expect``."""
    with tempfile.TemporaryDirectory(prefix="codenav-query-") as tmp:
        root = Path(tmp) / "repo"
        root.mkdir()
        path, line, col = _write(fixture, root)
        index_tree(root)
        ws = Workspace(root)
        try:
            found = list(query(Query(ws, ws.reader(), Freshness(ws), path, line, col)))
        finally:
            ws.close()
    expected = textwrap.dedent(expect).strip("\n").splitlines()
    assert found == expected, "\n".join(["query answered:", *found, "expected:", *expected])


# ------------------------------------------------------------------------------ queries

def target(q: Query) -> Iterable[str]:
    """What the cursor points at: the definition's id, or the local name."""
    located = q.at()
    yield located.node.nid if located.node is not None else f"local {located.name}"


def definition(q: Query) -> Iterable[str]:
    """Where what the cursor points at is defined (the definitions a name is guessed to
    mean, each marked)."""
    from codenav.query.definitions import map_definitions

    found = map_definitions(q.reader, q.at())
    for node in found.nodes:
        yield f"{node.nid}{' [name]' if found.guessed else ''}"


def references(q: Query) -> Iterable[str]:
    """Every reference to what the cursor points at: ``path:line:col kind scope [mark]``."""
    located = q.at()
    assert located.node is not None, f"{located.name!r} is not a definition in the map"
    page = map_references(q.reader, Lines(q.ws.root), q.fresh, located.node,
                          files=FileFilter(None), declaration=False, offset=0, room=10_000)
    for refs in page.shown:
        for ref in refs.refs:
            mark = f" [{ref.mark}]" if ref.mark else ""
            yield f"{refs.path}:{ref.line}:{ref.col} {ref.kind} {ref.scope}{mark}"


def outline(q: Query) -> Iterable[str]:
    """The definitions of the cursor's file, nested by indentation."""
    from codenav.query.outline import entries

    assert q.path is not None
    stat = q.reader.file(q.path)
    assert stat is not None
    nodes = q.reader.file_nodes(stat.id)
    module = nodes[0].id if nodes and nodes[0].kind == "module" else None
    for entry in entries([n for n in nodes if n.id != module], module, None):
        yield f"{'  ' * entry.depth}{entry.node.kind} {entry.node.name} {entry.node.name_line}"


def _types(q: Query, direction: str) -> Iterable[str]:
    located = q.at()
    assert located.node is not None
    for entry in map_types(q.reader, located.node, direction):
        node = entry.related.node
        yield f"{entry.level} {node.nid if node is not None else entry.related.name}"


def subtypes(q: Query) -> Iterable[str]:
    return _types(q, "subtypes")


def supertypes(q: Query) -> Iterable[str]:
    return _types(q, "supertypes")


def _calls(q: Query, direction: str) -> Iterable[str]:
    located = q.at()
    assert located.node is not None
    for call in map_calls(q.reader, located.node, direction, 1):
        node = call.other.node
        sites = ", ".join(f"{s.path}:{s.line}{' [name]' if s.guessed and not call.mark else ''}"
                          for s in call.sites)
        mark = f" [{call.mark}]" if call.mark else ""
        yield f"{node.nid if node is not None else call.other.name} @ {sites}{mark}"


def callers(q: Query) -> Iterable[str]:
    return _calls(q, "incoming")


def callees(q: Query) -> Iterable[str]:
    return _calls(q, "outgoing")


def others(q: Query) -> Iterable[str]:
    """What an answer about the cursor's definition leaves out of the uses of its name:
    ``unresolved N, elsewhere M``, then the unresolved uses it lists (``path:line in``)."""
    from codenav.query.references import other_uses

    located = q.at()
    assert located.node is not None
    found = other_uses(q.reader, Lines(q.ws.root), [located.node], FileFilter(None))
    yield f"unresolved {found.unresolved}, elsewhere {found.elsewhere}"
    if found.outside:
        yield f"outside {', '.join(found.outside)}"
    for refs in found.rows:
        for ref in refs.refs:
            yield f"{refs.path}:{ref.line} {ref.scope} | {ref.code}"
    for path, receivers in found.by_receiver:
        for written, lines in receivers:
            yield f"{path} {written}: {','.join(map(str, lines))}"


def texts(q: Query) -> Iterable[str]:
    """The text check after the cursor's references: ``N lines, M listed``, then each
    category with its places (``category path:line …``)."""
    from codenav.query.references import other_uses, text_check
    from codenav.query.text import text_files, text_search

    located = q.at()
    assert located.node is not None
    node = located.node
    page = map_references(q.reader, Lines(q.ws.root), q.fresh, node, files=FileFilter(None),
                          declaration=False, offset=0, room=1000)
    listed = {(refs.path, ref.line) for refs in page.shown for ref in refs.refs}
    found = text_search(q.ws.root, text_files(q.reader, FileFilter(None)), node.name, word=True)
    others = other_uses(q.reader, Lines(q.ws.root), [node], FileFilter(None))
    check_ = text_check(q.reader, [node], found, listed, others.places(), None,
                        others.outside_at)
    yield f"{check_.lines} lines, {check_.listed} listed"
    for category, count, places in check_.categories:
        yield f"{category} {count}: " + " ".join(f"{path}:{line}" for path, line in places)


def overrides(q: Query) -> Iterable[str]:
    """The members the cursor's member overrides that references reach, with their count
    (where the language's references leave them out)."""
    from codenav.query.locate import overridden

    located = q.at()
    assert located.node is not None
    for node, count in overridden(q.reader, located.node):
        yield f"{node.nid} {count}"
