"""What each path read and answered, scored against the truth.

An answer is right when its facts are the truth's (for an outline: when they include every
one of them; for parameters: the same names in the same order). ``score`` says how far off
it is: ``found/expected`` and ``+extra`` for facts the truth has not.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from benchmarks.agent.questions import Question

__all__ = ["Answer", "Fact", "Learning", "Result", "charge_learning", "summary"]

Fact = Any  # (file, line), (file, caller name), a class, member or parameter name, a file


@dataclass
class Answer:
    """One way of answering a question: the calls made, the bytes each printed, and what
    the answer says (``facts``; ``ordered`` for parameters)."""

    calls: list[str] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)
    facts: set[Fact] = field(default_factory=set)
    ordered: list[str] = field(default_factory=list)
    limit: str = ""  # why this path cannot answer the question exactly, when it cannot

    def record(self, call: str, size: int) -> None:
        self.calls.append(call)
        self.sizes.append(size)

    @property
    def bytes(self) -> int:
        return sum(self.sizes)


@dataclass(frozen=True)
class Learning:
    """What an agent reads once to learn codenav's tools, and when.

    CLI: ``codenav tools`` once, then ``codenav call TOOL --help`` the first time a tool is
    used that the list does not show whole (its own arguments and an example). MCP: the
    ``tools/list`` answer once per session (the client asks; the agent reads it), no calls
    of the agent's own."""

    tools_bytes: int  # `codenav tools`
    help_bytes: dict[str, int]  # `codenav call TOOL --help`, by tool
    mcp_bytes: int  # tools/list, compact JSON

    def cli(self, tools: Sequence[str]) -> tuple[int, int]:
        """(bytes, calls) of learning ``tools`` from the CLI: the list, and the help of the
        tools it does not show whole (``help_bytes`` 0 for the others)."""
        distinct = [t for t in dict.fromkeys(tools) if self.help_bytes[t]]
        return (self.tools_bytes + sum(self.help_bytes[t] for t in distinct), 1 + len(distinct))


@dataclass
class Result:
    question: Question
    truth: set[Fact] = field(default_factory=set)
    truth_ordered: list[str] = field(default_factory=list)
    codenav: Answer = field(default_factory=Answer)
    grep: Answer = field(default_factory=Answer)
    # CLI learning charged to this question: the tools' list (the session's first
    # question) and the --help of tools first used here; (bytes, calls)
    learning: tuple[int, int] = (0, 0)

    def right(self, answer: Answer) -> bool:
        if self.question.kind == "outline":
            return self.truth <= answer.facts
        if self.question.kind == "params":
            return answer.ordered == self.truth_ordered
        return answer.facts == self.truth

    def score(self, answer: Answer) -> str:
        """found/expected, and +extra when the answer holds facts the truth has not."""
        found = len(self.truth & answer.facts)
        extra = 0 if self.question.kind == "outline" else len(answer.facts - self.truth)
        return f"{found}/{len(self.truth)}" + (f" +{extra}" if extra else "")

    def tools(self) -> list[str]:
        """The codenav tools this question's calls use, in order."""
        return [call.split(" ", 1)[0] for call in self.codenav.calls]


def charge_learning(results: Sequence[Result], learning: Learning) -> None:
    """Charge the CLI learning to the questions in the order they are asked: the tools'
    list to the first, each tool's --help to the first question using it."""
    seen: set[str] = set()
    for i, result in enumerate(results):
        new = [t for t in dict.fromkeys(result.tools()) if t not in seen]
        seen.update(new)
        size = sum(learning.help_bytes[t] for t in new) + (learning.tools_bytes if i == 0 else 0)
        helps = sum(1 for t in new if learning.help_bytes[t])  # a tool the list shows whole: 0
        result.learning = (size, helps + (1 if i == 0 else 0))


def summary(results: Sequence[Result], learning: Learning | None = None) -> dict[str, Any]:
    """Totals over ``results``: bytes and calls of both paths, answers alone and with the
    learning (CLI and MCP), how many are right, and where codenav loses."""
    codenav = sum(r.codenav.bytes for r in results)
    grep = sum(r.grep.bytes for r in results)
    calls = sum(len(r.codenav.calls) for r in results)
    tools = [t for r in results for t in r.tools()]
    out: dict[str, Any] = {
        "questions": len(results),
        "codenav_bytes": codenav, "grep_bytes": grep,
        "codenav_calls": calls,
        "grep_calls": sum(len(r.grep.calls) for r in results),
        "ratio": codenav / max(grep, 1),
        "codenav_right": sum(r.right(r.codenav) for r in results),
        "grep_right": sum(r.right(r.grep) for r in results),
        "unique_over": [r.question.qid for r in results
                        if r.question.unique and r.codenav.bytes > r.grep.bytes],
        "more_calls": [r.question.qid for r in results
                       if len(r.codenav.calls) > len(r.grep.calls)],
        "over": [r.question.qid for r in results if r.codenav.bytes > r.grep.bytes],
        "wrong_where_grep_right": [r.question.qid for r in results
                                   if r.right(r.grep) and not r.right(r.codenav)],
    }
    if learning is not None:
        cli_bytes, cli_calls = learning.cli(tools)
        out.update(
            tools=list(dict.fromkeys(tools)),
            cli_learning_bytes=cli_bytes, cli_learning_calls=cli_calls,
            cli_bytes=codenav + cli_bytes, cli_calls=calls + cli_calls,
            cli_ratio=(codenav + cli_bytes) / max(grep, 1),
            mcp_learning_bytes=learning.mcp_bytes,
            mcp_bytes=codenav + learning.mcp_bytes,
            mcp_ratio=(codenav + learning.mcp_bytes) / max(grep, 1))
    return out
