"""README stays true to the code: the tool table comes from the registry."""

from __future__ import annotations

from pathlib import Path

from codenav.tools.registry import README_BEGIN, README_END, render_table

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_tool_table_matches_the_registry() -> None:
    text = README.read_text(encoding="utf-8")
    start, end = text.index(README_BEGIN), text.index(README_END) + len(README_END)
    assert text[start:end] == render_table(), (
        "README's tool table drifted from codenav/tools/registry.py; regenerate it with "
        "`python scripts/gen_readme.py`")
