"""The envelope: budgets, ranked truncation, elision, errors (docs/contract.md §3)."""

from __future__ import annotations

import math
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codenav.envelope import (
    DEFAULT_BUDGET,
    EVERY,
    MAX_BUDGET,
    MIN_BUDGET,
    Answer,
    Cut,
    Page,
    Tier,
    clamp_budget,
    failure,
    success,
    to_json,
)
from codenav.errors import BadArgs, LspUnavailable


def used_of(env: dict[str, Any]) -> int:
    return math.ceil(len(to_json(env)) / 4)


def check_invariants(env: dict[str, Any], requested: int) -> None:
    assert env["tokenBudget"]["requested"] == requested
    assert set(env["tokenBudget"]) == {"requested", "used"}
    assert env["tokenBudget"]["used"] == used_of(env) <= requested
    # truncated and dropped come together, warnings only when there are some
    assert env.get("truncated", False) is ("dropped" in env)
    assert "truncated" not in env or env["truncated"] is True
    assert "warnings" not in env or env["warnings"]
    assert list(env)[:3] in (["ok", "data", "tokenBudget"], ["ok", "error", "tokenBudget"])
    assert "warnings" not in env or list(env)[-1] == "warnings"


def test_a_small_answer_is_sent_whole() -> None:
    env = success(Answer({"results": [1, 2, 3]}), DEFAULT_BUDGET)
    assert env == {"ok": True, "data": {"results": [1, 2, 3]},
                   "tokenBudget": {"requested": 2000, "used": used_of(env)}}
    assert to_json(env).startswith('{"ok":true,"data":{"results":[1,2,3]},"tokenBudget":')


def test_a_long_list_keeps_its_best_prefix_and_says_how_to_continue() -> None:
    refs = [{"file": f"src/m{i}.py", "line": i, "col": 1} for i in range(500)]
    cut = Cut("references", ("references",), "Pass fileFilter:'src/' to scope results",
              page=Page("nav_references", {"id": "py:a.py#f"}))
    env = success(Answer({"total": 500, "references": refs}, cuts=[cut]), 800)
    check_invariants(env, 800)
    kept = env["data"]["references"]
    assert 0 < len(kept) < 500 and kept == refs[: len(kept)]
    assert env["data"]["total"] == 500
    dropped = env["dropped"]
    assert dropped["kind"] == "references" and dropped["count"] == 500 - len(kept)
    assert dropped["note"] == (f"Dropped {500 - len(kept)} references to fit tokenBudget=800. "
                               "Pass fileFilter:'src/' to scope results, or raise tokenBudget.")
    # The next call continues right after what was sent: nothing is sent twice.
    assert dropped["next"] == {"tool": "nav_references",
                               "args": {"id": "py:a.py#f", "offset": len(kept)}}
    # The largest prefix: the same answer with one more item would be over the budget.
    one_more = dict(env, data={"total": 500, "references": refs[: len(kept) + 1]})
    one_more["dropped"] = dict(dropped, count=dropped["count"] - 1,
                               note=dropped["note"].replace(str(dropped["count"]),
                                                            str(dropped["count"] - 1)))
    assert used_of(one_more) > 800


def test_grouped_references_drop_leaves_then_empty_groups() -> None:
    groups = [{"file": f"f{g}.py", "count": 30,
               "refs": [{"line": i, "col": 5, "snippet": "x" * 20} for i in range(30)]}
              for g in range(10)]
    cut = Cut("references", ("references", EVERY, "refs"), "Pass fileFilter")
    env = success(Answer({"references": groups}, cuts=[cut]), 600)
    check_invariants(env, 600)
    kept = env["data"]["references"]
    leaves = [leaf for group in kept for leaf in group["refs"]]
    assert all(group["refs"] for group in kept)  # no empty group survives
    assert [g["file"] for g in kept] == [f"f{g}.py" for g in range(len(kept))]
    assert kept[0]["refs"] == groups[0]["refs"][: len(kept[0]["refs"])]
    assert all(group["count"] == 30 for group in kept)  # counts stay true
    assert env["dropped"]["count"] == 300 - len(leaves)


def test_tree_drops_deepest_nodes_first() -> None:
    symbols = [{"name": f"C{i}", "children": [
        {"name": f"C{i}.m{j}", "children": [{"name": f"C{i}.m{j}.x{k}"} for k in range(5)]}
        for j in range(5)]} for i in range(8)]
    cut = Cut("symbols", ("symbols",), "Ask for one class with map_node", tree=True)
    env = success(Answer({"symbols": symbols}, cuts=[cut]), 400)
    check_invariants(env, 400)
    kept = env["data"]["symbols"]
    assert [s["name"] for s in kept] == [f"C{i}" for i in range(8)]  # top level survives
    middle = [m["name"] for s in kept for m in s.get("children", [])]
    deepest = [x["name"] for s in kept for m in s.get("children", [])
               for x in m.get("children", [])]
    every_middle = [f"C{i}.m{j}" for i in range(8) for j in range(5)]
    every_deep = [f"{m}.x{k}" for m in every_middle for k in range(5)]
    # The deepest level goes first (later nodes before earlier ones): the second level is
    # whole as soon as any third-level node is left, and what is left is a prefix.
    assert 0 < len(deepest) < len(every_deep)
    assert middle == every_middle and deepest == every_deep[: len(deepest)]
    assert env["dropped"] == {"kind": "symbols", "count": len(every_deep) - len(deepest),
                              "note": env["dropped"]["note"]}
    assert all("children" not in m or m["children"] for s in kept for m in s["children"])


