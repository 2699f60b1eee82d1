"""Linking Go and Rust across files: the golden of every link of the `gorust` repo, the
links that matter most asserted one by one, and the two module systems."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from codenav.index.modules.go import GoModules
from codenav.index.modules.rust import RustModules
from codenav.index.pipeline import index_tree
from tests.conftest import FIXTURES, check_golden, indexed_repo, render_links


@pytest.fixture(scope="module")
def links(tmp_path_factory: pytest.TempPathFactory) -> str:
    root = indexed_repo("gorust", tmp_path_factory.mktemp("gorust"))
    return render_links(root)


def test_links_golden(links: str) -> None:
    check_golden(FIXTURES / "repos" / "gorust.links.golden", links)


@pytest.mark.parametrize("line", [
    # Go: a package imported by path (go.mod's module), a function in it, and its main file
    "go/cmd/shop/main.go:11:7 store (name) -> go:go/store/store.go",
    "go/cmd/shop/main.go:11:13 NewStore (call) -> go:go/store/store.go#NewStore",
    # a method declared in a sibling file of its type, reached through a typed local
    "go/cmd/shop/main.go:13:4 Add (call) -> go:go/store/methods.go#Store.Add",
    # a method of an embedded struct (inheritance) declared in another file
    "go/cmd/shop/main.go:14:25 ID (call) -> go:go/store/logger.go#Base.ID",
    # what a function of another package returns (*Item)
    "go/cmd/shop/main.go:14:36 Total (call) -> go:go/models/item.go#Item.Total",
    # an interface embedding another package's interface
    "go/cmd/shop/main.go:18:4 Total (call) -> go:go/models/item.go#Priced.Total",
    # the receiver's fields from a method in a sibling file, and a field's type's method
    "go/store/methods.go:7:4 items (attribute) -> go:go/store/store.go#Store.items",
    "go/store/methods.go:9:8 Write (call) -> go:go/store/logger.go#Logger.Write",
    # a range over a slice field: the element's method
    "go/store/store.go:23:15 Total (call) -> go:go/models/item.go#Item.Total",
    # an aliased import, and a parameter of its type
    "go/store/methods.go:3:8 m (import) -> go:go/models/item.go",
    "go/store/methods.go:9:17 Name (attribute) -> go:go/models/item.go#Item.Name",
    # same-package visibility, test files seeing test files
    "go/store/store.go:16:21 newLogger (call) -> go:go/store/logger.go#newLogger",
    "go/store/store_test.go:7:8 testItem (call) -> go:go/store/helpers_test.go#testItem",
    "go/store/store.go:8:2 Base (inheritance) -> go:go/store/logger.go#Base",
    # Rust: `mod x;`, `pub use` re-exports, `crate::`, `super::`, `self::` paths
    "rust/src/lib.rs:2:9 models (import) -> rs:rust/src/models.rs",
    "rust/src/lib.rs:3:9 store (import) -> rs:rust/src/store/mod.rs",
    "rust/src/lib.rs:6:16 Store (import) -> rs:rust/src/store/mod.rs#Store",
    "rust/src/store/mod.rs:4:21 Item (import) -> rs:rust/src/models.rs#Item",
    "rust/src/store/mod.rs:5:12 util (import) -> rs:rust/src/util.rs",
    "rust/src/store/mod.rs:6:18 Cache (import) -> rs:rust/src/store/cache.rs#Cache",
    # `Type::method` paths, and methods of `impl` blocks through typed locals and `self`
    "rust/src/lib.rs:10:24 new (call) -> rs:rust/src/store/mod.rs#Store.new",
    "rust/src/lib.rs:11:7 add (call) -> rs:rust/src/store/mod.rs#Store.add",
    "rust/src/lib.rs:11:25 new (call) -> rs:rust/src/models.rs#Item.new",
    "rust/src/store/mod.rs:22:20 remember (call) -> rs:rust/src/store/cache.rs#Cache.remember",
    "rust/src/store/mod.rs:22:34 total (call) -> rs:rust/src/models.rs#Item.total",
    "rust/src/store/mod.rs:27:15 check (call) -> rs:rust/src/store/mod.rs#Store.check",
    # `impl Priced for Item` in another module: `self` is an Item there
    "rust/src/store/cache.rs:18:14 total (call) -> rs:rust/src/models.rs#Item.total",
    "rust/src/store/cache.rs:18:29 price (attribute) -> rs:rust/src/models.rs#Item.price",
    # `impl Priced for Bundle` beside Bundle: the trait's provided method through the type
    "rust/src/models.rs:35:6 Priced (inheritance) -> rs:rust/src/models.rs#Priced",
    "rust/src/lib.rs:18:7 doubled (call) -> rs:rust/src/models.rs#Priced.doubled",
    # an integration test's `mod common;` is tests/common/mod.rs
    "rust/tests/it.rs:5:21 setup (call) -> rs:rust/tests/common/mod.rs#setup",
])
def test_important_links(links: str, line: str) -> None:
    assert line in links.splitlines()


def test_no_links_into_names_that_are_no_uses(links: str) -> None:
    assert "unresolved F:" not in links  # every name left free is found in its package
    assert " main (name)" not in links  # `package main` is not the function main
    # the keys of struct literals are the fields: `log:` in `&Store{log: …}`, `cache:` in
    # `Store { cache: … }`
    assert "go/store/store.go:16:16 log (field) -> go:go/store/store.go#Store.log" in links
    assert "rust/src/store/mod.rs:17:36 cache (field) -> rs:rust/src/store/mod.rs#Store.cache" \
        in links


# ------------------------------------------------------------------ module systems


def _go(files: dict[str, str], paths: list[str]) -> GoModules:
    system = GoModules()
    system.index(paths, "repo", files.get)
    return system


def test_go_imports_map_module_paths_to_folders() -> None:
    paths = ["svc/main.go", "svc/store/store.go", "svc/store/a.go", "svc/store/store_test.go",
             "svc/vendor/github.com/x/y/y.go", "lib/go.go", "svc/store/v2/v.go"]
    system = _go({"svc/go.mod": "// c\nmodule example.com/svc // main\n\ngo 1.22\n",
                  "go.mod": "module example.com/root\n"}, paths)
    assert system.module_key("svc/main.go", "example.com/svc/store") == \
        "I:example.com/svc/store"
    # the package's main file first, tests left out for importers
    assert system.files_for("I:example.com/svc/store") == ["svc/store/store.go",
                                                           "svc/store/a.go"]
    assert system.files_for("I:example.com/svc") == ["svc/main.go"]
    assert system.files_for("I:example.com/root/lib") == ["lib/go.go"]
    assert system.files_for("I:github.com/x/y") == ["svc/vendor/github.com/x/y/y.go"]
    assert system.files_for("I:example.com/svc/missing") == []
    assert system.files_for("I:fmt") == []
    assert system.files_for("P:svc/store") == []


def test_go_without_go_mod_links_nothing() -> None:
    system = _go({}, ["store/store.go"])
    assert system.files_for("I:example.com/app/store") == []
    assert system.files_for("I:store") == []


def test_go_peers_are_the_package_folder() -> None:
    paths = ["p/a.go", "p/b.go", "p/a_test.go", "q/c.go"]
    system = _go({}, paths)
    assert system.peers("p/a.go") == ["p/a.go", "p/b.go"]
    assert system.peers("p/a_test.go") == ["p/a.go", "p/b.go", "p/a_test.go"]
    assert system.peers("q/c.go") == ["q/c.go"]


@pytest.mark.parametrize(("module", "name"), [
    ("example.com/app/store", "store"), ("fmt", "fmt"), ("github.com/x/y/v2", "y"),
    ("gopkg.in/yaml.v3", "yaml"), ("github.com/go-redis/redis", "redis"),
    ("github.com/mattn/go-sqlite3", "sqlite3"), ("a/b-c", "b_c")])
def test_go_bound_name(module: str, name: str) -> None:
    assert GoModules().bound_name(module) == name


def test_rust_paths_name_files() -> None:
    system = RustModules()
    system.index(["c/src/lib.rs", "c/src/a.rs", "c/src/a/b.rs", "c/src/d/mod.rs",
                  "c/src/d/e.rs", "c/src/main.rs", "x.py"], "repo")
    key = system.module_key
    assert key("c/src/a/b.rs", "crate::d::e") == "P:c/src/d/e"
    assert key("c/src/a/b.rs", "crate") == "P:c/src"
    assert key("c/src/a/b.rs", "super") == "P:c/src/a"
    assert key("c/src/a/b.rs", "super::super") == "P:c/src"
    assert key("c/src/a.rs", "self::b") == "P:c/src/a/b"
    assert key("c/src/d/mod.rs", "self::e") == "P:c/src/d/e"
    assert key("c/src/d/mod.rs", "super::a") == "P:c/src/a"
    assert key("c/src/lib.rs", "a") == "P:c/src/a"  # `mod a;` / 2018 paths: a child module
    assert key("c/src/lib.rs", "super") is None  # above the crate root
    assert key("c/src/lib.rs", "Self") is None
    # under no crate root's folder: the crate a Cargo.toml's `path = …` roots, found at link
    assert key("lib/it.rs", "crate::a") == "P:@crate(lib/it.rs)/a"
    assert system.files_for("P:c/src/a") == ["c/src/a.rs"]
    assert system.files_for("P:c/src/d") == ["c/src/d/mod.rs"]
    assert system.files_for("P:c/src") == ["c/src/lib.rs"]
    assert system.files_for("P:c/src/zzz") == []
    assert system.files_for("I:c/src/a") == []
    assert system.package_key("c/src/a.rs") == "P:c/src/a"
    assert system.package_key("c/src/d/mod.rs") == "P:c/src/d"
    assert system.submodule("P:c/src", "a") == "P:c/src/a"
    # each part a module, else an item of the module before it
    assert system.prefix_keys("c/src/a/b.rs", "crate::d::e") == [
        "P:c/src/d|P:c/src::d", "P:c/src/d/e|P:c/src/d::e"]
    # other crate roots: binaries, integration tests (with their shared `mod common;`)
    assert key("c/src/bin/tool.rs", "crate::util") == "P:c/src/bin/util"
    assert key("c/src/bin/tool.rs", "helpers") == "P:c/src/bin/helpers"
    assert key("c/tests/it.rs", "common") == "P:c/tests/common"
    assert key("c/tests/common/mod.rs", "crate::x") == "P:c/tests/x"
    assert key("c/src/tests/mod.rs", "crate::a") == "P:c/src/a"  # a module named tests
    assert system.prefix_keys("c/src/a/b.rs", "std::fmt") == [
        "P:c/src/a/b/std|P:c/src/a/b::std", "P:c/src/a/b/std/fmt|P:c/src/a/b/std::fmt"]


def test_incremental_link_matches_a_full_one(tmp_path: Path) -> None:
    """A new method in a sibling file and a changed body: the same links as a full index."""
    root = indexed_repo("gorust", tmp_path)
    methods = root / "go" / "store" / "methods.go"
    methods.write_text(methods.read_text() + "\n// Clear empties the store.\n"
                       "func (s *Store) Clear() { s.items = nil }\n")
    main = root / "go" / "cmd" / "shop" / "main.go"
    main.write_text(main.read_text().replace("\tc.Count()\n", "\tc.Count()\n\ts.Clear()\n"))
    cache = root / "rust" / "src" / "store" / "cache.rs"
    cache.write_text(cache.read_text().replace("self.last = total;",
                                               "self.last = total + 1;"))
    index_tree(root)
    fresh = tmp_path / "fresh"
    shutil.copytree(root, fresh, ignore=shutil.ignore_patterns(".codenav"))
    index_tree(fresh, full=True)
    assert render_links(root) == render_links(fresh)
    assert "go/cmd/shop/main.go:20:4 Clear (call) -> go:go/store/methods.go#Store.Clear" in \
        render_links(root).splitlines()


def test_workspace_crates_use_each_other_by_name(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    files = {
        "Cargo.toml": '[workspace]\nmembers = ["core-lib", "app"]\n',
        "core-lib/Cargo.toml": '[package]\nname = "core-lib"\nversion = "0.1.0"\n',
        "core-lib/src/lib.rs": "pub mod money;\n\npub fn total() -> u32 {\n    1\n}\n",
        "core-lib/src/money.rs": "pub struct Money;\n",
        "core-lib/tests/it.rs": "use core_lib::total;\n\n#[test]\nfn t() {\n    total();\n}\n",
        "app/Cargo.toml": '[package]\nname = "app"\nversion = "0.1.0"\n',
        "app/src/main.rs": "mod util;\nuse core_lib::money::Money;\nuse util::help;\n\n"
                           "fn main() {\n    let _m = Money;\n    core_lib::total();\n"
                           "    help();\n    crate::util::help();\n}\n",
        "app/src/util.rs": "pub fn help() {}\n",
    }
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    index_tree(root)
    links = render_links(root)
    assert "app/src/main.rs:2:22 Money (import) -> rs:core-lib/src/money.rs#Money" in links
    assert "app/src/main.rs:6:14 Money (name) -> rs:core-lib/src/money.rs#Money" in links
    assert "app/src/main.rs:3:11 help (import) -> rs:app/src/util.rs#help" in links  # a child
    # paths written in code, not imported: another crate, and this crate's own root
    assert "app/src/main.rs:7:15 total (call) -> rs:core-lib/src/lib.rs#total" in links
    assert "app/src/main.rs:9:18 help (call) -> rs:app/src/util.rs#help" in links
    assert "core-lib/tests/it.rs:1:15 total (import) -> rs:core-lib/src/lib.rs#total" in links
    assert "core-lib/tests/it.rs:5:5 total (call) -> rs:core-lib/src/lib.rs#total" in links


def test_go_types_satisfy_interfaces_by_their_methods(tmp_path: Path) -> None:
    import anyio

    from codenav.tools.dispatch import call_tool
    from codenav.tools.rows import parse_related_row
    from codenav.workspace import Workspace

    root = tmp_path / "geo"
    files = {
        "go.mod": "module example.com/geo\n\ngo 1.22\n",
        "shapes/shape.go": "package shapes\n\ntype Shape interface {\n\tArea() float64\n"
                           "\tPerimeter() float64\n}\n",
        "shapes/square.go": "package shapes\n\ntype Square struct{ S float64 }\n\n"
                            "func (q Square) Area() float64 { return q.S * q.S }\n\n"
                            "func (q Square) Perimeter() float64 { return 4 * q.S }\n",
        "shapes/circle.go": "package shapes\n\ntype Circle struct{ R float64 }\n",
        "shapes/circle_methods.go": "package shapes\n\n"
                                    "func (c *Circle) Area() float64 { return 3 * c.R * c.R }\n\n"
                                    "func (c *Circle) Perimeter() float64 { return 6 * c.R }\n",
        "shapes/line.go": "package shapes\n\ntype Line struct{}\n\n"
                          "func (l Line) Area() float64 { return 0 }\n",
        "other/square.go": "package other\n\ntype Square struct{}\n\n"
                           "func (q Square) Area() float64 { return 1 }\n",
    }
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    index_tree(root)
    ws = Workspace(root)
    try:
        def types(nid: str, direction: str) -> set[str]:
            found = anyio.run(call_tool, ws, "nav_type_hierarchy",
                              {"id": nid, "direction": direction, "source": "map"})
            return {parse_related_row(t, found["data"]["symbol"]).id
                    for t in found["data"]["types"]}

        assert types("go:shapes/shape.go#Shape", "subtypes") == {
            "go:shapes/square.go#Square", "go:shapes/circle.go#Circle"}
        assert types("go:shapes/circle.go#Circle", "supertypes") == {"go:shapes/shape.go#Shape"}
        assert types("go:shapes/line.go#Line", "supertypes") == set()  # Area alone
        assert types("go:other/square.go#Square", "supertypes") == set()
    finally:
        ws.close()


def test_rust_crate_roots_named_by_cargo_toml() -> None:
    """`[[bin]] path = "crates/core/main.rs"` (ripgrep's layout): `crate::` of the files
    under crates/core is that folder."""
    system = RustModules()
    manifests = {"Cargo.toml": '[package]\nname = "rg"\n[[bin]]\nname = "rg"\n'
                               'path = "crates/core/main.rs"\n'}
    system.index(["crates/core/main.rs", "crates/core/flags/mod.rs",
                  "crates/core/flags/defs.rs", "crates/core/flags/lowargs.rs"], "repo",
                 manifests.get)
    key = system.module_key("crates/core/flags/defs.rs", "crate::flags::lowargs")
    assert key == "P:@crate(crates/core/flags/defs.rs)/flags/lowargs"
    assert system.files_for(key) == ["crates/core/flags/lowargs.rs"]
