"""``codenav index`` as a user runs it: a real subprocess on a sample repository."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

from tests.conftest import run_codenav, write_tree

REPO = {
    "src/shop/__init__.py": '"""A tiny shop."""\nfrom .cart import Cart\n\n__all__ = ["Cart"]\n',
    "src/shop/cart.py": (
        "from .pricing import total\n\n\n"
        "class Cart:\n"
        '    """Items a customer is buying."""\n\n'
        "    def __init__(self):\n        self.items = []\n\n"
        "    def add(self, item):\n        self.items.append(item)\n\n"
        "    def price(self):\n        return total(self.items)\n"
    ),
    "src/shop/pricing.py": "TAX = 0.2\n\n\ndef total(items):\n    return sum(items) * (1 + TAX)\n",
    "tests/test_cart.py": "from shop.cart import Cart\n\n\ndef test_add():\n    Cart().add(1)\n",
    "README.md": "# shop\n",
}


def nids(root: Path) -> set[str]:
    conn = sqlite3.connect(root / ".codenav" / "map.db")
    try:
        return {nid for (nid,) in conn.execute("SELECT nid FROM nodes")}
    finally:
        conn.close()


def test_index_prints_a_summary_line_and_builds_the_map(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo", REPO)
    done = run_codenav("index", root)
    assert done.returncode == 0, done.stderr
    last = done.stdout.strip().splitlines()[-1]
    assert last.startswith(f"codenav index {root.resolve()}: 4 parsed, 0 unchanged, 0 removed, "
                           "0 skipped · ")
    assert last.endswith(" s") and " nodes · " in last and " refs · " in last
    assert done.stderr == ""  # no progress bar when stderr is not a terminal
    assert {"py:src/shop/cart.py#Cart.price", "py:src/shop/pricing.py#TAX",
            "py:tests/test_cart.py#test_add", "py:src/shop/__init__.py"} <= nids(root)


def test_json_summary_and_quiet(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo", REPO)
    done = run_codenav("index", root, "--json", "--jobs", "1")
    summary = json.loads(done.stdout)
    assert summary["parsed"] == 4 and summary["mode"] == "full" and summary["files"] == 4
    assert summary["db"] == str(root.resolve() / ".codenav" / "map.db")
    quiet = run_codenav("index", root, "--quiet")
    assert quiet.returncode == 0 and quiet.stdout == "" and quiet.stderr == ""


def test_incremental_edit_add_delete_and_check(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo", REPO)
    assert run_codenav("index", "--check", root).returncode == 1  # no map yet
    assert run_codenav("index", root).returncode == 0
    fresh = run_codenav("index", "--check", "--json", root)
    assert fresh.returncode == 0 and json.loads(fresh.stdout)["fresh"] is True

    time.sleep(0.01)
    write_tree(root, {"src/shop/pricing.py": REPO["src/shop/pricing.py"] + "\n\ndef discount():\n"
                      "    return 0\n", "src/shop/stock.py": "LEVEL = 3\n"})
    (root / "tests" / "test_cart.py").unlink()
    stale = run_codenav("index", "--check", root)
    assert stale.returncode == 1
    assert "1 changed, 1 added, 1 removed" in stale.stdout
    assert "changed: src/shop/pricing.py" in stale.stdout

    done = run_codenav("index", root, "--json")
    summary = json.loads(done.stdout)
    assert (summary["parsed"], summary["removed"], summary["mode"]) == (2, 1, "incremental")
    assert summary["unchanged"] == 2
    mapped = nids(root)
    assert "py:src/shop/pricing.py#discount" in mapped and "py:src/shop/stock.py#LEVEL" in mapped
    assert not any(n.startswith("py:tests/") for n in mapped)
    assert run_codenav("index", "--check", root).returncode == 0


def test_db_flag_and_environment(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo", REPO)
    elsewhere = tmp_path / "maps" / "shop.db"
    assert run_codenav("index", root, "--db", elsewhere, "--quiet").returncode == 0
    assert elsewhere.is_file() and not (root / ".codenav").exists()
    via_env = run_codenav("index", "--check", root, env={"CODENAV_DB": str(elsewhere)})
    assert via_env.returncode == 0


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    assert run_codenav("index", tmp_path / "nope").returncode == 2
    assert run_codenav("index", tmp_path, "--jobs", "0").returncode == 2
    assert run_codenav("index", tmp_path, "--bogus").returncode == 2
    assert run_codenav().returncode == 2


def test_a_map_from_a_newer_codenav_exits_1_with_a_clear_message(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo", REPO)
    run_codenav("index", root, "--quiet")
    conn = sqlite3.connect(root / ".codenav" / "map.db")
    conn.execute("PRAGMA user_version=999")
    conn.commit()
    conn.close()
    done = run_codenav("index", root)
    assert done.returncode == 1
    assert "MAP_NOT_BUILT" in done.stderr and "newer" in done.stderr
    assert "Traceback" not in done.stderr


def test_cwd_default_root(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo", REPO)
    done = run_codenav("index", "--quiet", cwd=root)
    assert done.returncode == 0, done.stderr
    assert (root / ".codenav" / "map.db").is_file()


def test_progress_bar_only_on_a_terminal(tmp_path: Path) -> None:
    import os
    import pty
    import subprocess
    import sys

    files = {f"m{i}.py": f"def f{i}():\n    return {i}\n" for i in range(60)}
    root = write_tree(tmp_path / "repo", files)
    leader, follower = pty.openpty()
    try:
        done = subprocess.run([sys.executable, "-m", "codenav", "index", str(root)],
                              stdout=subprocess.PIPE, stderr=follower, stdin=subprocess.DEVNULL,
                              timeout=120, check=False)
        os.close(follower)
        shown = b""
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:
                break
            if not chunk:
                break
            shown += chunk
    finally:
        os.close(leader)
    assert done.returncode == 0
    assert b"indexing" in shown  # the bar's label, drawn on the terminal
    assert done.stdout.decode().startswith(f"codenav index {root.resolve()}: 60 parsed")
