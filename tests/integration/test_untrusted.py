"""A cloned repository nobody trusted, met by real language servers and the real ``codenav``
commands: nothing in it runs (its interpreter, its TypeScript), a map shipped in it is never
served, and its project files cannot hang or exhaust codenav. Each route has the trusted
counterpart where trust changes the outcome, so that every fixture is shown to bite."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession

from codenav.lsp.servers import bundled_tsserver, find_command
from tests import hostile
from tests.conftest import envelope, mcp_session, run_codenav, write_tree

pytestmark = pytest.mark.anyio

PY_SOURCES = {"pkg/__init__.py": "",
              "pkg/a.py": "def helper(x):\n    return x\n\n\ndef main():\n    return helper(1)\n"}
TS_SOURCES = {"tsconfig.json": '{"compilerOptions": {"strict": true}}\n',
              "src/a.ts": "export function helper(x: number): number {\n  return x;\n}\n\n"
                          "export function main(): number {\n  return helper(1);\n}\n"}
HOVER_PY = json.dumps({"file": "pkg/a.py", "line": 6, "col": 12, "source": "lsp"})
HOVER_TS = json.dumps({"file": "src/a.ts", "line": 6, "col": 10, "source": "lsp"})
SECRET = "TOP-SECRET"  # every line of the file outside the root starts with it


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(autouse=True)
def untrusting_user(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A user configuration of the test's own: nothing trusted, no map trusted."""
    config = tmp_path / "user-config"
    config.mkdir()
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config))
    for name in ("CODENAV_TRUST_PROJECT_CONFIG", "CODENAV_TRUST_MAP", "CODENAV_DB"):
        monkeypatch.delenv(name, raising=False)


def _server(command: str) -> str:
    found = find_command((command,))
    if found is None:
        pytest.skip(f"{command} is not installed (scripts/test.sh installs it)")
    return found[0]


async def poll(session: ClientSession, tool: str, args: dict[str, Any], done: Any,
               seconds: float = 60) -> dict[str, Any]:
    with anyio.fail_after(seconds):
        while True:
            answer = envelope(await session.call_tool(tool, args))
            if done(answer):
                return answer
            await anyio.sleep(0.1)


def _server_row(status: dict[str, Any], family: str) -> dict[str, Any]:
    rows = status["data"]["lsp"].get("servers", [])
    return next(row for row in rows if row["family"] == family)


# ------------------------------------------------------- 1. the repository's interpreter

@pytest.mark.parametrize("how", [".venv", "pyrightconfig.json"])
def test_basedpyright_never_runs_the_repositorys_interpreter(tmp_path: Path, how: str) -> None:
    _server("basedpyright-langserver")
    root = write_tree(tmp_path / "repo", PY_SOURCES)
    marker = hostile.fake_interpreter(root, tmp_path / "interpreter-ran", sys.executable)
    if how == "pyrightconfig.json":  # the repository names its virtualenv: only read
        (root / ".venv").rename(root / "env")
        (root / how).write_text('{"venvPath": ".", "venv": "env"}\n', encoding="utf-8")
    assert run_codenav("index", root).returncode == 0
    hover = run_codenav("call", "nav_hover", HOVER_PY, "--root", root, timeout=90)
    answer = json.loads(hover.stdout)
    assert answer["ok"] and answer["data"]["source"] == "lsp", hover.stdout + hover.stderr
    assert "helper" in answer["data"]["hover"]
    assert not marker.exists(), marker.read_text()
    if how == ".venv":  # what trust changes: the project's own interpreter answers
        trusted = run_codenav("call", "nav_hover", HOVER_PY, "--root", root,
                              "--trust-project-config", timeout=90)
        assert json.loads(trusted.stdout)["ok"], trusted.stderr
        assert marker.exists(), "a trusted project's interpreter should answer"


async def test_under_mcp_the_started_server_runs_nothing_and_says_what_it_withheld(
        tmp_path: Path) -> None:
    _server("basedpyright-langserver")
    root = write_tree(tmp_path / "repo", PY_SOURCES)
    marker = hostile.fake_interpreter(root, tmp_path / "interpreter-ran", sys.executable)
    async with mcp_session(root) as session:  # servers start once the first map is built
        status = await poll(session, "map_status", {}, lambda a: a["data"].get("built") and
                            _server_row(a, "python")["state"] == "ready")
        row = _server_row(status, "python")
        assert row["server"] == "basedpyright"
        assert ".venv/bin/python" in row["withheld"]
    assert not marker.exists(), marker.read_text()


# ------------------------------------------------------- 2. the repository's TypeScript

