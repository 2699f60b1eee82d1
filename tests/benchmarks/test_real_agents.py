"""The real-agent evaluation's section of REPORT.md: every run and arm of the data rendered,
ratios computed against the run's grep arm, and the section put in place of its old text."""

from __future__ import annotations

from pathlib import Path

from benchmarks.agent.real import TITLE, runs, section
from benchmarks.agent.report import write_section


def test_every_run_and_arm_is_in_the_section_with_its_ratio_to_grep() -> None:
    text = "\n".join(section())
    for run in runs()["runs"]:
        assert f"**Run {run['run']}** (codenav `{run['commit']}`)" in text
        grep = run["arms"]["grep"]
        for arm, got in run["arms"].items():
            ratio = f"{got['bytes'] / grep['bytes']:.2f}×"
            assert f"| {arm} | {got['right']}/{got['total']} | {got['calls']} | " \
                   f"{got['bytes']:,} |" in text
            assert ratio in text


def test_the_section_replaces_its_old_text_and_keeps_the_rest(tmp_path: Path) -> None:
    report = tmp_path / "REPORT.md"
    report.write_text(f"# r\n\n{TITLE}\n\nSTALE-TEXT\n\n"
                      "## Language servers: cold and warm\n\nkept\n")
    write_section(report, section(), TITLE)
    text = report.read_text()
    assert "STALE-TEXT" not in text and text.count(TITLE) == 1
    assert text.index(TITLE) < text.index("## Language servers") and text.endswith("kept\n")
