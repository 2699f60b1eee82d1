"""Token economy: codenav's answers against grep-and-read, for the questions an agent asks.

    python -m benchmarks.bench_tokens [--corpus django] [--per-type 10] [--seed 5]

A fixed, seeded set of questions about the corpus, ``--per-type`` of each kind:

- **where** is X defined — codenav: ``map_search {query: X}``; fact: X's node id is in the
  results.
- **callers**: who calls X (a function or method with resolved calls) — codenav:
  ``map_search`` for X, then ``nav_call_hierarchy`` (incoming, ``source: map``) on X's id;
  facts: every function, method or module that calls X (its id; for grep, the caller's
  ``def`` line, seen in the grep output or in a file read: a call site alone does not say
  which function it is in).
- **file**: what is in file F — codenav: ``map_outline {file: F}``; facts: every class,
  function and method of F.
- **class**: what does class C contain — codenav: ``map_search`` for C, then ``map_node`` on
  its id; facts: every direct member of C.
- **impact**: what breaks if X changes — codenav: ``map_search`` for X, then
  ``nav_references`` (``source: map``) on its id; facts: every reference to X.

Every codenav call goes through ``tools.dispatch.call_tool`` with its default ``tokenBudget``;
its cost is the envelope's ``tokenBudget.used``, summed over the calls of a question (the
``map_search`` that turns a name into an id is counted: an agent knows names, not ids).

The baseline greps for the name (``rg -n -w NAME``, or ``grep -rnIw NAME .`` when ripgrep is
missing; for **file**, it reads F) and then reads hit files in full, the files with most hits
first, until the facts are all in what it has seen or 10 files are read. Its cost is
ceil(characters / 4) of the grep output (capped at 100,000 characters, as an agent's tool
output would be) plus the files read. A fact that is a position (a call site, a reference,
a definition, a caller's ``def`` line) is in the grep output when its ``file:line:`` line
is, and in a file read in full; a member of a file or class is in the files read. The
baseline's answer is never checked for noise (grep lines that are not references):
``grep lines`` counts them for comparison.

**Ground truth comes from the map itself** (``nodes`` and ``refs`` of the SQLite map): the
questions measure whether each answer *contains* the facts and at what token cost, not
whether the map is right — ``bench_accuracy`` measures that against basedpyright. Positions
are compared at line level (file, line).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import random
import shutil
import sqlite3
import subprocess
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.answers import facts
from benchmarks.corpora import CORPORA, fetch
from benchmarks.timing import Stopwatch, median
from codenav.tools.dispatch import call_tool
from codenav.workspace import Workspace

TYPES = ("where", "callers", "file", "class", "impact")
GREP_OUTPUT_CAP = 100_000  # characters of grep output an agent would see
MAX_FILES_READ = 10
Fact = Any  # a (file, line) position, or a node id


@dataclass
class Question:
    kind: str
    name: str  # the symbol's name, or the file's path for "file"
    nid: str
    path: str  # the defining file
    line: int  # of the definition's name
    col: int
    facts: set[Fact] = field(default_factory=set)
    member_lines: dict[str, tuple[str, int]] = field(default_factory=dict)  # nid -> position


@dataclass
class Answer:
    question: Question
    codenav_tokens: int = 0
    codenav_answer_tokens: int = 0  # the answering call alone (without the id lookup)
    codenav_found: int = 0
    codenav_calls: list[str] = field(default_factory=list)
    grep_tokens: int = 0
    grep_found: int = 0
    grep_files_read: int = 0
    grep_lines: int = 0
    codenav_seconds: float = 0.0
    codenav_truncated: bool = False  # an answering call said truncated: true
    grep_seconds: float = 0.0  # the grep and the reading of files

    @property
    def total(self) -> int:
        return len(self.question.facts)


def _tokens(chars: int) -> int:
    return math.ceil(chars / 4)


def draw_questions(db: Path, per_type: int, seed: int) -> list[Question]:
    """``per_type`` questions of each kind, drawn with ``seed`` from the map's Python nodes."""
    rng = random.Random(seed)
    conn = sqlite3.connect(db)
    defs = conn.execute(
        "SELECT n.id, n.nid, n.kind, n.name, f.path, n.name_line, n.name_col FROM nodes n "
        "JOIN files f ON f.id = n.file_id WHERE f.lang = 'py' "
        "AND n.kind IN ('class', 'function', 'method') AND n.name NOT LIKE '\\_\\_%' ESCAPE '\\' "
        "ORDER BY n.nid").fetchall()

    def refs_of(node_id: int, kind: str | None = None) -> set[Fact]:
        sql = ("SELECT f.path, r.line FROM refs r JOIN files f ON f.id = r.file_id "
               "WHERE r.target_id = ?" + (" AND r.kind = ?" if kind else ""))
        return set(conn.execute(sql, (node_id, kind) if kind else (node_id,)).fetchall())

    def members(parent_sql: str, arg: Any) -> dict[str, tuple[str, int]]:
        rows = conn.execute(
            "SELECT n.nid, f.path, n.name_line FROM nodes n JOIN files f ON f.id = n.file_id "
            f"WHERE {parent_sql}", (arg,)).fetchall()
        return {nid: (path, line) for nid, path, line in rows}

    out: list[Question] = []
    shuffled = rng.sample(defs, len(defs))

    def take(kind: str, accept: Any) -> None:
        taken = 0
        for node_id, nid, node_kind, name, path, line, col in shuffled:
            if taken == per_type:
                break
            question = Question(kind, name, nid, path, line, col)
            if accept(question, node_id, node_kind):
                out.append(question)
                taken += 1

    def where(q: Question, _node_id: int, _kind: str) -> bool:
        q.facts = {q.nid}
        q.member_lines = {q.nid: (q.path, q.line)}
        return True

    def callers(q: Question, node_id: int, kind: str) -> bool:
        if kind not in ("function", "method"):
            return False
        rows = conn.execute(
            "SELECT DISTINCT s.nid, sf.path, s.name_line FROM refs r "
            "JOIN nodes s ON s.id = r.scope_id JOIN files sf ON sf.id = s.file_id "
            "WHERE r.target_id = ? AND r.kind = 'call'", (node_id,)).fetchall()
        q.member_lines = {nid: (path, line) for nid, path, line in rows}
        q.facts = set(q.member_lines)
        return 0 < len(q.facts) <= 40

    def impact(q: Question, node_id: int, _kind: str) -> bool:
        q.facts = refs_of(node_id)
        return 0 < len(q.facts) <= 150

    def klass(q: Question, node_id: int, kind: str) -> bool:
        if kind != "class":
            return False
        q.member_lines = members("n.parent_id = ?", node_id)
        q.facts = set(q.member_lines)
        return len(q.facts) > 0

    take("where", where)
    take("callers", callers)
    take("class", klass)
    take("impact", impact)
    files = conn.execute("SELECT id, path FROM files WHERE lang = 'py' AND status = 'ok' "
                         "AND lines >= 20 ORDER BY path").fetchall()
    for file_id, path in rng.sample(files, min(per_type, len(files))):
        q = Question("file", path, f"py:{path}", path, 1, 1)
        q.member_lines = members("n.file_id = ? AND n.kind IN ('class', 'function', 'method')",
                                 file_id)
        q.facts = set(q.member_lines)
        out.append(q)
    conn.close()
    return out


