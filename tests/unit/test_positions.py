"""Units: tree-sitter's bytes against 1-based UTF-16 columns (docs/contract.md §2)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from codenav.positions import LineIndex, lone_cr_as_lf, utf16_len

TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n"),
               max_size=60)


def reference_col(line: str, char_index: int) -> int:
    return len(line[:char_index].encode("utf-16-le")) // 2 + 1


def test_ascii_columns_are_bytes_plus_one() -> None:
    index = LineIndex(b"def f(x):\n    return x\n")
    assert index.col(1, 11) == 12
    assert index.point(21) == (2, 12)
    assert index.line_count == 2


def test_astral_characters_count_twice() -> None:
    data = "a = '𝑥é'; b = 1\n".encode()
    index = LineIndex(data)
    b_byte = data.index(b"b =")
    assert index.point(b_byte) == (1, 1 + len("a = '𝑥é'; ") + 1)  # 𝑥 is two UTF-16 units
    assert utf16_len("𝑥é") == 3


def test_invalid_utf8_counts_one_unit_per_bad_byte_and_round_trips() -> None:
    data = b"x = '\xff\xfe'; y = 2\n"
    index = LineIndex(data)
    y = data.index(b"y")
    line, col = index.point(y)
    assert (line, col) == (1, y + 1)
    assert index.offset(line, col) == y


def test_offset_clamps_past_end_of_line() -> None:
    index = LineIndex(b"ab\ncd\n")
    assert index.offset(1, 99) == 2
    assert index.offset(2, 1) == 3
    assert index.offset(99, 1) == 6


def test_line_count_and_line_bytes() -> None:
    index = LineIndex(b"one\r\ntwo\nthree")
    assert index.line_count == 3
    assert index.line_bytes(0) == b"one"
    assert index.line_bytes(2) == b"three"
    assert index.line_bytes(7) == b""
    assert LineIndex(b"").line_count == 0


@given(st.lists(TEXT, min_size=1, max_size=5), st.data())
def test_col_and_offset_are_inverse(lines: list[str], data: st.DataObject) -> None:
    text = "\n".join(lines)
    raw = text.encode("utf-8")
    index = LineIndex(raw)
    row = data.draw(st.integers(0, len(lines) - 1))
    line = lines[row]
    char_index = data.draw(st.integers(0, len(line)))
    byte_col = len(line[:char_index].encode("utf-8"))
    col = index.col(row, byte_col)
    assert col == reference_col(line, char_index)
    assert index.offset(row + 1, col) == index.line_start(row) + byte_col


def test_a_byte_order_mark_is_not_a_column() -> None:
    data = "\ufeffdef first(): pass\nx = 1\n".encode()
    index = LineIndex(data)
    assert index.col(0, 3 + 4) == 5  # `first` starts at byte 7, after the mark: column 5
    assert index.offset(1, 5) == 7 and index.point(7) == (1, 5)
    assert index.col(1, 0) == 1 and index.offset(2, 1) == data.index(b"x")


def test_a_lone_carriage_return_ends_a_line_and_keeps_every_offset() -> None:
    data = b"def one():\r    return 1\r\rdef two():\r\n    return one()\r"
    assert len(lone_cr_as_lf(data)) == len(data)
    assert lone_cr_as_lf(data).count(b"\r\n") == 1  # a CRLF stays one line end
    index = LineIndex(data)
    assert index.line_count == 5
    assert index.point(data.index(b"two")) == (4, 5)
    assert index.offset(5, 12) == data.rindex(b"one()")
