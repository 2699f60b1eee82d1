"""Real agents answering code questions with codenav only, grep only, and both: the runs of
the real-agent evaluation (``../shared/agent-eval``), as measured, in REPORT.md.

The runs cannot be replayed by a script — each is a set of agents answering questions through
a logging wrapper — so their figures are data (``real_runs.json``: calls, bytes, learning,
right answers per arm, per question set where measured, which instrument the mixed agent
chose, what each run found), and this module renders them.

    python -m benchmarks.agent.real                      # print the section
    python -m benchmarks.agent.real --report benchmarks/REPORT.md   # put it in the report
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from benchmarks.agent.report import write_section

__all__ = ["TITLE", "runs", "section"]

TITLE = "## Real agents: codenav, grep and both"
RUNS = Path(__file__).with_name("real_runs.json")
ARMS = ("grep", "codenav", "mixed")


def runs() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(RUNS.read_text(encoding="utf-8"))
    return data


def _ratio(part: float, whole: float) -> str:
    return f"{part / whole:.2f}×" if whole else "–"


def section() -> list[str]:
    data = runs()
    lines = [TITLE, "", data["method"], "", data["summary"]]
    for run in data["runs"]:
        grep = run["arms"]["grep"]
        lines += ["", f"**Run {run['run']}** (codenav `{run['commit']}`): {run['questions']}."]
        if run.get("grep_from"):
            lines[-1] += f" The grep arm is {run['grep_from']}."
        lines += ["", "| arm | right | calls | bytes | of which learning (calls, bytes) | "
                      "bytes / grep | calls / grep |",
                  "|---|---:|---:|---:|---:|---:|---:|"]
        for arm in ARMS:
            got = run["arms"][arm]
            lines.append(f"| {arm} | {got['right']}/{got['total']} | {got['calls']} | "
                         f"{got['bytes']:,} | {got['learning_calls']}, "
                         f"{got['learning_bytes']:,} | {_ratio(got['bytes'], grep['bytes'])} | "
                         f"{_ratio(got['calls'], grep['calls'])} |")
        if run.get("sets"):
            lines += ["", "| question set | arm | right | calls | bytes | bytes / grep |",
                      "|---|---|---:|---:|---:|---:|"]
            for name, arms in run["sets"].items():
                for arm in ARMS:
                    calls, size, right, total = arms[arm]
                    lines.append(f"| {name} | {arm} | {right}/{total} | {calls} | {size:,} | "
                                 f"{_ratio(size, arms['grep'][1])} |")
        lines += ["", f"The mixed agent chose {run['mixed_choice']}. What the run found (fixed "
                      f"after it, so later runs are not blind to it): {run['found'].rstrip('.')}."]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--report", type=Path, help="write the section into this REPORT.md")
    args = parser.parse_args()
    lines = section()
    print("\n".join(lines))
    if args.report:
        write_section(args.report, lines, TITLE)


if __name__ == "__main__":
    main()
