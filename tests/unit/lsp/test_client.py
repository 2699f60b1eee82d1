"""LspClient against the scripted fake server (codenav.lsp.fake): handshake, requests,
deadlines, crashes, stderr, document sync and teardown. Waits are polls with a deadline."""

from __future__ import annotations

import asyncio
import json
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types as T

from codenav.lsp.client import (
    CONTENT_MODIFIED,
    MAX_MESSAGE_BYTES,
    STDERR_TAIL_BYTES,
    LspClient,
    LspRequestTimeout,
    LspResponseError,
    LspServerExited,
)

pytestmark = pytest.mark.anyio

FAKE = [sys.executable, "-m", "codenav.lsp.fake"]
LOCATION = {"uri": "file:///x/a.py",
            "range": {"start": {"line": 1, "character": 4}, "end": {"line": 1, "character": 9}}}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class Fake:
    """A script for the fake server and what it received."""

    def __init__(self, tmp_path: Path) -> None:
        self.root = tmp_path / "root"
        self.root.mkdir()
        self.record = tmp_path / "received.jsonl"
        self.script_path = tmp_path / "script.json"

    def cmd(self, **script: Any) -> list[str]:
        self.script_path.write_text(json.dumps({"record": str(self.record), **script}))
        return [*FAKE, str(self.script_path)]

    def received(self) -> list[dict[str, Any]]:
        if not self.record.exists():
            return []
        text = self.record.read_text()
        return [json.loads(line) for line in text.splitlines(keepends=True)
                if line.endswith("\n")]

    def methods(self) -> list[str]:
        return [m["method"] for m in self.received() if "method" in m]

    def request_id(self, method: str) -> Any:
        ids = [m["id"] for m in self.received() if m.get("method") == method and "id" in m]
        return ids[-1] if ids else None

    def spawned(self) -> list[int]:
        return [m["spawned"] for m in self.received() if "spawned" in m]


@pytest.fixture
def fake(tmp_path: Path) -> Fake:
    return Fake(tmp_path)


@pytest.fixture
async def client() -> AsyncIterator[LspClient]:
    c = LspClient()
    yield c
    await c.close(grace=1.0)
    if c.pid is not None:
        assert not alive(c.pid)


async def eventually(predicate: Callable[[], Any], timeout: float = 5.0, what: str = "") -> Any:
    """Poll ``predicate`` until it returns something truthy; fail after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout} s waiting for {what or predicate}")
        await asyncio.sleep(0.02)


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting for its reaper counts as dead)."""
    stat = Path(f"/proc/{pid}/stat")
    if Path("/proc/self/stat").exists():
        try:
            return stat.read_text().rpartition(")")[2].split()[0] != "Z"
        except (FileNotFoundError, ProcessLookupError):
            return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def group_members(pgid: int) -> set[int]:
    members = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except (FileNotFoundError, ProcessLookupError):
            continue
        if fields[0] != "Z" and int(fields[2]) == pgid:
            members.add(int(stat.parent.name))
    return members


def definition_params(uri: str = "file:///x/a.py") -> T.DefinitionParams:
    return T.DefinitionParams(text_document=T.TextDocumentIdentifier(uri=uri),
                              position=T.Position(line=0, character=0))


def hover_params() -> T.HoverParams:
    return T.HoverParams(text_document=T.TextDocumentIdentifier(uri="file:///x/a.py"),
                         position=T.Position(line=0, character=0))


async def test_initialize_handshake(fake: Fake, client: LspClient) -> None:
    init = {"capabilities": {"definitionProvider": True, "positionEncoding": "utf-16"},
            "serverInfo": {"name": "fake", "version": "9"}}
    result = await client.start(fake.cmd(initialize=init), fake.root)

    assert client.running and client.pid is not None and client.exit_code is None
    assert result.server_info == client.server_info == T.ServerInfo(name="fake", version="9")
    assert client.capabilities is not None and client.capabilities.definition_provider is True
    assert client.position_encoding == "utf-16"
    await eventually(lambda: "initialized" in fake.methods(), what="initialized")
    first = fake.received()[0]
    assert fake.methods()[:2] == ["initialize", "initialized"]
    params = first["params"]
    root_uri = fake.root.resolve().as_uri()
    assert params["workspaceFolders"] == [{"uri": root_uri, "name": "root"}]
    assert params["rootUri"] == root_uri
    assert params["processId"] == os.getpid()
    assert params["capabilities"]["general"]["positionEncodings"] == ["utf-16"]
    assert isinstance(first["id"], str)  # never an int a server's own requests could reuse


