"""How a tool plugs into the Toolkit: its declaration (:class:`ToolEntry`), what it may ask of
the runtime during a call (:class:`CallContext`), and why it may be missing (:class:`Unavailable`).

Each tool module exposes ``build(services) -> ToolEntry | Unavailable``. The Toolkit calls
every builder once at start-up; a builder returns :class:`Unavailable` (with a reason that is
logged once) when an optional dependency or required configuration is missing, so the tool
is simply not registered. Per run, ``ToolEntry.gate`` decides whether the tool is offered.

A tool is declared once, in its own module::

    ToolEntry(
        spec=WEB_FETCH,                  # name, description, JSON schema (constant)
        arguments=WebFetchArgs.from_json,  # validated JSON object → typed arguments
        run=WebFetch(services, reader),  # await run(args, ctx) → ToolResult
        rate_limit=fetch_limit(settings),  # the limiter one uncached call takes a unit of
        price=lambda args: reader.price,   # what one uncached call costs (price units)
    )

The Toolkit validates the model's arguments against the spec's schema once
(:mod:`.arguments`), builds the typed arguments (which may refuse what a schema cannot say,
e.g. a blank query), asks for approval, and runs the tool. ``run`` raises
:class:`~webresearch.errors.WebResearchError` subclasses on failure; the Toolkit turns them
into failed results, journals everything, and applies approval and the per-run budget.
Inside ``run`` a tool uses the context for what only the runtime knows: the fetch scope, the
rate limiter (call it only on a cache miss: cache hits are free), spending, extra journal
events.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, Literal, Protocol, TypeVar, overload

from ..runtime.limits import LimitRule
from ..runtime.run import RunContext
from ..types import JSONObject, JSONValue, ToolResult
from .specs import ToolSpec

if TYPE_CHECKING:
    from .services import Services

__all__ = [
    "CallContext",
    "Gate",
    "Normalizer",
    "PreparedCall",
    "RateLimit",
    "Risk",
    "Tool",
    "ToolEntry",
    "ToolRunner",
    "Unavailable",
    "network_gate",
]

#: ``medium`` for calls that change the outside world (approval prompts show it).
Risk = Literal["low", "medium"]
#: ``gate(run)`` → why the tool is not offered in this run, or ``None`` when it is.
Gate = Callable[[RunContext], str | None]


@dataclass(frozen=True, slots=True)
class RateLimit:
    """A sliding-window limit: at most ``limit`` calls per ``window_s`` seconds under ``key``.

    Tools that count together share a key (fetch_image takes units of ``web_fetch``).

    Attributes:
        key: the limiter's bucket (``web_search``, ``web_fetch``, ``browser`` …).
        limit: calls per window, or ``None`` (or 0) for no limit.
        window_s: the window (seconds).
    """

    key: str
    limit: int | None
    window_s: float

    @property
    def rule(self) -> LimitRule | None:
        """The limiter's rule, or ``None`` when unlimited (a limit of 0 is no limit, as
        in the settings: it never means "refuse every call")."""
        return None if not self.limit or self.limit < 0 else LimitRule(self.limit, self.window_s)


class CallContext(Protocol):
    """What a running tool may ask of the runtime (implemented by the call pipeline)."""

    run: RunContext
    operation_id: str
    tool: str
    services: Services
    #: what this call costs when it is not served from a cache (the tool's declared price).
    price: float

    async def check_scope(self, url: str) -> None:
        """Raise :class:`~webresearch.errors.ScopeDenied` when the run's fetch scope excludes ``url``."""
        ...

    async def record_search_results(self, urls: Sequence[str]) -> None:
        """Remember this run's latest search results (the ``search_results`` scope)."""
        ...

    async def rate_limit(self, limit: RateLimit | None = None) -> None:
        """Take one unit of ``limit`` (default: the tool's declared limit); raise
        ``RateLimited`` when over. Nothing happens when the limit is unlimited."""
        ...

    async def reserve(self, cost: float, what: str) -> None:
        """Before a paid request to ``what``: raise ``BudgetExceeded`` when the run cannot
        afford ``cost`` (price units)."""
        ...

    def spent(self, cost: float, what: str) -> None:
        """After a paid request to ``what`` was sent (even if it then failed): record ``cost``."""
        ...

    async def event(self, kind: str, **details: JSONValue) -> None:
        """Journal an extra event of this call (e.g. ``browser.action``, ``browser.dialog``)."""
        ...

    def progress(self, message: str) -> None:
        """Tell whoever waits for the call what it does now, in words a person reads
        ("waiting for the page to settle"); nothing when nobody asked. Code below the tools
        reports with :func:`webresearch.progress.report`, which reaches the same place."""
        ...


A = TypeVar("A")

#: ``await run(arguments, ctx)`` → result; raises WebResearchError subclasses.
ToolRunner = Callable[[A, CallContext], Awaitable[ToolResult]]
#: ``normalize(arguments)`` → the arguments with accepted spellings the schema does not list
#: made the schema's (an action's alias, a field's other name); never raises.
Normalizer = Callable[[object], object]


def network_gate(run: RunContext) -> str | None:
    """The default gate: the run must have network access."""
    return None if run.network_access else "the run has no network access"


