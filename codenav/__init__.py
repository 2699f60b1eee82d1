"""codenav: a code map for AI agents and editors, answered within a token budget."""

# No `from __future__` import here: under `python -m codenav` it would import a `__future__.py`
# of the working directory (a repository's) before anything else could stop it.
import os as _os
import sys as _sys

if _sys.argv[:1] == ["-m"]:  # `python -m codenav`: the working directory leads the module path
    try:  # (see children.py; only os and sys used so far)
        _here = _os.path.realpath(_os.getcwd())
    except OSError:  # a working directory deleted meanwhile: nothing of it to import
        _here = ""
    if _here and _here != _os.path.dirname(_os.path.dirname(_os.path.realpath(__file__))):
        _sys.path[:] = [_p for _p in _sys.path if _os.path.realpath(_p or ".") != _here]

__all__ = ["__version__"]

__version__ = "0.1.0"
