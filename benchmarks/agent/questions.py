"""The questions of ``bench_agent``: what an agent asks about rich and rxjs, with the exact
symbol each is about.

Each names its target as the question does (``Class.method``, ``module.function``, or a
path relative to the corpus root for importers and outlines) and says whether that name is
defined once in the corpus (``unique``): a name defined many times is where grep reads
other symbols' lines and a map must pick the right definition.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["KINDS", "QUESTIONS", "Question"]

# what a question asks for; the facts an answer is scored on (benchmarks/agent/scoring.py)
KINDS = {
    "refs": "(file, line) of the definition and of every use",
    "callers": "(file, name of the innermost function, method or class around a call)",
    "subclasses": "names of the subtypes, direct or not",
    "members": "names of the class's methods (and properties)",
    "params": "the parameter names, in order",
    "importers": "files importing the module",
    "outline": "qualified names of the file's classes, functions and methods",
}


@dataclass(frozen=True)
class Question:
    qid: str
    corpus: str
    kind: str  # one of KINDS
    target: str  # a qualified name (Class.method, module.function) or, for importers and
    # outline, a path relative to the corpus root
    unique: bool  # whether the symbol's name is defined once in the corpus
    text: str
    codenav: tuple[tuple[str, dict[str, Any]], ...] = ()  # default: by kind (codenav_path)

    @property
    def name(self) -> str:
        return self.target.rsplit(".", 1)[-1]

    @property
    def owner(self) -> str:
        """The class (or module) the target is qualified by, "" when it is not."""
        return self.target.rpartition(".")[0] if self.kind not in ("importers", "outline") \
            else ""


def _q(qid: str, corpus: str, kind: str, target: str, unique: bool, text: str,
       *codenav: tuple[str, dict[str, Any]]) -> Question:
    return Question(qid, corpus, kind, target, unique, text, tuple(codenav))


QUESTIONS: tuple[Question, ...] = (
    # ---- rich (Python)
    _q("r-def-uses", "rich", "refs", "Console.end_capture", True,
       "Where is end_capture defined and where is it used?"),
    _q("r-uses-many", "rich", "refs", "Table.add_row", True, "Every use of Table.add_row."),
    _q("r-uses-fn", "rich", "refs", "loop_last", True, "Every use of the function loop_last."),
    _q("r-uses-get", "rich", "refs", "Measurement.get", False,
       "Every use of Measurement.get (get: 4 definitions, dict.get everywhere)."),
    _q("r-uses-update", "rich", "refs", "ConsoleOptions.update", False,
       "Every use of ConsoleOptions.update (update: 8 definitions)."),
    _q("r-callers", "rich", "callers", "Console.render_lines", True,
       "Which functions call Console.render_lines?"),
    _q("r-callers-qual", "rich", "callers", "cells.cell_len", False,
       "Which functions call cell_len of rich/cells.py?"),
    _q("r-callers-render", "rich", "callers", "Console.render", False,
       "Which functions call Console.render (render: 22 definitions)?"),
    _q("r-subclasses", "rich", "subclasses", "JupyterMixin", True,
       "Every subclass of JupyterMixin."),
    _q("r-subclasses-2", "rich", "subclasses", "ProgressColumn", True,
       "Every subclass of ProgressColumn, direct or not."),
    _q("r-members", "rich", "members", "Console", True,
       "The methods (and properties) of class Console."),
    _q("r-members-2", "rich", "members", "Table", True,
       "The methods (and properties) of class Table."),
    _q("r-params", "rich", "params", "Console.print", False, "The parameters of Console.print."),
    _q("r-params-2", "rich", "params", "Table.add_column", True,
       "The parameters of Table.add_column."),
    _q("r-importers", "rich", "importers", "segment.py", True,
       "Which modules import rich.segment?"),
    _q("r-outline", "rich", "outline", "console.py", True,
       "The classes, functions and methods of rich/console.py."),
    # ---- rxjs (TypeScript)
    _q("x-uses", "rxjs", "refs", "popScheduler", True, "Every use of popScheduler."),
    _q("x-uses-2", "rxjs", "refs", "observeNotification", True,
       "Where is observeNotification defined and where is it used?"),
    _q("x-uses-add", "rxjs", "refs", "Subscription.add", False,
       "Every use of Subscription.add (add: Set.add, Map.add … everywhere)."),
    _q("x-uses-schedule", "rxjs", "refs", "Scheduler.schedule", False,
       "Every use of Scheduler.schedule (schedule: 10 definitions)."),
    _q("x-callers", "rxjs", "callers", "popResultSelector", True,
       "Which functions call popResultSelector?"),
    _q("x-callers-2", "rxjs", "callers", "Subject._throwIfClosed", True,
       "Which methods call Subject._throwIfClosed?"),
    _q("x-callers-recycle", "rxjs", "callers", "AsyncAction.recycleAsyncId", False,
       "Which methods call AsyncAction.recycleAsyncId (4 definitions)?"),
    _q("x-subclasses", "rxjs", "subclasses", "Subscription", True,
       "Every subtype (class or interface) of Subscription, direct or not."),
    _q("x-subclasses-2", "rxjs", "subclasses", "Subject", True, "Every subclass of Subject."),
    _q("x-members", "rxjs", "members", "Observable", True, "The methods of class Observable."),
    _q("x-members-2", "rxjs", "members", "Subject", True, "The methods of class Subject."),
    _q("x-params", "rxjs", "params", "bindCallbackInternals", True,
       "The parameters of bindCallbackInternals."),
    _q("x-params-2", "rxjs", "params", "AsyncAction.requestAsyncId", False,
       "The parameters of AsyncAction.requestAsyncId."),
    _q("x-importers", "rxjs", "importers", "internal/util/isFunction.ts", True,
       "Which modules import internal/util/isFunction?"),
    _q("x-outline", "rxjs", "outline", "internal/testing/TestScheduler.ts", True,
       "The classes, functions and methods of internal/testing/TestScheduler.ts."),
)
