"""A server's calls completed by the map's (``merged_calls``): plain data in, plain data out."""

from __future__ import annotations

from pathlib import Path

from codenav.index.pipeline import index_tree
from codenav.query.fresh import Freshness
from codenav.query.hierarchy import Call, Related, Site, calls_only, merged_calls
from codenav.query.live import ServerPlace
from codenav.query.locate import GUESSED, MAP_ONLY, FileFilter
from codenav.query.references import merged_references, own_places
from codenav.query.source import Lines
from codenav.workspace import Workspace
from tests.conftest import mapped, write_tree


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


def test_a_server_caller_the_map_links_to_another_member_is_no_caller(tmp_path: Path) -> None:
    # bolt-js (run 69): tsserver's incoming calls of HTTPResponseAck.bind named
    # `ack.bind()` on a `new SocketModeResponseAck(…)` (the interface's family), confirmed
    root = tmp_path / "repo"
    write_tree(root, {"src/a.ts": "export interface Ack {\n  bind(): void\n}\n"
                                  "export class HttpAck implements Ack {\n  bind(): void {}\n}\n"
                                  "export class SocketAck implements Ack {\n  bind(): void {}\n}\n"
                                  "export function one() {\n  const ack = new SocketAck()\n"
                                  "  ack.bind()\n}\n"
                                  "export function two() {\n  const ack = new HttpAck()\n"
                                  "  ack.bind()\n}\n"
                                  "export function three(ack: any) {\n  ack.bind()\n}\n"})
    index_tree(root)
    ws = Workspace(root)

    def caller(name: str, line: int) -> Call:
        return Call(Related(None, name, "function", "src/a.ts", line - 2, 17, server=True),
                    (Site("src/a.ts", line, 7),))
    try:
        reader = ws.reader()
        node = reader.node("ts:src/a.ts#HttpAck.bind")
        assert node is not None
        # (line 19: a receiver the map cannot type, the server's word stands)
        server = [caller("one", 12), caller("two", 16), caller("three", 19)]
        assert [c.other.name for c in calls_only(reader, node, server)] == ["two", "three"]
    finally:
        ws.close()


def test_a_server_caller_of_an_overload_the_map_gave_a_sibling_stays(tmp_path: Path) -> None:
    # review: Java's `log(Object)` and `log(String)`: the map links `log("lit")` to the
    # first that fits; the server knows which one a call reaches — its caller stays
    root = tmp_path / "repo"
    write_tree(root, {"src/Log.java": "class Log {\n  String name() { return \"n\"; }\n"
                                      "  void log(Object o) {}\n  void log(String s) {}\n"
                                      "  void run() {\n    log(name());\n    log(\"lit\");\n"
                                      "  }\n}\n"})
    index_tree(root)
    ws = Workspace(root)
    try:
        reader = ws.reader()
        node = reader.node("java:src/Log.java#Log.log~2")
        assert node is not None
        server = [Call(Related(None, "run", "method", "src/Log.java", 5, 8, server=True),
                       (Site("src/Log.java", 6, 5), Site("src/Log.java", 7, 5)))]
        assert [c.other.name for c in calls_only(reader, node, server)] == ["run"]
    finally:
        ws.close()


def test_a_line_with_a_confirmed_call_is_not_marked_a_guess() -> None:
    # review: `at:` keeps a line once; a guessed call beside a confirmed one on it is no
    # reason to mark the line
    from codenav.tools.render import calls_rendered
    call = Call(Related(None, "main", "function", "src/x.py", 10, 5, server=True),
                (Site("src/x.py", 13, 5, True), Site("src/x.py", 13, 20, False),
                 Site("src/x.py", 15, 5, True)))
    rows = calls_rendered([call], "compact", None)
    assert any(str(row).endswith("at:13,15[name]") for row in rows), rows


