"""``codenav setup CLIENT``: codenav written into an MCP client's own configuration file.

The file is read and parsed first; the entry for codenav is set in place (``jsonc``,
``tomledit``) so that everything else the file holds — other servers, settings, comments —
stays as it was, and the result is parsed again and compared with what was meant before a
byte is written. A file that cannot be parsed, or edited safely, is left alone: the command
says so, prints the entry to add by hand, and exits 1. Writing is an atomic replace that
keeps the file's permissions (and a symlinked file's link). Only the one file the user asked
for is ever written.
"""

from __future__ import annotations

import contextlib
import copy
import difflib
import os
import shutil
import stat
import sys
import tempfile
from pathlib import Path
from typing import Any, TextIO

from codenav.setup.clients import CLIENTS, SERVER_NAME, Client, Target, target_for
from codenav.setup.jsonc import JsoncError, parse, set_member
from codenav.setup.tomledit import TomlEditError, render_value, set_table

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

__all__ = ["CLIENTS", "SetupRefused", "codenav_executable", "plan", "setup"]

_MAX_BYTES = 64 * 1024 * 1024  # ~/.claude.json holds Claude Code's whole state


class SetupRefused(Exception):
    """The file cannot be written safely; nothing was."""


def codenav_executable() -> Path:
    """The absolute path of the ``codenav`` command running now (a pipx shim in
    ~/.local/bin is kept as it is: it survives upgrades), else the one beside this Python."""
    started = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if started is not None and started.name == "codenav" and started.is_file():
        return started.absolute()
    beside = Path(sys.executable).parent / "codenav"
    if beside.is_file():
        return beside.absolute()
    found = shutil.which("codenav")
    if found is not None:
        return Path(found).absolute()
    return beside.absolute()


def _read(path: Path) -> str | None:
    """The file's text, or None when it does not exist yet."""
    real = Path(os.path.realpath(path))
    try:
        info = os.stat(real)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise SetupRefused(f"cannot read {path}: {exc.strerror}") from exc
    if not stat.S_ISREG(info.st_mode):
        raise SetupRefused(f"{path} is not a regular file")
    if info.st_size > _MAX_BYTES:
        raise SetupRefused(f"{path} is larger than {_MAX_BYTES // 2**20} MiB")
    try:
        return real.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SetupRefused(f"{path} is not UTF-8 text") from exc
    except OSError as exc:
        raise SetupRefused(f"cannot read {path}: {exc.strerror}") from exc


def _parse(target: Target, text: str) -> Any:
    if target.client.format == "toml":
        try:
            return tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise SetupRefused(f"{target.path} is not valid TOML ({exc})") from exc
    try:
        return parse(text) if text.strip() else {}
    except JsoncError as exc:
        raise SetupRefused(f"{target.path} is not valid JSON ({exc})") from exc


def _meant(target: Target, old: Any) -> tuple[Any, dict[str, Any]]:
    """The whole file's data as it should be, and codenav's entry in it (the entry's own
    other keys, such as ``env`` or a timeout, kept)."""
    data = copy.deepcopy(old)
    if not isinstance(data, dict):
        raise SetupRefused(f"{target.path} does not hold an object/table at its top")
    node = data
    for key in target.client.keys:
        child = node.setdefault(key, {})
        if not isinstance(child, dict):
            raise SetupRefused(f"{target.path}: {key} is not an object/table")
        node = child
    previous = node.get(SERVER_NAME)
    entry = {**previous, **target.entry} if isinstance(previous, dict) else dict(target.entry)
    node[SERVER_NAME] = entry
    return data, entry


def plan(target: Target) -> tuple[str | None, str]:
    """(the file's text now or None, its text with codenav set). SetupRefused when the file
    cannot be parsed or edited safely."""
    assert target.path is not None
    old_text = _read(target.path)
    text = old_text or ""
    old = _parse(target, text)
    data, entry = _meant(target, old)
    try:
        if target.client.format == "toml":
            # only the keys codenav sets are written; the table's others stay as they were
            new_text = set_table(text, target.keys, target.entry)
        else:
            new_text = set_member(text, target.keys, entry)
    except (TomlEditError, JsoncError) as exc:
        raise SetupRefused(f"cannot edit {target.path} safely ({exc})") from exc
    if _parse(target, new_text) != data:
        raise SetupRefused(f"cannot edit {target.path} safely: its layout (the entry written "
                           "inline, or with dotted keys) is not one codenav edits")
    return old_text, new_text


def _replace(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically: a temporary file beside it, flushed, given the
    old file's mode (and owner, when allowed), renamed over it. A symlink is followed, so
    that a linked configuration file stays linked."""
    real = Path(os.path.realpath(path))
    real.parent.mkdir(parents=True, exist_ok=True)
    try:
        info: os.stat_result | None = os.stat(real)
    except FileNotFoundError:
        info = None
    if info is not None:
        mode = stat.S_IMODE(info.st_mode)
    else:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    fd, temporary = tempfile.mkstemp(prefix=f".{real.name}.", suffix=".codenav-tmp",
                                     dir=real.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, mode)
        if info is not None and hasattr(os, "chown"):
            # (not ours to give away: the file then becomes the user's own)
            with contextlib.suppress(OSError):
                os.chown(temporary, info.st_uid, info.st_gid)
        os.replace(temporary, real)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def snippet(target: Target) -> str:
    """The entry as the client's file would hold it, to paste by hand."""
    if target.client.format == "toml":
        body = "".join(f"{key} = {render_value(value)}\n" for key, value in target.entry.items())
        return f"[{'.'.join(target.keys)}]\n{body}"
    return set_member("", target.keys, target.entry)


def setup(client: Client, scope: str, root: Path, *, dry_run: bool = False,
          file: Path | None = None, out: TextIO = sys.stdout, err: TextIO = sys.stderr) -> int:
    """Write (or with ``dry_run`` show) codenav in ``client``'s file; the exit code."""
    target = target_for(client, scope, root, codenav_executable(), file)
    if target.path is None:
        out.write(snippet(target))
        err.write(f"codenav setup {client.name}: {client.after}\n")
        return 0
    try:
        old_text, new_text = plan(target)
    except SetupRefused as exc:
        err.write(f"codenav setup {client.name}: {exc}; nothing was written. Fix the file, "
                  f"or add this to it by hand:\n{snippet(target)}")
        return 1
    where = f"{target.path} ({'.'.join(target.keys)})"
    if old_text == new_text:
        out.write(f"codenav setup {client.name}: {where} already starts "
                  f"{target.entry['command']} {' '.join(target.entry['args'])}\n")
        return 0
    if dry_run:
        diff = difflib.unified_diff((old_text or "").splitlines(keepends=True),
                                    new_text.splitlines(keepends=True),
                                    fromfile=str(target.path) if old_text is not None
                                    else "/dev/null", tofile=str(target.path))
        out.write(f"codenav setup {client.name} --dry-run: would "
                  f"{'change' if old_text is not None else 'create'} {where}:\n")
        out.writelines(line if line.endswith("\n") else line + "\n" for line in diff)
        return 0
    try:
        _replace(target.path, new_text)
    except OSError as exc:
        err.write(f"codenav setup {client.name}: cannot write {target.path}: {exc}\n")
        return 1
    out.write(f"codenav setup {client.name}: {'updated' if old_text is not None else 'wrote'} "
              f"{where}: {target.entry['command']} {' '.join(target.entry['args'])}\n"
              f"{client.after}\n")
    return 0
