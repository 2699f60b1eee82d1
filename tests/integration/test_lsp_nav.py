"""The nav tools against real language servers: basedpyright and jedi-language-server on the
shop fixture, typescript-language-server on the web fixture (installed by scripts/test.sh
with `codenav servers install typescript`); and the faults a server can have: killed,
stopped, missing, and codenav itself killed while its servers run."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest

from codenav.index.pipeline import index_tree
from codenav.lsp.servers import families, find_command
from codenav.store import db
from codenav.tools.dispatch import call_tool
from codenav.tools.rows import parse_node_row, parse_related_row, whole_call_rows
from codenav.workspace import Workspace
from tests.conftest import FIXTURES, write_tree
from tests.unit.lsp.test_client import alive

pytestmark = pytest.mark.slow


def call(ws: Workspace, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    envelope: dict[str, Any] = anyio.run(call_tool, ws, tool, args)
    return envelope


def repo(name: str, tmp_path: Path, config: str | None = None) -> Path:
    root = tmp_path / name
    shutil.copytree(FIXTURES / "repos" / name, root)
    if config is not None:
        (root / ".codenav").mkdir(exist_ok=True)
        (root / ".codenav" / "config.toml").write_text(config)
    index_tree(root)
    return root


def require(family: str) -> None:
    if not any(find_command(s.command) for s in families()[family].servers):
        pytest.fail(f"no {family} language server installed: run scripts/test.sh "
                    f"(it installs them)")


def wait_state(ws: Workspace, code: str, states: set[str], timeout: float = 90.0) -> None:
    pool = ws.pool
    assert pool is not None
    deadline = time.monotonic() + timeout
    while pool.state(code) not in states:
        if time.monotonic() > deadline:
            pytest.fail(f"server for {code} is {pool.state(code)}, not one of {states}")
        time.sleep(0.1)


@pytest.fixture
def shop(tmp_path: Path) -> Iterator[Workspace]:
    require("python")
    ws = Workspace(repo("shop", tmp_path), lsp="auto")
    yield ws
    ws.close()


def refs_of(envelope: dict[str, Any]) -> set[tuple[str, int, int]]:
    """(file, line, col) of each reference of a ``detail: "full"`` answer."""
    return {(path, ref["line"], ref["col"])
            for path, refs in envelope["data"]["references"].items() for ref in refs}


def test_basedpyright_answers_every_nav_tool(shop: Workspace) -> None:
    found = call(shop, "nav_definition", {"file": "src/shop/cli.py", "line": 9, "col": 24,
                                          "source": "lsp"})
    assert found["ok"] and found["data"]["source"] == "lsp"
    assert [parse_node_row(d).id for d in found["data"]["definitions"]] == [
        "py:src/shop/models.py#Order.total"]

    refs = call(shop, "nav_references", {"symbol": "Base.save", "source": "lsp",
                                         "detail": "full"})
    assert refs["data"]["source"] == "lsp"
    assert refs_of(refs) == {("src/shop/models.py", 36, 17), ("src/shop/models.py", 44, 24),
                             ("src/shop/cli.py", 11, 24)}
    # the map knows these uses too: their kinds and enclosing definitions come along
    kinds = {(path, r["line"], r["kind"], r.get("in"))
             for path, rows in refs["data"]["references"].items() for r in rows}
    assert ("src/shop/cli.py", 11, "call", "main") in kinds
    # ... and the map agrees with the server here
    static = call(shop, "nav_references", {"symbol": "Base.save", "source": "map",
                                           "detail": "full"})
    assert refs_of(static) == refs_of(refs)
    compact = call(shop, "nav_references", {"symbol": "Base.save", "source": "lsp"})
    assert compact["data"]["references"]["src/shop/cli.py"] == [
        "11 main | shop.models.Base().save()"]

    hover = call(shop, "nav_hover", {"symbol": "Order.add", "source": "lsp"})
    assert "def add" in hover["data"]["hover"] and "Product" in hover["data"]["hover"]

    calls = call(shop, "nav_call_hierarchy", {"symbol": "Base.validate", "source": "lsp",
                                              "direction": "incoming", "depth": 2})
    assert calls["data"]["source"] == "lsp"
    (save,) = calls["data"]["calls"]
    # related rows: no language and no kind where they are the symbol's (a method)
    assert save["call"].startswith("src/shop/models.py#Base.save 10 at:11")
    symbol = calls["data"]["symbol"]
    assert {parse_related_row(c, symbol).id for c in save["children"]} >= {
        "py:src/shop/cli.py#main"}

    rename = call(shop, "nav_rename_preview", {"symbol": "Base.save", "newName": "persist",
                                               "source": "lsp"})
    assert rename["data"]["total"] == 4 and rename["data"]["applied"] is False
    assert "def save" in (FIXTURES / "repos" / "shop" / "src/shop/models.py").read_text()

    diagnostics = call(shop, "nav_diagnostics", {"file": "scripts/legacy.py", "source": "lsp"})
    assert diagnostics["data"]["source"] == "lsp"
    assert diagnostics["data"]["counts"].get("error", 0) >= 1
    full = call(shop, "nav_diagnostics", {"file": "scripts/legacy.py", "source": "lsp",
                                          "detail": "full"})
    assert all(d["source"] == "basedpyright" for d in full["data"]["diagnostics"])
    assert len(full["data"]["diagnostics"]) == len(diagnostics["data"]["diagnostics"])

    # basedpyright has no type hierarchy: 'lsp' says so, 'auto' answers from the map
    types = call(shop, "nav_type_hierarchy", {"symbol": "Base", "direction": "subtypes",
                                              "source": "lsp"})
    assert types["error"]["code"] == "LSP_UNAVAILABLE"
    types = call(shop, "nav_type_hierarchy", {"symbol": "Base", "direction": "subtypes"})
    assert types["data"]["source"] == "map"
    assert types.get("warnings", []) == [
        "source:'map' for type hierarchy because basedpyright does not provide type hierarchy"]
    again = call(shop, "nav_type_hierarchy", {"symbol": "Base", "direction": "subtypes"})
    assert again["data"]["source"] == "map" and again.get("warnings", []) == []  # said once

    status = call(shop, "map_status", {})
    (server,) = status["data"]["lsp"]["servers"]
    assert server["server"] == "basedpyright" and server["state"] == "ready"


def test_files_the_servers_project_leaves_out_come_from_the_map(tmp_path: Path) -> None:
    # requests' pyright config includes only src/requests: basedpyright found 0 references
    # of Session.get where the map has 37. Here the project is models.py alone.
    require("python")
    root = repo("shop", tmp_path)
    (root / "pyrightconfig.json").write_text('{"include": ["src/shop/models.py"]}')
    ws = Workspace(root, lsp="auto")
    try:
        insisted = call(ws, "nav_references", {"symbol": "Base.save", "source": "lsp",
                                               "detail": "full"})
        assert insisted["data"]["source"] == "lsp"
        assert "src/shop/cli.py" not in insisted["data"]["references"]
        assert any("did not search" in w for w in insisted.get("warnings", []))
        wait_state(ws, "py", {"ready"})
        merged = call(ws, "nav_references", {"symbol": "Base.save", "detail": "full"})
        assert merged["data"]["source"] == "lsp+map", merged
        assert refs_of(merged) == {("src/shop/models.py", 36, 17),
                                   ("src/shop/models.py", 44, 24), ("src/shop/cli.py", 11, 24)}
        # the server's project leaves cli.py out: its use is the map's alone, and marked so
        marks = {(path, ref["line"]): ref.get("mark")
                 for path, refs in merged["data"]["references"].items() for ref in refs}
        assert marks == {("src/shop/models.py", 36): None, ("src/shop/models.py", 44): None,
                         ("src/shop/cli.py", 11): "map"}, marks
        assert any("1 row(s) [map]: the map's alone" in w for w in merged.get("warnings", []))
        # its callers likewise: the server's, and cli.py's main from the map, marked so
        callers = call(ws, "nav_call_hierarchy", {"symbol": "Base.save",
                                                  "direction": "incoming"})
        assert callers["data"]["source"] == "lsp+map", callers
        rows = whole_call_rows(callers["data"]["calls"])
        assert [row for row in rows if row.endswith("[map]")] == [
            "src/shop/cli.py#main function 6 at:11 [map]"], rows
        assert any("call(s) [map]: the map's alone" in w for w in callers.get("warnings", []))
        assert all("src/shop/models.py" in row for row in rows if "[map]" not in row)
        # a symbol used only outside the server's project: the map's answer
        alone = call(ws, "nav_references", {"symbol": "make_customer", "detail": "full"})
        assert alone["data"]["source"] == "map" and refs_of(alone), alone
        assert any("found no references" in w for w in alone.get("warnings", []))
    finally:
        ws.close()


def test_callees_the_server_cannot_type_come_from_the_map_marked(shop: Workspace) -> None:
    # helper(someone): `someone.greet()` has no type the server knows; the map matches the
    # one greet by its name, and says so on the row
    call(shop, "nav_call_hierarchy", {"symbol": "helper", "direction": "outgoing"})  # starts it
    wait_state(shop, "py", {"ready"})
    callees = call(shop, "nav_call_hierarchy", {"symbol": "helper", "direction": "outgoing"})
    assert callees["data"]["source"] == "lsp+map", callees
    (row,) = callees["data"]["calls"]
    assert row.startswith("src/shop/customers.py#Customer.greet") and \
        row.endswith("at:16 [name]"), row
    assert any("call(s) [name]: matched by name only" in w
               for w in callees.get("warnings", [])), callees
    # what the server alone says of main: no row of what is outside the root but the last
    insisted = call(shop, "nav_call_hierarchy", {"symbol": "main", "direction": "outgoing",
                                                 "source": "lsp"})
    rows = whole_call_rows(insisted["data"]["calls"])
    assert not any("site-packages" in row or ".pyi" in row for row in rows), rows


def test_auto_never_waits_for_a_cold_server(shop: Workspace) -> None:
    started = time.monotonic()
    first = call(shop, "nav_references", {"symbol": "Base.save"})
    assert time.monotonic() - started < 2.0
    assert first["data"]["source"] == "map"
    assert any("starting" in w for w in first.get("warnings", []))
    wait_state(shop, "py", {"ready"})
    later = call(shop, "nav_references", {"symbol": "Base.save"})
    assert later["data"]["source"] == "lsp" and not later.get("warnings", [])


def test_jedi_language_server_by_configuration(tmp_path: Path) -> None:
    root = repo("shop", tmp_path, '[lsp.python]\ncommand = ["jedi-language-server"]\n')
    ws = Workspace(root, lsp="auto", trust_project=True)  # the repo's command: opted in
    try:
        found = call(ws, "nav_definition", {"file": "src/shop/cli.py", "line": 9, "col": 24,
                                            "source": "lsp"})
        assert found.get("data", {}).get("source") == "lsp", found
        assert parse_node_row(found["data"]["definitions"][0]).id == \
            "py:src/shop/models.py#Order.total"
        status = call(ws, "map_status", {})
        assert status["data"]["lsp"]["servers"][0]["server"] == "jedi-language-server"
    finally:
        ws.close()


def test_typescript_language_server(tmp_path: Path) -> None:
    require("typescript")
    ws = Workspace(repo("web", tmp_path), lsp="auto")
    try:
        # `u` is an untyped callback parameter: only the server's inference knows it
        found = call(ws, "nav_definition", {"file": "src/main.ts", "line": 18, "col": 29,
                                            "source": "lsp"})
        assert found["data"]["source"] == "lsp"
        assert parse_node_row(found["data"]["definitions"][0]).id == \
            "ts:src/app/models.ts#User.greet"
        refs = call(ws, "nav_references", {"symbol": "User.label", "source": "lsp",
                                           "detail": "full"})
        assert ("src/app/avatar.tsx", 4, 25) in refs_of(refs)  # in a .tsx file
        hover = call(ws, "nav_hover", {"symbol": "Registry.find", "source": "lsp"})
        assert "find(id: number): User" in hover["data"]["hover"]
    finally:
        ws.close()


def test_every_typescript_project_is_loaded_so_references_span_them(tmp_path: Path) -> None:
    # ts-mockito (run 14): src/tsconfig.json beside the root's; tsserver loaded src/'s project
    # only (the central file's), and every answer left the tests' uses out
    require("typescript")
    root = write_tree(tmp_path / "repo", {
        "tsconfig.json": '{"compilerOptions": {"strict": true}}',
        "src/tsconfig.json": '{"compilerOptions": {"strict": true}, "include": ["./"]}',
        "src/mock.ts": "export function spy<T>(x: T): T {\n  return x;\n}\n",
        "src/index.ts": 'import { spy } from "./mock";\nexport const a = spy(1);\n',
        "test/spy.spec.ts": 'import { spy } from "../src/mock";\n\nspy(2);\nspy(3);\n',
    })
    index_tree(root)
    ws = Workspace(root, lsp="auto")
    try:
        ws.start_servers()
        wait_state(ws, "ts", {"ready"}, timeout=60.0)
        refs = call(ws, "nav_references", {"symbol": "spy", "source": "lsp"})
        assert sorted(refs["data"]["references"]) == [
            "src/index.ts", "test/spy.spec.ts"], refs
        assert refs["data"]["total"] == 5, refs
    finally:
        ws.close()


def test_a_lazily_loading_server_loads_without_being_asked(tmp_path: Path) -> None:
    # tsserver loads its project only once a file is open: started in the background, it
    # gets the map's most central file at once, so it is ready before the first question
    # (it used to stay "warming" until WARM_LIMIT, 120 s, and `auto` answered from the map).
    require("typescript")
    ws = Workspace(repo("web", tmp_path), lsp="auto")
    try:
        ws.start_servers()
        wait_state(ws, "ts", {"ready"}, timeout=60.0)
        refs = call(ws, "nav_references", {"symbol": "User.label"})
        assert refs["data"]["source"] == "lsp", refs
    finally:
        ws.close()


def test_a_caller_is_the_innermost_function_even_where_the_server_names_an_outer_one(
        tmp_path: Path) -> None:
    # got's create.ts: tsserver names `create` the caller of calls made in
    # `const paginateEach = (async function* () {…}) as T` nested in it; the map names
    # paginateEach, and the merged answer keeps the server's confirmation with the map's name
    require("typescript")
    root = tmp_path / "got"
    (root / "src").mkdir(parents=True)
    (root / "tsconfig.json").write_text('{"compilerOptions": {"strict": true}}')
    (root / "src" / "create.ts").write_text(
        "export function same(a: string, b: string): boolean {\n"
        "\treturn a === b;\n"
        "}\n"
        "\n"
        "type Each = (url: string) => AsyncIterableIterator<string>;\n"
        "\n"
        "export const create = (base: string) => {\n"
        "\tconst each = (async function * (url: string) {\n"
        "\t\tif (same(base, url)) {\n"
        "\t\t\tyield url;\n"
        "\t\t}\n"
        "\t}) as Each;\n"
        "\tsame(base, base);\n"
        "\treturn each;\n"
        "};\n")
    index_tree(root)
    ws = Workspace(root, lsp="auto")
    try:
        ws.start_servers()
        wait_state(ws, "ts", {"ready"}, timeout=60.0)
        insisted = call(ws, "nav_call_hierarchy", {"symbol": "same", "direction": "incoming",
                                                   "source": "lsp"})
        rows = whole_call_rows(insisted["data"]["calls"])
        merged = call(ws, "nav_call_hierarchy", {"symbol": "same", "direction": "incoming"})
        assert merged["data"]["source"] in ("lsp", "lsp+map"), merged
        assert sorted(whole_call_rows(merged["data"]["calls"])) == [
            "src/create.ts#create 7 at:13", "src/create.ts#create.each 8 at:9"], (rows, merged)
    finally:
        ws.close()


def test_documentation_links_are_no_uses_even_as_the_server_says(tmp_path: Path) -> None:
    # tstl (run 63): tsserver's references of `SharedTimedMutex.lock` held ~40 `{@link}`
    # comment lines; the merged answer dropped them, `source: "lsp"` listed them as uses
    require("typescript")
    root = tmp_path / "tstl"
    (root / "src").mkdir(parents=True)
    (root / "tsconfig.json").write_text('{"compilerOptions": {"strict": true}}')
    (root / "src" / "mutex.ts").write_text(
        "export class Mutex {\n"
        "\t/** Lock it; see {@link Mutex.lock} and {@link Mutex.unlock}. */\n"
        "\tpublic lock(): void {}\n"
        "\tpublic unlock(): void {}\n"
        "}\n"
        "/**\n * Calls {@link Mutex.lock} first.\n */\n"
        "export function run(m: Mutex): void {\n\tm.lock();\n}\n")
    index_tree(root)
    ws = Workspace(root, lsp="auto")
    try:
        ws.start_servers()
        wait_state(ws, "ts", {"ready"}, timeout=60.0)
        for source in ("lsp", "auto"):
            found = call(ws, "nav_references", {"symbol": "Mutex.lock", "source": source,
                                                "show": "lines"})
            assert found["data"]["references"] == {"src/mutex.ts": [10]}, (source, found)
        said = " ".join(found.get("warnings", []) + call(ws, "nav_references", {
            "symbol": "Mutex.lock", "source": "lsp"}).get("warnings", []))
        assert "documentation links" in said, said
    finally:
        ws.close()


def test_a_call_in_a_lambda_is_the_named_functions_around_it(tmp_path: Path) -> None:
    # sqlparse (run 14): basedpyright names `lambda` the caller of `imt(…)` in
    # `token_next_by`'s `funcs = lambda tk: imt(tk, i, m, t)`; the caller is the method
    root = write_tree(tmp_path / "repo", {
        "pkg/__init__.py": "",
        "pkg/util.py": "def imt(token, m=None):\n    return token == m\n",
        "pkg/sql.py": ("from pkg.util import imt\n\n\nclass TokenList:\n"
                       "    def token_next_by(self, m=None):\n"
                       "        funcs = lambda tk: imt(tk, m)\n"
                       "        return [t for t in [1, 2] if funcs(t)]\n\n"
                       "    def direct(self):\n        return imt(3)\n"),
    })
    index_tree(root)
    ws = Workspace(root, lsp="auto")
    try:
        ws.start_servers()
        wait_state(ws, "py", {"ready"})
        merged = call(ws, "nav_call_hierarchy", {"symbol": "imt", "direction": "incoming"})
        assert merged["data"]["source"] in ("lsp", "lsp+map"), merged
        assert sorted(whole_call_rows(merged["data"]["calls"])) == [
            "pkg/sql.py#TokenList.direct method 9 at:10",
            "pkg/sql.py#TokenList.token_next_by method 5 at:6"], merged
    finally:
        ws.close()


def test_missing_server_is_unavailable_and_the_map_still_answers(tmp_path: Path) -> None:
    root = repo("shop", tmp_path, '[lsp.python]\ncommand = ["codenav-no-such-server"]\n')
    ws = Workspace(root, lsp="auto", trust_project=True)
    try:
        insisted = call(ws, "nav_definition", {"symbol": "Order.add", "source": "lsp"})
        assert insisted["error"]["code"] == "LSP_UNAVAILABLE"
        assert "pip install basedpyright" in insisted["error"]["hint"]
        fallback = call(ws, "nav_definition", {"symbol": "Order.add"})
        assert fallback["ok"] and fallback["data"]["source"] == "map"
        assert any("not installed" in w for w in fallback.get("warnings", []))
    finally:
        ws.close()


def server_pid(ws: Workspace) -> int:
    pool = ws.pool
    assert pool is not None
    (slot,) = [s for s in pool.status() if s.family == "python"]
    assert slot.pid is not None
    return slot.pid


def test_a_stopped_server_times_out_and_a_killed_one_restarts(tmp_path: Path) -> None:
    require("python")
    ws = Workspace(repo("shop", tmp_path), lsp="auto", lsp_deadlines=(2.0, 3.0))
    try:
        assert ws.pool is not None
        ws.pool.ensure("py", "src/shop/models.py")  # started and loaded outside the deadline
        wait_state(ws, "py", {"ready"})
        assert call(ws, "nav_hover", {"symbol": "Order.add", "source": "lsp"})["ok"]
        pid = server_pid(ws)
        os.killpg(pid, signal.SIGSTOP)
        try:
            started = time.monotonic()
            stalled = call(ws, "nav_references", {"symbol": "Order.add", "source": "lsp"})
            took = time.monotonic() - started
            assert stalled["error"]["code"] == "LSP_TIMEOUT"
            assert 2.5 < took < 6.0
            fallback = call(ws, "nav_references", {"symbol": "Order.add"})
            assert fallback["data"]["source"] == "map"
            assert any("did not answer" in w for w in fallback.get("warnings", []))
        finally:
            os.killpg(pid, signal.SIGCONT)
        os.killpg(pid, signal.SIGKILL)
        deadline = time.monotonic() + 30
        while server_pid_or_none(ws) in (None, pid):
            assert time.monotonic() < deadline, "the server was not restarted"
            time.sleep(0.1)
        assert not alive(pid)
        wait_state(ws, "py", {"ready"})  # the new server loads the workspace again
        again = call(ws, "nav_hover", {"symbol": "Order.add", "source": "lsp"})
        assert again["data"]["source"] == "lsp"
        assert call(ws, "map_status", {})["data"]["lsp"]["servers"][0]["restarts"] == 1
    finally:
        ws.close()


def server_pid_or_none(ws: Workspace) -> int | None:
    pool = ws.pool
    assert pool is not None
    return next((s.pid for s in pool.status() if s.family == "python"), None)


def descendants(pid: int) -> set[int]:
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except (FileNotFoundError, ProcessLookupError):
            continue
        if fields[0] != "Z":
            children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    out, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.add(child)
            todo.append(child)
    return out


def test_no_server_outlives_a_killed_codenav(tmp_path: Path) -> None:
    require("python")
    root = repo("shop", tmp_path)
    proc = subprocess.Popen([sys.executable, "-m", "codenav", "mcp", str(root)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while not any("pyright" in _cmdline(p) for p in descendants(proc.pid)):
            assert time.monotonic() < deadline, "codenav mcp started no language server"
            time.sleep(0.2)
        servers = descendants(proc.pid)
        proc.kill()
        proc.wait(timeout=10)
        deadline = time.monotonic() + 20
        while any(alive(p) for p in servers):
            assert time.monotonic() < deadline, \
                f"outlived codenav: {[(p, _cmdline(p)) for p in servers if alive(p)]}"
            time.sleep(0.2)
    finally:
        if proc.poll() is None:
            proc.kill()
        if proc.stdin is not None:
            proc.stdin.close()
        if proc.stdout is not None:
            proc.stdout.close()


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def test_codenav_servers_lists_and_reports(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, "-m", "codenav", "servers", "--json", "--root",
                          str(tmp_path)], capture_output=True, text=True, check=True)
    rows = {row["family"]: row for row in json.loads(out.stdout)}
    assert rows["python"]["server"] in ("basedpyright", "pyright", "jedi-language-server")
    assert rows["go"]["install"] is None or "gopls" in rows["go"]["install"]


# ------------------------------------------------- stale is stale on every path (issue 23)

def test_a_server_is_never_asked_at_a_place_the_map_has_out_of_date(shop: Workspace) -> None:
    """The map places Price at line 6 of pricing.py; the file changed and cannot be read
    again now (another writer holds the map): at line 6 is now `class Other`. A server asked
    there would answer Other, with no mark."""
    shop.start_servers()
    wait_state(shop, "py", {"ready"})
    pricing = shop.root / "src" / "shop" / "pricing.py"
    pricing.write_text("class Other:\n    pass\n\n\n" + pricing.read_text())
    blocker = db.connect_writer(shop.db_path)
    blocker.execute("BEGIN IMMEDIATE")  # a writer that does not let go: no quick refresh
    try:
        auto = call(shop, "nav_definition", {"symbol": "Price", "detail": "full"})
        assert auto["ok"] and auto["data"]["source"] == "map", auto
        (definition,) = auto["data"]["definitions"]
        assert definition["id"] == "py:src/shop/pricing.py#Price" and definition["stale"]
        assert any("changed since it was indexed" in w for w in auto["warnings"])
        insisted = call(shop, "nav_hover", {"symbol": "Price", "source": "lsp"})
        assert insisted["ok"] and insisted["data"]["source"] == "lsp"
        assert insisted["data"]["stale"] is True  # asked where the map said: marked so
        assert any("changed since the last index" in w for w in insisted["warnings"])
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    fresh = call(shop, "nav_definition", {"symbol": "Price", "source": "lsp"})
    assert fresh["data"]["source"] == "lsp" and "stale" not in json.dumps(fresh["data"])
    (row,) = fresh["data"]["definitions"]
    assert parse_node_row(row).id == "py:src/shop/pricing.py#Price"
    assert parse_node_row(row).line == 10  # read again: four lines further down


def test_a_byte_order_mark_does_not_shift_the_servers_first_line(shop: Workspace) -> None:
    first = shop.root / "src" / "shop" / "bom.py"
    first.write_bytes(b"\xef\xbb\xbfdef marked(x):\n    return x\n")
    (shop.root / "src" / "shop" / "uses_bom.py").write_text(
        "from .bom import marked\n\n\ndef twice(y):\n    return marked(marked(y))\n")
    shop.rebuild()
    shop.start_servers()
    wait_state(shop, "py", {"ready"})
    hover = call(shop, "nav_hover", {"symbol": "marked", "source": "lsp"})
    assert hover["ok"] and "marked" in hover["data"]["hover"], hover
    refs = call(shop, "nav_references", {"symbol": "marked", "source": "lsp",
                                         "detail": "full"})
    # (one row a line: `marked(marked(y))` is one, at its first use)
    assert refs["data"]["source"] == "lsp" and refs["data"]["total"] >= 2, refs
    rows = refs["data"]["references"]["src/shop/uses_bom.py"]
    assert [(row["line"], row["col"]) for row in rows] == [(1, 18), (5, 12)], refs


def test_a_merged_answer_counts_what_it_lists(shop: Workspace) -> None:
    # aiosmtplib (run 13): basedpyright's `__all__` strings, left out of the rows, were still
    # counted as listed by the text check ("total: 8" beside "9 listed")
    shop.start_servers()
    wait_state(shop, "py", {"ready"})
    refs = call(shop, "nav_references", {"symbol": "Order"})
    data = refs["data"]
    assert data["source"].startswith("lsp"), refs
    rows = sum(len(found) for found in data["references"].values())
    assert data["total"] == rows
    assert f"hold the word (imported under no other name) besides its definition: {rows} " \
        "listed;" in data["text"], refs
    # an `__all__` line: no use (placed in the text, or shown with its code under textLines)
    assert "src/shop/__init__.py:6" in data["text"] or any(
        row.startswith("6 ") for row in data.get("textLines", {}).get("src/shop/__init__.py", [])
    ), refs


def test_a_hover_keeps_the_parameters_as_written(tmp_path: Path) -> None:
    # sqlparse (run 14): basedpyright's hover of `_group(tlist, cls, match, …)` shows
    # `tlist: Unknown`, its defaults reformatted; a parameters question needs them as written
    root = write_tree(tmp_path / "repo", {
        "pkg/__init__.py": "",
        "pkg/group.py": ("def _group(tlist, cls, valid_prev=lambda t: True, recurse=True):\n"
                         "    return tlist\n\n\n"
                         "def scaled(x, by=1e3, mask=0x1F):\n    return x\n\n\n"
                         "def typed(x: int, y: str = 'a') -> int:\n    return x\n\n\n"
                         "class Session:\n    def request(self, method: str, url: str) -> str:\n"
                         "        return url\n\n"
                         "    def send(self, request, stream=None, timeout=3):\n"
                         "        return request\n"),
    })
    index_tree(root)
    ws = Workspace(root, lsp="auto")
    try:
        ws.start_servers()
        wait_state(ws, "py", {"ready"})
        hover = call(ws, "nav_hover", {"symbol": "_group"})
        assert hover["data"]["source"] == "lsp", hover
        # (its `tlist: Unknown` said nothing and is gone: the rest is as written)
        assert "tlist," in hover["data"]["hover"] and "declared" not in hover["data"], hover
        scaled = call(ws, "nav_hover", {"symbol": "scaled"})["data"]  # `by: float = 1000`
        assert scaled["declared"] == "def scaled(x, by=1e3, mask=0x1F)", scaled
        # a type the server infers for a parameter written without one is not shown as if
        # written (gunicorn's `default: str = "…"`, run 43: two calls to tell)
        assert ": float" not in scaled["hover"] and ": int" not in scaled["hover"], scaled
        plain = call(ws, "nav_hover", {"symbol": "typed"})
        assert plain["data"]["source"] == "lsp" and "declared" not in plain["data"], plain
        # (a method's `self: Self@Session` is no parameter written otherwise)
        method = call(ws, "nav_hover", {"symbol": "Session.request"})
        assert method["data"]["source"] == "lsp" and "declared" not in method["data"], method
        assert "Self@" not in method["data"]["hover"], method
        # mako (run 19): `Unknown | None` on each of Template.__init__'s 27 parameters, and
        # the parameters again as written: a type the server infers from a default (`int`)
        # is left out of the hover, which then reads as written — spaced as written too
        # (runs 54-55: `hostname = 'localhost'` for `hostname='localhost'` sent agents to the
        # source for the defaults)
        send = call(ws, "nav_hover", {"symbol": "Session.send"})["data"]
        assert ": Unknown" not in send["hover"] and "stream=None" in send["hover"], send
        assert "timeout=3" in send["hover"] and ": int" not in send["hover"], send
        assert "declared" not in send, send
    finally:
        ws.close()


def test_a_propertys_readers_stay_its_callers(tmp_path: Path) -> None:
    # (the review of the change: the map reads `b.size` as a use, no call, and the filter of
    # a server's callers dropped every reader of a property — each one runs its getter)
    root = write_tree(tmp_path / "repo", {
        "pkg/__init__.py": "",
        "pkg/box.py": ("class Box:\n    @property\n    def size(self) -> int:\n"
                       "        return 1\n\n\ndef report(b: Box) -> int:\n    return b.size\n"),
    })
    index_tree(root)
    ws = Workspace(root, lsp="auto")
    try:
        ws.start_servers()
        wait_state(ws, "py", {"ready"})
        calls = call(ws, "nav_call_hierarchy", {"symbol": "Box.size", "direction": "incoming"})
        assert calls["data"]["source"].startswith("lsp"), calls
        assert any("report" in row for row in whole_call_rows(calls["data"]["calls"])), calls
    finally:
        ws.close()
