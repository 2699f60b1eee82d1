"""The configuration files' shape, checked: what a user or a project may write, as pydantic
models, and the warnings a file that strays gets — each naming the file, the line and the
key (``~/.config/codenav/config.toml:4: lsp.python.comand: unknown key``).

A warning never costs the rest of the file: an unknown key, a value of the wrong type or an
unknown language family is left out and everything else applies; a line TOML cannot read is
left out (with the table under it, when it is a table's header) and the file read again.
Warnings are logged once per process (stderr) and kept for ``map_status`` and
``codenav servers`` (``warnings_for``).
"""

from __future__ import annotations

import hashlib
import logging
import re
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

__all__ = ["ConfigWarning", "check_file", "warnings_for"]

log = logging.getLogger("codenav.config")

_MAX_REPAIRS = 20
_TOML_LINE = re.compile(r"\(at line (\d+), column \d+\)")
_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$")
_KEY = re.compile(r"^\s*((?:[A-Za-z0-9_-]+|\"(?:[^\"\\]|\\.)*\"|'[^']*')"
                  r"(?:\s*\.\s*(?:[A-Za-z0-9_-]+|\"(?:[^\"\\]|\\.)*\"|'[^']*'))*)\s*=")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class LspTable(_Strict):
    """``[lsp.<family>]``: docs/configuration.md, "Keys of an [lsp.<family>] table"."""

    enabled: bool | None = None
    command: list[str] | None = Field(default=None, min_length=1)
    name: str | None = None
    settings: dict[str, Any] | None = None


class ProjectFile(_Strict):
    """``.codenav/config.toml``, and ``[tool.codenav]`` of ``pyproject.toml``."""

    lsp: dict[str, LspTable] = Field(default_factory=dict)


class _UserProject(_Strict):
    lsp: dict[str, LspTable] = Field(default_factory=dict)


class UserFile(_Strict):
    """``$XDG_CONFIG_HOME/codenav/config.toml``."""

    trusted: list[str] = Field(default_factory=list)
    lsp: dict[str, LspTable] = Field(default_factory=dict)
    projects: dict[str, _UserProject] = Field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ConfigWarning:
    """One thing in a configuration file that does not apply, and where it is."""

    file: Path
    line: int | None
    key: str | None
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else str(self.file)
        return f"{where}: {self.key}: {self.message}" if self.key else f"{where}: {self.message}"

    def to_dict(self) -> dict[str, Any]:
        return {"file": str(self.file), "line": self.line, "key": self.key,
                "message": self.message}


_checked: dict[Path, tuple[str, dict[str, Any], list[ConfigWarning]]] = {}
_logged: set[str] = set()


def warnings_for(paths: list[Path]) -> list[ConfigWarning]:
    """The warnings of these files as last read (in this process); none for a file that is
    gone since."""
    return [w for path in paths if path in _checked and path.is_file()
            for w in _checked[path][2]]


def check_file(path: Path, text: str, kind: str) -> dict[str, Any]:
    """The data of a configuration file that applies, its warnings recorded and logged:
    ``kind`` is ``user``, ``project`` or ``pyproject`` (only ``[tool.codenav]`` is
    codenav's there)."""
    digest = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()
    known = _checked.get(path)
    if known is not None and known[0] == digest:
        return known[1]
    data, warnings = _check(path, text, kind)
    _checked[path] = (digest, data, warnings)
    for warning in warnings:
        said = str(warning)
        if said not in _logged:
            _logged.add(said)
            log.warning("configuration: %s (the rest of the file applies)", said)
    return data


def _check(path: Path, text: str, kind: str) -> tuple[dict[str, Any], list[ConfigWarning]]:
    warnings: list[ConfigWarning] = []
    data = _parse(path, text, kind, warnings)
    if kind == "pyproject":
        tool = data.get("tool")
        if not isinstance(tool, dict) or tool.get("codenav") is None:
            return data, warnings
        section = tool["codenav"]
        if not isinstance(section, dict):
            warnings.append(ConfigWarning(path, _line_of(text, ("tool", "codenav")),
                                          "tool.codenav", "must be a table"))
            tool.pop("codenav")
            return data, warnings
        tool["codenav"] = _validate(path, text, section, ProjectFile, ("tool", "codenav"),
                                    warnings)
        return data, warnings
    model = UserFile if kind == "user" else ProjectFile
    return _validate(path, text, data, model, (), warnings), warnings


