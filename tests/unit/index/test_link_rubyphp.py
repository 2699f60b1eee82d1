"""Ruby and PHP: cross-file links on a sample repository, and their module systems."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from codenav.index.modules import module_system
from codenav.index.modules.php import PhpModules
from codenav.index.modules.ruby import RubyModules
from tests.conftest import FIXTURES, check_golden, indexed_repo, render_links

GOLDEN = FIXTURES / "repos" / "rubyphp.links.golden"


@pytest.fixture(scope="module")
def links(tmp_path_factory: pytest.TempPathFactory) -> str:
    return render_links(indexed_repo("rubyphp", tmp_path_factory.mktemp("rubyphp")))


def test_links_golden(links: str) -> None:
    check_golden(GOLDEN, links)


def _target(links: str, where: str) -> str:
    """What the reference at ``path:line:col`` links to."""
    found = [line for line in links.splitlines() if line.startswith(where + " ")]
    assert len(found) == 1, f"no single reference at {where}"
    return found[0].split(" -> ", 1)[1]


RB = "rb:ruby/lib/shop/"
PHP = "php:php/src/"


@pytest.mark.parametrize(("where", "target"), [
    # require "shop/cart" (a lib/ folder) and Shop::Cart through it
    ("ruby/app/main.rb:4:14", f"{RB}cart.rb#Shop.Cart"),
    ("ruby/app/main.rb:4:19", f"{RB}cart.rb#Shop.Cart.build"),
    # a module reopened in another file: Shop::Item, and a method of a typed variable
    ("ruby/app/main.rb:8:15", f"{RB}item.rb#Shop.Item"),
    ("ruby/app/main.rb:9:12", f"{RB}item.rb#Shop.Item.price"),
    # require_relative "helpers": a top-level method
    ("ruby/app/main.rb:7:6", "rb:ruby/app/helpers.rb#format_price"),
    # a constant of the enclosing module, declared in a sibling file; `Item.new` calls Item
    ("ruby/lib/shop/cart.rb:7:16", f"{RB}base.rb#Shop.Base"),
    ("ruby/lib/shop/cart.rb:8:13", f"{RB}priced.rb#Shop.Priced"),
    ("ruby/lib/shop/cart.rb:21:14", f"{RB}item.rb#Shop.Item"),
    # a bare call is a method of the class, here inherited from Shop::Base
    ("ruby/lib/shop/cart.rb:22:7", f"{RB}base.rb#Shop.Base.log"),
    ("ruby/lib/shop/cart.rb:23:38", f"{RB}cart.rb#Shop.Cart.LIMIT"),
    ("ruby/lib/shop/cart.rb:24:12", f"{RB}item.rb#Shop.Item.price"),
    # `attr_reader :name` is a field (Ruby's, never PHP's Item.name)
    ("ruby/lib/shop/cart.rb:22:16", f"{RB}item.rb#Shop.Item.name"),
    # PHP: use + PSR-4, aliases, `new`, methods of typed variables, inheritance
    ("php/bin/main.php:4:17", f"{PHP}Models/Cart.php#Cart"),
    ("php/bin/main.php:5:25", f"{PHP}Models/Item.php#Item"),
    ("php/bin/main.php:7:13", f"{PHP}Models/Cart.php#Cart"),
    ("php/bin/main.php:8:16", f"{PHP}Models/Cart.php#Cart.add"),
    ("php/bin/main.php:9:6", "php:php/lib/helpers.php#money"),  # require_once
    ("php/bin/main.php:12:8", f"{PHP}Models/Item.php#Item.price"),
    ("php/bin/main.php:13:8", f"{PHP}Models/Base.php#Base.id"),
    # same namespace (folder) without `use`; implements; a trait's method through $this
    ("php/src/Models/Cart.php:9:20", f"{PHP}Models/Base.php#Base"),
    ("php/src/Models/Cart.php:9:36", f"{PHP}Contracts/Priced.php#Priced"),
    ("php/src/Models/Cart.php:11:9", f"{PHP}Support/Logs.php#Logs"),
    ("php/src/Models/Cart.php:24:16", f"{PHP}Support/Logs.php#Logs.log"),
    ("php/src/Models/Cart.php:24:20", f"{PHP}Support/Logs.php#format_line"),
    # a promoted constructor property; a ?Item property's method; self::
    ("php/src/Models/Cart.php:24:39", f"{PHP}Models/Item.php#Item.name"),
    ("php/src/Models/Cart.php:30:29", f"{PHP}Models/Item.php#Item.price"),
    ("php/src/Models/Cart.php:34:29", f"{PHP}Models/Cart.php#Cart.discount"),
    # `new static()` makes (calls) the class itself
    ("php/src/Models/Cart.php:44:20", f"{PHP}Models/Cart.php#Cart"),
])
def test_important_links(links: str, where: str, target: str) -> None:
    assert _target(links, where) == target


def test_no_link_crosses_languages(links: str) -> None:
    for line in links.splitlines():
        if " -> unresolved " in line:
            continue
        source, target = line.split(" -> ")
        assert source.split("/", 1)[0] == target.split(":", 2)[1].split("/", 1)[0], line


def test_unknown_receivers_are_guessed_by_their_name(links: str) -> None:
    # `$item` in a foreach has no known class, and two classes have a price(): the map
    # guesses from the variable's name (one class is called Item).
    assert _target(links, "php/src/Models/Cart.php:32:28") == \
        "php:php/src/Models/Item.php#Item.price"


# ------------------------------------------------------------------ Ruby modules


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


# ------------------------------------------------------------------- PHP modules


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


def test_incremental_link_matches_a_full_one(tmp_path: Path) -> None:
    """A new method in a reopened Ruby module and a new PHP method: same links as a full run."""
    from codenav.index.pipeline import index_tree

    root = indexed_repo("rubyphp", tmp_path / "a")
    item = root / "ruby" / "lib" / "shop" / "item.rb"
    item.write_text(item.read_text().replace(
        "    def price\n", "    def discount\n      price / 2\n    end\n\n    def price\n"))
    main = root / "ruby" / "app" / "main.rb"
    main.write_text(main.read_text() + "puts other.discount\n")
    cart = root / "php" / "src" / "Models" / "Cart.php"
    cart.write_text(cart.read_text().replace(
        "    public static function discount", "    public function empty(): bool\n    {\n"
        "        return $this->items === [];\n    }\n\n    public static function discount"))
    index_tree(root)
    fresh = tmp_path / "fresh"
    shutil.copytree(root, fresh, ignore=shutil.ignore_patterns(".codenav"))
    index_tree(fresh, full=True)
    assert render_links(root) == render_links(fresh)
    assert "ruby/app/main.rb:10:12 discount (call) -> rb:ruby/lib/shop/item.rb#Shop.Item.discount" \
        in render_links(root)
