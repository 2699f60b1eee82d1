"""An agent's questions answered with codenav and with grep: bytes read, calls made, right?

    python -m benchmarks.bench_agent [--corpus rich|rxjs] [--show] [--json FILE]
        [--report benchmarks/REPORT.md]

A fixed set of questions (``QUESTIONS``, written here with their exact symbol names) about
two held-in repositories: rich 14.3.4 (``rich/``, Python) and rxjs 7.8.2 (``src/``,
TypeScript); unique names and ambiguous ones (``get``, ``update``, ``render``, ``add``,
``schedule``), the definition and every use, callers, subclasses, a class's methods, a
method's parameters, a module's importers, the outline of a big file. Each is answered twice:

- **codenav**: the calls an agent makes knowing only the tool docs (``codenav tools`` and
  ``codenav call TOOL --help``): one per question, or a ``map_search`` for a class's id
  before ``map_node``. Every call goes through ``tools.dispatch.call_tool`` on one
  ``Workspace`` per corpus (one agent session: what is said once per session is said once)
  at the default ``tokenBudget``, language servers off (answers from the map). Bytes are the
  UTF-8 bytes of the compact JSON envelope the agent reads (an MCP text block).
- **grep**: the shell commands an efficient agent runs, for real, in the corpus folder:
  ``grep -rnw NAME`` for uses; for callers, a second grep listing the ``def``/``function``
  lines of the files with calls (a call site alone does not say which function it is in);
  subclasses level by level (``class X(…Base…)`` / ``extends Base``) until a level finds
  none; a class's members with one grep of the class and member lines of its file; a
  signature with ``grep -A`` (and ``sed -n`` when it runs on); importers with one grep of
  import lines; an outline with one grep of definition lines. Bytes are stdout + stderr.

**Correctness** is against a warm language server (basedpyright for rich,
typescript-language-server for rxjs, driven by ``benchmarks/lsp_truth.py``): references
(declaration left out, plus the definition's own line), callers (the server's call sites —
a reference followed by ``(`` — each in the innermost function, method or class the
server's document symbols put around it, ``<module>`` outside any), subclasses (references
on a ``class … (`` / ``extends`` line, transitively), methods (document symbols of kind
method or constructor under the class), parameters (the hover's signature), importers (the
references of the module name at one of its imports) and the outline (classes, interfaces,
functions, methods and constructors of the file's document symbols). The facts of each
path's answer are read from its output the way an agent reads it (rows of an envelope:
``benchmarks/answers.py``; grep lines: file and line, comment lines left out, the enclosing
``def`` by indentation). An answer is right when its facts are the truth's (for an outline:
when they include every one of them).

Also printed: the tool list's size as an MCP client receives it, ``nav_references`` for a
method used ~45 times against ``grep -rn`` of its name, and how many of Console's methods
the default-budget outline of rich's ``console.py`` names.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.answers import facts as envelope_facts
from benchmarks.corpora import CORPORA, fetch
from benchmarks.lsp_truth import Symbol, TruthServer
from codenav.envelope import to_json
from codenav.index.pipeline import index_tree
from codenav.tools.dispatch import call_tool
from codenav.tools.rows import parse_node_row, parse_related_row
from codenav.workspace import Workspace

__all__ = ["QUESTIONS", "Question", "Result", "bars", "run", "section", "write_section"]

Fact = Any  # (file, line), (file, caller name), a class or parameter name, a file


@dataclass(frozen=True)
class Question:
    qid: str
    corpus: str
    kind: str  # refs | callers | subclasses | members | params | importers | outline
    target: str  # a qualified name (Class.method, module.function) or, for importers and
    # outline, a path relative to the corpus root
    unique: bool  # whether the symbol's name is defined once in the corpus
    text: str
    codenav: tuple[tuple[str, dict[str, Any]], ...] = ()  # default: by kind (codenav_calls)

    @property
    def name(self) -> str:
        return self.target.rsplit(".", 1)[-1]


def _q(qid: str, corpus: str, kind: str, target: str, unique: bool, text: str,
       *codenav: tuple[str, dict[str, Any]]) -> Question:
    return Question(qid, corpus, kind, target, unique, text, tuple(codenav))


_MEMBER_KINDS = {"python": ["method", "property"], "typescript": ["method", "constructor"]}
_OUTLINE_KINDS = {"python": ["class", "function", "method", "property"],
                  "typescript": ["class", "interface", "function", "method", "constructor"]}

QUESTIONS: tuple[Question, ...] = (
    # ---- rich (Python)
    _q("r-def-uses", "rich", "refs", "Console.end_capture", True,
       "Where is end_capture defined and where is it used?"),
    _q("r-uses-many", "rich", "refs", "Table.add_row", True, "Every use of Table.add_row."),
    _q("r-uses-fn", "rich", "refs", "loop_last", True, "Every use of the function loop_last."),
    _q("r-uses-get", "rich", "refs", "Measurement.get", False,
       "Every use of Measurement.get (get: 4 definitions, dict.get everywhere)."),
    _q("r-uses-update", "rich", "refs", "ConsoleOptions.update", False,
       "Every use of ConsoleOptions.update (update: 8 definitions)."),
    _q("r-callers", "rich", "callers", "Console.render_lines", True,
       "Which functions call Console.render_lines?"),
    _q("r-callers-qual", "rich", "callers", "cells.cell_len", False,
       "Which functions call cell_len of rich/cells.py?"),
    _q("r-callers-render", "rich", "callers", "Console.render", False,
       "Which functions call Console.render (render: 22 definitions)?"),
    _q("r-subclasses", "rich", "subclasses", "JupyterMixin", True,
       "Every subclass of JupyterMixin."),
    _q("r-subclasses-2", "rich", "subclasses", "ProgressColumn", True,
       "Every subclass of ProgressColumn, direct or not."),
    _q("r-members", "rich", "members", "Console", True,
       "The methods (and properties) of class Console."),
    _q("r-members-2", "rich", "members", "Table", True,
       "The methods (and properties) of class Table."),
    _q("r-params", "rich", "params", "Console.print", False, "The parameters of Console.print."),
    _q("r-params-2", "rich", "params", "Table.add_column", True,
       "The parameters of Table.add_column."),
    _q("r-importers", "rich", "importers", "segment.py", True,
       "Which modules import rich.segment?"),
    _q("r-outline", "rich", "outline", "console.py", True,
       "The classes, functions and methods of rich/console.py."),
    # ---- rxjs (TypeScript)
    _q("x-uses", "rxjs", "refs", "popScheduler", True, "Every use of popScheduler."),
    _q("x-uses-2", "rxjs", "refs", "observeNotification", True,
       "Where is observeNotification defined and where is it used?"),
    _q("x-uses-add", "rxjs", "refs", "Subscription.add", False,
       "Every use of Subscription.add (add: Set.add, Map.add … everywhere)."),
    _q("x-uses-schedule", "rxjs", "refs", "Scheduler.schedule", False,
       "Every use of Scheduler.schedule (schedule: 10 definitions)."),
    _q("x-callers", "rxjs", "callers", "popResultSelector", True,
       "Which functions call popResultSelector?"),
    _q("x-callers-2", "rxjs", "callers", "Subject._throwIfClosed", True,
       "Which methods call Subject._throwIfClosed?"),
    _q("x-callers-recycle", "rxjs", "callers", "AsyncAction.recycleAsyncId", False,
       "Which methods call AsyncAction.recycleAsyncId (4 definitions)?"),
    _q("x-subclasses", "rxjs", "subclasses", "Subscription", True,
       "Every subtype (class or interface) of Subscription, direct or not."),
    _q("x-subclasses-2", "rxjs", "subclasses", "Subject", True, "Every subclass of Subject."),
    _q("x-members", "rxjs", "members", "Observable", True, "The methods of class Observable."),
    _q("x-members-2", "rxjs", "members", "Subject", True, "The methods of class Subject."),
    _q("x-params", "rxjs", "params", "bindCallbackInternals", True,
       "The parameters of bindCallbackInternals."),
    _q("x-params-2", "rxjs", "params", "AsyncAction.requestAsyncId", False,
       "The parameters of AsyncAction.requestAsyncId."),
    _q("x-importers", "rxjs", "importers", "internal/util/isFunction.ts", True,
       "Which modules import internal/util/isFunction?"),
    _q("x-outline", "rxjs", "outline", "internal/testing/TestScheduler.ts", True,
       "The classes, functions and methods of internal/testing/TestScheduler.ts."),
)


# ------------------------------------------------------------------------------ results

@dataclass
class Path_:
    """One way of answering a question: what was run, what was read, what was found."""

    calls: list[str] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)
    facts: set[Fact] = field(default_factory=set)
    ordered: list[str] = field(default_factory=list)  # parameters, in order

    @property
    def bytes(self) -> int:
        return sum(self.sizes)


@dataclass
class Result:
    question: Question
    truth: set[Fact] = field(default_factory=set)
    truth_ordered: list[str] = field(default_factory=list)
    codenav: Path_ = field(default_factory=Path_)
    grep: Path_ = field(default_factory=Path_)

    def right(self, path: Path_) -> bool:
        if self.question.kind == "outline":
            return self.truth <= path.facts
        if self.question.kind == "params":
            return path.ordered == self.truth_ordered
        return path.facts == self.truth

    def score(self, path: Path_) -> str:
        """found/expected, and +extra when the answer holds facts the truth has not."""
        found = len(self.truth & path.facts)
        extra = 0 if self.question.kind == "outline" else len(path.facts - self.truth)
        return f"{found}/{len(self.truth)}" + (f" +{extra}" if extra else "")


# ------------------------------------------------------------------------------ anchors

@dataclass(frozen=True)
class Anchor:
    """Where the question's symbol is defined (from the map: the question names it)."""

    nid: str
    path: str
    line: int
    col: int
    end_line: int


