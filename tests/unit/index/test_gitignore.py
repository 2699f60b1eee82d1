"""The .gitignore matcher used when the tree is not a git work tree."""

from __future__ import annotations

from pathlib import Path

import pytest

from codenav.index.gitignore import IgnoreRules


def rules_for(tmp_path: Path, files: dict[str, str]) -> IgnoreRules:
    rules = IgnoreRules()
    for rel_dir, text in files.items():
        folder = tmp_path / rel_dir
        folder.mkdir(parents=True, exist_ok=True)
        (folder / ".gitignore").write_text(text)
        rules.load(folder, rel_dir)
    return rules


@pytest.mark.parametrize(("pattern", "path", "is_dir", "ignored"), [
    ("*.log", "a.log", False, True),
    ("*.log", "deep/er/a.log", False, True),
    ("*.log", "a.log.txt", False, False),
    ("build/", "build", True, True),
    ("build/", "build", False, False),           # a file named build is not a directory
    ("build/", "src/build", True, True),         # no inner slash: any depth
    ("/build", "src/build", True, False),        # leading slash anchors to the folder
    ("/build", "build", True, True),
    ("docs/*.md", "docs/a.md", False, True),
    ("docs/*.md", "docs/x/a.md", False, False),  # * does not cross /
    ("docs/*.md", "src/docs/a.md", False, False),  # an inner slash anchors too
    ("**/gen", "a/b/gen", True, True),
    ("**/gen", "gen", True, True),
    ("a/**/z.py", "a/z.py", False, True),
    ("a/**/z.py", "a/b/c/z.py", False, True),
    ("out/**", "out/x/y.py", False, True),
    ("f?o.py", "foo.py", False, True),
    ("f?o.py", "fo.py", False, False),
    ("[abc].py", "b.py", False, True),
    ("[!abc].py", "b.py", False, False),
    ("[!abc].py", "d.py", False, True),
    ("\\#hash.py", "#hash.py", False, True),
    ("# comment", "# comment", False, False),
])
def test_patterns(tmp_path: Path, pattern: str, path: str, is_dir: bool, ignored: bool) -> None:
    assert rules_for(tmp_path, {"": pattern + "\n"}).ignored(path, is_dir) is ignored


def test_negation_and_last_rule_wins(tmp_path: Path) -> None:
    rules = rules_for(tmp_path, {"": "*.py\n!keep.py\n"})
    assert rules.ignored("drop.py", False)
    assert not rules.ignored("keep.py", False)


def test_nested_gitignore_is_relative_and_overrides(tmp_path: Path) -> None:
    rules = rules_for(tmp_path, {"": "*.gen.py\n", "pkg": "!special.gen.py\n/local.py\n"})
    assert rules.ignored("pkg/a.gen.py", False)
    assert not rules.ignored("pkg/special.gen.py", False)
    assert rules.ignored("pkg/local.py", False)
    assert not rules.ignored("local.py", False)
    assert not rules.ignored("other/local.py", False)
