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

import math
import re
import sqlite3

import numpy as np

from codenav.store.write import NODE_BITS

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
    """Recompute ``nodes.hub`` for the whole map; returns the number of edges ranked."""
    ids: list[int] = []
    names: list[str] = []
    parents: list[int | None] = []
    for node, name, parent in conn.execute("SELECT id, name, parent_id FROM nodes ORDER BY id"):
        ids.append(node)
        names.append(name)
        parents.append(parent)
    if not ids:
        return 0
    position = {node: i for i, node in enumerate(ids)}
    spread = dict(conn.execute("SELECT name, count(DISTINCT file_id) FROM nodes GROUP BY name"))
    name_weight = [_name_weight(name, spread.get(name, 1)) for name in names]

    sources: list[int] = []
    targets: list[int] = []
    weights: list[float] = []
    for src, dst, kind, count in conn.execute(
            "SELECT scope_id, target_id, kind, count(*) FROM refs WHERE target_id IS NOT NULL "
            "AND target_id != scope_id GROUP BY scope_id, target_id, kind"):
        i, j = position.get(src), position.get(dst)
        if i is None or j is None:
            continue
        sources.append(i)
        targets.append(j)
        weights.append(math.sqrt(count) * _KIND_WEIGHT.get(kind, 1.0) * name_weight[j])
    ranked = len(sources)
    for i, parent in enumerate(parents):
        j = position.get(parent) if parent is not None else None
        if j is not None:
            sources.append(i)
            targets.append(j)
            weights.append(0.5)

    rank = _pagerank(len(ids), np.array(sources, dtype=np.int64),
                     np.array(targets, dtype=np.int64), np.array(weights, dtype=np.float64))
    top = float(rank.max()) or 1.0
    scores = [round(float(r) / top, 6) for r in rank]
    conn.executemany("UPDATE nodes SET hub = ? WHERE id = ?", zip(scores, ids, strict=True))
    mass: dict[int, float] = {}
    for node, score in zip(ids, scores, strict=True):
        file_id = node >> NODE_BITS
        mass[file_id] = mass.get(file_id, 0.0) + score
    conn.execute("UPDATE files SET hub_mass = 0")
    conn.executemany("UPDATE files SET hub_mass = ? WHERE id = ?",
                     [(round(total, 6), file_id) for file_id, total in mass.items()])
    return ranked


def _pagerank(n: int, src: np.ndarray, dst: np.ndarray, weight: np.ndarray) -> np.ndarray:
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
