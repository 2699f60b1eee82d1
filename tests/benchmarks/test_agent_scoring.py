"""bench_agent's scoring and its reading of codenav's answers."""

from __future__ import annotations

from benchmarks.agent.codenav_path import call_rows, outline_names, read_facts
from benchmarks.agent.questions import QUESTIONS, Question
from benchmarks.agent.report import report
from benchmarks.agent.scoring import Answer, Learning, Result, charge_learning, summary


def question(kind: str, qid: str = "q", unique: bool = True) -> Question:
    return Question(qid, "rich", kind, "Console.render", unique, "")


def test_right_is_equal_facts_a_superset_for_outlines_order_for_params() -> None:
    result = Result(question("refs"), truth={("a.py", 1), ("a.py", 2)})
    assert result.right(Answer(facts={("a.py", 1), ("a.py", 2)}))
    extra = Answer(facts={("a.py", 1), ("a.py", 2), ("b.py", 3)})
    assert not result.right(extra)
    assert result.score(extra) == "2/2 +1"
    outline = Result(question("outline"), truth={"A", "A.f"})
    assert outline.right(Answer(facts={"A", "A.f", "B"}))
    assert outline.score(Answer(facts={"A", "A.f", "B"})) == "2/2"
    params = Result(question("params"), truth={"x", "y"}, truth_ordered=["x", "y"])
    assert not params.right(Answer(facts={"x", "y"}, ordered=["y", "x"]))


def test_learning_is_charged_once_to_the_first_question_using_each_tool() -> None:
    learning = Learning(tools_bytes=100, help_bytes={"nav_references": 10, "map_node": 20},
                        mcp_bytes=500)
    results = [Result(question("refs", "a")), Result(question("refs", "b")),
               Result(question("members", "c"))]
    results[0].codenav = Answer(calls=['nav_references {"symbol":"A"}'], sizes=[40])
    results[1].codenav = Answer(calls=['nav_references {"symbol":"B"}'], sizes=[60])
    results[2].codenav = Answer(calls=['map_node {"symbol":"C"}'], sizes=[30])
    for r in results:
        r.grep = Answer(calls=["grep -rnw X"], sizes=[100])
    charge_learning(results, learning)
    assert [r.learning for r in results] == [(110, 2), (0, 0), (20, 1)]
    totals = summary(results, learning)
    assert (totals["cli_bytes"], totals["cli_calls"]) == (130 + 130, 3 + 3)
    assert totals["mcp_bytes"] == 130 + 500
    assert totals["ratio"] == 130 / 300
    assert totals["unique_over"] == []
    lines = report(results, None, learning)
    assert any("codenav tools` (100 bytes)" in line for line in lines)


def test_call_rows_read_calls_children_and_every_definition() -> None:
    one = {"symbol": "py:console.py#Console.render method 10",
           "calls": ["x.py#f function 3 at:4",
                     {"call": "y.py#g function 5 at:6", "children": ["z.py#h function 7"]}]}
    rows = call_rows(one)
    assert [row for _, row in rows] == ["x.py#f function 3 at:4", "y.py#g function 5 at:6",
                                        "z.py#h function 7"]
    several = {"results": [one, {"symbol": "py:a.py#A.render method 1",
                                 "calls": ["b.py#k function 2"]}]}
    assert len(call_rows(several)) == 4
    answer = Answer()
    read_facts(question("callers"), {"ok": True, "data": several}, answer)
    assert answer.facts == {("x.py", "f"), ("y.py", "g"), ("z.py", "h"), ("b.py", "k")}


def test_call_rows_read_rows_grouped_by_file() -> None:
    grouped = {"symbol": "py:console.py#Console.render method 10",
               "calls": {"x.py": ["f function 3 at:4", "C.g method 8 at:9",
                                  "<module> at:12"],
                         "y.py": ["12:5 function h"], "(outside the root)": ["len at:3"]}}
    assert [row for _, row in call_rows(grouped)] == [
        "x.py#f function 3 at:4", "x.py#C.g method 8 at:9", "x.py module at:12",
        "y.py:12:5 function h"]
    answer = Answer()
    del grouped["calls"]["y.py"]  # (a server's row the map has no node for: no fact)
    read_facts(question("callers"), {"ok": True, "data": grouped}, answer)
    assert answer.facts == {("x.py", "f"), ("x.py", "g"), ("x.py", "<module>")}, answer.facts


def test_outline_names_nest_by_indentation() -> None:
    rows = ["1-20 class Console", "  3-5 method print | (self, x)", "    4 function inner",
            "  7 method log~2", "30 function f"]
    assert outline_names(rows) == {"Console", "Console.print", "Console.print.inner",
                                   "Console.log", "f"}


def test_the_questions_are_well_formed() -> None:
    ids = [q.qid for q in QUESTIONS]
    assert len(ids) == len(set(ids)) == 31
    assert {q.kind for q in QUESTIONS} == {"refs", "callers", "subclasses", "members",
                                           "params", "importers", "outline"}
