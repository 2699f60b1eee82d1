"""The envelope every tool answers through (docs/contract.md): token budget, ranked
truncation, paging, errors.

A handler returns an :class:`Answer`: plain ``data`` plus the list fields the envelope may
shorten (:class:`Cut`), each already in ranked order, and optionally cheaper renderings of
the same facts (:class:`Tier`: an outline by name only, then as counts). :func:`success`
serializes; if the result is over the caller's budget it sends the first tier that fits
whole, and otherwise binary-searches the largest prefix of the cheapest rendering's lists
that fits *with* its ``dropped`` note (whose ``next`` continues after what was sent), then
elides source/snippet fields, then shortens strings, and at the very end replaces ``data``
by ``{}``. ``used <= requested`` therefore holds for every payload by construction. Tokens
are ``ceil(chars / 4)`` of the compact JSON actually sent. This module is the only one that
serializes answers.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from codenav.errors import CodenavError

__all__ = [
    "DEFAULT_BUDGET",
    "MAX_BUDGET",
    "MIN_BUDGET",
    "Answer",
    "Cut",
    "Page",
    "Tier",
    "clamp_budget",
    "default_budget",
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
_MAX_ERROR_TEXT = 800  # a BAD_ARGS message names every argument of the tool
_SHORTEST_STRING = 24
EVERY = "*"  # in a Cut's path: every element of a list, or every value of an object

Path = tuple[str | int, ...]


@dataclass(frozen=True)
class Page:
    """How to continue a cut list: the same call with ``offset`` moved past what was sent.

    ``offset`` is where this answer's list starts; ``positions``, when given, is the offset
    of each unit (a list whose units are not one offset apart, such as an outline shown by
    its top-level symbols only)."""

    tool: str
    args: dict[str, Any]
    offset: int = 0
    positions: Sequence[int] | None = None

    def after(self, kept: int) -> dict[str, Any]:
        """The call continuing after the first ``kept`` units."""
        if self.positions is not None and kept < len(self.positions):
            start = self.positions[kept]
        else:
            start = self.offset + kept
        return {"tool": self.tool, "args": {**self.args, "offset": start}}


@dataclass(frozen=True)
class Cut:
    """A list in ``data`` the envelope may shorten; its units are already best-first.

    ``path`` leads to the list; an ``EVERY`` ("*") step goes through every element of a list
    or every value of an object, so that one cut spans the lists of all groups (references
    keyed by file: ``("references", "*")``). Units are the leaves in that order; a group whose
    list is left empty is removed at the innermost ``EVERY`` step. With ``tree``, the list is
    a nested tree (children under ``children``) and units are its nodes, deepest first and
    later siblings first. ``hint`` is the narrowing step the note names; ``page`` makes the
    ready call continuing after the units sent. ``omitted`` counts units the handler already
    left out after the ones it built (it never builds more than a budget could hold).
    """

    kind: str
    path: Path
    hint: str
    tree: bool = False
    children: str = "children"
    page: Page | None = None
    omitted: int = 0


@dataclass(frozen=True)
class Tier:
    """A cheaper rendering of an answer's facts, sent whole before anything is dropped.

    ``left_out`` says what it leaves out, for the note ("signatures of 214 symbols"),
    ``count`` how many items lost something, ``kind`` the note's kind, and ``hint`` how to get
    the richer rendering back."""

    data: dict[str, Any]
    kind: str
    count: int
    left_out: str
    hint: str
    cuts: Sequence[Cut] = ()
    noted: bool = True  # False: what it leaves out is said elsewhere in the answer (no note)


@dataclass
class Answer:
    """What a tool handler returns."""

    data: dict[str, Any]
    cuts: Sequence[Cut] = ()
    elide: tuple[str, ...] = ("source", "snippet")
    warnings: list[str] = field(default_factory=list)
    hint: str = "Ask for less (a narrower argument)"  # when nothing but elision can help
    tiers: Sequence[Tier] = ()


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
    """The envelope's fields; ``truncated``, ``dropped`` and ``warnings`` only when they say
    something (every answer pays for the ones that do not)."""
    env: dict[str, Any] = {"ok": ok, **body, "tokenBudget": {"requested": requested, "used": 0}}
    if truncated:
        env["truncated"] = True
    if dropped is not None:
        env["dropped"] = dropped
    if warnings:
        env["warnings"] = warnings
    return env


def default_budget(env: dict[str, Any]) -> dict[str, Any]:
    """``env`` for a caller that set no budget: ``tokenBudget`` says only what was used (the
    default it was fitted into is documented), measured again."""
    env["tokenBudget"].pop("requested", None)
    _measure(env)
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
    if not any(cut.omitted for cut in answer.cuts):
        whole = _whole(answer.data, requested, notes)
        if whole is not None:
            return whole
    for tier in answer.tiers:
        if any(cut.omitted for cut in tier.cuts):
            continue
        whole = _whole(tier.data, requested, notes,
                       _tier_note(tier, requested) if tier.noted else None)
        if whole is not None:
            return whole
    last = answer.tiers[-1] if answer.tiers else None
    if last is None:
        return _Fitter(answer, requested, notes).fit()
    cheaper = replace(answer, data=last.data, cuts=last.cuts)
    return _Fitter(cheaper, requested, notes, last).fit()


def _whole(data: dict[str, Any], requested: int, warnings: list[str],
           dropped: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """``data`` sent whole, if it fits (a cheap length bound first: no serialization of an
    answer far over the budget)."""
    if _longer_than(data, requested * 4):
        return None
    env = _frame(True, {"data": data}, requested, truncated=dropped is not None,
                 dropped=dropped, warnings=warnings)
    return env if _measure(env) <= requested else None


def _longer_than(value: Any, limit: int) -> bool:
    """Whether the JSON of ``value`` is surely longer than ``limit`` characters (counting
    string contents only, stopping as soon as they exceed it)."""
    total = 0
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            total += len(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
            total += sum(len(k) for k in item)
        elif isinstance(item, list):
            stack.extend(item)
        if total > limit:
            return True
    return False


def _tier_note(tier: Tier, requested: int) -> dict[str, Any]:
    return {"kind": tier.kind, "count": tier.count,
            "note": f"Left out {tier.left_out} to fit tokenBudget={requested}. {tier.hint}, "
                    f"or raise tokenBudget."}


class _Fitter:
    """Finds the largest answer that fits; see the module docstring for the order of steps."""

    def __init__(self, answer: Answer, requested: int, warnings: list[str],
                 tier: Tier | None = None) -> None:
        self.answer = answer
        self.requested = requested
        self.warnings = warnings
        self.tier = tier
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

    def fit(self) -> dict[str, Any]:
        """Give up, in order: list tail, the ready next call, long warnings, source and
        snippet text (the last resort), long strings, and finally all data."""
        data = self.answer.data
        found = self._search(data)
        if found is not None:
            return found
        if any(cut.page is not None for cut in self.answer.cuts):
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
        """The note: what was cut (most first), the narrowing step, and the call that
        continues after what was sent."""
        elided: dict[str, int] = {}
        if self._elided is not None:  # count what is missing from what is shown
            _, elided = _elide(self._keep(self.answer.data, k), self.answer.elide)
        parts: list[tuple[int, int, Cut]] = []
        for cut, units, kept in zip(self.answer.cuts, self.units, self._allocate(k), strict=True):
            if kept < len(units) or cut.omitted:
                parts.append((len(units) - kept + cut.omitted, kept, cut))
        parts.sort(key=lambda p: -p[0])
        phrases = [f"Dropped {count} {cut.kind}" for count, _, cut in parts]
        phrases += [f"Dropped {count} {name} field(s)" for name, count in elided.items()]
        if self.tier is not None:
            phrases.insert(0, f"Left out {self.tier.left_out}")
        primary = parts[0][2] if parts else None
        # Elision is the last resort, so when it happened the kind says so.
        kind = "+".join(elided) if elided else (
            primary.kind if primary else self.tier.kind if self.tier else "data")
        hint = primary.hint if primary else self.tier.hint if self.tier else self.answer.hint
        out: dict[str, Any] = {
            "kind": kind,
            "count": sum(p[0] for p in parts) + sum(elided.values()),
            "note": f"{'; '.join(phrases) or 'Dropped data'} to fit "
                    f"tokenBudget={self.requested}. {hint}, or raise tokenBudget.",
        }
        if primary is not None and primary.page is not None and self._with_next:
            out["next"] = primary.page.after(parts[0][1])
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
            # what was cut before is said too (a call hierarchy's rows all dropped, with
            # only "Shortened strings" said: nothing may be dropped silently)
            cut = env["dropped"]["note"].split(" to fit tokenBudget=", 1)[0]
            cut = f"{cut}; shortened" if cut != "Dropped data" else "Shortened"
            env["dropped"]["note"] = (f"{cut} strings to {limit} characters to fit "
                                      f"tokenBudget={self.requested}; raise tokenBudget or ask "
                                      f"for less.")
            env["dropped"]["kind"] = "text"
            env["dropped"].pop("next", None)
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


def _lists(data: Any, path: Path, trail: Path = ()) -> Iterator[tuple[Path, list[Any]]]:
    """(concrete path, list) of every list ``path`` leads to, in order (``EVERY`` expanded)."""
    if not path:
        if isinstance(data, list):
            yield trail, data
        return
    head, rest = path[0], path[1:]
    if head == EVERY:
        if isinstance(data, list):
            for i, item in enumerate(data):
                yield from _lists(item, rest, (*trail, i))
        elif isinstance(data, dict):
            for key, item in data.items():
                yield from _lists(item, rest, (*trail, key))
        return
    try:
        child = data[head]
    except (KeyError, IndexError, TypeError):
        return
    yield from _lists(child, rest, (*trail, head))


def _units(data: dict[str, Any], cut: Cut) -> Iterator[tuple[Any, ...]]:
    """Units of ``cut`` in drop order reversed (best first): (position..., unit)."""
    if not cut.tree:
        for where, items in _lists(data, cut.path):
            for i, item in enumerate(items):
                yield (where, i, item)
        return
    found = _get(data, cut.path)
    if not isinstance(found, list):
        return
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
    if cut.tree:
        return _prune_tree(data, cut, units, keep)
    kept: dict[Path, int] = {}
    for where, _, _ in units[:keep]:
        kept[where] = kept.get(where, 0) + 1
    innermost = max((i for i, step in enumerate(cut.path) if step == EVERY), default=-1)
    alive = {where[:size] for where in kept for size in range(len(where) + 1)}

    def rebuild(value: Any, depth: int, trail: Path) -> Any:
        if depth == len(cut.path):
            return value[: kept.get(trail, 0)]
        step = cut.path[depth]
        if step != EVERY:
            if not isinstance(value, (dict, list)):
                return value
            container: Any = value  # a step may be a key or an index
            try:
                inner = container[step]
            except (KeyError, IndexError, TypeError):
                return value
            copy: Any = dict(value) if isinstance(value, dict) else list(value)
            copy[step] = rebuild(inner, depth + 1, (*trail, step))
            return copy
        empty = depth == innermost
        if isinstance(value, list):
            out = []
            for i, item in enumerate(value):
                here = (*trail, i)
                if empty and here not in alive:
                    continue
                out.append(rebuild(item, depth + 1, here))
            return out
        if isinstance(value, dict):
            result = {}
            for key, item in value.items():
                here = (*trail, key)
                if empty and here not in alive:
                    continue
                result[key] = rebuild(item, depth + 1, here)
            return result
        return value

    return rebuild(data, 0, ())  # type: ignore[no-any-return]


def _prune_tree(data: dict[str, Any], cut: Cut, units: list[tuple[Any, ...]],
                keep: int) -> dict[str, Any]:
    found = _get(data, cut.path)
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
