"""Linking C and C++ across files: the golden of every link of the `cfamily` repo, the links
that matter most asserted one by one, and the include / namespace module system."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from codenav.index.modules import module_system
from codenav.index.modules.c import CModules
from codenav.index.pipeline import index_tree
from tests.conftest import FIXTURES, check_golden, indexed_repo, render_links


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return indexed_repo("cfamily", tmp_path_factory.mktemp("cfamily"))


@pytest.fixture(scope="module")
def links(root: Path) -> str:
    return render_links(root)


def test_links_golden(links: str) -> None:
    check_golden(FIXTURES / "repos" / "cfamily.links.golden", links)


@pytest.mark.parametrize("line", [
    # C: a function declared in a header (found through an include folder) and defined in a
    # .c file: the call and the header's prototype both reach the definition
    "c/src/main.c:6:21 vec_new (call) -> c:c/src/vec.c#vec_new",
    "c/include/geo/vec.h:27:7 vec_add (declaration) -> c:c/src/vec.c#vec_add",
    # an `extern` global: its definition
    "c/src/main.c:13:38 vec_created (name) -> c:c/src/vec.c#vec_created",
    # a function declared in a header of the same folder, defined beside it
    "c/src/main.c:11:5 print_segment (call) -> c:c/src/util.c#print_segment",
    # types, macros and enumerators of a header included by an included header
    "c/src/main.c:9:12 segment (name) -> c:c/include/geo/vec.h#segment",
    "c/src/main.c:7:15 VEC_ZERO (name) -> c:c/include/geo/vec.h#VEC_ZERO",
    "c/src/vec.c:16:17 VEC_DOT (call) -> c:c/include/geo/vec.h#VEC_DOT",
    "c/src/main.c:10:23 AXIS_Y (name) -> c:c/include/geo/vec.h#AXIS_Y",
    # fields through pointers, a field's type, and a typedef of the struct
    "c/src/main.c:14:14 to (attribute) -> c:c/include/geo/vec.h#segment.to",
    "c/src/main.c:14:18 x (attribute) -> c:c/include/geo/vec.h#vec.x",
    "c/src/vec.c:10:20 x (attribute) -> c:c/include/geo/vec.h#vec.x",
    # a static function of the same file
    "c/src/util.c:12:5 check (call) -> c:c/src/util.c#check",
    # C++: a class of a namespace through `using ns::C;`, its own and inherited methods
    "cpp/src/main.cpp:22:5 Circle (name) -> cpp:cpp/include/shapes/shape.hpp#shapes.Circle",
    "cpp/src/main.cpp:27:36 radius (call) -> cpp:cpp/include/shapes/shape.hpp#shapes.Circle.radius",
    "cpp/src/main.cpp:28:25 describe (call) -> "
    "cpp:cpp/include/shapes/shape.hpp#shapes.Shape.describe",
    # a qualified call of a free function declared in a header, defined in a namespace block
    "cpp/src/main.cpp:25:26 total_area (call) -> cpp:cpp/src/shape.cpp#shapes.total_area",
    # enum class members and a type alias, qualified
    "cpp/src/main.cpp:26:39 Metre (attribute) -> "
    "cpp:cpp/include/shapes/shape.hpp#shapes.Unit.Metre",
    "cpp/src/main.cpp:24:13 ShapeList (attribute) -> "
    "cpp:cpp/include/shapes/shape.hpp#shapes.ShapeList",
    # a base class qualified with its namespace; a method of the file's own class
    "cpp/src/main.cpp:11:31 Shape (inheritance) -> cpp:cpp/include/shapes/shape.hpp#shapes.Shape",
    "cpp/src/main.cpp:27:53 area (call) -> cpp:cpp/src/main.cpp#app.Square.area",
    # C++ calling C: a function of a C header, defined in a .c file, and a struct's field
    "cpp/src/main.cpp:27:21 vec_new (call) -> c:c/src/vec.c#vec_new",
    "cpp/src/main.cpp:28:63 x (attribute) -> c:c/include/geo/vec.h#vec.x",
    # out-of-class definitions in a namespace block: implicit members of the class of the
    # header, a virtual call through `this`
    "cpp/src/shape.cpp:7:24 id_ (name) -> cpp:cpp/include/shapes/shape.hpp#shapes.Shape.id_",
    "cpp/src/shape.cpp:12:46 area (call) -> cpp:cpp/include/shapes/shape.hpp#shapes.Shape.area",
    # `ns::C::m() {}` at the top level: `this->x` and a bare member
    "cpp/src/shape.cpp:32:34 radius_ (attribute) -> "
    "cpp:cpp/include/shapes/shape.hpp#shapes.Circle.radius_",
    "cpp/src/shape.cpp:32:18 radius_ (name) -> "
    "cpp:cpp/include/shapes/shape.hpp#shapes.Circle.radius_",
    # ... and a name of the class's namespace
    "cpp/src/shape.cpp:32:12 kPi (name) -> cpp:cpp/include/shapes/shape.hpp#shapes.kPi",
    # a typed range-for variable
    "cpp/src/shape.cpp:23:23 area (call) -> cpp:cpp/include/shapes/shape.hpp#shapes.Shape.area",
    # `namespace a::b {}` reopened in another file; a plain enum's enumerators, bare in the
    # namespace
    "cpp/src/main.cpp:22:35 next_id (call) -> cpp:cpp/src/shape.cpp#shapes.detail.next_id",
    "cpp/src/shape.cpp:20:19 Solid (name) -> cpp:cpp/include/shapes/shape.hpp#shapes.Solid",
    # a declaration in the header reaches the definition in the namespace block
    "cpp/include/shapes/shape.hpp:41:8 total_area (declaration) -> "
    "cpp:cpp/src/shape.cpp#shapes.total_area",
])
def test_important_links(links: str, line: str) -> None:
    assert line in links.splitlines()


def test_no_wrong_links(links: str) -> None:
    rows = links.splitlines()
    # `check` is static in two .c files and main.c sees neither: no guess
    assert "c/src/main.c:12:5 check (call) -> unresolved F:c/src/main.c::check" in rows
    # system headers resolve to nothing; std:: names stay unresolved
    assert not [r for r in rows if " printf " in r and "unresolved" not in r]
    assert not [r for r in rows if " std " in r and "unresolved" not in r]
    # parameters and locals are not links
    assert not [r for r in rows if r.split(" ")[1] in ("a", "b", "v", "s", "sum", "circle")]


def test_prototypes_are_not_nodes_definitions_are(root: Path) -> None:
    conn = sqlite3.connect(root / ".codenav" / "map.db")
    try:
        found = {nid: kind for nid, kind in conn.execute("SELECT nid, kind FROM nodes")}
    finally:
        conn.close()
    assert found["c:c/src/vec.c#vec_add"] == "function"
    assert "c:c/include/geo/vec.h#vec_add" not in found  # a prototype
    assert "c:c/include/geo/vec.h#vec_created" not in found  # extern
    assert found["c:c/src/vec.c#vec_created"] == "variable"
    assert found["c:c/include/geo/vec.h#vec_t"] == "typedef"
    assert found["c:c/include/geo/vec.h#AXIS_X"] == "constant"
    assert found["c:c/include/geo/vec.h#VEC_DOT"] == "macro"
    assert found["cpp:cpp/include/shapes/shape.hpp#shapes"] == "namespace"
    assert found["cpp:cpp/include/shapes/shape.hpp#shapes.Shape.area"] == "method"
    assert found["cpp:cpp/include/shapes/shape.hpp#shapes.Unit"] == "enum"
    # out-of-class definitions: named in their class, in the namespace written around them
    assert found["cpp:cpp/src/shape.cpp#shapes.Shape.describe"] == "method"
    assert found["cpp:cpp/src/shape.cpp#shapes.Circle.area"] == "method"
    assert found["cpp:cpp/src/shape.cpp#shapes.total_area"] == "function"


# ----------------------------------------------------------------- module system

def system(paths: list[str]) -> CModules:
    modules = CModules()
    modules.index(paths, "repo")
    return modules


def test_loaded_by_name() -> None:
    assert isinstance(module_system("c"), CModules)


def test_keys() -> None:
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
    modules = system(["src/a.c", "src/b.h", "include/geo/vec.h", "lib/util/common.h",
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
    modules = system(["include/geo/vec.h", "third_party/geo/vec.h", "src/config.h"])
    assert modules.files_for("I:stdio.h") == []
    # an `include/` folder wins over another folder ending the same way
    assert modules.files_for("I:geo/vec.h") == ["include/geo/vec.h"]
    assert modules.files_for("I:config.h") == ["src/config.h"]
    assert modules.files_for("I:../config.h") == []
    assert modules.files_for("Q:std@cpp") == []


# ------------------------------------------------------------- .h headers in C++

WIDGET_H = """\
#pragma once
namespace ui {
class Widget {
public:
    int size() const;
};
}
"""
PLAIN_H = """\
#ifdef __cplusplus
extern "C" {
#endif
int add(int a, int b);
#ifdef __cplusplus
}
#endif
"""


def test_a_header_written_in_cpp_is_cpp_and_a_c_header_stays_c(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    (root / "include").mkdir(parents=True)
    (root / "src").mkdir()
    (root / "include" / "widget.h").write_text(WIDGET_H)
    (root / "include" / "plain.h").write_text(PLAIN_H)
    (root / "src" / "widget.cpp").write_text(
        '#include "widget.h"\nint ui::Widget::size() const { return 1; }\n')
    (root / "src" / "main.cpp").write_text(
        '#include "widget.h"\n#include "plain.h"\n'
        "int main() { ui::Widget w; return add(w.size(), 1); }\n")
    (root / "src" / "plain.c").write_text('#include "plain.h"\nint add(int a, int b) '
                                          "{ return a + b; }\n")
    index_tree(root)
    db = root / ".codenav" / "map.db"

    def facts() -> tuple[dict[str, tuple[str, int]], dict[str, str]]:
        conn = sqlite3.connect(db)
        try:
            files = {path: (lang, errors) for path, lang, errors in
                     conn.execute("SELECT path, lang, parse_errors FROM files")}
            nodes = {nid: kind for nid, kind in conn.execute("SELECT nid, kind FROM nodes")}
        finally:
            conn.close()
        return files, nodes

    files, nodes = facts()
    assert files["include/widget.h"] == ("cpp", 0)  # as C it would not parse
    assert files["include/plain.h"][0] == "c"  # (the C grammar trips on the split extern "C")
    assert nodes["cpp:include/widget.h#ui.Widget"] == "class"
    assert nodes["cpp:include/widget.h#ui.Widget.size"] == "method"
    main_links = [line for line in render_links(root).splitlines()
                  if line.startswith("src/main.cpp")]
    assert any("cpp:include/widget.h#ui.Widget" in line for line in main_links), main_links
    assert any("c:src/plain.c#add" in line for line in main_links), main_links

    # an edit that makes the C header C++ moves it, incrementally
    (root / "include" / "plain.h").write_text(PLAIN_H + "class Adder;\n")
    index_tree(root)
    files, nodes = facts()
    assert files["include/plain.h"][0] == "cpp" and "c:include/plain.h" not in nodes
