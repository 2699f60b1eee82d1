"""README stays true to the code: the tool table comes from the registry."""

from __future__ import annotations

import re
from pathlib import Path

from codenav.index.languages import languages
from codenav.tools.registry import README_BEGIN, README_END, TOOLS, count_words, render_table

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_tool_table_matches_the_registry() -> None:
    text = README.read_text(encoding="utf-8")
    start, end = text.index(README_BEGIN), text.index(README_END) + len(README_END)
    assert text[start:end] == render_table(), (
        "README's tool table drifted from codenav/tools/registry.py; regenerate it with "
        "`python scripts/gen_readme.py`")


def test_readme_language_table_lists_every_extension_mapped() -> None:
    """The table of languages names exactly the file extensions the map reads (a language
    or an extension added under grammars/ must be said)."""
    text = README.read_text(encoding="utf-8")
    table = text[text.index("| language | extensions |"):]
    table = table[:table.index("\n\n")]
    said: set[str] = set()
    for row in table.splitlines()[2:]:
        cell = row.split("|")[2].split("(")[0]
        said.update(word for word in cell.replace("/", " ").split())
    mapped = {ext for lang in languages() for ext in lang.extensions}
    assert said == mapped, f"README's language table: missing {sorted(mapped - said)}, " \
                           f"not mapped {sorted(said - mapped)}"


def test_the_tool_count_said_is_the_registry_s() -> None:
    """"N tools" in README, docs and the tools package is the number the registry has."""
    root = README.parent
    texts = [README, *sorted((root / "docs").glob("*.md")), root / "ARCHITECTURE.md",
             root / "codenav" / "tools" / "__init__.py"]
    words = {count_words(n): count_words(n) for n in range(40)}
    said = []
    for path in texts:
        for found in re.finditer(r"\b([a-z]+|\d+) tools\b", path.read_text(encoding="utf-8"),
                                 re.I):
            word = found.group(1).lower()
            if word.isdigit() or word in words:
                said.append((path.name, words.get(word, word)))
    assert said, "no tool count found (the test reads nothing)"
    assert all(count == count_words(len(TOOLS)) for _, count in said), (said, len(TOOLS))
