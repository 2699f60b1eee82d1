"""Conditional compilation as the map decides it: C's #if branches (cpp_conditions), a C
project's configuration (modules/c.py decide), Rust's #[cfg] items and Go's //go:build."""

from __future__ import annotations

import json

from codenav.index.languages import by_code
from codenav.index.modules.c import CModules
from codenav.index.modules.cpp_conditions import evaluate, regions
from codenav.index.modules.go import GoModules
from codenav.index.modules.rust_cfg import regions as rust_regions

C = dict(by_code("c").predefined)  # type: ignore[union-attr]


def test_branches_decided_by_the_platform_and_the_file() -> None:
    source = b"\n".join([
        b"#ifndef GUARD_H",            # 1: an include guard: compiled
        b"#define GUARD_H",            # 2
        b"#define LEVEL 2",            # 3
        b"#ifdef _WIN32",              # 4
        b"win();",                     # 5: out
        b"#elif LEVEL > 1",            # 6
        b"level();",                   # 7: in
        b"#else",                      # 8
        b"other();",                   # 9: out
        b"#endif",                     # 10
        b"#if defined(FEATURE) && \\", # 11: continued
        b"    LEVEL >= 2",             # 12
        b"feature();",                 # 13: undecided
        b"#endif",                     # 14
        b"#if 0",                      # 15
        b"#if 1",                      # 16
        b"nested();",                  # 17: out (inside #if 0)
        b"#endif",                     # 18
        b"#endif",                     # 19
        b"#endif",                     # 20
    ])
    found = regions(source, C)
    assert (5, 5, "0") in found and (9, 9, "0") in found and (17, 17, "0") in found
    assert (13, 13, "defined(FEATURE) && 2 >= 2") in found
    assert not any(start <= 7 <= end for start, end, _ in found)  # LEVEL > 1 holds


def test_broken_directives_are_no_error() -> None:
    assert regions(b"#endif\n#else\n#if (\nx\n", C) == [(4, 4, "(")]
    assert regions(b"#define X 09\n#if X\ny\n#endif\n", C) == [(3, 3, "X")]


def test_three_valued_evaluation() -> None:
    known = {"A": 1, "B": False}.get
    assert evaluate("A && !defined(B)", known) is True
    assert evaluate("defined(C) && B", known) is False  # 0 && anything
    assert evaluate("defined(C) || A", known) is True
    assert evaluate("C > 1", known) is None


def test_the_projects_configuration_decides_what_is_left() -> None:
    modules = CModules()
    database = [{"directory": "/r", "file": "/r/src/a.c",
                 "arguments": ["cc", "-DWITH_TLS", "-UNDEBUG", "-c", "src/a.c"]}]
    modules.index(["src/a.c", "src/a.h"], "r",
                  {"compile_commands.json": json.dumps(database)}.get)
    defined = {"APP_VERSION", "FFC_IMPL"}
    assert modules.decide("src/a.c", "defined(WITH_TLS)", defined) is True
    assert modules.decide("src/a.c", "defined(NDEBUG)", defined) is False
    assert modules.decide("src/a.h", "defined(FFC_IMPL)", defined) is True  # some file does
    # the project's own name nothing defines: off; a system header's may be on
    assert modules.decide("src/a.c", "defined(APP_TEST_MAIN)", defined) is False
    assert modules.decide("src/a.c", "defined(SOCK_CLOEXEC)", defined) is None
    unconfigured = CModules()
    unconfigured.index(["src/a.c"], "r", {}.get)
    assert unconfigured.decide("src/a.c", "defined(APP_TEST_MAIN)", defined) is None


def test_rust_cfg_items() -> None:
    source = b"""#[cfg(unix)]
fn imp() {}
#[cfg(not(unix))]
fn imp() { let s = "}"; }
#[cfg(all(windows, feature = "x"))]
use std::os::windows;
#[cfg(feature = "pcre2")]
mod pcre2;
"""
    found = rust_regions(source, dict(by_code("rs").predefined))  # type: ignore[union-attr]
    assert found == [(3, 4, "0"), (5, 6, "0"), (7, 8, "defined(feature_pcre2)")]


def test_go_build_constraints() -> None:
    go = dict(by_code("go").predefined)  # type: ignore[union-attr]
    assert GoModules().regions(b"//go:build windows\n\npackage a\n", go) == [(1, 4, "0")]
    assert GoModules().regions(b"//go:build linux && amd64\n\npackage a\n", go) == []
