"""The ``codenav`` command: argument parsing and exit codes, nothing else.

Exit codes: 0 success, 1 a negative answer (a stale map for ``--check``, a failed tool call,
a map codenav cannot use), 2 bad usage.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import os
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from codenav import __version__
from codenav.errors import CodenavError, MapRefused, RootRefused
from codenav.roots import RootChoice, check_root, choose_root

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


_ROOT_HELP = ("repository root (default: the MCP client's or editor's root, $CLAUDE_PROJECT_DIR, "
              "the git work tree around the current folder, else the current folder)")


def _root_options(parser: argparse.ArgumentParser, *, positional: bool) -> None:
    """ROOT (by position where a command always took it) and ``--root``, which every
    command takes; ``--allow-large-root``."""
    if positional:
        parser.add_argument("root", nargs="?", default=None, help=_ROOT_HELP)
    parser.add_argument("--root", dest="root_option", metavar="ROOT", default=None,
                        help=_ROOT_HELP if not positional else "the same as ROOT")
    parser.add_argument("--allow-large-root", action="store_true",
                        help="map a root codenav refuses: /, the home folder, a folder "
                             "without .git holding over 200,000 files")


def _trust_map_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--trust-map", action="store_true",
                        help="serve a map codenav did not write on this machine (one your CI "
                             "built and a cache restored); without it such a map is rebuilt")


def _trust_project_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--trust-project-config", action="store_true",
                        help="let the repository's own .codenav/config.toml / [tool.codenav] "
                             "name programs (language-server commands, settings)")


def _named_root(args: argparse.Namespace) -> str | None:
    given = getattr(args, "root", None)
    option = getattr(args, "root_option", None)
    if given is not None and option is not None and _root(given) != _root(option):
        raise _UsageError(f"two roots: {given} and --root {option}")
    return option if option is not None else given


def _choice(args: argparse.Namespace) -> RootChoice:
    """The root by codenav/roots.py's rules (no client roots: this process has none)."""
    try:
        choice = choose_root(_named_root(args))
    except NotADirectoryError as exc:
        raise _UsageError(str(exc)) from exc
    check_root(choice, allow_large=args.allow_large_root)
    return choice


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
    # (`codenav --help` once ended with the whole tools screen: 7 of 12 agents of runs 24-29
    # ran `codenav tools` as well and read it twice; it points there instead)
    parser = argparse.ArgumentParser(
        prog="codenav", description="Code navigation for AI agents and editors.")
    parser.add_argument("--version", action="version", version=f"codenav {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    index = commands.add_parser(
        "index", help="build or refresh the map (ROOT/.codenav/map.db)",
        description="Build or refresh the map; incremental unless --full.")
    _root_options(index, positional=True)
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
    _trust_map_option(index)
    index.add_argument("--check", action="store_true",
                       help="change nothing; exit 1 when the map is missing or stale")
    _log_level(index, "warning")
    index.set_defaults(run=_cmd_index)

    mcp = commands.add_parser(
        "mcp", help="serve the tools to an agent over MCP (stdio)",
        description="Serve codenav's tools over MCP on stdin/stdout. Builds the map in the "
                    "background when it is missing.")
    _root_options(mcp, positional=True)
    mcp.add_argument("--db", metavar="PATH", help="map file (default: ROOT/.codenav/map.db)")
    mcp.add_argument("--force-root", metavar="DIR",
                     help="refuse any root or path argument outside DIR (fail closed)")
    mcp.add_argument("--no-watch", action="store_true", help="do not watch the tree for edits")
    mcp.add_argument("--lsp", choices=("auto", "off"), default="auto",
                     help="use language servers when available (default: auto)")
    _trust_map_option(mcp)
    _trust_project_option(mcp)
    _log_level(mcp, "info")
    mcp.set_defaults(run=_cmd_mcp)

    lsp = commands.add_parser(
        "lsp", help="serve the map to an editor over LSP (stdio)",
        description="A language server answering definition, references, document and "
                    "workspace symbols, hover and call hierarchy from the map (shared with "
                    "any other codenav process on the same root).")
    _root_options(lsp, positional=True)
    lsp.add_argument("--db", metavar="PATH", help="map file (default: ROOT/.codenav/map.db)")
    lsp.add_argument("--no-watch", action="store_true", help="do not watch the tree for edits")
    _trust_map_option(lsp)
    _trust_project_option(lsp)
    _log_level(lsp, "info")
    lsp.set_defaults(run=_cmd_lsp)

    warm = commands.add_parser(
        "warm", help="keep language servers warm for shell calls (call starts it)",
        description="The background server `codenav call` asks first, and starts when none "
                    "answers: it keeps the language servers of ROOT running between shell "
                    "calls, answers them over an owner-only socket, and leaves after IDLE "
                    "seconds without a call (default 600, $CODENAV_WARM_IDLE). "
                    "CODENAV_WARM=0 turns it off.")
    _root_options(warm, positional=True)
    warm.add_argument("--db", metavar="PATH", help="map file (default: ROOT/.codenav/map.db)")
    warm.add_argument("--idle", type=float, metavar="SECONDS",
                      help="leave after this long without a call (default 600)")
    _trust_map_option(warm)
    _trust_project_option(warm)
    _log_level(warm, "info")
    warm.set_defaults(run=_cmd_warm)

    tools = commands.add_parser(
        "tools", help="every tool, its arguments and an example: start here",
        description="List the tools an agent calls (the same as `codenav call --list`).")
    tools.set_defaults(run=_cmd_tools)

    call = commands.add_parser(
        "call", help="call tools: codenav call TOOL 'JSON' [TOOL 'JSON' …]",
        add_help=False,
        description="Call a tool, print its envelope (JSON); several calls in one command "
                    "(TOOL 'JSON' TOOL 'JSON' …) print one envelope a line, in order. Exit 0 "
                    "when every answer is ok, 1 when not, "
                    "2 when the command line is wrong (unknown tool, arguments not a JSON "
                    "object). `codenav call TOOL --help` lists the tool's arguments with an "
                    "example; `codenav call --list` lists the tools.")
    call.add_argument("-h", "--help", action="store_true",
                      help="show the tool's arguments (or, without TOOL, this help)")
    call.add_argument("--list", action="store_true", help="list the tools")
    call.add_argument("tool", nargs="?", help="tool name, e.g. map_status")
    call.add_argument("arguments", nargs="*",
                      help="arguments as a JSON object; then, for more calls, TOOL JSON …")
    _root_options(call, positional=False)
    call.add_argument("--db", metavar="PATH", help="map file (default: ROOT/.codenav/map.db)")
    call.add_argument("--pretty", action="store_true", help="indent the JSON")
    call.add_argument("--lsp", choices=("auto", "off"), default="auto",
                      help="allow source:'lsp' to start a language server (default: auto)")
    _trust_map_option(call)
    _trust_project_option(call)
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
    _root_options(servers, positional=False)
    servers.add_argument("--json", action="store_true", help="print JSON")
    _trust_project_option(servers)
    servers.set_defaults(run=_cmd_servers)

    status = commands.add_parser("status", help="print map_status as JSON",
                                 description="Same as `codenav call map_status`.")
    _root_options(status, positional=True)
    status.add_argument("--db", metavar="PATH", help="map file (default: ROOT/.codenav/map.db)")
    status.add_argument("--pretty", action="store_true", help="indent the JSON")
    _trust_map_option(status)
    _trust_project_option(status)
    _log_level(status, "warning")
    status.set_defaults(run=_cmd_status)

    from codenav.setup.clients import CLIENTS

    setup = commands.add_parser(
        "setup", help="write codenav into an MCP client's configuration",
        description="Add codenav (this codenav, by its absolute path) to an MCP client's own "
                    "configuration file, keeping everything else in it. A file that cannot be "
                    "parsed is left alone (exit 1). generic prints the entry most clients take "
                    "(or merges it into --file).")
    setup.add_argument("client", choices=list(CLIENTS), help="which client")
    scope = setup.add_mutually_exclusive_group()
    scope.add_argument("--project", dest="scope", action="store_const", const="project",
                       help="the project's file (ROOT/.mcp.json …); the default for "
                            "claude-code, cursor, vscode")
    scope.add_argument("--user", dest="scope", action="store_const", const="user",
                       help="your own file (~/.claude.json, ~/.codex/config.toml …); the "
                            "default for codex and zed")
    setup.add_argument("--dry-run", action="store_true",
                       help="write nothing: show what would change")
    setup.add_argument("--root", dest="root_option", metavar="ROOT", default=None,
                       help=f"with --project: {_ROOT_HELP}")
    setup.add_argument("--file", metavar="PATH", help="generic: merge into this JSON file "
                                                      "(mcpServers) instead of printing")
    setup.set_defaults(run=_cmd_setup, allow_large_root=False)
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
    from codenav.store.db import checkpoint, map_path

    _configure_logging(args.log_level)
    choice = _choice(args)
    root = choice.path
    if args.jobs is not None and args.jobs < 1:
        raise _UsageError("--jobs must be at least 1")
    db_path = _db(args.db)
    if not args.check and not args.allow_large_root and not map_path(root, db_path).exists():
        check_root(choice, count=True)  # a first build of a huge tree without .git
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
    checkpoint(Path(report.db))  # the WAL folded into the map, not left at its largest
    if args.json:
        print(json.dumps(report.to_dict()))
    elif not args.quiet:
        print(f"codenav index {report.root}: {report.summary()}")
    if report.files == 0 and not args.quiet:
        print(f"codenav: {_EMPTY_TREE.format(root=report.root)}", file=sys.stderr)
    return EXIT_OK


