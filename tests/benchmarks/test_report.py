"""REPORT.md's rendering: every section, in order, from a made-up run's results."""

from __future__ import annotations

from pathlib import Path

from benchmarks.agent.real import TITLE
from benchmarks.agent.report import SECTION, write_section
from benchmarks.report import write_report
from tests.benchmarks.report_results import results

HEADINGS = ["# codenav benchmark report", "## Indexing", "## Growth to 100,000 files",
            "## Tool latency", "## Accuracy: references from the map vs a warm language server",
            "## Token economy: codenav vs grep-and-read", SECTION, TITLE,
            "## Language servers: cold and warm"]


def headings(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("#")]


def test_a_full_run_has_every_section_in_order(tmp_path: Path) -> None:
    path = tmp_path / "REPORT.md"
    write_report(path, results(full=True), quick=False, seconds=711.0)
    text = path.read_text(encoding="utf-8")
    assert headings(text) == HEADINGS
    assert "in 711 s (full run)" in text
    assert "| nav_references | " in text and "stdio p95" in text
    assert "Through codenav (`bench_lsp` parts 1-3" in text
    assert "Fitted growth exponent" in text
    assert "gettext" in text  # the symbol with most extras
    assert "Not in this quick run" not in text
    assert text.endswith("`bench_watch`).\n")


def test_a_quick_run_leaves_out_what_it_did_not_measure(tmp_path: Path) -> None:
    path = tmp_path / "REPORT.md"
    write_report(path, results(full=False), quick=True, seconds=90.0)
    text = path.read_text(encoding="utf-8")
    assert headings(text) == [h for h in HEADINGS if not h.startswith("## Growth")]
    assert "CPython 3.11's" not in text and "stdio p95" not in text
    assert "Not in this quick run" in text


def test_bench_agent_rewrites_its_own_section_only(tmp_path: Path) -> None:
    path = tmp_path / "REPORT.md"
    path.write_text(f"# r\n\n## A\n\na\n\n{SECTION}\n\nold\n\n## B\n\nb\n", encoding="utf-8")
    write_section(path, [SECTION, "", "new"])
    expected = f"# r\n\n## A\n\na\n\n{SECTION}\n\nnew\n\n## B\n\nb\n"
    assert path.read_text(encoding="utf-8") == expected