async def test_position_encoding_defaults_to_utf16(fake: Fake, client: LspClient) -> None:
    await client.start(fake.cmd(), fake.root)
    assert client.position_encoding == "utf-16"
    assert client.server_info == T.ServerInfo(name="fake", version="0")


async def test_request_returns_typed_result(fake: Fake, client: LspClient) -> None:
    await client.start(fake.cmd(requests={"textDocument/definition": {"result": [LOCATION]}}),
                       fake.root)
    result = await client.request(T.TEXT_DOCUMENT_DEFINITION, definition_params(), 5)
    assert result == [T.Location(uri="file:///x/a.py", range=T.Range(
        start=T.Position(line=1, character=4), end=T.Position(line=1, character=9)))]


async def test_error_response_carries_its_code(fake: Fake, client: LspClient) -> None:
    error = {"code": CONTENT_MODIFIED, "message": "content modified"}
    await client.start(fake.cmd(requests={"textDocument/definition": {"error": error}}),
                       fake.root)
    with pytest.raises(LspResponseError) as info:
        await client.request(T.TEXT_DOCUMENT_DEFINITION, definition_params(), 5)
    assert info.value.code == CONTENT_MODIFIED
    assert info.value.method == T.TEXT_DOCUMENT_DEFINITION
    assert client.running


async def test_timeout_cancels_at_the_server(fake: Fake, client: LspClient) -> None:
    script = {"textDocument/hover": {"delay": 3.0, "result": None},
              "textDocument/definition": {"result": [LOCATION]}}
    await client.start(fake.cmd(requests=script), fake.root)

    started = time.monotonic()
    with pytest.raises(LspRequestTimeout) as info:
        await client.request(T.TEXT_DOCUMENT_HOVER, hover_params(), 0.3)
    assert isinstance(info.value, TimeoutError)
    assert info.value.method == T.TEXT_DOCUMENT_HOVER and info.value.timeout == 0.3
    assert 0.29 <= time.monotonic() - started < 1.5

    hover_id = fake.request_id(T.TEXT_DOCUMENT_HOVER)
    assert hover_id is not None
    await eventually(lambda: any(m.get("method") == "$/cancelRequest"
                                 and m["params"]["id"] == hover_id for m in fake.received()),
                     what="$/cancelRequest for the hover")
    # the server answers the cancelled request with -32800; the client ignores it and goes on
    assert await client.request(T.TEXT_DOCUMENT_DEFINITION, definition_params(), 5)
    assert client.running


async def test_abandoned_request_is_cancelled_at_the_server(fake: Fake,
                                                            client: LspClient) -> None:
    await client.start(fake.cmd(requests={"textDocument/hover": {"never": True}}), fake.root)
    task = asyncio.ensure_future(client.request(T.TEXT_DOCUMENT_HOVER, hover_params(), 30))
    hover_id = await eventually(lambda: fake.request_id(T.TEXT_DOCUMENT_HOVER), what="hover")
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await eventually(lambda: any(m.get("method") == "$/cancelRequest"
                                 and m["params"]["id"] == hover_id for m in fake.received()),
                     what="$/cancelRequest")


