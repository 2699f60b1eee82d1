"""codenav: a code map for AI agents and editors, answered within a token budget."""

from __future__ import annotations

__all__ = ["__version__"]

__version__ = "0.1.0"