def anchor(db: Path, question: Question) -> Anchor:
    """The definition the question is about: the node of that qualified name (for
    ``module.function``, the one in that module), the longest if several (an overload's
    implementation)."""
    conn = sqlite3.connect(db)
    module, _, qname = question.target.rpartition(".")
    rows = conn.execute(
        "SELECT n.nid, f.path, n.name_line, n.name_col, n.end_line FROM nodes n "
        "JOIN files f ON f.id = n.file_id WHERE n.qname = ? ORDER BY n.end_line - n.line DESC",
        (question.target,)).fetchall()
    if not rows and module:
        rows = [r for r in conn.execute(
            "SELECT n.nid, f.path, n.name_line, n.name_col, n.end_line FROM nodes n "
            "JOIN files f ON f.id = n.file_id WHERE n.qname = ?", (qname,)).fetchall()
            if Path(r[1]).stem == module.rsplit(".", 1)[-1]]
    conn.close()
    if not rows:
        raise LookupError(f"{question.qid}: no definition of {question.target} in the map")
    return Anchor(*rows[0])


# ------------------------------------------------------------------------------ codenav

def codenav_calls(question: Question, language: str) -> list[tuple[str, dict[str, Any]]]:
    """The calls an agent makes for ``question``, from the tool docs."""
    if question.codenav:
        return list(question.codenav)
    kind, target = question.kind, question.target
    lang = "py" if language == "python" else "ts"
    if kind == "refs":
        return [("nav_references", {"symbol": target})]
    if kind == "callers":
        return [("nav_call_hierarchy", {"symbol": target, "direction": "incoming"})]
    if kind == "subclasses":
        return [("nav_type_hierarchy", {"symbol": target, "direction": "subtypes"})]
    if kind == "members":
        return [("map_node", {"symbol": target, "kinds": _MEMBER_KINDS[language]})]
    if kind == "params":
        return [("nav_hover", {"symbol": target})]
    if kind == "importers":
        return [("map_neighbors", {"id": f"{lang}:{target}", "edgeKinds": ["imports"],
                                   "direction": "in"})]
    if kind == "outline":  # the question names the kinds it wants
        return [("map_outline", {"file": target, "kinds": _OUTLINE_KINDS[language]})]
    raise ValueError(kind)


