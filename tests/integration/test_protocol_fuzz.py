"""Raw protocol lines against a real ``codenav mcp`` (RELIABILITY-AND-PERF.md §A6 S7, S9-S11,
L8): every bad line gets the right JSON-RPC error or a BAD_ARGS envelope, stdout carries
nothing but JSON-RPC, the server keeps answering, and it exits promptly with no child left."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from codenav.index.pipeline import index_tree
from tests.conftest import FIXTURES, write_tree

FILES = {"app/core.py": "class Engine:\n    def run(self):\n        return helper()\n\n\n"
                        "def helper():\n    return 1\n"}


class Server:
    """``codenav mcp`` as a subprocess, spoken to in raw lines."""

    def __init__(self, root: Path, *extra: str) -> None:
        env = {k: v for k, v in os.environ.items() if k != "CODENAV_DB"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "codenav", "mcp", str(root), "--no-watch", *extra],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        self.lines: queue.Queue[bytes] = queue.Queue()
        self.raw: list[bytes] = []  # everything stdout carried
        self.stderr = b""
        self.threads = [threading.Thread(target=self._pump, daemon=True),
                        threading.Thread(target=self._drain, daemon=True)]
        for thread in self.threads:
            thread.start()
        self.next_id = 1000

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.raw.append(line)
            self.lines.put(line)

    def _drain(self) -> None:
        assert self.proc.stderr is not None
        for chunk in iter(lambda: self.proc.stderr.read(4096), b""):  # type: ignore[union-attr]
            self.stderr += chunk

    def send(self, line: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + b"\n")
        self.proc.stdin.flush()

    def replies(self, wait: float = 0.5, expect: int | None = None) -> list[dict[str, Any]]:
        """What arrives within ``wait`` seconds (sooner once ``expect`` replies came)."""
        out: list[dict[str, Any]] = []
        deadline = time.monotonic() + wait
        while expect is None or len(out) < expect:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                return out
            out.append(json.loads(line))
        return out

    def request(self, method: str, params: dict[str, Any] | None = None,
                wait: float = 30) -> dict[str, Any]:
        self.next_id += 1
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(json.dumps(message).encode())
        return self.reply_to(self.next_id, wait)

    def reply_to(self, ident: Any, wait: float = 30) -> dict[str, Any]:
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            try:
                message = json.loads(self.lines.get(timeout=deadline - time.monotonic()))
            except queue.Empty:
                break
            if message.get("id") == ident and ("result" in message or "error" in message):
                return message
        raise AssertionError(f"no reply to id {ident!r}; stderr: {self.stderr[-2000:]!r}")

    def initialize(self) -> None:
        init = self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                           "clientInfo": {"name": "fuzz", "version": "0"}})
        assert init["result"]["serverInfo"]["name"] == "codenav"
        self.send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')

    def alive(self) -> None:
        """The server still answers a valid request."""
        listed = self.request("tools/list")
        assert len(listed["result"]["tools"]) == 14

    def call(self, name: Any, arguments: Any) -> dict[str, Any]:
        return self.request("tools/call", {"name": name, "arguments": arguments})

    def close(self) -> int:
        if self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.dispose()
        return self.proc.returncode

    def dispose(self) -> None:
        """After exit: the pipes read to their end and closed."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        for thread in self.threads:
            thread.join(5)
        for pipe in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if pipe is not None and not pipe.closed:
                with contextlib.suppress(BrokenPipeError):
                    pipe.close()


def envelope(reply: dict[str, Any]) -> dict[str, Any]:
    result = reply["result"]
    parsed: dict[str, Any] = json.loads(result["content"][0]["text"])
    assert parsed == result["structuredContent"]
    assert result["isError"] is (not parsed["ok"])
    assert parsed["tokenBudget"]["used"] <= parsed["tokenBudget"].get("requested", 2000)
    return parsed


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    root = write_tree(tmp_path_factory.mktemp("proto") / "repo", FILES)
    srv = Server(root, "--lsp", "off")
    srv.initialize()
    yield srv
    assert srv.close() == 0
    # S9: stdout carried only JSON-RPC 2.0 messages, one per line, whatever went in.
    for line in srv.raw:
        message = json.loads(line)
        assert message["jsonrpc"] == "2.0"
        assert "\n" not in line.decode()[:-1]
    assert b"Traceback" not in b"".join(srv.raw)


