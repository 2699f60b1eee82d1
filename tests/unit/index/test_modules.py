"""The Python module system: which file an import means."""

from __future__ import annotations

from pathlib import Path

from codenav.index.modules import module_system
from codenav.index.modules.python import PythonModules


def system(paths: list[str], root_name: str = "repo") -> PythonModules:
    modules = PythonModules()
    modules.index(paths, root_name)
    return modules


def test_absolute_and_relative_keys() -> None:
    modules = PythonModules()
    assert modules.module_key("pkg/sub/mod.py", "os.path") == "I:os.path"
    assert modules.module_key("pkg/sub/mod.py", ".x") == "P:pkg/sub/x"
    assert modules.module_key("pkg/sub/mod.py", "..y.z") == "P:pkg/y/z"
    assert modules.module_key("pkg/sub/mod.py", ".") == "P:pkg/sub"
    assert modules.module_key("mod.py", "..up") is None  # above the root
    assert modules.prefix_keys("a.py", "x.y.z") == ["I:x", "I:x.y", "I:x.y.z"]
    assert modules.prefix_keys("p/a.py", ".x.y") == ["P:p/x", "P:p/x/y"]


def test_src_layout_tests_and_scripts() -> None:
    modules = system(["src/shop/__init__.py", "src/shop/models.py", "src/shop/sub/__init__.py",
                      "src/shop/sub/deep.py", "tests/test_x.py", "scripts/tool.py"])
    assert modules.files_for("I:shop") == ["src/shop/__init__.py"]
    assert modules.files_for("I:shop.models") == ["src/shop/models.py"]
    assert modules.files_for("I:shop.sub.deep") == ["src/shop/sub/deep.py"]
    assert modules.files_for("I:test_x") == ["tests/test_x.py"]  # its folder is on sys.path
    assert modules.files_for("I:scripts.tool") == ["scripts/tool.py"]  # path fallback
    assert modules.files_for("P:src/shop/sub") == ["src/shop/sub/__init__.py"]
    assert modules.files_for("P:src/shop/models") == ["src/shop/models.py"]
    assert modules.files_for("I:missing") == []


def test_a_root_that_is_itself_a_package() -> None:
    modules = system(["__init__.py", "db/__init__.py", "db/models.py"], root_name="django")
    assert modules.files_for("I:django") == ["__init__.py"]
    assert modules.files_for("I:django.db.models") == ["db/models.py"]


def test_stubs_come_after_sources_and_unknown_systems_resolve_nothing() -> None:
    modules = system(["pkg/__init__.py", "pkg/a.py", "pkg/a.pyi"])
    assert modules.files_for("I:pkg.a") == ["pkg/a.py"]
    nothing = module_system("no-such-system")
    assert nothing.module_key("a.py", "x") is None and nothing.files_for("I:x") == []


def test_every_project_file_a_module_system_reads_relinks_when_it_changes() -> None:
    """The watcher relinks the map when a project file changes; each module system says
    which it reads (``project_files``): every such name in its source is declared."""
    import importlib
    import re

    from codenav.index import modules
    from codenav.index.watch import PROJECT_FILES

    folder = Path(modules.__file__).parent
    for source in sorted(folder.glob("*.py")):
        found = importlib.import_module(f"codenav.index.modules.{source.stem}")
        system = module_system(source.stem) if hasattr(found, "SYSTEM") else None
        named = set(re.findall(r'"((?:[\w-]+/)*[\w-]+\.(?:json|toml|mod|txt))"',
                               source.read_text()))
        names = {name.rsplit("/", 1)[-1] for name in named}
        if system is None or not names:
            continue
        assert names <= system.project_files, (source.name, names - system.project_files)
        assert system.project_files <= PROJECT_FILES
