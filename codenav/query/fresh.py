"""Which files an answer touches changed on disk since they were mapped (read-your-writes).

Before a query reads positions from the map it refreshes the files it is about
(``Workspace.freshen``: re-indexed now when that fits in a short slice); what could not be
refreshed, or changed since, is *stale*, and every item of such a file says so when it is
shown. One ``Freshness`` per call, carried by the call's context; the renderer turns what it
holds into the answer's warnings once (``tools/render.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from codenav.workspace import Workspace

__all__ = ["Freshness"]


@dataclass
class Freshness:
    """Which files an answer touches changed on disk since they were indexed, and whether the
    answer follows links across files (which a pending whole relink may leave incomplete)."""

    ws: Workspace
    links: bool = False
    stale: set[str] = field(default_factory=set)
    _checked: dict[str, bool] = field(default_factory=dict)

    def refresh(self, paths: list[str]) -> None:
        """Re-index these files now if they changed and it is quick (read-your-writes)."""
        still = self.ws.freshen(paths)
        self.stale.update(still)
        for path in paths:
            self._checked[path] = path in self.stale

    def check(self, paths: set[str]) -> None:
        """Note which of these mapped files changed on disk (no re-indexing)."""
        todo = [p for p in paths if p not in self._checked]
        if not todo:
            return
        changed = set(self.ws.changed_on_disk(todo))
        for path in todo:
            self._checked[path] = path in changed
        self.stale.update(changed)

    def mark(self, item: dict[str, Any], path: str) -> dict[str, Any]:
        """``item`` with ``stale: true`` when ``path`` is stale."""
        if path in self.stale:
            item["stale"] = True
        return item

    def relinking(self) -> bool:
        """Whether the answer follows links while a whole relink is pending."""
        return self.links and self.ws.relink_pending()
