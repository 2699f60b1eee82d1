"""Every client snippet of docs/clients.md works: each is read from the page, parsed as its
client would (JSON, TOML, a shell command line), and the command it names is launched against
a sample repository through the MCP SDK's own client (stdio_client + ClientSession):
initialize, list the tools, call map_search, read the envelope."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client

from codenav.tools.registry import TOOLS
from tests.conftest import FIXTURES

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

pytestmark = [pytest.mark.anyio, pytest.mark.slow]

CLIENTS_MD = Path(__file__).resolve().parents[2] / "docs" / "clients.md"
SNIPPET = re.compile(r"<!-- client:(?P<name>[\w-]+) -->\n```(?P<lang>\w+)\n(?P<body>.*?)\n```",
                     re.S)
PLACEHOLDERS = ("/path/to/repo", "${workspaceFolder}")
# What each client's own format requires of its snippet.
SHELL_PREFIX = {"claude-code": ["claude", "mcp", "add", "codenav", "--"],
                "codex": ["codex", "mcp", "add", "codenav", "--"],
                "generic": []}
JSON_KEY = {"claude-code-json": "mcpServers", "cursor": "mcpServers", "vscode": "servers",
            "zed": "context_servers"}
TOML_TABLE = {"codex-toml": ("mcp_servers", "codenav")}


def snippets() -> dict[str, tuple[str, str]]:
    return {m["name"]: (m["lang"], m["body"]) for m in SNIPPET.finditer(
        CLIENTS_MD.read_text(encoding="utf-8"))}


def test_the_page_has_a_snippet_for_every_client() -> None:
    assert set(snippets()) == set(SHELL_PREFIX) | set(JSON_KEY) | set(TOML_TABLE)


def launch_of(name: str, lang: str, body: str) -> tuple[str, list[str], dict[str, str]]:
    """(command, args, env) as the client would read them from its snippet."""
    if lang == "sh":
        words = shlex.split(body)
        prefix = SHELL_PREFIX[name]
        assert words[:len(prefix)] == prefix, words
        words = words[len(prefix):]
        return words[0], words[1:], {}
    if lang == "json":
        entry = json.loads(body)[JSON_KEY[name]]["codenav"]
        if name == "vscode":
            assert entry["type"] == "stdio"
    elif lang == "toml":
        table, server = TOML_TABLE[name]
        entry = tomllib.loads(body)[table][server]
    else:
        raise AssertionError(f"snippet {name} is in {lang}, which no client reads")
    return entry["command"], entry["args"], entry.get("env", {})


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The docs' sample repository; its own configuration turns the Python language server
    off (which a project may always do), so that each launch starts only codenav."""
    root = tmp_path_factory.mktemp("clients") / "repo"
    shutil.copytree(FIXTURES / "repos" / "example", root)
    (root / ".codenav").mkdir()
    (root / ".codenav" / "config.toml").write_text("[lsp.python]\nenabled = false\n")
    return root


@pytest.mark.parametrize("name", sorted(snippets()))
async def test_snippet_starts_codenav_and_answers(name: str, repo: Path, tmp_path: Path) -> None:
    lang, body = snippets()[name]
    command, args, env = launch_of(name, lang, body)
    assert command == "codenav", "snippets name the command `codenav`"
    assert any(p in arg for arg in args for p in PLACEHOLDERS), f"{name} names no repository"
    for placeholder in PLACEHOLDERS:
        args = [arg.replace(placeholder, str(repo)) for arg in args]
    executable = Path(sys.executable).parent / "codenav"  # the installed console script
    assert executable.exists(), executable
    params = StdioServerParameters(command=str(executable), args=args, cwd=str(tmp_path),
                                   env={**env, "XDG_CONFIG_HOME": str(tmp_path / "config")})
    with (tmp_path / "stderr.log").open("w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write), \
                ClientSession(read, write) as session:
            init = await session.initialize()
            assert init.server_info.name == "codenav"
            listed = await session.list_tools()
            assert [tool.name for tool in listed.tools] == [tool.name for tool in TOOLS]
            with anyio.fail_after(60):  # the first launch builds the map in the background
                while True:
                    result = await session.call_tool("map_search", {"query": "Session.request"})
                    envelope: dict[str, Any] = json.loads(result.content[0].text)
                    if envelope["ok"] or envelope["error"]["code"] != "MAP_NOT_BUILT":
                        break
                    await anyio.sleep(0.1)
    assert envelope == result.structured_content and result.is_error is False, envelope
    assert envelope["data"]["results"][0].startswith(
        "py:src/app/http.py#Session.request method")
    assert envelope["tokenBudget"]["used"] <= 2000  # the default: no budget was set
    assert "Traceback" not in (tmp_path / "stderr.log").read_text()
