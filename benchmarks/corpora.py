"""Downloadable corpora for the benchmarks, cached outside the repository.

Nothing is committed: each corpus is fetched from PyPI as a source distribution
(``pip download NAME==VERSION --no-deps --no-binary :all:``) into ``$CODENAV_BENCH_CACHE``
(default ``~/.cache/codenav-bench``) the first time it is needed.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
from dataclasses import dataclass
from pathlib import Path

__all__ = ["CORPORA", "Corpus", "cache_dir", "fetch", "source_files"]


@dataclass(frozen=True)
class Corpus:
    name: str
    requirement: str  # pip requirement of the sdist
    subdir: str  # the package folder inside the sdist that is benchmarked


CORPORA = {
    "django": Corpus("django", "django==5.2.*", "django"),
}


def cache_dir() -> Path:
    return Path(os.environ.get("CODENAV_BENCH_CACHE", Path.home() / ".cache" / "codenav-bench"))


def fetch(corpus: Corpus) -> Path:
    """The benchmarked folder of ``corpus``, downloading and unpacking it once."""
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


def source_files(root: Path, suffix: str = ".py") -> list[Path]:
    return sorted(p for p in root.rglob(f"*{suffix}") if ".codenav" not in p.parts)