async def test_crash_mid_request_fails_promptly_with_stderr(fake: Fake,
                                                            client: LspClient) -> None:
    crash = {"stderr": "fatal: the index is corrupt\n", "delay": 0.2, "exit": 3}
    await client.start(fake.cmd(requests={"textDocument/definition": crash}), fake.root)

    started = time.monotonic()
    with pytest.raises(LspServerExited) as info:
        await client.request(T.TEXT_DOCUMENT_DEFINITION, definition_params(), 30)
    assert time.monotonic() - started < 2.0
    assert info.value.exit_code == 3
    assert "fatal: the index is corrupt" in info.value.stderr_tail
    assert not client.running and client.exit_code == 3
    assert "fatal: the index is corrupt" in client.stderr_tail
    with pytest.raises(LspServerExited):  # later calls fail at once
        await client.request(T.TEXT_DOCUMENT_DEFINITION, definition_params(), 30)
    with pytest.raises(LspServerExited):
        client.notify(T.WORKSPACE_DID_CHANGE_CONFIGURATION,
                      T.DidChangeConfigurationParams(settings=None))


async def test_kill_9_mid_request_fails_within_a_second(fake: Fake, client: LspClient) -> None:
    await client.start(fake.cmd(requests={"textDocument/hover": {"never": True}}), fake.root)
    task = asyncio.ensure_future(client.request(T.TEXT_DOCUMENT_HOVER, hover_params(), 30))
    await eventually(lambda: fake.request_id(T.TEXT_DOCUMENT_HOVER), what="hover")
    assert client.pid is not None
    os.kill(client.pid, signal.SIGKILL)
    killed = time.monotonic()
    with pytest.raises(LspServerExited) as info:
        await task
    assert time.monotonic() - killed < 1.0
    assert info.value.exit_code == -signal.SIGKILL


async def test_death_is_seen_while_a_grandchild_holds_the_pipes(fake: Fake,
                                                                client: LspClient) -> None:
    # asyncio's Process.wait() would hang here: the grandchild keeps stdout/stderr open
    cmd = fake.cmd(spawn_child=True, requests={"textDocument/hover": {"never": True}})
    await client.start(cmd, fake.root)
    (child,) = await eventually(fake.spawned, what="grandchild pid")
    task = asyncio.ensure_future(client.request(T.TEXT_DOCUMENT_HOVER, hover_params(), 30))
    await eventually(lambda: fake.request_id(T.TEXT_DOCUMENT_HOVER), what="hover")
    assert client.pid is not None
    os.kill(client.pid, signal.SIGKILL)
    killed = time.monotonic()
    with pytest.raises(LspServerExited):
        await task
    assert time.monotonic() - killed < 1.5
    await eventually(lambda: not alive(child), what="grandchild killed with its group")


async def test_stderr_floods_are_drained(fake: Fake, client: LspClient) -> None:
    flood = {"stderr_bytes": 4 << 20, "stderr_end": "END OF FLOOD\n", "result": []}
    cmd = fake.cmd(startup={"stderr_bytes": 1 << 20},
                   requests={"textDocument/definition": flood})
    await client.start(cmd, fake.root, init_timeout=10)  # blocks at startup without a drain
    assert await client.request(T.TEXT_DOCUMENT_DEFINITION, definition_params(), 10) == []
    await eventually(lambda: "END OF FLOOD" in client.stderr_tail, what="the last stderr line")
    assert len(client.stderr_tail.encode()) <= STDERR_TAIL_BYTES
    assert client.stderr_tail.endswith("END OF FLOOD\n")


async def test_clean_close(fake: Fake, client: LspClient) -> None:
    await client.start(fake.cmd(), fake.root)
    client.open_document("a.py", "x = 1\n", "python")
    pid = client.pid
    assert pid is not None

    await asyncio.gather(client.close(), client.close())
    assert not client.running and client.exit_code == 0
    assert not alive(pid)
    methods = fake.methods()
    assert methods[-3:] == ["textDocument/didClose", "shutdown", "exit"]
    await client.close()  # idempotent
    with pytest.raises(LspServerExited):
        await client.request(T.TEXT_DOCUMENT_HOVER, hover_params(), 1)