@pytest.mark.parametrize("where", ["node_modules/typescript", ".yarn/sdks/typescript",
                                   "parent:node_modules/typescript"])
def test_typescript_language_server_never_loads_the_repositorys_typescript(
        tmp_path: Path, where: str) -> None:
    program = _server("typescript-language-server")
    root = write_tree(tmp_path / "parent" / "repo", TS_SOURCES)
    real = bundled_tsserver(program, root)
    assert real is not None, "codenav servers install typescript puts one beside the server"
    folder = root.parent if where.startswith("parent:") else root
    marker = hostile.fake_typescript(folder, tmp_path / "typescript-ran", real,
                                     layout=where.removeprefix("parent:"))
    assert run_codenav("index", root).returncode == 0
    hover = run_codenav("call", "nav_hover", HOVER_TS, "--root", root, timeout=90)
    answer = json.loads(hover.stdout)
    assert answer["ok"] and answer["data"]["source"] == "lsp", hover.stdout + hover.stderr
    assert "helper" in answer["data"]["hover"]
    assert not marker.exists(), marker.read_text()
    status = json.loads(run_codenav("status", root).stdout)
    assert "node_modules/typescript" in _server_row(status, "typescript")["withheld"]
    trusted = run_codenav("call", "nav_hover", HOVER_TS, "--root", root,
                          "--trust-project-config", timeout=90)
    assert json.loads(trusted.stdout)["ok"], trusted.stderr
    assert marker.exists(), "a trusted project's TypeScript should be the one loaded"


def test_a_tsconfig_plugin_in_the_repository_is_not_loaded(tmp_path: Path) -> None:
    _server("typescript-language-server")
    marker = tmp_path / "plugin-loaded"
    plugin = ("require('fs').writeFileSync(" + json.dumps(str(marker)) + ", 'loaded');\n"
              "module.exports = () => ({create: (info) => info.languageService});\n")
    root = write_tree(tmp_path / "repo", {
        **TS_SOURCES,
        "tsconfig.json": '{"compilerOptions": {"plugins": [{"name": "evil-plugin"}]}}\n',
        "node_modules/evil-plugin/package.json": '{"name": "evil-plugin", "main": "index.js"}',
        "node_modules/evil-plugin/index.js": plugin})
    assert run_codenav("index", root).returncode == 0
    hover = run_codenav("call", "nav_hover", HOVER_TS, "--root", root, timeout=90)
    assert json.loads(hover.stdout)["ok"], hover.stdout + hover.stderr
    assert not marker.exists()


# ------------------------------------------------------- 3. a map shipped in the repository

def _leaky(tmp_path: Path, target: str) -> tuple[Path, Path]:
    """A repository whose map points its file leak.py (defining ``leakabs``) at ``target``,
    and the secret file outside the root (same length, so the node's bytes fall in it)."""
    leak = "def leakabs():\n    return 1\n" + "# padding\n" * 20
    secret = tmp_path / "outside" / "secret.py"
    secret.parent.mkdir()
    secret.write_text((SECRET + "-" + "x" * 40 + "\n") * 8, encoding="utf-8")
    root = write_tree(tmp_path / "repo" / "a" / "b", {"leak.py": leak, "main.py":
                                                     "from leak import leakabs\nleakabs()\n"})
    assert run_codenav("index", root).returncode == 0
    hostile.crafted_map(root, "leak.py", target.replace("SECRET", str(secret)))
    return root, secret


TARGETS = {"absolute": "SECRET", "climbing": "../../../outside/secret.py"}
LEAK_CALLS = [("map_node", {"symbol": "leakabs", "include": ["source"]}),
              ("nav_definition", {"symbol": "leakabs", "source": "map", "detail": "full"}),
              ("nav_references", {"symbol": "leakabs", "source": "map"}),
              ("map_outline", {"file": "main.py"})]


@pytest.mark.parametrize("target", TARGETS.values(), ids=TARGETS.keys())
def test_a_shipped_map_is_not_served_and_leaks_nothing(tmp_path: Path, target: str) -> None:
    root, _ = _leaky(tmp_path, target)
    for tool, args in LEAK_CALLS:
        for flags in ([], ["--trust-map"]):
            done = run_codenav("call", tool, json.dumps(args), "--root", root, *flags)
            assert SECRET not in done.stdout + done.stderr, (tool, flags)
            answer = json.loads(done.stdout)
            assert not answer["ok"] and answer["error"]["code"] == "MAP_NOT_BUILT", answer
            expected = "not codenav's to serve" if flags else "not written by codenav"
            assert expected in answer["error"]["message"]
    refused = run_codenav("index", root, "--trust-map")  # the user vouched for it: exit 2
    assert refused.returncode == 2 and "outside the root" in refused.stderr, refused.stderr
    checked = run_codenav("index", root, "--check")
    assert checked.returncode == 1 and "not written by codenav" in checked.stdout
    rebuilt = run_codenav("index", root)  # no trust: rebuilt from nothing
    assert rebuilt.returncode == 0, rebuilt.stderr
    conn = sqlite3.connect(root / ".codenav" / "map.db")
    paths = {path for (path,) in conn.execute("SELECT path FROM files")}
    conn.close()
    assert paths == {"leak.py", "main.py"}
    node = json.loads(run_codenav("call", "map_node", json.dumps(LEAK_CALLS[0][1]),
                                  "--root", root).stdout)
    assert node["ok"] and node["data"]["source"].startswith("def leakabs")