async def ask_codenav(ws: Workspace, question: Question, language: str) -> tuple[Path_, list[
        dict[str, Any]]]:
    path = Path_()
    envelopes = []
    last_id = ""
    for tool, template in codenav_calls(question, language):
        args = {k: (last_id if v == "$id" else v) for k, v in template.items()}
        envelope = await call_tool(ws, tool, args)
        path.calls.append(f"{tool} {json.dumps(args, separators=(',', ':'))}")
        path.sizes.append(len(to_json(envelope).encode()))
        envelopes.append(envelope)
        results = envelope.get("data", {}).get("results") or []
        if results and isinstance(results[0], str):
            last_id = parse_node_row(results[0]).id
    return path, envelopes


def codenav_facts(question: Question, envelopes: list[dict[str, Any]], path: Path_) -> None:
    """What the answering envelope (the last) tells, as the question's facts."""
    envelope = envelopes[-1]
    data = envelope.get("data") or {}
    kind = question.kind
    if kind == "refs":
        _, positions = envelope_facts(envelope)
        path.facts = positions
    elif kind == "callers":
        symbol = data.get("symbol")
        path.facts = {_caller_of_id(parse_related_row(row, symbol).id)
                      for row in _call_rows(data)}
    elif kind == "subclasses":
        symbol = data.get("symbol")
        path.facts = {_short(parse_related_row(row, symbol).id)
                      for row in data.get("types", []) if isinstance(row, str)}
    elif kind == "members":
        path.facts = {_outline_name(row) for row in data.get("children", [])
                      if isinstance(row, str)}
    elif kind == "params":
        hover = data.get("hover") if isinstance(data.get("hover"), dict) else data
        text = hover.get("signature") or hover.get("contents") or ""
        path.ordered = parameters(str(text), question.name)
        path.facts = set(path.ordered)
    elif kind == "importers":
        path.facts = {parse_node_row(row).id.split(":", 1)[1].split("#", 1)[0]
                      for row in data.get("neighbors", []) if isinstance(row, str)}
    elif kind == "outline":
        path.facts = _qualified_outline(data.get("symbols", []))


def _call_rows(data: dict[str, Any]) -> list[str]:
    rows: list[str] = []

    def walk(items: Any) -> None:
        for item in items or []:
            if isinstance(item, str):
                rows.append(item)
            elif isinstance(item, dict):
                if isinstance(item.get("node"), str):
                    rows.append(item["node"])
                walk(item.get("calls"))
    walk(data.get("calls"))
    return rows


def _caller_of_id(nid: str) -> tuple[str, str]:
    path, _, qname = nid.split(":", 1)[1].partition("#")
    return path, _plain(qname.rsplit(".", 1)[-1]) if qname else "<module>"


def _plain(name: str) -> str:
    """A name without the map's ``~n`` suffix (a second definition of the same name)."""
    return name.split("~", 1)[0]


