"""What `codenav mcp` writes on stderr: by default codenav's own useful lines and no library
chatter (pygls registers ~35 features at INFO each time a language-server client is made);
`--log-level debug` shows it all, `--log-level warning` quiets codenav too."""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client

from tests.conftest import FIXTURES

pytestmark = [pytest.mark.anyio, pytest.mark.slow]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def session_stderr(tmp_path: Path, *flags: str, server_started: bool) -> str:
    """stderr of one `codenav mcp` session on a fresh copy of the sample repository that
    lasts until the map is built and — with ``server_started`` — the Python language server
    has been started (its pygls client made)."""
    root = tmp_path / "repo"
    shutil.copytree(FIXTURES / "repos" / "example", root)
    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "codenav", "mcp", str(root), "--no-watch", *flags],
                                   cwd=str(tmp_path),
                                   env={"XDG_CONFIG_HOME": str(tmp_path / "config")})
    log = tmp_path / "stderr.log"
    with log.open("w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write), \
                ClientSession(read, write) as session:
            await session.initialize()
            with anyio.fail_after(90):
                while True:
                    status: dict[str, Any] = (await session.call_tool(
                        "map_status", {})).structured_content or {}
                    data = status.get("data", {})
                    servers = data.get("lsp", {}).get("servers", [])
                    states = {s["family"]: s["state"] for s in servers}
                    if data.get("built") and not data.get("building") and (
                            not server_started or states.get("python") in ("warming", "ready")):
                        break
                    assert states.get("python") not in ("not_installed", "failed"), states
                    await anyio.sleep(0.1)
    return log.read_text()


async def test_default_is_quiet_and_debug_shows_the_libraries(tmp_path: Path) -> None:
    default = await session_stderr(tmp_path / "default", server_started=True)
    assert "Registered" not in default, default
    # codenav's own INFO line when the map is built ("first map built: …" before the first
    # map became usable while it is built, "map built: …" since)
    assert re.search(r"^codenav INFO codenav\.workspace: (first )?map built: ", default, re.M), \
        default

    debug = await session_stderr(tmp_path / "debug", "--log-level", "debug", server_started=True)
    assert debug.count("pygls.feature_manager: Registered") >= 10, debug

    quiet = await session_stderr(tmp_path / "warning", "--log-level", "warning", "--lsp", "off",
                                 server_started=False)
    assert " INFO " not in quiet, quiet