@pytest.mark.parametrize("target", TARGETS.values(), ids=TARGETS.keys())
async def test_mcp_rebuilds_a_shipped_map_before_serving_it(tmp_path: Path,
                                                            target: str) -> None:
    root, _ = _leaky(tmp_path, target)
    async with mcp_session(root, "--force-root", str(root), "--lsp", "off") as session:
        first = envelope(await session.call_tool(*LEAK_CALLS[0]))
        assert SECRET not in json.dumps(first)
        node = await poll(session, *LEAK_CALLS[0], lambda a: a["ok"])
        assert node["data"]["source"].startswith("def leakabs")
        for tool, args in LEAK_CALLS:
            assert SECRET not in json.dumps(envelope(await session.call_tool(tool, args)))


@pytest.mark.parametrize("target", TARGETS.values(), ids=TARGETS.keys())
def test_paths_read_from_the_map_are_checked_even_in_a_stamped_map(tmp_path: Path,
                                                                  target: str) -> None:
    """The stamp says who wrote the map, not that nothing changed it since (a restored
    cache, a companion file): every path read from it is checked like an argument."""
    root, secret = _leaky(tmp_path, target)
    conn = sqlite3.connect(root / ".codenav" / "map.db")
    conn.execute("DELETE FROM meta WHERE key IN ('origin', 'map_id')")
    conn.commit()
    conn.close()
    assert run_codenav("index", root).returncode == 0  # stamped again, rows rebuilt …
    hostile.crafted_map(root, "leak.py", target.replace("SECRET", str(secret)),
                        keep_stamp=True)  # … and then bent
    for tool, args in LEAK_CALLS:
        done = run_codenav("call", tool, json.dumps(args), "--root", root, "--lsp", "off")
        assert SECRET not in done.stdout + done.stderr, (tool, done.stdout)


# ------------------------------------------------------- 4. project files made to hang

def _fifo_tree(tmp_path: Path, where: str, git: bool) -> Path:
    root = write_tree(tmp_path / "repo", {**PY_SOURCES, "sub/b.py": "def b():\n    return 2\n"})
    if git:
        subprocess.run(["git", "init", "-q"], cwd=root, check=True)
        subprocess.run(["git", "add", "-A"], cwd=root, check=True)
    if where.endswith("/dev/zero"):
        hostile.device_link(root / where.split(" ->")[0])
    else:
        hostile.fifo(root / where)
    return root


PROJECT_FILES = ["pyproject.toml", ".codenav/config.toml", ".gitignore", "sub/.gitignore",
                 ".git/HEAD", "pyproject.toml -> /dev/zero", ".gitignore -> /dev/zero"]


@pytest.mark.parametrize("where", PROJECT_FILES)
def test_a_project_file_that_is_not_a_file_is_ignored_and_nothing_hangs(
        tmp_path: Path, where: str) -> None:
    root = _fifo_tree(tmp_path, where, git=True)
    indexed = run_codenav("index", root, "--json", timeout=45)
    assert indexed.returncode == 0 and "Traceback" not in indexed.stderr, indexed.stderr
    assert json.loads(indexed.stdout)["parsed"] == 3
    status = run_codenav("call", "map_status", "{}", "--root", root, timeout=45)
    assert json.loads(status.stdout)["ok"] and "Traceback" not in status.stderr
    if not where.startswith(".git/"):
        assert "codenav ignores it" in indexed.stderr + status.stderr
    walked = _fifo_tree(tmp_path / "walk", where, git=False) if not where.startswith(".git/") \
        else None
    if walked is not None:  # outside git: codenav's own walk reads the same files
        again = run_codenav("index", walked, "--json", timeout=45)
        assert again.returncode == 0 and "Traceback" not in again.stderr, again.stderr


