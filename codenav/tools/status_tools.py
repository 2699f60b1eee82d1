"""map_status and map_rebuild: the state of the map, and rebuilding it."""

from __future__ import annotations

import time
from typing import Any

import anyio
from pydantic import Field

from codenav.config import config_warnings, project_config
from codenav.envelope import Answer, Cut
from codenav.errors import BadArgs, MapNotBuilt
from codenav.lsp.servers import families, withheld
from codenav.paths import relative_path
from codenav.tools.base import CallContext, ToolParams, ToolSpec
from codenav.tools.render import relinking
from codenav.workspace import Workspace

__all__ = ["MAP_REBUILD", "MAP_STATUS"]

_PROGRESS_EVERY_S = 0.1


class StatusParams(ToolParams):
    pass


class RebuildParams(ToolParams):
    full: bool = Field(default=False, description="Re-parse every file")
    paths: list[str] | None = Field(
        default=None, max_length=1000,
        description="Only these files or folders")


def _servers(ws: Workspace) -> dict[str, Any]:
    """Per language family the map holds: server, state, restarts, stderr tail."""
    if ws.lsp == "off":
        return {"state": "off"}
    try:
        held = set(ws.reader().languages())
    except MapNotBuilt:
        held = set()
    pool = ws.started_pool  # asking about servers starts none (nor the pool's thread)
    if pool is None:
        idle = []
        for name, family in families(ws.root, ws.trust).items():
            if held.intersection(family.languages):
                row: dict[str, Any] = {"family": name, "languages": list(family.languages),
                                       "server": None, "state": "idle", "restarts": 0}
                idle.append(_with_withheld(row, withheld(family)))
        return {"state": "auto", "servers": idle}
    servers = []
    for slot in pool.status():
        if not held.intersection(slot.languages) and slot.state == "idle":
            continue
        item: dict[str, Any] = {"family": slot.family, "languages": list(slot.languages),
                                "server": slot.server, "state": slot.state,
                                "restarts": slot.restarts}
        if slot.pid is not None:
            item["pid"] = slot.pid
        if slot.error:
            item["error"] = slot.error
        if slot.install:
            item["install"] = slot.install
        if slot.stderr_tail and slot.state in ("failed", "warming", "starting"):
            item["stderrTail"] = slot.stderr_tail[-600:]
        servers.append(_with_withheld(item, slot.withheld))
    return {"state": "auto", "servers": servers}


def _with_withheld(item: dict[str, Any], what: str | None) -> dict[str, Any]:
    """A server's row with what it is not given because the project is not trusted."""
    if what:
        item["withheld"] = what
    return item


