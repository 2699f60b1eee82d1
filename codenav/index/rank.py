"""Hub scores: a weighted PageRank over the resolved graph (Aider's repo map is the model).

Every resolved reference is an edge from the node it sits in to the node it means; edges
between the same pair add up as the square root of their count, so one file calling a
helper fifty times does not outweigh fifty files calling it once. Targets with long,
distinctive names weigh ×10, private names (``_x``) ×0.1, and names defined in more than
five files ×0.1 (``get``, ``run``: defined everywhere, meaning little). Members pass half a
unit of rank to their container, so a class is as central as its busiest methods. Scores
are normalised so the most central node has 1.0.
"""

from __future__ import annotations

import re
import sqlite3
from typing import TYPE_CHECKING

from codenav.store.write import NODE_BITS

if TYPE_CHECKING:
    import numpy as np

__all__ = ["compute_hubs"]

_DAMPING = 0.85
_ITERATIONS = 40
_TOLERANCE = 1e-9
_KIND_WEIGHT = {"call": 1.0, "decorator": 1.0, "inheritance": 1.5, "import": 0.3,
                "export": 0.3}
_DISTINCT = re.compile(r"[a-z0-9]_[a-z0-9]|[a-z][A-Z]")


def _name_weight(name: str, files_defining: int) -> float:
    weight = 1.0
    if len(name) >= 8 and _DISTINCT.search(name):
        weight *= 10
    if name.startswith("_") and not (name.startswith("__") and name.endswith("__")):
        weight *= 0.1
    if files_defining > 5:
        weight *= 0.1
    return weight


def compute_hubs(conn: sqlite3.Connection) -> int:
    """Recompute ``nodes.hub`` and ``files.hub_mass`` for the whole map; returns the number of
    edges ranked."""
    import numpy as np  # imported here: a run that ranks nothing need not pay for it
    rows = conn.execute(
        "SELECT id, name, coalesce(parent_id, -1) FROM nodes ORDER BY id").fetchall()
    if not rows:
        return 0
    ids, names, parents = zip(*rows, strict=False)
    order = np.array(ids, dtype=np.int64)
    spread = conn.execute("SELECT name, count(DISTINCT file_id) FROM nodes GROUP BY name")
    weight_of = {name: _name_weight(name, files) for name, files in spread}  # once a name
    name_weight = np.array([weight_of.get(name, 1.0) for name in names])

    kind_weight = " ".join(f"WHEN '{kind}' THEN {weight}" for kind, weight in
                           _KIND_WEIGHT.items())
    edges = np.array(conn.execute(
        f"SELECT scope_id, target_id, CASE kind {kind_weight} ELSE 1.0 END AS w, count(*) "
        "FROM refs WHERE target_id IS NOT NULL AND target_id != scope_id "
        "GROUP BY scope_id, target_id, w").fetchall(), dtype=np.float64).reshape(-1, 4)
    src = np.searchsorted(order, edges[:, 0].astype(np.int64))
    dst = np.searchsorted(order, edges[:, 1].astype(np.int64))
    known = (src < len(order)) & (dst < len(order))
    known[known] &= (order[src[known]] == edges[known, 0]) & (order[dst[known]] == edges[known, 1])
    src, dst, edges = src[known], dst[known], edges[known]
    weight = np.sqrt(edges[:, 3]) * edges[:, 2] * name_weight[dst]

    parent_ids = np.array(parents, dtype=np.int64)
    has_parent = parent_ids >= 0
    up = np.searchsorted(order, parent_ids[has_parent])
    members = np.nonzero(has_parent)[0]
    rank = _pagerank(len(order), np.concatenate([src, members]), np.concatenate([dst, up]),
                     np.concatenate([weight, np.full(len(members), 0.5)]))
    scores = np.round(rank / (rank.max() or 1.0), 6)
    conn.executemany("UPDATE nodes SET hub = ? WHERE id = ?",
                     zip(scores.tolist(), ids, strict=True))
    mass = np.bincount(order >> NODE_BITS, weights=scores)
    conn.execute("UPDATE files SET hub_mass = 0")
    conn.executemany("UPDATE files SET hub_mass = ? WHERE id = ?",
                     [(round(float(total), 6), file_id) for file_id, total in enumerate(mass)
                      if total > 0])
    return len(src)


def _pagerank(n: int, src: np.ndarray, dst: np.ndarray, weight: np.ndarray) -> np.ndarray:
    import numpy as np

    out_weight = np.bincount(src, weights=weight, minlength=n)
    dangling = out_weight == 0
    share = np.divide(weight, out_weight[src], out=np.zeros_like(weight),
                      where=out_weight[src] > 0)
    rank = np.full(n, 1.0 / n)
    for _ in range(_ITERATIONS):
        flowing = np.bincount(dst, weights=rank[src] * share, minlength=n)
        leaked = rank[dangling].sum() / n
        new = (1 - _DAMPING) / n + _DAMPING * (flowing + leaked)
        done = np.abs(new - rank).sum() < _TOLERANCE
        rank = new
        if done:
            break
    return rank