@pytest.mark.parametrize("where", ["pyproject.toml", ".codenav/config.toml", ".gitignore"])
async def test_mcp_answers_and_exits_with_a_fifo_for_a_project_file(tmp_path: Path,
                                                                   where: str) -> None:
    root = _fifo_tree(tmp_path, where, git=True)
    async with mcp_session(root, "--lsp", "off") as session:
        status = await poll(session, "map_status", {}, lambda a: a["data"].get("built"))
        assert status["data"]["files"]["total"] == 3


def test_deep_nesting_in_a_project_file_is_not_a_crash(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo", {**PY_SOURCES,
                                          "pyproject.toml": "a = " + "[" * 100_000 + "\n"})
    indexed = run_codenav("index", root, timeout=60)
    assert indexed.returncode == 0 and "Traceback" not in indexed.stderr, indexed.stderr
    done = run_codenav("call", "map_overview", "{}", "--root", root, timeout=60)
    assert "Traceback" not in done.stderr, done.stderr
    assert json.loads(done.stdout)["ok"]


def test_a_map_file_linked_to_a_tracked_file_is_refused_and_the_file_kept(
        tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo", PY_SOURCES)
    (root / ".codenav").mkdir()
    (root / ".codenav" / "map.db").symlink_to(root / "pkg" / "__init__.py")
    for command in (["index", root], ["call", "map_status", "{}", "--root", root]):
        done = run_codenav(*command, timeout=60)
        assert done.returncode == 2 and "is a symlink" in done.stderr, done.stderr
    assert (root / "pkg" / "__init__.py").read_bytes() == b""
    (root / ".codenav" / "map.db").unlink()
    os.link(root / "pkg" / "__init__.py", root / ".codenav" / "map.db")
    done = run_codenav("index", root, timeout=60)
    assert done.returncode == 2 and "hard-linked" in done.stderr, done.stderr
    assert (root / "pkg" / "__init__.py").read_bytes() == b""


# Modules codenav and its children import, shadowed at a repository's root: each records that it
# ran and stops the interpreter. (Not `collections`: `python -m` itself imports it before any
# code of codenav runs — the `codenav` command and every child codenav starts never do.)
SHADOWS = ("json", "logging", "__future__", "re", "typing", "enum", "fnmatch", "pathlib",
           "sqlite3", "subprocess", "signal", "runpy", "asyncio", "tomllib")


def _shadowed(root: Path) -> Path:
    shadows = {f"{name}.py": f"open(__file__ + '.RAN', 'w').close()\n"
                             f"raise SystemExit('the repository ran: {name}')\n"
               for name in SHADOWS}
    return write_tree(root, {**shadows, **PY_SOURCES})


def _ran(root: Path) -> list[str]:
    return sorted(path.name for path in root.glob("*.RAN"))


def test_modules_named_like_the_standard_librarys_are_never_imported(tmp_path: Path) -> None:
    # rich has a `logging.py` at its package root: every parser process codenav started in it
    # imported that file instead of the standard library's (and died), so did `codenav warm`
    _server("basedpyright-langserver")  # (the warm server's part needs it)
    root = _shadowed(tmp_path / "repo")
    indexed = run_codenav("index", ".", cwd=root)  # `python -m codenav`, in the repository
    assert indexed.returncode == 0, indexed.stderr
    assert _ran(root) == []
    status = json.loads(run_codenav("status", "--root", root, cwd=root).stdout)
    assert status["data"]["files"]["byStatus"] == {"ok": len(SHADOWS) + 2}, status
    # a shell call starts `codenav warm` (and basedpyright under it) in the repository
    run = tmp_path / "run"
    run.mkdir(mode=0o700)
    env = {"CODENAV_WARM": "1", "XDG_RUNTIME_DIR": str(run), "CODENAV_WARM_IDLE": "20"}
    try:
        for _ in range(60):
            answer = json.loads(run_codenav("call", "nav_references", '{"symbol": "helper"}',
                                            cwd=root, env=env).stdout)
            if answer["data"]["source"] != "map":
                break
            time.sleep(1)
        assert answer["data"]["source"] != "map", answer  # a server answered: it ran
    finally:
        subprocess.run(["pkill", "-f", f" warm {root}"], check=False)
    assert _ran(root) == []


async def test_codenav_mcp_in_a_shadowing_repository_runs_none_of_it(tmp_path: Path) -> None:
    root = _shadowed(tmp_path / "repo")
    # started in the repository, as clients start it; it builds the map in a background
    # `codenav index` (the `python -m codenav` of the MCP session drops its folder first)
    async with mcp_session(root, cwd=root) as session:
        found = await poll(session, "map_search", {"query": "helper"},
                           lambda e: e["ok"] and e["data"]["results"])
        assert found["ok"]
    assert _ran(root) == []
