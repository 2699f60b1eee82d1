"""A server's calls completed by the map's (``merged_calls``): plain data in, plain data out."""

from __future__ import annotations

from pathlib import Path

from codenav.index.pipeline import index_tree
from codenav.query.hierarchy import Call, Related, Site, calls_only, merged_calls
from codenav.workspace import Workspace
from tests.conftest import write_tree


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


def test_a_server_caller_whose_site_hands_the_method_out_is_no_caller(tmp_path: Path) -> None:
    # cannon-es (run 19): tsserver's incoming calls of Narrowphase.convexConvex named three
    # getters `get [T.convexConvex]() { return this.convexConvex }` (the method as a value);
    # the agent spent 5 calls to see they call nothing
    root = tmp_path / "repo"
    write_tree(root, {"src/n.ts": "export class N {\n"
                                  "  get pair() {\n    return this.convexConvex\n  }\n"
                                  "  boxBox() {\n    this.convexConvex(1)\n  }\n"
                                  "  convexConvex(n: number) {}\n}\n"})
    index_tree(root)
    ws = Workspace(root)

    def caller(name: str, line: int) -> Call:
        return Call(Related(None, name, "method", "src/n.ts", line - 1, 3, server=True),
                    (Site("src/n.ts", line, 10),))
    try:
        reader = ws.reader()
        node = reader.node("ts:src/n.ts#N.convexConvex")
        assert node is not None
        # (line 9 holds no use of the name the map reads: the server's word stands)
        server = [caller("pair", 3), caller("boxBox", 6), caller("elsewhere", 9)]
        assert [c.other.name for c in calls_only(reader, node, server)] == \
            ["boxBox", "elsewhere"]
    finally:
        ws.close()
