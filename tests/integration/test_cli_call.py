"""``codenav call`` and ``codenav status``: the tools from a shell, with exit codes."""

from __future__ import annotations

import json
import shlex
import subprocess
from pathlib import Path

from tests.conftest import run_codenav, write_tree

FILES = {"lib/shapes.py": "class Circle:\n    def area(self):\n        return 3.14\n"}


def test_call_prints_the_envelope_and_exits_by_ok(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo", FILES)
    status = run_codenav("status", root)
    assert status.returncode == 0
    assert json.loads(status.stdout)["data"]["built"] is False

    rebuilt = run_codenav("call", "map_rebuild", '{"full": true}', "--root", root)
    assert rebuilt.returncode == 0, rebuilt.stderr
    envelope = json.loads(rebuilt.stdout)
    assert envelope["ok"] is True and envelope["data"]["parsed"] == 1
    assert rebuilt.stdout.count("\n") == 1  # one compact line

    pretty = run_codenav("call", "map_status", "--root", root, "--pretty")
    assert pretty.returncode == 0 and pretty.stdout.startswith('{\n  "ok": true,')

    refused = run_codenav("call", "map_rebuild", '{"paths": ["../../etc"]}', "--root", root)
    assert refused.returncode == 1
    assert json.loads(refused.stdout)["error"]["code"] == "OUT_OF_ROOT"


def test_usage_errors_exit_2_without_an_envelope(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo", FILES)
    for args in (["call", "map_nothing", "--root", root],
                 ["call", "map_status", "{not json", "--root", root],
                 ["call", "map_status", "[1, 2]", "--root", root],
                 ["call", "--root", root],
                 ["status", tmp_path / "missing"]):
        done = run_codenav(*args)
        assert done.returncode == 2, args
        assert done.stdout == ""
        assert "codenav: error:" in done.stderr or "usage:" in done.stderr


def test_several_calls_in_one_command_answer_a_line_each_in_order(tmp_path: Path) -> None:
    # agents at a shell ask several questions a command (grep agents do: `grep …; grep …`)
    root = write_tree(tmp_path / "repo", FILES)
    assert run_codenav("index", root).returncode == 0
    done = run_codenav("call", "map_search", '{"query": "Circle"}', "map_node",
                       '{"symbol": "Circle.area"}', "map_status", "--root", root)
    assert done.returncode == 0, done.stderr
    first, second, third = (json.loads(line) for line in done.stdout.splitlines())
    assert first["data"]["results"][0].startswith("py:lib/shapes.py#Circle ")
    assert second["data"]["id"] == "py:lib/shapes.py#Circle.area"
    assert third["data"]["built"] is True
    # the same brace-expanded and unquoted forms as one call (words split at a tool's name)
    done = run_codenav("call", "map_node", "symbol:Circle", "kinds:[method]", "map_node",
                       "{symbol:Circle.area}", "--root", root)
    assert done.returncode == 0, done.stderr
    assert [json.loads(line)["data"]["id"] for line in done.stdout.splitlines()] == \
        ["py:lib/shapes.py#Circle", "py:lib/shapes.py#Circle.area"]
    # a tool's name inside an object the shell split at its spaces is a value, not a call
    done = run_codenav("call", "map_search", "{", "query:", "map_node", "}", "--root", root)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["data"]["query"] == "map_node"
    # one answer not ok: every answer still printed, exit 1
    done = run_codenav("call", "map_node", '{"symbol": "Nowhere"}', "map_node",
                       '{"symbol": "Circle"}', "--root", root)
    assert done.returncode == 1
    assert [json.loads(line)["ok"] for line in done.stdout.splitlines()] == [False, True]
    # a bad argument anywhere: nothing runs, the call is named
    done = run_codenav("call", "map_status", "map_node", "{not json", "--root", root)
    assert done.returncode == 2 and done.stdout == ""
    assert "call 2 (map_node): arguments are not valid JSON" in done.stderr


def test_an_object_whose_quotes_the_shell_took_is_read_back(tmp_path: Path) -> None:
    # `codenav call map_search {"query":"Circle","kinds":["class"]}` typed without the
    # outer quotes reaches codenav as {query:Circle,kinds:[class]}: agents do it often
    root = write_tree(tmp_path / "repo", FILES)
    assert run_codenav("index", root).returncode == 0
    # typed into bash: brace expansion splits it at its commas, quote removal takes the rest
    typed = "codenav call map_search {\"query\":\"Circle\",\"kinds\":[\"class\",\"method\"]," \
            "\"tokenBudget\":300} --root " + shlex.quote(str(root))
    words = subprocess.run(["bash", "-c", 'printf "%s\\n" ' + typed.split(" ", 1)[1]],
                           capture_output=True, text=True, check=True).stdout.splitlines()
    assert words[2:5] == ["query:Circle", "kinds:[class", "method]"], words
    done = run_codenav(*words)
    assert done.returncode == 0, done.stderr
    envelope = json.loads(done.stdout)
    assert envelope["data"]["results"] and "Circle" in envelope["data"]["results"][0]
    assert envelope["tokenBudget"]["requested"] == 300
    # one object with spaces, unquoted: split at them
    spaced = run_codenav("call", "map_search", "{query:", "Circle}", "--root", root)
    assert spaced.returncode == 0 and "Circle" in spaced.stdout, spaced.stderr
    # an id keeps its colons
    by_id = run_codenav("call", "map_node", "{id:py:lib/shapes.py#Circle}", "--root", root)
    assert by_id.returncode == 0 and json.loads(by_id.stdout)["data"]["id"] == \
        "py:lib/shapes.py#Circle", by_id.stdout
    # an empty string arrives as nothing before the comma (liquidjs, run 24: a text search
    # of a line range, `"query":""`, was refused as invalid JSON)
    typed = "codenav call map_search {\"query\":\"\",\"text\":true,\"fileFilter\":" \
            "\"lib/shapes.py:1-2\"}"
    words = subprocess.run(["bash", "-c", 'printf "%s\n" ' + typed.split(" ", 1)[1]],
                           capture_output=True, text=True, check=True).stdout.splitlines()
    assert words[2] == "query:", words
    ranged = run_codenav(*words, "--root", root)
    assert ranged.returncode == 0, ranged.stderr
    assert list(json.loads(ranged.stdout)["data"]["results"]) == ["lib/shapes.py"]
    last = run_codenav("call", "map_search", "{text:true,fileFilter:lib/shapes.py:1,query:}",
                       "--root", root)
    assert last.returncode == 0, last.stderr
    # a string holding commas keeps them (pyasn1, run 31: `"fileFilter":"pkg/,tests/a.py"`
    # was refused as invalid JSON): each word of the expansion is one member
    typed = "codenav call map_search {\"query\":\"Circle\",\"fileFilter\":\"lib/,docs/\"," \
            "\"kinds\":[\"class\"]}"
    words = subprocess.run(["bash", "-c", 'printf "%s\n" ' + typed.split(" ", 1)[1]],
                           capture_output=True, text=True, check=True).stdout.splitlines()
    assert words[2:5] == ["query:Circle", "fileFilter:lib/,docs/", "kinds:[class]"], words
    filtered = run_codenav(*words, "--root", root)
    assert filtered.returncode == 0, filtered.stderr
    assert "Circle" in json.loads(filtered.stdout)["data"]["results"][0]
    # a string the shell left quotes in is not guessed at
    half = run_codenav("call", "map_search", '{query:"Circle}', "--root", root)
    assert half.returncode == 2 and "quote the object for the shell" in half.stderr


def test_schema_errors_are_envelopes_with_exit_1(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo", FILES)
    done = run_codenav("call", "map_status", '{"verbose": true}', "--root", root)
    assert done.returncode == 1
    error = json.loads(done.stdout)["error"]
    assert error["code"] == "BAD_ARGS" and "verbose: unknown argument" in error["message"]


def test_the_tools_and_their_arguments_are_listed_at_the_shell(tmp_path: Path) -> None:
    from codenav.tools.help import takes_target
    from codenav.tools.registry import TOOLS

    listed = run_codenav("tools")
    assert listed.returncode == 0
    # one screen: every tool with its own arguments and a call, no --help needed
    assert len(listed.stdout.encode()) <= 4096
    lines = listed.stdout.splitlines()
    heads = [i for i, line in enumerate(lines) if line.split(" ", 1)[0] in
             {tool.name for tool in TOOLS}]
    assert [lines[i].split()[0] for i in heads] == [tool.name for tool in TOOLS]
    for i, tool in zip(heads, TOOLS, strict=True):
        shared = {"id", "file", "line", "col", "symbol", "source", "detail", "offset",
                  "tokenBudget"}
        for name in set(tool.params.model_fields) - shared:
            assert name in lines[i], (tool.name, name)
        assert f"e.g. {json.dumps(tool.example)}" in lines[i + 1], tool.name
    assert run_codenav("call", "--list").stdout == listed.stdout
    # the first thing an agent runs points here, without the screen itself (runs 24-29: agents
    # that got it there ran `codenav tools` too and read it twice)
    helped = run_codenav("--help")
    assert helped.returncode == 0 and "  call " in helped.stdout
    assert "tools     every tool, its arguments and an example: start here" in helped.stdout
    assert "nav_* target" not in helped.stdout and len(helped.stdout.encode()) < 900
    for tool in TOOLS:
        shown = run_codenav("call", tool.name, "--help")
        assert shown.returncode == 0 and shown.stdout.startswith(f"{tool.name}: ")
        for name in tool.params.model_fields:  # its own arguments with what they mean,
            shared = name in ("source", "detail", "offset", "tokenBudget") or (
                takes_target(tool) and name in ("id", "file", "line", "col", "symbol"))
            assert (f"\n  {name} " in shown.stdout) != shared, (tool.name, name)
            assert not shared or name in shown.stdout.split("\n  also: ")[1], (tool.name, name)
        assert f"  codenav call {tool.name} '" in shown.stdout  # one example
    root = write_tree(tmp_path / "repo", FILES)
    refs = run_codenav("call", "nav_references", "{}", "--root", root)
    error = json.loads(refs.stdout)["error"]
    assert error["code"] == "BAD_ARGS"
    for name in ("id?", "file?", "line?", "col?", "symbol?", "fileFilter?", "offset?",
                 "detail?"):
        assert name in error["message"], name
    assert "codenav call nav_references --help" in error["hint"]


def test_status_before_any_index_says_to_run_codenav_index(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo", FILES)
    done = run_codenav("status", root)
    data = json.loads(done.stdout)["data"]
    assert data["built"] is False and "`codenav index`" in data["hint"]
