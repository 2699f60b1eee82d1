"""An agent's questions answered with codenav and with grep: bytes read, calls made, right?

    python -m benchmarks.bench_agent [--corpus rich|rxjs] [--show] [--json FILE]
        [--report benchmarks/REPORT.md]

A fixed set of questions (``benchmarks/agent/questions.py``) about two held-in
repositories: rich 14.3.4 (``rich/``, Python) and rxjs 7.8.2 (``src/``, TypeScript); unique
names and ambiguous ones (``get``, ``update``, ``render``, ``add``, ``schedule``), the
definition and every use, callers, subclasses, a class's methods, a method's parameters, a
module's importers, the outline of a big file. Each is answered twice, and scored against a
warm language server:

- **codenav** (``agent/codenav_path.py``): the calls an agent makes knowing the tool docs,
  one per question, in process at the default budget, answers from the map; plus what the
  agent reads to learn the tools — ``codenav tools`` once and ``codenav call TOOL --help``
  once per tool it uses (CLI), or the ``tools/list`` answer once (MCP) — charged to the
  question that first needs it.
- **grep** (``agent/grep_path.py``): the shell commands an efficient engineer runs, for
  real, in the corpus folder: one ``grep -rn`` of the name, and for callers, members and
  signatures only the lines around the hits (``awk``), never a whole file.
- **truth** (``agent/truth.py``): basedpyright for rich, typescript-language-server for
  rxjs (``benchmarks/lsp_truth.py``); scoring in ``agent/scoring.py``.

Also printed: the tool list's size as an MCP client receives it, ``nav_references`` for a
method used ~45 times against ``grep -rn`` of its name, and how many of Console's methods
the default-budget outline of rich's ``console.py`` names (``agent/bars.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from benchmarks.agent import bars, codenav_path, grep_path
from benchmarks.agent.bars import Bars
from benchmarks.agent.questions import QUESTIONS, Question
from benchmarks.agent.report import report, section, show, write_section
from benchmarks.agent.scoring import Learning, Result, charge_learning
from benchmarks.agent.truth import Truth, anchor
from benchmarks.corpora import CORPORA, fetch
from benchmarks.lsp_truth import TruthServer
from benchmarks.timing import Stopwatch
from codenav.index.pipeline import index_tree
from codenav.workspace import Workspace

__all__ = ["QUESTIONS", "Question", "Result", "run", "run_corpus", "section", "write_section"]

_SERVER = {"python": "basedpyright", "typescript": "typescript-language-server"}


async def run_corpus(name: str, questions: Sequence[Question], with_truth: bool = True,
                     db: Path | None = None) -> tuple[list[Result], Bars | None, Learning]:
    """Both paths (and the truth) for ``questions`` on one corpus: one Workspace, one
    agent session."""
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
        for question in questions:
            at = anchor(db, question)
            result = Result(question)
            result.codenav = await codenav_path.ask(ws, question, corpus.language)
            result.grep = grep_path.ask(root, question, corpus.language)
            if server is not None and truth is not None:
                if not server._warm:
                    probe = at or anchor(db, next(q for q in questions
                                                  if q.kind not in ("importers", "outline")))
                    assert probe is not None
                    await server.start()
                    await server.warm(probe.position)
                await truth.answer(question, at, result)
            results.append(result)
        tools = [t for r in results for t in r.tools()]
        learning = await codenav_path.learning(ws, tools)
        measured = await bars.measure(ws, root, truth) if name == "rich" else None
    finally:
        ws.close()
        if server is not None:
            await server.close()
    return results, measured, learning


def run(corpora: Sequence[str] = ("rich", "rxjs"), with_truth: bool = True
        ) -> tuple[list[Result], Bars | None, Learning]:
    """Every corpus's questions, as one agent's session: the learning is charged once, to
    the first question needing each part of it."""
    results: list[Result] = []
    measured = None
    learned: list[Learning] = []
    for name in corpora:
        found, bars_, learning = asyncio.run(run_corpus(
            name, [q for q in QUESTIONS if q.corpus == name], with_truth))
        results += found
        measured = bars_ or measured
        learned.append(learning)
    learning = Learning(learned[0].tools_bytes,
                        {t: b for one in learned for t, b in one.help_bytes.items()},
                        learned[0].mcp_bytes)
    charge_learning(results, learning)
    return results, measured, learning


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
    clock = Stopwatch()
    results, measured, learning = run(args.corpus or ("rich", "rxjs"), not args.no_truth)
    if args.show:
        print("\n".join(show(results)))
    print("\n".join(report(results, measured, learning)))
    if args.report:
        when = dt.datetime.now(dt.timezone.utc)
        write_section(args.report, [
            *section(results, measured, learning), "",
            f"(This section alone: `python -m benchmarks.bench_agent --report` on "
            f"{when:%Y-%m-%d %H:%M} UTC, apart from the full run the header names.)"])
    print(f"\n({clock.seconds():.0f} s)", file=sys.stderr)
    if args.json:
        args.json.write_text(json.dumps([{
            "qid": r.question.qid, "kind": r.question.kind, "target": r.question.target,
            "unique": r.question.unique, "learning": list(r.learning),
            "truth": sorted(map(str, r.truth)),
            **{label: {"calls": a.calls, "sizes": a.sizes, "right": r.right(a),
                       "score": r.score(a), "limit": a.limit,
                       "facts": sorted(map(str, a.facts))}
               for label, a in (("codenav", r.codenav), ("grep", r.grep))}}
            for r in results], indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
