"""Hostile repositories, written on demand: what a cloned or unpacked tree nobody vetted can
hold to make codenav run a program, write outside its map, spend unbounded time or crash.

Each function writes one case under ``root`` and returns what a test needs to check it (a
marker path that must never appear, a database that must stay byte for byte the same …).
``build_all`` writes every case into one tree (the integration tests index it for real).
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "HostileTree",
    "bom_file",
    "build_all",
    "cr_only_file",
    "crafted_map",
    "deep_attribute_chain",
    "deep_call_nesting",
    "device_link",
    "fake_interpreter",
    "fake_typescript",
    "fifo",
    "fifo_source",
    "hostile_git_config",
    "other_apps_database",
    "repo_config_command",
    "symlinked_map",
    "undecodable_file_name",
]

DEEP = 50_000  # nesting depth of the deep cases (~100 KB files)


def _marker_command(marker: Path) -> list[str]:
    """A "language server" that leaves ``marker`` behind if it is ever run."""
    return ["sh", "-c", f"touch {marker}; exec sleep 60"]


def repo_config_command(root: Path, marker: Path, *, pyproject: bool = False) -> Path:
    """Repository configuration naming a language-server command (and settings) that would
    create ``marker``."""
    command = ", ".join(f'"{part}"' for part in _marker_command(marker))
    if pyproject:
        (root / "pyproject.toml").write_text(
            f"[project]\nname = \"victim\"\n\n[tool.codenav.lsp.python]\ncommand = [{command}]\n",
            encoding="utf-8")
    else:
        (root / ".codenav").mkdir(parents=True, exist_ok=True)
        (root / ".codenav" / "config.toml").write_text(
            f"[lsp.python]\ncommand = [{command}]\n"
            "settings = { python = { pythonPath = \"./evil-python\" } }\n", encoding="utf-8")
    return marker


def hostile_git_config(root: Path, marker: Path) -> Path:
    """A git work tree whose own ``.git/config`` names an fsmonitor hook creating
    ``marker`` (what an unpacked tarball can ship; ``git ls-files`` runs it)."""
    env = {**os.environ, "GIT_AUTHOR_NAME": "x", "GIT_AUTHOR_EMAIL": "x@example.com",
           "GIT_COMMITTER_NAME": "x", "GIT_COMMITTER_EMAIL": "x@example.com"}
    subprocess.run(["git", "init", "-q"], cwd=root, check=True, env=env)
    (root / "tracked.py").write_text("def tracked():\n    return 1\n", encoding="utf-8")
    subprocess.run(["git", "add", "tracked.py"], cwd=root, check=True, env=env)
    subprocess.run(["git", "commit", "-qm", "init"], cwd=root, check=True, env=env)
    hook = root / ".git" / "fsmonitor-hook"
    hook.write_text(f"#!/bin/sh\ntouch {marker}\n", encoding="utf-8")
    hook.chmod(0o755)
    subprocess.run(["git", "config", "core.fsmonitor", str(hook)], cwd=root, check=True)
    return marker


def other_apps_database(path: Path) -> bytes:
    """Another application's SQLite database (a low user_version, tables of its own); its
    bytes, which must never change."""
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE accounts (id INTEGER PRIMARY KEY, owner TEXT, balance REAL)")
    conn.executemany("INSERT INTO accounts (owner, balance) VALUES (?, ?)",
                     [("ann", 10.0), ("bob", 20.5)])
    conn.execute("PRAGMA user_version=1")
    conn.commit()
    conn.close()
    return path.read_bytes()


def symlinked_map(root: Path, victim: Path, *, folder: bool = True) -> bytes:
    """``.codenav`` (``folder``) or ``.codenav/map.db`` as a symlink to another application's
    database outside the root; the victim's bytes."""
    before = other_apps_database(victim / "map.db" if folder else victim)
    if folder:
        (root / ".codenav").symlink_to(victim, target_is_directory=True)
    else:
        (root / ".codenav").mkdir(exist_ok=True)
        (root / ".codenav" / "map.db").symlink_to(victim)
    return before


def deep_attribute_chain(root: Path, depth: int = DEEP) -> Path:
    """``c = a.b.b.b…`` nested ``depth`` deep (~2 bytes a level)."""
    path = root / "deep_attr.py"
    path.write_text("c = a" + ".b" * depth + "\n", encoding="utf-8")
    return path


def deep_call_nesting(root: Path, depth: int = DEEP) -> Path:
    """``x = g(g(…g(1)…))`` nested ``depth`` deep."""
    path = root / "deep_call.py"
    path.write_text("x = " + "g(" * depth + "1" + ")" * depth + "\n", encoding="utf-8")
    return path


def undecodable_file_name(root: Path) -> Path:
    """A Python file whose name is not valid UTF-8 (byte 0xff)."""
    path = Path(os.fsdecode(os.fsencode(root) + b"/bad\xffname.py"))
    path.write_text("def from_a_bad_name():\n    return 1\n", encoding="utf-8")
    return path