# Said when a tree holds nothing codenav maps (a map of 0 files looks like a broken one).
_EMPTY_TREE = ("no source files under {root}: the map is empty. codenav maps Python, "
               "TypeScript, JavaScript, Go, Rust, Java, C#, C, C++, Ruby and PHP; "
               "`codenav index --json` lists what was skipped and why")


def _workspace(choice: RootChoice, db: str | None, force_root: str | None = None, *,
               watch: bool = False, lsp: str = "off", lsp_background: bool = True,
               trust: bool = False, trust_map: bool = False, allow_large: bool = False) -> Any:
    from codenav.workspace import Workspace

    forced = Path(force_root).expanduser() if force_root else None
    if forced is not None and not forced.is_dir():
        raise _UsageError(f"--force-root is not a directory: {force_root}")
    return Workspace(choice.path, _db(db), force_root=forced, watch=watch, lsp=lsp,
                     lsp_background=lsp_background, trust_project=trust, trust_map=trust_map,
                     root_from=choice.rule, allow_large_root=allow_large)


def _deferred(args: argparse.Namespace, **options: Any) -> Callable[[Sequence[Path]], Any]:
    """A server's workspace once its client has said its roots (none named ROOT): the
    first client root, else codenav/roots.py's other rules. A root codenav refuses is
    RootRefused, which the server answers with rather than exit."""
    def make(client: Sequence[Path]) -> Any:
        choice = choose_root(None, client)
        check_root(choice, allow_large=args.allow_large_root)
        return _workspace(choice, args.db, trust=args.trust_project_config,
                          trust_map=args.trust_map, allow_large=args.allow_large_root,
                          **options)
    return make


