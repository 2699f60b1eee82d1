"""Rewrite README.md's generated tool table from codenav/tools/registry.py."""

from __future__ import annotations

from pathlib import Path

from codenav.tools.registry import README_BEGIN, README_END, render_table

README = Path(__file__).resolve().parents[1] / "README.md"


def main() -> None:
    text = README.read_text(encoding="utf-8")
    start, end = text.index(README_BEGIN), text.index(README_END) + len(README_END)
    README.write_text(text[:start] + render_table() + text[end:], encoding="utf-8")


if __name__ == "__main__":
    main()
