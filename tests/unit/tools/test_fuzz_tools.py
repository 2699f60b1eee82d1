"""Every tool, fuzzed (RELIABILITY-AND-PERF.md §A6 S7, S11, B1): whatever the arguments, the
answer is an envelope, ``used <= requested``, and a failure carries a docs/contract.md §3 code —
never INTERNAL, which would mean a handler crashed on its input."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codenav.envelope import to_json
from codenav.index.pipeline import index_tree
from codenav.tools.dispatch import call_tool
from codenav.tools.registry import TOOLS, input_schema
from codenav.workspace import Workspace
from tests.conftest import FIXTURES

CODES = {"MAP_NOT_BUILT", "NODE_NOT_FOUND", "BAD_NODE_ID", "FILE_NOT_FOUND", "FILE_DELETED",
         "SYMBOL_NOT_FOUND", "LSP_UNAVAILABLE", "LSP_FAILED", "LSP_TIMEOUT", "OUT_OF_ROOT",
         "BAD_ARGS"}  # INTERNAL left out on purpose

# Values an agent (or an attacker) might plausibly send, per argument name.
IDS = ["py:src/shop/models.py#Order", "py:src/shop/models.py#Order.add", "py:src/shop/cli.py",
       "py:src/shop/models.py#Nope", "py:../../etc/passwd#x", "py:/etc/passwd", "nonsense",
       "py:src/shop/models.py#", "#", "py:", "ts:src/shop/models.py#Order", "py:src\x00a.py"]
FILES = ["src/shop/models.py", "src/shop/cli.py", "./src/shop/pricing.py", "pyproject.toml",
         "../../etc/passwd", "/etc/passwd", "src/", ".", "", "src/shop/../../..", "nope.py",
         "a\x00b", "%2e%2e/x.py", "src\\shop\\models.py", "~/x.py"]
NAMES = ["Order", "Order.add", "add", "Base.save", "makeCustomer", "total", "x", "", "..",
         "a.b.c.d.e", "Order.", ".add", "\x1b[31m", "\u202eevil", "*", "%"]
FILTERS = ["src/", "src/**/*.py", "*_test.py", "[", "[!", "**", "../", "/etc", "./", "."]
SOURCES = ["auto", "map", "lsp", "LSP", "", "both"]

junk = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True) | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=3),
    max_leaves=8)
text = st.text(alphabet=st.characters(codec="utf-8"), max_size=60)
big = st.sampled_from(["x" * 100_000, "é" * 20_000, "\x00" * 5_000])


def plausible(name: str) -> st.SearchStrategy[Any]:
    """A value of the right type for an argument: real names, edge cases, hostile paths."""
    return {
        "id": st.sampled_from(IDS) | text,
        "focus": st.sampled_from(IDS + FILES) | text,
        "file": st.sampled_from(FILES) | text,
        "symbol": st.sampled_from(NAMES) | text,
        "query": st.sampled_from(NAMES) | text,
        "newName": st.sampled_from(["renamed", "not valid", "", "class", "x" * 300]) | text,
        "fileFilter": st.sampled_from(FILTERS) | text,
        "line": st.integers(min_value=-5, max_value=60) | st.integers(min_value=-5,
                                                                      max_value=2**64),
        "col": st.integers(min_value=-5, max_value=40) | st.integers(min_value=-5,
                                                                     max_value=2**64),
        "depth": st.integers(min_value=-1, max_value=6),
        "tokenBudget": st.integers(min_value=50, max_value=12_000) | st.integers(),
        "source": st.sampled_from(SOURCES),
        "direction": st.sampled_from(["in", "out", "both", "incoming", "outgoing",
                                      "supertypes", "subtypes", "up"]),
        "kinds": st.lists(st.sampled_from(["class", "function", "method", "nope", ""]),
                          max_size=25),
        "edgeKinds": st.lists(st.sampled_from(["calls", "references", "imports", "inherits",
                                               "contains", "nope"]), max_size=6),
        "include": st.lists(st.sampled_from(["source", "doc", "children", "x"]), max_size=4),
        "lang": st.sampled_from(["py", "ts", "", "python", "x" * 30]),
        "paths": st.lists(st.sampled_from(FILES), max_size=3),
        "full": st.booleans(),
        "exact": st.booleans(),
        "includeDeclaration": st.booleans(),
    }.get(name, junk)


def _enum(prop: dict[str, Any]) -> list[Any]:
    return list(prop.get("enum", [])) + [v for alt in prop.get("anyOf", [])
                                         for v in alt.get("enum", [])]


def _given(names: list[str], schema: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    """Values for ``names``: an enum argument mostly gets one of its own values."""
    def value(name: str) -> st.SearchStrategy[Any]:
        allowed = _enum(schema["properties"].get(name, {}))
        return st.one_of(st.sampled_from(allowed), st.sampled_from(allowed), plausible(name)) \
            if allowed else plausible(name)
    return st.fixed_dictionaries({name: value(name) for name in names})


def arguments_for(tool: Any) -> st.SearchStrategy[dict[str, Any]]:
    """Mostly well-formed argument sets that reach the handler (required arguments present,
    one way of naming a symbol), sometimes wild ones of any shape."""
    schema = input_schema(tool)
    names = [n for n in schema["properties"] if not (tool.name == "map_rebuild" and n == "full")]
    required = list(schema.get("required", []))
    positional = "symbol" in names  # id, or file + line (+ col), or symbol
    target_names = {"id", "symbol", "file", "line", "col"} if positional else set()
    optional = [n for n in names if n not in required and n not in target_names]
    extra = st.lists(st.sampled_from(optional), unique=True, max_size=3).flatmap(
        lambda chosen: _given(chosen, schema)) if optional else st.just({})
    target = st.sampled_from([["id"], ["symbol"], ["file", "line"], ["file", "line", "col"]]
                             ).flatmap(lambda chosen: _given(chosen, schema)) \
        if positional else st.just({})
    typed = st.builds(lambda *parts: {k: v for part in parts for k, v in part.items()},
                      _given(required, schema), target, extra)
    wild = st.dictionaries(st.sampled_from([*names, "unexpected"]),
                           st.none(), max_size=len(names) + 1).flatmap(
        lambda keys: st.fixed_dictionaries({k: st.one_of(plausible(k), junk, big)
                                            for k in keys}))
    return st.one_of(typed, typed, typed, wild)


@pytest.fixture(scope="module")
def shop() -> Iterator[Workspace]:
    base = Path(tempfile.mkdtemp(prefix="codenav-fuzz-"))
    root = base / "shop"
    shutil.copytree(FIXTURES / "repos" / "shop", root)
    index_tree(root, jobs=1)
    yield Workspace(root)
    shutil.rmtree(base, ignore_errors=True)


def check(envelope: dict[str, Any]) -> None:
    assert set(envelope) >= {"ok", "tokenBudget"}
    assert set(envelope) <= {"ok", "data", "error", "tokenBudget", "truncated", "dropped",
                             "warnings"}
    budget = envelope["tokenBudget"]
    requested = budget.get("requested", 2000)  # echoed only when the caller set one
    assert 100 <= requested <= 10_000
    assert budget["used"] <= requested
    assert len(to_json(envelope)) <= 4 * requested
    if envelope["ok"]:
        assert "data" in envelope
    else:
        assert envelope["error"]["code"] in CODES, envelope["error"]
        assert envelope.get("truncated", False) is False


@pytest.mark.parametrize("tool", TOOLS, ids=lambda t: t.name)
def test_any_arguments_answer_an_envelope_never_internal(shop: Workspace, tool: Any) -> None:
    @settings(max_examples=50, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(arguments=arguments_for(tool))
    def run(arguments: dict[str, Any]) -> None:
        check(anyio.run(call_tool, shop, tool.name, arguments))

    run()


@settings(max_examples=40, deadline=None, database=None)
@given(name=st.text(max_size=30) | junk, arguments=junk)
def test_any_tool_name_and_argument_shape(name: Any, arguments: Any) -> None:
    ws = Workspace(Path(tempfile.gettempdir()) / "codenav-fuzz-nothing-here")
    envelope = anyio.run(call_tool, ws, name, arguments)
    check(envelope)
    assert envelope["error"]["code"] in {"BAD_ARGS", "MAP_NOT_BUILT"}
