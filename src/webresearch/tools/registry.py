"""The Toolkit: builds the tool set for a run and executes calls (SPEC §3, §4).

    toolkit = Toolkit(Settings.load())
    specs = toolkit.tools(run)                       # what the model may call in this run
    result = await toolkit.call("web_fetch", {"url": "https://example.org"}, run=run)

Per call, in order: idempotent replay (a known operation id returns its recorded result and
writes nothing) → ``tool.started`` → registration/gate check → argument validation against
the constant JSON schema → approval (``allow`` journals ``approval.auto_granted``;
``supervised`` asks the run's approver) → the tool (which asks the context for scope, rate
limit and budget) → ``tool.completed`` / ``tool.failed`` with duration, outcome, error code,
cached flag, cost and the redacted output (≤ 4 KiB, images as metadata).

Nothing raises out of :meth:`Toolkit.call`: every failure becomes a failed
:class:`~webresearch.types.ToolResult` whose text is the error's short, redacted,
model-facing message.

The journal fails closed: when ``tool.started`` (or the replay lookup) cannot be written,
the tool does not run and the call fails with ``storage``. When only the closing event
cannot be written, the tool has already acted, so its result is returned (a retry could
repeat a side effect) with ``meta["journal_error"]``, and the failure is logged.
"""

from __future__ import annotations

import asyncio
import logging
import ssl
import time
import uuid
from collections.abc import Callable, Iterable
from typing import Any

import httpcore2
from jsonschema import Draft202012Validator

from ..config import Settings
from ..errors import (
    ApprovalDenied,
    BudgetExceeded,
    InternalError,
    InvalidArguments,
    RateLimited,
    Refusal,
    ScopeDenied,
    StorageError,
    ToolUnavailable,
    WebResearchError,
    error_from_dict,
)
from ..invisible import strip_invisible
from ..redact import REDACTED, is_secret_parameter
from ..runtime.cache import MemoryCache
from ..runtime.journal import Journal, JournalEvent, arguments_hash, truncate_utf8
from ..runtime.limits import Limiter, LimitRule
from ..runtime.run import ApprovalMode, ApprovalRequest, RunContext
from ..runtime.scope import ScopeStore, scope_key, user_links
from ..types import ImageBlock, ToolResult
from . import (
    browser_open,
    browser_tool,
    image_info,
    image_tools,
    page_screenshot,
    web_fetch,
    web_search,
)
from .base import ToolEntry, Unavailable
from .services import Services
from .specs import ALL_SPECS, ToolSpec
from .titles import localized

__all__ = ["USER_LINK_FAILED", "Builder", "Toolkit", "default_builders"]

#: Refusal kind journaled for a policy error that does not name one itself.
_REFUSAL_KIND = {
    "blocked_address": "ssrf",
    "blocked_domain": "domain",
    "scope_denied": "scope",
    "approval_denied": "approval",
    "rate_limited": "rate_limit",
    "budget_exceeded": "budget",
}

log = logging.getLogger("webresearch")

#: ``build(services)`` → the tool's entry, or why it cannot be offered in this process.
Builder = Callable[[Services], ToolEntry | Unavailable]

#: Model-facing text for a failed open in the ``user_links`` scope (seed notes: no details,
#: and do not ask again).
USER_LINK_FAILED = (
    "The page did not open. Tell the person once and do not ask for the link again; "
    "continue without it."
)

#: Operation results kept in memory for idempotent replay (entries, seconds).
REPLAY_CACHE_SIZE = 1024
REPLAY_TTL_S = 3600.0


def default_builders() -> list[Builder]:
    """The built-in tools, in listing order."""
    return [
        web_search.build,
        web_fetch.build,
        browser_open.build,
        page_screenshot.build,
        image_tools.build_fetch_image,
        image_tools.build_view_image,
        image_info.build,
        browser_tool.build,
    ]


