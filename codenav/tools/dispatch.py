"""Calling a tool: validate arguments, run the handler, fit the answer into the envelope.

Every outcome is an envelope: unknown tool and invalid arguments answer BAD_ARGS naming the
expected shape, domain failures their own code, and any other exception INTERNAL (logged with
its traceback on stderr; the caller lives on).
"""

from __future__ import annotations

import logging
from typing import Any

from pydantic import ValidationError

from codenav.envelope import Answer, clamp_budget, default_budget, failure, success
from codenav.errors import BadArgs, CodenavError, Internal, MapDamaged, MapNotBuilt
from codenav.query.fresh import Freshness
from codenav.store import db
from codenav.tools.base import CallContext, ReportProgress, ToolSpec
from codenav.tools.registry import TOOLS, by_name, input_schema
from codenav.tools.render import freshness_warnings
from codenav.workspace import Workspace

__all__ = ["call_tool", "expected_shape"]

log = logging.getLogger("codenav.tools")

_TYPE_NAMES = {"string": "string", "integer": "integer", "boolean": "boolean",
               "number": "number", "object": "object", "array": "list"}


def _type_of(schema: dict[str, Any]) -> str:
    if "anyOf" in schema:
        kinds = [_type_of(s) for s in schema["anyOf"] if s.get("type") != "null"]
        return " | ".join(kinds) or "null"
    if "enum" in schema:
        return " | ".join(repr(v) for v in schema["enum"])
    kind = schema.get("type", "any")
    if kind == "array":
        return f"list of {_type_of(schema.get('items', {}))}"
    return _TYPE_NAMES.get(kind, str(kind))


def expected_shape(tool: ToolSpec) -> str:
    """``name(arg: type, opt?: type, …)`` from the tool's schema."""
    schema = input_schema(tool)
    required = set(schema.get("required", []))
    args = [f"{name}{'' if name in required else '?'}: {_type_of(prop)}"
            for name, prop in schema.get("properties", {}).items()]
    return f"{tool.name}({', '.join(args)})"


def _describe(error: ValidationError) -> str:
    parts = []
    for item in error.errors()[:5]:
        where = ".".join(str(p) for p in item["loc"]) or "arguments"
        message = item["msg"].removeprefix("Value error, ")
        if item["type"] == "extra_forbidden":
            message = "unknown argument"
        parts.append(f"{where}: {message}")
    return "; ".join(parts)


def _help_hint(tool: ToolSpec) -> str:
    return f"`codenav call {tool.name} --help` describes every argument, with an example."


def _building(ws: Workspace) -> bool:
    try:
        return ws.building()
    except MapNotBuilt:
        return False  # no map: the handler says so in its own terms


def _repair(ws: Workspace) -> None:
    """A damaged map under a long-lived server is rebuilt in the background at once (a
    one-shot ``codenav call`` says how, and leaves it)."""
    if ws.lsp_background and ws.start_background_build(on_done=ws.start_servers,
                                                       damaged=True):
        log.warning("the map at %s is damaged: rebuilding it in the background", ws.db_path)


def _budget_of(arguments: dict[str, Any]) -> tuple[int, list[str], str | None]:
    raw = arguments.get("tokenBudget")
    if raw is None:
        return (*clamp_budget(None), None)
    if isinstance(raw, bool) or not isinstance(raw, int):
        default, _ = clamp_budget(None)
        return default, [], "tokenBudget must be an integer number of tokens, e.g. 800"
    budget, warnings = clamp_budget(raw)
    return budget, warnings, None


async def call_tool(ws: Workspace, name: str, arguments: dict[str, Any] | None,
                    progress: ReportProgress | None = None) -> dict[str, Any]:
    """Run tool ``name`` and return its envelope (docs/contract.md §3), whatever happens.
    ``tokenBudget.requested`` echoes a budget the caller set, and only then."""
    envelope = await _call(ws, name, arguments, progress)
    if not isinstance(arguments, dict) or arguments.get("tokenBudget") is None:
        return default_budget(envelope)
    return envelope


async def _call(ws: Workspace, name: str, arguments: dict[str, Any] | None,
                progress: ReportProgress | None) -> dict[str, Any]:
    args = arguments if isinstance(arguments, dict) else {}
    budget, warnings, budget_error = _budget_of(args)
    tool = by_name(name) if isinstance(name, str) else None
    if tool is None:
        known = ", ".join(t.name for t in TOOLS)
        return failure(BadArgs(f"unknown tool {str(name)[:80]!r}; the tools are: {known}"),
                       budget, warnings)
    if arguments is not None and not isinstance(arguments, dict):
        return failure(BadArgs(f"arguments must be a JSON object; expected "
                               f"{expected_shape(tool)}", hint=_help_hint(tool)), budget,
                       warnings)
    if budget_error:
        return failure(BadArgs(f"{budget_error}; expected {expected_shape(tool)}",
                               hint=_help_hint(tool)), budget, warnings)
    try:
        params = tool.params.model_validate({**args, "tokenBudget": budget})
    except ValidationError as exc:
        return failure(BadArgs(f"{_describe(exc)}; expected {expected_shape(tool)}",
                               hint=_help_hint(tool)), budget, warnings)
    fresh = Freshness(ws, links=tool.needs_links)
    try:
        # Tools about the map itself answer whatever its state; tools that follow references
        # across files wait for a first build's linking (the others answer from what is
        # mapped so far).
        building = not tool.about_map and _building(ws)
        if building and tool.needs_links:
            raise MapNotBuilt(
                f"the first map of {ws.root} is being built ({ws.build_progress()}); "
                f"{tool.name} follows references across files, which are linked when it is "
                f"done", hint="Retry in a few seconds; map_search, map_outline, map_node and "
                "nav_definition answer from what is mapped so far.")
        answer: Answer = await tool.handler(ws, params, CallContext(fresh, budget, progress))
        answer.warnings += freshness_warnings(fresh)
        if building:
            answer.data["building"] = True
            answer.warnings.append(f"The first map is still being built "
                                   f"({ws.build_progress()}): this answer covers the files "
                                   f"mapped so far.")
    except BadArgs as exc:  # a combination the schema cannot say: name every argument too
        exc.message = f"{exc.message}; expected {expected_shape(tool)}"
        if exc.hint == BadArgs.default_hint:
            exc.hint = _help_hint(tool)
        return failure(exc, budget, warnings)
    except CodenavError as exc:
        if isinstance(exc, MapDamaged):
            _repair(ws)
        return failure(exc, budget, warnings)
    except Exception as exc:
        if db.is_damage(exc):  # a page SQLite found malformed while answering
            _repair(ws)
            return failure(db.damage(exc, ws.db_path), budget, warnings)
        log.exception("tool %s failed on %r", name, args)
        return failure(Internal(f"{name} failed unexpectedly; the error is logged on the "
                                f"server's stderr"), budget, warnings)
    return success(answer, budget, warnings)
