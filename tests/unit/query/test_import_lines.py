"""The import lines an agent greps for after a module's importers (``query/text.py``): which
lines import a module by its name, and how they are accounted for against an answer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from codenav.query.text import commented, import_lines, imported_modules
from codenav.workspace import Workspace
from tests.conftest import mapped
from tests.unit.tools.test_map_tools import call


@pytest.mark.parametrize(("line", "python", "path", "modules"), [
    ("from ._exceptions import BrokenResourceError", True, "src/anyio/_core/_x.py",
     [("_exceptions", "I:src.anyio._core._exceptions"),
      ("BrokenResourceError", "I:src.anyio._core._exceptions.BrokenResourceError")]),
    ("from anyio._core import _exceptions as ex, other", True, "tests/t.py",
     [("_core", "I:anyio._core"), ("_exceptions", "I:anyio._core._exceptions"),
      ("other", "I:anyio._core.other")]),
    ("import anyio._core._exceptions", True, "a.py", [  # (it imports every package on the way)
        ("anyio", "I:anyio"), ("_core", "I:anyio._core"),
        ("_exceptions", "I:anyio._core._exceptions")]),
    ("import a.b as c, d", True, "x.py", [("b", "I:a.b"), ("d", "I:d")]),
    ("from . import (storage,", True, "pkg/b.py", [("storage", "I:pkg.storage")]),
    ("from .. import storage", True, "pkg/sub/b.py", [("storage", "I:pkg.storage")]),
    ("from .test_lexer import X", True, "tests/m.py", [("test_lexer", "I:tests.test_lexer"),
                                                       ("X", "I:tests.test_lexer.X")]),
    ("    _exceptions,", True, "a.py", []),  # a continuation line: not an import's first
    ("x = _exceptions.y", True, "a.py", []),
    ("import { Drop } from '../drop/drop'", False, "src/context/c.ts",
     [("drop", "P:src/drop/drop")]),
    ("export * from './drop'", False, "src/index.ts", [("drop", "P:src/drop")]),
    ("const d = require('./drop/index.js')", False, "src/a.js", [("drop",
                                                                  "P:src/drop/index")]),
    ("} from './droplet'", False, "a.ts", [("droplet", "P:droplet")]),
    ("import x from 'pkg/drop'", False, "a.ts", [("drop", "I:pkg/drop")]),
    ("const x = drop('./drop')", False, "a.ts", []),
    ("const m = await import('./drop')", False, "src/a.ts", [("drop", "P:src/drop")]),
])
def test_the_modules_an_import_line_names(line: str, python: bool, path: str,
                                          modules: list[tuple[str, str]]) -> None:
    assert imported_modules(line, python, path) == modules


def test_import_lines_are_accounted_for_against_the_files_listed(tmp_path: Path) -> None:
    files = {
        "pkg/storage.py": "VALUE = 1\n",
        "pkg/a.py": "from pkg.storage import VALUE\nfrom pkg import storage\n",
        "pkg/b.py": "import pkg.storage as s  # the module\n\nstorage = 2  # not an import\n",
        "pkg/c.py": "from other.storage import thing\n",
        "pkg/d.py": "from pkg.storage_extra import x\nfrom . import storage\n",
    }
    (tmp_path / "pkg").mkdir()
    for path, text in files.items():
        (tmp_path / path).write_text(text)
    found = import_lines(tmp_path, sorted(files), "pkg/storage.py", "storage", True,
                         {"pkg/a.py"}, {("pkg/d.py", 2)})
    assert (found.listed, found.unresolved, found.other) == (2, 1, [("pkg/c.py", 1)])
    assert [(hit.path, hit.line) for hit in found.unlisted] == [("pkg/b.py", 1)]
    assert found.lines == 5 and not found.partial


def importers(ws: Workspace, module: str) -> tuple[list[str], dict[str, Any]]:
    """map_neighbors' importers of ``module`` (an id): their files, sorted, and the data."""
    data: dict[str, Any] = call(ws, "map_neighbors", {"id": module, "edgeKinds": ["imports"],
                                                      "direction": "in"})["data"]
    return sorted(row.split(" ")[0] for row in data["neighbors"]), data