class _Call:
    """The :class:`~webresearch.tools.base.CallContext` of one call."""

    def __init__(self, toolkit: Toolkit, run: RunContext, tool: str, operation_id: str) -> None:
        self.toolkit = toolkit
        self.run = run
        self.tool = tool
        self.operation_id = operation_id
        self.services = toolkit.services
        self.cost = 0.0
        self.counted_view = False

    async def check_scope(self, url: str) -> None:
        scope = self.run.fetch_scope
        if scope == "open":
            return
        key = scope_key(url)
        store: ScopeStore = self.services.scopes
        if scope == "search_results":
            allowed = await store.search_results(self.run.run_id)
            if allowed is None:
                raise ScopeDenied(
                    "in this run only URLs from web_search results may be opened, and there was no search yet",
                    hint="search first (web_search), then open one of its results",
                    refusal="scope",
                )
            if key is None or key not in allowed:
                raise ScopeDenied(
                    "this URL is not among the latest web_search results of this run",
                    hint="open a URL from the latest search results, or search again",
                    refusal="scope",
                )
            return
        settings = self.services.settings
        allowed_links = user_links(self.run.user_messages, settings.app_domains)
        if key is None or key not in allowed_links:
            raise ScopeDenied(
                "only links the person sent in this conversation may be opened",
                hint="ask the person for the link if it matters; do not guess URLs",
                refusal="scope",
            )
        if not await store.add_view(self.run.conversation, settings.user_link_views):
            raise ScopeDenied(
                f"the limit of {settings.user_link_views} link views for this conversation is reached",
                hint="continue without opening more links",
                refusal="scope",
            )
        self.counted_view = True

    async def record_search_results(self, urls: list[str]) -> None:
        await self.services.scopes.set_search_results(self.run.run_id, urls)

    async def rate_limit(self, key: str) -> None:
        rule = self.toolkit.limit_rule(key)
        if rule is None:
            return
        limiter: Limiter = self.services.limiter
        decision = await limiter.acquire(key, rule)
        if not decision.allowed:
            seconds = max(1, round(decision.retry_after_s + 0.499))
            raise RateLimited(
                f"{key} is limited to {rule.limit} calls per {rule.window_s:g} s; retry after {seconds} s",
                retry_after=float(seconds),
                refusal="rate_limit",
            )

    async def reserve(self, cost: float, what: str) -> None:
        budget = self.run.budget
        if budget is None or cost <= 0:
            return
        spent = self.toolkit.spent_by(self.run.run_id)
        if spent + self.cost + cost > budget + 1e-12:
            raise BudgetExceeded(
                f"the run's budget ({budget:g}) does not cover another paid call to {what} "
                f"(spent {spent + self.cost:g}, this call {cost:g})",
                hint="finish with what you have",
                refusal="budget",
            )

    def spent(self, cost: float, what: str) -> None:
        if cost > 0:
            self.cost += cost

    async def event(self, kind: str, **details: Any) -> None:
        await self.toolkit._emit(
            JournalEvent(
                kind=kind,
                run_id=self.run.run_id,
                tool=self.tool,
                operation_id=self.operation_id,
                details=_redact_obj(details, self.toolkit),
            )
        )


