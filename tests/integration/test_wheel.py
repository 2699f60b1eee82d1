"""A plain (non-editable) install must carry the grammars and index a repository."""

from __future__ import annotations

import json
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

from tests.conftest import write_tree

CHECKOUT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def test_wheel_ships_grammars_and_indexes_from_a_fresh_virtualenv(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
         "-w", str(wheels), str(CHECKOUT)],
        capture_output=True, text=True, timeout=300, check=False)
    assert built.returncode == 0, built.stdout + built.stderr
    (wheel,) = wheels.glob("codenav_map-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {"codenav/grammars/python/language.toml", "codenav/grammars/python/tags.scm",
            "codenav/store/schema.sql"} <= names

    # A fresh virtualenv that sees this environment's dependencies but not the checkout.
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=False)
    python = env_dir / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path("
                                "'purelib'))"], capture_output=True, text=True,
                               check=True).stdout.strip())
    (site / "deps.pth").write_text(sysconfig.get_path("purelib") + "\n")
    installed = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps",
         "--no-index", str(wheel)], capture_output=True, text=True, timeout=300, check=False)
    assert installed.returncode == 0, installed.stdout + installed.stderr

    repo = write_tree(tmp_path / "repo", {"app.py": "def main():\n    return helper()\n\n\n"
                                                    "def helper():\n    return 1\n"})
    where = subprocess.run(
        [str(python), "-c", "import codenav, codenav.index.languages as l; "
         "print(codenav.__file__); print(l.grammars_dir())"],
        capture_output=True, text=True, cwd=tmp_path, check=True).stdout.split()
    assert all(path.startswith(str(env_dir)) for path in where), where
    done = subprocess.run([str(env_dir / "bin" / "codenav"), "index", str(repo), "--json"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["parsed"] == 1 and summary["nodes"] == 3
