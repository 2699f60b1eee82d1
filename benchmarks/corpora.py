"""Downloadable corpora for the benchmarks, cached outside the repository.

Nothing is committed: each corpus is fetched into ``$CODENAV_BENCH_CACHE`` (default
``~/.cache/codenav-bench``) the first time it is needed, from the registry its language uses:

- Python: PyPI's source distribution, ``pip download NAME==VERSION --no-deps --no-binary
  :all:``, unpacked beside the archive.
- TypeScript: the npm package's tarball, ``npm pack NAME@VERSION``, unpacked into
  ``NAME-VERSION/`` (npm tarballs hold a ``package/`` folder). Only packages that ship their
  ``.ts`` sources qualify (most ship compiled ``.js`` with ``.d.ts``).

- CPython's ``Lib/``: Debian's packages of it (``apt-get download``, unpacked with
  ``dpkg-deb -x``), since no Python registry ships the standard library as source.
- Checkouts of public repositories no registry serves (Go, C, Java, Rust: ``GIVEN``): laid
  out by hand in the cache folder (or given with ``--root``); these scripts never fetch or
  build them.

**rxjs 7.8.2** (``src/``: 251 ``.ts`` files, 21k lines, no ``.d.ts``, no tests — its specs
are not published) is the TypeScript corpus. Its ``src/`` has no ``tsconfig.json`` of its
own (only ``tsconfig.base.json``, ``tsconfig.esm.json`` …), so one is written there that
extends ``tsconfig.base.json`` (which includes ``./**/*.ts`` and maps ``rxjs/*`` to ``./*``)
with ``noEmit`` and ``allowJs: false``: a language server then loads the whole of ``src/``
as one program, and the benchmark's root (``src/``) is the project's root.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["CORPORA", "LANGUAGE_SUFFIXES", "Corpus", "cache_dir", "fetch", "source_files"]

# What counts as a source file of each corpus language. A ``.d.ts`` is a declaration file,
# not a source: it is left out (``source_files``) — rxjs ships none in ``src/``, and where a
# package ships both, the ``.ts`` it was generated from is the code.
LANGUAGE_SUFFIXES = {"python": (".py",), "typescript": (".ts", ".tsx"), "go": (".go",),
                     "c": (".c", ".h"), "rust": (".rs",), "java": (".java",)}
_SKIPPED_DIRS = {".codenav", "node_modules", ".git", "vendor", ".cache"}


@dataclass(frozen=True)
class Corpus:
    name: str
    requirement: str  # pip requirement of the sdist, or npm NAME@VERSION
    subdir: str  # the folder inside the archive that is benchmarked
    language: str = "python"
    # "pypi", "npm", "debian" (requirement: packages, spaces between), or "given": a
    # checkout no registry serves, prepared by hand in the cache folder (see GIVEN below)
    registry: str = "pypi"
    tsconfig: dict[str, Any] | None = None  # written as subdir/tsconfig.json if missing

    @property
    def suffixes(self) -> tuple[str, ...]:
        return LANGUAGE_SUFFIXES[self.language]


CORPORA = {
    "django": Corpus("django", "django==5.2.*", "django"),
    # CPython 3.11's Lib/ as Debian bookworm packages it: the core, the rest of the standard
    # library, its test suite, lib2to3 and tkinter (~1,600 .py files)
    "cpython": Corpus("cpython", "libpython3.11-minimal libpython3.11-stdlib "
                      "libpython3.11-testsuite python3-lib2to3 python3-tk",
                      "usr/lib/python3.11", registry="debian"),
    "rich": Corpus("rich", "rich==14.3.4", "rich"),
    "rxjs": Corpus("rxjs", "rxjs@7.8.2", "package/src", language="typescript", registry="npm",
                   tsconfig={"extends": "./tsconfig.base.json",
                             "compilerOptions": {"noEmit": True, "allowJs": False,
                                                 "incremental": False},
                             "include": ["./**/*.ts"]}),
}


# Checkouts of public repositories, which no package registry serves: each is a folder
# ``cache_dir()/<requirement>`` laid out by hand (or given with ``--root``), never fetched by
# these scripts. What each must hold:
GIVEN = {
    "cobra": "spf13/cobra at commit adbc881, its dependencies of go.mod at their versions "
             "(go-md2man/v2 v2.0.6 with blackfriday/v2 v2.1.0, mousetrap v1.1.0, pflag "
             "v1.0.9, go.yaml.in/yaml/v3 v3.0.4) laid out as vendor/ with a vendor/modules.txt "
             "(`go build ./...` then works offline)",
    "hiredis": "redis/hiredis at commit 29ea279 with the compile_commands.json that `cmake "
               "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON -DENABLE_EXAMPLES=ON` writes (SSL off), "
               "copied to its top folder",
    "ripgrep": "BurntSushi/ripgrep at commit 3fce3b5",
    "javapoet": "square/javapoet at commit b9017a9",
}
CORPORA.update({
    "cobra": Corpus("cobra", "cobra-adbc881", "", language="go", registry="given"),
    "hiredis": Corpus("hiredis", "hiredis-29ea279", "", language="c", registry="given"),
    "ripgrep": Corpus("ripgrep", "ripgrep-3fce3b5", "", language="rust", registry="given"),
    "javapoet": Corpus("javapoet", "javapoet-b9017a9", "", language="java", registry="given"),
})


def cache_dir() -> Path:
    return Path(os.environ.get("CODENAV_BENCH_CACHE", Path.home() / ".cache" / "codenav-bench"))


def fetch(corpus: Corpus) -> Path:
    """The benchmarked folder of ``corpus``, downloading and unpacking it once."""
    fetchers = {"npm": _fetch_npm, "debian": _fetch_debian, "given": _given}
    root = fetchers.get(corpus.registry, _fetch_pypi)(corpus)
    if corpus.tsconfig is not None and not (root / "tsconfig.json").exists():
        (root / "tsconfig.json").write_text(json.dumps(corpus.tsconfig, indent=2) + "\n",
                                            encoding="utf-8")
    return root


def _given(corpus: Corpus) -> Path:
    """A checkout laid out by hand in the cache folder (``GIVEN`` says what it holds)."""
    root = cache_dir() / corpus.requirement / corpus.subdir
    if not root.is_dir():
        raise FileNotFoundError(f"corpus {corpus.name} is not in {root}: it must hold "
                                f"{GIVEN[corpus.name]} (or pass --root)")
    return root


def _fetch_pypi(corpus: Corpus) -> Path:
    cache = cache_dir()
    cache.mkdir(parents=True, exist_ok=True)
    archives = sorted(cache.glob(f"{corpus.name}-*.tar.gz"))
    if not archives:
        subprocess.run([sys.executable, "-m", "pip", "download", corpus.requirement, "--no-deps",
                        "--no-binary", ":all:", "-d", str(cache), "-q"], check=True)
        archives = sorted(cache.glob(f"{corpus.name}-*.tar.gz"))
    archive = archives[-1]
    unpacked = cache / archive.name.removesuffix(".tar.gz")
    if not unpacked.is_dir():
        with tarfile.open(archive) as tar:
            tar.extractall(cache, filter="data")
    return unpacked / corpus.subdir


def _fetch_npm(corpus: Corpus) -> Path:
    """``npm pack NAME@VERSION`` (an exact version: the tarball's name is known beforehand)."""
    cache = cache_dir()
    cache.mkdir(parents=True, exist_ok=True)
    name, _, version = corpus.requirement.rpartition("@")
    stem = f"{name.lstrip('@').replace('/', '-')}-{version}"
    archive = cache / f"{stem}.tgz"
    if not archive.is_file():
        npm = shutil.which("npm")
        if npm is None:
            raise FileNotFoundError(f"npm not found; it downloads the {corpus.name} corpus")
        subprocess.run([npm, "pack", corpus.requirement, "--pack-destination", str(cache),
                        "--loglevel=error"], check=True, stdout=subprocess.DEVNULL)
    unpacked = cache / stem
    if not unpacked.is_dir():
        partial = cache / f".{stem}.partial"
        shutil.rmtree(partial, ignore_errors=True)
        with tarfile.open(archive) as tar:
            tar.extractall(partial, filter="data")
        partial.rename(unpacked)
    return unpacked / corpus.subdir


def _fetch_debian(corpus: Corpus) -> Path:
    """``apt-get download`` of the packages, each unpacked into ``NAME/`` (Debian only)."""
    unpacked = cache_dir() / corpus.name
    if not unpacked.is_dir():
        partial = cache_dir() / f".{corpus.name}.partial"
        shutil.rmtree(partial, ignore_errors=True)
        (partial / "debs").mkdir(parents=True)
        subprocess.run(["apt-get", "download", *corpus.requirement.split()],
                       cwd=partial / "debs", check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        for deb in sorted((partial / "debs").glob("*.deb")):
            subprocess.run(["dpkg-deb", "-x", str(deb), str(partial / "tree")], check=True)
        (partial / "tree").rename(unpacked)
        shutil.rmtree(partial)
    return unpacked / corpus.subdir


def source_files(root: Path, suffix: str | tuple[str, ...] = ".py") -> list[Path]:
    """Source files under ``root``: no ``.d.ts``, nothing in ``node_modules`` or ``.codenav``."""
    suffixes = (suffix,) if isinstance(suffix, str) else suffix
    return sorted(p for p in root.rglob("*") if p.name.endswith(suffixes)
                  and not p.name.endswith(".d.ts") and p.is_file()
                  and _SKIPPED_DIRS.isdisjoint(p.relative_to(root).parts))
