"""Who imports a module: the files whose import statements name it — ``import m``, ``from m
import x``, ``export { x } from 'm'``, ``export * from 'm'`` — and not the files that import
one of its names through another module that re-exports it (``from pkg import x``, where
``pkg/__init__`` imports ``x`` from ``m``, imports ``pkg``)."""

from __future__ import annotations

from codenav.index.languages import by_extension, family
from codenav.store.read import ImportSite, MapReader, Node

__all__ = ["MODULE_EXTENSIONS", "import_statements", "importers", "names_module",
           "through_others", "without_extension"]

MODULE_EXTENSIONS = (".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx", ".py",
                     ".pyi")


def without_extension(written: str) -> str:
    """A module path as written without its file extension (``./core.js`` -> ``./core``)."""
    for extension in MODULE_EXTENSIONS:
        if written.endswith(extension):
            return written[: -len(extension)]
    return written


def names_module(key: str | None, path: str) -> bool:
    """Whether an import written as ``key`` names the module of file ``path`` (keys the map
    cannot read a module from — namespaces, free names — are taken to)."""
    if not key:
        return True
    base = key.split("|", 1)[0].split("::", 1)[0]
    stem = path.rsplit(".", 1)[0]
    own = {stem, stem.removesuffix("/index"), stem.removesuffix("/__init__")}
    if base.startswith("P:"):  # a path, as written (`./core/index.js`)
        written = without_extension(base[2:])
        # (a package's folder: its entry, built from `src/index` — piscina's tests importing
        # `'..'`, run 51)
        folder = "" if written == "." else written + "/"
        return written in own or written.removesuffix("/index") in own or \
            stem in (f"{folder}src/index", f"{folder}index")
    if base.startswith("I:") and "/" in base:  # a path through an alias (tsconfig `paths`:
        written = base[2:]  # `@/container/Base/index`) or into a package (`pkg/sub`)
        if written.startswith(("@/", "~/", "#")):
            written = written.split("/", 1)[1] if "/" in written else written
        tail = without_extension(written).removesuffix("/index")
        # (one segment — `@/index` — could be any folder's index: not told from the text)
        return "/" in tail and any(candidate == tail or candidate.endswith("/" + tail)
                                   for candidate in own)
    if base.startswith("I:"):  # a dotted module (`requests.utils`), from any source root
        dotted = base[2:].replace(".", "/")
        return any(candidate == dotted or candidate.endswith("/" + dotted) for candidate in own)
    return True


def _written_against(path: str) -> list[str]:
    """LIKE patterns of the keys an import resolved to ``path``'s module may have: its path
    without extension (and without ``/index``), or with one, or its dotted name's last
    part. (``_`` and ``%`` in a path only widen them: what they find is checked by
    ``names_module``.)"""
    stem = path.rsplit(".", 1)[0]
    paths = sorted({stem, stem.removesuffix("/index")})
    dotted = stem.removesuffix("/__init__").rsplit("/", 1)[-1]
    # (`P:src/util.ts::X`: a path written with its extension, `from '../util.ts'`)
    return [*(f"P:{p}" for p in paths), *(f"P:{p}::%" for p in paths),
            *(f"P:{p}.%" for p in paths), f"I:%{dotted}", f"I:%{dotted}::%"]


def importers(reader: MapReader, module: Node) -> list[ImportSite]:
    """The first import site in each file importing ``module`` (its own file left out)."""
    seen: set[str] = set()
    out: list[ImportSite] = []
    for site in import_statements(reader, module):
        if site.path not in seen:
            seen.add(site.path)
            out.append(site)
    return out


def through_others(reader: MapReader, module: Node) -> dict[tuple[str, int], str]:
    """The import lines the map links to ``module`` that name another module, by place: the
    module they name (typesense's `import { Errors } from '../src/Typesense'`, which
    re-exports `* as Errors` of `Errors/index.ts`: run 56's agents read the file's lines to
    learn why it was listed). A Python `from pkg import mod` (`from . import mod`) names
    ``pkg.mod``; an ES import names no module by an imported name."""
    out: dict[tuple[str, int], str] = {}
    python = _family(module.path) == family("py")
    aliased = {(site.path, site.line) for site in reader.imports_through(module.id)}
    for site in reader.import_sites([module.id]):
        if not site.key or names_module(site.key, module.path) or \
                (site.path, site.line) in aliased:
            continue
        base, _, names = site.key.split("|", 1)[0].partition("::")
        joiner = "." if base.startswith("I:") else "/"
        if python and names and \
                names_module(f"{base}{joiner}{names.split('.', 1)[0]}", module.path):
            continue  # (a submodule imported by name from its package)
        out[(site.path, site.line)] = base.split(":", 1)[1] if ":" in base else base
    return out


def import_statements(reader: MapReader, module: Node) -> list[ImportSite]:
    """Every line importing ``module`` (its own file left out), by path and line:
    imports of the module itself, of the names it defines written against it, of any
    name written against it (a name an index re-exports: ``import { H3Event } from
    './types'`` imports ``types/index.ts``), and wildcards of it — not the lines naming a
    package only on the way to a module inside it (``from pkg.sub import x`` imports
    ``pkg.sub``, not ``pkg``)."""
    seen = reader.passed_through(module.id)  # (a package named on the way to a submodule)
    out: list[ImportSite] = []
    direct = reader.import_sites([module.id])
    members = reader.import_sites([child.id for child in reader.children(module.id)])
    wildcards = reader.wildcard_imports()
    keyed = [s for s in reader.imports_keyed(_written_against(module.path))
             if s.key and s.key[:2] in ("P:", "I:")]
    written = [s for s in members + wildcards + keyed if names_module(s.key, module.path)]
    written += reader.imports_through(module.id)  # (`from 'ts-graphviz/ast'`: tsconfig paths)
    own = _family(module.path)
    for site in sorted([*direct, *written], key=lambda s: (s.path, s.line, s.col)):
        if site.path != module.path and (site.path, site.line) not in seen and \
                _family(site.path) == own:  # (a C# `using` of a namespace is no TS import)
            seen.add((site.path, site.line))
            out.append(site)
    return out


def _family(path: str) -> str:
    """A file's language family by its name (TypeScript, TSX and JavaScript are one)."""
    lang = by_extension(path)
    return family(lang.code) if lang is not None else ""