def _cmd_mcp(args: argparse.Namespace) -> int:
    _configure_logging(args.log_level)
    options: dict[str, Any] = {"watch": not args.no_watch, "lsp": args.lsp}
    if sys.stdin is not None and sys.stdin.isatty():
        print("codenav mcp: waiting for an MCP client on stdin/stdout. This is the server "
              "an agent's client starts (docs/clients.md; `codenav setup CLIENT` writes its "
              "configuration); press Ctrl-D to end it.", file=sys.stderr, flush=True)
    if _named_root(args) is None:
        from codenav.server import serve_stdio

        if args.force_root:
            raise _UsageError("--force-root needs ROOT: the root cannot be left to the client")
        serve_stdio(make=_deferred(args, **options))
        return EXIT_OK
    choice = _choice(args)
    ws = _workspace(choice, args.db, args.force_root, trust=args.trust_project_config,
                    trust_map=args.trust_map, allow_large=args.allow_large_root, **options)
    # A missing map starts building now, while the MCP SDK is imported (about a second):
    # its first definitions are readable by the time the first question arrives.
    ws.start_background_build(on_done=ws.start_servers)
    from codenav.server import serve_stdio

    serve_stdio(ws)
    return EXIT_OK


def _cmd_lsp(args: argparse.Namespace) -> int:
    from codenav.lsp_server import serve_editor

    _configure_logging(args.log_level)
    if _named_root(args) is None:
        return serve_editor(make=_deferred(args, watch=not args.no_watch))
    return serve_editor(_workspace(_choice(args), args.db, watch=not args.no_watch,
                                   trust=args.trust_project_config, trust_map=args.trust_map,
                                   allow_large=args.allow_large_root))


def _print_envelope(envelope: dict[str, Any], pretty: bool) -> None:
    from codenav.envelope import to_json

    print(json.dumps(envelope, ensure_ascii=False, indent=2) if pretty else to_json(envelope))


