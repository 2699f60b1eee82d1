"""Calling tools in process: argument validation, error containment, map_status/map_rebuild."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import anyio
import pytest

from codenav.envelope import Answer
from codenav.tools import dispatch, status_tools
from codenav.tools.base import ToolSpec
from codenav.workspace import Workspace
from tests.conftest import write_tree

FILES = {"pkg/a.py": "def f():\n    return 1\n", "pkg/b.py": "from .a import f\n\nX = f()\n"}


def call(ws: Workspace, name: Any, args: Any = None, progress: Any = None) -> dict[str, Any]:
    return anyio.run(dispatch.call_tool, ws, name, args, progress)


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    return Workspace(write_tree(tmp_path / "repo", FILES))


def test_unknown_tool_names_the_tools(ws: Workspace) -> None:
    env = call(ws, "map_nope", {})
    assert env["ok"] is False and env["error"]["code"] == "BAD_ARGS"
    assert "map_status, map_rebuild" in env["error"]["message"]
    assert call(ws, None, {})["error"]["code"] == "BAD_ARGS"


@pytest.mark.parametrize(("args", "fragment"), [
    ({"bogus": 1}, "bogus: unknown argument"),
    ({"full": [1]}, "full: Input should be a valid boolean"),
    ({"paths": 3}, "paths: Input should be a valid list"),  # (one string: that one path)
    ({"tokenBudget": "lots"}, "tokenBudget must be an integer"),
    ({"tokenBudget": True}, "tokenBudget must be an integer"),
    (["not", "an", "object"], "arguments must be a JSON object"),
])
def test_bad_arguments_name_the_expected_shape(ws: Workspace, args: Any, fragment: str) -> None:
    env = call(ws, "map_rebuild", args)
    assert env["ok"] is False and env["error"]["code"] == "BAD_ARGS"
    assert fragment in env["error"]["message"]
    assert env["error"]["message"].endswith(
        "expected map_rebuild(full?: boolean, paths?: list of string, tokenBudget?: integer)")


def test_budget_is_clamped_with_a_warning(ws: Workspace) -> None:
    env = call(ws, "map_status", {"tokenBudget": 5})
    assert env["ok"] is True and env["tokenBudget"]["requested"] == 100
    assert env.get("warnings", [])[0].startswith("tokenBudget 5 clamped to 100")
    assert env["tokenBudget"]["used"] <= 100


def test_a_crashing_handler_answers_internal_and_the_next_call_works(
        ws: Workspace, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    async def boom(*_args: object) -> Answer:
        raise ZeroDivisionError("kaboom")

    broken = ToolSpec("map_status", "d", status_tools.StatusParams, boom, "", "", order=1,
                      about_map=True)
    monkeypatch.setattr(dispatch, "by_name", lambda name: broken)
    env = call(ws, "map_status", {})
    assert env["ok"] is False and env["error"]["code"] == "INTERNAL"
    assert "kaboom" not in env["error"]["message"]  # details stay in the log
    assert "ZeroDivisionError: kaboom" in caplog.text
    monkeypatch.undo()
    assert call(ws, "map_status", {})["ok"] is True


def test_status_before_and_after_a_build(ws: Workspace) -> None:
    before = call(ws, "map_status", {})
    assert before["ok"] is True and before["data"]["built"] is False
    seen: list[tuple[float, float | None, str | None]] = []

    async def progress(done: float, total: float | None, message: str | None) -> None:
        seen.append((done, total, message))

    built = call(ws, "map_rebuild", {}, progress)
    assert built["ok"] is True
    assert built["data"]["parsed"] == 2 and built["data"]["mode"] == "full"
    assert seen[0] == (0, None, "discovering files") and seen[-1][:2] == (2, 2)
    after = call(ws, "map_status", {})["data"]
    assert after["built"] is True and after["files"]["byLanguage"] == {"py": 2}
    assert after["counts"]["nodes"] == 4 and after["stale"] == []
    assert after["lastBuild"]["mode"] == "full"


def test_stale_files_are_listed_and_rebuild_by_path(ws: Workspace) -> None:
    call(ws, "map_rebuild", {})
    time.sleep(0.01)
    write_tree(ws.root, {"pkg/a.py": "def f():\n    return 2\n\n\ndef g():\n    pass\n",
                         "pkg/new.py": "NEW = 1\n"})
    os.remove(ws.root / "pkg" / "b.py")
    status_env = call(ws, "map_status", {})
    # changed, gone, and added (as `codenav index --check` lists them)
    assert status_env["data"]["stale"] == ["pkg/a.py", "pkg/b.py", "pkg/new.py"]
    assert status_env.get("warnings", []) == ["3 file(s) changed, added or removed since the last "
                                      "index; map_rebuild refreshes them."]
    partial = call(ws, "map_rebuild", {"paths": ["pkg/a.py"]})["data"]
    assert (partial["parsed"], partial["removed"], partial["mode"]) == (1, 0, "incremental")
    assert call(ws, "map_status", {})["data"]["stale"] == ["pkg/b.py", "pkg/new.py"]
    rest = call(ws, "map_rebuild", {"paths": ["pkg"]})["data"]
    assert rest["removed"] == 1 and rest["parsed"] == 1
    forced = call(ws, "map_rebuild", {"paths": ["pkg"], "full": True})["data"]
    assert forced["parsed"] == 2 and forced["mode"] == "incremental"


def test_rebuild_paths_outside_the_root_are_refused(ws: Workspace) -> None:
    env = call(ws, "map_rebuild", {"paths": ["../elsewhere"]})
    assert env["ok"] is False and env["error"]["code"] == "OUT_OF_ROOT"
    assert call(ws, "map_rebuild", {"paths": []})["error"]["code"] == "BAD_ARGS"


def test_status_stale_list_is_truncated_within_budget(tmp_path: Path) -> None:
    files = {f"m{i:03}.py": f"X{i} = {i}\n" for i in range(300)}
    ws = Workspace(write_tree(tmp_path / "many", files))
    call(ws, "map_rebuild", {})
    time.sleep(0.01)
    for i in range(300):
        (ws.root / f"m{i:03}.py").write_text(f"X{i} = {i + 1}\n")
    env = call(ws, "map_status", {"tokenBudget": 300})
    assert env.get("truncated", False) is True and env["tokenBudget"]["used"] <= 300
    assert env["dropped"]["kind"] == "stale files"
    assert env["data"]["staleCount"] == 300
    assert len(env["data"]["stale"]) + env["dropped"]["count"] == 300
