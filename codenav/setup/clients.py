"""The MCP clients ``codenav setup`` writes for: where each keeps its servers, in which
format, under which keys, and what its entry for codenav says.

Formats as each client documents them (docs/clients.md cites the pages):

- Claude Code: ``.mcp.json`` in the project, ``~/.claude.json`` for the user (``--scope
  user``); ``{"mcpServers": {name: {"command", "args"}}}``. Its ``${VAR}`` expansion is not
  needed: codenav reads ``CLAUDE_PROJECT_DIR`` itself (codenav/roots.py).
- Cursor: ``.cursor/mcp.json`` / ``~/.cursor/mcp.json``; ``mcpServers``; ``${workspaceFolder}``
  is interpolated.
- VS Code: ``.vscode/mcp.json`` / the user profile's ``mcp.json``; ``{"servers": {name:
  {"type": "stdio", "command", "args"}}}``; ``${workspaceFolder}`` is the open folder.
- Codex CLI: ``~/.codex/config.toml`` (``$CODEX_HOME``), or ``.codex/config.toml`` of a
  trusted project; ``[mcp_servers.<name>]`` with ``command`` and ``args``.
- Zed: ``~/.config/zed/settings.json`` / ``.zed/settings.json`` (JSON with comments);
  ``{"context_servers": {name: {"source": "custom", "command", "args", "env"}}}``.

The root: a project's file names its folder (the client's variable where it has one, else
the absolute path); a user's file names none, so that codenav takes the client's roots, else
the folder the client starts it in (codenav/roots.py).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["CLIENTS", "Client", "Target", "target_for"]

SERVER_NAME = "codenav"


@dataclass(frozen=True, slots=True)
class Client:
    name: str
    title: str
    format: str  # json | toml
    keys: tuple[str, ...]  # where the servers are: ("mcpServers",)
    project_file: str | None  # relative to the root
    default_scope: str  # project | user
    workspace_variable: str | None = None  # the client's name for the open folder
    names_root: bool = True  # False: codenav finds the project from what the client sets
    fields: tuple[tuple[str, Any], ...] = ()  # what the entry says besides command and args
    after: str = ""  # what the user does next


CLIENTS: dict[str, Client] = {c.name: c for c in (
    Client("claude-code", "Claude Code", "json", ("mcpServers",), ".mcp.json", "project",
           names_root=False,
           after="Start Claude Code in the project (`claude`), approve the project's server "
                 "when asked, and check it with /mcp."),
    Client("cursor", "Cursor", "json", ("mcpServers",), ".cursor/mcp.json", "project",
           workspace_variable="${workspaceFolder}",
           after="Cursor picks the file up (Settings → MCP shows codenav)."),
    Client("vscode", "VS Code", "json", ("servers",), ".vscode/mcp.json", "project",
           workspace_variable="${workspaceFolder}", fields=(("type", "stdio"),),
           after="In VS Code, `MCP: List Servers` shows codenav; start it from there or in "
                 "Copilot's agent mode."),
    Client("codex", "Codex CLI", "toml", ("mcp_servers",), ".codex/config.toml", "user",
           after="Run `codex` in the project; /mcp lists codenav. (Codex reads a project's "
                 ".codex/config.toml only in a project you trusted.)"),
    Client("zed", "Zed", "json", ("context_servers",), ".zed/settings.json", "user",
           fields=(("source", "custom"),),
           after="Zed restarts the server when its settings change; the agent panel's "
                 "settings show it."),
    Client("generic", "any MCP client", "json", ("mcpServers",), None, "project",
           after="Paste the entry where your client keeps its MCP servers (Claude Desktop's "
                 "claude_desktop_config.json, Windsurf, Cline … take this shape)."),
)}


@dataclass(frozen=True, slots=True)
class Target:
    """What to write: the file, the format, the keys, and codenav's entry."""

    client: Client
    scope: str
    path: Path | None  # None: printed only (generic without --file)
    entry: dict[str, Any]

    @property
    def keys(self) -> tuple[str, ...]:
        return (*self.client.keys, SERVER_NAME)


def _home(env: Mapping[str, str]) -> Path:
    return Path(env.get("HOME") or Path.home())


def _config_home(env: Mapping[str, str]) -> Path:
    return Path(env.get("XDG_CONFIG_HOME") or _home(env) / ".config")


def user_file(client: Client, env: Mapping[str, str] | None = None) -> Path | None:
    """Where ``client`` keeps the user's own servers."""
    env = os.environ if env is None else env
    home = _home(env)
    if client.name == "claude-code":
        return home / ".claude.json"
    if client.name == "cursor":
        return home / ".cursor" / "mcp.json"
    if client.name == "vscode":
        if sys.platform == "darwin":
            return home / "Library" / "Application Support" / "Code" / "User" / "mcp.json"
        if sys.platform == "win32":
            return Path(env.get("APPDATA") or home) / "Code" / "User" / "mcp.json"
        return _config_home(env) / "Code" / "User" / "mcp.json"
    if client.name == "codex":
        return Path(env.get("CODEX_HOME") or home / ".codex") / "config.toml"
    if client.name == "zed":
        return _config_home(env) / "zed" / "settings.json"
    return None


def target_for(client: Client, scope: str, root: Path, executable: Path,
               file: Path | None = None, env: Mapping[str, str] | None = None) -> Target:
    """The file and entry for ``client`` in ``scope`` (project: ``root``'s file)."""
    args = ["mcp"]
    if scope == "project" and client.names_root:
        args.append(client.workspace_variable or str(root))
    entry: dict[str, Any] = dict(client.fields)
    entry.update(command=str(executable), args=args)
    if client.name == "zed":
        entry["env"] = {}
    if client.name == "generic":
        path = file
    elif scope == "project":
        assert client.project_file is not None
        path = root / client.project_file
    else:
        path = user_file(client, env)
    return Target(client, scope, path, entry)
