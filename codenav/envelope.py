"""The envelope every tool answers through (SPEC §3): token budget, ranked truncation, errors.

A handler returns an :class:`Answer`: plain ``data`` plus the list fields the envelope may
shorten (:class:`Cut`), each already in ranked order. :func:`success` serializes, and if the
result is over the caller's budget, binary-searches the largest prefix of those lists that
fits *with* its ``dropped`` note, then elides source/snippet fields, then shortens strings, and
at the very end replaces ``data`` by ``{}``. ``used <= requested`` therefore holds for every
payload by construction. Tokens are ``ceil(chars / 4)`` of the compact JSON actually sent.
This module is the only one that serializes answers.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from codenav.errors import CodenavError

__all__ = [
    "DEFAULT_BUDGET",
    "MAX_BUDGET",
    "MIN_BUDGET",
    "Answer",
    "Cut",
    "clamp_budget",
    "failure",
    "success",
    "to_json",
    "tokens",
]

DEFAULT_BUDGET = 2000
MIN_BUDGET = 100
MAX_BUDGET = 10000
_MAX_WARNING = 300
_SHORT_WARNING = 80
_MAX_ERROR_TEXT = 400
_SHORTEST_STRING = 24

Shape = Literal["list", "groups", "tree"]
Path = tuple[str | int, ...]


@dataclass(frozen=True)
class Cut:
    """A list in ``data`` the envelope may shorten; its items are already best-first.

    ``shape`` says what one dropped unit is: ``list`` an item; ``groups`` a leaf inside the
    ``children`` list of each group (groups left empty go too); ``tree`` a node of a nested
    tree, deepest first and later siblings first, children under ``children``.
    ``hint`` is the narrowing step the note names; ``next`` builds a ready follow-up call
    (``{"tool", "args"}``) from the dropped units, or is None. ``omitted`` counts units the
    handler already left out (it never builds more than a budget could hold); they are
    reported as dropped like the rest.
    """

    kind: str
    path: Path
    hint: str
    shape: Shape = "list"
    children: str = "children"
    next: Callable[[list[Any]], dict[str, Any] | None] | None = None
    omitted: int = 0


@dataclass
class Answer:
    """What a tool handler returns."""

    data: dict[str, Any]
    cuts: Sequence[Cut] = ()
    elide: tuple[str, ...] = ("source", "snippet")
    warnings: list[str] = field(default_factory=list)
    hint: str = "Ask for less (a narrower argument)"  # when nothing but elision can help


def to_json(value: Any) -> str:
    """Compact JSON, non-ASCII kept as characters (what is sent and what is counted)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


def tokens(text: str) -> int:
    return _tokens_of(len(text))


def _tokens_of(chars: int) -> int:
    return math.ceil(chars / 4)


def clamp_budget(raw: int | None) -> tuple[int, list[str]]:
    """The budget to use for ``raw`` (None = default), and a warning if it was clamped."""
    if raw is None:
        return DEFAULT_BUDGET, []
    clamped = min(max(raw, MIN_BUDGET), MAX_BUDGET)
    if clamped == raw:
        return raw, []
    return clamped, [f"tokenBudget {raw} clamped to {clamped} (allowed {MIN_BUDGET}-{MAX_BUDGET})."]


# ------------------------------------------------------------------------------ framing

def _frame(ok: bool, body: dict[str, Any], requested: int, *, truncated: bool = False,
           dropped: dict[str, Any] | None = None, warnings: list[str]) -> dict[str, Any]:
    env: dict[str, Any] = {"ok": ok, **body,
                           "tokenBudget": {"requested": requested, "used": 0, "max": MAX_BUDGET},
                           "truncated": truncated}
    if dropped is not None:
        env["dropped"] = dropped
    env["warnings"] = warnings
    return env


def _measure(env: dict[str, Any]) -> int:
    """Set ``used`` to the token count of ``env`` serialized with that very value; return it.

    One serialization: ``used`` starts as 0, so the final text is longer by the extra digits.
    """
    env["tokenBudget"]["used"] = 0
    length = len(to_json(env))
    used = _tokens_of(length)
    while _tokens_of(length + len(str(used)) - 1) != used:
        used = _tokens_of(length + len(str(used)) - 1)
    env["tokenBudget"]["used"] = used
    return used


