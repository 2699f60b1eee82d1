"""docs/ stays true to the code: the generated pages match what the code answers, and every
error code, command-line option, environment variable, configuration key and language
family the code knows is documented; links stay inside the repository and resolve."""

from __future__ import annotations

import argparse
import ast
import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

from codenav.cli import _parser
from codenav.errors import CODES

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

CHECKOUT = Path(__file__).resolve().parents[1]
DOCS = CHECKOUT / "docs"
PACKAGE = CHECKOUT / "codenav"
# Every markdown file a user reads.
PAGES = [CHECKOUT / "README.md", CHECKOUT / "ARCHITECTURE.md", CHECKOUT / "grammars" / "README.md",
         *sorted(DOCS.glob("*.md"))]


def _gen_docs() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_docs", CHECKOUT / "scripts" / "gen_docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _read(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8")


def test_generated_docs_match_what_the_code_answers() -> None:
    for path, text in _gen_docs().expected().items():
        assert path.read_text(encoding="utf-8") == text, (
            f"{path.relative_to(CHECKOUT)} drifted from the code; regenerate it with "
            "`python scripts/gen_docs.py` (and review the diff)")


def test_every_tool_is_documented_with_an_answer() -> None:
    from codenav.tools.registry import TOOLS

    tools = _read("tools.md")
    headings = re.findall(r"^## `(\w+)`$", tools, re.M)
    assert headings == [tool.name for tool in TOOLS]
    examples = re.findall(r"^codenav call (\w+)", tools, re.M)
    assert examples == [tool.name for tool in TOOLS]


def test_every_error_code_is_in_the_contract_and_in_troubleshooting() -> None:
    table = set(re.findall(r"^\| `([A-Z_]+)` \|", _read("contract.md"), re.M))
    assert table == CODES
    sections = set(re.findall(r"^### `([A-Z_]+)`$", _read("troubleshooting.md"), re.M))
    assert sections == CODES


def _commands() -> dict[str, argparse.ArgumentParser]:
    parser = _parser()
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(sub.choices)


def test_every_command_and_option_is_in_the_contract() -> None:
    contract = _read("contract.md")
    synopsis = contract.split("## 1. Commands", 1)[1].split("## 2.", 1)[0]
    commands = _commands()
    assert {"index", "mcp", "lsp", "call", "tools", "status", "servers"} <= set(commands)
    for name, sub in commands.items():
        assert f"`codenav {name}`" in synopsis, f"codenav {name} is not in docs/contract.md §1"
        for action in sub._actions:
            for option in action.option_strings:
                if option == "-h" or (option == "--help" and name != "call"):
                    continue  # argparse's own help (`call` has a help of its own)
                assert option in synopsis, f"codenav {name} {option} is not documented"
            for choice in action.choices or ():
                assert str(choice) in synopsis, f"codenav {name} {action.dest}={choice}"


def _string_constants(tree: ast.Module) -> dict[str, str]:
    """Module-level ``NAME = "text"`` assignments."""
    out = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and \
                isinstance(node.value.value, str):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    out[target.id] = node.value.value
    return out


def _environ_reads() -> dict[str, str]:
    """Every environment variable codenav reads by name: ``os.environ.get(X)``,
    ``os.environ[X]``, ``os.getenv(X)``, ``X in os.environ``, with X a string or a module
    constant holding one; name -> the file reading it."""
    def name_of(node: ast.expr, constants: dict[str, str]) -> str | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        if isinstance(node, ast.Name):
            return constants.get(node.id)
        return None

    def is_environ(node: ast.expr) -> bool:
        return isinstance(node, ast.Attribute) and node.attr == "environ"

    found: dict[str, str] = {}
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        constants = _string_constants(tree)
        for node in ast.walk(tree):
            key: ast.expr | None = None
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args:
                if (node.func.attr == "get" and is_environ(node.func.value)) or \
                        node.func.attr == "getenv":
                    key = node.args[0]
            elif isinstance(node, ast.Subscript) and is_environ(node.value):
                key = node.slice
            elif isinstance(node, ast.Compare) and any(is_environ(c) for c in node.comparators):
                key = node.left
            name = name_of(key, constants) if key is not None else None
            if name is not None:
                found[name] = str(path.relative_to(CHECKOUT))
    return found


def test_every_environment_variable_codenav_reads_is_documented() -> None:
    reads = _environ_reads()
    # The scan itself works: it finds the variables these modules are known to read.
    assert {"CODENAV_DB", "CODENAV_TRUST_PROJECT_CONFIG", "XDG_CONFIG_HOME"} <= set(reads)
    table = _read("configuration.md").split("## Environment variables", 1)[1]
    documented = set(re.findall(r"^\| `([A-Z_]+)` \|", table, re.M))
    missing = {name: where for name, where in reads.items() if name not in documented}
    assert not missing, f"undocumented in docs/configuration.md: {missing}"


def _get_keys(path: Path, functions: set[str]) -> set[str]:
    """String keys looked up with ``.get("key")`` inside ``functions`` of ``path``."""
    keys = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.FunctionDef) and node.name in functions:
            for call in ast.walk(node):
                if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and \
                        call.func.attr == "get" and call.args and \
                        isinstance(call.args[0], ast.Constant) and \
                        isinstance(call.args[0].value, str):
                    keys.add(call.args[0].value)
    return keys


