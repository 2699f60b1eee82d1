"""Writing the map: which file rows a run reads."""

from __future__ import annotations

from pathlib import Path

from codenav.index.pipeline import index_tree
from codenav.store import db
from codenav.store.write import MapWriter
from tests.conftest import write_tree


def test_known_files_reads_only_the_files_and_folders_asked_for(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    write_tree(root, {"pkg/a.py": "x = 1\n", "pkg/sub/b.py": "y = 2\n", "pkg2/c.py": "z = 3\n",
                      "pkg.py": "w = 4\n", "top.py": "v = 5\n"})
    index_tree(root)
    conn = db.connect_writer(root / ".codenav" / "map.db", None)
    try:
        writer = MapWriter(conn)
        assert set(writer.known_files()) == {"pkg/a.py", "pkg/sub/b.py", "pkg2/c.py", "pkg.py",
                                             "top.py"}
        assert set(writer.known_files(["pkg"])) == {"pkg/a.py", "pkg/sub/b.py"}  # not pkg2/
        assert set(writer.known_files(["pkg/", "top.py"])) == {"pkg/a.py", "pkg/sub/b.py",
                                                               "top.py"}
        assert set(writer.known_files(["."])) == set(writer.known_files())
        row = writer.known_files(["top.py"])["top.py"]
        assert row[4] == "ok" and row[7] == "py"  # status and language
        assert writer.known_files(["missing.py"]) == {}
    finally:
        conn.close()


def test_the_types_index_covers_every_languages_container_kinds() -> None:
    """``nodes_types`` (the linker's guess of a variable's class) lists the container kinds
    of every language: a language adding one must add it there too."""
    import re

    from codenav.index import link
    from codenav.index.languages import languages

    kinds = {kind for lang in languages() for kind in lang.containers}
    create = dict(db.index_statements())["nodes_types"]
    assert set(re.findall(r"'(\w+)'", create)) == kinds
    assert set(re.findall(r"'(\w+)'", link._TYPE_KINDS)) == kinds
