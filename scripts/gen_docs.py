"""Generate the parts of docs/ that the code knows better than a writer.

- ``docs/tools.md`` whole: every tool of ``codenav/tools/registry.py`` with its arguments
  (``codenav/tools/help.py``), what it answers, its MCP input schema, and its registry
  example called against ``tests/fixtures/repos/example`` with the real answer.
- The example envelopes in ``docs/contract.md``, between ``<!-- generated:KEY … -->`` and
  ``<!-- /generated:KEY -->`` markers: real answers of the calls in ``CONTRACT_CALLS``.

Answers come from one session over a fresh copy of the fixture, with language servers off
(``source`` is the map's), in a deterministic form: the temporary root reads
``/path/to/repo``, the build's time and duration are fixed, and ``tokenBudget.used`` is
measured again on what is shown. ``tests/test_docs.py`` fails when the committed files differ
from what this script makes.

    python scripts/gen_docs.py           # rewrite docs/tools.md and contract.md's examples
    python scripts/gen_docs.py --check   # exit 1 when they are out of date
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio

from codenav.envelope import to_json, tokens
from codenav.index.pipeline import index_tree
from codenav.server import INSTRUCTIONS
from codenav.tools.dispatch import call_tool
from codenav.tools.help import argument_rows, takes_target
from codenav.tools.registry import (
    SHARED_ARGUMENTS,
    TOOLS,
    count_words,
    input_schema,
    render_table,
)
from codenav.workspace import Workspace

CHECKOUT = Path(__file__).resolve().parents[1]
DOCS = CHECKOUT / "docs"
TOOLS_MD = DOCS / "tools.md"
CONTRACT_MD = DOCS / "contract.md"
FIXTURE = CHECKOUT / "tests" / "fixtures" / "repos" / "example"
FIXTURE_LINK = "../tests/fixtures/repos/example"
ROOT_SHOWN = "/path/to/repo"
WHEN_SHOWN = "2026-01-01T12:00:00+00:00"
MS_SHOWN = 42

# The example envelopes of docs/contract.md: marker key -> (tool, arguments).
CONTRACT_CALLS: dict[str, tuple[str, dict[str, Any]]] = {
    "truncated": ("nav_references", {"symbol": "Session.request", "tokenBudget": 190}),
    "next": ("nav_references", {"id": "py:src/app/http.py#Session.request",
                                "tokenBudget": 190, "offset": 1}),
    "tier": ("map_outline", {"file": "src/app/http.py", "tokenBudget": 220}),
    "tier-cut": ("map_outline", {"file": "src/app/http.py", "tokenBudget": 150}),
    "full": ("map_search", {"query": "save", "detail": "full"}),
    "clamped": ("map_search", {"query": "save", "tokenBudget": 50000}),
    "error": ("map_node", {"id": "py:src/app/models.py#Nobody"}),
    "bad-args": ("map_search", {"query": "save", "limit": 3}),
}

_MARKER = re.compile(r"(<!-- generated:(?P<key>[\w-]+) [^>]*-->\n)(?P<body>.*?)"
                     r"(<!-- /generated:(?P=key) -->)", re.S)


# ------------------------------------------------------------------------------ answers

@contextmanager
def _isolated(config_home: Path) -> Iterator[None]:
    """No ``CODENAV_*`` variable and an empty user configuration: answers that depend on
    neither the machine nor the person running this."""
    saved = dict(os.environ)
    for name in [name for name in os.environ if name.startswith("CODENAV_")]:
        del os.environ[name]
    os.environ["XDG_CONFIG_HOME"] = str(config_home)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


@contextmanager
def example_workspace() -> Iterator[Workspace]:
    """A fresh copy of the fixture, indexed, as one session with language servers off."""
    base = Path(tempfile.mkdtemp(prefix="codenav-docs-"))
    try:
        with _isolated(base / "config"):
            root = base / "example"
            shutil.copytree(FIXTURE, root)
            settled = time.time() - 60  # past the racy-mtime window: nothing reads as stale
            for path in root.rglob("*"):
                if path.is_file():
                    os.utime(path, (settled, settled))
            index_tree(root)
            ws = Workspace(root, lsp="off")
            try:
                yield ws
            finally:
                ws.close()
    finally:
        shutil.rmtree(base, ignore_errors=True)


def shown(envelope: dict[str, Any], root: Path) -> dict[str, Any]:
    """``envelope`` as the docs show it: the root as ``/path/to/repo``, the build's time and
    duration fixed, and ``used`` measured again on that text (compact JSON, as sent)."""
    text = to_json(envelope).replace(str(root), ROOT_SHOWN)
    out: dict[str, Any] = json.loads(text)
    data = out.get("data")
    if isinstance(data, dict):
        build = data.get("lastBuild")
        if isinstance(build, dict):
            build.update(when=WHEN_SHOWN, ms=MS_SHOWN)
        if "ms" in data:
            data["ms"] = MS_SHOWN
    return _measured(out)


def _measured(envelope: dict[str, Any]) -> dict[str, Any]:
    """Set ``tokenBudget.used`` to the tokens of ``envelope`` sent with that very value."""
    budget = envelope["tokenBudget"]
    used = 0
    while True:
        budget["used"] = used
        counted = tokens(to_json(envelope))
        if counted == used:
            return envelope
        used = counted


def answers(calls: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    """The envelopes of ``calls``, in order, in one session over the fixture."""
    with example_workspace() as ws:
        out = []
        for name, args in calls:
            envelope = anyio.run(call_tool, ws, name, args)
            out.append(shown(envelope, ws.root))
    return out


# ------------------------------------------------------------------------------ rendering

def _json_block(value: Any) -> str:
    return "```json\n" + json.dumps(value, indent=2, ensure_ascii=False) + "\n```"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _call_line(tool: str, args: dict[str, Any]) -> str:
    arguments = json.dumps(args, ensure_ascii=False)
    return f"codenav call {tool} {shlex.quote(arguments)}" if args else f"codenav call {tool}"


def render_tools() -> str:
    """docs/tools.md."""
    examples = answers([(tool.name, tool.example) for tool in TOOLS])
    parts = [
        "<!-- Generated by scripts/gen_docs.py from codenav/tools/registry.py; do not edit. -->",
        "# Tools",
        "",
        f"The {count_words(len(TOOLS))} tools an agent calls over MCP (`codenav mcp`) and a "
        "person calls from a shell (`codenav call TOOL 'JSON'`). Every answer is an envelope "
        "([contract.md §3](contract.md#3-the-envelope)); this page shows each tool's "
        "arguments and one real call with its real answer.",
        "",
        f"The examples run against [`tests/fixtures/repos/example`]({FIXTURE_LINK}), a small "
        "Python web application, in one session in the order below, with language servers "
        "off (`source` is the map's; with a language server ready, `nav_*` answers say "
        "`\"source\": \"lsp\"`). The root is shown as `/path/to/repo` and the build's time "
        "and duration are fixed; `tokenBudget.used` counts the compact JSON that is sent, "
        "not the indented text shown here.",
        "",
        "## Summary",
        "",
        render_table().split("\n", 1)[1].rsplit("\n", 1)[0],
        "",
        "## Arguments several tools share",
        "",
        "| argument | meaning |",
        "|---|---|",
        *[f"| `{name}` | {_cell(meaning)} |" for name, meaning in SHARED_ARGUMENTS.items()],
        "",
        "A tool that takes a target (`nav_*`) needs exactly one of: `id`; `file` + `line` "
        "(+ `col`); `symbol`. A `fileFilter` is a path prefix (`src/`) or a glob "
        "(`src/**/*.py`, `*_test.py`), relative to the root.",
        "",
        "## What the server tells an agent",
        "",
        "These instructions come with `initialize` (MCP), once per session; tool "
        "descriptions and schemas stay short because of them.",
        "",
        "```text",
        INSTRUCTIONS,
        "```",
    ]
    for tool, envelope in zip(TOOLS, examples, strict=True):
        if not envelope["ok"]:
            raise SystemExit(f"the example of {tool.name} fails on the fixture: "
                             f"{envelope['error']}; fix it in the registry or the fixture")
        rows = argument_rows(tool)
        parts += [
            "",
            f"## `{tool.name}`",
            "",
            tool.description,
            "",
        ]
        if takes_target(tool):
            parts += ["Target: exactly one of `id` | `file` + `line` (+ `col`) | `symbol`.", ""]
        parts += [
            "| argument | type | meaning |",
            "|---|---|---|",
            *[f"| `{name}` | {_cell(kind)} | {_cell(meaning)} |" for name, kind, meaning in rows],
            "",
            f"**Answers:** {tool.returns}. "
            f"{'Read-only.' if tool.read_only else 'Writes the map (nothing else).'}",
            "",
            "<details><summary>MCP input schema</summary>",
            "",
            _json_block(input_schema(tool)),
            "",
            "</details>",
            "",
            "**Example**",
            "",
            "```sh",
            _call_line(tool.name, tool.example),
            "```",
            "",
            _json_block(envelope),
        ]
    return "\n".join(parts) + "\n"


def render_contract(text: str) -> str:
    """contract.md with every generated example filled in."""
    keys = [match.group("key") for match in _MARKER.finditer(text)]
    unknown = sorted(set(keys) - set(CONTRACT_CALLS))
    missing = sorted(set(CONTRACT_CALLS) - set(keys))
    if unknown or missing:
        raise SystemExit(f"docs/contract.md's markers and CONTRACT_CALLS differ: unknown "
                         f"{unknown}, missing {missing}")
    found = dict(zip(CONTRACT_CALLS, answers(list(CONTRACT_CALLS.values())), strict=True))

    def fill(match: re.Match[str]) -> str:
        tool, args = CONTRACT_CALLS[match.group("key")]
        body = "```sh\n" + _call_line(tool, args) + "\n```\n\n" + \
            _json_block(found[match.group("key")]) + "\n"
        return match.group(1) + body + match.group(4)

    return _MARKER.sub(fill, text)


def expected() -> dict[Path, str]:
    """Each generated file and what it should hold."""
    return {TOOLS_MD: render_tools(),
            CONTRACT_MD: render_contract(CONTRACT_MD.read_text(encoding="utf-8"))}


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    for path, text in expected().items():
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current == text:
            continue
        stale.append(path.relative_to(CHECKOUT))
        if not check:
            path.write_text(text, encoding="utf-8")
    if check and stale:
        print(f"out of date: {', '.join(map(str, stale))}; run python scripts/gen_docs.py",
              file=sys.stderr)
        return 1
    for path in stale:
        print(f"rewrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
