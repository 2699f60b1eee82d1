"""The MCP server, in process and end to end over stdio with the SDK's own client."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, ClientSession, StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPError

from codenav.server import INSTRUCTIONS, build_server
from codenav.tools.registry import TOOLS
from codenav.workspace import Workspace
from tests.conftest import write_tree

pytestmark = pytest.mark.anyio

FILES = {"app/core.py": "class Engine:\n    def run(self):\n        return helper()\n\n\n"
                        "def helper():\n    return 1\n",
         "app/cli.py": "from .core import Engine\n\n\ndef main():\n    Engine().run()\n"}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def envelope_of(result: Any) -> dict[str, Any]:
    """The envelope, checked to be identical in structuredContent and the one text block."""
    assert len(result.content) == 1 and result.content[0].type == "text"
    parsed = json.loads(result.content[0].text)
    assert parsed == result.structured_content
    assert result.is_error is (not parsed["ok"])
    return parsed


async def test_in_process_tools_and_envelopes(tmp_path: Path) -> None:
    ws = Workspace(write_tree(tmp_path / "repo", FILES))
    async with Client(build_server(ws), mode="legacy") as client:
        listed = (await client.list_tools()).tools
        assert [t.name for t in listed] == [t.name for t in TOOLS]
        by_name = {t.name: t for t in listed}
        assert by_name["map_status"].annotations.read_only_hint is True
        assert by_name["map_rebuild"].annotations.read_only_hint is False
        assert "tokenBudget" in by_name["map_status"].input_schema["properties"]
        # What every agent session pays for the tool list: at most 12,500 characters (~3k
        # tokens) of the JSON sent, with every argument of every tool in it, each with its
        # own description and bounds (a client may drop the server's instructions).
        sent = json.dumps([t.model_dump(mode="json", by_alias=True, exclude_none=True)
                           for t in listed], separators=(",", ":"), ensure_ascii=False)
        assert len(sent) <= 12_500, len(sent)
        for tool in listed:
            for name, prop in tool.input_schema["properties"].items():
                assert prop.get("description"), (tool.name, name)
        for spec in TOOLS:
            assert set(by_name[spec.name].input_schema["properties"]) == set(
                spec.params.model_fields), spec.name

        rebuilt = envelope_of(await client.call_tool("map_rebuild", {"full": True}))
        assert rebuilt["ok"] and rebuilt["data"]["parsed"] == 2
        bad = envelope_of(await client.call_tool("map_rebuild", {"full": "maybe"}))
        assert bad["error"]["code"] == "BAD_ARGS"
        # a tool the server does not have is a protocol error (JSON-RPC -32602), as MCP
        # says, not a result: the client knows its tool list is wrong
        with pytest.raises(MCPError) as unknown:
            await client.call_tool("map_teleport", {})
        assert unknown.value.error.code == -32602
        assert "map_teleport" in unknown.value.error.message


async def test_stdio_end_to_end_with_a_background_first_build(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo", FILES)
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "codenav", "mcp", str(root), "--no-watch"],
        cwd=str(tmp_path))
    errors = (tmp_path / "stderr.log").open("w")
    progress: list[float] = []
    async with stdio_client(params, errlog=errors) as (read, write), \
            ClientSession(read, write) as session:
        init = await session.initialize()
        assert init.server_info.name == "codenav"
        assert init.instructions == INSTRUCTIONS
        names = [t.name for t in (await session.list_tools()).tools]
        assert names == [t.name for t in TOOLS]

        with anyio.fail_after(30):  # the map is being built in the background
            while True:
                status = envelope_of(await session.call_tool("map_status", {}))
                if status["data"]["built"] and not status["data"]["building"]:
                    break
                await anyio.sleep(0.05)
        assert status["data"]["files"]["total"] == 2

        async def on_progress(done: float, total: float | None, message: str | None) -> None:
            progress.append(done)

        write_tree(root, {"app/extra.py": "VALUE = 1\n"})
        rebuilt = envelope_of(await session.call_tool("map_rebuild", {},
                                                      progress_callback=on_progress))
        assert rebuilt["data"]["parsed"] == 1
        assert progress, "map_rebuild sent no progress notifications"

        bad = await session.call_tool("map_status", {"tokenBudget": "big"})
        assert bad.is_error and envelope_of(bad)["error"]["code"] == "BAD_ARGS"
        small = envelope_of(await session.call_tool("map_status", {"tokenBudget": 100}))
        assert small["tokenBudget"]["used"] <= 100
    errors.close()
    assert "Traceback" not in (tmp_path / "stderr.log").read_text()


async def test_in_process_crash_answers_internal_and_the_server_lives_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from codenav.tools import dispatch, status_tools
    from codenav.tools.base import ToolSpec

    async def boom(*_args: object) -> Any:
        raise RuntimeError("handler bug")

    ws = Workspace(write_tree(tmp_path / "repo", FILES))
    broken = ToolSpec("map_status", "d", status_tools.StatusParams, boom, "", "", order=1,
                      about_map=True)
    real = dispatch.by_name
    monkeypatch.setattr(dispatch, "by_name",
                        lambda name: broken if name == "map_status" else real(name))
    async with Client(build_server(ws), mode="legacy") as client:
        crashed = await client.call_tool("map_status", {})
        assert crashed.is_error and envelope_of(crashed)["error"]["code"] == "INTERNAL"
        rebuilt = envelope_of(await client.call_tool("map_rebuild", {}))
        assert rebuilt["ok"] is True


async def test_tools_answer_map_not_built_while_the_first_build_runs(tmp_path: Path) -> None:
    """Hold the map's write lock so the background build must wait: deterministic."""
    import sqlite3

    root = write_tree(tmp_path / "repo", FILES)
    (root / ".codenav").mkdir()
    blocker = sqlite3.connect(root / ".codenav" / "map.db", isolation_level=None)
    blocker.execute("PRAGMA journal_mode=WAL")
    blocker.execute("BEGIN IMMEDIATE")
    ws = Workspace(root)
    try:
        async with Client(build_server(ws), mode="legacy") as client:
            waiting = envelope_of(await client.call_tool("map_search", {"query": "Engine"}))
            assert waiting["error"]["code"] == "MAP_NOT_BUILT"
            assert "being built" in waiting["error"]["message"]
            status = envelope_of(await client.call_tool("map_status", {}))
            assert status["data"]["built"] is False and status["data"]["building"] is True
            blocker.execute("ROLLBACK")
            with anyio.fail_after(30):
                while not ws.build.done.is_set():
                    await anyio.sleep(0.02)
            found = envelope_of(await client.call_tool("map_search", {"query": "Engine"}))
            assert found["data"]["results"][0].startswith("py:app/core.py#Engine class ")
    finally:
        blocker.close()
