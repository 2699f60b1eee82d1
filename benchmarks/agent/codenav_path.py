"""The codenav path: the calls an agent makes knowing the tool docs, what it reads, and what
it learns first.

Every call goes through ``tools.dispatch.call_tool`` on one ``Workspace`` per corpus at the
default ``tokenBudget``, language servers off (answers from the map); its bytes are the
UTF-8 bytes of the compact JSON envelope (what ``codenav call`` prints, an MCP text block).
The answer's facts are read from the envelope's rows with ``codenav/tools/rows.py``'s
parsers; outline and children rows (``<indent><line> <kind> <name>``), which rows.py has
no parser for, are read here.

Learning is measured from the real CLI (``codenav tools``, ``codenav call TOOL --help``)
and from the MCP server's ``tools/list`` as a client receives it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterable, Sequence
from typing import Any

from benchmarks.agent.questions import Question
from benchmarks.agent.scoring import Answer, Learning
from benchmarks.agent.signature import parameters
from benchmarks.answers import facts as envelope_facts
from codenav.envelope import to_json
from codenav.tools.dispatch import call_tool
from codenav.tools.rows import parse_node_row, parse_related_row, whole_call_rows
from codenav.workspace import Workspace

__all__ = ["ask", "calls_for", "learning", "outline_names", "tool_list"]

MEMBER_KINDS = {"python": ["method", "property"], "typescript": ["method", "constructor"]}
OUTLINE_KINDS = {"python": ["class", "function", "method", "property"],
                 "typescript": ["class", "interface", "function", "method", "constructor"]}


def calls_for(question: Question, language: str) -> list[tuple[str, dict[str, Any]]]:
    """The calls an agent makes for ``question``, from the tool docs (``"$id"`` in an
    argument: the id of the previous answer's first row)."""
    if question.codenav:
        return list(question.codenav)
    kind, target = question.kind, question.target
    lang = "py" if language == "python" else "ts"
    if kind == "refs":  # places are the answer: real agents (runs 24-25) asked for lines
        return [("nav_references", {"symbol": target, "show": "lines"})]
    if kind == "callers":
        return [("nav_call_hierarchy", {"symbol": target, "direction": "incoming"})]
    if kind == "subclasses":  # "direct or not": every level
        return [("nav_type_hierarchy", {"symbol": target, "direction": "subtypes",
                                        "depth": 10})]
    if kind == "members":
        return [("map_node", {"symbol": target, "kinds": MEMBER_KINDS[language]})]
    if kind == "params":
        return [("nav_hover", {"symbol": target})]
    if kind == "importers":
        return [("map_neighbors", {"id": f"{lang}:{target}", "edgeKinds": ["imports"],
                                   "direction": "in"})]
    if kind == "outline":  # the question names the kinds it wants
        return [("map_outline", {"file": target, "kinds": OUTLINE_KINDS[language]})]
    raise ValueError(kind)


async def ask(ws: Workspace, question: Question, language: str) -> Answer:
    """Make the question's calls; the facts are the last envelope's."""
    answer = Answer()
    envelope: dict[str, Any] = {}
    last_id = ""
    for tool, template in calls_for(question, language):
        args = {k: (last_id if v == "$id" else v) for k, v in template.items()}
        envelope = await call_tool(ws, tool, args)
        answer.record(f"{tool} {json.dumps(args, separators=(',', ':'))}",
                      len(to_json(envelope).encode()))
        results = envelope.get("data", {}).get("results") or []
        if results and isinstance(results[0], str):
            last_id = parse_node_row(results[0]).id
    read_facts(question, envelope, answer)
    return answer


def read_facts(question: Question, envelope: dict[str, Any], answer: Answer) -> None:
    """What the answering envelope tells, as the question's facts."""
    data = envelope.get("data") or {}
    kind = question.kind
    if kind == "refs":
        _, answer.facts = envelope_facts(envelope)
    elif kind == "callers":
        answer.facts = {_caller(parse_related_row(row, symbol).id)
                        for symbol, row in call_rows(data)}
    elif kind == "subclasses":
        symbol = str(data.get("symbol", ""))
        answer.facts = {_short(parse_related_row(row, symbol).id)
                        for row in data.get("types", []) if isinstance(row, str)}
    elif kind == "members":
        answer.facts = {name.rsplit(".", 1)[-1]
                        for name in outline_names(data.get("children", []))}
    elif kind == "params":
        hover = data.get("hover") if isinstance(data.get("hover"), dict) else data
        text = (hover or {}).get("contents") or ""
        if (hover or {}).get("signature"):  # the map's: without the name its id says
            head, _, rest = str(hover["signature"]).partition("(")  # `protected (x)`
            text = f"{head}{question.name.rsplit('.', 1)[-1]}({rest}"
        answer.ordered = parameters(str(text), question.name)
        answer.facts = set(answer.ordered)
    elif kind == "importers":
        answer.facts = {_path_of(parse_related_row(row, str(data.get("node", ""))).id)
                        for row in data.get("neighbors", []) if isinstance(row, str)}
    elif kind == "outline":
        answer.facts = outline_names(data.get("symbols", []))


def call_rows(data: dict[str, Any]) -> list[tuple[str, str]]:
    """Every call row of a ``nav_call_hierarchy`` answer with the symbol row it is about:
    rows of ``calls``, and of ``{"call": row, "children": [...]}`` items (a call with calls
    of its own); with several definitions, of each of ``results``."""
    rows: list[tuple[str, str]] = []

    def walk(items: Any, symbol: str) -> None:
        for item in items or []:
            if isinstance(item, str):
                rows.append((symbol, item))
            elif isinstance(item, dict):
                if isinstance(item.get("call"), str):
                    rows.append((symbol, item["call"]))
                walk(item.get("children"), symbol)

    several = data.get("results")
    for section in several if isinstance(several, list) else [data]:
        if isinstance(section, dict):
            walk(whole_call_rows(section.get("calls")), str(section.get("symbol", "")))
    return rows


def _path_of(nid: str) -> str:
    return nid.split(":", 1)[1].split("#", 1)[0]


def _caller(nid: str) -> tuple[str, str]:
    path, _, qname = nid.split(":", 1)[1].partition("#")
    return path, _plain(qname.rsplit(".", 1)[-1]) if qname else "<module>"


def _plain(name: str) -> str:
    """A name without the map's ``~n`` suffix (a second definition of the same name)."""
    return name.split("~", 1)[0]


def _short(nid: str) -> str:
    return _plain(nid.rsplit("#", 1)[-1].rsplit(".", 1)[-1])


def outline_names(rows: Iterable[Any]) -> set[str]:
    """The qualified names of outline (or children) rows, ``<indent><line> <kind> <name>``:
    the nesting is the indentation, two spaces a level."""
    names: set[str] = set()
    stack: list[str] = []
    for row in rows:
        if not isinstance(row, str):
            continue
        depth = (len(row) - len(row.lstrip(" "))) // 2
        head = row.strip().split(" | ", 1)[0].split()
        if len(head) < 3:
            continue
        del stack[depth:]
        stack.append(_plain(head[2]))
        names.add(".".join(stack))
    return names


# ------------------------------------------------------------------------------ learning

def _cli_bytes(*args: str) -> int:
    """Bytes ``codenav ARGS`` prints (stdout and stderr), as an agent's shell shows them."""
    done = subprocess.run([sys.executable, "-m", "codenav", *args], capture_output=True,
                          check=False)
    return len(done.stdout) + len(done.stderr)


async def tool_list(ws: Workspace) -> str:
    """The tool list an MCP client receives (``tools/list``), as compact JSON."""
    from mcp import Client

    from codenav.server import build_server

    async with Client(build_server(ws), mode="legacy") as client:
        listed = (await client.list_tools()).tools
    return json.dumps([t.model_dump(mode="json", by_alias=True, exclude_none=True)
                       for t in listed], separators=(",", ":"), ensure_ascii=False)


def _described(listing: str, tool: str) -> bool:
    """Whether ``codenav tools`` shows ``tool`` whole: each of its own arguments on its line
    and an example call below it (then an agent needs no ``--help`` for it)."""
    from codenav.tools.registry import SHARED_ARGUMENTS, by_name

    spec = by_name(tool)
    lines = listing.splitlines()
    at = next((i for i, line in enumerate(lines) if line.split(" ", 1)[0] == tool), None)
    if spec is None or at is None or at + 1 >= len(lines):
        return False
    own = set(spec.params.model_fields) - set(SHARED_ARGUMENTS)
    return all(name in lines[at] for name in own) and "e.g. {" in lines[at + 1]


async def learning(ws: Workspace, tools: Sequence[str]) -> Learning:
    """What learning ``tools`` costs from the CLI (the list, and ``--help`` for a tool the
    list does not describe whole) and over MCP."""
    listing = subprocess.run([sys.executable, "-m", "codenav", "tools"], capture_output=True,
                             text=True, check=True).stdout
    return Learning(tools_bytes=len(listing.encode()),
                    help_bytes={t: 0 if _described(listing, t) else
                                _cli_bytes("call", t, "--help") for t in dict.fromkeys(tools)},
                    mcp_bytes=len((await tool_list(ws)).encode()))