def _bounded_warnings(warnings: list[str]) -> list[str]:
    return [w if len(w) <= _MAX_WARNING else w[: _MAX_WARNING - 1] + "…" for w in warnings]


# ------------------------------------------------------------------------------ success

def success(answer: Answer, requested: int, warnings: Sequence[str] = ()) -> dict[str, Any]:
    """The ``ok: true`` envelope of ``answer``, fitted into ``requested`` tokens."""
    notes = _bounded_warnings([*warnings, *answer.warnings])
    fitter = _Fitter(answer, requested, notes)
    if fitter.may_fit_whole() and not any(cut.omitted for cut in answer.cuts):
        env = _frame(True, {"data": answer.data}, requested, warnings=notes)
        if _measure(env) <= requested:
            return env
    return fitter.fit()


class _Fitter:
    """Finds the largest answer that fits; see the module docstring for the order of steps."""

    def __init__(self, answer: Answer, requested: int, warnings: list[str]) -> None:
        self.answer = answer
        self.requested = requested
        self.warnings = warnings
        self.units = [list(_units(answer.data, cut)) for cut in answer.cuts]
        self._lengths: list[list[int]] = [[] for _ in self.units]
        self._with_next = True
        self._elided: dict[str, Any] | None = None  # the data with source/snippets elided

    def _prefix_length(self, cut: int, keep: int) -> int:
        """JSON length of the first ``keep`` units of one cut, measured lazily."""
        lengths, units = self._lengths[cut], self.units[cut]
        while len(lengths) < keep:
            previous = lengths[-1] if lengths else 0
            lengths.append(previous + len(to_json(units[len(lengths)][-1])) + 1)
        return lengths[keep - 1] if keep else 0

    def _units_length(self, k: int) -> int:
        return sum(self._prefix_length(i, keep) for i, keep in enumerate(self._allocate(k)))

    def may_fit_whole(self) -> bool:
        """False when the cut lists alone are already longer than the budget."""
        return self._upper_bound(sum(len(u) for u in self.units)) >= sum(
            len(u) for u in self.units)

    def fit(self) -> dict[str, Any]:
        """Give up, in order: list tail, the ready next call, long warnings, source and
        snippet text (the last resort of SPEC §3), long strings, and finally all data."""
        data = self.answer.data
        found = self._search(data)
        if found is not None:
            return found
        if any(cut.next is not None for cut in self.answer.cuts):
            self._with_next = False
            found = self._search(data)
            if found is not None:
                return found
        if len(self.warnings) > 1 or any(len(w) > _SHORT_WARNING for w in self.warnings):
            self.warnings = [w if len(w) <= _SHORT_WARNING else w[: _SHORT_WARNING - 1] + "…"
                             for w in self.warnings[:1]]
            found = self._search(data)
            if found is not None:
                return found
        self._elided, _ = _elide(data, self.answer.elide)
        self.units = [list(_units(self._elided, cut)) for cut in self.answer.cuts]
        self._lengths = [[] for _ in self.units]
        found = self._search(self._elided)
        if found is not None:
            return found
        return self._shrink(self._keep(self._elided, 0))

    def _allocate(self, k: int) -> list[int]:
        """Split ``k`` kept units over the cuts in proportion to their sizes."""
        sizes = [len(u) for u in self.units]
        total = sum(sizes)
        if total == 0:
            return [0] * len(sizes)
        keep = [min(size, k * size // total) for size in sizes]
        spare = k - sum(keep)
        for i, size in enumerate(sizes):
            extra = min(spare, size - keep[i])
            keep[i] += extra
            spare -= extra
        return keep

    def _keep(self, data: dict[str, Any], k: int) -> dict[str, Any]:
        for cut, units, keep in zip(self.answer.cuts, self.units, self._allocate(k), strict=True):
            data = _apply(data, cut, units, keep)
        return data

    def _envelope(self, data: dict[str, Any], k: int) -> dict[str, Any]:
        dropped = self._dropped(k)
        return _frame(True, {"data": data}, self.requested, truncated=True, dropped=dropped,
                      warnings=self.warnings)

    def _dropped(self, k: int) -> dict[str, Any]:
        """The note: what was cut (most first), the narrowing step, and a ready next call."""
        elided: dict[str, int] = {}
        if self._elided is not None:  # count what is missing from what is shown
            _, elided = _elide(self._keep(self.answer.data, k), self.answer.elide)
        parts: list[tuple[int, Cut, list[Any]]] = []
        for cut, units, kept in zip(self.answer.cuts, self.units, self._allocate(k), strict=True):
            if kept < len(units) or cut.omitted:
                parts.append((len(units) - kept + cut.omitted, cut,
                              [u[-1] for u in units[kept:]]))
        parts.sort(key=lambda p: -p[0])
        phrases = [f"{count} {cut.kind}" for count, cut, _ in parts]
        phrases += [f"{count} {name} field(s)" for name, count in elided.items()]
        primary = parts[0][1] if parts else None
        # Elision is the last resort, so when it happened the kind says so (SPEC §3).
        kind = "+".join(elided) if elided else (primary.kind if primary else "data")
        hint = primary.hint if primary else self.answer.hint
        out: dict[str, Any] = {
            "kind": kind,
            "count": sum(p[0] for p in parts) + sum(elided.values()),
            "note": f"Dropped {' and '.join(phrases)} to fit tokenBudget={self.requested}. "
                    f"{hint}, or raise tokenBudget.",
        }
        if primary is not None and primary.next is not None and self._with_next:
            follow = primary.next(parts[0][2])
            if follow:
                out["next"] = follow
        return out

    def _fits(self, env: dict[str, Any]) -> bool:
        return _measure(env) <= self.requested

    def _search(self, data: dict[str, Any]) -> dict[str, Any] | None:
        """The envelope keeping the most units that fits, or None if even zero does not."""
        high = self._upper_bound(sum(len(u) for u in self.units))
        best = None
        low = 0
        while low <= high:
            mid = (low + high) // 2
            env = self._envelope(self._keep(data, mid), mid)
            if self._fits(env):
                best, low = env, mid + 1
            else:
                high = mid - 1
        return best

    def _upper_bound(self, total: int) -> int:
        """No answer keeping more units than this fits: their own JSON alone is too long.

        Galloping from 1 so that only the units that could fit are ever serialized.
        """
        budget = self.requested * 4
        if total == 0 or self._units_length(1) > budget:
            return 0
        low = 1
        while low < total and self._units_length(min(low * 2, total)) <= budget:
            low = min(low * 2, total)
        high = min(low * 2, total)
        while low < high:
            mid = (low + high + 1) // 2
            if self._units_length(mid) <= budget:
                low = mid
            else:
                high = mid - 1
        return low

    def _shrink(self, data: dict[str, Any]) -> dict[str, Any]:
        """Last resort: shorten every long string, then give up on data altogether."""
        longest = max((len(s) for s in _strings(data)), default=0)
        limit = longest // 2
        while limit >= _SHORTEST_STRING:
            env = self._envelope(_shorten(data, limit), 0)
            env["dropped"]["note"] = (f"Shortened strings to {limit} characters to fit "
                                      f"tokenBudget={self.requested}; raise tokenBudget or ask "
                                      f"for less.")
            env["dropped"]["kind"] = "text"
            if self._fits(env):
                return env
            limit //= 2
        return _minimal(self.requested, self.warnings)


def _minimal(requested: int, warnings: list[str]) -> dict[str, Any]:
    """An answer with no data; fits any budget >= MIN_BUDGET."""
    note = f"Dropped all data to fit tokenBudget={requested}. Raise tokenBudget or ask for less."
    dropped = {"kind": "data", "count": 1, "note": note}
    for kept in (warnings, warnings[:3], []):
        env = _frame(True, {"data": {}}, requested, truncated=True, dropped=dropped, warnings=kept)
        if _measure(env) <= requested:
            return env
    return env


# ------------------------------------------------------------------------- units & paths

def _get(data: Any, path: Path) -> Any:
    for key in path:
        try:
            data = data[key]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def _replace(data: Any, path: Path, value: Any) -> Any:
    """A copy of ``data`` with ``value`` at ``path``; only the containers on the path are copied."""
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(data, dict):
        copy: Any = dict(data)
    elif isinstance(data, list):
        copy = list(data)
    else:
        return data
    try:
        copy[head] = _replace(data[head], rest, value)
    except (KeyError, IndexError, TypeError):
        return data
    return copy


def _units(data: dict[str, Any], cut: Cut) -> Iterator[tuple[Any, ...]]:
    """Units of ``cut`` in drop order reversed (best first): (position..., unit)."""
    found = _get(data, cut.path)
    if not isinstance(found, list):
        return
    if cut.shape == "list":
        yield from enumerate(found)
    elif cut.shape == "groups":
        for g, group in enumerate(found):
            leaves = group.get(cut.children) if isinstance(group, dict) else None
            for j, leaf in enumerate(leaves if isinstance(leaves, list) else []):
                yield (g, j, leaf)
    else:
        nodes: list[tuple[int, int, tuple[int, ...], Any]] = []
        order = 0

        def walk(items: list[Any], trail: tuple[int, ...]) -> None:
            nonlocal order
            for i, node in enumerate(items):
                here = (*trail, i)
                bare = ({k: v for k, v in node.items() if k != cut.children}
                        if isinstance(node, dict) else node)
                nodes.append((len(here), order, here, bare))
                order += 1
                kids = node.get(cut.children) if isinstance(node, dict) else None
                if isinstance(kids, list):
                    walk(kids, here)

        walk(found, ())
        nodes.sort(key=lambda n: (n[0], n[1]))
        for _, _, here, bare in nodes:
            yield (here, bare)


def _apply(data: dict[str, Any], cut: Cut, units: list[tuple[Any, ...]],
           keep: int) -> dict[str, Any]:
    if keep >= len(units):
        return data
    found = _get(data, cut.path)
    if cut.shape == "list":
        return _replace(data, cut.path, found[:keep])  # type: ignore[no-any-return]
    if cut.shape == "groups":
        kept: dict[int, int] = {}
        for g, _, _ in units[:keep]:
            kept[g] = kept.get(g, 0) + 1
        groups = [{**group, cut.children: group[cut.children][: kept[g]]}
                  for g, group in enumerate(found) if g in kept]
        return _replace(data, cut.path, groups)  # type: ignore[no-any-return]
    chosen = {unit[0] for unit in units[:keep]}

    def prune(items: list[Any], trail: tuple[int, ...]) -> list[Any]:
        out = []
        for i, node in enumerate(items):
            here = (*trail, i)
            if here not in chosen:
                continue
            if isinstance(node, dict) and isinstance(node.get(cut.children), list):
                kids = prune(node[cut.children], here)
                if kids:
                    out.append({**node, cut.children: kids})
                else:  # every child went: drop the key rather than send an empty list
                    out.append({k: v for k, v in node.items() if k != cut.children})
            else:
                out.append(node)
        return out

    return _replace(data, cut.path, prune(found, ()))  # type: ignore[no-any-return]


def _elide(data: Any, names: tuple[str, ...]) -> tuple[Any, dict[str, int]]:
    """``data`` without the fields named in ``names``, and how many of each were removed."""
    count: dict[str, int] = {}

    def walk(value: Any) -> Any:
        if isinstance(value, dict):
            out = {}
            for key, item in value.items():
                if key in names and item is not None:
                    count[key] = count.get(key, 0) + 1
                    continue
                out[key] = walk(item)
            return out
        if isinstance(value, list):
            return [walk(item) for item in value]
        return value

    result = walk(data)
    return result, count


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _shorten(value: Any, limit: int) -> Any:
    if isinstance(value, str):
        return value if len(value) <= limit else value[: limit - 1] + "…"
    if isinstance(value, dict):
        return {_shorten(str(k), limit): _shorten(v, limit) for k, v in value.items()}
    if isinstance(value, list):
        return [_shorten(item, limit) for item in value]
    return value


# ------------------------------------------------------------------------------ failure

def failure(error: CodenavError, requested: int, warnings: Sequence[str] = ()) -> dict[str, Any]:
    """The ``ok: false`` envelope of ``error``; message and hint shortened if the budget is tiny."""
    body = error.to_dict()
    for key in ("message", "hint"):
        text = body.get(key)
        if isinstance(text, str) and len(text) > _MAX_ERROR_TEXT:
            body[key] = text[: _MAX_ERROR_TEXT - 1] + "…"
    notes = _bounded_warnings(list(warnings))
    limit = _MAX_ERROR_TEXT
    while True:
        env = _frame(False, {"error": body}, requested, warnings=notes)
        if _measure(env) <= requested or limit < _SHORTEST_STRING:
            return env
        limit //= 2
        notes = []
        body = {k: (_shorten(v, limit) if k != "code" else v) for k, v in body.items()}
