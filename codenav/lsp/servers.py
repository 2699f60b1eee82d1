"""Which language server serves which language: ``servers.toml`` (data), the user's and a
project's overrides, and where commands are found.

A *family* is a set of map languages one server answers for (``typescript`` serves ts, tsx and
js). Its servers are tried in order; the first whose command is found runs. Commands are
looked up beside the running Python (a virtualenv's ``bin``), in codenav's own server cache
(``codenav servers install`` puts pip and npm packages there), then on ``PATH``.

Overrides (``codenav/config.py`` says where they come from and how far a project is
trusted): ``enabled = false`` never starts a server; ``command = [...]`` runs exactly that;
``settings`` replaces the answers to ``workspace/configuration``. The user's own
configuration wins over the project's, whose ``command`` and ``settings`` apply only to a
trusted project. A server that runs the project's own code to understand it (build scripts,
a build tool's evaluation: ``runs_project_code`` in servers.toml) starts only for a trusted
project.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

from codenav.config import Trust, project_config, user_lsp

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

__all__ = ["Family", "Installed", "NotRestrictable", "Restriction", "ServerSpec",
           "bundled_tsserver", "cache_dir", "families", "family_of", "find_command", "install",
           "inventory", "language_id", "restricted", "search_path", "withheld"]

_TABLE = Path(__file__).with_name("servers.toml")


@dataclass(frozen=True, slots=True)
class Restriction:
    """How a server starts for a project that is not trusted (servers.toml ``untrusted``)."""

    settings: dict[str, Any] | None = None
    initialization_options: dict[str, Any] | None = None
    withheld: str = ""


@dataclass(frozen=True, slots=True)
class ServerSpec:
    name: str
    command: tuple[str, ...]
    install: str
    packages: tuple[str, ...] = ()
    settings: dict[str, Any] | None = None
    initialization_options: dict[str, Any] | None = None
    ready_log: str | None = None  # a logMessage saying the workspace is loaded
    ready_progress: str | None = None  # the title of the $/progress that loads it
    package_root_setting: str | None = None  # dotted setting for a package root's parent
    env: dict[str, str] | None = None  # set for the server's process (safety switches)
    runs_project_code: bool = False  # build scripts, a build tool: only for trusted projects
    untrusted: Restriction | None = None  # what changes for a project that is not trusted
    # (regular expression, hint): an error whose message matches means the server cannot
    # answer for that file (LSP_UNAVAILABLE, with the hint), not that it failed
    unavailable: tuple[tuple[str, str], ...] = ()
    # files each of which makes a project the server loads only once a file of it is open
    # (tsserver's tsconfig.json: a `src/tsconfig.json` beside the root's leaves the tests'
    # project unloaded, and their references out): one file of each is opened at start
    project_files: tuple[str, ...] = ()

    @property
    def signals_loaded(self) -> bool:
        """Whether the server says when the workspace is loaded; without a signal its
        first answer counts, so nothing may wait for the signal."""
        return bool(self.ready_log or self.ready_progress)


@dataclass(frozen=True, slots=True)
class Family:
    name: str
    languages: tuple[str, ...]
    language_ids: dict[str, str]
    servers: tuple[ServerSpec, ...]
    enabled: bool = True
    overridden: bool = field(default=False, compare=False)
    untrusted: str | None = None  # why its server does not start for an untrusted project
    trusted: bool = False  # the project is trusted: no server is restricted

    @property
    def install_hint(self) -> str:
        first = self.servers[0] if self.servers else None
        if first is None:
            return "no language server is known for this language"
        cached = (f"; or `codenav servers install {self.name}` into codenav's cache"
                  if first.packages else "")
        return f"Install {first.name}: `{first.install}`{cached}."


def _restriction(row: Any) -> Restriction | None:
    if not isinstance(row, dict):
        return None
    return Restriction(settings=row.get("settings"),
                       initialization_options=row.get("initialization_options"),
                       withheld=str(row.get("withheld", "")))


def _spec(row: dict[str, Any]) -> ServerSpec:
    return ServerSpec(
        name=str(row["name"]), command=tuple(row["command"]), install=str(row.get("install", "")),
        packages=tuple(row.get("packages", ())), settings=row.get("settings"),
        initialization_options=row.get("initialization_options"),
        ready_log=row.get("ready_log"), ready_progress=row.get("ready_progress"),
        package_root_setting=row.get("package_root_setting"), env=row.get("env"),
        runs_project_code=bool(row.get("runs_project_code", False)),
        untrusted=_restriction(row.get("untrusted")),
        unavailable=tuple((str(item["match"]), str(item.get("hint", "")))
                          for item in row.get("unavailable", ()) if "match" in item),
        project_files=tuple(str(name) for name in row.get("project_files", ())))


@cache
def _defaults() -> dict[str, Family]:
    table = tomllib.loads(_TABLE.read_text("utf-8"))
    return {name: Family(name=name, languages=tuple(row["languages"]),
                         language_ids=dict(row.get("language_ids", {})),
                         servers=tuple(_spec(s) for s in row.get("servers", ())))
            for name, row in table.items()}


def families(root: Path | None = None, trust: Trust | None = None) -> dict[str, Family]:
    """Every family, with the user's overrides and those of ``root`` that ``trust`` lets
    apply (none that name programs when ``trust`` is None or untrusted)."""
    trust = trust or Trust(False, "not trusted")
    project = project_config(root, trust).lsp
    mine = user_lsp(root)
    out = dict(_defaults())
    for name, default in list(out.items()):
        rows = [project.get(name), mine.get(name)]  # the user's last: theirs wins
        family = default
        for row in rows:
            if isinstance(row, dict):
                family = _overridden(family, row)
        if not trust.trusted and any(s.runs_project_code for s in family.servers) and \
                not isinstance(mine.get(name, {}).get("command"), list):
            runner = next(s for s in family.servers if s.runs_project_code)
            family = replace(family, untrusted=f"{runner.name} runs the project's own code "
                                               "(build scripts, its build tool)")
        out[name] = replace(family, trusted=trust.trusted)
    return out


def _overridden(family: Family, row: dict[str, Any]) -> Family:
    if row.get("enabled") is False:
        family = replace(family, enabled=False, overridden=True)
    command = row.get("command")
    if isinstance(command, list) and command and all(isinstance(c, str) for c in command):
        first = family.servers[0] if family.servers else None
        # a known server under another path keeps what an untrusted project needs of it
        known = next((s for s in family.servers
                      if Path(s.command[0]).name == Path(command[0]).name), None)
        custom = ServerSpec(name=str(row.get("name", command[0])), command=tuple(command),
                            install=first.install if first else "",
                            settings=first.settings if first else None,
                            untrusted=known.untrusted if known else None)
        family = replace(family, servers=(custom,), overridden=True)
    settings = row.get("settings")
    if isinstance(settings, dict):
        family = replace(family, servers=tuple(replace(s, settings=settings)
                                               for s in family.servers), overridden=True)
    return family


def withheld(family: Family, spec: ServerSpec | None = None) -> str | None:
    """What ``spec`` (by default the family's first server) is not given from an untrusted
    project, for map_status; None when the project is trusted or nothing is withheld."""
    if family.trusted:
        return None
    if family.untrusted:
        return f"the server itself: {family.untrusted}"
    spec = spec or (family.servers[0] if family.servers else None)
    return spec.untrusted.withheld if spec is not None and spec.untrusted else None


class NotRestrictable(Exception):
    """A server cannot be started so that it takes nothing executable from the repository."""


def restricted(spec: ServerSpec, argv: list[str], root: Path) -> ServerSpec:
    """``spec`` as it starts for a project that is not trusted: its ``untrusted`` settings
    and initialization options merged under its own (a key already set wins), with the
    placeholders filled in. NotRestrictable when a placeholder has no safe value."""
    rule = spec.untrusted
    if rule is None:
        return spec
    values = {"{python}": sys.executable}
    if "{bundled_tsserver}" in repr(rule):
        tsserver = bundled_tsserver(argv[0], root)
        if tsserver is None:
            raise NotRestrictable(
                f"{spec.name} would load the repository's own TypeScript: no tsserver.js was "
                f"found installed beside {argv[0]} (outside the repository)")
        values["{bundled_tsserver}"] = str(tsserver)
    return replace(spec, settings=_under(spec.settings, _filled(rule.settings, values)),
                   initialization_options=_under(spec.initialization_options,
                                                 _filled(rule.initialization_options, values)))


def _filled(value: Any, values: dict[str, str]) -> Any:
    if isinstance(value, dict):
        return {k: _filled(v, values) for k, v in value.items()}
    if isinstance(value, list):
        return [_filled(v, values) for v in value]
    return values.get(value, value) if isinstance(value, str) else value


def _under(own: dict[str, Any] | None, extra: Any) -> dict[str, Any] | None:
    """``own`` with ``extra``'s keys added where ``own`` has none (recursively)."""
    if not isinstance(extra, dict):
        return own
    out = dict(own or {})
    for key, value in extra.items():
        if key not in out:
            out[key] = value
        elif isinstance(out[key], dict) and isinstance(value, dict):
            out[key] = _under(out[key], value)
    return out


def bundled_tsserver(program: str, root: Path) -> Path | None:
    """The ``typescript/lib/tsserver.js`` that ``program`` (typescript-language-server)
    resolves as its own, as Node's ``require.resolve`` from its real location would: the
    first ``node_modules/typescript`` up from it with a versioned package.json — provided it
    lies outside ``root`` (a server installed inside the repository has no TypeScript of
    its own to offer)."""
    here = Path(os.path.realpath(program)).parent
    real_root = Path(os.path.realpath(root))
    for folder in (here, *here.parents):
        if folder.name == "node_modules":
            continue
        package = folder / "node_modules" / "typescript"
        tsserver = package / "lib" / "tsserver.js"
        if not tsserver.is_file():
            continue
        real = Path(os.path.realpath(tsserver))
        if real.is_relative_to(real_root) or not _versioned(package / "package.json"):
            return None
        return real
    return None


def _versioned(package_json: Path) -> bool:
    try:
        return bool(json.loads(package_json.read_text("utf-8")).get("version"))
    except (OSError, ValueError, AttributeError):
        return False


def family_of(code: str, table: dict[str, Family] | None = None) -> Family | None:
    """The family serving map language ``code`` (``py``, ``tsx`` …)."""
    for family in (table or families()).values():
        if code in family.languages:
            return family
    return None


def language_id(family: Family, code: str, path: str = "") -> str:
    """The LSP languageId of a file: by its extension when the family names one, else by
    its map language."""
    ext = path.rsplit(".", 1)[-1].lower() if "." in path else ""
    return family.language_ids.get(ext) or family.language_ids.get(code) or code


def cache_dir() -> Path:
    """Where ``codenav servers install`` puts servers (``$CODENAV_CACHE``, else
    ``~/.cache/codenav``)."""
    configured = os.environ.get("CODENAV_CACHE")
    return Path(configured) if configured else Path.home() / ".cache" / "codenav"


def search_path() -> list[str]:
    """Folders searched for server commands, in order."""
    servers = cache_dir() / "servers"
    folders = [str(Path(sys.executable).parent), str(servers / "npm" / "node_modules" / ".bin"),
               str(servers / "pip" / "bin")]
    return folders + [p for p in os.environ.get("PATH", "").split(os.pathsep) if p]


@dataclass(frozen=True, slots=True)
class Installed:
    """One family as ``codenav servers`` lists it: the server that would start (its command
    resolved), or how to install one, and what an untrusted project does not give it."""

    family: str
    languages: tuple[str, ...]
    enabled: bool
    server: str | None
    command: list[str] | None
    install: str | None
    withheld: str | None


def inventory(root: Path | None, trust: Trust) -> list[Installed]:
    """Every family's server on this machine, for the project at ``root`` (None: anywhere)."""
    out = []
    for name, family in families(root, trust).items():
        found = next(((spec, argv) for spec in family.servers
                      if (argv := find_command(spec.command)) is not None), None)
        out.append(Installed(name, family.languages, family.enabled,
                             found[0].name if found else None, found[1] if found else None,
                             None if found else family.install_hint,
                             withheld(family, found[0] if found else None)))
    return out


def find_command(command: tuple[str, ...]) -> list[str] | None:
    """``command`` with its program resolved to a path, or None when it is not installed."""
    if not command:
        return None
    program = command[0]
    if os.sep in program:
        return list(command) if os.access(program, os.X_OK) else None
    found = shutil.which(program, path=os.pathsep.join(search_path()))
    return [found, *command[1:]] if found else None


def install(name: str, *, quiet: bool = False) -> int:
    """Install family ``name``'s default server into codenav's cache; the exit status."""
    family = _defaults().get(name)
    if family is None or not family.servers:
        print(f"codenav: no language family {name!r}; known: {', '.join(_defaults())}",
              file=sys.stderr)
        return 2
    spec = family.servers[0]
    if not spec.packages:
        print(f"codenav: {spec.name} is not installable by codenav; run: {spec.install}",
              file=sys.stderr)
        return 1
    servers = cache_dir() / "servers"
    pip = [p.split(":", 1)[1] for p in spec.packages if p.startswith("pip:")]
    npm = [p.split(":", 1)[1] for p in spec.packages if p.startswith("npm:")]
    quiet_flag = ["--quiet"] if quiet else []
    steps: list[list[str]] = []
    if pip:  # a virtualenv of its own: its scripts then find their packages
        env = servers / "pip"
        if not (env / "bin" / "python").exists():
            steps.append([sys.executable, "-m", "venv", str(env)])
        steps.append([str(env / "bin" / "python"), "-m", "pip", "install", *quiet_flag, *pip])
    if npm:
        npm_bin = shutil.which("npm")
        if npm_bin is None:
            print("codenav: npm is needed to install " + spec.name, file=sys.stderr)
            return 1
        (servers / "npm").mkdir(parents=True, exist_ok=True)
        steps.append([npm_bin, "install", "--no-audit", "--no-fund", *(["--silent"] * quiet),
                      "--prefix", str(servers / "npm"), *npm])
    for step in steps:
        status = subprocess.run(step, check=False, stdin=subprocess.DEVNULL).returncode
        if status != 0:
            return status
    return 0