def _run_tool(args: argparse.Namespace, tool: str, arguments: Any) -> int:
    return _run_tools(args, [(tool, arguments)])


def _run_tools(args: argparse.Namespace, calls: Sequence[tuple[str, Any]]) -> int:
    """Answer each call in order, one envelope a line, from one workspace; exit 0 when
    every answer is ok."""
    import anyio

    from codenav.tools.dispatch import call_tool

    _configure_logging(args.log_level)
    # A one-shot call: source:'lsp' starts the server it needs; 'auto' answers from the map
    # rather than start one it would stop again at once.
    lsp = getattr(args, "lsp", "auto")
    ws = _workspace(_choice(args), args.db, lsp=lsp,
                    lsp_background=False, trust=args.trust_project_config,
                    trust_map=args.trust_map, allow_large=args.allow_large_root)
    all_ok = True
    try:
        for tool, arguments in calls:
            envelope = _warm_answer(args, ws, tool, arguments) if lsp != "off" else None
            if envelope is None:
                envelope = anyio.run(call_tool, ws, tool, arguments)
            _print_envelope(envelope, args.pretty)
            all_ok = all_ok and bool(envelope["ok"])
    finally:
        ws.close()
    return EXIT_OK if all_ok else EXIT_NEGATIVE


def _warm_answer(args: argparse.Namespace, ws: Any, tool: str,
                 arguments: dict[str, Any]) -> dict[str, Any] | None:
    """The answer of the workspace's warm server (codenav/warm.py), which keeps language
    servers running between shell calls; None when there is none yet — then one is
    started in the background and this call is answered here, from the map."""
    from codenav import warm

    if not warm.enabled() or ws.warm_elsewhere:  # (asked, and one starting, this command)
        return None
    path = warm.socket_of(ws)
    if path is None:
        return None
    answer = warm.ask(path, tool, arguments)
    if answer is None:
        warm.spawn(_warm_argv(ws, args))
        ws.warm_elsewhere = True
    return answer


def _warm_argv(ws: Any, args: argparse.Namespace | None) -> list[str]:
    """``codenav warm``'s command line for ``ws``: its root, and the map and trust options
    the caller was given (the same socket as its calls, see warm.socket_of)."""
    db = getattr(args, "db", None)
    argv = [str(ws.root)]
    argv += ["--db", str(db)] if db else []
    argv += ["--trust-project-config"] if getattr(args, "trust_project_config", False) else []
    argv += ["--trust-map"] if getattr(args, "trust_map", False) else []
    argv += ["--allow-large-root"] if getattr(args, "allow_large_root", False) else []
    return argv


def _cmd_warm(args: argparse.Namespace) -> int:
    from codenav import warm

    _configure_logging(args.log_level)
    ws = _workspace(_choice(args), args.db, lsp="auto", trust=args.trust_project_config,
                    trust_map=args.trust_map, allow_large=args.allow_large_root)
    try:
        return warm.run(ws, args.idle if args.idle is not None else warm.idle_seconds())
    finally:
        ws.close()


def _cmd_tools(args: argparse.Namespace) -> int:
    from codenav.tools.help import tool_list

    print(tool_list())
    _prewarm(None)
    return EXIT_OK


def _prewarm(args: argparse.Namespace | None) -> None:
    """Start the warm server of the workspace around the current directory (when it has a
    map) while the caller reads how to use the tools: an agent's first questions then find
    its language servers starting or ready, not yet to be started (runs 40-45: the first
    answers of each repository came from the map alone, and agents checked them by hand).
    Nothing when warm servers are off, there is no map, or one already answers."""
    from codenav import warm

    if not warm.enabled():
        return
    db = getattr(args, "db", None)
    trust, trust_map = (bool(getattr(args, "trust_project_config", False)),
                        bool(getattr(args, "trust_map", False)))
    try:
        choice = _choice(args) if args is not None else choose_root(None)
        if args is None:
            check_root(choice, allow_large=False)
        if db is None and not (choice.path / ".codenav" / "map.db").is_file():
            return
        ws = _workspace(choice, db, trust=trust, trust_map=trust_map)
    except (OSError, CodenavError, _UsageError, NotADirectoryError):
        return
    try:  # (the same workspace, map and trust as the calls to come: the same socket)
        path = warm.socket_of(ws)
        if path is not None and warm.ask(path, "map_status", {"tokenBudget": 100}) is None:
            warm.spawn(_warm_argv(ws, args))
    finally:
        ws.close()


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
        _prewarm(args)
        return EXIT_OK
    if tool is None:
        raise _UsageError(f"unknown tool {args.tool!r}; the tools are: "
                          + ", ".join(t.name for t in TOOLS))
    calls = [(tool.name, _call_arguments(tool.name, words, index, many))
             for index, (tool, words, many) in enumerate(_split_calls(tool, args.arguments), 1)]
    return _run_tools(args, calls)


