"""C and C++: ``#include "x.h"`` names a file relative to the including file's folder, else
one of the tree's include folders; ``#include <x.h>`` only an include folder (a system header
resolves to nothing unless the tree holds it). An include sees every name of the header, so
it is a wildcard import. ``using namespace a::b;`` is a wildcard import of a namespace.

Keys: ``P:<normalised path>`` for a quoted include, ``I:<header as written>`` for an
angle-bracket one, ``Q:<a.b>@cpp`` for a namespace (its members are the C++ nodes named ``a.b.x``).
A header not at its key's path is looked for as a unique path suffix: the longest tail of the
path that exactly one file of the tree ends with (``include/geo/shape.h`` for
``"geo/shape.h"`` included from ``src/``); several candidates at one length mean no answer.

Conditional compilation (``#if``, ``cpp_conditions``): a file's branches are decided first by
the file itself and the language's ``predefined`` macros; what is left by the project's
configuration: the ``-D``/``-U`` flags of the file's entry in ``compile_commands.json`` (at
the top or in ``build/``; a header gets the ``-D`` of every entry) or of
``compile_flags.txt``, and the macros some file of the project defines. With such a file the
configuration is known, and a macro nothing defines is undefined when its name is the
project's (its first word begins a macro the project defines: ``SDS_TEST_MAIN`` beside
``SDS_MAX_PREALLOC``); another (``SOCK_CLOEXEC``) may come from a system header, and
without a compile database any may come from the build: a branch that depends on such a
macro stays undecided.
"""

from __future__ import annotations

import json
import posixpath
import re
import shlex
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping

from codenav.index.modules import ConfigReader, ModuleSystem, no_config
from codenav.index.modules.cpp_conditions import evaluate, regions

__all__ = ["SYSTEM", "CModules"]

_NAMESPACE = re.compile(r"(?:::)?[A-Za-z_]\w*(?:::[A-Za-z_]\w*)*")


_DATABASES = ("compile_commands.json", "build/compile_commands.json")
_FLAGS_FILE = "compile_flags.txt"
_VALUE = re.compile(r"(?:0[xX][0-9a-fA-F]+|\d+)[uUlL]*$")


def _macros(args: Iterable[str]) -> dict[str, int | bool]:
    """The ``-D``/``-U`` of a compiler command line: name -> value (True: defined, value not
    a number; False: undefined)."""
    out: dict[str, int | bool] = {}
    args = list(args)
    for i, word in enumerate(args):
        arg = word + args[i + 1] if word in ("-D", "-U") and i + 1 < len(args) else word
        if arg.startswith("-D") and len(arg) > 2:
            name, _, value = arg[2:].partition("=")
            value = value.strip()
            if not value:
                out[name] = 1
            elif _VALUE.match(value):
                digits = value.rstrip("uUlL")
                out[name] = int(digits, 16) if digits[:2].lower() == "0x" else int(digits)
            else:
                out[name] = True
        elif arg.startswith("-U") and len(arg) > 2:
            out[arg[2:]] = False
    return out


def _prefix(name: str) -> str:
    """A macro name's first word (``SDS_`` of ``SDS_TEST_MAIN``); names of the
    implementation (``_X``, ``__x``) have none of their own."""
    head, underscore, _ = name.partition("_")
    return head + underscore if head and underscore else ""


