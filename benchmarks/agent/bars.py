"""The figures of issue 20's other bars, measured on rich: the tool list's size, a method
used ~45 times against ``grep -rn`` of its name, and how many of Console's methods the
default-budget outline of ``console.py`` names."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.agent.codenav_path import outline_names, tool_list
from benchmarks.agent.truth import Truth
from codenav.envelope import to_json
from codenav.tools.dispatch import call_tool
from codenav.workspace import Workspace

__all__ = ["Bars", "bar_lines", "measure"]


@dataclass
class Bars:
    tool_list_chars: int = 0
    tool_list_bytes: int = 0
    refs_method: str = ""
    refs_uses: int = 0
    refs_bytes: int = 0
    grep_command: str = ""
    grep_bytes: int = 0
    outline_methods: int = 0
    outline_named: int = 0
    outline_bytes: int = 0
    outline_missing: list[str] = field(default_factory=list)


async def measure(ws: Workspace, root: Path, truth: Truth | None) -> Bars:
    out = Bars()
    listed = await tool_list(ws)
    out.tool_list_chars, out.tool_list_bytes = len(listed), len(listed.encode())
    out.refs_method = "Table.add_row"
    envelope = await call_tool(ws, "nav_references", {"symbol": out.refs_method})
    out.refs_uses = int(envelope["data"]["total"])
    out.refs_bytes = len(to_json(envelope).encode())
    out.grep_command = "grep -rn add_row"
    out.grep_bytes = len(subprocess.run(["bash", "-c", out.grep_command], cwd=root,
                                        capture_output=True, check=False).stdout)
    outline = await call_tool(ws, "map_outline", {"file": "console.py"})
    out.outline_bytes = len(to_json(outline).encode())
    named = {n.split(".", 1)[1] for n in outline_names(outline["data"].get("symbols", []))
             if n.startswith("Console.") and n.count(".") == 1}
    methods = set()
    if truth is not None:
        methods = {s.name.split(".", 1)[1] for s in await truth.symbols("console.py")
                   if s.name.startswith("Console.") and s.name.count(".") == 1
                   and s.kind in ("Method", "Constructor")}
    out.outline_methods = len(methods)
    out.outline_named = len(methods & named)
    out.outline_missing = sorted(methods - named)
    return out


def bar_lines(measured: Bars | None) -> list[str]:
    if measured is None:
        return []
    m = measured
    return [
        f"- Tool list (`tools/list` through the MCP client, compact JSON of the tools): "
        f"{m.tool_list_chars:,} characters, {m.tool_list_bytes:,} bytes (bar ≤ 12,000 "
        "characters).",
        f"- `nav_references {{\"symbol\": \"{m.refs_method}\"}}` ({m.refs_uses} uses): "
        f"{m.refs_bytes:,} bytes; `{m.grep_command}`: {m.grep_bytes:,} bytes "
        f"({m.refs_bytes / max(m.grep_bytes, 1):.2f}×; bar ≤ 1.0×).",
        f"- `map_outline {{\"file\": \"console.py\"}}` at the default budget "
        f"({m.outline_bytes:,} bytes) names {m.outline_named} of Console's "
        f"{m.outline_methods} methods ({m.outline_named / max(m.outline_methods, 1):.0%}; "
        f"bar ≥ 95 %)" + (f"; missing: {', '.join(m.outline_missing)}." if m.outline_missing
                          else "."),
    ]
