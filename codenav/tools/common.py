"""What the position-taking tools share: how a tool is told which symbol (``id``, ``file``
+ ``line`` (+ ``col``), or ``symbol``), where its answer comes from (``source``), and what
those arguments point at (``resolved``). Positions are 1-based lines and 1-based UTF-16
columns (docs/contract.md §2).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import replace
from typing import Literal

import anyio
from pydantic import Field, model_validator

from codenav.index.languages import family
from codenav.query.locate import FileFilter, Located, locate
from codenav.query.references import (
    OtherUses,
    TextCheck,
    definitions_of,
    family_langs,
    module_stem,
    text_check,
)
from codenav.query.text import (
    BaseLines,
    ImportLines,
    LiteralLines,
    TextPage,
    base_lines,
    import_lines,
    reads_text,
    text_files,
    text_search,
)
from codenav.store.read import MapReader, Node
from codenav.tools.base import CallContext, DetailParam, ToolParams
from codenav.tools.rows import Detail
from codenav.workspace import Workspace

__all__ = ["NavParams", "SourceParam", "TargetParams", "checked_bases", "checked_imports",
           "checked_text", "resolved"]

_MAX_POSITION = 1 << 31


class TargetParams(ToolParams):
    """How a position-taking tool is told which symbol: exactly one of id, file+line,
    symbol (a file with it: its definitions in that file). (What each means is said once,
    in the server's instructions.)"""

    id: str | None = Field(default=None, max_length=4096)
    file: str | None = Field(default=None, max_length=4096)
    # Bounded so a huge number is BAD_ARGS, not an SQLite integer overflow (INTERNAL).
    line: int | None = Field(default=None, ge=1, le=_MAX_POSITION)
    col: int | None = Field(default=None, ge=1, le=_MAX_POSITION)
    symbol: str | None = Field(default=None, min_length=1, max_length=500)

    @model_validator(mode="after")
    def _one_target(self) -> TargetParams:
        position = self.line is not None or self.col is not None
        given = [self.id is not None, position, self.symbol is not None]
        if sum(given) != 1 or (self.id is not None and self.file is not None):
            raise ValueError("give exactly one of: id; file + line (+ col); symbol (+ file) — "
                             "e.g. {\"symbol\": \"Session.request\"} or {\"file\": "
                             "\"src/app.py\", \"line\": 12, \"col\": 9}")
        if position and (self.file is None or self.line is None):
            raise ValueError("file and line go together: {\"file\": \"src/app.py\", "
                             "\"line\": 12}")
        return self


SourceParam = Literal["auto", "lsp", "map"]


class NavParams(TargetParams):
    source: SourceParam = Field(default="auto", description="auto | lsp | map")
    detail: Detail = DetailParam()


def resolved(ws: Workspace, params: TargetParams, ctx: CallContext
             ) -> tuple[MapReader, Located]:
    """The map and what the arguments point at (an answer that follows links from here)."""
    reader = ws.reader()
    ctx.fresh.links = True
    located = locate(ws, reader, ctx.fresh, id=params.id, file=params.file, line=params.line,
                     col=params.col, symbol=params.symbol)
    return reader, located


async def checked_text(ws: Workspace, reader: MapReader, nodes: Sequence[Node],
                       files: FileFilter, listed: Collection[tuple[str, int]],
                       others: OtherUses, kind: str | None = None) -> TextCheck:
    """The text search of the nodes' name (a word, in the files of their language) an agent
    would run after an answer listing ``listed``, accounted for (``text_check``); the files
    are read off the event loop."""
    name = nodes[0].name
    paths = text_files(reader, files, langs=family_langs(nodes[0]))
    targets = definitions_of(reader, nodes)
    aliases: dict[str, list[str]] = {}  # a name files import it under -> those files
    searched = set(paths)
    for path, alias in reader.names_bound(targets, name)[:MAX_ALIAS_FILES]:
        if path in searched:
            aliases.setdefault(alias, []).append(path)

    def search() -> tuple[TextPage, list[tuple[str, TextPage]]]:
        return (text_search(ws.root, paths, name, word=True),
                [(alias, text_search(ws.root, where, alias, word=True))
                 for alias, where in aliases.items()])
    found, pages = await anyio.to_thread.run_sync(search)
    check = text_check(reader, nodes, found, listed, others.places(), kind, others.outside_at,
                       pages, LiteralLines(ws.root))
    # a module's own names may be imported under others: that none is, is worth saying (run
    # 35's agent asked for the importers of a default export to be sure)
    # (Python's and ES modules' imports, all of them searched: no fileFilter narrowing them)
    if files.active or not reads_text(nodes[0].lang):
        return check
    parents = reader.nodes_by_id(n.parent_id for n in nodes if n.parent_id is not None)
    return replace(check, importable=all(
        n.parent_id in parents and parents[n.parent_id].kind == "module" for n in nodes))


async def checked_bases(ws: Workspace, reader: MapReader, node: Node,
                        listed: Collection[tuple[str, int]],
                        files: FileFilter) -> BaseLines | None:
    """The class header lines naming ``node`` among their bases that an agent would grep
    for after an answer listing its subtypes (at ``listed`` places; in ``files``, stubs
    beside their modules left out as the answer leaves them), accounted for
    (``base_lines``); the files are read off the event loop. None where the class syntax is
    not one it reads (only Python's and TypeScript's or JavaScript's)."""
    if not reads_text(node.lang):
        return None
    paths = text_files(reader, files, langs=family_langs(node))
    python = family(node.lang) == family("py")

    def search() -> BaseLines:
        return base_lines(ws.root, paths, node.name, python, listed)
    return _of_other_bases(reader, await anyio.to_thread.run_sync(search), node)


def _of_other_bases(reader: MapReader, check: BaseLines, node: Node) -> BaseLines:
    """``check`` with the header lines whose base the map linked to another type so named
    (kombu's `class Transport(base.Transport)` beside virtual's Transport: 28 lines, run 55)
    counted by that type rather than placed one by one."""
    if not check.unlisted:
        return check
    paths = sorted({hit.path for hit in check.unlisted})
    linked = {(path, line): target
              for path, line, kind, target in reader.name_lines(node.name, paths)
              if kind == "inheritance" and target is not None and target != node.id}
    counts: Counter[int] = Counter()
    kept = []
    for hit in check.unlisted:
        target = linked.get((hit.path, hit.line))
        if target is None:
            kept.append(hit)
        else:
            counts[target] += 1
    other = []
    for target, count in counts.most_common():
        found = reader.node_by_id(target)
        other.append((found.nid.split(":", 1)[-1] if found is not None else "?", count))
    return replace(check, unlisted=kept, other=tuple(other))


async def checked_imports(ws: Workspace, reader: MapReader, module: Node,
                          listed: Collection[str], others: OtherUses) -> ImportLines | None:
    """The import lines naming ``module`` that an agent would grep for after an answer
    listing its importers (``listed`` files; ``others``: what that answer says it leaves
    out), accounted for (``import_lines``); the files are read off the event loop. None
    where the import syntax is not one it reads (only Python's and ES modules')."""
    if not reads_text(module.lang):
        return None
    paths = text_files(reader, FileFilter(None), langs=family_langs(module))
    python = family(module.lang) == family("py")
    stem = module_stem(module.path)
    aliased = {site.path for site in reader.imports_through(module.id)}

    def search() -> ImportLines:
        return import_lines(ws.root, paths, module.path, stem, python, listed,
                            others.places(), aliased)
    return await anyio.to_thread.run_sync(search)


# The files an alias of the name is searched in (each file importing it under another name).
MAX_ALIAS_FILES = 200
