"""`codenav setup CLIENT` on a temporary HOME: each client's file is written where the client
reads it, parsed back in the shape the client documents (JSON keys, VS Code's `type: stdio`,
Codex's TOML table, Zed's JSON with comments), launched as the client would launch it
through the MCP SDK's own client, merged into a file that holds other things without
touching them, and never written when it cannot be parsed."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client

from codenav.setup.jsonc import parse as parse_jsonc
from tests.conftest import FIXTURES

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

pytestmark = [pytest.mark.anyio, pytest.mark.slow]

CODENAV = Path(sys.executable).parent / "codenav"  # the installed console script
# client -> (project file, user file under HOME, format, keys to the servers, what the
# entry must say besides command and args)
SHAPES: dict[str, tuple[str, str, str, tuple[str, ...], dict[str, Any]]] = {
    "claude-code": (".mcp.json", ".claude.json", "json", ("mcpServers",), {}),
    "cursor": (".cursor/mcp.json", ".cursor/mcp.json", "json", ("mcpServers",), {}),
    "vscode": (".vscode/mcp.json", ".config/Code/User/mcp.json", "jsonc", ("servers",),
               {"type": "stdio"}),
    "codex": (".codex/config.toml", ".codex/config.toml", "toml", ("mcp_servers",), {}),
    "zed": (".zed/settings.json", ".config/zed/settings.json", "jsonc",
            ("context_servers",), {"source": "custom"}),
}
# what the project's file names as the root
PROJECT_ROOT_ARG = {"claude-code": None, "cursor": "${workspaceFolder}",
                    "vscode": "${workspaceFolder}", "codex": "ROOT", "zed": "ROOT"}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def home(tmp_path: Path) -> Path:
    path = tmp_path / "home"
    path.mkdir()
    return path


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "work" / "repo"
    shutil.copytree(FIXTURES / "repos" / "example", root)
    (root / ".git").mkdir()
    (root / ".codenav").mkdir()  # no language server: each launch starts only codenav
    (root / ".codenav" / "config.toml").write_text("[lsp.python]\nenabled = false\n")
    return root


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("XDG_CONFIG_HOME", "CODEX_HOME", "CODENAV_DB", "CLAUDE_PROJECT_DIR")}
    env["HOME"] = str(home)
    return env


def setup(home: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(CODENAV), "setup", *args], cwd=cwd, env=_env(home),
                          capture_output=True, text=True, timeout=60, check=False)


def read_back(path: Path, fmt: str) -> Any:
    """The file as its client reads it."""
    text = path.read_text(encoding="utf-8")
    if fmt == "toml":
        return tomllib.loads(text)
    if fmt == "json":
        return json.loads(text)
    return parse_jsonc(text)  # Zed's settings allow comments and trailing commas


def entry_of(data: Any, keys: tuple[str, ...]) -> dict[str, Any]:
    for key in (*keys, "codenav"):
        data = data[key]
    assert isinstance(data, dict)
    return data


@pytest.mark.parametrize("client", sorted(SHAPES))
async def test_setup_writes_what_the_client_reads_and_it_answers(
        client: str, home: Path, project: Path, tmp_path: Path) -> None:
    project_file, user_file, fmt, keys, extra = SHAPES[client]
    done = setup(home, project, client, "--project")
    assert done.returncode == 0, done.stderr
    entry = entry_of(read_back(project / project_file, fmt), keys)
    assert Path(entry["command"]).is_absolute() and Path(entry["command"]).exists()
    for key, value in extra.items():
        assert entry[key] == value
    expected_root = PROJECT_ROOT_ARG[client]
    assert entry["args"] == (["mcp"] if expected_root is None else
                             ["mcp", str(project) if expected_root == "ROOT" else expected_root])

    done = setup(home, project, client, "--user")
    assert done.returncode == 0, done.stderr
    user_entry = entry_of(read_back(home / user_file, fmt), keys)
    assert user_entry["args"] == ["mcp"]  # no root: the client's roots, or where it starts
    assert user_entry["command"] == entry["command"]

    # launched as the client launches it: its variable expanded, started in the project
    args = [arg.replace("${workspaceFolder}", str(project)) for arg in entry["args"]]
    params = StdioServerParameters(command=entry["command"], args=args, cwd=str(project),
                                   env={**entry.get("env", {}), "HOME": str(home),
                                        "PATH": os.environ.get("PATH", "")})
    with (tmp_path / "stderr.log").open("w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write), \
                ClientSession(read, write) as session:
            await session.initialize()
            with anyio.fail_after(60):  # the first launch builds the map in the background
                while True:
                    result = await session.call_tool("map_search", {"query": "Session.request"})
                    envelope: dict[str, Any] = result.structured_content or {}
                    answered = envelope.get("ok") and not envelope["data"].get("building")
                    if answered or envelope.get("error", {}).get("code") not in (
                            None, "MAP_NOT_BUILT"):
                        break
                    await anyio.sleep(0.1)
            status = await session.call_tool("map_status", {})
    assert envelope["ok"], envelope
    assert envelope["data"]["results"][0].startswith("py:src/app/http.py#Session.request")
    assert (status.structured_content or {})["data"]["root"] == str(project)


MERGE_INTO = {
    "claude-code": ('{\n  "numStartups": 12,\n  "mcpServers": {\n    "other": {"command": "x"}'
                    '\n  },\n  "projects": {"/p": {"allowedTools": []}}\n}\n'),
    "vscode": ('{\n  // my servers\n  "inputs": [],\n  "servers": {\n    "other": '
               '{"type": "stdio", "command": "x"},\n  },\n}\n'),
    "zed": ('// Zed settings\n//\n// (the template Zed writes)\n{\n  "theme": "One Dark",'
            ' // dark\n  "ui_font_size": 16,\n}\n'),
    "codex": ('model = "o3"  # mine\n\n[mcp_servers.other]\ncommand = "x"\n\n'
              '[mcp_servers.codenav]\ncommand = "old"\nargs = [\n  "mcp",\n  "/old",\n]\n'
              'startup_timeout_sec = 30\n\n[mcp_servers.codenav.env]\nA = "1"\n'),
}


@pytest.mark.parametrize("client", sorted(MERGE_INTO))
def test_setup_keeps_everything_else_the_file_holds(client: str, home: Path,
                                                   project: Path) -> None:
    _, user_file, fmt, keys, _ = SHAPES[client]
    path = home / user_file
    path.parent.mkdir(parents=True, exist_ok=True)
    before_text = MERGE_INTO[client]
    path.write_text(before_text)
    path.chmod(0o600)
    before = read_back(path, fmt)

    dry = setup(home, project, client, "--user", "--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert path.read_text() == before_text  # a dry run writes nothing …
    assert "+" in dry.stdout and "codenav" in dry.stdout  # … and shows the change

    done = setup(home, project, client, "--user")
    assert done.returncode == 0, done.stderr
    after = read_back(path, fmt)
    entry = entry_of(after, keys)
    assert entry["command"] == str(CODENAV) and entry["args"] == ["mcp"]
    # everything else as it was: other servers, settings, the entry's own other keys
    old_entry = entry_of(before, keys) if "codenav" in before.get(keys[0], {}) else {}
    expected = json.loads(json.dumps(before))
    expected.setdefault(keys[0], {})["codenav"] = {**old_entry, **entry}
    assert after == expected
    for line in before_text.splitlines():  # comments and untouched lines kept verbatim
        if "//" in line or "#" in line or "other" in line:
            assert line in path.read_text(), line
    assert stat.S_IMODE(path.stat().st_mode) == 0o600  # permissions kept
    again = setup(home, project, client, "--user")
    assert again.returncode == 0 and "already" in again.stdout


@pytest.mark.parametrize(("client", "broken"), [
    ("claude-code", '{"mcpServers": {"other": {"command": "x"},}'),  # not closed
    ("vscode", '{\n  "servers": {\n    "a": {"command": x}\n  }\n}\n'),
    ("codex", '[mcp_servers.other]\ncommand = "x\n'),
    ("cursor", '["not", "an object"]'),
])
def test_a_file_that_cannot_be_parsed_is_never_written(client: str, broken: str, home: Path,
                                                      project: Path) -> None:
    _, user_file, _, _, _ = SHAPES[client]
    path = home / user_file
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(broken)
    done = setup(home, project, client, "--user")
    assert done.returncode == 1
    assert "nothing was written" in done.stderr and "codenav" in done.stderr  # the snippet
    assert path.read_text() == broken
    assert [p.name for p in path.parent.iterdir() if "codenav-tmp" in p.name] == []


def test_a_symlinked_file_stays_a_link(home: Path, project: Path, tmp_path: Path) -> None:
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    (dotfiles / "codex.toml").write_text('model = "o3"\n')
    (home / ".codex").mkdir()
    (home / ".codex" / "config.toml").symlink_to(dotfiles / "codex.toml")
    assert setup(home, project, "codex").returncode == 0  # codex: --user by default
    assert (home / ".codex" / "config.toml").is_symlink()
    data = tomllib.loads((dotfiles / "codex.toml").read_text())
    assert data["model"] == "o3" and data["mcp_servers"]["codenav"]["args"] == ["mcp"]


def test_generic_prints_the_entry_and_merges_into_a_named_file(home: Path,
                                                               project: Path) -> None:
    done = setup(home, project, "generic")
    assert done.returncode == 0
    entry = json.loads(done.stdout)["mcpServers"]["codenav"]
    assert entry["args"] == ["mcp", str(project)]
    desktop = home / "claude_desktop_config.json"
    desktop.write_text('{"globalShortcut": "x"}')
    assert setup(home, project, "generic", "--file", str(desktop)).returncode == 0
    data = json.loads(desktop.read_text())
    assert data["globalShortcut"] == "x" and data["mcpServers"]["codenav"] == entry


def test_a_project_file_in_the_home_folder_is_refused(home: Path) -> None:
    done = setup(home, home, "cursor", "--project")
    assert done.returncode == 2 and "home folder" in done.stderr
    assert not (home / ".cursor").exists()