def test_every_configuration_key_is_documented() -> None:
    config = _read("configuration.md")
    user = _get_keys(PACKAGE / "config.py", {"decide_trust", "user_lsp"})
    server = _get_keys(PACKAGE / "lsp" / "servers.py", {"_overridden"})
    assert {"trusted", "projects", "lsp"} <= user and {"enabled", "command"} <= server
    for key in user | server:
        assert re.search(rf"^\| `{key}", config, re.M), f"configuration key {key!r}"
    families = tomllib.loads((PACKAGE / "lsp" / "servers.toml").read_text(encoding="utf-8"))
    for family in families:
        assert f"| `{family}` |" in config, f"language family {family!r}"


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    out: set[str] = set()
    for heading in re.findall(r"^#{1,6} (.+)$", text, re.M):
        slug, n = _slug(heading), 0
        while (slug if n == 0 else f"{slug}-{n}") in out:
            n += 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return out


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(CHECKOUT)))
def test_links_stay_inside_the_repository_and_resolve(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    assert "../shared" not in text and not re.search(r"\bSPEC\b", text), \
        f"{page.name} points at a file outside the repository"
    prose = re.sub(r"```.*?```", "", text, flags=re.S)
    links = re.findall(r"\]\(([^)\s]+)\)", prose)
    assert links or page.name == "ARCHITECTURE.md"
    for link in links:
        if re.match(r"[a-z]+:", link):
            continue
        target, _, anchor = link.partition("#")
        where = (page.parent / target).resolve() if target else page
        assert where.exists(), f"{page.name}: {link} leads nowhere"
        assert where.is_relative_to(CHECKOUT), f"{page.name}: {link} leaves the repository"
        if anchor and where.suffix == ".md":
            assert anchor in _anchors(where), f"{page.name}: no heading #{anchor} in {where.name}"


def test_architecture_names_every_module_and_no_module_that_is_gone() -> None:
    """ARCHITECTURE.md describes each module of codenav/ by its file name (the module
    systems of index/modules/ as a group) and names no file that does not exist."""
    text = (CHECKOUT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    named = {name.rsplit("/", 1)[-1] for name in re.findall(r"`([\w/.]+\.py)`", text)}
    modules = [path for path in (CHECKOUT / "codenav").rglob("*.py")
               if path.name not in ("__init__.py", "__main__.py")
               and path.parent.name != "modules"]
    assert sorted(str(p.relative_to(CHECKOUT)) for p in modules if p.name not in named) == []
    existing = {path.name for folder in ("codenav", "benchmarks", "scripts", "tests")
                for path in (CHECKOUT / folder).rglob("*.py")}
    assert sorted(named - existing) == []