async def test_close_kills_a_server_that_ignores_everything(fake: Fake,
                                                            client: LspClient) -> None:
    cmd = fake.cmd(ignore_sigterm=True, ignore_exit=True, ignore_eof=True, spawn_child=True,
                   requests={"shutdown": {"never": True}})
    await client.start(cmd, fake.root)
    (child,) = await eventually(fake.spawned, what="grandchild pid")
    pid = client.pid
    assert pid is not None
    assert group_members(pid) >= {pid, child}

    started = time.monotonic()
    await client.close(grace=1.0)
    assert time.monotonic() - started < 1.5
    # Killed, not exited: -SIGKILL — or 255 when asyncio's child watcher finds the child
    # already reaped ("Unknown child process pid …", seen about once in three runs on a busy
    # machine; the reaper is not found yet, see the closing note). Death is checked below.
    assert client.exit_code in (-signal.SIGKILL, 255)
    assert not alive(pid) and not alive(child)
    assert group_members(pid) == set()
    assert "shutdown" in fake.methods() and "exit" in fake.methods()


async def test_document_sync(fake: Fake, client: LspClient) -> None:
    await client.start(fake.cmd(), fake.root)
    path = fake.root / "pkg" / "a.py"
    assert client.open_document(path, "a = 1\n", "python") == 1
    assert client.is_open(path) and client.is_open("pkg/a.py")
    assert client.change_document(path, "a = 1\n") == 1  # unchanged text: nothing sent
    assert client.change_document("pkg/a.py", "a = 2\n") == 2
    assert client.open_document(path, "a = 3\n", "python") == 3  # re-open means change
    assert client.document_version(path) == 3
    assert client.open_documents == {path.resolve().as_uri(): 3}
    client.close_document(path)
    client.close_document(path)  # not open: ignored
    assert not client.is_open(path) and client.document_version(path) is None
    with pytest.raises(ValueError, match="not open"):
        client.change_document(path, "b = 1\n")

    uri = path.resolve().as_uri()
    await eventually(lambda: "textDocument/didClose" in fake.methods(), what="didClose")
    sync = [m for m in fake.received() if m.get("method", "").startswith("textDocument/")]
    assert [m["method"] for m in sync] == ["textDocument/didOpen", "textDocument/didChange",
                                           "textDocument/didChange", "textDocument/didClose"]
    assert sync[0]["params"]["textDocument"] == {"uri": uri, "languageId": "python",
                                                 "version": 1, "text": "a = 1\n"}
    assert sync[1]["params"] == {"textDocument": {"uri": uri, "version": 2},
                                 "contentChanges": [{"text": "a = 2\n"}]}
    assert sync[2]["params"]["textDocument"]["version"] == 3
    assert sync[3]["params"] == {"textDocument": {"uri": uri}}
    assert client.relpath(uri) == "pkg/a.py"
    assert client.relpath("file:///elsewhere/b.py") is None


async def test_diagnostics_are_kept_per_uri(fake: Fake, client: LspClient) -> None:
    diagnostic = {"range": {"start": {"line": 0, "character": 0},
                            "end": {"line": 0, "character": 1}},
                  "message": "undefined name", "severity": 1}
    publish = {"method": "textDocument/publishDiagnostics",
               "params": {"uri": "$uri", "version": 1, "diagnostics": [diagnostic]}}
    cmd = fake.cmd(notifications={"textDocument/didOpen": {"notify": [publish]}})
    await client.start(cmd, fake.root)
    assert client.diagnostics("a.py") is None
    client.open_document("a.py", "x\n", "python")

    found = await client.wait_for_diagnostics("a.py", 5, min_version=1)
    assert [d.message for d in found] == ["undefined name"]
    assert found[0].severity == T.DiagnosticSeverity.Error
    assert client.diagnostics("a.py") == found
    assert client.diagnostics("b.py") is None
    assert list(client.all_diagnostics) == [client.uri_for("a.py")]
    with pytest.raises(LspRequestTimeout):
        await client.wait_for_diagnostics("a.py", 0.2, min_version=2)