@dataclass(frozen=True, slots=True)
class PreparedCall:
    """One call with its arguments validated and typed, ready for approval and running.

    Attributes:
        risk: the call's risk (approval prompts show it).
        price: what the call costs when it is not served from a cache.
        run: runs the call.
    """

    risk: Risk
    price: float
    run: Callable[[CallContext], Awaitable[ToolResult]]


class Tool(Protocol):
    """What the Toolkit needs of a registered tool (a :class:`ToolEntry` of any arguments)."""

    @property
    def spec(self) -> ToolSpec:
        """The constant spec the model sees."""
        ...

    @property
    def gate(self) -> Gate:
        """Per-run capability check."""
        ...

    @property
    def rate_limit(self) -> RateLimit | None:
        """The limiter an uncached call takes a unit of."""
        ...

    @property
    def aclose(self) -> Callable[[], Awaitable[None]] | None:
        """Releases the tool's resources when the Toolkit closes."""
        ...

    @property
    def normalize(self) -> Normalizer | None:
        """Rewrites spellings the schema does not list into its own, before validation."""
        ...

    def prepare(self, arguments: JSONObject) -> PreparedCall:
        """Typed arguments from schema-valid ones (raises ``InvalidArguments`` for what the
        schema cannot say)."""
        ...


def _raw(arguments: JSONObject) -> JSONObject:
    return arguments


class ToolEntry(Generic[A]):
    """A registered tool: its declaration, in one place.

    Args:
        spec: the constant spec the model sees.
        run: the implementation: ``await run(arguments, ctx)``.
        arguments: builds the typed arguments from the schema-valid JSON object (default:
            the object itself); raises ``InvalidArguments`` for rules the schema cannot
            express.
        gate: per-run capability check (default: needs ``network_access``).
        risk: ``medium`` for calls that change the outside world (approval prompts show it);
            a callable gets the typed arguments (the browser's risk depends on the action).
        rate_limit: the limiter an uncached call takes a unit of (``ctx.rate_limit()``).
        price: what an uncached call costs in price units (``ctx.price``); a callable gets
            the typed arguments.
        aclose: releases the tool's resources when the Toolkit closes.
        normalize: rewrites accepted spellings the schema does not list into its own,
            before validation (so they cost the model no schema characters).
    """

    __slots__ = (
        "aclose",
        "arguments",
        "gate",
        "normalize",
        "price",
        "rate_limit",
        "risk",
        "run",
        "spec",
    )

    @overload
    def __init__(
        self: ToolEntry[JSONObject],
        *,
        spec: ToolSpec,
        run: ToolRunner[JSONObject],
        arguments: None = None,
        gate: Gate = network_gate,
        risk: Risk | Callable[[JSONObject], Risk] = "low",
        rate_limit: RateLimit | None = None,
        price: float | Callable[[JSONObject], float] = 0.0,
        aclose: Callable[[], Awaitable[None]] | None = None,
        normalize: Normalizer | None = None,
    ) -> None: ...

    @overload
    def __init__(
        self,
        *,
        spec: ToolSpec,
        run: ToolRunner[A],
        arguments: Callable[[JSONObject], A],
        gate: Gate = network_gate,
        risk: Risk | Callable[[A], Risk] = "low",
        rate_limit: RateLimit | None = None,
        price: float | Callable[[A], float] = 0.0,
        aclose: Callable[[], Awaitable[None]] | None = None,
        normalize: Normalizer | None = None,
    ) -> None: ...

    def __init__(
        self,
        *,
        spec: ToolSpec,
        run: Callable[..., Awaitable[ToolResult]],
        arguments: Callable[[JSONObject], A] | None = None,
        gate: Gate = network_gate,
        risk: Risk | Callable[..., Risk] = "low",
        rate_limit: RateLimit | None = None,
        price: float | Callable[..., float] = 0.0,
        aclose: Callable[[], Awaitable[None]] | None = None,
        normalize: Normalizer | None = None,
    ) -> None:
        self.spec = spec
        self.normalize = normalize
        self.gate = gate
        self.rate_limit = rate_limit
        self.aclose = aclose
        self.run: ToolRunner[A] = run
        self.arguments: Callable[[JSONObject], A] = arguments or _raw  # type: ignore[assignment]
        self.risk: Risk | Callable[[A], Risk] = risk
        self.price: float | Callable[[A], float] = price

    def prepare(self, arguments: JSONObject) -> PreparedCall:
        """The typed arguments of one call, its risk and price, and how to run it.

        Raises:
            InvalidArguments: the typed arguments refuse what the schema let through.
        """
        args = self.arguments(arguments)
        risk = self.risk(args) if callable(self.risk) else self.risk
        price = self.price(args) if callable(self.price) else self.price
        run = self.run

        async def call(ctx: CallContext) -> ToolResult:
            return await run(args, ctx)

        return PreparedCall(risk, float(price), call)

    def risk_of(self, arguments: JSONObject) -> Risk:
        """The risk level of one call (its arguments must be schema-valid)."""
        return self.prepare(arguments).risk


@dataclass(frozen=True, slots=True)
class Unavailable:
    """A builder's answer when its tool cannot be offered at all in this process.

    Attributes:
        tool: the tool name.
        reason: one line for the log, e.g. ``"Pillow is not installed (pip install -e
            '.[images]' in the webresearch checkout)"``.
        quiet: the tool is opt-in and the settings simply do not choose it (e.g. no
            screenshot service): nothing is missing, so nothing is logged.
    """

    tool: str
    reason: str
    quiet: bool = False
