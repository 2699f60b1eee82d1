"""The ``codenav`` command: argument parsing and exit codes, nothing else.

Exit codes: 0 success, 1 a negative answer (a stale map for ``--check``, a failed tool call,
a map codenav cannot use), 2 bad usage.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from codenav import __version__
from codenav.errors import CodenavError, MapRefused

__all__ = ["main"]

EXIT_OK, EXIT_NEGATIVE, EXIT_USAGE = 0, 1, 2

LOG_LEVELS = ("debug", "info", "warning", "error")


class _UsageError(Exception):
    pass


def _root(value: str) -> Path:
    path = Path(value).expanduser()
    if not path.is_dir():
        raise _UsageError(f"not a directory: {value}")
    return path.resolve()


def _db(value: str | None) -> Path | None:
    return Path(value).expanduser().resolve() if value else None


def _log_level(parser: argparse.ArgumentParser, default: str) -> None:
    parser.add_argument("--log-level", choices=LOG_LEVELS, default=default,
                        help=f"what to log on stderr (default: {default}); codenav's own "
                             "lines at that level, other libraries' only from warning up "
                             "unless debug")


def _configure_logging(level: str) -> None:
    """Log on stderr: codenav's own loggers at ``level``; the libraries under it (pygls, mcp,
    watchfiles …) only from WARNING up unless ``level`` is debug, so that a session's stderr
    holds what a user wants to read, not pygls registering its ~35 features."""
    numeric = getattr(logging, level.upper())
    logging.basicConfig(stream=sys.stderr,
                        level=numeric if level == "debug" else max(numeric, logging.WARNING),
                        format="codenav %(levelname)s %(name)s: %(message)s")
    logging.getLogger("codenav").setLevel(numeric)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="codenav", description="Code navigation for AI agents and editors.")
    parser.add_argument("--version", action="version", version=f"codenav {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    index = commands.add_parser(
        "index", help="build or refresh the map (ROOT/.codenav/map.db)",
        description="Build or refresh the map; incremental unless --full.")
    index.add_argument("root", nargs="?", default=".", help="repository root (default: .)")
    index.add_argument("--full", action="store_true", help="re-parse every file")
    index.add_argument("--db", metavar="PATH", help="map file (default: ROOT/.codenav/map.db "
                       "or $CODENAV_DB)")
    index.add_argument("--jobs", type=int, metavar="N", help="parallel parser processes "
                       "(default: one per CPU)")
    index.add_argument("--quiet", action="store_true", help="print nothing but errors")
    index.add_argument("--json", action="store_true", help="print the summary as JSON")
    index.add_argument("--progressive", action="store_true",
                       help="a first build commits as it grows, marked building, so that "
                       "readers answer from what is mapped so far (what codenav mcp runs)")
    index.add_argument("--trust-map", action="store_true",
                     help="serve a map codenav did not write on this machine (one your CI "
                          "built and a cache restored); without it such a map is rebuilt")
    index.add_argument("--check", action="store_true",
                       help="change nothing; exit 1 when the map is missing or stale")
    _log_level(index, "warning")
    index.set_defaults(run=_cmd_index)

    mcp = commands.add_parser(
        "mcp", help="serve the tools to an agent over MCP (stdio)",
        description="Serve codenav's tools over MCP on stdin/stdout. Builds the map in the "
                    "background when it is missing.")
    mcp.add_argument("root", nargs="?", default=".", help="repository root (default: .)")
    mcp.add_argument("--db", metavar="PATH", help="map file (default: ROOT/.codenav/map.db)")
    mcp.add_argument("--force-root", metavar="DIR",
                     help="refuse any root or path argument outside DIR (fail closed)")
    mcp.add_argument("--no-watch", action="store_true", help="do not watch the tree for edits")
    mcp.add_argument("--lsp", choices=("auto", "off"), default="auto",
                     help="use language servers when available (default: auto)")
    mcp.add_argument("--trust-map", action="store_true",
                     help="serve a map codenav did not write on this machine (one your CI "
                          "built and a cache restored); without it such a map is rebuilt")
    mcp.add_argument("--trust-project-config", action="store_true",
                     help="let the repository's own .codenav/config.toml / [tool.codenav] "
                          "name programs (language-server commands, settings)")
    _log_level(mcp, "info")
    mcp.set_defaults(run=_cmd_mcp)

    lsp = commands.add_parser(
        "lsp", help="serve the map to an editor over LSP (stdio)",
        description="A language server answering definition, references, document and "
                    "workspace symbols, hover and call hierarchy from the map (shared with "
                    "any other codenav process on the same root).")
    lsp.add_argument("root", nargs="?", default=".", help="repository root (default: .)")
    lsp.add_argument("--db", metavar="PATH", help="map file (default: ROOT/.codenav/map.db)")
    lsp.add_argument("--no-watch", action="store_true", help="do not watch the tree for edits")
    lsp.add_argument("--trust-map", action="store_true",
                     help="serve a map codenav did not write on this machine (one your CI "
                          "built and a cache restored); without it such a map is rebuilt")
    lsp.add_argument("--trust-project-config", action="store_true",
                     help="let the repository's own .codenav/config.toml / [tool.codenav] "
                          "name programs (language-server commands, settings)")
    _log_level(lsp, "info")
    lsp.set_defaults(run=_cmd_lsp)

    tools = commands.add_parser(
        "tools", help="list the tools (codenav call TOOL --help: one tool's arguments)",
        description="List the tools an agent calls (the same as `codenav call --list`).")
    tools.set_defaults(run=_cmd_tools)

    call = commands.add_parser(
        "call", help="call one tool and print its envelope as JSON", add_help=False,
        description="Call one tool, print its envelope (JSON). Exit 0 when ok, 1 when not, "
                    "2 when the command line is wrong (unknown tool, arguments not a JSON "
                    "object). `codenav call TOOL --help` lists the tool's arguments with an "
                    "example; `codenav call --list` lists the tools.")
    call.add_argument("-h", "--help", action="store_true",
                      help="show the tool's arguments (or, without TOOL, this help)")
    call.add_argument("--list", action="store_true", help="list the tools")
    call.add_argument("tool", nargs="?", help="tool name, e.g. map_status")
    call.add_argument("arguments", nargs="?", default="{}", help="arguments as a JSON object")
    call.add_argument("--root", default=".", help="repository root (default: .)")
    call.add_argument("--db", metavar="PATH", help="map file (default: ROOT/.codenav/map.db)")
    call.add_argument("--pretty", action="store_true", help="indent the JSON")
    call.add_argument("--lsp", choices=("auto", "off"), default="auto",
                      help="allow source:'lsp' to start a language server (default: auto)")
    call.add_argument("--trust-map", action="store_true",
                     help="serve a map codenav did not write on this machine (one your CI "
                          "built and a cache restored); without it such a map is rebuilt")
    call.add_argument("--trust-project-config", action="store_true",
                     help="let the repository's own .codenav/config.toml / [tool.codenav] "
                          "name programs (language-server commands, settings)")
    _log_level(call, "warning")
    call.set_defaults(run=_cmd_call, call_parser=call)

    servers = commands.add_parser(
        "servers", help="list language servers and their state, or install one",
        description="List each language family's server: the command found (or the install "
                    "command when none is), and the families the map of ROOT holds. "
                    "`codenav servers install FAMILY` installs the default server (pip or "
                    "npm) into codenav's cache, where the pool finds it.")
    servers.add_argument("action", nargs="?", choices=("list", "install"), default="list")
    servers.add_argument("family", nargs="?", help="with install: python, typescript …")
    servers.add_argument("--root", default=".", help="repository root (default: .)")
    servers.add_argument("--json", action="store_true", help="print JSON")
    servers.add_argument("--trust-project-config", action="store_true",
                     help="let the repository's own .codenav/config.toml / [tool.codenav] "
                          "name programs (language-server commands, settings)")
    servers.set_defaults(run=_cmd_servers)

    status = commands.add_parser("status", help="print map_status as JSON",
                                 description="Same as `codenav call map_status`.")
    status.add_argument("root", nargs="?", default=".", help="repository root (default: .)")
    status.add_argument("--db", metavar="PATH", help="map file (default: ROOT/.codenav/map.db)")
    status.add_argument("--pretty", action="store_true", help="indent the JSON")
    status.add_argument("--trust-map", action="store_true",
                     help="serve a map codenav did not write on this machine (one your CI "
                          "built and a cache restored); without it such a map is rebuilt")
    status.add_argument("--trust-project-config", action="store_true",
                     help="let the repository's own .codenav/config.toml / [tool.codenav] "
                          "name programs (language-server commands, settings)")
    _log_level(status, "warning")
    status.set_defaults(run=_cmd_status)
    return parser


@contextmanager
def _progress_bar(enabled: bool) -> Iterator[Callable[[int, int], None] | None]:
    if not enabled:
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    with Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("indexing", total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update


def _cmd_index(args: argparse.Namespace) -> int:
    from codenav.index.pipeline import check, index_tree

    _configure_logging(args.log_level)
    root = _root(args.root)
    if args.jobs is not None and args.jobs < 1:
        raise _UsageError("--jobs must be at least 1")
    db_path = _db(args.db)
    if args.check:
        fresh = check(root, db_path, trust_map=args.trust_map)
        if args.json:
            print(json.dumps(fresh.to_dict()))
        elif not args.quiet:
            print(_describe_freshness(fresh))
        return EXIT_OK if fresh.fresh else EXIT_NEGATIVE
    show_bar = not args.quiet and not args.json and sys.stderr.isatty()
    with _progress_bar(show_bar) as progress:
        report = index_tree(root, db_path, full=args.full, jobs=args.jobs, progress=progress,
                            progressive=args.progressive, trust_map=args.trust_map)
    if args.json:
        print(json.dumps(report.to_dict()))
    elif not args.quiet:
        print(f"codenav index {report.root}: {report.summary()}")
    return EXIT_OK


def _workspace(root: str, db: str | None, force_root: str | None = None, *, watch: bool = False,
               lsp: str = "off", lsp_background: bool = True, trust: bool = False,
               trust_map: bool = False) -> Any:
    from codenav.workspace import Workspace

    forced = Path(force_root).expanduser() if force_root else None
    if forced is not None and not forced.is_dir():
        raise _UsageError(f"--force-root is not a directory: {force_root}")
    return Workspace(_root(root), _db(db), force_root=forced, watch=watch, lsp=lsp,
                     lsp_background=lsp_background, trust_project=trust, trust_map=trust_map)


def _cmd_mcp(args: argparse.Namespace) -> int:
    _configure_logging(args.log_level)
    ws = _workspace(args.root, args.db, args.force_root, watch=not args.no_watch, lsp=args.lsp,
                    trust=args.trust_project_config, trust_map=args.trust_map)
    # A missing map starts building now, while the MCP SDK is imported (about a second):
    # its first definitions are readable by the time the first question arrives.
    ws.start_background_build(on_done=ws.start_servers)
    from codenav.server import serve_stdio

    serve_stdio(ws)
    return EXIT_OK


def _cmd_lsp(args: argparse.Namespace) -> int:
    from codenav.lsp_server import serve_editor

    _configure_logging(args.log_level)
    return serve_editor(_workspace(args.root, args.db, watch=not args.no_watch,
                                   trust=args.trust_project_config, trust_map=args.trust_map))


def _print_envelope(envelope: dict[str, Any], pretty: bool) -> None:
    from codenav.envelope import to_json

    print(json.dumps(envelope, ensure_ascii=False, indent=2) if pretty else to_json(envelope))


def _run_tool(args: argparse.Namespace, tool: str, arguments: Any) -> int:
    import anyio

    from codenav.tools.dispatch import call_tool

    _configure_logging(args.log_level)
    # A one-shot call: source:'lsp' starts the server it needs; 'auto' answers from the map
    # rather than start one it would stop again at once.
    ws = _workspace(args.root, args.db, lsp=getattr(args, "lsp", "auto"), lsp_background=False,
                    trust=args.trust_project_config, trust_map=args.trust_map)
    try:
        envelope = anyio.run(call_tool, ws, tool, arguments)
    finally:
        ws.close()
    _print_envelope(envelope, args.pretty)
    if envelope["ok"]:
        return EXIT_OK
    return EXIT_NEGATIVE


def _cmd_tools(args: argparse.Namespace) -> int:
    from codenav.tools.help import tool_list

    print(tool_list())
    return EXIT_OK


def _cmd_call(args: argparse.Namespace) -> int:
    from codenav.tools.help import tool_help, tool_list
    from codenav.tools.registry import TOOLS, by_name

    if args.list:
        print(tool_list())
        return EXIT_OK
    if args.tool is None and not args.help:
        raise _UsageError("which tool? " + ", ".join(t.name for t in TOOLS)
                          + " (codenav tools describes them)")
    if args.help and args.tool is None:
        args.call_parser.print_help()
        return EXIT_OK
    tool = by_name(args.tool)
    if tool is not None and args.help:
        print(tool_help(tool))
        return EXIT_OK
    if tool is None:
        raise _UsageError(f"unknown tool {args.tool!r}; the tools are: "
                          + ", ".join(t.name for t in TOOLS))
    try:
        arguments = json.loads(args.arguments)
    except json.JSONDecodeError as exc:
        raise _UsageError(f"arguments are not valid JSON: {exc}") from exc
    if not isinstance(arguments, dict):
        raise _UsageError("arguments must be a JSON object, e.g. '{\"query\": \"Parser\"}'")
    return _run_tool(args, args.tool, arguments)


def _cmd_servers(args: argparse.Namespace) -> int:
    from codenav.config import decide_trust
    from codenav.lsp.servers import families, find_command, install, withheld

    if args.action == "install":
        if not args.family:
            raise _UsageError("which family? e.g. `codenav servers install typescript`")
        return install(args.family)
    root = _root(args.root)
    rows: list[dict[str, Any]] = []
    trust = decide_trust(root, flag=args.trust_project_config)
    for name, family in families(root, trust).items():
        found = next(((spec, argv) for spec in family.servers
                      if (argv := find_command(spec.command)) is not None), None)
        rows.append({"family": name, "languages": list(family.languages),
                     "enabled": family.enabled,
                     "server": found[0].name if found else None,
                     "command": found[1] if found else None,
                     "install": None if found else family.install_hint,
                     "withheld": withheld(family, found[0] if found else None)})
    if args.json:
        print(json.dumps(rows, indent=2))
        return EXIT_OK
    for row in rows:
        state = ("disabled" if not row["enabled"] else
                 f"{row['server']}: {' '.join(row['command'])}" if row["server"] else
                 f"not installed — {row['install']}")
        print(f"{row['family']:<11} {','.join(row['languages']):<12} {state}")
        if row["withheld"] and row["enabled"]:
            print(f"{'':<24} untrusted project: not given {row['withheld']}")
    return EXIT_OK


def _cmd_status(args: argparse.Namespace) -> int:
    return _run_tool(args, "map_status", {})


def _describe_freshness(fresh: object) -> str:
    from codenav.index.pipeline import Freshness

    assert isinstance(fresh, Freshness)
    if fresh.untrusted:
        return ("the map was not written by codenav on this machine: `codenav index` rebuilds "
                "it; pass --trust-map if it comes from your own CI")
    if not fresh.built:
        return "no map yet: run `codenav index`"
    if fresh.fresh:
        return "map is fresh"
    lines = [f"map is stale: {len(fresh.changed)} changed, {len(fresh.added)} added, "
             f"{len(fresh.removed)} removed"]
    for label, paths in (("changed", fresh.changed), ("added", fresh.added),
                         ("removed", fresh.removed)):
        lines.extend(f"  {label}: {path}" for path in paths[:20])
        if len(paths) > 20:
            lines.append(f"  … and {len(paths) - 20} more {label}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.run(args)
    except _UsageError as exc:
        parser.print_usage(sys.stderr)
        print(f"codenav: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except MapRefused as exc:  # a file codenav must not write: the command line must change
        print(f"codenav: error: {exc.message}\n  hint: {exc.hint}", file=sys.stderr)
        return EXIT_USAGE
    except CodenavError as exc:
        print(f"codenav: {exc.code}: {exc.message}\n  hint: {exc.hint}", file=sys.stderr)
        return EXIT_NEGATIVE
    except KeyboardInterrupt:
        print("codenav: interrupted; the previous map is intact", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `codenav … | head`: the reader left; nothing more to say
        _quiet_stdout()
        return EXIT_OK
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _quiet_stdout()
    return code


def _quiet_stdout() -> None:
    """Point stdout at the null device, so that the interpreter's own flush at exit does not
    fail again on the closed pipe (Python's documented way out of a SIGPIPE)."""
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, sys.stdout.fileno())
    os.close(null)