def _short(nid: str) -> str:
    return _plain(nid.rsplit("#", 1)[-1].rsplit(".", 1)[-1])


def _outline_name(row: str) -> str:
    head = row.strip().split(" | ", 1)[0].split()
    return _plain(head[2] if len(head) >= 3 else head[-1])


def _qualified_outline(rows: Sequence[Any]) -> set[str]:
    names: set[str] = set()
    stack: list[str] = []
    for row in rows:
        if not isinstance(row, str):
            continue
        depth = (len(row) - len(row.lstrip(" "))) // 2
        head = row.strip().split(" | ", 1)[0].split()
        if len(head) < 3:
            continue
        del stack[depth:]
        stack.append(head[2].split("~", 1)[0])
        names.add(".".join(stack))
    return names


# ------------------------------------------------------------------------------ grep

_PY_DEF = r"^\s*(async\s+)?def \w+|^\s*class \w+"
_TS_MEMBER = (r"^  (public |protected |private |static |async |get |set |abstract |override "
              r"|readonly )*(\[[^]]+\]|[A-Za-z_$][A-Za-z0-9_$]*)\??(<.*>)?\(")
_TS_DEF = (r"^(export )?(declare )?(default )?(abstract )?(async )?(class|interface|function"
           r"\*?|enum|namespace) ")
_COMMENT = re.compile(r"^\s*(#|//|\*|/\*)")


@dataclass
class Shell:
    root: Path
    path: Path_

    def run(self, command: str) -> str:
        done = subprocess.run(["bash", "-c", command], cwd=self.root, capture_output=True,
                              text=True, errors="replace", check=False)
        out = done.stdout + done.stderr
        self.path.calls.append(command)
        self.path.sizes.append(len(out.encode()))
        return out


def _grep_lines(out: str) -> list[tuple[str, int, str]]:
    """``(file, line, text)`` of ``grep -n`` output (``file:line:text``; ``-A`` context lines
    ``file-line-text`` included)."""
    rows = []
    for raw in out.splitlines():
        found = re.match(r"^(.+?)[:-](\d+)[:-](.*)$", raw)
        if found:
            rows.append((found.group(1).removeprefix("./"), int(found.group(2)),
                         found.group(3)))
    return rows


