"""The pool against the scripted fake server: start in the background, readiness signals,
deadlines with cancellation, a kill -9 mid-request, crash loops, missing binaries, closing."""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types as T

from codenav.config import decide_trust, project_config
from codenav.errors import LspFailed, LspTimeout, LspUnavailable
from codenav.lsp.pool import LspPool
from codenav.lsp.servers import Family, ServerSpec, families
from tests.unit.lsp.test_client import alive

FAKE = [sys.executable, "-m", "codenav.lsp.fake"]


class Script:
    def __init__(self, tmp_path: Path) -> None:
        self.root = tmp_path / "root"
        self.root.mkdir()
        (self.root / "a.py").write_text("x = 1\n")
        self.record = tmp_path / "received.jsonl"
        self.path = tmp_path / "script.json"

    def family(self, *, ready_log: str | None = None, **script: Any) -> dict[str, Family]:
        self.path.write_text(json.dumps({"record": str(self.record), **script}))
        spec = ServerSpec(name="fake", command=(*FAKE, str(self.path)), install="(none)",
                          ready_log=ready_log)
        return {"python": Family("python", ("py",), {"py": "python"}, (spec,))}

    def methods(self) -> list[str]:
        if not self.record.exists():
            return []
        return [json.loads(line).get("method", "") for line in self.record.read_text()
                .splitlines() if line.strip()]


def definition(uri: str) -> T.DefinitionParams:
    return T.DefinitionParams(text_document=T.TextDocumentIdentifier(uri=uri),
                              position=T.Position(line=0, character=0))


