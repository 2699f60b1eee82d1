"""The nav tools through the pool against Debian's clangd (C, the cfamily fixture with its
compile_flags.txt) and gopls (the Go module of the gorust fixture), which scripts/test.sh
installs: definitions and references with source:'lsp', a stopped server's LSP_TIMEOUT,
gopls's readiness signal and its safety environment, and what a repository's compile
configuration cannot make clangd do."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest

from codenav.index.pipeline import index_tree
from codenav.tools.dispatch import call_tool
from codenav.tools.rows import parse_node_row
from codenav.workspace import Workspace
from tests.conftest import FIXTURES
from tests.integration.test_lsp_nav import call, refs_of, wait_state

pytestmark = pytest.mark.slow


def installed(*programs: str) -> pytest.MarkDecorator:
    missing = [p for p in programs if shutil.which(p) is None]
    packages = {"go": "golang-go"}
    return pytest.mark.skipif(
        bool(missing), reason=f"{' and '.join(missing)} not installed: apt-get install "
                              f"{' '.join(packages.get(p, p) for p in missing)}")


def copy(fixture: str, tmp_path: Path) -> Path:
    root = tmp_path / Path(fixture).name
    shutil.copytree(FIXTURES / "repos" / fixture, root)
    index_tree(root)
    return root


def server_pid(ws: Workspace, family: str) -> int:
    assert ws.pool is not None
    (slot,) = [s for s in ws.pool.status() if s.family == family]
    assert slot.pid is not None, slot
    return slot.pid


def assert_stopped_server_times_out(ws: Workspace, family: str, code: str,
                                    ask: dict[str, Any]) -> None:
    """SIGSTOP the server's process group: a question with source:'lsp' is LSP_TIMEOUT
    after the (long, 3 s) deadline (`auto` then answering from the map is
    test_lsp_nav's); once it runs again it answers again."""
    pid = server_pid(ws, family)
    os.killpg(pid, signal.SIGSTOP)
    try:
        started = time.monotonic()
        stalled = call(ws, "nav_references", {**ask, "source": "lsp"})
        took = time.monotonic() - started
        assert stalled["error"]["code"] == "LSP_TIMEOUT", stalled
        assert 2.5 < took < 6.0, took
    finally:
        os.killpg(pid, signal.SIGCONT)
    again = call(ws, "nav_references", {**ask, "source": "lsp"})
    assert again["data"]["source"] == "lsp" and server_pid(ws, family) == pid
    assert ws.pool is not None and ws.pool.state(code) == "ready"


# ---------------------------------------------------------------------------------- clangd

@pytest.fixture
def cfamily(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Workspace]:
    # codenav's cache (where clangd's compile database and index go) in the test's folder
    monkeypatch.setenv("CODENAV_CACHE", str(tmp_path / "cache"))
    ws = Workspace(copy("cfamily", tmp_path), lsp="auto", lsp_deadlines=(2.0, 3.0))
    yield ws
    ws.close()


@installed("clangd")
def test_clangd_definitions_references_and_a_stopped_server(cfamily: Workspace) -> None:
    ws = cfamily
    assert ws.pool is not None
    ws.pool.ensure("c", "c/src/vec.c")
    # ready once its background index of the project is built ("indexing" ended)
    wait_state(ws, "c", {"ready"}, timeout=60.0)
    # vec_add, defined in vec.c and called in main.c, which no one opened: the background
    # index knows it. (clangd 14 may answer for a header included by an open file from
    # that file's parse, which holds no references: vec.h's prototype is not asked for.)
    # The index may take more than one round: asked again until complete, within a deadline
    deadline = time.monotonic() + 30.0
    while True:
        refs = call(ws, "nav_references", {"symbol": "vec_add", "source": "lsp",
                                           "detail": "full"})
        if refs_of(refs) >= {("c/src/main.c", 10, 15)} or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert refs["data"]["source"] == "lsp", refs
    assert refs["data"]["symbol"]["id"] == "c:c/src/vec.c#vec_add"
    assert refs_of(refs) == {("c/src/main.c", 10, 15)}
    assert "warnings" not in refs, refs
    # main.c line 21 `return s.to->x > s.from.y;`: `x` through the pointer `to` of a
    # struct segment, a field of struct vec in c/include/geo/vec.h (found through the
    # compile_flags.txt's -Ic/include)
    found = call(ws, "nav_definition", {"file": "c/src/main.c", "line": 21, "col": 18,
                                        "source": "lsp", "detail": "full"})
    assert found["data"]["source"] == "lsp", found
    assert [(d["file"], d["line"], d["col"], d.get("id"))
            for d in found["data"]["definitions"]] == [
        ("c/include/geo/vec.h", 10, 12, "c:c/include/geo/vec.h#vec.x")]
    # line 15 `print_segment(&s);`: declared in util.h, which main.c includes, and defined in
    # util.c, which the background index knows without its being open
    found = call(ws, "nav_definition", {"file": "c/src/main.c", "line": 15, "col": 5,
                                        "source": "lsp"})
    assert found["data"] == {"symbol": "print_segment", "source": "lsp", "definitions": [
        "c:c/src/util.c#print_segment function 9-14 | void (const struct segment *s)"]}
    uses = call(ws, "nav_references", {"symbol": "vec_created", "source": "lsp",
                                       "detail": "full"})
    assert refs_of(uses) == {("c/src/vec.c", 26, 5), ("c/src/main.c", 19, 38)}
    # nothing written into the repository: the index is beside the compile database
    # codenav staged in its cache
    assert not (ws.root / ".cache").exists()
    staged = list((ws.root.parent / "cache" / "compile-db").glob("*/compile_commands.json"))
    assert len(staged) == 1 and list(staged[0].parent.glob(".cache/clangd/index/*.idx"))

    assert_stopped_server_times_out(ws, "c", "c", {"symbol": "vec_add", "detail": "full"})
    (status,) = [s for s in call(ws, "map_status", {})["data"]["lsp"]["servers"]
                 if s["server"] == "clangd"]
    assert status["state"] == "ready" and status["restarts"] == 0


@installed("clangd")
def test_a_repository_cannot_make_clangd_run_a_program(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    # compile_commands.json names a "compiler", .clangd another, compile flags load a
    # plugin, .clangd asks for a remote index (at a port listening here): clangd parses
    # main.c, and runs none of them nor connects
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    listener.setblocking(False)
    root = tmp_path / "repo"
    root.mkdir()
    marks = tmp_path / "marks"
    marks.mkdir()
    compiler = tmp_path / "compiler.sh"
    compiler.write_text(f"#!/bin/sh\ntouch {marks}/compiler-ran\n")
    compiler.chmod(0o755)
    plugin = tmp_path / "plugin.so"
    cc = shutil.which("cc")
    if cc is not None:  # a library whose constructor leaves a mark when it is loaded
        source = tmp_path / "plugin.c"
        source.write_text("#include <stdio.h>\n__attribute__((constructor)) static void mark"
                          f"(void) {{ fclose(fopen(\"{marks}/plugin-loaded\", \"w\")); }}\n")
        subprocess.run([cc, "-shared", "-fPIC", "-o", str(plugin), str(source)], check=True)
    (root / "main.c").write_text("int twice(int n) { return 2 * n; }\n"
                                 "int main(void) { return twice(1); }\n")
    flags = [f"-fplugin={plugin}", "-Xclang", "-load", "-Xclang", str(plugin)]
    (root / "compile_commands.json").write_text(json.dumps([{
        "directory": str(root), "file": str(root / "main.c"),
        "arguments": [str(compiler), *flags, "-c", "main.c"]}]))
    (root / ".clangd").write_text(
        f"CompileFlags:\n  Compiler: {compiler}\n  Add: [{', '.join(flags)}]\n"
        "Index:\n  External:\n    Server: 127.0.0.1:%d\n    MountPoint: .\n"
        % listener.getsockname()[1])
    index_tree(root)
    monkeypatch.setenv("CODENAV_CACHE", str(tmp_path / "cache"))
    ws = Workspace(root, lsp="auto")
    try:
        found = call(ws, "nav_definition", {"file": "main.c", "line": 2, "col": 25,
                                            "source": "lsp"})
        assert found["data"]["source"] == "lsp", found
        assert parse_node_row(found["data"]["definitions"][0]).id == "c:main.c#twice"
        hover = call(ws, "nav_hover", {"symbol": "twice", "source": "lsp"})
        assert "int twice(int n)" in hover["data"]["hover"]
    finally:
        ws.close()
    assert sorted(p.name for p in marks.iterdir()) == []
    with pytest.raises(BlockingIOError):  # no connection is waiting
        listener.accept()
    listener.close()


# ----------------------------------------------------------------------------------- gopls

@pytest.fixture
def gomodule(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Workspace]:
    # go's build cache and module path in the test's own folder, not the user's
    monkeypatch.setenv("GOCACHE", str(tmp_path / "gocache"))
    monkeypatch.setenv("GOPATH", str(tmp_path / "gopath"))
    monkeypatch.delenv("GOMODCACHE", raising=False)
    ws = Workspace(copy("gorust/go", tmp_path), lsp="auto", lsp_deadlines=(2.0, 3.0))
    yield ws
    ws.close()


@installed("gopls", "go")
def test_gopls_definitions_references_and_a_stopped_server(gomodule: Workspace) -> None:
    ws = gomodule
    assert ws.pool is not None
    ws.pool.ensure("go", "models/item.go")
    # ready by gopls's own word ("Setting up workspace" ended), before any question: no
    # first answer, no 120 s WARM_LIMIT
    wait_state(ws, "go", {"ready"}, timeout=30.0)
    environ = Path(f"/proc/{server_pid(ws, 'go')}/environ").read_bytes().split(b"\0")
    assert {b"GOPROXY=off", b"GOTOOLCHAIN=local", b"GOFLAGS="} <= set(environ)

    # cmd/shop/main.go line 23 `c.Total()`: c is a store.Catalog, whose Total comes from
    # the models.Priced interface it embeds
    found = call(ws, "nav_definition", {"file": "cmd/shop/main.go", "line": 23, "col": 4,
                                        "source": "lsp"})
    assert found["data"]["source"] == "lsp", found
    assert [parse_node_row(d).id for d in found["data"]["definitions"]] == [
        "go:models/item.go#Priced.Total"]
    # store/methods.go line 11 `s.log.Write(it.Name)`: a field's method in another file
    found = call(ws, "nav_definition", {"file": "store/methods.go", "line": 11, "col": 8,
                                        "source": "lsp", "detail": "full"})
    assert [(d["file"], d["line"], d["col"], d["id"]) for d in found["data"]["definitions"]] \
        == [("store/logger.go", 15, 18, "go:store/logger.go#Logger.Write")]

    # Item.Total across packages: gopls also counts the calls through the interfaces Item
    # satisfies (p models.Priced, c store.Catalog), which the map cannot tell
    refs = call(ws, "nav_references", {"symbol": "Item.Total", "source": "lsp",
                                       "detail": "full"})
    assert refs["data"]["source"] == "lsp" and not refs.get("warnings", []), refs
    assert refs_of(refs) == {("cmd/shop/main.go", 17, 36), ("cmd/shop/main.go", 21, 4),
                             ("cmd/shop/main.go", 23, 4), ("store/store.go", 27, 15)}
    static = call(ws, "nav_references", {"symbol": "Item.Total", "source": "map",
                                         "detail": "full"})
    assert refs_of(static) == {("cmd/shop/main.go", 17, 36), ("store/store.go", 27, 15)}
    # a package-private function: its one caller, in the same package
    touch = call(ws, "nav_references", {"symbol": "touch", "source": "lsp", "detail": "full"})
    assert refs_of(touch) == {("store/methods.go", 14, 2)}

    assert_stopped_server_times_out(ws, "go", "go", {"symbol": "Item.Total", "detail": "full"})
    (status,) = [s for s in call(ws, "map_status", {})["data"]["lsp"]["servers"]
                 if s["server"] == "gopls"]
    assert status["state"] == "ready" and status["restarts"] == 0
    # no module was fetched, nor go.mod / go.sum written
    assert not (ws.root / "go.sum").exists()
    assert (ws.root / "go.mod").read_text() == \
        (FIXTURES / "repos" / "gorust" / "go" / "go.mod").read_text()


def _go_module(root: Path, vendored: bool) -> Path:
    """A module requiring example.com/dep v1.0.0, which no proxy serves offline: laid out
    under vendor/ (with vendor/modules.txt) when ``vendored``, else nowhere."""
    write = {
        "go.mod": "module example.com/app\n\ngo 1.19\n\nrequire example.com/dep v1.0.0\n",
        "app/app.go": 'package app\n\nimport "example.com/dep"\n\n'
                      "func Run() int { return dep.Value() + helper() }\n\n"
                      "func helper() int { return 1 }\n",
        "main.go": 'package main\n\nimport "example.com/app/app"\n\n'
                   "func main() { _ = app.Run() }\n",
    }
    if vendored:
        write["vendor/modules.txt"] = ("# example.com/dep v1.0.0\n## explicit\nexample.com/dep\n")
        write["vendor/example.com/dep/dep.go"] = "package dep\n\nfunc Value() int { return 2 }\n"
    for rel, text in write.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    index_tree(root)
    return root


@installed("gopls", "go")
@pytest.mark.parametrize("vendored", [False, True], ids=["missing", "vendored"])
def test_gopls_without_its_modules_says_so_and_with_them_vendored_answers(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, vendored: bool) -> None:
    """Offline (GOPROXY=off), a dependency neither in the module cache nor vendored leaves
    gopls no package: LSP_UNAVAILABLE saying why and what to run, and `auto` answers from
    the map with that reason; vendored, gopls answers (go reads vendor/ by itself)."""
    monkeypatch.setenv("GOCACHE", str(tmp_path / "gocache"))
    monkeypatch.setenv("GOPATH", str(tmp_path / "gopath"))
    monkeypatch.delenv("GOMODCACHE", raising=False)
    (tmp_path / "repo").mkdir()
    ws = Workspace(_go_module(tmp_path / "repo", vendored), lsp="auto",
                   lsp_deadlines=(15.0, 30.0))
    try:
        assert ws.pool is not None
        ws.pool.ensure("go", "app/app.go")
        wait_state(ws, "go", {"ready"}, timeout=60.0)
        ask = {"symbol": "helper", "detail": "full"}
        answer = anyio.run(call_tool, ws, "nav_references", {**ask, "source": "lsp"})
        if vendored:
            assert answer["ok"] and answer["data"]["source"] == "lsp", answer
            assert refs_of(answer) == {("app/app.go", 5, 39)}
            return
        assert answer["error"]["code"] == "LSP_UNAVAILABLE", answer
        assert "go mod download" in answer["error"]["hint"], answer
        fallback = call(ws, "nav_references", ask)
        assert fallback["data"]["source"] == "map", fallback
        assert refs_of(fallback) == {("app/app.go", 5, 39)}
        assert any("go mod download" in w for w in fallback["warnings"]), fallback
    finally:
        ws.close()
