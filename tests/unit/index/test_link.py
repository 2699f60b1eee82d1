"""Linking across files, on a sample repository: every resolved reference, as a golden."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from codenav.index.pipeline import index_tree
from tests.conftest import FIXTURES, check_golden
from tests.conftest import render_links as links

SHOP = FIXTURES / "repos" / "shop"


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    root = tmp_path / "shop"
    shutil.copytree(SHOP, root)
    index_tree(root)
    return root


def test_links_golden(shop: Path) -> None:
    check_golden(SHOP.parent / "shop.links.golden", links(shop))


def test_incremental_link_matches_a_full_one(shop: Path, tmp_path: Path) -> None:
    """Edit a body (exports unchanged) and an export (a new method): same links as full."""
    models = shop / "src" / "shop" / "models.py"
    text = models.read_text()
    models.write_text(text.replace("        self.validate()\n", "        self.validate()\n"
                                   "        self.validate()\n"))
    first = index_tree(shop)
    assert first.mode == "incremental" and "hubs" not in first.phases  # no whole relink
    models.write_text(models.read_text() + "\n    def refund(self):\n        return self.total()\n")
    (shop / "src" / "shop" / "cli.py").write_text(
        (shop / "src" / "shop" / "cli.py").read_text() + "\n\ndef undo():\n"
        "    return Order().refund()\n")
    second = index_tree(shop)
    assert "hubs" in second.phases  # exports changed: the whole map was linked again
    fresh = tmp_path / "fresh"
    shutil.copytree(shop, fresh, ignore=shutil.ignore_patterns(".codenav"))
    index_tree(fresh, full=True)
    assert links(shop) == links(fresh)
    assert "src/shop/cli.py:20:20 refund (call) -> py:src/shop/models.py#Order.refund" in \
        links(shop)


def test_refresh_keeps_links_into_a_reshaped_file_right(shop: Path) -> None:
    """A quick refresh (read-your-writes) that shifts node ids re-resolves links into them."""
    from codenav.index.pipeline import refresh_files

    pricing = shop / "src" / "shop" / "pricing.py"
    before = links(shop)
    pricing.write_text("def first():\n    return 0\n\n\n" + pricing.read_text())
    report = refresh_files(shop, shop / ".codenav" / "map.db", ["src/shop/pricing.py"],
                           busy_timeout=1.0)
    assert report is not None and report.parsed == 1
    after = links(shop)
    # Every use elsewhere still points at the same definitions (by id), lines in pricing.py moved.
    elsewhere = [line for line in after.splitlines() if not line.startswith("src/shop/pricing.py")]
    assert elsewhere == [line for line in before.splitlines()
                         if not line.startswith("src/shop/pricing.py")]
    conn = sqlite3.connect(shop / ".codenav" / "map.db")
    assert conn.execute("SELECT value FROM meta WHERE key = 'relink_pending'").fetchone() == ("1",)
    conn.close()
    index_tree(shop)  # a normal run links the whole map again and clears the flag
    conn = sqlite3.connect(shop / ".codenav" / "map.db")
    assert conn.execute("SELECT value FROM meta WHERE key = 'relink_pending'").fetchone() == ("0",)
    conn.close()


def test_a_member_of_a_literal_is_never_guessed_to_be_a_class_member(
        tmp_path: Path) -> None:
    """``"".join(parts)`` is ``str.join``: a receiver whose type is unknown is guessed to be
    the one class of the tree with that member, but a literal's type is the language's own
    (rich's ``Text.join`` had 46 "references", 37 of them ``"…".join``)."""
    root = tmp_path / "repo"
    root.mkdir()
    (root / "text.py").write_text(
        "class Text:\n    def join(self, lines):\n        return lines\n\n\n"
        "def render(parts, joiner):\n"
        "    a = ''.join(parts)\n"
        "    b = f'{parts}'.strip().join(parts)\n"
        "    c = [1, 2].count(1)\n"
        "    return joiner.join(parts)\n")
    index_tree(root)
    found = links(root)
    assert "text.py:7:" not in found and "text.py:8:" not in found, found
    assert "text.py:10:19 join (call) -> py:text.py#Text.join" in found  # still guessed


def test_watcher_runs_link_against_files_added_and_names_defined_since(shop: Path) -> None:
    """One-file runs (the watcher's) reuse what the linker learnt of the tree's files until a
    file appears: a module added recount, and a function added to it recount, are both found."""
    from codenav.index.pipeline import update_files

    db_path = shop / ".codenav" / "map.db"
    cli = shop / "src" / "shop" / "cli.py"
    cli.write_text(cli.read_text() + "\n\ndef late():\n    from shop.inventory import stocktake\n"
                   "    return stocktake() + recount()\n")
    update_files(shop, db_path, ["src/shop/cli.py"])  # learns the files: no inventory.py yet
    assert "stocktake (call) -> unresolved" in links(shop)
    (shop / "src" / "shop" / "inventory.py").write_text("def stocktake():\n    return 1\n")
    update_files(shop, db_path, ["src/shop/inventory.py"])  # a new file: learnt again
    assert "late stocktake (call) -> py:src/shop/inventory.py#stocktake" in _with_scope(shop)
    (shop / "src" / "shop" / "inventory.py").write_text(
        "def stocktake():\n    return 1\n\n\ndef recount():\n    return 2\n")
    update_files(shop, db_path, ["src/shop/inventory.py"])  # a new name: its callers resolve
    assert "cli.py:" in "\n".join(line for line in links(shop).splitlines()
                                  if line.endswith("-> py:src/shop/inventory.py#stocktake"))


def _with_scope(root: Path) -> str:
    conn = sqlite3.connect(root / ".codenav" / "map.db")
    try:
        return "\n".join(f"{scope} {name} ({kind}) -> {nid}" for scope, name, kind, nid in
                         conn.execute("SELECT s.name, r.name, r.kind, t.nid FROM refs r "
                                      "JOIN nodes s ON s.id = r.scope_id "
                                      "JOIN nodes t ON t.id = r.target_id"))
    finally:
        conn.close()
