"""bench_agent's grep path on tiny trees: real grep and awk, the lines an agent would read."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from benchmarks.agent import grep_path
from benchmarks.agent.questions import Question
from tests.conftest import write_tree

pytestmark = pytest.mark.skipif(not (shutil.which("grep") and shutil.which("awk")),
                                reason="needs grep and awk")

PY_BASE = '''\
class Base:
    def run(self, x, *, y=1):
        return helper(x)

    def stop(self):
        pass


def helper(value):
    return value


class Child(Base):
    def run(self, x, *, y=1):
        def inner():
            return helper(1)
        if x:
            return helper(2)
        return inner()


class GrandChild(Child):
    pass

helper(3)
'''
PY_USE = '''\
from .base import helper


def main():
    # helper(0) in a comment
    return helper(4)
'''
TS_BASE = '''\
export class Base {
  run(x: number): number {
    return helper(x);
  }

  protected stop(
    now: boolean,
  ): void {
    helper(0);
  }
}

export function helper(value: number): number {
  return value;
}

export class Child extends Base {
  run(x: number): number {
    return helper(x + 1);
  }
}
'''
TS_USE = '''\
import { helper } from "./base";
export const main = () => helper(2);
function other() {
  // helper(9)
  helper(3);
}
'''


@pytest.fixture
def py_root(tmp_path: Path) -> Path:
    return write_tree(tmp_path / "pkg", {"__init__.py": "", "base.py": PY_BASE,
                                         "use.py": PY_USE})


@pytest.fixture
def ts_root(tmp_path: Path) -> Path:
    return write_tree(tmp_path / "src", {"base.ts": TS_BASE, "use.ts": TS_USE})


def ask(root: Path, kind: str, target: str, language: str, unique: bool = True):
    question = Question("q", "test", kind, target, unique, "")
    return grep_path.ask(root, question, language)


def test_callers_are_the_enclosing_definitions_only(py_root: Path) -> None:
    answer = ask(py_root, "callers", "helper", "python")
    assert answer.facts == {("base.py", "run"), ("base.py", "inner"), ("base.py", "<module>"),
                            ("use.py", "main")}
    assert len(answer.calls) == 2
    listing = answer.calls[1]
    assert listing.startswith("awk ") and listing.endswith(" base.py use.py")
    # one line per enclosing definition: neither `stop` nor the classes are listed
    printed = answer.sizes[1]
    assert printed == len("base.py:2:    def run(self, x, *, y=1):\n"
                          "base.py:15:        def inner():\n"
                          "base.py:14:    def run(self, x, *, y=1):\n"
                          "base.py:25:<module>\n"
                          "use.py:4:def main():\n")


def test_callers_in_typescript_methods_and_multiline_signatures(ts_root: Path) -> None:
    answer = ask(ts_root, "callers", "helper", "typescript")
    assert answer.facts == {("base.ts", "run"), ("base.ts", "stop"), ("use.ts", "<module>"),
                            ("use.ts", "other")}


def test_enclosing_reads_the_awk_lines() -> None:
    out = "a.py:3:    def f(self):\nb.ts:9:  protected g<T>(x: T) {\nc.py:7:<module>\n"
    assert grep_path.read_enclosing(out) == {("a.py", "f"), ("b.ts", "g"),
                                             ("c.py", "<module>")}


def test_refs_leave_comment_lines_out(py_root: Path) -> None:
    answer = ask(py_root, "refs", "helper", "python")
    assert answer.facts == {("base.py", n) for n in (3, 9, 16, 18, 25)} | {
        ("use.py", 1), ("use.py", 6)}
    assert answer.calls == ["grep -rnw --include='*.py' helper"]


def test_a_name_defined_twice_is_marked_name_only(py_root: Path) -> None:
    answer = ask(py_root, "refs", "Base.run", "python", unique=False)
    assert "name only" in answer.limit


def test_subclasses_level_by_level(py_root: Path, ts_root: Path) -> None:
    assert ask(py_root, "subclasses", "Base", "python").facts == {"Child", "GrandChild"}
    assert ask(ts_root, "subclasses", "Base", "typescript").facts == {"Child"}


def test_members_are_the_definitions_one_level_in(py_root: Path, ts_root: Path) -> None:
    answer = ask(py_root, "members", "Child", "python")
    assert answer.facts == {"run"}
    assert answer.sizes[1] == len("    def run(self, x, *, y=1):\n")
    assert ask(ts_root, "members", "Base", "typescript").facts == {"run", "stop"}


def test_params_of_a_method_and_of_a_function(py_root: Path, ts_root: Path) -> None:
    assert ask(py_root, "params", "Child.run", "python").ordered == ["x", "y"]
    assert ask(py_root, "params", "helper", "python").ordered == ["value"]
    assert ask(ts_root, "params", "Base.stop", "typescript").ordered == ["now"]
    assert ask(ts_root, "params", "helper", "typescript").ordered == ["value"]


def test_importers_as_files(py_root: Path, ts_root: Path) -> None:
    assert ask(py_root, "importers", "base.py", "python").facts == {"use.py"}
    assert ask(ts_root, "importers", "base.ts", "typescript").facts == {"use.ts"}


def test_outline_nested_by_indentation(py_root: Path, ts_root: Path) -> None:
    assert ask(py_root, "outline", "base.py", "python").facts == {
        "Base", "Base.run", "Base.stop", "helper", "Child", "Child.run", "Child.run.inner",
        "GrandChild"}
    assert ask(ts_root, "outline", "use.ts", "typescript").facts == {"other"}
    assert ask(ts_root, "outline", "base.ts", "typescript").facts == {
        "Base", "Base.run", "Base.stop", "helper", "Child", "Child.run"}
