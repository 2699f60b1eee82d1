"""Linking TypeScript, TSX and JavaScript across files: ES imports and re-exports, index
files, tsconfig paths, default exports, classes through typed variables and `this`."""

from __future__ import annotations

from pathlib import Path

import pytest

from codenav.index.modules.es import EsModules, parse_jsonc
from codenav.index.pipeline import index_tree
from tests.conftest import FIXTURES, check_golden, indexed_repo, render_links


@pytest.fixture(scope="module")
def web_links(tmp_path_factory: pytest.TempPathFactory) -> str:
    return render_links(indexed_repo("web", tmp_path_factory.mktemp("web")))


def test_links_golden(web_links: str) -> None:
    check_golden(FIXTURES / "repos" / "web.links.golden", web_links)


@pytest.mark.parametrize("line", [
    # a named import through an index file's `export *`
    "src/main.ts:7:18 Admin (call) -> ts:src/app/models.ts#Admin",
    # a default export re-exported under a name
    "src/main.ts:6:22 Registry (call) -> ts:src/app/registry.ts#Registry",
    # a method on what a typed method returns
    "src/main.ts:7:35 add (call) -> ts:src/app/registry.ts#Registry.add",
    # tsconfig `paths` with a wildcard, into a .tsx file
    "src/main.ts:2:10 Avatar (import) -> tsx:src/app/avatar.tsx#Avatar",
    # tsconfig `paths` without one, to a default export
    "src/main.ts:3:8 Card (import) -> tsx:src/ui/Card.tsx#Card",
    # a typed local's method, inherited from the base class
    "src/main.ts:12:29 greet (call) -> ts:src/app/models.ts#User.greet",
    # `import * as models`: a member of a namespace import
    "src/main.ts:11:28 Admin (call) -> ts:src/app/models.ts#Admin",
    # renamed re-export of a JavaScript function
    "src/main.ts:12:60 slug (call) -> js:src/legacy/util.js#slugify",
    # `super.label()` goes to the base class
    "src/app/models.ts:21:29 label (call) -> ts:src/app/models.ts#User.label",
    # a parameter property used through `this`
    "src/app/models.ts:11:17 name (attribute) -> ts:src/app/models.ts#User.name",
    # a field whose type is a class of another file
    "src/app/registry.ts:10:10 last (attribute) -> ts:src/app/registry.ts#Registry.last",
    # JSX components, and a .js file imported without its extension
    "src/ui/Card.tsx:11:8 Avatar (call) -> tsx:src/app/avatar.tsx#Avatar",
    "src/ui/Card.tsx:12:14 pad (call) -> js:src/legacy/util.js#pad",
    # a local holding what a method returns; an optional chain through a `T | undefined` field
    "src/ui/Card.tsx:12:23 label (call) -> ts:src/app/models.ts#User.label",
    "src/main.ts:16:36 label (call) -> ts:src/app/models.ts#User.label",
    # CommonJS require, and a field set in a JS constructor
    "src/legacy/page.jsx:11:49 slugify (call) -> js:src/legacy/util.js#slugify",
    "src/legacy/page.jsx:11:27 owner (attribute) -> js:src/legacy/page.jsx#Page.owner",
    "src/legacy/page.jsx:11:33 id (attribute) -> ts:src/app/models.ts#User.id",
])
def test_key_links(web_links: str, line: str) -> None:
    assert line in web_links.splitlines()


def modules(paths: list[str], configs: dict[str, str] | None = None) -> EsModules:
    system = EsModules()
    files = configs or {}
    system.index(paths, "repo", files.get)
    return system


def test_relative_specifiers_and_index_files() -> None:
    system = modules(["src/a.ts", "src/b/index.tsx", "src/c.js", "src/d.d.ts", "lib/e.mjs"])
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
    system = modules(["src/util/x.ts", "lib/y.ts", "vendor/z.ts"], configs)
    assert system.files_for("I:util/x") == ["src/util/x.ts"]  # baseUrl, from the base config
    assert system.files_for("I:@lib/y") == ["src/lib/y.ts"] or \
        system.files_for("I:@lib/y") == []  # paths are relative to baseUrl (src/)
    plain = modules(["lib/y.ts", "vendor/z.ts"],
                    {"tsconfig.json": '{"compilerOptions": {"paths": {"@lib/*": '
                                      '["lib/*", "vendor/*"]}}}'})
    assert plain.files_for("I:@lib/y") == ["lib/y.ts"]
    assert plain.files_for("I:@lib/z") == ["vendor/z.ts"]  # the second target
    assert plain.files_for("I:@lib") == []


