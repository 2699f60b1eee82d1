"""Overloads in the tools (the Java tree of tests/fixtures/refs/java): each overload is its
own symbol in nav_references, a class's references include the calls of its constructors,
and map_node lists the overloads of one name once, with their count."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import anyio
import pytest

from codenav.index.pipeline import index_tree
from codenav.tools.dispatch import call_tool
from codenav.workspace import Workspace
from tests.conftest import FIXTURES

TYPEVAR = "java:com/acme/poet/TypeVar.java#TypeVar"


@pytest.fixture(scope="module")
def ws(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Workspace]:
    root = tmp_path_factory.mktemp("java") / "repo"
    shutil.copytree(FIXTURES / "refs" / "java", root)
    index_tree(root)
    workspace = Workspace(root)
    yield workspace
    workspace.close()


def call(ws: Workspace, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    envelope: dict[str, Any] = anyio.run(call_tool, ws, tool, {"tokenBudget": 8000, **args})
    assert envelope["ok"], envelope
    return envelope


def lines(ws: Workspace, nid: str) -> set[tuple[str, int]]:
    data = call(ws, "nav_references", {"id": nid, "source": "map", "detail": "full"})["data"]
    return {(path.rsplit("/", 1)[-1], ref["line"])
            for path, refs in data["references"].items() for ref in refs}


def test_each_overload_has_its_own_references(ws: Workspace) -> None:
    assert lines(ws, f"{TYPEVAR}.get") == {("Builder.java", 25)}  # get("T")
    assert lines(ws, f"{TYPEVAR}.get~2") == {("Builder.java", 28)}  # get(variable)
    assert lines(ws, f"{TYPEVAR}.get~3") == {("Builder.java", 18)}  # get(name, bound)


def test_a_field_and_a_method_of_one_name_are_two_symbols(ws: Workspace) -> None:
    builder = "java:com/acme/poet/Builder.java#Builder.superclass"
    assert lines(ws, builder) == {("Builder.java", 12), ("Builder.java", 32)}  # the field


def test_constructors_by_arity_and_the_class_with_them(ws: Workspace) -> None:
    assert lines(ws, f"{TYPEVAR}.TypeVar") == {("TypeVar.java", 20)}  # new TypeVar(name)
    assert lines(ws, f"{TYPEVAR}.TypeVar~2") == {("TypeVar.java", 25), ("TypeVar.java", 30)}
    assert {("TypeVar.java", 20), ("TypeVar.java", 25), ("TypeVar.java", 30)} <= \
        lines(ws, TYPEVAR)


def test_map_node_lists_overloads_once_with_their_count(ws: Workspace) -> None:
    data = call(ws, "map_node", {"id": TYPEVAR})["data"]
    assert data["overloads"] == {"TypeVar": 2, "get": 3}
    names = [row.split()[2] for row in data["children"]]
    assert names.count("get") == 1 and names.count("TypeVar") == 1
    assert data["total"] == len(data["children"])
