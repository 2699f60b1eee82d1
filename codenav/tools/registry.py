"""The tools codenav serves, in order. The MCP server, ``codenav call`` and README's tool
table all come from ``TOOLS``; ``render_table`` is what README shows between its markers.
"""

from __future__ import annotations

from typing import Any

from codenav.tools.base import ToolSpec
from codenav.tools.check_tools import NAV_DIAGNOSTICS, NAV_RENAME_PREVIEW
from codenav.tools.hierarchy_tools import NAV_CALL_HIERARCHY, NAV_TYPE_HIERARCHY
from codenav.tools.map_tools import MAP_NEIGHBORS, MAP_NODE, MAP_OUTLINE, MAP_OVERVIEW, MAP_SEARCH
from codenav.tools.nav_tools import NAV_DEFINITION, NAV_HOVER, NAV_REFERENCES
from codenav.tools.status import MAP_REBUILD, MAP_STATUS

__all__ = ["README_BEGIN", "README_END", "TOOLS", "by_name", "input_schema", "render_table"]

TOOLS: tuple[ToolSpec, ...] = (
    MAP_STATUS, MAP_REBUILD, MAP_OVERVIEW, MAP_SEARCH, MAP_OUTLINE, MAP_NODE, MAP_NEIGHBORS,
    NAV_DEFINITION, NAV_REFERENCES, NAV_HOVER, NAV_CALL_HIERARCHY, NAV_TYPE_HIERARCHY,
    NAV_DIAGNOSTICS, NAV_RENAME_PREVIEW,
)

_BY_NAME = {tool.name: tool for tool in TOOLS}

README_BEGIN = "<!-- tools:begin (generated from codenav/tools/registry.py; do not edit) -->"
README_END = "<!-- tools:end -->"


def by_name(name: str) -> ToolSpec | None:
    return _BY_NAME.get(name)


def input_schema(tool: ToolSpec) -> dict[str, Any]:
    """The tool's JSON Schema, as MCP's ``inputSchema``."""
    schema = tool.params.model_json_schema()
    schema.pop("title", None)
    properties = schema.get("properties", {})
    for prop in properties.values():
        prop.pop("title", None)
    # The shared budget argument reads best last.
    schema["properties"] = dict(sorted(properties.items(), key=lambda kv: kv[0] == "tokenBudget"))
    schema["additionalProperties"] = False
    return schema


def render_table() -> str:
    """README's tool table."""
    rows = ["| tool | arguments | data (truncatable list · ranking) | read-only |",
            "|---|---|---|---|"]
    for tool in TOOLS:
        rows.append(f"| `{tool.name}` | {tool.arguments} | {tool.returns} | "
                    f"{'yes' if tool.read_only else 'no'} |")
    return "\n".join([README_BEGIN, *rows, README_END])