@pytest.mark.parametrize(("settings", "expected"), [
    (None, [None, None, None]),
    ({"basedpyright": {"analysis": {"extraPaths": ["/x"]}}, "python": {"pythonPath": "py"}},
     [{"pythonPath": "py"}, {"extraPaths": ["/x"]}, None]),
])
async def test_server_requests_are_answered(fake: Fake, client: LspClient,
                                            settings: Any, expected: list[Any]) -> None:
    items = [{"section": "python"}, {"section": "basedpyright.analysis"},
             {"section": "no.such.section"}]
    asks = [{"method": "workspace/configuration", "params": {"items": items}},
            {"method": "window/workDoneProgress/create", "params": {"token": "t1"}},
            {"method": "workspace/applyEdit", "params": {"edit": {}}}]
    spec = {"server_request": asks, "delay": 0.1, "result": []}
    cmd = fake.cmd(requests={"textDocument/definition": spec})
    await client.start(cmd, fake.root, settings=settings)
    assert await client.request(T.TEXT_DOCUMENT_DEFINITION, definition_params(), 5) == []

    answers = await eventually(lambda: len(r := [m for m in fake.received()
                                                 if "method" not in m]) == 3 and r,
                               what="three answers")
    by_id = {m["id"]: m for m in answers}
    assert by_id[1]["result"] == expected
    assert by_id[2]["result"] is None and "error" not in by_id[2]
    assert by_id[3]["result"]["applied"] is False


async def test_notification_listeners(fake: Fake, client: LspClient) -> None:
    progress = [{"method": "$/progress", "params": {"token": "t", "value": {"kind": "end"}}},
                {"method": "pyright/endProgress"},
                {"method": "custom/thing", "params": {"n": 1}}]
    cmd = fake.cmd(requests={"textDocument/definition": {"notify": progress, "result": []}})
    await client.start(cmd, fake.root)
    seen: list[tuple[str, Any]] = []
    client.on_notification("$/progress", lambda m, p: seen.append((m, p)))
    remove = client.on_notification("pyright/endProgress", lambda m, p: seen.append((m, p)))
    client.on_notification("custom/thing", lambda m, p: seen.append((m, p.n)))
    await client.request(T.TEXT_DOCUMENT_DEFINITION, definition_params(), 5)
    await eventually(lambda: len(seen) == 3, what="three notifications")
    assert [m for m, _ in seen] == ["$/progress", "pyright/endProgress", "custom/thing"]
    assert isinstance(seen[0][1], T.ProgressParams) and seen[2][1] == 1

    remove()
    await client.request(T.TEXT_DOCUMENT_DEFINITION, definition_params(), 5)
    await eventually(lambda: len(seen) == 5, what="two more notifications")
    assert [m for m, _ in seen[3:]] == ["$/progress", "custom/thing"]


async def test_missing_binary(tmp_path: Path, client: LspClient) -> None:
    with pytest.raises(FileNotFoundError):
        await client.start([str(tmp_path / "no-such-server")], tmp_path)
    assert not client.running


async def test_initialize_timeout_leaves_no_process(fake: Fake, client: LspClient) -> None:
    cmd = fake.cmd(ignore_eof=True, requests={"initialize": {"never": True}})
    with pytest.raises(LspRequestTimeout):
        await client.start(cmd, fake.root, init_timeout=0.3)
    assert client.pid is not None and not alive(client.pid)
    with pytest.raises(RuntimeError, match="starts one server once"):
        await client.start(cmd, fake.root)


DRIVER = """
import asyncio, sys
from pathlib import Path
from codenav.lsp.client import LspClient

async def main():
    client = LspClient()
    await client.start(sys.argv[2:], Path(sys.argv[1]))
    print(client.pid, flush=True)
    await asyncio.sleep(600)

asyncio.run(main())
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux")
def test_server_dies_with_its_parent(fake: Fake) -> None:
    # ignore_eof: only PR_SET_PDEATHSIG can end the server once its parent is SIGKILLed
    cmd = fake.cmd(ignore_eof=True, ignore_sigterm=True)
    driver = subprocess.Popen([sys.executable, "-c", DRIVER, str(fake.root), *cmd],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert driver.stdout is not None
        ready, _, _ = select.select([driver.stdout], [], [], 20)
        assert ready, "the driver did not start its server"
        server = int(driver.stdout.readline())
        assert alive(server)
    finally:
        driver.kill()
        driver.wait()
        if driver.stdout is not None:
            driver.stdout.close()
    deadline = time.monotonic() + 5
    while alive(server) and time.monotonic() < deadline:
        time.sleep(0.02)
    if alive(server):
        os.killpg(server, signal.SIGKILL)  # leave no orphan behind a failing test
        pytest.fail("the language server outlived its parent")


_HOLDER = """\
import asyncio, json, sys
from pathlib import Path
from codenav.lsp.client import LspClient