def test_importers_say_what_the_grep_of_their_import_lines_finds(tmp_path: Path) -> None:
    # anyio and liquidjs (run 24): after the importers of `_exceptions` and `drop.ts` the agent
    # grepped the module's name over every file (2.4 KB, 1.6 KB) to believe the list
    with mapped(tmp_path, {
            "pkg/__init__.py": "",
            "pkg/storage.py": "VALUE = 1\n",
            "pkg/a.py": "from pkg.storage import VALUE\nfrom pkg import storage\n",
            "pkg/b.py": "from . import (\n    storage,\n)\n",
            "pkg/other/__init__.py": "",
            "pkg/other/storage.py": "THING = 2\n",
            "pkg/other/c.py": "from pkg.other.storage import THING\n",
            "pkg/d.py": "# storage is imported elsewhere\nstorage = 3\n",
            # (a file importing both: its line of the other is no news either — mutagen's
            # `_iff.py`, run 32, had its lines of `mutagen/_util.py` placed one by one)
            "pkg/e.py": "from pkg.storage import VALUE\nfrom pkg.other.storage import THING\n"
    }) as ws:
        files, data = importers(ws, "py:pkg/storage.py")
        assert files == ["pkg/a.py", "pkg/b.py", "pkg/e.py"], data
        # (b.py's name is on a continuation line: its statement's first line does not hold it)
        # (which files: listed, or those `unlisted` names — run 55's agent read "already
        # counted" as listed)
        assert data["text"] == ("5 import line(s) name the module 'storage': 3 in the files "
                                "listed; 2 of another module so named, in files listed or "
                                "'unlisted' names"), data
        assert "pkg/other/c.py (" in data["unlisted"], data
        _, alone = importers(ws, "py:pkg/other/storage.py")
        assert alone["text"] == "5 import line(s) name the module 'storage': 2 in the files " \
            "listed; 3 of another module so named, in files listed or 'unlisted' names", alone
    # a file importing only the other module: named by `unlisted`, not listed
    with mapped(tmp_path / "2", {
            "pkg/__init__.py": "", "pkg/storage.py": "VALUE = 1\n",
            "pkg/a.py": "from pkg.storage import VALUE\n",
            "pkg/other/__init__.py": "", "pkg/other/storage.py": "THING = 2\n",
            "pkg/f.py": "from pkg.other.storage import THING\n"}) as ws:
        _, only = importers(ws, "py:pkg/storage.py")
        assert only["text"] == "2 import line(s) name the module 'storage': 1 in the files " \
            "listed; 1 of another module so named, in the files 'unlisted' names", only
        assert "pkg/f.py (" in only["unlisted"], only


def test_a_package_named_on_the_way_to_its_submodule_is_not_imported(tmp_path: Path) -> None:
    # icalendar (run 26): the importers of `icalendar.timezone` listed 5 files that import
    # only its submodules (`from icalendar.timezone.zoneinfo import ZONEINFO`); the agent
    # spent 6 text searches to find them out
    with mapped(tmp_path, {
            "lib/__init__.py": "", "lib/tz/__init__.py": "from .tzp import TZP\n",
            "lib/tz/tzp.py": "class TZP:\n    pass\n", "lib/tz/zone.py": "ZONE = 1\n",
            "lib/a.py": "from lib.tz import TZP\n",
            "lib/b.py": "from lib.tz.zone import ZONE\nimport lib.tz.tzp\n",
            "lib/c.py": "import lib.tz\n\nlib.tz.TZP\n",
            "lib/d.py": "from .tz import zone\n"}) as ws:
        files, data = importers(ws, "py:lib/tz/__init__.py")
        # (`import lib.tz.tzp` binds lib and imports lib.tz on the way: b.py imports it)
        assert files == ["lib/a.py", "lib/b.py", "lib/c.py", "lib/d.py"], data
        assert data["text"] == \
            "all 4 import line(s) naming the module 'tz' are in the files listed", data
        files, zone = importers(ws, "py:lib/tz/zone.py")
        assert files == ["lib/b.py", "lib/d.py"], zone


