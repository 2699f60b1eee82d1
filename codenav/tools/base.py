"""What a tool is: a name, a description, a parameters model and a handler (plain data).

Handlers take the workspace, validated parameters and a call context, and return an
``envelope.Answer``; they never serialize and never see MCP.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from types import UnionType
from typing import TYPE_CHECKING, Any, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, model_validator

from codenav.envelope import DEFAULT_BUDGET, Answer
from codenav.query.fresh import Freshness

if TYPE_CHECKING:
    from codenav.workspace import Workspace

__all__ = ["CallContext", "DetailParam", "FileFilterParam", "Handler", "OffsetParam", "ToolParams",
           "ToolSpec"]

# Async callback for progress: (done, total, message).
ReportProgress = Callable[[float, float | None, str | None], Awaitable[None]]


class ToolParams(BaseModel):
    """Arguments every tool takes. Unknown arguments are refused (BAD_ARGS names them)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    tokenBudget: int | None = Field(default=None, description="Max answer size (default 2000)")

    @model_validator(mode="before")
    @classmethod
    def _one_as_list(cls, data: Any) -> Any:
        """A list argument given as one string (``"include": "children"``) is that one item:
        agents write it so (mistune, run 25: a BAD_ARGS cost each of two agents a call)."""
        if not isinstance(data, dict):
            return data
        lists = {name for name, field in cls.model_fields.items() if _takes_list(field.annotation)}
        return {name: [value] if name in lists and isinstance(value, str) and value else value
                for name, value in data.items()}

    def continuation(self, **replace: Any) -> dict[str, Any]:
        """The arguments the caller set (none at their default), with ``replace`` applied:
        the base of a ``dropped.next`` call."""
        args = self.model_dump(exclude_defaults=True, exclude_none=True)
        args.pop("offset", None)
        args.update(replace)
        return {key: value for key, value in args.items() if value is not None}


def _takes_list(annotation: Any) -> bool:
    """Whether a field's type is a list (or a list or None)."""
    if get_origin(annotation) is list:
        return True
    return get_origin(annotation) in (Union, UnionType) and \
        any(get_origin(arg) is list for arg in get_args(annotation))


def DetailParam() -> Any:
    """``detail``: compact rows (default) or objects with every field."""
    return Field(default="compact", description="'full': objects with every field")


def FileFilterParam() -> Any:
    """``fileFilter``: which files an answer reads (locate.FileFilter's forms)."""
    return Field(default=None, max_length=1000, description="Prefix or glob; !x excludes; a,b")


def OffsetParam() -> Any:
    """``offset``: where a page starts (``dropped.next`` sets it)."""
    return Field(default=0, ge=0, le=1 << 31, description="Skip this many items (paging)")


@dataclass(frozen=True, slots=True)
class CallContext:
    """What one call carries besides its arguments: the budget it is answered within (the
    handler reads only what that can hold), its freshness (which files it touched changed
    on disk; ``dispatch`` says what that means once), and progress reporting (a no-op when
    the caller did not ask)."""

    fresh: Freshness
    budget: int = DEFAULT_BUDGET
    progress: ReportProgress | None = None

    def room(self, cost: int, least: int = 12) -> int:
        """How many items of ``cost`` characters the budget holds (at least ``least``): a
        handler never reads more than an answer could show."""
        return max(least, self.budget * 4 // cost)

    async def report(self, done: float, total: float | None, message: str | None = None) -> None:
        if self.progress is not None:
            await self.progress(done, total, message)


Handler = Callable[["Workspace", Any, CallContext], Awaitable[Answer]]


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """One tool, as data. ``returns`` is the README's summary of its data and rankings;
    ``example`` one call's arguments (``codenav call TOOL --help``, docs); ``order`` its
    place in the list (``registry``). ``needs_links``: it follows references across files,
    so it waits while a first map is built; ``about_map``: it is about the map itself
    (status, rebuild) and answers whatever the map's state."""

    name: str
    description: str
    params: type[ToolParams]
    handler: Handler
    arguments: str
    returns: str
    order: int
    brief: str = ""  # a few words for `codenav tools` (what it answers)
    read_only: bool = True
    example: dict[str, Any] = field(default_factory=dict)
    needs_links: bool = False
    about_map: bool = False

    @property
    def summary(self) -> str:
        return self.description.split("\n", 1)[0]