async def main():
    client = LspClient()
    await client.start(json.loads(sys.argv[1]), Path(sys.argv[2]))
    print(client.pid, flush=True)
    await asyncio.sleep(600)

asyncio.run(main())
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc and PDEATHSIG")
async def test_a_servers_children_die_when_codenav_is_killed(fake: Fake) -> None:
    # PDEATHSIG kills the server itself, but is not inherited: its child (here one that
    # ignores SIGTERM, as a busy node would) outlived a SIGKILLed codenav before the reaper
    cmd = fake.cmd(spawn_child=True)
    holder = await asyncio.create_subprocess_exec(
        sys.executable, "-c", _HOLDER, json.dumps(cmd), str(fake.root),
        stdout=asyncio.subprocess.PIPE)
    assert holder.stdout is not None
    pid = int(await asyncio.wait_for(holder.stdout.readline(), 30))
    (child,) = await eventually(fake.spawned, what="grandchild pid")
    try:
        holder.kill()  # SIGKILL: no cleanup of codenav's own runs
        await holder.wait()
        await eventually(lambda: not alive(pid), what="the server killed with codenav")
        await eventually(lambda: not alive(child), what="its child killed with its group")
    finally:
        for leftover in (pid, child):
            if alive(leftover):
                os.kill(leftover, signal.SIGKILL)


async def test_a_server_writing_noise_on_stdout_is_told_apart(fake: Fake,
                                                              client: LspClient) -> None:
    cmd = fake.cmd(requests={"textDocument/hover": {
        "stdout": "DEBUG: loading plugins...\nnot json either\n", "never": True}})
    await client.start(cmd, fake.root)
    assert client.noise is None
    with pytest.raises(LspRequestTimeout):
        await client.request(T.TEXT_DOCUMENT_HOVER, hover_params(), 1)
    assert client.noise == "DEBUG: loading plugins..."


def _peak_rss() -> int:
    """This process's high-water mark of resident memory, in bytes."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    return 0


@pytest.mark.parametrize("spec", [
    {"frame": {"length": 10_000_000_000, "bytes": 4 << 20}},  # claims 10 GB, sends 4 MB
    {"result_bytes": MAX_MESSAGE_BYTES + 1024},  # a whole message, just over the limit
], ids=["claimed-10GB", "over-the-limit"])
async def test_a_message_over_the_limit_ends_the_server_not_codenav(
        fake: Fake, client: LspClient, spec: dict[str, Any]) -> None:
    await client.start(fake.cmd(requests={"textDocument/hover": spec}), fake.root)
    before = _peak_rss()
    started = time.monotonic()
    with pytest.raises(LspServerExited) as info:
        await client.request(T.TEXT_DOCUMENT_HOVER, hover_params(), 15)
    assert time.monotonic() - started < 10  # within the deadline, not after reading it all
    assert "over codenav's limit" in str(info.value) and info.value.refused
    assert _peak_rss() - before < MAX_MESSAGE_BYTES * 3
    await eventually(lambda: not client.running, what="the server ended")


async def test_a_message_under_the_limit_is_read_whole(fake: Fake, client: LspClient) -> None:
    await client.start(fake.cmd(requests={"codenav/big": {"result_bytes": 4 << 20}}),
                       fake.root)
    result = await client.request("codenav/big", {}, 15)
    assert len(result) == 4 << 20 and client.running


async def test_a_header_line_past_the_stream_limit_ends_the_server(fake: Fake,
                                                                   client: LspClient) -> None:
    cmd = fake.cmd(requests={"textDocument/hover": {"stdout": "X" * (1 << 20) + "\r\n",
                                                    "never": True}})
    await client.start(cmd, fake.root)
    with pytest.raises(LspServerExited) as info:
        await client.request(T.TEXT_DOCUMENT_HOVER, hover_params(), 15)
    assert "header line" in str(info.value)
