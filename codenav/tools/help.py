"""The tools described for a person or an agent at a shell: ``codenav tools`` and
``codenav call TOOL --help`` (every argument with its type, default and meaning, and one
example call). Made from the registry, like the MCP tool list."""

from __future__ import annotations

import json
import shlex
from typing import Any

from codenav.tools.base import ToolSpec
from codenav.tools.registry import SHARED_ARGUMENTS, TOOLS, input_schema

__all__ = ["argument_lines", "argument_rows", "takes_target", "tool_help", "tool_list"]

_TARGET = ("id", "file", "line", "col", "symbol")


def tool_list() -> str:
    """One line per tool: its name and what it is for."""
    width = max(len(tool.name) for tool in TOOLS)
    lines = [f"{tool.name:<{width}}  {tool.description}" for tool in TOOLS]
    return "\n".join([*lines, "", "Arguments of one tool: codenav call TOOL --help"])


def argument_rows(tool: ToolSpec) -> list[tuple[str, str, str]]:
    """``(name, "type[, required | , default X]", meaning)`` for every argument, in the order
    the tool list shows them (the target ones first); ``argument_lines`` and docs/tools.md
    are made from it."""
    schema = tool.params.model_json_schema()
    required = set(schema.get("required", []))
    properties = schema.get("properties", {})
    rows: list[tuple[str, str, str]] = []
    for name in input_schema(tool)["properties"]:
        prop = properties[name]
        meaning = SHARED_ARGUMENTS.get(name) or prop.get("description", "")
        kind = _type(prop)
        if name in required:
            kind += ", required"
        elif prop.get("default") not in (None, [], {}):
            kind += f", default {json.dumps(prop['default'])}"
        rows.append((name, kind, meaning))
    return rows


def takes_target(tool: ToolSpec) -> bool:
    """Whether the tool is pointed at a symbol by id, position or name."""
    properties = tool.params.model_json_schema().get("properties", {})
    return all(name in properties for name in _TARGET)


def argument_lines(tool: ToolSpec) -> list[str]:
    """``name  type[, default]  meaning`` for every argument, the target ones first."""
    rows = argument_rows(tool)
    width = max(len(name) for name, _, _ in rows)
    kinds = max(len(kind) for _, kind, _ in rows)
    lines = [f"  {name:<{width}}  {kind:<{kinds}}  {meaning}".rstrip()
             for name, kind, meaning in rows]
    if takes_target(tool):
        lines.insert(0, "  (give exactly one of: id | file + line (+ col) | symbol)")
    return lines


def tool_help(tool: ToolSpec) -> str:
    example = json.dumps(tool.example, ensure_ascii=False)
    return "\n".join([
        f"{tool.name}: {tool.description}",
        "",
        "arguments:",
        *argument_lines(tool),
        "",
        f"answers: {tool.returns.replace('`', '')}",
        "",
        "example:",
        f"  codenav call {tool.name} {shlex.quote(example)}",
    ])


def _type(prop: dict[str, Any]) -> str:
    if "anyOf" in prop:
        kinds = [_type(p) for p in prop["anyOf"] if p.get("type") != "null"]
        return " | ".join(kinds)
    if "enum" in prop:
        return "|".join(str(value) for value in prop["enum"])
    kind = str(prop.get("type", "any"))
    if kind == "array":
        return f"list of {_type(prop.get('items', {}))}"
    bounds = [f"{'≥' if key == 'minimum' else '≤'} {prop[key]}"
              for key in ("minimum", "maximum") if key in prop and prop[key] < 1 << 31]
    return kind + (f" ({', '.join(bounds)})" if bounds else "")