def _q_(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def ask_grep(root: Path, question: Question, language: str, anchor_: Anchor) -> Path_:
    path = Path_()
    sh = Shell(root, path)
    name = question.name
    python = language == "python"
    kind = question.kind
    if kind == "refs":
        out = sh.run(f"grep -rnw {name}")
        path.facts = {(f, n) for f, n, text in _grep_lines(out)
                      if not _COMMENT.match(text) and _word_in_code(text, name, python)}
    elif kind == "callers":
        out = sh.run(f"grep -rnw {name}")
        calls = [(f, n) for f, n, text in _grep_lines(out)
                 if not _COMMENT.match(text) and re.search(rf"\b{name}\s*(<.*>)?\(", text)
                 and not re.search(rf"\b(def|function)\s+{name}\b", text)
                 and not _is_ts_member_decl(text, name)]
        files = sorted({f for f, _ in calls})
        if files:
            pattern = _PY_DEF if python else f"{_TS_DEF}|{_TS_MEMBER}|^(export )?const \\w+ ="
            listing = sh.run(f"grep -nE {_q_(pattern)} {' '.join(files)}"
                             + (" /dev/null" if len(files) == 1 else ""))
            defs = _grep_lines(listing)
            path.facts = {(f, _enclosing(defs, f, n, python)) for f, n in calls}
    elif kind == "subclasses":
        found: set[str] = set()
        level = {name}
        while level:
            alternatives = "|".join(sorted(level))
            pattern = (rf"^\s*class \w+\(.*\b({alternatives})\b" if python else
                       rf"(class|interface) \w+.*\bextends ({alternatives})\b")
            out = sh.run(f"grep -rnE {_q_(pattern)}")
            names = {m.group(1) for _, _, text in _grep_lines(out) if not _COMMENT.match(text)
                     for m in [re.search(r"(?:class|interface) (\w+)", text)] if m}
            level = names - found - {name}
            found |= names
        path.facts = found
    elif kind == "members":
        pattern = rf"^\s*class {name}\b" if python else rf"^(export )?(abstract )?class {name}\b"
        out = sh.run(f"grep -rnE {_q_(pattern)}")
        hits = _grep_lines(out)
        if hits:
            file = hits[0][0]
            pattern = ("^class |^    (async )?def " if python else
                       "^(export )?(abstract )?class |^}|" + _TS_MEMBER)
            listing = sh.run(f"grep -nE {_q_(pattern)} {file} /dev/null")
            path.facts = _members_in(listing, name, python)
    elif kind == "params":
        pattern = rf"def {name}\(" if python else (
            rf"^\s*(export )?(public |private |protected |static |async )*(function )?"
            rf"{name}(<.*>)?\(")
        out = sh.run(f"grep -rnE -A12 {_q_(pattern)}")
        lines = _grep_lines(out)
        text = "\n".join(t for _, _, t in lines)
        if lines and not _closed(text, name):
            file, last = lines[-1][0], lines[-1][1]
            text += "\n" + "\n".join(t for _, _, t in _grep_lines_plain(
                sh.run(f"sed -n '{last + 1},{last + 20}p' {file}"), file, last + 1))
        path.ordered = parameters(text, name)
        path.facts = set(path.ordered)
    elif kind == "importers":
        if python:
            module = Path(question.target).stem
            pattern = (rf"^\s*(from (rich)?\.{module} import|import rich\.{module}\b|"
                       rf"from (rich|\.) import .*\b{module}\b)")
        else:
            module = Path(question.target).with_suffix("").as_posix().rsplit("/", 1)[-1]
            pattern = rf"from '[^']*/{module}'"
        out = sh.run(f"grep -rnE {_q_(pattern)}")
        path.facts = {f for f, _, _ in _grep_lines(out)}
    elif kind == "outline":
        pattern = _PY_DEF if python else f"{_TS_DEF}|{_TS_MEMBER}|^}}"
        out = sh.run(f"grep -nE {_q_(pattern)} {question.target} /dev/null")
        path.facts = _outline_of(_grep_lines(out), python)
    return path


def _grep_lines_plain(out: str, file: str, first: int) -> list[tuple[str, int, str]]:
    return [(file, first + i, text) for i, text in enumerate(out.splitlines())]


def _word_in_code(text: str, name: str, python: bool) -> bool:
    code = text.split("#", 1)[0] if python else text.split("//", 1)[0]
    return re.search(rf"\b{re.escape(name)}\b", code) is not None


def _is_ts_member_decl(text: str, name: str) -> bool:
    return re.match(rf"^\s*(public |private |protected |static |async |override )*{name}"
                    rf"(<.*>)?\(.*\)\s*(:\s*[^=]*)?\{{?\s*$", text) is not None and \
        "this." not in text and "return" not in text


def _enclosing(defs: list[tuple[str, int, str]], file: str, line: int, python: bool) -> str:
    """The function a call at ``line`` is in: the nearest ``def`` above it indented less
    than the ones after it (read the way an agent reads the listing)."""
    above = [(n, text) for f, n, text in defs if f == file and n <= line]
    if not python:
        for _, text in reversed(above):
            found = re.search(r"(?:function\*?\s+|class\s+|const\s+)([A-Za-z_$][\w$]*)", text)
            if found and not text.startswith(" "):
                return found.group(1)
            member = re.match(_TS_MEMBER, text)
            if member:
                return member.group(2)
        return "<module>"
    limit = 1 << 30
    for _, text in reversed(above):
        indent = len(text) - len(text.lstrip())
        if indent < limit:
            found = re.search(r"(?:def|class)\s+(\w+)", text)
            if found:
                return found.group(1)
            limit = indent
    return "<module>"


def _members_in(listing: str, name: str, python: bool) -> set[str]:
    inside = False
    names: set[str] = set()
    for _, _, text in _grep_lines(listing):
        if re.match(r"^(export )?(abstract )?class ", text) or (not python and text == "}"):
            inside = re.match(rf"^(export )?(abstract )?class {name}\b", text) is not None
            continue
        if inside:
            found = re.search(r"def (\w+)", text) if python else re.match(_TS_MEMBER, text)
            if found:
                names.add(found.group(1) if python else found.group(2))
    return names


def _outline_of(lines: list[tuple[str, int, str]], python: bool) -> set[str]:
    names: set[str] = set()
    stack: list[tuple[int, str]] = []
    for _, _, text in lines:
        indent = len(text) - len(text.lstrip())
        if python:
            found = re.search(r"(?:def|class)\s+(\w+)", text)
        else:
            if text == "}":
                stack.clear()
                continue
            found = re.search(r"(?:class|interface|function\*?|enum|namespace)\s+([\w$]+)",
                              text) if not text.startswith(" ") else None
            member = re.match(_TS_MEMBER, text) if text.startswith(" ") else None
            if member:
                names.add(".".join([s for _, s in stack[:1]] + [member.group(2)]))
                continue
        if not found:
            continue
        while stack and stack[-1][0] >= indent:
            stack.pop()
        stack.append((indent, found.group(1)))
        names.add(".".join(s for _, s in stack))
    return names


def _closed(text: str, name: str) -> bool:
    start = text.find(name + "(")
    if start < 0:
        start = text.find(name + "<")
    return start >= 0 and _matching_paren(text, text.find("(", start)) >= 0


def _matching_paren(text: str, start: int) -> int:
    depth = 0
    for i in range(start, len(text)):
        if text[i] in "([{":
            depth += 1
        elif text[i] in ")]}":
            depth -= 1
            if depth == 0:
                return i
    return -1


def parameters(text: str, name: str) -> list[str]:
    """The parameter names of the first signature of ``name`` in ``text`` (``self``/``cls``
    and ``*``/``/`` markers left out; ``*args`` as ``args``)."""
    found = re.search(rf"\b{re.escape(name)}\s*(<[^(]*>)?\s*\(", text)
    if found is None:
        return []
    open_at = found.end() - 1
    close_at = _matching_paren(text, open_at)
    inner = text[open_at + 1: close_at if close_at >= 0 else len(text)]
    parts, depth, current = [], 0, ""
    for char in inner:
        if char in "([{<":
            depth += 1
        elif char in ")]}>":
            depth -= 1
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    parts.append(current)
    names = []
    for part in parts:
        head = re.match(r"\s*(?:\.\.\.)?\**\s*([A-Za-z_$][\w$]*)", part)
        if head and head.group(1) not in ("self", "cls", "this"):
            names.append(head.group(1))
    return names


# ------------------------------------------------------------------------------ truth

_CALLER_KINDS = {"Function", "Method", "Constructor", "Class"}
_LSP_OUTLINE_KINDS = {"Class", "Interface", "Function", "Method", "Constructor", "Enum"}


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

    async def uses(self, at: Anchor) -> list[tuple[str, int, int]]:
        """References outside comments, the definition's own position left out."""
        found = await self.server.references((at.path, at.line, at.col), False)
        return [(f, n, c) for f, n, c in found if (f, n, c) != (at.path, at.line, at.col)
                and not Path(f).is_absolute() and not _COMMENT.match(self.line(f, n))]

    async def answer(self, question: Question, at: Anchor, result: Result) -> None:
        kind = question.kind
        if kind == "refs":
            result.truth = {(f, n) for f, n, _ in await self.uses(at)} | {(at.path, at.line)}
        elif kind == "callers":
            callers = set()
            for f, n, c in await self.uses(at):
                after = self.line(f, n)[c - 1 + len(question.name):]
                if re.match(r"\s*(<[^()]*>)?\(", after):
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
            hover = await self.server.hover((at.path, at.line, at.col))
            result.truth_ordered = parameters(hover, question.name)
            result.truth = set(result.truth_ordered)
        elif kind == "importers":
            result.truth = await self._importers(question)
        elif kind == "outline":  # definitions, not the members of an object literal
            symbols = await self.symbols(question.target)
            kinds = {s.name: s.kind for s in reversed(symbols)}
            result.truth = {s.name for s in symbols if "<" not in s.name and " " not in s.name
                            and _declared(s.name, kinds)}

    async def _enclosing(self, path: str, line: int) -> str:
        inside = [s for s in await self.symbols(path) if s.kind in _CALLER_KINDS
                  and s.start <= line <= s.end and "<" not in s.name and " " not in s.name]
        if not inside:
            return "<module>"
        return min(inside, key=lambda s: s.end - s.start).name.rsplit(".", 1)[-1]

    async def _subclasses(self, at: Anchor) -> set[str]:
        found: set[str] = set()
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
                    todo.append(Anchor("", f, n, header.start(3) + 1, symbol.end))
        return found

    async def _importers(self, question: Question) -> set[str]:
        target = Path(question.target)
        python = target.suffix == ".py"
        module = target.stem
        for path in sorted(p.relative_to(self.root).as_posix() for p in self.root.rglob(
                "*.py" if python else "*.ts")):
            lines = (self.root / path).read_text("utf-8", "replace").splitlines()
            for number, text in enumerate(lines, 1):
                spec = (re.search(rf"from \.({module}) import", text) if python else
                        re.search(rf"from '([^']*/{module})'", text))
                if spec and (python or (Path(path).parent / spec.group(1)).as_posix()
                             .replace("/./", "/") == target.with_suffix("").as_posix()
                             or _normal(Path(path).parent / spec.group(1)) ==
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


# ------------------------------------------------------------------------------ bars

@dataclass
class Bars:
    tool_list_chars: int = 0
    refs_method: str = ""
    refs_uses: int = 0
    refs_bytes: int = 0
    grep_command: str = ""
    grep_bytes: int = 0
    outline_methods: int = 0
    outline_named: int = 0
    outline_bytes: int = 0
    outline_missing: list[str] = field(default_factory=list)


async def _tool_list_chars(ws: Workspace) -> int:
    """The JSON of the tool list an MCP client receives (``tools/list``), compact."""
    from mcp import Client

    from codenav.server import build_server

    async with Client(build_server(ws), mode="legacy") as client:
        listed = (await client.list_tools()).tools
    return len(json.dumps([t.model_dump(mode="json", by_alias=True, exclude_none=True)
                           for t in listed], separators=(",", ":"), ensure_ascii=False))


async def bars(ws: Workspace, root: Path, truth: Truth | None) -> Bars:
    """The figures of the issue's other bars, on rich."""
    out = Bars()
    out.tool_list_chars = await _tool_list_chars(ws)
    out.refs_method = "Table.add_row"
    envelope = await call_tool(ws, "nav_references", {"symbol": out.refs_method})
    out.refs_uses = int(envelope["data"]["total"])
    out.refs_bytes = len(to_json(envelope).encode())
    out.grep_command = "grep -rn add_row"
    out.grep_bytes = len(subprocess.run(["bash", "-c", out.grep_command], cwd=root,
                                        capture_output=True, check=False).stdout)
    outline = await call_tool(ws, "map_outline", {"file": "console.py"})
    out.outline_bytes = len(to_json(outline).encode())
    named = {n.split(".", 1)[1] for n in _qualified_outline(outline["data"].get("symbols", []))
             if n.startswith("Console.") and n.count(".") == 1}
    if truth is not None:
        methods = {s.name.split(".", 1)[1] for s in await truth.symbols("console.py")
                   if s.name.startswith("Console.") and s.name.count(".") == 1
                   and s.kind in ("Method", "Constructor")}
    else:
        methods = set()
    out.outline_methods = len(methods)
    out.outline_named = len(methods & named)
    out.outline_missing = sorted(methods - named)
    return out


# ------------------------------------------------------------------------------ running

_SERVER = {"python": "basedpyright", "typescript": "typescript-language-server"}


async def run_corpus(name: str, questions: Sequence[Question], with_truth: bool = True,
                     db: Path | None = None) -> tuple[list[Result], Bars | None]:
    corpus = CORPORA[name]
    root = fetch(corpus)
    if db is None:
        db = Path(tempfile.mkdtemp(prefix="codenav-bench-agent-")) / "map.db"
        index_tree(root, db)
    ws = Workspace(root, db)
    server = TruthServer(root, server=_SERVER[corpus.language]) if with_truth else None
    truth = Truth(server, root) if server is not None else None
    results = []
    try:
        if server is not None:
            await server.start()
        for question in questions:
            at = anchor(db, question) if question.kind not in ("importers", "outline") else \
                Anchor("", question.target, 1, 1, 1)
            result = Result(question)
            result.codenav, envelopes = await ask_codenav(ws, question, corpus.language)
            codenav_facts(question, envelopes, result.codenav)
            result.grep = ask_grep(root, question, corpus.language, at)
            if truth is not None:
                if not server._warm:
                    probe = at if at.nid else anchor(db, questions[0])
                    await server.warm((probe.path, probe.line, probe.col))
                await truth.answer(question, at, result)
            results.append(result)
        measured = await bars(ws, root, truth) if name == "rich" else None
    finally:
        ws.close()
        if server is not None:
            await server.close()
    return results, measured


def run(corpora: Sequence[str] = ("rich", "rxjs"), with_truth: bool = True
        ) -> tuple[list[Result], Bars | None]:
    results: list[Result] = []
    measured = None
    for name in corpora:
        found, bars_ = asyncio.run(run_corpus(
            name, [q for q in QUESTIONS if q.corpus == name], with_truth))
        results += found
        measured = bars_ or measured
    return results, measured


def summary(results: Sequence[Result]) -> dict[str, Any]:
    codenav = sum(r.codenav.bytes for r in results)
    grep = sum(r.grep.bytes for r in results)
    unique = [r for r in results if r.question.unique]
    return {
        "questions": len(results),
        "codenav_bytes": codenav, "grep_bytes": grep,
        "codenav_calls": sum(len(r.codenav.calls) for r in results),
        "grep_calls": sum(len(r.grep.calls) for r in results),
        "ratio": codenav / max(grep, 1),
        "codenav_right": sum(r.right(r.codenav) for r in results),
        "grep_right": sum(r.right(r.grep) for r in results),
        "unique_over": [r.question.qid for r in unique if r.codenav.bytes > r.grep.bytes],
        "more_calls": [r.question.qid for r in results
                       if len(r.codenav.calls) > len(r.grep.calls)],
    }


def table(results: Sequence[Result]) -> list[str]:
    lines = ["| question | kind | name | codenav bytes (calls) | grep bytes (calls) | "
             "codenav / grep | codenav right | grep right |",
             "|---|---|---|---:|---:|---:|---|---|"]
    for r in results:
        q = r.question
        lines.append(
            f"| {q.qid} | {q.kind} | `{q.target}`{'' if q.unique else ' (ambiguous)'} | "
            f"{r.codenav.bytes:,} ({len(r.codenav.calls)}) | {r.grep.bytes:,} "
            f"({len(r.grep.calls)}) | {r.codenav.bytes / max(r.grep.bytes, 1):.2f} | "
            f"{'yes' if r.right(r.codenav) else 'no'} {r.score(r.codenav)} | "
            f"{'yes' if r.right(r.grep) else 'no'} {r.score(r.grep)} |")
    return lines


def bar_lines(measured: Bars | None) -> list[str]:
    if measured is None:
        return []
    m = measured
    return [
        f"- Tool list (`tools/list` through the MCP client, compact JSON of the tools): "
        f"{m.tool_list_chars:,} characters (bar ≤ 12,000).",
        f"- `nav_references {{\"symbol\": \"{m.refs_method}\"}}` ({m.refs_uses} uses): "
        f"{m.refs_bytes:,} bytes; `{m.grep_command}`: {m.grep_bytes:,} bytes "
        f"({m.refs_bytes / max(m.grep_bytes, 1):.2f}×; bar ≤ 1.0×).",
        f"- `map_outline {{\"file\": \"console.py\"}}` at the default budget "
        f"({m.outline_bytes:,} bytes) names {m.outline_named} of Console's "
        f"{m.outline_methods} methods ({m.outline_named / max(m.outline_methods, 1):.0%}; "
        f"bar ≥ 95 %)" + (f"; missing: {', '.join(m.outline_missing)}." if m.outline_missing
                          else "."),
    ]


def report(results: Sequence[Result], measured: Bars | None) -> list[str]:
    s = summary(results)
    lines = table(results)
    lines += [
        "",
        f"All {s['questions']} questions: codenav {s['codenav_bytes']:,} bytes in "
        f"{s['codenav_calls']} calls, grep {s['grep_bytes']:,} bytes in {s['grep_calls']} "
        f"calls: codenav / grep = {s['ratio']:.2f} (bar ≤ 0.5). Right: codenav "
        f"{s['codenav_right']}/{s['questions']}, grep {s['grep_right']}/{s['questions']}.",
        "Unique-name questions over grep's bytes (bar: none): "
        + (", ".join(s["unique_over"]) or "none")
        + ". Questions needing more calls than grep (bar: none): "
        + (", ".join(s["more_calls"]) or "none") + ".",
    ]
    for corpus in sorted({r.question.corpus for r in results}):
        part = [r for r in results if r.question.corpus == corpus]
        c, g = sum(r.codenav.bytes for r in part), sum(r.grep.bytes for r in part)
        lines.append(f"{corpus}: codenav {c:,} bytes, grep {g:,} ({c / max(g, 1):.2f}).")
    lines += ["", *bar_lines(measured)]
    return lines


SECTION = "## An agent's questions: codenav vs grep"


def section(results: Sequence[Result], measured: Bars | None) -> list[str]:
    """The REPORT.md section (``benchmarks/run.py``, or ``--report`` alone)."""
    corpora = sorted({r.question.corpus for r in results})
    return [SECTION, "",
            f"`bench_agent`: {len(results)} fixed questions on {' and '.join(corpora)} (rich "
            "14.3.4 `rich/`, rxjs 7.8.2 `src/`), each answered by the codenav calls an agent "
            "makes from the tool docs (in process, default budget, language servers off) and "
            "by the grep/sed commands an efficient agent runs; bytes are what the agent reads "
            "(the compact JSON envelope; grep's stdout), right = the answer's facts equal a "
            "warm language server's (basedpyright, typescript-language-server).", "",
            *report(results, measured)]


def write_section(path: Path, lines: Sequence[str]) -> None:
    """Put ``lines`` in REPORT.md in place of the section of the same title (or before the
    language servers' section, or at the end)."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    body = "\n".join(lines) + "\n"
    start = text.find(SECTION)
    if start >= 0:
        end = text.find("\n## ", start + len(SECTION))
        text = text[:start] + body + ("\n" + text[end + 1:] if end >= 0 else "")
    else:
        at = text.find("## Language servers: cold and warm")
        text = text[:at] + body + "\n" + text[at:] if at >= 0 else text + "\n" + body
    path.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", choices=["rich", "rxjs"], action="append",
                        help="one corpus (default: both)")
    parser.add_argument("--no-truth", action="store_true",
                        help="skip the language servers (no correctness)")
    parser.add_argument("--show", action="store_true", help="print every call and answer size")
    parser.add_argument("--json", type=Path, help="write the results here")
    parser.add_argument("--report", type=Path,
                        help="rewrite this section of a REPORT.md (e.g. benchmarks/REPORT.md)")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    results, measured = run(args.corpus or ("rich", "rxjs"), not args.no_truth)
    if args.show:
        for r in results:
            print(f"\n{r.question.qid}: {r.question.text}")
            for label, path in (("codenav", r.codenav), ("grep", r.grep)):
                for call, size in zip(path.calls, path.sizes, strict=True):
                    print(f"  {label:<8} {size:>6,}  {call}")
                print(f"  {label:<8} facts {r.score(path)}  missing "
                      f"{sorted(map(str, r.truth - path.facts))[:6]} extra "
                      f"{sorted(map(str, path.facts - r.truth))[:6]}")
    print("\n".join(report(results, measured)))
    if args.report:
        write_section(args.report, section(results, measured))
    print(f"\n({time.perf_counter() - started:.0f} s)", file=sys.stderr)
    if args.json:
        args.json.write_text(json.dumps([{
            "qid": r.question.qid, "kind": r.question.kind, "target": r.question.target,
            "unique": r.question.unique,
            "codenav": {"calls": r.codenav.calls, "sizes": r.codenav.sizes,
                        "right": r.right(r.codenav)},
            "grep": {"calls": r.grep.calls, "sizes": r.grep.sizes, "right": r.right(r.grep)}}
            for r in results], indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