async def map_status(ws: Workspace, params: StatusParams, ctx: CallContext) -> Answer:
    data: dict[str, Any] = {"root": str(ws.root), "rootFrom": ws.root_from, "db": str(ws.db_path)}
    build = ws.build
    try:
        reader = ws.reader()
        growing = ws.building()
    except MapNotBuilt as exc:
        data.update(built=False, building=build.running, reason=exc.message, hint=exc.hint)
    else:
        if growing:  # a first build under way: what it got to, no stale files yet
            data.update(built=False, building=True, progress=ws.build_progress(),
                        seconds=round(time.monotonic() - build.started, 1)
                        if build.running else None,
                        files={"total": sum(reader.file_tallies()[0].values())})
            data["watcher"] = (ws.watcher.state.to_dict() if ws.watcher is not None
                               else {"state": "off"})
            data["lsp"] = _servers(ws)
            return Answer(data, warnings=["The first map is being built: map_search, "
                                          "map_outline, map_node and nav_definition answer "
                                          "from the files mapped so far."])
        meta = reader.meta()
        stale = sorted({*ws.changed_on_disk(), *ws.added_on_disk()})
        by_lang, by_status, erring = reader.file_tallies()
        data.update(
            built=True,
            building=build.running,
            files={"total": sum(by_lang.values()), "byLanguage": by_lang, "byStatus": by_status,
                   "withSyntaxErrors": erring},
            counts=reader.counts(),
            lastBuild={"when": meta.get("last_build"), "ms": int(meta.get("last_build_ms", 0)),
                       "mode": meta.get("last_build_mode"), "codenav": meta.get("codenav")},
            staleCount=len(stale),
            stale=stale,
            relinkPending=meta.get("relink_pending") == "1",
        )
    if build.last_error:
        data["lastBuildError"] = build.last_error
    data["watcher"] = ws.watcher.state.to_dict() if ws.watcher is not None else {"state": "off"}
    data["lsp"] = _servers(ws)
    ignored = project_config(ws.root, ws.trust).ignored
    data["projectConfig"] = {"trusted": ws.trust.trusted, "why": ws.trust.why}
    warnings = []
    if ignored:
        data["projectConfig"].update(ignored=ignored, allow=ws.trust.allow)
        warnings.append(f"The project's own configuration names programs codenav did not run "
                        f"({', '.join(ignored)}): {ws.trust.allow}.")
    problems = config_warnings(ws.root)
    if problems:
        data["config"] = {"warnings": [str(w) for w in problems]}
        warnings.append(f"{len(problems)} setting(s) in the configuration do not apply "
                        "(config.warnings says which, where); the rest does.")
    if data.get("built") and not data["files"]["total"]:
        warnings.append(f"The map of {ws.root} holds no files: nothing under it is in a "
                        "language codenav maps (or everything is ignored). Is this the "
                        "repository's root?")
    if data.get("staleCount"):
        warnings.append(f"{data['staleCount']} file(s) changed, added or removed since the "
                        "last index; map_rebuild refreshes them.")
    if data.get("relinkPending"):
        warnings.append(relinking(ws) + f"; counts are those of the last build "
                                        f"({data['lastBuild']['when']}).")
    cut = Cut("stale files", ("stale",), "Run map_rebuild to refresh them")
    return Answer(data, cuts=[cut], warnings=warnings)


async def map_rebuild(ws: Workspace, params: RebuildParams, ctx: CallContext) -> Answer:
    paths = None
    if params.paths is not None:
        if not params.paths:
            raise BadArgs("paths must name at least one file or folder, e.g. ['src/app'], "
                          "or be left out")
        paths = [relative_path(p, ws.root, ws.force_root) for p in params.paths]
    last = 0.0

    def progress(done: int, total: int) -> None:
        nonlocal last
        now = time.monotonic()
        if done == total or now - last >= _PROGRESS_EVERY_S:
            last = now
            anyio.from_thread.run(ctx.report, done, total, f"indexed {done}/{total} files")

    await ctx.report(0, None, "discovering files")
    report = await anyio.to_thread.run_sync(
        lambda: ws.rebuild(full=params.full, paths=paths, progress=progress))
    summary = report.to_dict()
    data = {key: summary[key] for key in ("mode", "parsed", "unchanged", "removed", "skipped",
                                          "files", "nodes", "refs")}
    data["ms"] = round(report.seconds * 1000)
    data["failed"] = summary["failed"]
    cut = Cut("failed files", ("failed",), "map_status lists files by status")
    return Answer(data, cuts=[cut])


MAP_STATUS = ToolSpec(
    name="map_status",
    brief="is the map built and fresh; language servers' state",
    order=1,
    about_map=True,
    description="Is the map built and fresh: files, counts, stale files, "
                "watcher, language servers.",
    params=StatusParams,
    handler=map_status,
    arguments="—",
    returns="root, built, files by language, counts, last build (when, ms, mode), `stale` "
            "(· path), watcher state, LSP state",
)

MAP_REBUILD = ToolSpec(
    name="map_rebuild",
    brief="re-index now (rarely needed: answers refresh the files they touch)",
    order=2,
    about_map=True,
    description="Re-index changed files now (full: all; paths: some). Rarely needed: "
                "answers refresh the files they touch.",
    params=RebuildParams,
    handler=map_rebuild,
    arguments="`full?`, `paths?`",
    returns="parsed/unchanged/removed counts, `failed` (· path), ms",
    read_only=False,
    example={"paths": ["src/app"]},
)
