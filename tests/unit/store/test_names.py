"""NameScan, search's in-memory substring and subsequence tier, against a plain scan."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from codenav.store.names import NameScan


def _naive(names: list[str], parts: list[str]) -> list[int]:
    found = []
    for ident, name in enumerate(names):
        position, lowered = 0, name.lower()
        for part in parts:
            position = lowered.find(part, position)
            if position < 0:
                break
            position += len(part)
        else:
            found.append(ident)
    return found


def test_substring_and_subsequence_in_id_order() -> None:
    names = ["parse_args", "Parser", "HTTPResponse", "sparse", "prs"]
    scan = NameScan(range(10, 15), names)
    assert scan.matching(["pars"]) == [10, 11, 13]
    assert scan.matching(list("prs")) == [10, 11, 12, 13, 14]  # p…r…s, any gaps (httPResponSe)
    assert scan.matching(["response"]) == [12]  # names are matched case-insensitively
    assert scan.matching(list("rp")) == [12]  # in order: only `ResPonse` has an r before a p
    assert scan.matching(["zzz"]) == [] and scan.matching([]) == []


def test_a_name_matches_once_and_the_limit_holds() -> None:
    scan = NameScan(range(5), ["aaaa"] * 5)
    assert scan.matching(["a"]) == [0, 1, 2, 3, 4]
    assert scan.matching(["a"], limit=2) == [0, 1]


def test_a_part_never_spans_two_names() -> None:
    scan = NameScan([1, 2], ["ab", "cd"])
    assert scan.matching(["b\nc"]) == [] and scan.matching(list("bc")) == []


@given(st.lists(st.text(alphabet="abcAB_\n", max_size=8), max_size=12),
       st.lists(st.text(alphabet="abc_", min_size=1, max_size=3), min_size=1, max_size=3))
def test_agrees_with_a_plain_scan(names: list[str], parts: list[str]) -> None:
    cleaned = [name.replace("\n", " ") for name in names]
    assert NameScan(range(len(names)), names).matching(parts) == _naive(cleaned, parts)
