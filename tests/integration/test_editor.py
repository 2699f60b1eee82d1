"""`codenav lsp` driven by pygls' own client over stdio: definition, references, document and
workspace symbols, hover, call hierarchy — and an edit on disk followed by its watcher."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types as T
from pygls.lsp.client import LanguageClient

from codenav.index.pipeline import index_tree
from tests.conftest import FIXTURES, write_tree

pytestmark = [pytest.mark.anyio, pytest.mark.slow]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def editor(tmp_path: Path) -> AsyncIterator[tuple[LanguageClient, Path]]:
    root = tmp_path / "shop"
    shutil.copytree(FIXTURES / "repos" / "shop", root)
    index_tree(root)
    client = LanguageClient("test-editor", "1")
    await client.start_io(sys.executable, "-m", "codenav", "lsp", str(root))
    await asyncio.wait_for(client.initialize_async(T.InitializeParams(
        process_id=os.getpid(), root_uri=root.as_uri(),
        capabilities=T.ClientCapabilities())), 30)
    client.initialized(T.InitializedParams())
    yield client, root
    await asyncio.wait_for(client.shutdown_async(None), 10)
    client.exit(None)
    await asyncio.wait_for(client.stop(), 10)


def doc(root: Path, rel: str) -> T.TextDocumentIdentifier:
    return T.TextDocumentIdentifier(uri=(root / rel).as_uri())


def where(root: Path, location: T.Location) -> tuple[str, int, int]:
    path = Path(location.uri.removeprefix("file://")).relative_to(root).as_posix()
    return path, location.range.start.line, location.range.start.character


async def test_navigation_from_the_map(editor: tuple[LanguageClient, Path]) -> None:
    client, root = editor
    cli = doc(root, "src/shop/cli.py")
    # cli.py line 9 (0-based 8), `order.total()` at character 23
    found = await client.text_document_definition_async(
        T.DefinitionParams(text_document=cli, position=T.Position(line=8, character=23)))
    assert isinstance(found, list) and [where(root, loc) for loc in found] == [
        ("src/shop/models.py", 38, 8)]

    models = doc(root, "src/shop/models.py")
    refs = await client.text_document_references_async(T.ReferenceParams(
        text_document=models, position=T.Position(line=9, character=8),
        context=T.ReferenceContext(include_declaration=False)))
    assert refs is not None
    assert {where(root, loc) for loc in refs} == {
        ("src/shop/models.py", 35, 16), ("src/shop/models.py", 43, 23),
        ("src/shop/cli.py", 10, 23)}

    symbols = await client.text_document_document_symbol_async(
        T.DocumentSymbolParams(text_document=models))
    assert symbols is not None
    tops = {s.name: s for s in symbols if isinstance(s, T.DocumentSymbol)}
    assert {"Base", "Product", "Order"} <= set(tops)
    assert {c.name for c in tops["Order"].children or []} >= {"add", "total", "save"}
    assert tops["Order"].kind == T.SymbolKind.Class

    hover = await client.text_document_hover_async(
        T.HoverParams(text_document=models, position=T.Position(line=33, character=9)))
    assert hover is not None and isinstance(hover.contents, T.MarkupContent)
    assert "def add" in hover.contents.value and "Order.add" in hover.contents.value

    found_symbols = await client.workspace_symbol_async(T.WorkspaceSymbolParams(query="Order"))
    assert found_symbols and found_symbols[0].name == "Order"

    items = await client.text_document_prepare_call_hierarchy_async(
        T.CallHierarchyPrepareParams(text_document=models,
                                     position=T.Position(line=13, character=9)))
    assert items and items[0].name == "validate"
    incoming = await client.call_hierarchy_incoming_calls_async(
        T.CallHierarchyIncomingCallsParams(item=items[0]))
    assert incoming is not None and [c.from_.name for c in incoming] == ["save"]
    outgoing = await client.call_hierarchy_outgoing_calls_async(
        T.CallHierarchyOutgoingCallsParams(item=incoming[0].from_))
    assert outgoing is not None and "validate" in {c.to.name for c in outgoing}

    # outside the root, or no symbol there: nothing, not an error
    nothing = await client.text_document_definition_async(T.DefinitionParams(
        text_document=T.TextDocumentIdentifier(uri="file:///etc/passwd"),
        position=T.Position(line=0, character=0)))
    assert not nothing


async def test_an_edit_on_disk_is_followed(editor: tuple[LanguageClient, Path]) -> None:
    client, root = editor
    pricing = root / "src" / "shop" / "pricing.py"
    pricing.write_text(pricing.read_text() + "\n\ndef from_the_editor():\n    return 1\n")
    deadline = time.monotonic() + 10
    while True:
        found = await client.workspace_symbol_async(
            T.WorkspaceSymbolParams(query="from_the_editor"))
        if found:
            break
        assert time.monotonic() < deadline, "the edit never reached the map"
        await asyncio.sleep(0.05)
    assert found[0].location.uri.endswith("src/shop/pricing.py")


def _framed(*messages: dict[str, object]) -> bytes:
    out = b""
    for message in messages:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        out += b"Content-Length: %d\r\n\r\n" % len(body) + body
    return out


@pytest.mark.parametrize(("shutdown", "status"), [(True, 0), (False, 1)])
def test_exit_status_is_lsps(tmp_path: Path, shutdown: bool, status: int) -> None:
    # LSP: exit after shutdown is status 0, exit without it 1 (pygls closes stdout on exit;
    # codenav's flush of it afterwards used to fail, and every exit was 1 with a traceback)
    root = tmp_path / "shop"
    shutil.copytree(FIXTURES / "repos" / "shop", root)
    index_tree(root)
    messages: list[dict[str, object]] = [
        {"id": 1, "method": "initialize", "params": {"processId": None,
                                                     "rootUri": root.as_uri(),
                                                     "capabilities": {}}},
        {"method": "initialized", "params": {}}]
    if shutdown:
        messages.append({"id": 2, "method": "shutdown"})
    messages.append({"method": "exit"})
    done = subprocess.run([sys.executable, "-m", "codenav", "lsp", "--no-watch", str(root)],
                          input=_framed(*messages), capture_output=True, timeout=60, check=False)
    assert done.returncode == status, done.stderr.decode()
    assert b"Traceback" not in done.stderr


def _responses(stdout: bytes) -> list[dict[str, Any]]:
    """The JSON-RPC messages of an LSP stream (Content-Length framed)."""
    out = []
    while stdout:
        head, _, rest = stdout.partition(b"\r\n\r\n")
        length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n")
                      if line.lower().startswith(b"content-length:"))
        out.append(json.loads(rest[:length]))
        stdout = rest[length:]
    return out


def test_a_request_before_initialize_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "shop"
    shutil.copytree(FIXTURES / "repos" / "shop", root)
    index_tree(root)
    where = {"textDocument": {"uri": (root / "src/shop/cli.py").as_uri()},
             "position": {"line": 8, "character": 23}}
    messages: list[dict[str, object]] = [
        {"id": 1, "method": "textDocument/definition", "params": where},
        {"method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": (root / "src/shop/cli.py").as_uri(), "languageId": "python", "version": 1,
            "text": "x"}}},  # a notification before initialize: dropped, not applied
        {"id": 2, "method": "initialize", "params": {"processId": None, "capabilities": {}}},
        {"method": "initialized", "params": {}},
        {"id": 3, "method": "textDocument/definition", "params": where},
        {"id": 4, "method": "shutdown"}, {"method": "exit"}]
    done = subprocess.run([sys.executable, "-m", "codenav", "lsp", "--no-watch", str(root)],
                          input=_framed(*messages), capture_output=True, timeout=60, check=False)
    answers = {m["id"]: m for m in _responses(done.stdout) if "id" in m}
    assert answers[1]["error"]["code"] == -32002  # ServerNotInitialized
    assert "result" in answers[2]
    assert answers[3]["result"][0]["uri"].endswith("src/shop/models.py")
    assert done.returncode == 0, done.stderr.decode()


async def test_unsaved_edits_are_what_it_answers_about(
        editor: tuple[LanguageClient, Path]) -> None:
    client, root = editor
    cli = root / "src" / "shop" / "cli.py"
    uri = cli.as_uri()
    client.text_document_did_open(T.DidOpenTextDocumentParams(text_document=T.TextDocumentItem(
        uri=uri, language_id="python", version=1, text=cli.read_text())))
    # five lines typed at the top, not saved: `order.add(product).total()` is now line 14
    client.text_document_did_change(T.DidChangeTextDocumentParams(
        text_document=T.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[T.TextDocumentContentChangePartial(
            range=T.Range(start=T.Position(line=0, character=0),
                          end=T.Position(line=0, character=0)),
            text="# one\n# two\n# three\n# four\n# five\n")]))
    at = T.Position(line=13, character=23)
    found = await client.text_document_definition_async(
        T.DefinitionParams(text_document=T.TextDocumentIdentifier(uri=uri), position=at))
    assert isinstance(found, list) and [where(root, loc) for loc in found] == [
        ("src/shop/models.py", 38, 8)]
    hover = await client.text_document_hover_async(
        T.HoverParams(text_document=T.TextDocumentIdentifier(uri=uri), position=at))
    assert hover is not None and isinstance(hover.contents, T.MarkupContent)
    assert "Order.total" in hover.contents.value
    # Base.save's uses: cli.py's is where the buffer has it (line 16, 0-based 15)
    refs = await client.text_document_references_async(T.ReferenceParams(
        text_document=doc(root, "src/shop/models.py"), position=T.Position(line=9, character=8),
        context=T.ReferenceContext(include_declaration=False)))
    assert refs is not None and {where(root, loc) for loc in refs} == {
        ("src/shop/models.py", 35, 16), ("src/shop/models.py", 43, 23),
        ("src/shop/cli.py", 15, 23)}
    # a function defined only in the buffer: found, and its outline is the buffer's
    client.text_document_did_change(T.DidChangeTextDocumentParams(
        text_document=T.VersionedTextDocumentIdentifier(uri=uri, version=3),
        content_changes=[T.TextDocumentContentChangePartial(
            range=T.Range(start=T.Position(line=0, character=0),
                          end=T.Position(line=1, character=0)),
            text="def typed_now():\n    return main()\n")]))
    symbols = await client.text_document_document_symbol_async(
        T.DocumentSymbolParams(text_document=T.TextDocumentIdentifier(uri=uri)))
    assert symbols is not None
    assert [(s.name, s.range.start.line) for s in symbols if isinstance(s, T.DocumentSymbol)
            ] == [("typed_now", 0), ("main", 11), ("helper", 20)]
    back = await client.text_document_definition_async(T.DefinitionParams(
        text_document=T.TextDocumentIdentifier(uri=uri), position=T.Position(line=1,
                                                                             character=12)))
    assert back is not None and [where(root, loc) for loc in back] == [
        ("src/shop/cli.py", 11, 4)]  # main, where the buffer has it
    assert not cli.read_text().startswith("def typed_now")  # nothing was written


async def test_a_first_build_is_reported_and_answers_do_not_pretend(tmp_path: Path) -> None:
    """No map yet: `$/progress` from begin to end while it is built; and while a first build
    (here another process's, so that its moment is not a matter of timing) is not linked,
    references answer nothing and a message says why."""
    root = write_tree(tmp_path / "big", {f"pkg/m{i:04}.py": f"def f{i}(x):\n    return x\n"
                                         for i in range(1500)})
    (root / "pkg" / "use.py").write_text("from pkg.m0001 import f1\n\nf1(2)\n")
    client = LanguageClient("test-editor", "1")
    progress: list[str] = []
    shown: list[str] = []

    @client.feature(T.WINDOW_WORK_DONE_PROGRESS_CREATE)
    def create(_params: T.WorkDoneProgressCreateParams) -> None:
        progress.append("create")

    @client.feature(T.PROGRESS)
    def report(params: T.ProgressParams) -> None:
        progress.append(str(params.value.get("kind") if isinstance(params.value, dict)
                            else getattr(params.value, "kind", "?")))

    @client.feature(T.WINDOW_SHOW_MESSAGE)
    def show(params: T.ShowMessageParams) -> None:
        shown.append(params.message)

    await client.start_io(sys.executable, "-m", "codenav", "lsp", "--no-watch", str(root))
    await asyncio.wait_for(client.initialize_async(T.InitializeParams(
        process_id=os.getpid(), root_uri=root.as_uri(), capabilities=T.ClientCapabilities(
            window=T.WindowClientCapabilities(work_done_progress=True)))), 30)
    client.initialized(T.InitializedParams())
    deadline = time.monotonic() + 120
    while "end" not in progress:
        assert time.monotonic() < deadline, progress
        await asyncio.sleep(0.05)
    assert progress[0] == "create" and progress[1] == "begin" and progress[-1] == "end"
    use = doc(root, "pkg/use.py")
    at = T.Position(line=2, character=0)
    refs = await client.text_document_references_async(T.ReferenceParams(
        text_document=use, position=at, context=T.ReferenceContext(include_declaration=True)))
    assert refs and len(refs) == 3  # built and linked: the definition, the import, the call

    # the map as another live process's first build leaves it while it grows
    conn = sqlite3.connect(root / ".codenav" / "map.db")
    with conn:
        conn.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)",
                         [("building", "1"), ("building_pid", str(os.getpid())),
                          ("building_progress", "700/1501")])
    conn.close()
    refs = await client.text_document_references_async(T.ReferenceParams(
        text_document=use, position=at, context=T.ReferenceContext(include_declaration=True)))
    assert refs is not None and len(refs) == 0  # empty, not null: nothing yet, said why
    assert any("700 of 1,501 files mapped" in m and "references" in m for m in shown), shown
    await asyncio.wait_for(client.shutdown_async(None), 10)
    client.exit(None)
    await asyncio.wait_for(client.stop(), 10)


async def test_the_editors_workspace_folder_is_the_root(tmp_path: Path) -> None:
    root = tmp_path / "shop"
    shutil.copytree(FIXTURES / "repos" / "shop", root)
    index_tree(root)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    client = LanguageClient("test-editor", "1")
    await client.start_io(sys.executable, "-m", "codenav", "lsp", "--no-watch",
                          cwd=str(elsewhere))
    await asyncio.wait_for(client.initialize_async(T.InitializeParams(
        process_id=os.getpid(), capabilities=T.ClientCapabilities(),
        workspace_folders=[T.WorkspaceFolder(uri=root.as_uri(), name="shop")])), 30)
    client.initialized(T.InitializedParams())
    found = await client.text_document_definition_async(T.DefinitionParams(
        text_document=doc(root, "src/shop/cli.py"), position=T.Position(line=8, character=23)))
    assert isinstance(found, list) and [where(root, loc) for loc in found] == [
        ("src/shop/models.py", 38, 8)]
    await asyncio.wait_for(client.shutdown_async(None), 10)
    client.exit(None)
    await asyncio.wait_for(client.stop(), 10)
    assert not (elsewhere / ".codenav").exists()