# ----------------------------------------------------------------------------- codenav

async def ask_codenav(ws: Workspace, q: Question, answer: Answer) -> None:
    calls: list[tuple[str, dict[str, Any]]] = []
    if q.kind == "file":
        calls.append(("map_outline", {"file": q.path}))
    else:
        calls.append(("map_search", {"query": q.name}))
        if q.kind == "callers":
            calls.append(("nav_call_hierarchy", {"id": q.nid, "direction": "incoming",
                                                 "source": "map"}))
        elif q.kind == "class":
            calls.append(("map_node", {"id": q.nid}))
        elif q.kind == "impact":
            calls.append(("nav_references", {"id": q.nid, "source": "map"}))
    ids: set[str] = set()
    positions: set[tuple[str, int]] = set()
    for tool, args in calls:
        clock = Stopwatch()
        envelope = await call_tool(ws, tool, args)
        answer.codenav_seconds += clock.seconds()
        used = int(envelope["tokenBudget"]["used"])
        answer.codenav_tokens += used
        answer.codenav_answer_tokens = used
        answer.codenav_calls.append(tool)
        if envelope.get("truncated") and not (tool == "map_search" and q.kind != "where"):
            answer.codenav_truncated = True
        if envelope.get("ok"):
            more_ids, more_positions = facts(envelope)
            if tool == "map_search" and q.kind != "where":
                continue  # the lookup of the id; the facts are in the answering call
            ids |= more_ids
            positions |= more_positions
    answer.codenav_found = sum(1 for f in q.facts if f in ids or f in positions)


