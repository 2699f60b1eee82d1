"""Where a word is, as the parse tells: comments, strings, code."""

from __future__ import annotations

import re

from codenav.index.languages import Language, by_extension
from codenav.index.literals import literal_at, names_on_line, word_places


def _lang(ext: str) -> Language:
    lang = by_extension(ext)
    assert lang is not None
    return lang


TS = b"""export function run(job: Job) {
  /*
  it('pauses', () => {
    return job.isPaused();
  });
  */
  const label = `paused: ${job.isPaused()}`;
  const name = 'isPaused';
  return job.isPaused(); // isPaused
}
"""

PY = b'''def isPaused(q):
    """Whether it is paused.

    Call isPaused before resume.
    """
    msg = f"{isPaused(q)} isPaused"
    # isPaused again
    return isPaused
'''


def test_a_line_of_a_block_comment_or_a_docstring_is_no_code() -> None:
    # bullmq (run 18): tests/job.test.ts:1505 `return job.isPaused();` inside a /* … */ block
    # was counted as a local name; the agent spent 14 calls finding out why
    places = word_places(_lang(".ts"), TS, "isPaused", range(1, 11))
    assert places == {4: "comment", 7: "code", 8: "string", 9: "code"}, places
    py = word_places(_lang(".py"), PY, "isPaused", range(1, 9))
    assert py == {1: "code", 4: "string", 6: "code", 7: "comment", 8: "code"}, py


def test_a_pattern_is_placed_as_a_word_is() -> None:
    places = word_places(_lang(".ts"), TS, re.compile(re.escape("job.isPaused(")), [4, 7, 9])
    assert places == {4: "comment", 7: "code", 9: "code"}, places


def test_the_literal_around_a_position_and_its_lines() -> None:
    lang = _lang(".ts")
    assert literal_at(lang, TS, 4, 12) == ("comment", 2, 6)
    assert literal_at(lang, TS, 8, 18) == ("string", 8, 8)
    assert literal_at(lang, TS, 9, 10) is None


def test_the_names_in_code_on_a_line_not_its_keywords() -> None:
    assert names_on_line(_lang(".ts"), TS, 9) == [(10, "job"), (14, "isPaused")]
    assert names_on_line(_lang(".ts"), TS, 4) == []  # commented out


def test_the_module_an_import_names_is_no_string() -> None:
    # zod (run 21): a text search of a module's name marked its import lines "(string)"; a
    # word only in the path (zrender's `import { GradientObject } from './Gradient'`, run 30)
    # is the module's, not code nor a string; beside the imported name it is code
    lang = _lang(".ts")
    data = (b'import { x } from "./types";\nconst s = "./types";\nexport * from "./types";\n'
            b'import types from "./types";\nexport default "./types";\n')
    assert word_places(lang, data, "types", [1, 2, 3, 4, 5]) == {
        1: "module", 2: "string", 3: "module", 4: "code", 5: "string"}
    assert literal_at(lang, data, 1, 22) is None  # a module path is no literal to step over


def test_places_in_a_file_that_is_not_utf8() -> None:
    # (the review: each invalid byte decoded as U+FFFD, three bytes, moved later offsets)
    lang = _lang(".py")
    data = b's = "\xe9\xe9\xe9\xe9"  # foo\nx = "\xe9\xe9"; foo(bar)\n'
    assert word_places(lang, data, "foo", [1, 2]) == {1: "comment", 2: "code"}
    assert names_on_line(lang, data, 2) == [(1, "x"), (11, "foo"), (15, "bar")]
