"""The module systems, language by language: which file an import means."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from codenav.index.modules import module_system
from codenav.index.modules.c import CModules
from codenav.index.modules.csharp import CSharpModules
from codenav.index.modules.es import EsModules, parse_jsonc
from codenav.index.modules.go import GoModules
from codenav.index.modules.java import JavaModules
from codenav.index.modules.php import PhpModules
from codenav.index.modules.python import PythonModules
from codenav.index.modules.ruby import RubyModules
from codenav.index.modules.rust import RustModules


def system(paths: list[str], root_name: str = "repo") -> PythonModules:
    modules = PythonModules()
    modules.index(paths, root_name)
    return modules


def test_absolute_and_relative_keys() -> None:
    modules = PythonModules()
    assert modules.module_key("pkg/sub/mod.py", "os.path") == "I:os.path"
    assert modules.module_key("pkg/sub/mod.py", ".x") == "P:pkg/sub/x"
    assert modules.module_key("pkg/sub/mod.py", "..y.z") == "P:pkg/y/z"
    assert modules.module_key("pkg/sub/mod.py", ".") == "P:pkg/sub"
    assert modules.module_key("mod.py", "..up") is None  # above the root
    assert modules.prefix_keys("a.py", "x.y.z") == ["I:x", "I:x.y", "I:x.y.z"]
    assert modules.prefix_keys("p/a.py", ".x.y") == ["P:p/x", "P:p/x/y"]


def test_src_layout_tests_and_scripts() -> None:
    modules = system(["src/shop/__init__.py", "src/shop/models.py", "src/shop/sub/__init__.py",
                      "src/shop/sub/deep.py", "tests/test_x.py", "scripts/tool.py"])
    assert modules.files_for("I:shop") == ["src/shop/__init__.py"]
    assert modules.files_for("I:shop.models") == ["src/shop/models.py"]
    assert modules.files_for("I:shop.sub.deep") == ["src/shop/sub/deep.py"]
    assert modules.files_for("I:test_x") == ["tests/test_x.py"]  # its folder is on sys.path
    assert modules.files_for("I:scripts.tool") == ["scripts/tool.py"]  # path fallback
    assert modules.files_for("P:src/shop/sub") == ["src/shop/sub/__init__.py"]
    assert modules.files_for("P:src/shop/models") == ["src/shop/models.py"]
    assert modules.files_for("I:missing") == []


def test_a_root_that_is_itself_a_package() -> None:
    modules = system(["__init__.py", "db/__init__.py", "db/models.py"], root_name="django")
    assert modules.files_for("I:django") == ["__init__.py"]
    assert modules.files_for("I:django.db.models") == ["db/models.py"]


def test_stubs_come_after_sources_and_unknown_systems_resolve_nothing() -> None:
    modules = system(["pkg/__init__.py", "pkg/a.py", "pkg/a.pyi"])
    assert modules.files_for("I:pkg.a") == ["pkg/a.py"]
    nothing = module_system("no-such-system")
    assert nothing.module_key("a.py", "x") is None and nothing.files_for("I:x") == []


def test_every_project_file_a_module_system_reads_relinks_when_it_changes() -> None:
    """The watcher relinks the map when a project file changes; each module system says
    which it reads (``project_files``): every such name in its source is declared."""
    import importlib
    import re

    from codenav.index import modules
    from codenav.index.watch import PROJECT_FILES

    folder = Path(modules.__file__).parent
    for source in sorted(folder.glob("*.py")):
        found = importlib.import_module(f"codenav.index.modules.{source.stem}")
        system = module_system(source.stem) if hasattr(found, "SYSTEM") else None
        named = set(re.findall(r'"((?:[\w-]+/)*[\w-]+\.(?:json|toml|mod|txt))"',
                               source.read_text()))
        names = {name.rsplit("/", 1)[-1] for name in named}
        if system is None or not names:
            continue
        assert names <= system.project_files, (source.name, names - system.project_files)
        assert system.project_files <= PROJECT_FILES


# --------------------------------------------------- ES modules (TypeScript, JavaScript)

def es_modules(paths: list[str], configs: dict[str, str] | None = None) -> EsModules:
    system = EsModules()
    files = configs or {}
    system.index(paths, "repo", files.get)
    return system


def test_relative_specifiers_and_index_files() -> None:
    system = es_modules(["src/a.ts", "src/b/index.tsx", "src/c.js", "src/d.d.ts", "lib/e.mjs"])
    assert system.module_key("src/x.ts", "./a") == "P:src/a"
    assert system.module_key("src/x/y.ts", "../../lib/e.mjs") == "P:lib/e.mjs"
    assert system.module_key("x.ts", "../up") is None  # above the root
    assert system.module_key("x.ts", "react") == "I:react"
    assert system.files_for("P:src/a") == ["src/a.ts"]
    assert system.files_for("P:src/a.js") == ["src/a.ts"]  # ESM: the compiled name
    assert system.files_for("P:src/b") == ["src/b/index.tsx"]
    assert system.files_for("P:src/c.js") == ["src/c.js"]
    assert system.files_for("P:src/d") == ["src/d.d.ts"]
    assert system.files_for("P:lib/e.mjs") == ["lib/e.mjs"]
    assert system.files_for("P:src/missing") == []
    assert system.files_for("I:react") == []  # a package: not in the tree


def test_tsconfig_paths_base_url_and_extends() -> None:
    configs = {
        "tsconfig.json": '{"extends": "./config/base.json", // inherited\n'
                         '"compilerOptions": {"paths": {"@lib/*": ["lib/*", "vendor/*"],}}}',
        "config/base.json": '{"compilerOptions": {"baseUrl": "../src"}}',
    }
    system = es_modules(["src/util/x.ts", "lib/y.ts", "vendor/z.ts"], configs)
    assert system.files_for("I:util/x") == ["src/util/x.ts"]  # baseUrl, from the base config
    assert system.files_for("I:@lib/y") == ["src/lib/y.ts"] or \
        system.files_for("I:@lib/y") == []  # paths are relative to baseUrl (src/)
    plain = es_modules(["lib/y.ts", "vendor/z.ts"],
                       {"tsconfig.json": '{"compilerOptions": {"paths": {"@lib/*": '
                                         '["lib/*", "vendor/*"]}}}'})
    assert plain.files_for("I:@lib/y") == ["lib/y.ts"]
    assert plain.files_for("I:@lib/z") == ["vendor/z.ts"]  # the second target
    assert plain.files_for("I:@lib") == []


def test_a_package_of_the_tree_is_found_by_its_name() -> None:
    # tsdoc (run 47): api-demo/ and playground/ import `@microsoft/tsdoc`, the tree's own
    # tsdoc/ package (types: lib/index.d.ts, built from src/); yaml (run 38): its tests
    # import `yaml/util`, an `exports` subpath built from src/util.ts
    configs = {
        "tsdoc/package.json": '{"name": "@microsoft/tsdoc", "main": "lib-commonjs/index.js",'
                              ' "types": "lib/index.d.ts"}',
        "package.json": '{"name": "yaml", "exports": {".": {"types": "./dist/index.d.ts",'
                        ' "default": "./dist/index.js"}, "./util": {"types": '
                        '"./dist/util.d.ts", "default": "./dist/util.js"}, '
                        '"./package.json": "./package.json"}}',
        "tools/package.json": '{"name": "tools"}',
        "nameless/package.json": '{"private": true}',
    }
    system = es_modules(["tsdoc/src/index.ts", "tsdoc/src/parser/TSDocParser.ts",
                         "src/index.ts", "src/util.ts", "tools/src/index.ts",
                         "tools/helpers/fmt.ts", "nameless/index.ts"], configs)
    assert system.files_for("I:@microsoft/tsdoc") == ["tsdoc/src/index.ts"]
    assert system.files_for("I:@microsoft/tsdoc/src/parser/TSDocParser") == [
        "tsdoc/src/parser/TSDocParser.ts"]  # a subpath no entry names: in the folder
    assert system.files_for("I:yaml") == ["src/index.ts"]
    assert system.files_for("I:yaml/util") == ["src/util.ts"]  # `exports` by subpath
    assert system.files_for("I:tools") == ["tools/src/index.ts"]  # no entry: src/index
    assert system.files_for("I:tools/helpers/fmt") == ["tools/helpers/fmt.ts"]
    assert system.files_for("I:yamlish") == []  # (a name is matched whole)
    assert system.files_for("I:nameless") == []  # no name: no package
    assert system.files_for("I:react") == []
    # piscina (run 51): its tests import the package's folder (`'..'`), whose built
    # entry is not in the tree
    assert system.module_key("test/a.test.ts", "..") == "P:."  # (never `P:` then `::x`)
    assert system.files_for("P:.") == ["src/index.ts"]
    assert system.files_for("P:tsdoc") == ["tsdoc/src/index.ts"]


def test_jsonc_is_read_and_garbage_is_not_fatal() -> None:
    assert parse_jsonc('{"a": "//not a comment", /* c */ "b": [1, 2,],}') == {
        "a": "//not a comment", "b": [1, 2]}
    assert parse_jsonc("{oops") is None
    broken = es_modules(["a.ts"], {"tsconfig.json": "{not json"})
    assert broken.files_for("I:a") == []


# ------------------------------------------------------ C and C++ (includes, namespaces)

def c_system(paths: list[str]) -> CModules:
    modules = CModules()
    modules.index(paths, "repo")
    return modules


def test_c_loaded_by_name() -> None:
    assert isinstance(module_system("c"), CModules)


def test_c_keys() -> None:
    modules = CModules()
    assert modules.module_key("src/a.c", "b.h") == "P:src/b.h"
    assert modules.module_key("src/a.c", "../include/x/y.h") == "P:include/x/y.h"
    assert modules.module_key("src/a.c", "../../up.h") == "P:up.h"  # above the root
    assert modules.module_key("a.c", "<stdio.h>") == "I:stdio.h"
    assert modules.module_key("a.c", "<sys/types.h>") == "I:sys/types.h"
    assert modules.module_key("a.cpp", "std") == "Q:std@cpp"
    assert modules.module_key("a.cpp", "a::b") == "Q:a.b@cpp"
    assert modules.module_key("a.cpp", "::a::b") == "Q:a.b@cpp"
    assert modules.module_key("a.c", "") is None
    assert modules.prefix_keys("a.cpp", "a::b::C") == ["Q:a@cpp", "Q:a.b@cpp", "Q:a.b.C@cpp"]
    assert modules.prefix_keys("src/a.c", "b.h") == ["P:src/b.h"]


def test_quoted_includes_relative_then_include_folders() -> None:
    modules = c_system(["src/a.c", "src/b.h", "include/geo/vec.h", "lib/util/common.h",
                        "other/geo/vec.h", "src/geo/vec.h", "x/dup.h", "y/dup.h"])
    assert modules.files_for("P:src/b.h") == ["src/b.h"]
    # relative to the including file first
    assert modules.files_for("P:src/geo/vec.h") == ["src/geo/vec.h"]
    # else the one file ending with the longest tail of the path
    assert modules.files_for("P:app/util/common.h") == ["lib/util/common.h"]
    # several files end the same way: no answer
    assert modules.files_for("P:app/dup.h") == []
    assert modules.files_for("P:app/geo/vec.h") == []
    assert modules.files_for("P:nowhere.h") == []


def test_system_includes_only_when_in_the_tree() -> None:
    modules = c_system(["include/geo/vec.h", "third_party/geo/vec.h", "src/config.h"])
    assert modules.files_for("I:stdio.h") == []
    # an `include/` folder wins over another folder ending the same way
    assert modules.files_for("I:geo/vec.h") == ["include/geo/vec.h"]
    assert modules.files_for("I:config.h") == ["src/config.h"]
    assert modules.files_for("I:../config.h") == []
    assert modules.files_for("Q:std@cpp") == []


# ------------------------------------------------------------------------------------ Go

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


# ---------------------------------------------------------------------------------- Rust

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


# --------------------------------------------------------------------------- Java and C#

def java(paths: list[str]) -> JavaModules:
    modules = JavaModules()
    modules.index(paths, "repo")
    return modules


def test_java_keys() -> None:
    modules = JavaModules()
    assert modules.module_key("A.java", "com.acme.shop") == "I:com.acme.shop@java"
    assert modules.module_key("A.java", "com.acme.Outer") == "I:com.acme@java::Outer"
    assert modules.module_key("A.java", "a.b.Outer.Inner") == "I:a.b@java::Outer.Inner"
    assert modules.module_key("A.java", "Top") is None  # the default package
    assert modules.prefix_keys("A.java", "com.acme.shop") == ["", "", ""]
    # `import static com.acme.Util.check;`: its class is used
    assert modules.prefix_keys("A.java", "com.acme.Util") == ["", "", "I:com.acme@java::Util"]
    assert modules.submodule("I:a.b@java", "c") == "I:a.b.c@java"
    assert isinstance(module_system("java"), JavaModules)


def test_java_packages_are_folders_under_any_source_root() -> None:
    modules = java(["app/src/main/java/com/acme/shop/Order.java",
                    "app/src/main/java/com/acme/shop/Item.java",
                    "app/src/test/java/com/acme/shop/OrderTest.java",
                    "lib/src/com/acme/util/Strings.java",
                    "app/src/main/java/com/acme/shop/sub/Deep.java",
                    "README.md"])
    assert modules.files_for("I:com.acme.shop@java") == [
        "app/src/main/java/com/acme/shop/Item.java", "app/src/main/java/com/acme/shop/Order.java",
        "app/src/test/java/com/acme/shop/OrderTest.java"]
    assert modules.files_for("I:com.acme.util@java") == ["lib/src/com/acme/util/Strings.java"]
    assert modules.files_for("I:acme.util@java") == ["lib/src/com/acme/util/Strings.java"]
    assert modules.files_for("I:cme.util@java") == []  # whole folder names only
    assert modules.files_for("I:com.acme.shop") == []  # another language's key
    assert modules.files_for("I:com.acme@java::Outer") == []
    assert modules.peers("app/src/test/java/com/acme/shop/OrderTest.java") == [
        "app/src/test/java/com/acme/shop/OrderTest.java",
        "app/src/main/java/com/acme/shop/Item.java", "app/src/main/java/com/acme/shop/Order.java"]
    assert modules.peers("lib/src/com/acme/util/Strings.java") == [
        "lib/src/com/acme/util/Strings.java"]


def test_csharp_keys_name_namespaces() -> None:
    modules = CSharpModules()
    assert modules.module_key("A.cs", "Acme.Models") == "Q:Acme.Models@cs"
    assert modules.module_key("A.cs", "global::System.IO") == "Q:System.IO@cs"
    assert modules.module_key("A.cs", "List<int>") is None
    assert modules.prefix_keys("A.cs", "Acme.Models") == []
    assert modules.files_for("Q:Acme.Models@cs") == []
    assert isinstance(module_system("csharp"), CSharpModules)


# ---------------------------------------------------------------------------------- Ruby

def ruby(paths: list[str]) -> RubyModules:
    modules = RubyModules()
    modules.index(paths, "repo")
    return modules


def test_ruby_keys() -> None:
    modules = RubyModules()
    assert modules.module_key("app/main.rb", "helpers") == "P:app//helpers"
    assert modules.module_key("app/main.rb", "shop/cart.rb") == "P:app//shop/cart"
    assert modules.module_key("app/x/main.rb", "../lib/a") == "P:app/lib/a"
    assert modules.module_key("main.rb", "./a") == "P:a"
    assert modules.module_key("main.rb", "../a") is None  # above the root
    assert modules.module_key("main.rb", "") is None
    assert isinstance(module_system("ruby"), RubyModules)


def test_ruby_files_relative_then_lib_folders() -> None:
    modules = ruby(["app/main.rb", "app/helpers.rb", "lib/shop/cart.rb", "lib/shop.rb",
                    "gems/x/lib/x/core.rb", "app/shop/cart.rb.orig"])
    assert modules.files_for("P:app//helpers") == ["app/helpers.rb"]  # require_relative
    assert modules.files_for("P:app//shop/cart") == ["lib/shop/cart.rb"]  # the load path
    assert modules.files_for("P://shop") == ["lib/shop.rb"]
    assert modules.files_for("P:app//x/core") == ["gems/x/lib/x/core.rb"]
    assert modules.files_for("P:app//json") == []  # not in the tree
    assert modules.files_for("P:lib/shop") == ["lib/shop.rb"]
    assert modules.files_for("I:shop") == []


# ----------------------------------------------------------------------------------- PHP

def php(paths: list[str], files: dict[str, str] | None = None) -> PhpModules:
    modules = PhpModules()
    modules.index(paths, "repo", (files or {}).get)
    return modules


def test_php_keys() -> None:
    modules = PhpModules()
    assert modules.module_key("src/A.php", "App\\Models") == "I:App\\Models"
    assert modules.module_key("src/A.php", "\\App\\Models") == "I:App\\Models"
    assert modules.module_key("bin/main.php", "/helpers.php") == "P:bin/helpers.php"
    assert modules.module_key("bin/main.php", "../lib/x.php") == "P:lib/x.php"
    assert modules.module_key("main.php", "../x.php") is None
    assert isinstance(module_system("php"), PhpModules)


def test_php_psr4_from_composer_json() -> None:
    composer = {"autoload": {"psr-4": {"App\\": "src/"}},
                "autoload-dev": {"psr-4": {"App\\Tests\\": ["tests/"]}}}
    modules = php(["src/Models/User.php", "src/Models/Post.php", "src/Kernel.php",
                   "tests/Models/UserTest.php", "lib/Models/Other.php"],
                  {"composer.json": json.dumps(composer)})
    assert modules.files_for("I:App\\Models") == ["src/Models/Post.php", "src/Models/User.php"]
    assert modules.files_for("I:App") == ["src/Kernel.php"]
    assert modules.files_for("I:App\\Tests\\Models") == ["tests/Models/UserTest.php"]
    assert modules.peers("src/Models/User.php") == ["src/Models/Post.php", "src/Models/User.php"]


def test_php_composer_json_in_a_sub_folder() -> None:
    composer = {"autoload": {"psr-4": {"Shop\\": "src"}}}
    modules = php(["php/src/Models/Item.php", "php/bin/main.php"],
                  {"php/composer.json": json.dumps(composer)})
    assert modules.files_for("I:Shop\\Models") == ["php/src/Models/Item.php"]


def test_php_namespace_by_folder_suffix_without_composer() -> None:
    modules = php(["app/Http/Controllers/Home.php", "app/Models/User.php",
                   "tests/Models/UserTest.php", "src/Billing/Invoice.php"])
    assert modules.files_for("I:App\\Http\\Controllers") == ["app/Http/Controllers/Home.php"]
    assert modules.files_for("I:Acme\\Billing") == ["src/Billing/Invoice.php"]
    # app/Models matches both names of App\Models, tests/Models only the last one
    assert modules.files_for("I:App\\Models") == ["app/Models/User.php"]
    assert modules.files_for("I:Other\\Models") == []  # two folders match as well: none
    assert modules.files_for("I:Nowhere") == []


def test_php_required_files() -> None:
    modules = php(["bin/main.php", "bin/helpers.php"])
    assert modules.files_for("P:bin/helpers.php") == ["bin/helpers.php"]
    assert modules.files_for("P:bin/missing.php") == []


def test_php_bad_composer_json_is_ignored() -> None:
    modules = php(["src/A/B.php"], {"composer.json": "{not json"})
    assert modules.files_for("I:X\\A") == ["src/A/B.php"]