class Toolkit:
    """The tool set of webresearch for agent runs.

    Args:
        settings: configuration (default: :meth:`Settings.load` from the environment).
        services: prebuilt services (default: built from ``settings`` and the seams below).
        resolver: DNS seam for the SSRF guard (tests inject one).
        connector: TCP seam of the guarded transport (tests inject one).
        ssl_context: TLS settings for model-chosen URLs (tests pass one trusting a local CA).
        journal: journal sink (default from ``settings.journal_url``).
        limiter: limiter backend (default in-process).
        scopes: scope store (default in-process).
        builders: the tools to offer (default :func:`default_builders`).
    """

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        services: Services | None = None,
        resolver: Any = None,
        connector: httpcore2.AsyncNetworkBackend | None = None,
        ssl_context: ssl.SSLContext | None = None,
        journal: Journal | None = None,
        limiter: Limiter | None = None,
        scopes: ScopeStore | None = None,
        clock: Callable[[], float] = time.monotonic,
        builders: Iterable[Builder] | None = None,
    ) -> None:
        if services is None:
            services = Services(
                settings or Settings.load(),
                resolver=resolver,
                connector=connector,
                ssl_context=ssl_context,
                journal=journal,
                limiter=limiter,
                scopes=scopes,
                clock=clock,
            )
        self.services = services
        self.settings = services.settings
        self._entries: dict[str, ToolEntry] = {}
        #: tool name → why it is not registered in this process (optional dependency, config).
        self.unavailable: dict[str, str] = {}
        #: opt-in tools whose service the settings do not choose (not logged).
        self.not_configured: dict[str, str] = {}
        for build in builders if builders is not None else default_builders():
            misconfigured = False
            try:
                built = build(services)
            except WebResearchError as exc:
                # The operator chose something that cannot work (e.g. a provider without its
                # key): a warning. A tool merely not installed is only information.
                misconfigured = True
                built = Unavailable(
                    getattr(build, "__module__", "?").rsplit(".", 1)[-1], exc.message
                )
            if isinstance(built, Unavailable) and built.quiet:
                self.not_configured[built.tool] = built.reason  # opt-in, not chosen: no log
                continue
            if isinstance(built, Unavailable):
                self.unavailable[built.tool] = built.reason
                log.log(
                    logging.WARNING if misconfigured else logging.INFO,
                    "tool %s is not available: %s",
                    built.tool,
                    built.reason,
                    extra={"about_tool": built.tool},
                )
                continue
            self._entries[built.spec.name] = built
            if built.aclose is not None:
                services.on_close(built.aclose)
        self._validators = {
            name: Draft202012Validator(entry.spec.input_schema)
            for name, entry in self._entries.items()
        }
        self._order = {spec.name: i for i, spec in enumerate(ALL_SPECS)}
        self._replays = MemoryCache(REPLAY_CACHE_SIZE, REPLAY_TTL_S, clock=services.clock)
        self._spent: dict[str, float] = {}
        self._logged_gates: set[tuple[str, str]] = set()

    # --- lifecycle ------------------------------------------------------------------------
    async def aclose(self) -> None:
        """Release connections, browsers and backends."""
        await self.services.aclose()

    async def __aenter__(self) -> Toolkit:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    @property
    def journal(self) -> Journal:
        """The journal sink (query it for events)."""
        return self.services.journal

    # --- registration -------------------------------------------------------------------------
    def limit_rule(self, key: str) -> LimitRule | None:
        """The rate-limit rule for limiter ``key``, or ``None`` when unlimited."""
        s = self.settings
        limits = {
            "web_search": s.search_rate_limit,
            "browser": s.browser_rate_limit,
            "web_fetch": s.fetch_rate_limit,
        }
        limit = limits.get(key)
        return None if limit is None else LimitRule(limit, s.rate_window_s)

    def spent_by(self, run_id: str) -> float:
        """What a run has spent so far (price units)."""
        return self._spent.get(run_id, 0.0)

    def _approval(self, run: RunContext, tool: str) -> ApprovalMode:
        if tool in run.approval:
            return run.approval[tool]
        return self.settings.approval.get(tool, run.default_approval)

    def _why_not(self, name: str, run: RunContext) -> str | None:
        entry = self._entries.get(name)
        if entry is None:
            return self.unavailable.get(name) or self.not_configured.get(name, "no such tool")
        if self._approval(run, name) == "deny":
            return "denied by the approval policy"
        return entry.gate(run)

    def not_offered(self, run: RunContext | None = None) -> dict[str, str]:
        """Every tool ``run`` is not offered, with why: an optional package or a setting is
        missing, the run's gate closes it (no network access, no workspace, a model that
        cannot see images), or the approval policy denies it. For people (``webresearch
        tools``); a model is never told about tools it cannot use."""
        run = run or RunContext()
        names = [*self._entries, *self.unavailable, *self.not_configured]
        reasons = {name: self._why_not(name, run) for name in dict.fromkeys(names)}
        return {name: why for name, why in sorted(reasons.items()) if why is not None}

    def tools(self, run: RunContext | None = None) -> list[ToolSpec]:
        """The constant specs of the tools registered for ``run``, in a stable order.

        Titles are in ``settings.tool_titles_language`` (for people: MCP titles, CLI
        headings); names, descriptions and schemas — what the model sees — never change.
        """
        run = run or RunContext()
        language = self.settings.tool_titles_language
        out = []
        for name, entry in self._entries.items():
            why = self._why_not(name, run)
            if why is None:
                out.append(localized(entry.spec, language))
            elif (name, why) not in self._logged_gates:
                self._logged_gates.add((name, why))
                log.info("tool %s not registered for this run: %s", name, why)
        return sorted(out, key=lambda s: self._order.get(s.name, len(self._order)))

    # --- calls --------------------------------------------------------------------------------
    async def call(
        self,
        name: str,
        arguments: dict[str, Any] | None = None,
        *,
        run: RunContext | None = None,
        operation_id: str | None = None,
    ) -> ToolResult:
        """Execute tool ``name`` with ``arguments`` for ``run``.

        Args:
            name: tool name.
            arguments: the model's arguments (a JSON object).
            run: the run context (default: a fresh open run with network access).
            operation_id: idempotency key; repeating it returns the recorded result and
                writes no new events (default: a fresh id).

        Returns:
            the result; on failure ``result.error`` holds the error and ``result.text`` its
            model-facing text (redacted).
        """
        run = run or RunContext()
        arguments = {} if arguments is None else arguments
        op = operation_id or uuid.uuid4().hex
        ctx = _Call(self, run, name, op)
        args_hash = arguments_hash(arguments)
        shown_args = _redact_obj(arguments, self)
        try:
            if operation_id is not None:
                replay = await self._replay(operation_id)
                if replay is not None:
                    return replay
            await self._emit(
                JournalEvent(
                    kind="tool.started",
                    run_id=run.run_id,
                    tool=name,
                    operation_id=op,
                    args_hash=args_hash,
                    details={"arguments": shown_args},
                )
            )
        except StorageError as exc:
            # Fail closed: nothing runs that the journal could not record.
            failed = self._failure(exc, ctx)
            return ToolResult(failed.text, meta={**failed.meta, "operation_id": op}, error=exc)
        started = time.perf_counter()
        try:
            result = await self._execute(name, arguments, run, ctx, shown_args)
        except WebResearchError as exc:
            result = self._failure(exc, ctx)
        except asyncio.CancelledError:
            await self._cancelled(ctx, args_hash, time.perf_counter() - started)
            raise
        except Exception:
            log.exception("tool %s failed unexpectedly", name)
            result = self._failure(
                InternalError(f"{name} failed unexpectedly (an internal error)"), ctx
            )
        duration_ms = (time.perf_counter() - started) * 1000
        if ctx.cost:
            self._spent[run.run_id] = self.spent_by(run.run_id) + ctx.cost
        # The last pass over what the model reads: secrets, then invisible characters any
        # path let through (SPEC §1; the tools count what they removed themselves).
        text, hidden = strip_invisible(self.services.redact(result.text))
        seen = {"hidden_chars_removed": result.meta.get("hidden_chars_removed", 0) + hidden}
        result = ToolResult(
            text=text,
            images=result.images,
            meta={
                **result.meta,
                **(seen if hidden or "hidden_chars_removed" in result.meta else {}),
                "operation_id": op,
                **({"cost": ctx.cost} if ctx.cost else {}),
            },
            error=result.error,
        )
        error = result.error
        outcome = "ok" if error is None else ("refused" if isinstance(error, Refusal) else "error")
        details: dict[str, Any] = {}
        if result.images:
            details["images"] = [img.describe() for img in result.images]
        if isinstance(error, Refusal):
            details["refusal"] = error.details.get("refusal") or _REFUSAL_KIND.get(
                error.code, "policy"
            )
        closing = JournalEvent(
            kind="tool.completed" if error is None else "tool.failed",
            run_id=run.run_id,
            tool=name,
            operation_id=op,
            args_hash=args_hash,
            duration_ms=round(duration_ms, 3),
            outcome=outcome,
            error_code=error.code if error else None,
            cached=bool(result.meta.get("cached")),
            cost=ctx.cost,
            output=truncate_utf8(result.text),
            details=details,
        )
        try:
            await self._emit(closing)
            if operation_id is not None:  # only explicit idempotency keys are recorded
                await self._remember(op, result)
        except StorageError as exc:
            log.error("%s ran but its journal record failed: %s", name, exc.message)
            result = ToolResult(
                result.text, result.images, {**result.meta, "journal_error": exc.code}, error
            )
        return result

    async def _cancelled(self, ctx: _Call, args_hash: str, duration_s: float) -> None:
        """A call cut off by cancellation ("Stop"): what it already spent is recorded (SPEC §3:
        costs of calls that failed after the request was sent), and a closing event is
        written when the journal still takes one."""
        run = ctx.run
        if ctx.cost:
            self._spent[run.run_id] = self.spent_by(run.run_id) + ctx.cost
        closing = JournalEvent(
            kind="tool.failed",
            run_id=run.run_id,
            tool=ctx.tool,
            operation_id=ctx.operation_id,
            args_hash=args_hash,
            duration_ms=round(duration_s * 1000, 3),
            outcome="cancelled",
            error_code="cancelled",
            cost=ctx.cost,
        )
        try:
            await asyncio.shield(self._emit(closing))
        except (StorageError, asyncio.CancelledError):
            log.warning("%s was cancelled and its closing event was not written", ctx.tool)

    async def _execute(
        self,
        name: str,
        arguments: dict[str, Any],
        run: RunContext,
        ctx: _Call,
        shown_args: dict[str, Any],
    ) -> ToolResult:
        why = self._why_not(name, run)
        if why is not None:
            available = ", ".join(s.name for s in self.tools(run))
            known = name in self._entries or name in self.unavailable or name in self.not_configured
            raise ToolUnavailable(
                f"the tool {name!r} is not available in this run"
                + (f" ({why})" if known and why != "no such tool" else ""),
                hint=f"use one of: {available}" if available else None,
                refusal="gate",
                reason=why,
            )
        entry = self._entries[name]
        self._validate(name, arguments)
        await self._approve(entry, arguments, run, ctx, shown_args)
        return await entry.run(arguments, ctx)

    def _validate(self, name: str, arguments: Any) -> None:
        if not isinstance(arguments, dict):
            raise InvalidArguments(f"{name} arguments must be a JSON object")
        errors = sorted(self._validators[name].iter_errors(arguments), key=lambda e: list(e.path))
        if errors:
            problems = []
            for err in errors[:3]:
                where = ".".join(str(p) for p in err.path)
                problems.append(f"{where}: {err.message}" if where else err.message)
            raise InvalidArguments(
                f"{name} arguments: " + "; ".join(problems),
                hint=f"call {name} with arguments matching its schema",
            )

    async def _approve(
        self,
        entry: ToolEntry,
        arguments: dict[str, Any],
        run: RunContext,
        ctx: _Call,
        shown_args: dict[str, Any],
    ) -> None:
        name = entry.spec.name
        mode = self._approval(run, name)
        risk = entry.risk_of(arguments)
        if mode == "allow":
            await ctx.event("approval.auto_granted", risk=risk)
            return
        approver = run.approver
        granted = False
        if approver is not None:
            summary = f"{name} " + " ".join(f"{k}={v}" for k, v in shown_args.items())
            request = ApprovalRequest(run.run_id, name, shown_args, risk, summary[:300])
            try:
                granted = bool(await approver(request))
            except Exception:
                log.exception("approval callback failed")
                granted = False
        await ctx.event("approval.granted" if granted else "approval.denied", risk=risk)
        if not granted:
            raise ApprovalDenied(
                f"the call to {name} was not approved"
                + ("" if approver else " (it needs approval and no approver is configured)"),
                hint="do not retry the same call; continue without it or ask the person",
                refusal="approval",
            )

    def _failure(self, exc: WebResearchError, ctx: _Call) -> ToolResult:
        redact = self.services.redact
        if ctx.counted_view and not isinstance(exc, Refusal):
            # user_links scope: the model gets no details of a failed open.
            exc = error_from_dict(
                {"code": exc.code, "message": USER_LINK_FAILED, "retryable": False}
            )
        exc.message = strip_invisible(redact(exc.message))[0]  # may quote page data
        exc.args = (exc.message,)  # str(exc) must not keep the unredacted text
        if exc.hint:
            exc.hint = strip_invisible(redact(exc.hint))[0]
        exc.details = _redact_obj(exc.details, self)
        return ToolResult.failure(exc)

    async def _emit(self, event: JournalEvent) -> None:
        await self.services.journal.append(event)

    async def _remember(self, operation_id: str, result: ToolResult) -> None:
        await self._replays.set(operation_id, result)
        await self.services.journal.record_result(operation_id, result.to_dict())

    async def _replay(self, operation_id: str) -> ToolResult | None:
        hit = await self._replays.get(operation_id)
        if isinstance(hit, ToolResult):
            return _replayed(hit)
        recorded = await self.services.journal.recorded_result(operation_id)
        if recorded is None:
            return None
        error = error_from_dict(recorded["error"]) if recorded.get("error") else None
        images: tuple[ImageBlock, ...] = ()
        return _replayed(
            ToolResult(recorded.get("text", ""), images, dict(recorded.get("meta") or {}), error)
        )


def _replayed(result: ToolResult) -> ToolResult:
    return ToolResult(result.text, result.images, {**result.meta, "replayed": True}, result.error)


def _redact_obj(value: Any, toolkit: Toolkit) -> Any:
    """Redact URL secrets and known secret values in every string of a JSON-like value.

    Values under a key that names a credential (``token``, ``api_key``, ``password`` …) are
    replaced whole.
    """
    redact = toolkit.services.redact
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {
            k: REDACTED
            if isinstance(k, str) and is_secret_parameter(k) and isinstance(v, (str, int, float))
            else _redact_obj(v, toolkit)
            for k, v in value.items()
        }
    if isinstance(value, (list, tuple)):
        return [_redact_obj(v, toolkit) for v in value]
    return value