def fifo_source(root: Path) -> Path:
    """A FIFO named like a source file: reading it would block forever."""
    path = root / "pipe.py"
    os.mkfifo(path)
    return path


def bom_file(root: Path) -> Path:
    """A file starting with a UTF-8 byte-order mark, its first line defining ``first``."""
    path = root / "bom.py"
    path.write_bytes(b"\xef\xbb\xbfdef first():\n    return 1\n\n\n"
                     b"def second():\n    return first()\n")
    return path


def cr_only_file(root: Path) -> Path:
    """A file whose lines end in a lone carriage return (classic Mac)."""
    path = root / "cr_only.py"
    path.write_bytes(b"def one():\r    return 1\r\r\rdef two():\r    return one()\r")
    return path


def _script_marking(marker: Path, then: str) -> str:
    """A shell script that leaves ``marker`` (with its arguments) and then runs ``then``."""
    return f'#!/bin/sh\necho "$0 $*" >> {marker}\nexec {then} "$@"\n'


def fake_interpreter(root: Path, marker: Path, real_python: str) -> Path:
    """A virtualenv in the repository (``.venv``) whose ``bin/python`` leaves ``marker`` and
    then runs the real interpreter (so that whatever asked it still gets an answer):
    pyright's search-path probe runs it when nothing else names an interpreter."""
    venv = root / ".venv"
    (venv / "bin").mkdir(parents=True, exist_ok=True)
    (venv / "pyvenv.cfg").write_text(f"home = {Path(real_python).parent}\n", encoding="utf-8")
    for name in ("python", "python3"):
        script = venv / "bin" / name
        script.write_text(_script_marking(marker, real_python), encoding="utf-8")
        script.chmod(0o755)
    return marker


def fake_typescript(folder: Path, marker: Path, real_tsserver: Path, *,
                    layout: str = "node_modules/typescript") -> Path:
    """A TypeScript under ``folder`` (``layout``: ``node_modules/typescript``,
    ``.yarn/sdks/typescript``, ``.vscode/pnpify/typescript``) whose ``lib/tsserver.js`` leaves
    ``marker`` and then runs the real tsserver, with a package.json carrying a version:
    typescript-language-server prefers a workspace's TypeScript over its own."""
    package = folder / layout
    (package / "lib").mkdir(parents=True, exist_ok=True)
    (package / "package.json").write_text('{"name": "typescript", "version": "5.9.3"}\n',
                                          encoding="utf-8")
    mark = f"require('fs').appendFileSync({json.dumps(str(marker))}, process.argv.join(' '));"
    (package / "lib" / "tsserver.js").write_text(
        f"{mark}\nrequire({json.dumps(str(real_tsserver))});\n", encoding="utf-8")
    return marker


def crafted_map(root: Path, rel: str, target: str, *, keep_stamp: bool = False) -> None:
    """Point the indexed file ``rel`` of ``root``'s map at ``target`` (an absolute path
    outside the root, or one that climbs out with ``..``), as a map shipped in a repository
    can: its nodes then name bytes of that file. Without ``keep_stamp`` the map loses this
    machine's stamp too, as any map made elsewhere has none."""
    conn = sqlite3.connect(root / ".codenav" / "map.db")
    with conn:
        conn.execute("UPDATE files SET path = ? WHERE path = ?", (target, rel))
        if not keep_stamp:
            conn.execute("DELETE FROM meta WHERE key IN ('origin', 'map_id')")
    conn.close()


def fifo(path: Path) -> Path:
    """A FIFO at ``path`` (a project file made to block whoever opens it for reading)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.unlink(missing_ok=True)
    os.mkfifo(path)
    return path


def device_link(path: Path, device: str = "/dev/zero") -> Path:
    """``path`` as a symlink to a device that never ends (or never answers)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.unlink(missing_ok=True)
    path.symlink_to(device)
    return path


@dataclass
class HostileTree:
    root: Path
    config_marker: Path
    git_marker: Path
    victim_db: Path
    victim_bytes: bytes


def build_all(root: Path, outside: Path) -> HostileTree:
    """Every case in one tree at ``root`` (markers and the victim database in ``outside``,
    which must be outside ``root``). The map folder is symlinked away, so index such a tree
    with ``--db`` pointing somewhere of the test's own."""
    root.mkdir(parents=True, exist_ok=True)
    outside.mkdir(parents=True, exist_ok=True)
    git_marker = hostile_git_config(root, outside / "git-ran-a-program")
    config_marker = repo_config_command(root, outside / "config-ran-a-program")
    victim = outside / "victim"
    victim_bytes = symlinked_map(root, victim, folder=False)
    deep_attribute_chain(root)
    deep_call_nesting(root)
    undecodable_file_name(root)
    fifo_source(root)
    bom_file(root)
    cr_only_file(root)
    return HostileTree(root, config_marker, git_marker, victim, victim_bytes)