@pytest.mark.parametrize(("line", "code"), [
    (b"{bad json", -32700),
    (b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list"', -32700),
    (b"\xff\xfe not utf-8", -32700),
    (b"[1, 2]", -32600),
    (b"null", -32600),
    (b'"a string"', -32600),
    (b"42", -32600),
    (b'{"jsonrpc": "2.0", "id": 77}', -32600),  # no method
    (b'{"jsonrpc": "1.0", "id": 78, "method": "tools/list"}', -32600),
    (b'{"jsonrpc": "2.0", "id": 79, "method": "tools/call", "params": "x"}', -32600),
    (b'{"jsonrpc": "2.0", "id": 80, "method": "no/such/method"}', -32601),
    (b'{"jsonrpc": "2.0", "id": 81, "method": "tools/call", "params": {"name": 7}}', -32602),
    (b'{"jsonrpc": "2.0", "id": 82, "method": "tools/call", "params": '
     b'{"name": "map_search", "arguments": "not an object"}}', -32602),
    (b"{" * 100_000, -32700),
    (b"[" * 100_000, -32700),  # deeper than Python's json can follow: not a crash
    (b'{"jsonrpc": "2.0", "id": 83, "method": "x", "junk": "' + b"A" * 2_000_000 + b'"}', -32601),
    (b"Z" * 2_000_000, -32700),  # a 2 MB line
])
def test_bad_lines_get_the_right_json_rpc_error(server: Server, line: bytes, code: int) -> None:
    server.send(line)
    (reply,) = server.replies(wait=10, expect=1)
    assert server.replies(wait=0.05) == []  # one answer, not two
    assert reply["error"]["code"] == code
    known = json.loads(line).get("id") if code not in (-32700,) and line.startswith(b"{") \
        else None
    assert reply["id"] == known
    server.alive()


@pytest.mark.parametrize(("line", "ident"), [
    (b'{"jsonrpc": "2.0", "id": 90, "method": "tools/list", "params": {"x": "a\x00b"}}', 90),
    (b'{"jsonrpc": "2.0", "id": "s-91", "method": "tools/list", "params": {"x": "\\ud800"}}',
     "s-91"),
    (b'{"jsonrpc": "2.0", "id": 92, "method": "tools/list", "params": {"x": "'
     + b"A" * (9 * 1024 * 1024) + b'"}}', 92),
])
def test_a_request_it_cannot_read_is_answered_with_its_id(server: Server, line: bytes,
                                                          ident: Any) -> None:
    """A NUL, a lone surrogate or a line past MAX_LINE: answered for the id the client
    waits on (it was null), so that no client hangs."""
    server.send(line)
    (reply,) = server.replies(wait=30, expect=1)
    assert reply["id"] == ident and reply["error"]["code"] in (-32600, -32700), reply
    server.alive()


@pytest.mark.parametrize("ident", [b"null", b"true", b"1.5", b"{}", b"[]", b"1.0"])
def test_a_request_whose_id_is_not_a_string_or_integer_is_answered(server: Server,
                                                                     ident: bytes) -> None:
    """The SDK reads such a request as a notification and would answer nothing: a client
    waiting on it would hang. JSON-RPC answers an id it cannot use with null."""
    server.send(b'{"jsonrpc": "2.0", "id": ' + ident + b', "method": "tools/list"}')
    (reply,) = server.replies(wait=10, expect=1)
    assert reply["id"] is None and reply["error"]["code"] == -32600, reply
    server.send(b'{"jsonrpc": "2.0", "method": "notifications/x", "params": {"id": null}}')
    assert server.replies(wait=0.3) == []  # an id inside params is no request's id
    server.alive()


@pytest.mark.parametrize("line", [b"", b"   ", b"\t", b"\r"])
def test_blank_lines_are_ignored(server: Server, line: bytes) -> None:
    server.send(line)
    assert server.replies(wait=0.3) == []
    server.alive()


def test_notifications_and_stray_responses_get_no_answer(server: Server) -> None:
    server.send(b'{"jsonrpc": "2.0", "method": "notifications/unknown"}')
    server.send(b'{"jsonrpc": "2.0", "id": 999999, "result": {}}')
    assert server.replies(wait=0.3) == []
    server.alive()


@pytest.mark.parametrize("name", ["map_teleport", "", "map_search\u0000", "\u001b[2J" * 50])
def test_a_tool_the_server_does_not_have_is_a_protocol_error(server: Server, name: str) -> None:
    # MCP: an unknown tool is a JSON-RPC error (-32602), not a tool result
    reply = server.call(name, {})
    assert "result" not in reply and reply["error"]["code"] == -32602
    message = reply["error"]["message"]
    assert "the tools are: map_status" in message
    assert not any(ord(c) < 0x20 for c in message) and len(message) < 1000


@pytest.mark.parametrize(("name", "arguments"), [
    ("map_search", {"query": 5}),
    ("map_search", {"query": "x", "tokenBudget": "lots"}),
    ("map_search", {"query": "x", "tokenBudget": True}),
    ("map_search", {"query": "x", "kinds": 5}),  # (one string: that one kind)
    ("map_search", {"query": "x", "surprise": 1}),
    ("map_search", {"query": "\u0000\u001b[31m\u202e\u200b"}),
    ("map_search", {"query": "q" * 100_000}),
    ("map_outline", {"file": "a\u0000b.py"}),
    ("map_outline", {"file": "\u001b]0;pwned\u0007" * 10}),
    ("map_outline", {"file": "x/" * 50_000}),
    ("map_node", {"id": "py:" + "a" * 100_000}),
    ("nav_definition", {"file": "app/core.py", "line": -1}),
    ("nav_definition", {"file": "app/core.py", "line": 10**30}),
    ("nav_definition", {"file": "app/core.py", "line": 1.5}),
    ("nav_references", {"symbol": None}),
    ("map_neighbors", {"id": ["list"]}),
    ("map_rebuild", {"paths": 7}),  # (one string: that one path)
    ("map_rebuild", {"paths": ["../../etc"]}),
    ("map_status", {"tokenBudget": 10**12}),
    ("nav_rename_preview", {"symbol": "helper", "newName": "\u0000" * 1000}),
])
def test_bad_tool_calls_answer_an_envelope(server: Server, name: str,
                                           arguments: dict[str, Any]) -> None:
    found = envelope(server.call(name, arguments))
    if name == "map_status":
        assert found["ok"] and found.get("warnings", [])  # clamped, with a warning
    elif str(arguments.get("query", "")).startswith("\u0000"):
        assert found["ok"] or found["error"]["code"] == "MAP_NOT_BUILT"  # a query like any
    else:
        assert not found["ok"]
        assert found["error"]["code"] in {"BAD_ARGS", "OUT_OF_ROOT", "FILE_NOT_FOUND",
                                          "BAD_NODE_ID", "NODE_NOT_FOUND", "SYMBOL_NOT_FOUND",
                                          "MAP_NOT_BUILT"}
    text = json.dumps(found)  # json escapes control characters: none reaches the wire raw
    assert not any(ord(c) < 0x20 for c in text)
    assert len(text) < 4 * found["tokenBudget"].get("requested", 2000) + 4


def test_a_valid_call_after_all_that(server: Server) -> None:
    deadline = time.monotonic() + 30
    while True:  # the first map is built in the background
        found = envelope(server.call("map_search", {"query": "helper"}))
        if found["ok"] or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert found["ok"] and found["data"]["results"][0].startswith("py:app/core.py#helper ")


# --------------------------------------------------------------------------- shutdown (L8)

def _descendants(pid: int) -> set[int]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(ppid, []).append(int(entry))
    out: set[int] = set()
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.add(child)
            todo.append(child)
    return out


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    if shutil.which("basedpyright-langserver", path=str(Path(sys.executable).parent)) is None:
        pytest.skip("basedpyright is not installed in the venv")
    root = tmp_path / "shop"
    shutil.copytree(FIXTURES / "repos" / "shop", root)
    return root


@pytest.mark.parametrize("how", ["close stdin", "SIGTERM", "SIGINT"])
def test_shutdown_is_prompt_and_leaves_no_child(shop: Path, how: str) -> None:
    srv = Server(shop, "--lsp", "auto")
    try:
        srv.initialize()
        deadline = time.monotonic() + 40
        while True:  # the first map, then basedpyright starting in the background
            status = envelope(srv.call("map_status", {}))
            states = [s.get("state") for s in
                      status.get("data", {}).get("lsp", {}).get("servers", [])]
            children = _descendants(srv.proc.pid)
            if status["ok"] and any(s in ("warming", "ready") for s in states) and children:
                break
            assert time.monotonic() < deadline, (status, srv.stderr[-2000:])
            time.sleep(0.2)
        # A real request reaches the server, so it is busy, not just started.
        srv.call("nav_hover", {"symbol": "Order", "source": "auto"})
        children = _descendants(srv.proc.pid)
        assert children
        started = time.monotonic()
        if how.startswith("SIG"):
            srv.proc.send_signal(getattr(signal, how))
        else:
            assert srv.proc.stdin is not None
            srv.proc.stdin.close()
        srv.proc.wait(3)  # raises TimeoutExpired past 3 s
        took = time.monotonic() - started
        time.sleep(0.3)  # an orphan would still be running now
        left = [pid for pid in children if _running(pid)]
        assert left == [], (how, took, left)
        assert took < 3
        srv.dispose()
        # S9 with a language server and the indexer running: stdout was protocol only.
        assert srv.raw and all(json.loads(line)["jsonrpc"] == "2.0" for line in srv.raw)
    finally:
        srv.dispose()


@pytest.mark.parametrize("how", ["SIGTERM", "SIGKILL"])
def test_no_parser_process_outlives_a_server_that_rebuilt_its_map(tmp_path: Path,
                                                                  how: str) -> None:
    """A full map_rebuild runs parser processes; a read-your-writes refresh keeps one warm.
    Whatever ends the server, none of them (and no helper process) is left behind."""
    root = write_tree(tmp_path / "repo", {f"pkg/m{i}.py": f"def f{i}():\n    return {i}\n"
                                         for i in range(120)})
    index_tree(root)
    srv = Server(root, "--lsp", "off")
    try:
        srv.initialize()
        rebuilt = envelope(srv.call("map_rebuild", {"full": True}))
        assert rebuilt["ok"] and rebuilt["data"]["parsed"] == 120, rebuilt
        (root / "pkg" / "m0.py").write_text("def f0():\n    return 'edited'\n")
        assert envelope(srv.call("map_outline", {"file": "pkg/m0.py"}))["ok"]  # refreshed
        children = _descendants(srv.proc.pid)
        assert children, "the warm parser process"
        srv.proc.send_signal(getattr(signal, how))
        srv.proc.wait(5)
        deadline = time.monotonic() + 5  # a parser process ends when its job pipe does
        while any(_running(pid) for pid in children) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert [pid for pid in children if _running(pid)] == []
    finally:
        srv.dispose()


# ------------------------------------------------------------- MCP Inspector CLI (C1)

def _inspector() -> list[str] | None:
    """The Inspector's CLI: the one scripts/test.sh installs into .venv/npm, else one npx
    already has (``--no-install``: a test never downloads)."""
    local = Path(sys.prefix) / "npm" / "node_modules" / ".bin" / "mcp-inspector"
    if local.exists():
        return [str(local), "--cli"]
    npx = shutil.which("npx")
    if npx is None:
        return None
    base = [npx, "--no-install", "@modelcontextprotocol/inspector", "--cli"]
    probe = subprocess.run([*base, "--help"], capture_output=True, timeout=60, check=False)
    return base if probe.returncode == 0 else None


def test_mcp_inspector_cli_lists_and_calls_the_tools(tmp_path: Path) -> None:
    base = _inspector()
    if base is None:
        pytest.skip("the MCP Inspector is not installed (scripts/test.sh installs it with npm)")
    root = write_tree(tmp_path / "repo", FILES)
    index_tree(root)
    server = [sys.executable, "-m", "codenav", "mcp", str(root), "--no-watch", "--lsp", "off"]
    listed = subprocess.run([*base, *server, "--method", "tools/list"], capture_output=True,
                            text=True, timeout=120, check=True)
    names = [tool["name"] for tool in json.loads(listed.stdout)["tools"]]
    assert len(names) == 14
    for name in names:
        called = subprocess.run([*base, *server, "--method", "tools/call", "--tool-name", name],
                                capture_output=True, text=True, timeout=120, check=False)
        result = json.loads(called.stdout)
        envelope = result["structuredContent"]
        assert json.loads(result["content"][0]["text"]) == envelope
        assert result.get("isError", False) is not envelope["ok"], (name, envelope)
        assert envelope["ok"] or envelope["error"]["code"] == "BAD_ARGS", (name, envelope)
    found = subprocess.run([*base, *server, "--method", "tools/call", "--tool-name",
                            "map_search", "--tool-arg", "query=helper"],
                           capture_output=True, text=True, timeout=120, check=True)
    envelope = json.loads(found.stdout)["structuredContent"]
    assert envelope["ok"] and envelope["data"]["results"][0].startswith("py:app/core.py#helper ")


def _peak_rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        return next(int(row.split()[1]) for row in status if row.startswith("VmHWM:"))


def test_an_endless_line_is_dropped_without_holding_it(server: Server) -> None:
    """A 64 MiB line is read in pieces and answered -32700; memory does not grow by it."""
    from codenav.server import MAX_LINE
    before = _peak_rss_kb(server.proc.pid)
    size = 64 * 1024 * 1024
    assert size > 4 * MAX_LINE
    assert server.proc.stdin is not None
    piece = b"Z" * (1 << 20)
    for _ in range(size // len(piece)):
        server.proc.stdin.write(piece)
    server.proc.stdin.write(b"\n")
    server.proc.stdin.flush()
    (reply,) = server.replies(wait=30, expect=1)
    assert reply["error"]["code"] == -32700 and reply["id"] is None
    assert "longer than" in reply["error"]["message"]
    grown_mb = (_peak_rss_kb(server.proc.pid) - before) / 1024
    assert grown_mb < 48, f"peak RSS grew {grown_mb:.0f} MB for a dropped line"
    assert server.request("tools/list")["result"]["tools"]  # the next line is served