def _split_calls(first: Any, words: list[str]) -> list[tuple[Any, list[str], bool]]:
    """``TOOL ARGS [TOOL ARGS …]``: the calls of one command, split at the words naming a
    tool outside an object the shell split at its spaces (``{ query: map_node }``), each
    ``(tool, its words, whether the command holds several)``."""
    from codenav.tools.registry import by_name

    groups: list[tuple[Any, list[str]]] = [(first, [])]
    depth = 0  # braces the shell left open in this call's words (`{ query: map_node }`)
    for word in words:
        tool = by_name(word) if depth <= 0 else None
        if tool is not None:
            groups.append((tool, []))
            depth = 0
        else:
            groups[-1][1].append(word)
            depth += word.count("{") - word.count("}")
    return [(tool, own, len(groups) > 1) for tool, own in groups]


def _call_arguments(tool: str, words: list[str], index: int, many: bool) -> dict[str, Any]:
    """One call's arguments from its words; a usage error names the call when the command
    holds several."""
    which = f"call {index} ({tool}): " if many else ""
    text = _one_argument(words)
    try:
        arguments = json.loads(text)
    except json.JSONDecodeError as exc:
        arguments = _expanded(words) or _unquoted(text)
        if arguments is None:
            raise _UsageError(f"{which}arguments are not valid JSON: {exc} (quote the object "
                              "for the shell: codenav call TOOL '{\"key\": \"value\"}')") from exc
    if not isinstance(arguments, dict):
        raise _UsageError(f"{which}arguments must be a JSON object, e.g. "
                          "'{\"query\": \"Parser\"}'")
    return arguments


def _one_argument(words: list[str]) -> str:
    """The JSON argument as typed: one word; or several the shell made of one object left
    unquoted — split at its spaces (``{a: b}``), or by brace expansion at its commas
    (``{"a":"b","c":"d"}`` arrives as ``a:b c:d``), joined back."""
    if not words:
        return "{}"
    if len(words) == 1:
        return words[0]
    if words[0].lstrip().startswith("{"):
        return " ".join(words)
    return "{" + ",".join(words) + "}"


_MEMBER_WORD = re.compile(r"([A-Za-z_]\w*):(.*)", re.S)


def _expanded(words: list[str]) -> dict[str, Any] | None:
    """An object the shell's brace expansion took apart, read back member by member:
    ``{"a":"x,y","kinds":["m","c"]}`` unquoted arrives as the words ``a:x,y``, ``kinds:[m``,
    ``c]`` — one a member (``key:value``, a string's commas its own: they were quoted), the
    words after an unclosed ``[`` the next items of that list up to the one closing it.
    None when the words are not so made (fewer than two, the first no member, a list never
    closed, a member inside a list)."""
    if len(words) < 2 or _MEMBER_WORD.fullmatch(words[0]) is None:
        return None
    members: list[tuple[str, list[str]]] = []
    for word in words:
        open_list = bool(members) and members[-1][1][0].startswith("[") and \
            not members[-1][1][-1].endswith("]")
        found = _MEMBER_WORD.fullmatch(word)
        if open_list:
            if found is not None and not word.endswith("]"):
                return None  # `query:[key text:true`: no list, a string the shell split
            members[-1][1].append(word)
        elif found is not None:
            members.append((found.group(1), [found.group(2)]))
        else:
            return None
    out: dict[str, Any] = {}
    for key, parts in members:
        if parts[0].startswith("[") and parts[-1].endswith("]"):
            items = [*parts[:-1], parts[-1][:-1]]
            items[0] = items[0][1:]
            out[key] = [_bare_value(item) for item in items] if items != [""] else []
        elif len(parts) > 1 or parts[0].startswith("["):
            return None  # a list never closed
        else:
            out[key] = _bare_value(parts[0])
    return out


def _bare_value(text: str) -> Any:
    """A value whose quotes the shell took: true/false/null, an integer, else the string
    itself (empty: ``"query":""`` arrives as ``query:``)."""
    if text in ("true", "false", "null"):
        return json.loads(text)
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    return text


