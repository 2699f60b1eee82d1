"""Node tools from the npm registry, installed on first use into the benchmark cache.

    python -m benchmarks.npm_tools            # install (if needed) and print the paths

Nothing is committed and nothing is installed globally: each tool set lives in its own npm
prefix under ``$CODENAV_BENCH_CACHE`` (default ``~/.cache/codenav-bench``), installed with
``npm install --prefix PREFIX --save-exact NAME@VERSION ...`` the first time it is asked
for, and reinstalled when an installed version differs from the pin. A file lock keeps
parallel callers (pytest workers, a benchmark beside a test) from installing twice.

Pins (Node 20 is what this machine class has): typescript-language-server 5.3.0 (the last
line that runs on Node >= 20; 6.x wants Node >= 22) with typescript 5.9.3 (a tsserver in
JavaScript; typescript 7 is the native port and ships no tsserver).
"""

from __future__ import annotations

import fcntl
import json
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

from benchmarks.corpora import cache_dir

__all__ = ["TSLS_PACKAGES", "ensure_npm_packages", "npm_prefix", "tsserver_path",
           "typescript_language_server", "typescript_language_server_command"]

TSLS_PACKAGES: Mapping[str, str] = {"typescript-language-server": "5.3.0",
                                     "typescript": "5.9.3"}


def npm_prefix(name: str) -> Path:
    return cache_dir() / name


def _installed(prefix: Path, packages: Mapping[str, str]) -> bool:
    for package, version in packages.items():
        manifest = prefix / "node_modules" / package / "package.json"
        try:
            if json.loads(manifest.read_text("utf-8")).get("version") != version:
                return False
        except (OSError, ValueError):
            return False
    return True


def ensure_npm_packages(name: str, packages: Mapping[str, str]) -> Path:
    """The prefix ``name`` with exactly these ``packages`` versions, installing them once."""
    prefix = npm_prefix(name)
    if _installed(prefix, packages):
        return prefix
    npm = shutil.which("npm")
    if npm is None:
        raise FileNotFoundError("npm not found; it installs the TypeScript language server")
    prefix.mkdir(parents=True, exist_ok=True)
    with open(prefix.parent / f".{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not _installed(prefix, packages):
            specs = [f"{package}@{version}" for package, version in packages.items()]
            subprocess.run([npm, "install", "--prefix", str(prefix), "--save-exact",
                            "--no-audit", "--no-fund", "--loglevel=error", *specs],
                           check=True, stdout=subprocess.DEVNULL)
        if not _installed(prefix, packages):
            raise RuntimeError(f"npm install into {prefix} did not give {dict(packages)}")
    return prefix


def typescript_language_server() -> Path:
    """The pinned ``typescript-language-server`` binary, installing it on first use."""
    return ensure_npm_packages("tsls", TSLS_PACKAGES) / "node_modules" / ".bin" / \
        "typescript-language-server"


def tsserver_path() -> Path:
    """The pinned typescript's ``lib/`` folder, for the server's ``tsserver.path`` option."""
    return ensure_npm_packages("tsls", TSLS_PACKAGES) / "node_modules" / "typescript" / "lib"


def typescript_language_server_command() -> list[str]:
    return [str(typescript_language_server()), "--stdio"]


if __name__ == "__main__":
    print(typescript_language_server())
    print(tsserver_path())
    sys.exit(0)
