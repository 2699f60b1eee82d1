"""One file of each project a lazily loading server must have open (codenav/lsp/projects.py)."""

from __future__ import annotations

from pathlib import Path

from codenav.lsp.projects import MAX_PROJECTS, one_file_per_project
from tests.conftest import write_tree


def test_one_file_under_each_other_configuration(tmp_path: Path) -> None:
    # ts-mockito: src/tsconfig.json beside the root's tsconfig.json (which holds test/)
    root = write_tree(tmp_path / "repo", {
        "tsconfig.json": "{}", "src/tsconfig.json": "{}", "src/a.ts": "", "src/b.ts": "",
        "src/deep/c.ts": "", "test/a.spec.ts": "", "test/b.spec.ts": "",
        "packages/web/jsconfig.json": "{}", "packages/web/x.js": "", "loose/y.ts": ""})
    paths = ["src/a.ts", "src/deep/c.ts", "test/b.spec.ts", "test/a.spec.ts", "src/b.ts",
             "packages/web/x.js", "loose/y.ts"]
    configs = ("tsconfig.json", "jsconfig.json")
    # the first file's project (src/) is open already; the root's (test/, loose/) and
    # packages/web's each get their most central file
    assert one_file_per_project(root, paths, configs, "src/a.ts") == \
        ["test/b.spec.ts", "packages/web/x.js"]
    assert one_file_per_project(root, paths, (), "src/a.ts") == []
    # a configuration is only looked for: a folder named like one is none
    (root / "loose" / "tsconfig.json").mkdir()
    assert one_file_per_project(root, paths, configs, "src/a.ts") == \
        ["test/b.spec.ts", "packages/web/x.js"]


def test_projects_are_bounded(tmp_path: Path) -> None:
    files = {f"p{i}/tsconfig.json": "{}" for i in range(MAX_PROJECTS + 5)}
    files.update({f"p{i}/m.ts": "" for i in range(MAX_PROJECTS + 5)})
    root = write_tree(tmp_path / "repo", files)
    paths = [f"p{i}/m.ts" for i in range(MAX_PROJECTS + 5)]
    found = one_file_per_project(root, paths, ("tsconfig.json",), None)
    assert found == paths[:MAX_PROJECTS]
    # a file outside every project opens none
    assert one_file_per_project(root, ["m.ts"], ("tsconfig.json",), None) == []