# ------------------------------------------------------------------------ grep and read

def grep_command(name: str) -> list[str]:
    if shutil.which("rg"):
        return ["rg", "-n", "-w", "--no-heading", "--", name, "."]
    return ["grep", "-rnIw", "--exclude-dir=.codenav", "--", name, "."]


def ask_grep(root: Path, q: Question, answer: Answer) -> None:
    def as_position(fact: Fact) -> tuple[str, int]:
        return q.member_lines[fact] if isinstance(fact, str) else fact

    clock = Stopwatch()
    wanted = {f: as_position(f) for f in q.facts}
    seen_lines: set[tuple[str, int]] = set()
    hits: Counter[str] = Counter()
    tokens = 0
    if q.kind == "file":
        order = [q.path]
    else:
        out = subprocess.run(grep_command(q.name), cwd=root, capture_output=True, check=False,
                             text=True, errors="replace").stdout[:GREP_OUTPUT_CAP]
        tokens += _tokens(len(out))
        answer.grep_lines = out.count("\n")
        for line in out.splitlines():
            path, _, rest = line.partition(":")
            number, _, _ = rest.partition(":")
            if number.isdigit():
                path = path.removeprefix("./")
                seen_lines.add((path, int(number)))
                hits[path] += 1
        order = [path for path, _ in hits.most_common()]
    read: set[str] = set()

    def found() -> int:
        return sum(1 for pos in wanted.values() if pos in seen_lines or pos[0] in read)

    for path in order:
        if found() == len(wanted) or len(read) == MAX_FILES_READ:
            break
        try:
            text = (root / path).read_text("utf-8", "replace")
        except OSError:
            continue
        read.add(path)
        tokens += _tokens(len(text))
    answer.grep_seconds = clock.seconds()
    answer.grep_tokens = tokens
    answer.grep_found = found()
    answer.grep_files_read = len(read)


# ------------------------------------------------------------------------------ running

def run(root: Path, db: Path, per_type: int = 10, seed: int = 5) -> list[Answer]:
    ws = Workspace(root, db)
    questions = draw_questions(db, per_type, seed)
    answers = [Answer(q) for q in questions]

    async def codenav_all() -> None:
        for answer in answers:
            await ask_codenav(ws, answer.question, answer)

    try:
        asyncio.run(codenav_all())
    finally:
        ws.close()
    for answer in answers:
        ask_grep(root, answer.question, answer)
    return answers


