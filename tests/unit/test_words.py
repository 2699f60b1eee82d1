"""Identifier words for search: camelCase, snake_case, acronyms, digits, non-ASCII."""

from __future__ import annotations

import pytest

from codenav.words import name_words


@pytest.mark.parametrize(("name", "words"), [
    ("parseHTTPResponse2", ["parse", "http", "response", "2"]),
    ("save_user", ["save", "user"]),
    ("UserSaveMixin", ["user", "save", "mixin"]),
    ("__init__", ["init"]),
    ("XMLHttpRequest", ["xml", "http", "request"]),
    ("getID", ["get", "id"]),
    ("CaféCrème", ["café", "crème"]),
    ("ÉtatGénéral_v2", ["état", "général", "v", "2"]),
    ("a_a_A", ["a"]),
    ("", []),
])
def test_name_words(name: str, words: list[str]) -> None:
    assert name_words(name) == words