def _merged_rows(ws: Workspace, nid: str, told: list[ServerPlace], own: bool = False
                 ) -> tuple[dict[str, list[tuple[int, str | None]]], dict[str, int]]:
    """The merged answer of a server's places and the map's for ``nid``, as (line, mark) by
    file, and its marks; ``own``: the server's places narrowed as nav_references narrows
    them first."""
    reader = ws.reader()
    node = reader.node(nid)
    assert node is not None
    places = own_places(reader, node, told) if own else told
    page = merged_references(reader, Lines(ws.root), Freshness(ws), node, places,
                             files=FileFilter(None), declaration=False, offset=0, room=100)
    return ({refs.path: [(ref.line, ref.mark) for ref in refs.refs] for refs in page.shown},
            page.marks)


def test_uses_through_a_name_the_import_gives_are_confirmed_by_the_servers_import(
        tmp_path: Path) -> None:
    # mistune (run 25): basedpyright reported `from .util import escape as escape_text` and
    # none of escape_text's 12 calls; the merged answer marked them [map] and the agent
    # checked each with text searches
    with mapped(tmp_path, {
            "pkg/__init__.py": "", "pkg/util.py": "def escape(s):\n    return s\n",
            "pkg/html.py": "from pkg.util import escape as escape_text\n\n"
                           "escape_text(1)\nescape_text(2)\n",
            "pkg/other.py": "from pkg.util import escape as esc\n\nesc(3)\n"}) as ws:
        # the server: html.py's import alone; nothing of other.py
        rows, _ = _merged_rows(ws, "py:pkg/util.py#escape",
                               [ServerPlace("pkg/html.py", 1, 22, 1, 28)])
        assert rows["pkg/html.py"] == [(1, None), (3, None), (4, None)], rows
        # a file the server said nothing of stays the map's alone, its import included
        assert rows["pkg/other.py"] == [(1, MAP_ONLY), (3, MAP_ONLY)], rows


def test_a_whole_family_answer_at_a_receiver_the_map_cannot_type_is_a_guess(
        tmp_path: Path) -> None:
    # cockatiel (run 28): tsserver's references of BulkheadPolicy.execute were every IPolicy
    # member's calls; 16 on other policies' values the map could not type stood confirmed
    # and the agent spent 11 calls sorting them out
    with mapped(tmp_path, {
        "src/p.ts": "export interface IPolicy {\n  execute(): number;\n}\n"
                    "export class A implements IPolicy {\n  execute(): number { return 1; }\n}\n"
                    "export class B implements IPolicy {\n  execute(): number { return 2; }\n}\n"
                    "export class C {\n  execute(): number { return 3; }\n}\n",
        "src/use.ts": "import { A, B } from './p';\n"
                      "export function run(p) {\n"
                      "  const a = new A();\n  const b = new B();\n"
                      "  a.execute();\n  b.execute();\n  p.execute();\n}\n"}) as ws:
        told = [ServerPlace("src/use.ts", line, 5, line, 12) for line in (5, 6, 7)]
        rows, marks = _merged_rows(ws, "ts:src/p.ts#A.execute", told, own=True)  # (b's: B's)
        assert rows["src/use.ts"] == [(5, None), (7, GUESSED)], rows
        assert marks == {GUESSED: 1}, marks


def test_a_servers_place_at_another_declaration_is_no_use(tmp_path: Path) -> None:
    # qrcode (run 59): basedpyright reports make_image's `@overload def` lines among its
    # references; they were listed as "(reference)" rows and both agents read the lines
    with mapped(tmp_path, {
            "pkg/__init__.py": "",
            "pkg/main.py": "from typing import overload\n\n\nclass QR:\n    @overload\n"
                           "    def make(self, x: int) -> int: ...\n    @overload\n"
                           "    def make(self, x: str) -> str: ...\n"
                           "    def make(self, x):\n        return x\n\n\nQR().make(1)\n"}) as ws:
        told = [ServerPlace("pkg/main.py", 6, 9, 6, 13), ServerPlace("pkg/main.py", 8, 9, 8, 13),
                ServerPlace("pkg/main.py", 13, 6, 13, 10)]
        rows, marks = _merged_rows(ws, "py:pkg/main.py#QR.make~3", told)
        assert rows == {"pkg/main.py": [(13, None)]}, (rows, marks)
