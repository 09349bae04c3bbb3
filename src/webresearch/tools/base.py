"""How a tool plugs into the Toolkit: ``ToolEntry``, ``CallContext`` and ``Services``.

Each tool module exposes ``build(services) -> ToolEntry | Unavailable``. The Toolkit calls
every builder once at start-up; a builder returns :class:`Unavailable` (with a reason that is
logged once) when an optional dependency or required configuration is missing, so the tool
is simply not registered. Per run, ``ToolEntry.gate`` decides whether the tool is offered.

A tool's ``run(arguments, ctx)`` receives *validated* arguments and raises
:class:`~webresearch.errors.WebResearchError` subclasses on failure; the Toolkit turns them
into failed results, journals everything, and applies approval and the per-run budget.
Inside ``run`` a tool uses the context for what only the runtime knows: the fetch scope, the
rate limiter (call it only on a cache miss: cache hits are free), spending, extra journal
events.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol

from ..runtime.run import RunContext
from ..types import ToolResult
from .specs import ToolSpec

if TYPE_CHECKING:
    from .services import Services

__all__ = ["CallContext", "Gate", "ToolEntry", "ToolRunner", "Unavailable"]


class CallContext(Protocol):
    """What a running tool may ask of the runtime (implemented by the Toolkit)."""

    run: RunContext
    operation_id: str
    tool: str
    services: Services

    async def check_scope(self, url: str) -> None:
        """Raise :class:`~webresearch.errors.ScopeDenied` when the run's fetch scope excludes ``url``."""
        ...

    async def record_search_results(self, urls: list[str]) -> None:
        """Remember this run's latest search results (the ``search_results`` scope)."""
        ...

    async def rate_limit(self, key: str) -> None:
        """Take one unit of the limiter ``key`` (e.g. ``web_search``); raise ``RateLimited`` when over."""
        ...

    async def reserve(self, cost: float, what: str) -> None:
        """Before a paid request: raise ``BudgetExceeded`` when the run cannot afford ``cost``."""
        ...

    def spent(self, cost: float, what: str) -> None:
        """After a paid request was sent (even if it then failed): record ``cost``."""
        ...

    async def event(self, kind: str, **details: Any) -> None:
        """Journal an extra event of this call (e.g. ``browser.action``, ``browser.dialog``)."""
        ...


#: ``await run(arguments, ctx)`` → result; raises WebResearchError subclasses.
ToolRunner = Callable[[dict[str, Any], CallContext], Awaitable[ToolResult]]
#: ``gate(run)`` → why the tool is not offered in this run, or ``None`` when it is.
Gate = Callable[[RunContext], str | None]


def _network_gate(run: RunContext) -> str | None:
    return None if run.network_access else "the run has no network access"


@dataclass(frozen=True, slots=True)
class ToolEntry:
    """A registered tool.

    Attributes:
        spec: the constant spec the model sees.
        run: the implementation.
        gate: per-run capability check (default: needs ``network_access``).
        risk: ``medium`` for calls that change the outside world (approval prompts show it);
            a callable gets the arguments (the browser's risk depends on the action).
        aclose: releases the tool's resources when the Toolkit closes.
    """

    spec: ToolSpec
    run: ToolRunner
    gate: Gate = _network_gate
    risk: Literal["low", "medium"] | Callable[[dict[str, Any]], Literal["low", "medium"]] = "low"
    aclose: Callable[[], Awaitable[None]] | None = field(default=None)

    def risk_of(self, arguments: dict[str, Any]) -> Literal["low", "medium"]:
        """The risk level of one call."""
        return self.risk(arguments) if callable(self.risk) else self.risk


@dataclass(frozen=True, slots=True)
class Unavailable:
    """A builder's answer when its tool cannot be offered at all in this process.

    Attributes:
        tool: the tool name.
        reason: one line for the log, e.g. ``"Pillow is not installed (pip install webresearch[images])"``.
        quiet: the tool is opt-in and the settings simply do not choose it (e.g. no
            screenshot service): nothing is missing, so nothing is logged.
    """

    tool: str
    reason: str
    quiet: bool = False