def test_jsonc_is_read_and_garbage_is_not_fatal() -> None:
    assert parse_jsonc('{"a": "//not a comment", /* c */ "b": [1, 2,],}') == {
        "a": "//not a comment", "b": [1, 2]}
    assert parse_jsonc("{oops") is None
    broken = modules(["a.ts"], {"tsconfig.json": "{not json"})
    assert broken.files_for("I:a") == []


def test_lines_of_the_golden_are_real_positions(web_links: str) -> None:
    """Every linked position names the identifier at that place in the source."""
    root = FIXTURES / "repos" / "web"
    for row in web_links.splitlines():
        where, name = row.split(" ")[:2]
        path, line, col = where.rsplit(":", 2)
        text = (root / path).read_text().splitlines()[int(line) - 1]
        assert text[int(col) - 1 :].startswith(name), row


def test_no_link_into_a_package_that_is_not_in_the_tree(web_links: str) -> None:
    assert not any(" -> " in row and "react" in row.split(" -> ")[1] and "unresolved" not in row
                   for row in web_links.splitlines())


def test_a_changed_tsconfig_relinks_on_the_next_index_run(tmp_path: Path) -> None:
    """No source file changed, only the project file saying how imports resolve."""
    root = indexed_repo("web", tmp_path)
    line = "src/main.ts:2:10 Avatar (import) -> tsx:src/app/avatar.tsx#Avatar"
    assert line in render_links(root).splitlines()
    config = root / "tsconfig.json"
    config.write_text(config.read_text().replace('"@app/*"', '"@elsewhere/*"'))
    report = index_tree(root)
    assert report.parsed == 0 and "hubs" in report.phases  # relinked, nothing re-parsed
    assert line not in render_links(root).splitlines()
    config.write_text(config.read_text().replace('"@elsewhere/*"', '"@app/*"'))
    index_tree(root)
    assert line in render_links(root).splitlines()
    assert "hubs" not in index_tree(root).phases  # unchanged since: no relink


def test_a_parameter_property_used_in_its_constructor_is_the_field(tmp_path: Path) -> None:
    root = tmp_path / "app"
    root.mkdir()
    (root / "clock.ts").write_text("export class Clock {\n  now(): number { return 1; }\n}\n")
    (root / "timer.ts").write_text(
        "import { Clock } from './clock';\n\n"
        "export class Timer {\n"
        "  constructor(private clock: Clock, label: string) {\n"
        "    clock.now();\n"
        "    console.log(label);\n"
        "  }\n"
        "  tick(): number { return this.clock.now(); }\n"
        "}\n")
    index_tree(root)
    links = render_links(root)
    assert "timer.ts:5:5 clock (name) -> ts:timer.ts#Timer.clock" in links
    assert "timer.ts:5:11 now (call) -> ts:clock.ts#Clock.now" in links  # through its type
    assert "timer.ts:8:38 now (call) -> ts:clock.ts#Clock.now" in links
    assert "label" not in links  # a plain parameter stays local


def test_members_destructured_from_this_keep_their_types(tmp_path: Path) -> None:
    root = tmp_path / "app"
    root.mkdir()
    (root / "sub.ts").write_text("export class Sub {\n  stop(): void {}\n}\n")
    # a second `stop`: a guess by member name alone cannot tell which one is meant
    (root / "car.ts").write_text("export class Car {\n  stop(): void {}\n}\n")
    (root / "owner.ts").write_text(
        "import { Sub } from './sub';\n\n"
        "export class Owner {\n"
        "  private conn: Sub | null = null;\n"
        "  private other: Sub = new Sub();\n"
        "  close(): void {\n"
        "    const { conn, other: o } = this;\n"
        "    conn?.stop();\n"
        "    o.stop();\n"
        "  }\n"
        "}\n")
    index_tree(root)
    links = render_links(root)
    assert "owner.ts:8:11 stop (call) -> ts:sub.ts#Sub.stop" in links
    assert "owner.ts:9:7 stop (call) -> ts:sub.ts#Sub.stop" in links


def test_a_variable_typed_through_a_wrapper_has_the_wrapped_types_members(
        tmp_path: Path) -> None:
    root = tmp_path / "app"
    root.mkdir()
    (root / "types.ts").write_text("export interface Options {\n  flush(): void;\n}\n")
    # a second `flush`: a guess by member name alone cannot tell which one is meant
    (root / "pipe.ts").write_text("export class Pipe {\n  flush(): void {}\n}\n")
    (root / "use.ts").write_text(
        "import { Options } from './types';\n\n"
        "export function run(o: Partial<Options>, r: Readonly<Partial<Options>>): void {\n"
        "  o.flush?.();\n"
        "  r.flush?.();\n"
        "}\n")
    index_tree(root)
    links = render_links(root)
    assert "use.ts:4:5 flush (call) -> ts:types.ts#Options.flush" in links
    assert "use.ts:5:5 flush (call) -> ts:types.ts#Options.flush" in links
