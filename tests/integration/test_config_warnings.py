"""A configuration that strays speaks up where a user looks: stderr, map_status, and
`codenav servers` — each naming the file, the line and the key."""

from __future__ import annotations

import json
import os
from pathlib import Path

from codenav.index.pipeline import index_tree
from tests.conftest import run_codenav, write_tree

CONFIG = "[lsp.pyhton]\nenabled = false\n\n[lsp.python]\ncomand = ['x']\nenabled = 'no'\n"


def test_config_warnings_reach_stderr_map_status_and_servers(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo", {"a.py": "def f():\n    return 1\n"})
    index_tree(root)
    config = tmp_path / "config" / "codenav" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(CONFIG)
    env = {"XDG_CONFIG_HOME": str(tmp_path / "config"),
           "PATH": os.environ.get("PATH", "")}
    expected = [f"{config}:1: lsp.pyhton: unknown language family",
                f"{config}:5: lsp.python.comand: unknown key",
                f"{config}:6: lsp.python.enabled: input should be a valid boolean"]

    status = run_codenav("status", str(root), env=env)
    for line in expected:
        assert line in status.stderr, status.stderr
    data = json.loads(status.stdout)
    shown = data["data"]["config"]["warnings"]
    for line in expected:
        assert any(w.startswith(line) for w in shown), shown
    assert any("do not apply" in w for w in data["warnings"])

    servers = run_codenav("servers", "--root", str(root), env=env)
    assert servers.returncode == 0
    for line in expected:
        assert line in servers.stdout, servers.stdout
    # the broken table applied nothing; python's default server is still listed
    assert "disabled" not in servers.stdout.split("\n", 1)[0]
