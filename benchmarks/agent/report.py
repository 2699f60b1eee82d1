"""bench_agent's tables and its REPORT.md section."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from benchmarks.agent.bars import Bars, bar_lines
from benchmarks.agent.scoring import Answer, Learning, Result, summary

__all__ = ["SECTION", "report", "section", "show", "table", "write_section"]

SECTION = "## An agent's questions: codenav vs grep"


def _right(result: Result, answer: Answer) -> str:
    return f"{'yes' if result.right(answer) else 'no'} {result.score(answer)}"


def table(results: Sequence[Result]) -> list[str]:
    """One row a question: bytes (calls) of each path, the CLI learning charged to it, the
    ratio of the answers' bytes, and who is right."""
    lines = ["| question | kind | name | codenav bytes (calls) | + learning, CLI | "
             "grep bytes (calls) | codenav / grep | codenav right | grep right |",
             "|---|---|---|---:|---:|---:|---:|---|---|"]
    for r in results:
        q = r.question
        learned = f"{r.learning[0]:,} ({r.learning[1]})" if r.learning[1] else ""
        lines.append(
            f"| {q.qid} | {q.kind} | `{q.target}`{'' if q.unique else ' (ambiguous)'} | "
            f"{r.codenav.bytes:,} ({len(r.codenav.calls)}) | {learned} | {r.grep.bytes:,} "
            f"({len(r.grep.calls)}) | {r.codenav.bytes / max(r.grep.bytes, 1):.2f} | "
            f"{_right(r, r.codenav)} | {_right(r, r.grep)} |")
    return lines


def _off(result: Result, answer: Answer) -> str:
    """What an answer got wrong, briefly: its limit, or a missing and an extra fact."""
    if answer.limit:
        return answer.limit
    q = result.question
    if q.kind == "params":
        return f"read {', '.join(answer.ordered) or 'nothing'}"
    missing = sorted(map(str, result.truth - answer.facts))
    extra = [] if q.kind == "outline" else sorted(map(str, answer.facts - result.truth))
    parts = ([f"missing e.g. {missing[0]}"] if missing else []) + (
        [f"extra e.g. {extra[0]}"] if extra else [])
    return "; ".join(parts)


def report(results: Sequence[Result], measured: Bars | None,
           learning: Learning | None = None) -> list[str]:
    s = summary(results, learning)
    lines = table(results)
    lines += [
        "",
        f"All {s['questions']} questions, answers alone: codenav {s['codenav_bytes']:,} bytes "
        f"in {s['codenav_calls']} calls, grep {s['grep_bytes']:,} bytes in "
        f"{s['grep_calls']} calls: codenav / grep = {s['ratio']:.2f}. Right: codenav "
        f"{s['codenav_right']}/{s['questions']}, grep {s['grep_right']}/{s['questions']}.",
    ]
    if learning is not None:
        lines += [
            f"With the learning (bar ≤ 0.6): from the CLI, `codenav tools` "
            f"({learning.tools_bytes:,} bytes) and `codenav call TOOL --help` once for each "
            f"tool used that the list does not show whole ("
            + (", ".join(f"{t} {learning.help_bytes[t]:,}" for t in s["tools"]
                         if learning.help_bytes[t]) or "none")
            + f"): codenav {s['cli_bytes']:,} bytes in {s['cli_calls']} calls, "
            f"codenav / grep = **{s['cli_ratio']:.2f}**; over MCP, the `tools/list` answer "
            f"read once ({learning.mcp_bytes:,} bytes, no call of the agent's): "
            f"{s['mcp_bytes']:,} bytes in {s['codenav_calls']} calls, codenav / grep = "
            f"**{s['mcp_ratio']:.2f}**."]
    lines += [
        "Unique-name questions over grep's bytes (bar: none): "
        + (", ".join(s["unique_over"]) or "none")
        + ". Questions needing more calls than grep (bar: none): "
        + (", ".join(s["more_calls"]) or "none") + ".",
    ]
    for corpus in sorted({r.question.corpus for r in results}):
        part = [r for r in results if r.question.corpus == corpus]
        c, g = sum(r.codenav.bytes for r in part), sum(r.grep.bytes for r in part)
        lines.append(f"{corpus}: codenav {c:,} bytes, grep {g:,} ({c / max(g, 1):.2f}).")
    losses = [r for r in results if r.codenav.bytes > r.grep.bytes
              or (r.right(r.grep) and not r.right(r.codenav))]
    if losses:
        lines += ["", "Where codenav loses (more bytes than grep, or wrong where grep is "
                  "right):", ""]
        for r in losses:
            why = []
            if r.codenav.bytes > r.grep.bytes:
                why.append(f"{r.codenav.bytes:,} bytes vs grep's {r.grep.bytes:,} "
                           f"({r.codenav.bytes / max(r.grep.bytes, 1):.2f}×)")
            if r.right(r.grep) and not r.right(r.codenav):
                why.append(f"wrong ({r.score(r.codenav)}: {_off(r, r.codenav)})")
            lines.append(f"- {r.question.qid} (`{r.question.target}`): " + "; ".join(why))
    wrong = [r for r in results if not r.right(r.grep)]
    if wrong:
        lines += ["", "Where grep is wrong:", ""]
        lines += [f"- {r.question.qid}: {r.score(r.grep)} — {_off(r, r.grep)}" for r in wrong]
    lines += ["", *bar_lines(measured)]
    return lines