def test_source_is_elided_only_as_the_last_resort() -> None:
    data = {"id": "py:a.py#f", "source": "x = 1\n" * 3000, "children": [{"id": f"c{i}"}
                                                                          for i in range(5)]}
    cut = Cut("children", ("children",), "Ask for one child")
    env = success(Answer(data, cuts=[cut], hint="Leave 'source' out of include"), 300)
    check_invariants(env, 300)
    assert "source" not in env["data"]
    assert env["data"]["children"] == data["children"]  # children fit once the source is gone
    assert env["dropped"]["kind"] == "source" and env["dropped"]["count"] == 1
    assert "Leave 'source' out of include" in env["dropped"]["note"]


def test_pathological_payloads_still_fit() -> None:
    huge = success(Answer({"text": "é" * 200_000}), MIN_BUDGET)
    check_invariants(huge, MIN_BUDGET)
    assert huge["dropped"]["kind"] in {"text", "data"}
    deep: Any = "leaf"
    for _ in range(200):
        deep = {"k": [deep]}
    check_invariants(success(Answer({"deep": deep}), MIN_BUDGET), MIN_BUDGET)
    tiny = {"items": list(range(20_000))}
    env = success(Answer(tiny, cuts=[Cut("items", ("items",), "Filter")]), 150)
    check_invariants(env, 150)
    assert env["data"]["items"] == list(range(len(env["data"]["items"])))
    many_warnings = success(Answer({}, warnings=["w" * 1000] * 50), MIN_BUDGET)
    check_invariants(many_warnings, MIN_BUDGET)


def test_budget_clamping() -> None:
    assert clamp_budget(None) == (2000, [])
    assert clamp_budget(800) == (800, [])
    assert clamp_budget(5)[0] == MIN_BUDGET and "clamped to 100" in clamp_budget(5)[1][0]
    assert clamp_budget(10**9)[0] == MAX_BUDGET


def test_failure_envelope_shape_and_tiny_budgets() -> None:
    error = LspUnavailable("pyright-langserver not found on PATH.", language="py",
                           hint="Install it: npm install -g pyright.")
    env = failure(error, 2000)
    assert env == {"ok": False, "error": {"code": "LSP_UNAVAILABLE",
                                          "message": "pyright-langserver not found on PATH.",
                                          "language": "py",
                                          "hint": "Install it: npm install -g pyright."},
                   "tokenBudget": {"requested": 2000, "used": used_of(env)}}
    loud = failure(BadArgs("m" * 50_000, hint="h" * 50_000), MIN_BUDGET, ["w" * 900] * 9)
    check_invariants(loud, MIN_BUDGET)
    assert loud["error"]["code"] == "BAD_ARGS"


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=300),
    lambda inner: st.lists(inner, max_size=30) | st.dictionaries(st.text(max_size=12), inner,
                                                                 max_size=8),
    max_leaves=400,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(items=st.lists(JSON, max_size=400), extra=JSON,
       budget=st.integers(MIN_BUDGET, MAX_BUDGET),
       warnings=st.lists(st.text(max_size=400), max_size=4),
       shape=st.sampled_from(["list", "groups", "keyed", "tree"]))
def test_any_payload_fits_any_budget(items: list[Any], extra: Any, budget: int,
                                     warnings: list[str], shape: str) -> None:
    path: tuple[str, ...] = ("items",)
    data: dict[str, Any] = {"extra": extra}
    if shape == "groups":
        data["items"] = [{"name": str(i), "children": [item]} for i, item in enumerate(items)]
        path = ("items", EVERY, "children")
    elif shape == "keyed":
        data["items"] = {f"f{i}.py": [item, item] for i, item in enumerate(items)}
        path = ("items", EVERY)
    elif shape == "tree":
        data["items"] = [{"name": str(i), "children": [{"leaf": item}]}
                         for i, item in enumerate(items)]
    else:
        data["items"] = items
    cut = Cut("items", path, "Narrow it", tree=shape == "tree", page=Page("t", {}))
    env = success(Answer(data, cuts=[cut], warnings=warnings), budget)
    check_invariants(env, budget)
    if shape == "list" and isinstance(env["data"].get("items"), list):
        kept = env["data"]["items"]
        assert kept == items[: len(kept)]


@settings(max_examples=60, deadline=None)
@given(message=st.text(max_size=3000), budget=st.integers(MIN_BUDGET, MAX_BUDGET))
def test_any_error_fits_any_budget(message: str, budget: int) -> None:
    check_invariants(failure(BadArgs(message), budget), budget)