def test_import_lines_are_checked_only_where_their_syntax_is_read(tmp_path: Path) -> None:
    # a C header's includers: no "all 0 import lines" claim about #include lines
    with mapped(tmp_path, {"src/storage.h": "int put(int x);\n",
                           "src/a.c": "#include \"storage.h\"\nint f(void) { return put(1); }\n"}) \
            as ws:
        _, data = importers(ws, "c:src/storage.h")
        assert "text" not in data, data


def test_a_module_re_exported_under_a_name_is_imported(tmp_path: Path) -> None:
    # p2-es (run 31): `export * as Utils from './utils/Utils'` in the package's index was no
    # importer of utils/Utils.ts (the text check named its line as unlisted)
    with mapped(tmp_path, {
            "src/utils/Utils.ts": "export function appendArray(a: number[]): void {}\n",
            "src/index.ts": "export * as Utils from './utils/Utils'\n",
            "src/world.ts": "import { Utils } from './index'\nUtils.appendArray([]);\n"}) as ws:
        files, data = importers(ws, "ts:src/utils/Utils.ts")
        # (world.ts imports the module itself, by the name index.ts gives it: its row says
        # through which — typesense, run 56: agents read its lines to learn why it was there)
        assert files == ["src/index.ts", "src/world.ts"], data
        assert data["neighbors"] == ["src/index.ts at:1", "src/world.ts at:1 via:src/index"]
        assert data["unlisted"].startswith("none"), data
        uses = call(ws, "nav_references", {"symbol": "appendArray", "source": "map",
                                           "show": "lines"})["data"]["references"]
        assert uses == {"src/world.ts": [2]}, uses


def test_positions_in_comments_are_told_from_code(tmp_path: Path) -> None:
    # p2-es (run 31): tsserver names the `{@link ContactMaterial.friction}` of a JSDoc among
    # a class's references; 7 such rows were listed as uses and an agent spent 2 calls on them
    (tmp_path / "src").mkdir()
    # (a name in another comment, `@type {Material}` — JavaScript's annotation — is no link)
    (tmp_path / "src/m.ts").write_text(
        "/**\n * @see {@link Material.friction}\n */\nexport class Material {}\n"
        "const m = new Material(); // Material\nconst s = 'Material';\n"
        "/** @type {Material} */\nlet n;\n/** @see Material */\n")
    assert commented(tmp_path, [("src/m.ts", 2, 16), ("src/m.ts", 4, 14), ("src/m.ts", 5, 15),
                                ("src/m.ts", 5, 30), ("src/m.ts", 6, 12), ("src/m.ts", 7, 13),
                                ("src/m.ts", 9, 10), ("src/missing.ts", 1, 1)]) == {
        ("src/m.ts", 2, 16), ("src/m.ts", 9, 10)}


def test_an_index_modules_import_lines_include_those_naming_its_folder(tmp_path: Path) -> None:
    # brain.js (run 33): after the importers of `src/layer/index.ts` the agent searched
    # `from '.'`, `from './'`, `from '..'`, `/index'` (7 calls): lines naming the folder only
    with mapped(tmp_path, {
            "src/layer/index.ts": "export class Layer {}\n",
            "src/layer/a.ts": "import { Layer } from './';\nexport const a = new Layer();\n",
            "src/layer/sub/b.ts": "import { Layer } from '..';\nexport const b = new Layer();\n",
            "src/c.ts": "import { Layer } from './layer';\nexport const c = new Layer();\n",
            "src/d.ts": "import { x } from './other';\nexport const d = x;\n",
            "src/other.ts": "export const x = 1;\n",
            "src/e.ts": "const e = require('./layer/index');\n"}) as ws:
        files, data = importers(ws, "ts:src/layer/index.ts")
        assert files == ["src/c.ts", "src/e.ts", "src/layer/a.ts", "src/layer/sub/b.ts"], data
        assert data["text"] == ("all 4 import line(s) naming the module 'layer' (or its folder: "
                                "'./', '..') are in the files listed"), data