def _parse(path: Path, text: str, kind: str, warnings: list[ConfigWarning]) -> dict[str, Any]:
    """``text`` as TOML; a line it cannot read is blanked (with the table it heads) and the
    rest read again."""
    lines = text.splitlines()
    for _ in range(_MAX_REPAIRS):
        try:
            parsed: dict[str, Any] = tomllib.loads("\n".join(lines))
            return parsed
        except RecursionError:  # nested deeper than the parser can follow
            warnings.append(ConfigWarning(path, None, None, "nested too deep to read; the file "
                                          "is ignored"))
            return {}
        except tomllib.TOMLDecodeError as exc:
            if kind == "pyproject" and "codenav" not in text:
                return {}  # not codenav's file to judge
            found = _TOML_LINE.search(str(exc))
            line = int(found.group(1)) if found else None
            reason = _TOML_LINE.sub("", str(exc)).strip()
            if line is None or not 1 <= line <= len(lines):
                warnings.append(ConfigWarning(path, line, None, f"not valid TOML ({reason}); "
                                              "the file is ignored"))
                return {}
            blanked = _blank(lines, line - 1)
            span = f"line {line}" if blanked == 1 else f"lines {line}-{line + blanked - 1}"
            warnings.append(ConfigWarning(path, line, None, f"not valid TOML ({reason}); "
                                          f"{span} ignored"))
    warnings.append(ConfigWarning(path, None, None, "too many TOML errors; the file is ignored"))
    return {}


def _blank(lines: list[str], index: int) -> int:
    """Blank line ``index`` and, when it heads a table, the table's lines; how many."""
    heads = lines[index].lstrip().startswith("[")
    end = index + 1
    if heads:
        while end < len(lines) and not lines[end].lstrip().startswith("["):
            end += 1
    for i in range(index, end):
        lines[i] = ""
    return end - index


@cache
def _families() -> frozenset[str]:
    """The language families codenav knows (codenav/lsp/servers.toml's tables)."""
    table = tomllib.loads((Path(__file__).parent / "lsp" / "servers.toml").read_text("utf-8"))
    return frozenset(table)


def _validate(path: Path, text: str, data: dict[str, Any], model: type[BaseModel],
              prefix: tuple[str, ...], warnings: list[ConfigWarning]) -> dict[str, Any]:
    """``data`` without what ``model`` refuses (each refusal a warning)."""
    for _ in range(_MAX_REPAIRS):
        try:
            model.model_validate(data)
            break
        except ValidationError as exc:
            for error in exc.errors():
                loc = tuple(str(part) for part in error["loc"])
                key = _dotted(prefix + loc)
                message = ("unknown key" if error["type"] == "extra_forbidden" else
                           f"{error['msg'].lower()} (got {_shown(error.get('input'))})")
                warnings.append(ConfigWarning(path, _line_of(text, prefix + loc), key, message))
                _drop(data, loc)
    else:
        return {}
    known = _families()
    tables: list[tuple[tuple[str, ...], Any]] = [(("lsp",), data.get("lsp"))]
    projects = data.get("projects")
    if isinstance(projects, dict):
        tables += [(("projects", name, "lsp"), entry.get("lsp"))
                   for name, entry in projects.items() if isinstance(entry, dict)]
    for where, table in tables:
        if not isinstance(table, dict):
            continue
        for family in list(table):
            if family not in known:
                loc = prefix + where + (family,)
                warnings.append(ConfigWarning(
                    path, _line_of(text, loc), _dotted(loc),
                    f"unknown language family (the families: {', '.join(sorted(known))})"))
                table.pop(family)
    return data


def _dotted(loc: tuple[str, ...]) -> str:
    """A key path as TOML writes it: ``projects."/home/me/app".lsp.python``."""
    return ".".join(part if re.fullmatch(r"[A-Za-z0-9_-]+", part) else f'"{part}"'
                    for part in loc)


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"


def _drop(data: Any, loc: tuple[str, ...]) -> None:
    """Remove what ``loc`` names (its innermost dict key; a list item drops the list)."""
    node = data
    parents: list[tuple[Any, str]] = []
    for part in loc:
        if isinstance(node, dict) and part in node:
            parents.append((node, part))
            node = node[part]
        else:
            break
    while parents:
        container, key = parents.pop()
        if isinstance(container, dict):
            container.pop(key, None)
            return


def _keys(raw: str) -> tuple[str, ...]:
    parts = re.findall(r'"(?:[^"\\]|\\.)*"|\'[^\']*\'|[^.\s]+', raw)
    return tuple(p[1:-1] if p[0] in "\"'" else p for p in parts)


def _line_of(text: str, loc: tuple[str, ...]) -> int | None:
    """The line that sets ``loc`` (a table's header or a key's line), or the nearest line
    that sets part of it; None when the file does not say it on any line."""
    table: tuple[str, ...] = ()
    best: tuple[int, int] | None = None  # (how much of loc, line)
    for number, line in enumerate(text.splitlines(), 1):
        header = _HEADER.match(line)
        if header is not None:
            table = _keys(header.group(1))
            path = table
        else:
            key = _KEY.match(line)
            if key is None:
                continue
            path = table + _keys(key.group(1))
        shared = 0
        while shared < min(len(path), len(loc)) and path[shared] == loc[shared]:
            shared += 1
        if shared == len(loc) and len(path) >= len(loc):
            return number
        if shared == len(path) and shared and (best is None or shared > best[0]):
            best = (shared, number)
    return best[1] if best is not None else None
