"""The tools codenav serves, in order. The MCP server, ``codenav call``, the docs and
README's tool table all come from ``TOOLS``: every ``ToolSpec`` the tool modules of this
package (``*_tools.py``) declare, in their ``order`` — a new tool is its spec (and handler)
in such a module, and nothing in this file changes. ``render_table`` is what README shows
between its markers.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

import codenav.tools
from codenav.tools.base import ToolSpec

__all__ = ["README_BEGIN", "README_END", "SHARED_ARGUMENTS", "TOOLS", "by_name", "input_schema",
           "render_table"]



def _declared() -> tuple[ToolSpec, ...]:
    """Every ToolSpec the tool modules of ``codenav.tools`` (``*_tools.py``) declare at
    their top level."""
    found: dict[str, ToolSpec] = {}
    for info in pkgutil.iter_modules(codenav.tools.__path__):
        if not info.name.endswith("_tools"):
            continue
        module = importlib.import_module(f"codenav.tools.{info.name}")
        for value in vars(module).values():
            if isinstance(value, ToolSpec):
                found[value.name] = value
    return tuple(sorted(found.values(), key=lambda tool: tool.order))


TOOLS: tuple[ToolSpec, ...] = _declared()

_BY_NAME = {tool.name: tool for tool in TOOLS}

README_BEGIN = "<!-- tools:begin (generated from codenav/tools/registry.py; do not edit) -->"
README_END = "<!-- tools:end -->"


def by_name(name: str) -> ToolSpec | None:
    return _BY_NAME.get(name)


# Bounds that only guard the server (an agent never comes near them): left out of the
# schema an agent reads, still enforced when arguments are validated.
_GUARD_LENGTH = 1000
_GUARD_NUMBER = 1 << 31


# Arguments several tools share: what they mean is said once (the server's instructions,
# `codenav call TOOL --help`, docs/tools.md), not in every tool's schema.
SHARED_ARGUMENTS: dict[str, str] = {
    "id": "a node id from any answer, e.g. 'py:src/app/models.py#User.save'",
    "file": "a path relative to the root (with line: a position; with symbol: only the "
            "symbol's definitions in that file)",
    "line": "1-based line (with file)",
    "col": "1-based UTF-16 column (with file); omitted: the symbol on that line",
    "symbol": "a name or qualified name ('Session.request'); a name several definitions "
              "share is answered for each of them",
    "source": "'auto' (default): a language server when it is ready, else the map at once; "
              "'lsp': only the server; 'map': only the map",
    "detail": "'compact' (default): one row of text per item; 'full': objects with every "
              "field (columns, hub scores, whole signatures)",
    "offset": "skip this many items: dropped.next sets it to continue a cut list",
    "tokenBudget": "the largest answer in tokens (chars/4): default 2000, 100-10000",
}


# The same, as each schema says it: short, so that a client that drops the server's
# instructions still knows what every argument means.
_SHARED_SHORT: dict[str, str] = {
    "id": "Node id (answers)",
    "file": "Path, with line or symbol",
    "line": "1-based, with file",
    "col": "1-based; none: line's definition",
    "symbol": "Name or Class.member",
    "source": "auto: ready server, else map",
    "detail": "full: objects",
    "offset": "Skip items",
    "tokenBudget": "Max tokens (2000)",
}
_SHARED_BOUNDS: dict[str, dict[str, int]] = {"tokenBudget": {"minimum": 100, "maximum": 10000}}


def input_schema(tool: ToolSpec) -> dict[str, Any]:
    """The tool's JSON Schema, as MCP's ``inputSchema``: as short as it can be without losing
    meaning (optional arguments as their plain type; no titles; no bounds that only guard the
    server; shared arguments described once, in the instructions), since every agent session
    pays for it. Validation still uses the full model."""
    schema = tool.params.model_json_schema()
    properties = {name: _compact(prop, shared=name in SHARED_ARGUMENTS)
                  for name, prop in schema.get("properties", {}).items()}
    for name, prop in properties.items():
        if name in _SHARED_SHORT:
            prop["description"] = _SHARED_SHORT[name]
            prop.update(_SHARED_BOUNDS.get(name, {}))
    # The shared arguments read best last.
    order = {"source": 1, "detail": 2, "offset": 3, "tokenBudget": 4}
    out: dict[str, Any] = {"type": "object", "properties": dict(
        sorted(properties.items(), key=lambda kv: order.get(kv[0], 0)))}
    if schema.get("required"):
        out["required"] = schema["required"]
    return out


def _compact(prop: dict[str, Any], shared: bool = False) -> dict[str, Any]:
    """One property's schema: ``X | None`` as ``X``, no title, no null default, no guard;
    a shared argument without its description and default."""
    variants = [v for v in prop.get("anyOf", []) if v.get("type") != "null"]
    base = dict(variants[0]) if len(variants) == 1 else {k: v for k, v in prop.items()
                                                         if k == "anyOf"}
    for key, value in prop.items():
        if key not in ("anyOf", "title"):
            base[key] = value
    if base.get("default", 0) is None or shared:
        base.pop("default", None)
    if "enum" in base:
        base.pop("type", None)
    for key in ("maxLength", "maxItems", "minLength"):
        if key == "minLength" or base.get(key, 0) >= _GUARD_LENGTH or shared:
            base.pop(key, None)
    if base.get("maximum", 0) >= _GUARD_NUMBER:
        del base["maximum"]
    if isinstance(base.get("items"), dict):
        base["items"] = _compact(base["items"])
    return base


def render_table() -> str:
    """README's tool table."""
    rows = ["| tool | arguments | data (truncatable list · ranking) | read-only |",
            "|---|---|---|---|"]
    for tool in TOOLS:
        rows.append(f"| `{tool.name}` | {tool.arguments} | {tool.returns} | "
                    f"{'yes' if tool.read_only else 'no'} |")
    return "\n".join([README_BEGIN, *rows, README_END])


_NUMBERS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
            "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
            "seventeen", "eighteen", "nineteen", "twenty")


def count_words(n: int) -> str:
    """A count as prose says it ("fourteen"; digits past twenty)."""
    return _NUMBERS[n] if 0 <= n < len(_NUMBERS) else str(n)