_UNQUOTED_TOKEN = re.compile(r"\s*([{}\[\],:]|[^{}\[\],:\s][^{}\[\],:]*)")


def _unquoted(text: str) -> Any:
    """A JSON object whose quotes the shell took (``codenav call t {"a":"b"}`` unquoted
    arrives as ``{a:b}``), read back: keys and strings bare, numbers, true/false/null,
    lists. None for anything else (a string holding ``,``, ``:`` or brackets cannot be
    told apart, nor can text that had quotes left)."""
    if '"' in text or not text.strip().startswith("{"):
        return None
    tokens: list[str] = []
    at = 0
    while at < len(text.rstrip()):
        found = _UNQUOTED_TOKEN.match(text, at)
        if found is None:
            return None
        tokens.append(found.group(1).strip())
        at = found.end()
    position = 0

    def value() -> Any:
        nonlocal position
        token = tokens[position] if position < len(tokens) else ""
        position += 1
        if token == "{":
            out: dict[str, Any] = {}
            while position < len(tokens) and tokens[position] != "}":
                key = tokens[position]
                if key in "{}[],:" or tokens[position + 1:position + 2] != [":"]:
                    raise ValueError(key)
                position += 2
                # nothing before the next comma or brace: the shell took an empty string's
                # quotes (`"query":""` arrives as `query:`), the only value that reads so
                empty = position >= len(tokens) or tokens[position] in (",", "}")
                out[key] = "" if empty else value()
                if position < len(tokens) and tokens[position] == ",":
                    position += 1
            position += 1
            return out
        if token == "[":
            items: list[Any] = []
            while position < len(tokens) and tokens[position] != "]":
                items.append(value())
                if position < len(tokens) and tokens[position] == ",":
                    position += 1
            position += 1
            return items
        if token in ("", "}", "]", ",", ":"):
            raise ValueError(token)
        # a string may hold colons (an id: ts:src/a.ts#A.m): they are its own up to a
        # comma or a closing bracket
        while position + 1 < len(tokens) and tokens[position] == ":" and \
                tokens[position + 1] not in ("{", "}", "[", "]", ",", ":"):
            token += ":" + tokens[position + 1]
            position += 2
        if token in ("true", "false", "null"):
            return json.loads(token)
        if re.fullmatch(r"-?\d+", token):
            return int(token)
        return token

    try:
        parsed = value()
    except (ValueError, IndexError):
        return None
    return parsed if position == len(tokens) and isinstance(parsed, dict) else None


def _cmd_servers(args: argparse.Namespace) -> int:
    from codenav.config import Trust, decide_trust
    from codenav.lsp.servers import install, inventory

    _configure_logging("warning")  # configuration warnings, as the files are read
    if args.action == "install":
        if not args.family:
            raise _UsageError("which family? e.g. `codenav servers install typescript`")
        return install(args.family)
    try:
        root: Path | None = _choice(args).path
    except RootRefused:  # which servers there are can be said anywhere; the project's
        root = None      # configuration only where codenav would map
    trust = decide_trust(root, flag=args.trust_project_config) if root is not None else \
        Trust(False, "no project")
    rows = [{**dataclasses.asdict(row), "languages": list(row.languages)}
            for row in inventory(root, trust)]
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
    from codenav.config import config_warnings

    problems = config_warnings(root)
    if problems:  # (also logged on stderr as each file is read)
        print("\nconfiguration settings that do not apply (the rest does):")
        for problem in problems:
            print(f"  {problem}")
    return EXIT_OK


def _cmd_status(args: argparse.Namespace) -> int:
    return _run_tool(args, "map_status", {})


def _cmd_setup(args: argparse.Namespace) -> int:
    from codenav.setup import CLIENTS, setup

    client = CLIENTS[args.client]
    scope = args.scope or client.default_scope
    if args.file and client.name != "generic":
        raise _UsageError("--file is for `codenav setup generic`; the other clients' files "
                          "are where the client reads them")
    if args.file and args.scope:
        raise _UsageError("--file names the file: no --project or --user with it")
    # the project's root matters to a project file (its path) and to generic's arguments
    root = _choice(args).path if scope == "project" else Path.cwd()
    file = Path(args.file).expanduser().absolute() if args.file else None
    return setup(client, scope, root, dry_run=args.dry_run, file=file)


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
    except (MapRefused, RootRefused) as exc:  # the command line must change
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
