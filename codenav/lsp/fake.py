"""A scripted language server for tests: ``python -m codenav.lsp.fake SCRIPT.json``.

It speaks JSON-RPC with ``Content-Length`` framing over stdio and does what the script says,
so that tests can make a server answer, stall, crash, flood stderr or refuse to die on cue.
Every message it receives is appended, one JSON object per line, to ``script["record"]``
(if given) as soon as it is read; the pids of what it spawned are written there too, as
``{"spawned": PID}``.

Script keys (all optional)::

    record          path of the JSON-lines log of received messages
    initialize      result of ``initialize`` (default: empty capabilities, serverInfo "fake")
    requests        {method: SPEC or [SPEC, ...]}: a list is consumed in order, its last
                    entry repeating; unknown methods get -32601
    notifications   {method: SPEC}: actions run when that notification arrives
    startup         SPEC run before reading anything (terminal keys ignored)
    ignore_sigterm  ignore SIGTERM
    ignore_exit     stay alive after the ``exit`` notification
    ignore_eof      stay alive after stdin closes
    spawn_child     start a grandchild (same process group, inherits the pipes, ignores
                    SIGTERM) that sleeps for ten minutes

A SPEC is a dict whose keys act in this order::

    stderr          text written to stderr
    stderr_bytes    that many filler bytes written to stderr, then a newline
    stderr_end      text written to stderr after the filler
    stdout          text written to stdout as it is (not a protocol message: noise)
    frame           {"length": N, "bytes": M}: a message header claiming N bytes, then M
                    filler bytes of it (a server breaking the protocol's bounds)
    notify          [{"method", "params"}]: notifications sent to the client
    server_request  {"method", "params"} or a list of them: requests sent to the client
                    (their answers are recorded like any received message)
    delay           seconds before the terminal action; a ``$/cancelRequest`` for the id
                    meanwhile answers -32800 instead
    result | result_bytes | error | never | exit
                    answer with ``result``; with a string of ``result_bytes`` characters;
                    answer with ``error`` ({"code", "message"}); never answer; or exit at
                    once with that code

The string ``"$uri"`` anywhere in ``notify`` params is replaced by the
``params.textDocument.uri`` of the message being handled.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from typing import Any, BinaryIO

_write_lock = threading.Lock()
_timers: dict[Any, threading.Timer] = {}
_server_ids = iter(range(1, 1 << 62))


def _send(message: dict[str, Any]) -> None:
    body = json.dumps({"jsonrpc": "2.0", **message}).encode()
    with _write_lock:
        sys.stdout.buffer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        sys.stdout.buffer.flush()


def _read(stream: BinaryIO) -> dict[str, Any] | None:
    length = None
    while True:
        line = stream.readline()
        if not line:
            return None
        if line in (b"\r\n", b"\n"):
            if length is not None:
                break
            continue
        name, _, value = line.decode("ascii").partition(":")
        if name.strip().lower() == "content-length":
            length = int(value)
    body = stream.read(length)
    if len(body) < length:
        return None
    message: dict[str, Any] = json.loads(body)
    return message


def _substitute(value: Any, uri: str | None) -> Any:
    if value == "$uri":
        return uri
    if isinstance(value, dict):
        return {k: _substitute(v, uri) for k, v in value.items()}
    if isinstance(value, list):
        return [_substitute(v, uri) for v in value]
    return value


def _document_uri(message: dict[str, Any]) -> str | None:
    params = message.get("params")
    if isinstance(params, dict) and isinstance(params.get("textDocument"), dict):
        uri = params["textDocument"].get("uri")
        return uri if isinstance(uri, str) else None
    return None


def _run_actions(spec: dict[str, Any], message: dict[str, Any]) -> None:
    if "stderr" in spec:
        sys.stderr.write(spec["stderr"])
        sys.stderr.flush()
    if "stderr_bytes" in spec:
        chunk = b"x" * 8191 + b"\n"
        remaining = int(spec["stderr_bytes"])
        while remaining > 0:
            sys.stderr.buffer.write(chunk[:remaining])
            remaining -= len(chunk)
        sys.stderr.buffer.write(b"\n")
        sys.stderr.buffer.flush()
    if "stderr_end" in spec:
        sys.stderr.write(spec["stderr_end"])
        sys.stderr.flush()
    if "stdout" in spec:
        sys.stdout.buffer.write(spec["stdout"].encode())
        sys.stdout.buffer.flush()
    if "frame" in spec:
        with _write_lock:
            out = sys.stdout.buffer
            out.write(b"Content-Length: %d\r\n\r\n" % int(spec["frame"]["length"]))
            remaining = int(spec["frame"].get("bytes", 0))
            while remaining > 0:
                out.write(b"x" * min(remaining, 1 << 20))
                remaining -= 1 << 20
            out.flush()
    uri = _document_uri(message)
    for note in spec.get("notify", ()):
        _send({"method": note["method"], "params": _substitute(note.get("params"), uri)})
    requests = spec.get("server_request", [])
    for req in [requests] if isinstance(requests, dict) else requests:
        _send({"id": next(_server_ids), "method": req["method"], "params": req.get("params")})


def _finish(spec: dict[str, Any], msg_id: Any) -> None:
    _timers.pop(msg_id, None)
    if "exit" in spec:
        sys.stderr.flush()
        os._exit(int(spec["exit"]))
    if "error" in spec:
        _send({"id": msg_id, "error": spec["error"]})
    elif "result_bytes" in spec:
        _send({"id": msg_id, "result": "x" * int(spec["result_bytes"])})
    elif "result" in spec:
        _send({"id": msg_id, "result": spec["result"]})


def _spec_for(script: dict[str, Any], message: dict[str, Any]) -> dict[str, Any] | None:
    method = message.get("method")
    configured = script.get("requests", {}).get(method)
    if isinstance(configured, list):
        spec: dict[str, Any] = configured.pop(0) if len(configured) > 1 else configured[0]
        return spec
    if isinstance(configured, dict):
        return configured
    if method == "initialize":
        return {"result": script.get("initialize", {
            "capabilities": {}, "serverInfo": {"name": "fake", "version": "0"}})}
    if method == "shutdown":
        return {"result": None}
    return None


def _handle(script: dict[str, Any], message: dict[str, Any]) -> None:
    method = message.get("method")
    if method is None:
        return  # a response to one of our server_requests; already recorded
    if "id" not in message:  # a notification
        if method == "$/cancelRequest":
            msg_id = message.get("params", {}).get("id")
            timer = _timers.pop(msg_id, None)
            if timer is not None:
                timer.cancel()
                _send({"id": msg_id, "error": {"code": -32800, "message": "cancelled"}})
        elif method == "exit" and not script.get("ignore_exit"):
            os._exit(0)
        spec = script.get("notifications", {}).get(method)
        if spec is not None:
            _run_actions(spec, message)
        return
    msg_id = message["id"]
    spec = _spec_for(script, message)
    if spec is None:
        _send({"id": msg_id, "error": {"code": -32601, "message": f"no method {method}"}})
        return
    _run_actions(spec, message)
    if spec.get("never"):
        return
    delay = float(spec.get("delay", 0))
    if delay > 0:  # answered (or crashed) from a timer while messages keep being read
        timer = threading.Timer(delay, _finish, (spec, msg_id))
        timer.daemon = True
        _timers[msg_id] = timer
        timer.start()
    else:
        _finish(spec, msg_id)


def _record(path: str | None, entry: dict[str, Any]) -> None:
    if path:
        with open(path, "a", encoding="utf-8") as out:
            out.write(json.dumps(entry) + "\n")


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        sys.stderr.write("usage: python -m codenav.lsp.fake SCRIPT.json\n")
        return 2
    with open(argv[0], encoding="utf-8") as f:
        script: dict[str, Any] = json.load(f)
    record = script.get("record")
    if script.get("ignore_sigterm"):
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if script.get("spawn_child"):
        child = subprocess.Popen([sys.executable, "-c",
                                  "import signal, time\n"
                                  "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
                                  "time.sleep(600)\n"])
        _record(record, {"spawned": child.pid})
    if "startup" in script:
        _run_actions(script["startup"], {})
    while True:
        message = _read(sys.stdin.buffer)
        if message is None:
            break
        _record(record, message)
        _handle(script, message)
    if script.get("ignore_eof"):
        while True:
            time.sleep(3600)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
