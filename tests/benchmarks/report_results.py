"""A whole ``results`` dict of ``python -m benchmarks`` with made-up figures, for the report."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

from benchmarks.bench_accuracy import Measured
from benchmarks.symbols import Symbol


def _measured(name: str, kind: str, path: str, truth: int, mapped: int) -> Measured:
    m = Measured(Symbol(name, kind, path, 10, 5))
    m.truth = {(path, 20 + i, 1) for i in range(truth)}
    m.mapped = {(path, 20 + i, 1) for i in range(mapped)} | {("x.py", 3, 1)}
    return m


def results(full: bool = True) -> dict[str, Any]:
    """Every key ``write_report`` reads; without ``full``, those a run may lack are None."""
    tools = ["map_node", "map_search", "nav_references"]
    timings = {t: [0.5 + i * 0.1 + j for j in range(20)] for i, t in enumerate(tools)}
    tokens = {t: [100 + i for i in range(20)] for t in tools}
    symbols = [_measured("gettext", "function", "a.py", 3, 9),
               _measured("Field", "class", "b.py", 5, 2)]
    acc = {"corpus": "django", "server": "basedpyright", "drawn": 2, "measured": 2,
           "symbols": symbols, "position": {"precision": 0.85, "recall": 0.975, "truth": 8},
           "line": {"precision": 0.87, "recall": 0.977, "truth": 8},
           "kinds": {"class": {"n": 1, "precision": 1.0, "recall": 0.4, "truth": 5}}}
    lsp = {"server": "basedpyright", "incomplete": 1, "warm_latency": [0.01, 0.02, 0.07],
           "cold": [{"answered_s": 1.0, "share": 0.5}, {"answered_s": 2.0, "share": 1.0}],
           "starts": [{"initialize_s": 0.2, "first_answer_s": 0.8, "warm_s": 4.7}]}
    out: dict[str, Any] = {
        "versions": "basedpyright 1.40.2, ctags: Universal Ctags 5.9.0",
        "django_root": Path("/cache/django-5.2.19/django"), "repeat": 3,
        "index_whole": {"files": 885, "lines": 158984, "ctags_s": 0.11, "parse_s": 0.35,
                        "cold_s": 2.26, "cold_rss": 97.0, "noop_s": 0.11, "edit_kb": 117,
                        "edit_s": 0.2, "mapped": 972, "parse_all_s": 0.46, "nodes": 21238,
                        "refs": 119135, "db_mb": 31.5},
        "index_scale": [{"files": 88, "lines": 14629, "codenav_s": 0.31, "codenav_rss": 87.0,
                         "ctags_s": 0.01, "parse_s": 0.03},
                        {"files": 885, "lines": 158984, "codenav_s": 1.89, "codenav_rss": 89.0,
                         "parse_s": 0.34}],
        "tokens": {"per_type": 40, "rows": [
            {"type": t, "questions": 40, "facts": 90, "codenav_tokens": 94.0,
             "grep_tokens": 146.0, "ratio": 1.5, "codenav_sum": 17339, "grep_sum": 817242,
             "codenav_facts": 0.97, "codenav_complete": 0.97, "grep_facts": 0.9,
             "grep_complete": 0.9, "grep_files": 0.0, "grep_lines": 7.0,
             "codenav_truncated": 6, "grep_ms": 43.0, "codenav_ms": 0.7}
            for t in ("where", "callers")]},
        "calls": 100,
        "tools_in_process": (timings, tokens),
        "accuracy": [acc],
        "agent": ([], None, None),
        "lsp": [lsp], "lsp_rounds": 3,
        "index_cpython": None, "first_map": None, "startup": None, "growth": None,
    }
    if full:
        out.update(
            rxjs=True,
            index_cpython={"files": 1606, "lines": 804485, "cold_s": 11.02, "cold_rss": 221.0,
                           "parse_s": 2.19},
            first_map={"corpus": "django", "rounds": [1, 2, 3], "id": "py:q.py#QuerySet",
                       "first_s": 1.41, "built_s": 2.61, "index_s": 2.29,
                       "ratio_median": 1.14},
            startup={"folders": 10000, "repeat": 3,
                     "on": {"initialize_s": 0.59, "watching_s": 1.0, "exit_s": 0.2,
                            "wal_bytes": 0.0},
                     "off": {"initialize_s": 0.6, "watching_s": float("nan"), "exit_s": 0.2,
                             "wal_bytes": 0.0}},
            growth=[{"files": n, "bare": n / 2000, "index": n / 400, "rss": 100 + n / 50,
                     "update_p50": 4.4, "update_max": 39.0, "refresh_p50": 6.6,
                     "visible_p50": 71.0, "visible_max": 111.0} for n in (1000, 5000)],
            tools_stdio=(timings, tokens, 563.0),
            lsp_tools={"cold": {("nav_hover", s): (0.01, "map") for s in ("auto", "lsp", "map")},
                       "warm": SimpleNamespace(latencies={("nav_hover", "lsp"): [0.001],
                                                          ("nav_hover", "map"): []}),
                       "switched_s": 1.4, "map_answers": 5})
    return out
