"""JSON the shell's brace expansion took apart, read back member by member (``codenav call``
typed without quoting the object): what can be told apart is read, anything else refused."""

from __future__ import annotations

from typing import Any

import pytest

from codenav.cli import _expanded


@pytest.mark.parametrize(("words", "read"), [
    # pyasn1 (run 31): a fileFilter's commas were quoted: they stay in the string
    (["query:Circle", "fileFilter:lib/,docs/", "kinds:[class]"],
     {"query": "Circle", "fileFilter": "lib/,docs/", "kinds": ["class"]}),
    (["query:Circle", "kinds:[class", "method]", "tokenBudget:300"],
     {"query": "Circle", "kinds": ["class", "method"], "tokenBudget": 300}),
    (["query:", "text:true"], {"query": "", "text": True}),  # `"query":""`
    (["id:py:src/a.py#A.m", "show:lines"], {"id": "py:src/a.py#A.m", "show": "lines"}),
    (["kinds:[a,b]", "x:1"], {"kinds": ["a,b"], "x": 1}),  # one word: its commas quoted
    (["query:[key", "text:true"], None),  # a string starting "[", not a list: refused
    (["kinds:[a", "b"], None),  # a list never closed
    (["a:b", "c"], None),  # a word that is no member
    (["{a:b}"], None),  # one word: not brace expansion's
])
def test_brace_expanded_words_are_read_back_or_refused(words: list[str],
                                                       read: dict[str, Any] | None) -> None:
    assert _expanded(words) == read