def section(results: Sequence[Result], measured: Bars | None,
            learning: Learning | None = None) -> list[str]:
    """The REPORT.md section (``benchmarks/run.py``, or ``--report`` alone)."""
    corpora = sorted({r.question.corpus for r in results})
    return [SECTION, "",
            f"`bench_agent`: {len(results)} fixed questions on {' and '.join(corpora)} (rich "
            "14.3.4 `rich/`, rxjs 7.8.2 `src/`), each answered by the codenav calls an agent "
            "makes from the tool docs (in process, default budget, language servers off) and "
            "by the shell commands an efficient engineer runs (one `grep -rn` of the name; "
            "for callers, only the enclosing definition of each call, cut by `awk`; a "
            "class's members and a method's signature from the class's lines only; no file "
            "read whole); bytes are what the agent reads (the compact JSON envelope; the "
            "commands' output), right = the answer's facts equal a warm language server's "
            "(basedpyright, typescript-language-server). codenav's learning is charged to "
            "the question that first needs it (`+ learning, CLI`).", "",
            *report(results, measured, learning)]


def show(results: Sequence[Result]) -> list[str]:
    """Every call of both paths with its bytes, and what each answer missed or added."""
    lines = []
    for r in results:
        lines.append(f"\n{r.question.qid}: {r.question.text}")
        for label, answer in (("codenav", r.codenav), ("grep", r.grep)):
            for call, size in zip(answer.calls, answer.sizes, strict=True):
                lines.append(f"  {label:<8} {size:>6,}  {call}")
            lines.append(f"  {label:<8} facts {r.score(answer)}  missing "
                         f"{sorted(map(str, r.truth - answer.facts))[:6]} extra "
                         f"{sorted(map(str, answer.facts - r.truth))[:6]}"
                         + (f"  ({answer.limit})" if answer.limit else ""))
    return lines


def write_section(path: Path, lines: Sequence[str], title: str = SECTION) -> None:
    """Put ``lines`` in REPORT.md in place of the section called ``title`` (or before the
    language servers' section, or at the end)."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    body = "\n".join(lines) + "\n"
    start = text.find(title)
    if start >= 0:
        end = text.find("\n## ", start + len(title))
        text = text[:start] + body + ("\n" + text[end + 1:] if end >= 0 else "")
    else:
        at = text.find("## Language servers: cold and warm")
        text = text[:at] + body + "\n" + text[at:] if at >= 0 else text + "\n" + body
    path.write_text(text, encoding="utf-8")