def summarize(answers: list[Answer]) -> list[dict[str, Any]]:
    """Per question type: medians of tokens, found rates (facts and fully answered)."""
    rows = []
    for kind in TYPES:
        of_kind = [a for a in answers if a.question.kind == kind]
        if not of_kind:
            continue
        facts = sum(a.total for a in of_kind)
        rows.append({
            "type": kind, "questions": len(of_kind), "facts": facts,
            "codenav_tokens": median(a.codenav_tokens for a in of_kind),
            "codenav_answer_tokens": median(a.codenav_answer_tokens
                                                       for a in of_kind),
            "grep_tokens": median(a.grep_tokens for a in of_kind),
            "codenav_truncated": sum(a.codenav_truncated for a in of_kind),
            "codenav_sum": sum(a.codenav_tokens for a in of_kind),
            "grep_sum": sum(a.grep_tokens for a in of_kind),
            "ratio": median(a.grep_tokens / max(a.codenav_tokens, 1)
                                       for a in of_kind),
            "codenav_facts": sum(a.codenav_found for a in of_kind) / facts if facts else 1.0,
            "grep_facts": sum(a.grep_found for a in of_kind) / facts if facts else 1.0,
            "codenav_complete": sum(a.codenav_found == a.total for a in of_kind) / len(of_kind),
            "grep_complete": sum(a.grep_found == a.total for a in of_kind) / len(of_kind),
            "grep_files": median(a.grep_files_read for a in of_kind),
            "grep_lines": median(a.grep_lines for a in of_kind),
            "codenav_ms": median(a.codenav_seconds for a in of_kind) * 1000,
            "grep_ms": median(a.grep_seconds for a in of_kind) * 1000,
        })
    return rows


def show(answers: list[Answer]) -> list[dict[str, Any]]:
    rows = summarize(answers)
    print(f"\n{'type':<8} {'n':>3} {'facts':>6} {'codenav tok':>12} {'(answer)':>9} "
          f"{'grep tok':>9} {'× fewer':>8} {'codenav found':>14} {'grep found':>11} "
          f"{'files read':>10} {'grep lines':>10}")
    for r in rows:
        print(f"{r['type']:<8} {r['questions']:>3} {r['facts']:>6} {r['codenav_tokens']:>12.0f} "
              f"{r['codenav_answer_tokens']:>9.0f} {r['grep_tokens']:>9.0f} {r['ratio']:>8.1f} "
              f"{r['codenav_facts']:>8.2f} ({r['codenav_complete']:.2f}) "
              f"{r['grep_facts']:>5.2f} ({r['grep_complete']:.2f}) {r['grep_files']:>10.0f} "
              f"{r['grep_lines']:>10.0f}")
    codenav_sum = sum(r["codenav_sum"] for r in rows)
    grep_sum = sum(r["grep_sum"] for r in rows)
    print(f"all {len(answers)} questions: codenav {codenav_sum:,} tokens, grep and read "
          f"{grep_sum:,} ({grep_sum / max(codenav_sum, 1):.1f}×)")
    print("tokens: medians per question; × fewer: median of grep/codenav per question; found: "
          "share of facts found (share of questions answered completely)")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default="django",
                        choices=sorted(n for n, c in CORPORA.items() if c.language == "python"))
    parser.add_argument("--per-type", type=int, default=10)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--db", type=Path, help="an existing map of the corpus (else built)")
    parser.add_argument("--dump", type=Path, help="write every answer as JSON here")
    args = parser.parse_args()
    root = fetch(CORPORA[args.corpus])
    db = args.db
    if db is None:
        from codenav.index.pipeline import index_tree

        db = Path(tempfile.mkdtemp()) / "map.db"
        index_tree(root, db)
    print(f"corpus {args.corpus}: {root}; baseline: {' '.join(grep_command('NAME')[:-2])}")
    answers = run(root, db, args.per_type, args.seed)
    show(answers)
    if args.dump:
        args.dump.write_text(json.dumps([
            {"kind": a.question.kind, "name": a.question.name, "nid": a.question.nid,
             "facts": a.total, "codenav_tokens": a.codenav_tokens,
             "codenav_found": a.codenav_found, "codenav_calls": a.codenav_calls,
             "grep_tokens": a.grep_tokens, "grep_found": a.grep_found,
             "grep_files_read": a.grep_files_read, "grep_lines": a.grep_lines}
            for a in answers], indent=1),
            encoding="utf-8")


if __name__ == "__main__":
    main()