def test_units_a_handler_left_out_are_reported_as_dropped() -> None:
    cut = Cut("results", ("results",), "Narrow the query", omitted=30)
    env = success(Answer({"results": [1, 2, 3]}, cuts=[cut]), 2000)
    check_invariants(env, 2000)
    assert env["data"]["results"] == [1, 2, 3]
    assert env["dropped"]["count"] == 30 and env["dropped"]["kind"] == "results"


def test_keyed_groups_keep_a_prefix_in_order_and_drop_emptied_keys() -> None:
    refs = {f"f{g}.py": [f"{i} f | code line {i}" for i in range(20)] for g in range(8)}
    cut = Cut("references", ("references", EVERY), "Pass fileFilter",
              page=Page("nav_references", {"id": "py:a.py#f"}, offset=40))
    env = success(Answer({"total": 200, "references": refs}, cuts=[cut]), 500)
    check_invariants(env, 500)
    kept = env["data"]["references"]
    flat = [(path, row) for path, rows in refs.items() for row in rows]
    shown = [(path, row) for path, rows in kept.items() for row in rows]
    assert 0 < len(shown) < len(flat) and shown == flat[: len(shown)]
    assert all(kept.values()) and list(kept) == list(refs)[: len(kept)]
    # The page started at offset 40: the next one starts after what this one sent.
    assert env["dropped"]["next"]["args"] == {"id": "py:a.py#f", "offset": 40 + len(shown)}


def test_a_cheaper_tier_is_sent_whole_before_anything_is_dropped() -> None:
    full = {"symbols": [f"{i}-{i + 9} method m{i} | def m{i}(self, a, b, c, d) -> int"
                        for i in range(300)]}
    names = {"symbols": [f"{i} method m{i}" for i in range(300)]}
    cut = Cut("symbols", ("symbols",), "Pass kinds", page=Page("map_outline", {"file": "a"}))
    tier = Tier(names, "signatures", 300, "the signatures of 300 symbols", "Pass kinds",
                cuts=[cut])
    env = success(Answer(full, cuts=[cut], tiers=[tier]), 2000)
    check_invariants(env, 2000)
    assert env["data"] == names  # every symbol, by name: nothing dropped
    assert env["dropped"]["kind"] == "signatures" and "next" not in env["dropped"]
    assert env["dropped"]["note"].startswith("Left out the signatures of 300 symbols")
    # A budget that holds the rich rendering gets it.
    assert success(Answer(full, cuts=[cut], tiers=[tier]), 10000)["data"] == full


def test_the_last_tier_is_cut_and_paged_by_its_own_positions() -> None:
    rows = [f"{i} class C{i} | {i} method" for i in range(2000)]
    positions = [i * 7 for i in range(2000)]  # each class row stands for 7 outline rows
    cut = Cut("symbols", ("symbols",), "Pass kinds",
              page=Page("map_outline", {"file": "a"}, 0, positions))
    tier = Tier({"symbols": rows}, "members", 12000, "12000 nested symbols", "Pass kinds",
                cuts=[cut])
    rich = Cut("symbols", ("symbols",), "Pass kinds", page=Page("map_outline", {"file": "a"}))
    env = success(Answer({"symbols": ["x" * 100] * 14000}, cuts=[rich], tiers=[tier]), 1000)
    check_invariants(env, 1000)
    kept = env["data"]["symbols"]
    assert kept == rows[: len(kept)]
    assert env["dropped"]["note"].startswith("Left out 12000 nested symbols; Dropped ")
    assert env["dropped"]["next"]["args"] == {"file": "a", "offset": positions[len(kept)]}


def test_sections_keep_their_headers_when_their_rows_are_cut() -> None:
    sections = [{"symbol": f"py:a.py#C{s}.padding", "total": 50,
                 "references": {f"f{g}.py": [f"{i} C.m | padding = {i}" for i in range(10)]
                                for g in range(5)}} for s in range(3)]
    cut = Cut("references", ("results", EVERY, "references", EVERY), "Pass id")
    env = success(Answer({"results": sections}, cuts=[cut]), 600)
    check_invariants(env, 600)
    kept = env["data"]["results"]
    assert [s["symbol"] for s in kept] == [s["symbol"] for s in sections]
    assert sum(len(rows) for s in kept for rows in s["references"].values()) < 150


def test_rows_cut_before_strings_are_shortened_are_said() -> None:
    # a call hierarchy at a tiny budget: every call row dropped, then its long strings cut;
    # the note said only "Shortened strings" (rows dropped silently)
    data = {"symbol": "x" * 300, "calls": [f"a.py#f{i} 1 at:{i}" for i in range(20)],
            "text": "y" * 300}
    env = success(Answer(data, cuts=[Cut("calls", ("calls",), "Ask by id")]), 120)
    assert env["data"]["calls"] == [], env
    assert env["dropped"]["note"].startswith("Dropped 20 calls; shortened strings to "), env
    assert env["dropped"]["count"] == 20, env
