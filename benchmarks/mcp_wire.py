"""JSON-RPC lines to and from a ``codenav mcp`` child process, for benchmarks that time the
server's own answers without an MCP client library in between."""

from __future__ import annotations

import json
from typing import IO, Any

__all__ = ["answer", "send"]


def send(stdin: IO[bytes], message: dict[str, Any]) -> None:
    """Write one JSON-RPC message (``jsonrpc`` added) as a line."""
    stdin.write((json.dumps({"jsonrpc": "2.0", **message}) + "\n").encode())
    stdin.flush()


def answer(stdout: IO[bytes], ident: int) -> dict[str, Any]:
    """The reply to request ``ident``, skipping notifications and other replies."""
    while True:
        line = stdout.readline()
        if not line:
            raise RuntimeError("codenav mcp closed stdout")
        message: dict[str, Any] = json.loads(line)
        if message.get("id") == ident:
            return message
