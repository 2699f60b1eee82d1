"""The right answers, from a warm language server (basedpyright for rich,
typescript-language-server for rxjs, driven by ``benchmarks/lsp_truth.py``).

- references: the server's (declaration left out), outside comments, plus the definition's
  own line;
- callers: the server's call sites (a reference followed by ``(``, not the name of a
  declaration: an override is a reference), each in the innermost function, method or
  class its document symbols put around it, ``<module>`` outside any;
- subclasses: references on a ``class … (`` / ``extends`` line, transitively;
- members: document symbols of kind method or constructor directly under the class;
- parameters: the hover's signature;
- importers: the references of the module name at one of its imports;
- outline: the classes, interfaces, functions, methods and constructors of the file's
  document symbols (not the members of an object literal a function returns).

The server is asked at the question's definition, which the map finds from the name the
question gives (``anchor``): the map only says *where to ask*, never what is right.
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

from benchmarks.agent.questions import Question
from benchmarks.agent.scoring import Fact, Result
from benchmarks.agent.signature import parameters
from benchmarks.lsp_truth import TruthServer
from benchmarks.symbols import Position, Symbol

__all__ = ["Truth", "anchor"]

_CALLER_KINDS = {"Function", "Method", "Constructor", "Class"}
_LSP_OUTLINE_KINDS = {"Class", "Interface", "Function", "Method", "Constructor", "Enum"}
_COMMENT = re.compile(r"^\s*(#|//|\*|/\*)")


def anchor(db: Path, question: Question) -> Symbol | None:
    """The definition the question is about, from the map: the node of that qualified name
    (for ``module.function``, the one in that module), the longest if several (an
    overload's implementation); None for a question about a file."""
    if question.kind in ("importers", "outline"):
        return None
    conn = sqlite3.connect(db)
    module, _, qname = question.target.rpartition(".")
    query = ("SELECT n.nid, n.kind, f.path, n.name_line, n.name_col, n.line, n.end_line "
             "FROM nodes n JOIN files f ON f.id = n.file_id WHERE n.qname = ? ")
    try:
        rows = conn.execute(query + "ORDER BY n.end_line - n.line DESC",
                            (question.target,)).fetchall()
        if not rows and module:
            rows = [r for r in conn.execute(query, (qname,)).fetchall()
                    if Path(r[2]).stem == module.rsplit(".", 1)[-1]]
    finally:
        conn.close()
    if not rows:
        raise LookupError(f"{question.qid}: no definition of {question.target} in the map")
    nid, kind, path, line, col, start, end = rows[0]
    return Symbol(question.target, kind, path, line, col, nid=nid, start=start, end=end)


class Truth:
    """Answers from one warm language server on a corpus."""

    def __init__(self, server: TruthServer, root: Path) -> None:
        self.server = server
        self.root = root
        self._symbols: dict[str, list[Symbol]] = {}
        self._lines: dict[str, list[str]] = {}

    def line(self, path: str, number: int) -> str:
        if path not in self._lines:
            try:
                self._lines[path] = (self.root / path).read_text("utf-8").splitlines()
            except OSError:
                self._lines[path] = []
        lines = self._lines[path]
        return lines[number - 1] if 0 < number <= len(lines) else ""

    async def symbols(self, path: str) -> list[Symbol]:
        if path not in self._symbols:
            self._symbols[path] = await self.server.document_symbols(path)
        return self._symbols[path]

    async def uses(self, at: Symbol) -> list[Position]:
        """References outside comments, the definition's own position left out."""
        found = await self.server.references(at.position, False)
        return [(f, n, c) for f, n, c in found if (f, n, c) != at.position
                and not Path(f).is_absolute() and not _COMMENT.match(self.line(f, n))]

    async def answer(self, question: Question, at: Symbol | None, result: Result) -> None:
        """Fill ``result``'s truth."""
        kind = question.kind
        if kind == "importers":
            result.truth = await self._importers(question)
            return
        if kind == "outline":  # definitions, not the members of an object literal
            symbols = await self.symbols(question.target)
            kinds = {s.name: s.kind for s in reversed(symbols)}
            result.truth = {s.name for s in symbols if "<" not in s.name and " " not in s.name
                            and _declared(s.name, kinds)}
            return
        assert at is not None
        if kind == "refs":
            result.truth = {(f, n) for f, n, _ in await self.uses(at)} | {(at.path, at.line)}
        elif kind == "callers":
            callers: set[Fact] = set()
            for f, n, c in await self.uses(at):
                after = self.line(f, n)[c - 1 + len(question.name):]
                declared = {s.position for s in await self.symbols(f)}
                # an override's own name is a reference followed by "(", not a call
                if re.match(r"\s*(<[^()]*>)?\(", after) and (f, n, c) not in declared:
                    callers.add((f, await self._enclosing(f, n)))
            result.truth = callers
        elif kind == "subclasses":
            result.truth = await self._subclasses(at)
        elif kind == "members":
            prefix = question.target + "."
            result.truth = {s.name[len(prefix):] for s in await self.symbols(at.path)
                            if s.name.startswith(prefix) and "." not in s.name[len(prefix):]
                            and s.kind in ("Method", "Constructor")}
        elif kind == "params":
            hover = await self.server.hover(at.position)
            result.truth_ordered = parameters(hover, question.name)
            result.truth = set(result.truth_ordered)

    async def _enclosing(self, path: str, line: int) -> str:
        inside = [s for s in await self.symbols(path) if s.kind in _CALLER_KINDS
                  and s.start <= line <= s.end and "<" not in s.name and " " not in s.name]
        if not inside:
            return "<module>"
        return min(inside, key=lambda s: s.end - s.start).name.rsplit(".", 1)[-1]

    async def _subclasses(self, at: Symbol) -> set[Fact]:
        found: set[Fact] = set()
        todo = [at]
        while todo:
            base = todo.pop()
            for f, n, c in await self.uses(base):
                text = self.line(f, n)
                header = re.match(r"^\s*(export )?(abstract )?(?:class|interface) ([\w$]+)",
                                  text)
                if header is None or c <= header.end(3):
                    continue
                name = header.group(3)
                if name in found:
                    continue
                found.add(name)
                symbol = next((s for s in await self.symbols(f) if s.kind in ("Class", "Interface")
                               and s.line == n and s.name.rsplit(".", 1)[-1] == name), None)
                if symbol is not None:
                    todo.append(Symbol(name, symbol.kind, f, n, header.start(3) + 1,
                                       start=symbol.start, end=symbol.end))
        return found

    async def _importers(self, question: Question) -> set[Fact]:
        target = Path(question.target)
        python = target.suffix == ".py"
        module = target.stem
        for path in sorted(p.relative_to(self.root).as_posix() for p in self.root.rglob(
                "*.py" if python else "*.ts")):
            lines = (self.root / path).read_text("utf-8", "replace").splitlines()
            for number, text in enumerate(lines, 1):
                spec = (re.search(rf"from \.({module}) import", text) if python else
                        re.search(rf"from '([^']*/{module})'", text))
                if spec and (python or _normal(Path(path).parent / spec.group(1)) ==
                             target.with_suffix("").as_posix()):
                    col = spec.start(1) + 1 + (0 if python else 1)
                    found = await self.server.references((path, number, col), True)
                    return {f for f, _, _ in found if not Path(f).is_absolute()
                            and f != question.target}
        raise LookupError(f"no import of {question.target}")


def _declared(name: str, kinds: dict[str, str]) -> bool:
    """Whether a document symbol is a declaration: it and every symbol around it of an
    outline kind, and a method only in a class or interface (not in an object literal a
    function returns)."""
    parts = name.split(".")
    chain = [kinds.get(".".join(parts[:i])) for i in range(1, len(parts) + 1)]
    if not all(kind in _LSP_OUTLINE_KINDS for kind in chain):
        return False
    return all(kind not in ("Method", "Constructor") or (i > 0 and chain[i - 1] in (
        "Class", "Interface")) for i, kind in enumerate(chain))


def _normal(path: Path) -> str:
    parts: list[str] = []
    for part in path.as_posix().split("/"):
        if part == "..":
            parts.pop()
        elif part not in (".", ""):
            parts.append(part)
    return "/".join(parts)
