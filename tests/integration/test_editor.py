"""`codenav lsp` driven by pygls' own client over stdio: definition, references, document and
workspace symbols, hover, call hierarchy — and an edit on disk followed by its watcher."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from lsprotocol import types as T
from pygls.lsp.client import LanguageClient

from codenav.index.pipeline import index_tree
from tests.conftest import FIXTURES

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