def test_an_import_written_with_the_ts_extension_of_a_re_exported_name(tmp_path: Path) -> None:
    # yaml (run 38): `import type { StringifyContext } from '../util.ts'`, a name util.ts
    # re-exports: the importers of util.ts were none (the key kept the `.ts`)
    with mapped(tmp_path, {
            "src/stringify/stringify.ts": "export interface StringifyContext { x: number }\n",
            "src/util.ts": "export type { StringifyContext } from './stringify/stringify.ts'\n",
            "src/nodes/types.ts": "import type { StringifyContext } from '../util.ts'\n"
                                  "export type C = StringifyContext\n"}) as ws:
        files, data = importers(ws, "ts:src/util.ts")
        assert files == ["src/nodes/types.ts"], data
        assert data["text"].startswith("all 1 import line(s) naming the module 'util'"), data


def test_a_package_folder_imported_by_its_tests_is_its_entry(tmp_path: Path) -> None:
    # piscina (run 51): 28 tests import the package's folder (`import Piscina from '..'`),
    # whose package.json names a dist/ the tree does not have; the importers of
    # src/index.ts listed 1 file of 29
    with mapped(tmp_path, {
            "package.json": '{"name": "piscina", "types": "./dist/index.d.ts"}',
            "src/index.ts": "export default class Piscina {}\nexport const version = 1;\n",
            "src/main.ts": "import Piscina from './index';\nexport default Piscina;\n",
            "test/a.ts": "import Piscina from '..';\nnew Piscina();\n",
            "test/deep/b.ts": "import { version } from '../..';\nexport const v = version;\n",
            "test/c.ts": "import { other } from './c-helper';\nexport const o = other;\n",
            "test/c-helper.ts": "export const other = 2;\n",
    }) as ws:
        files, data = importers(ws, "ts:src/index.ts")
        assert files == ["src/main.ts", "test/a.ts", "test/deep/b.ts"], data


def test_a_submodule_imported_by_name_from_its_package_is_no_import_through_it(
        tmp_path: Path) -> None:
    # websockets: `from . import frames, http11`, `from .. import frames` name frames.py
    with mapped(tmp_path, {
            "pkg/__init__.py": "", "pkg/frames.py": "X = 1\n",
            "pkg/a.py": "from . import frames\n", "pkg/sub/__init__.py": "",
            "pkg/sub/b.py": "from .. import frames\nimport pkg.frames\n"}) as ws:
        files, data = importers(ws, "py:pkg/frames.py")
        assert files == ["pkg/a.py", "pkg/sub/b.py"], data
        assert not any("via:" in row for row in data["neighbors"]), data


def test_an_import_through_a_tsconfig_path_names_the_module(tmp_path: Path) -> None:
    # ts-graphviz (run 61): `import { fromModel } from 'ts-graphviz/ast'` (tsconfig `paths`
    # to ./src/ast/index.js) imports a name src/ast/index.ts re-exports: its importers said
    # "another module named 'ast'" and the agent searched the text
    with mapped(tmp_path, {
            "tsconfig.json": '{"compilerOptions": {"paths": {"tg/ast": ["./src/ast/index.js"]}}}',
            "src/ast/model.ts": "export function fromModel(): number { return 1 }\n",
            "src/ast/index.ts": "export * from './model.js'\n",
            "src/core.ts": "import { fromModel } from './ast/index.js'\nfromModel()\n",
            "test/g.test.ts": "import { fromModel } from 'tg/ast'\nfromModel()\n"}) as ws:
        files, data = importers(ws, "ts:src/ast/index.ts")
        assert files == ["src/core.ts", "test/g.test.ts"], data
        assert data["unlisted"].startswith("none"), data
        assert data["text"].startswith("all 2 import line(s)"), data
        assert not any("via:" in row for row in data["neighbors"]), data
