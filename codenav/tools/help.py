"""The tools described for a person or an agent at a shell: ``codenav tools`` and
``codenav call TOOL --help`` (every argument with its type, default and meaning, and one
example call). Made from the registry, like the MCP tool list."""

from __future__ import annotations

import json
import shlex
from typing import Any

from codenav.tools.base import ToolSpec
from codenav.tools.registry import SHARED_ARGUMENTS, TOOLS, input_schema

__all__ = ["argument_rows", "takes_target", "tool_help", "tool_list"]

_TARGET = ("id", "file", "line", "col", "symbol")


def tool_list() -> str:
    """Every tool in one screen: what it answers, its own arguments and one call; what the
    tools share said once above them (an agent needs no ``--help`` to use any)."""
    lines = [
        "codenav call TOOL 'JSON' [TOOL 'JSON' …]   (several questions, one command: an "
        "answer a line, in order; answers",
        "  fit tokenBudget, default 2000 tokens: a cut list says so in dropped, dropped.next "
        "the call that continues)",
        "nav_* target: {\"symbol\":\"Class.method\"} (+ \"file\" to pick one) | "
        "{\"file\":\"src/a.py\",\"line\":12,\"col\":5} | {\"id\":\"py:src/a.py#Cls.m\"}",
        "  source: \"auto\" (default: a ready language server's answer merged with the map's; "
        "one call is enough) | \"lsp\" | \"map\".",
        "  Unmarked rows are confirmed; [name]: matched by name only; [map]: the map's alone; "
        "a row naming no function is in the one above's;",
        "  a reference row is a call unless its (kind) or the answer's refKind says otherwise.",
        "  A use's function is the innermost named one (nested: outer.inner; JS/TS "
        "`const f = () =>` is f); a lambda's or callback's is the one around it.",
        "  References, callers, subtypes, importers: \"unlisted\" says what they leave out "
        "(\"none…\": complete); uses on receivers of unknown",
        "  type are under \"unresolved\": judge each. \"text\": the grep of the name as a word, "
        "run, every line accounted for.",
        "fileFilter?: a path prefix or glob, \"tests/\", \"src/**/*.py\"; \"!tests/\" leaves "
        "those out; several: \"!dist/,!docs/\".",
        "kinds?: class, interface, enum, type, function, method, constructor, property "
        "(@property, get/set accessor), field, variable, constant, module.",
        "",
    ]
    for tool in TOOLS:
        own = _own_arguments(tool)
        lines.append(f"{tool.name}{'  ' + own if own else ''}")
        lines.append(f"  {tool.brief or tool.summary}; e.g. "
                     f"{json.dumps(tool.example, ensure_ascii=False)}")
    lines += ["", "Every argument of one tool: codenav call TOOL --help"]
    return "\n".join(lines)


def _own_arguments(tool: ToolSpec) -> str:
    """A tool's arguments besides the shared ones: ``name`` (required), ``name?``
    (optional), with the values an enumeration or a bounded number takes."""
    schema = input_schema(tool)
    required = set(schema.get("required", []))
    out = []
    for name, prop in schema["properties"].items():
        if (name in SHARED_ARGUMENTS and name not in ("id", "file", "symbol")) or \
                (takes_target(tool) and name in _TARGET):
            continue
        text = name + ("" if name in required else "?")
        values = prop.get("enum") or prop.get("items", {}).get("enum")
        if values:
            text += " " + "|".join(str(v) for v in values)
        elif "minimum" in prop and "maximum" in prop:
            text += f" {prop['minimum']}-{prop['maximum']}"
        out.append(text)
    return ", ".join(out)


def argument_rows(tool: ToolSpec) -> list[tuple[str, str, str]]:
    """``(name, "type[, required | , default X]", meaning)`` for every argument, in the order
    the tool list shows them (the target ones first); ``tool_help`` and docs/tools.md
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


def _shared_line(tool: ToolSpec) -> str | None:
    """The arguments every tool takes, named on one line (``codenav tools`` says what they
    mean); None when the tool takes none of them."""
    names = set(input_schema(tool)["properties"])
    parts = ["target: id | file + line (+ col) | symbol (+ file)"] if takes_target(tool) else []
    parts += [text for name, text in _SHARED_BRIEF if name in names]
    return f"  also: {'; '.join(parts)} (as in `codenav tools`)" if parts else None


_SHARED_BRIEF = (("source", "source auto|lsp|map"), ("detail", "detail compact|full"),
                 ("offset", "offset (to continue a cut list)"),
                 ("tokenBudget", "tokenBudget 100-10000 (default 2000)"))


def tool_help(tool: ToolSpec) -> str:
    """One tool's help at the shell: its own arguments with what they mean, the shared ones
    (``codenav tools`` explains them) named on one line, what it answers, a call."""
    example = json.dumps(tool.example, ensure_ascii=False)
    shared = {name for name, _ in _SHARED_BRIEF} | (set(_TARGET) if takes_target(tool) else set())
    own = [row for row in argument_rows(tool) if row[0] not in shared]
    width = max((len(name) for name, _, _ in own), default=0)
    kinds = max((len(kind) for _, kind, _ in own), default=0)
    also = _shared_line(tool)
    return "\n".join([
        f"{tool.name}: {tool.description}",
        "",
        "arguments:",
        *[f"  {name:<{width}}  {kind:<{kinds}}  {meaning}".rstrip()
          for name, kind, meaning in own],
        *([also] if also else []),
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