class CModules(ModuleSystem):
    project_files = frozenset({"compile_commands.json", "compile_flags.txt"})

    def __init__(self) -> None:
        self._paths: set[str] = set()
        self._tails: dict[str, list[str]] = {}
        self._flags: dict[str, dict[str, int | bool]] = {}  # a compiled file's -D and -U
        self._any_flags: dict[str, int | bool] = {}  # the -D of any entry (headers)
        self._configured = False  # a compile database or compile_flags.txt says how
        # (the defined macros decide was last given, the prefixes of their names)
        self._prefixes: tuple[Collection[str] | None, set[str]] = (None, set())

    def regions(self, data: bytes, predefined: Mapping[str, int | bool]
                ) -> list[tuple[int, int, str]]:
        return regions(data, predefined)

    def decide(self, path: str, cond: str, defined: Collection[str]) -> bool | None:
        flags = self._flags.get(path, self._any_flags)
        if self._prefixes[0] is not defined:
            self._prefixes = (defined, {prefix for name in (*defined, *self._any_flags)
                                        if (prefix := _prefix(name))})
        ours = self._prefixes[1]

        def macro(name: str) -> int | bool | None:
            if name in flags:
                return flags[name]
            if name in defined:
                return True
            # nothing defines it: the build does not, if the configuration is known and the
            # name is the project's (`SDS_TEST_MAIN` beside `SDS_MAX_PREALLOC`); a system
            # header may (`SOCK_CLOEXEC`)
            return False if self._configured and _prefix(name) in ours else None

        return evaluate(cond, macro)

    def _read_configuration(self, read: ConfigReader) -> None:
        self._flags, self._any_flags, self._configured = {}, {}, False
        for name in _DATABASES:
            text = read(name)
            if text is None:
                continue
            try:
                entries = json.loads(text)
            except ValueError:
                continue
            if not isinstance(entries, list):
                continue
            self._configured = True
            for entry in entries:
                if not isinstance(entry, dict) or not isinstance(entry.get("file"), str):
                    continue
                try:
                    argv = entry.get("arguments") or shlex.split(str(entry.get("command", "")))
                except ValueError:
                    continue
                flags = _macros(str(arg) for arg in argv)
                path = self._by_tail(entry["file"].replace("\\", "/").lstrip("/"))
                if path:
                    self._flags[path[0]] = flags
                for macro, value in flags.items():
                    if value is not False:
                        seen = self._any_flags.get(macro)
                        self._any_flags[macro] = value if seen in (None, value) else True
            return
        text = read(_FLAGS_FILE)
        if text is not None:
            self._configured = True
            self._any_flags = _macros(line.strip() for line in text.splitlines())

    def module_key(self, path: str, module: str) -> str | None:
        if not module:
            return None
        if module.startswith("<"):
            header = module.strip("<>").strip()
            return f"I:{header}" if header else None
        if "." not in module and "/" not in module and _NAMESPACE.fullmatch(module):
            return "Q:" + module.strip(":").replace("::", ".") + "@cpp"
        joined = posixpath.normpath(posixpath.join(posixpath.dirname(path), module))
        if joined.startswith("../") or joined == "..":
            # above the root: only the part below it can be in the tree
            joined = "/".join(p for p in joined.split("/") if p != "..")
        return f"P:{joined}" if joined and joined != "." else None

    def prefix_keys(self, path: str, module: str) -> list[str]:
        key = self.module_key(path, module)
        if key is None:
            return []
        if not key.startswith("Q:"):
            return [key]
        parts = key[2:].removesuffix("@cpp").split(".")  # a namespace: each leading part
        return [f"Q:{'.'.join(parts[: i + 1])}@cpp" for i in range(len(parts))]

    def index(self, paths: Iterable[str], root_name: str,
              read: ConfigReader = no_config) -> None:
        self._paths = set(paths)
        tails: dict[str, list[str]] = defaultdict(list)
        for path in sorted(self._paths):
            parts = path.split("/")
            for i in range(len(parts)):
                tails["/".join(parts[i:])].append(path)
        self._tails = dict(tails)
        self._read_configuration(read)

    def files_for(self, key: str) -> list[str]:
        if key.startswith("P:"):
            path = key[2:]
            if path in self._paths:
                return [path]
            return self._by_tail(path)
        if key.startswith("I:"):
            header = posixpath.normpath(key[2:])
            if header.startswith("../"):
                return []
            under_include = [p for p in self._tails.get(header, ())
                             if p == f"include/{header}" or p.endswith(f"/include/{header}")]
            if len(under_include) == 1:
                return under_include
            found = self._tails.get(header, [])
            return found[:1] if len(found) == 1 else []
        return []

    def _by_tail(self, path: str) -> list[str]:
        """The one file ending with the longest tail of ``path`` that any file ends with."""
        parts = path.split("/")
        for i in range(len(parts)):
            found = self._tails.get("/".join(parts[i:]))
            if found:
                return found[:1] if len(found) == 1 else []
        return []


SYSTEM = CModules
