"""A server's calls completed by the map's (``merged_calls``): plain data in, plain data out."""

from __future__ import annotations

from codenav.query.hierarchy import Call, Related, Site, merged_calls


def _call(name: str, line: int, col: int, server: bool, mark: str | None = None,
          guessed: bool = False) -> Call:
    other = Related(None, name, "function", "a.py" if server else "b.py", 1, 1, server=server)
    return Call(other, (Site("src/x.py", line, col, guessed),), mark=mark)


def test_two_callees_on_one_line_are_two_calls() -> None:
    # `return len(conn.send(x))`: the server reports len, the map conn.send by its name
    server = [_call("len", 10, 12, server=True)]
    mapped = [_call("send", 10, 21, server=False, mark="name", guessed=True)]
    merged = merged_calls(server, mapped, incoming=False)
    assert [(c.other.name, c.mark) for c in merged] == [("len", None), ("send", "name")]


def test_a_caller_the_server_reported_at_the_same_line_is_not_added_twice() -> None:
    server = [_call("main", 10, 5, server=True)]
    mapped = [_call("main", 10, 9, server=False)]
    assert [c.other.name for c in merged_calls(server, mapped, incoming=True)] == ["main"]