def wait_for(predicate: Any, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {predicate}")
        time.sleep(0.02)


@pytest.fixture
def script(tmp_path: Path) -> Script:
    return Script(tmp_path)


def test_answers_and_becomes_ready_after_the_first_answer(script: Script) -> None:
    table = script.family(requests={"textDocument/definition": {"result": []}})
    pool = LspPool(script.root, table=table)
    try:
        assert pool.state("py") == "idle"
        started = time.monotonic()
        result = pool.run_sync(pool.request("py", "a.py", T.TEXT_DOCUMENT_DEFINITION,
                                            definition))
        assert result == [] and pool.state("py") == "ready"
        # no ready signal to wait for: the request goes out at once, not after most of
        # the 15 s deadline (which left jedi-language-server 1 s for its first answer)
        assert time.monotonic() - started < 5.0
        assert "textDocument/didOpen" in script.methods()  # the file was synced first
    finally:
        pool.close()


def test_a_ready_log_ends_warming(script: Script) -> None:
    table = script.family(
        ready_log="^Found \\d+ source files",
        notifications={"initialized": {"notify": [{"method": "window/logMessage", "params": {
            "type": 4, "message": "Found 3 source files"}}]}},
        requests={"textDocument/definition": {"result": []}})
    pool = LspPool(script.root, table=table)
    try:
        pool.ensure("py", "a.py")
        wait_for(lambda: pool.state("py") == "ready")
    finally:
        pool.close()


def test_deadline_answers_lsp_timeout_and_cancels(script: Script) -> None:
    table = script.family(requests={"textDocument/definition": {"never": True}})
    pool = LspPool(script.root, table=table)
    try:
        started = time.monotonic()
        with pytest.raises(LspTimeout):
            pool.run_sync(pool.request("py", "a.py", T.TEXT_DOCUMENT_DEFINITION, definition,
                                       timeout=1.0, wait_loaded=False))
        assert time.monotonic() - started < 3.0
        wait_for(lambda: "$/cancelRequest" in script.methods())
    finally:
        pool.close()


def test_kill_9_mid_request_answers_at_once_then_restarts(script: Script) -> None:
    table = script.family(requests={"textDocument/definition": {"never": True}})
    pool = LspPool(script.root, table=table)
    try:
        pool.ensure("py")
        wait_for(lambda: pool.status()[0].pid is not None)
        pid = pool.status()[0].pid
        assert pid is not None
        future = pool.submit(pool.request("py", "a.py", T.TEXT_DOCUMENT_DEFINITION, definition,
                                          timeout=20.0, wait_loaded=False))
        time.sleep(0.3)
        started = time.monotonic()
        os.kill(pid, signal.SIGKILL)
        with pytest.raises(LspFailed):
            future.result(timeout=5)
        assert time.monotonic() - started < 2.0
        wait_for(lambda: pool.status()[0].restarts == 1 and pool.status()[0].pid not in
                 (None, pid))
        assert not alive(pid)
    finally:
        pool.close()


def test_crash_loop_disables_without_a_restart_storm(script: Script) -> None:
    table = script.family(requests={"initialize": {"exit": 3}})
    pool = LspPool(script.root, table=table)
    try:
        pool.ensure("py")
        wait_for(lambda: pool.state("py") == "failed", timeout=20)
        time.sleep(1.0)
        assert script.methods().count("initialize") == 3
        status = pool.status()[0]
        assert status.restarts == 2 and status.error
        with pytest.raises(LspFailed):
            pool.run_sync(pool.request("py", "a.py", T.TEXT_DOCUMENT_DEFINITION, definition))
    finally:
        pool.close()


def test_missing_binary_is_unavailable_with_the_install_command(tmp_path: Path) -> None:
    spec = ServerSpec(name="nothing", command=("codenav-no-such-server",),
                      install="pip install nothing")
    pool = LspPool(tmp_path, table={"python": Family("python", ("py",), {}, (spec,))})
    try:
        with pytest.raises(LspUnavailable) as caught:
            pool.run_sync(pool.request("py", "a.py", T.TEXT_DOCUMENT_DEFINITION, definition))
        assert "pip install nothing" in caught.value.hint
        assert pool.state("py") == "not_installed"
        assert pool.state("go") == "none"
    finally:
        pool.close()


def test_close_stops_every_server(script: Script) -> None:
    pool = LspPool(script.root, table=script.family(ignore_sigterm=True, ignore_exit=True))
    pool.ensure("py")
    wait_for(lambda: pool.status()[0].pid is not None)
    pid = pool.status()[0].pid
    assert pid is not None
    pool.close(grace=1.0)
    assert not alive(pid)


@pytest.fixture
def user_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The user's own configuration file (not written yet); nothing trusts a project."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    monkeypatch.delenv("CODENAV_TRUST_PROJECT_CONFIG", raising=False)
    (tmp_path / "cfg" / "codenav").mkdir(parents=True)
    return tmp_path / "cfg" / "codenav" / "config.toml"


def project_with(tmp_path: Path, config: str) -> Path:
    root = tmp_path / "repo"
    (root / ".codenav").mkdir(parents=True)
    (root / ".codenav" / "config.toml").write_text(config)
    return root


def test_project_overrides(tmp_path: Path, user_config: Path,
                           monkeypatch: pytest.MonkeyPatch) -> None:
    root = project_with(tmp_path, '[lsp.python]\ncommand = ["jedi-language-server"]\n'
                                  '[lsp.go]\nenabled = false\n')
    # not trusted: the repository's command is ignored, what can only do less applies
    table = families(root, decide_trust(root))
    assert table["python"].servers[0].name == "basedpyright"
    assert table["go"].enabled is False and table["typescript"].enabled
    assert project_config(root, decide_trust(root)).ignored == [
        "lsp.python.command in .codenav/config.toml"]
    trusted = decide_trust(root, flag=True)
    assert [s.command for s in families(root, trusted)["python"].servers] == [
        ("jedi-language-server",)]
    assert project_config(root, trusted).ignored == []
    # the same through the environment, but never under --force-root without it
    monkeypatch.setenv("CODENAV_TRUST_PROJECT_CONFIG", "1")
    assert decide_trust(root, forced=True).trusted
    monkeypatch.delenv("CODENAV_TRUST_PROJECT_CONFIG")
    (root / ".codenav" / "config.toml").unlink()
    (root / "pyproject.toml").write_text('[tool.codenav.lsp.python]\nenabled = false\n')
    assert families(root, decide_trust(root))["python"].enabled is False


def test_the_users_own_configuration_applies_and_can_trust_a_root(
        tmp_path: Path, user_config: Path) -> None:
    root = project_with(tmp_path, '[lsp.python]\ncommand = ["from-the-repo"]\n')
    user = user_config
    user.write_text(f'[lsp.go]\nenabled = false\n'
                    f'[projects."{root}".lsp.c]\ncommand = ["my-clangd"]\n')
    table = families(root, decide_trust(root))
    assert table["go"].enabled is False  # the user's, for every root
    assert table["c"].servers[0].command == ("my-clangd",)  # the user's, for this root
    assert table["python"].servers[0].name == "basedpyright"  # the repo's: not trusted
    user.write_text(f'trusted = ["{root}"]\n')
    assert decide_trust(root).trusted
    assert families(root, decide_trust(root))["python"].servers[0].command == ("from-the-repo",)
    assert not decide_trust(root, forced=True).trusted  # not under --force-root


def test_a_server_that_runs_the_projects_code_starts_only_when_trusted(
        tmp_path: Path, user_config: Path) -> None:
    assert "build scripts" in (families(tmp_path, decide_trust(tmp_path))["rust"].untrusted
                               or "")
    assert families(tmp_path, decide_trust(tmp_path, flag=True))["rust"].untrusted is None
    assert families(tmp_path, decide_trust(tmp_path))["python"].untrusted is None
    pool = LspPool(tmp_path, table=families(tmp_path, decide_trust(tmp_path)))
    try:
        pool.ensure("rs")
        deadline = time.monotonic() + 5
        while pool.state("rs") == "idle" and time.monotonic() < deadline:
            time.sleep(0.01)
        assert pool.state("rs") == "untrusted"
    finally:
        pool.close()


def test_a_timeout_says_when_the_server_writes_noise_on_stdout(script: Script) -> None:
    # it used to say only "no answer within N s"
    table = script.family(requests={"textDocument/definition": {
        "stdout": "Traceback (most recent call last):\n", "never": True}})
    pool = LspPool(script.root, table=table, deadline=1.0)
    try:
        with pytest.raises(LspTimeout, match="non-protocol output on stdout"):
            pool.run_sync(pool.request("py", "a.py", T.TEXT_DOCUMENT_DEFINITION, definition,
                                       timeout=1.0))
    finally:
        pool.close()


def test_the_files_opened_to_load_projects_stay_open(script: Script,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    # review: the warm-up files were the oldest open documents, so the first to be closed;
    # tsserver then drops the project that only they kept loaded (the tests' references)
    import codenav.lsp.pool as pool_module

    monkeypatch.setattr(pool_module, "MAX_OPEN_DOCUMENTS", 3)
    for name in ("b.py", "c.py", "d.py", "e.py", "f.py"):
        (script.root / name).write_text("y = 2\n")
    table = script.family(requests={"textDocument/definition": {"result": []}})
    pool = LspPool(script.root, table=table)
    try:
        pool.ensure("py", "a.py", ["b.py"])
        for name in ("c.py", "d.py", "e.py", "f.py"):
            pool.run_sync(pool.request("py", name, T.TEXT_DOCUMENT_DEFINITION, definition))
        closed = [json.loads(line)["params"]["textDocument"]["uri"]
                  for line in script.record.read_text().splitlines()
                  if '"textDocument/didClose"' in line]
        assert closed and not any(uri.endswith(("/a.py", "/b.py")) for uri in closed), closed
    finally:
        pool.close()
