"""How codenav starts Python processes of its own: never able to import a repository's files.

``python -m codenav …`` and ``python -c …`` put the working directory first on the module
path, and codenav runs in the repository it maps: a ``json.py`` or ``logging.py`` at the root
of a repository would be imported in place of the standard library's — the repository's code,
run by codenav. So every child (parser processes, ``codenav warm``, the background index) is an
isolated interpreter (``-I``: no working directory, no ``PYTHON*`` variables) whose path starts
with this codenav's location and ``PYTHONPATH``, without the working directory; and ``python -m
codenav`` itself drops the working directory before it imports anything more (``__init__.py``).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

__all__ = ["PACKAGE_PARENT", "module_command", "python_command", "safe_path"]

# Where this codenav is imported from (a checkout, site-packages): first on every child's path.
PACKAGE_PARENT = str(Path(__file__).resolve().parent.parent)


def safe_path(path: list[str], cwd: str) -> list[str]:
    """``path`` without the entries that mean the working directory ``cwd`` (``''``, ``.``,
    its name), unless codenav itself is imported from there (a checkout run in its folder)."""
    here = os.path.realpath(cwd)
    if here == PACKAGE_PARENT:
        return list(path)
    return [entry for entry in path if os.path.realpath(entry or ".") != here]


def python_command(code: str, *args: str) -> list[str]:
    """The command running ``code`` in an isolated interpreter with this process's module
    path (the working directory left out), then ``args`` as its ``sys.argv[1:]``."""
    # -I drops PYTHONPATH (and the user's site-packages, where a user install's PACKAGE_PARENT
    # is): given back, without the working directory
    given = [entry for entry in os.environ.get("PYTHONPATH", "").split(os.pathsep) if entry]
    user = _user_site()
    path = [PACKAGE_PARENT, *(entry for entry in safe_path(given, os.getcwd())
                              if entry != PACKAGE_PARENT)]
    # after the standard library, before site-packages: what codenav was started with wins
    # over what is installed, and nothing installed replaces a standard module
    boot = ("import sys\n"
            "at = next((i for i, p in enumerate(sys.path) if p.endswith(('site-packages', "
            "'dist-packages'))), len(sys.path))\n"
            f"sys.path[at:at] = [p for p in {path!r} if p not in sys.path]\n"
            + (f"import site; site.addsitedir({user!r})\n" if user else "")
            + code)
    return [sys.executable, "-I", "-c", boot, *args]


def _user_site() -> str | None:
    """The user's site-packages when this process reads it (``pip install --user``: -I
    would drop it, and the packages codenav needs with it)."""
    import site

    found = site.getusersitepackages() if site.ENABLE_USER_SITE else None
    return found if found and found in sys.path else None


def module_command(module: str, *args: str) -> list[str]:
    """``python -m module args`` as an isolated child (``python_command``)."""
    code = (f"import runpy; sys.argv[0] = {module!r}; "
            f"runpy.run_module({module!r}, run_name='__main__', alter_sys=True)")
    return python_command(code, *args)
