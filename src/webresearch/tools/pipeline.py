"""The call pipeline: what happens around every tool call (SPEC §3, §4).

Per call, in order: idempotent replay (a known operation id returns its recorded result and
writes nothing) → ``tool.started`` → gate (registered, approval policy, the run's
capabilities) → argument validation (the schema, then the tool's typed arguments) →
approval (``allow`` journals ``approval.auto_granted``; ``supervised`` first applies the
SSRF guard's DNS-free rules to a web_fetch / fetch_image URL, then asks the run's
approver) → the tool (which asks its context for scope, rate limit, cache, budget) →
``tool.completed`` / ``tool.failed`` with duration, outcome, error code, cached flag, cost
(and its payees) and the redacted output (≤ 4 KiB, images as metadata).

Nothing raises out of :meth:`CallPipeline.call`: every failure becomes a failed
:class:`~webresearch.types.ToolResult` whose text is the error's short, redacted,
model-facing message.

The journal fails closed: when ``tool.started`` (or the replay lookup) cannot be written,
the tool does not run and the call fails with ``storage``. When only the closing event
cannot be written, or an event the running tool writes (``search.request``,
``browser.action``, ...), the tool has already acted, so its result is returned (a retry
could repeat a side effect) with ``meta["journal_error"]``, and the failure is logged.

A call cut off by cancellation ("Stop") records what it already spent (SPEC §3: costs of
calls that failed after the request was sent) and writes a ``tool.failed`` event with
outcome ``cancelled`` (shielded) before the cancellation propagates.

Around every call: one OpenTelemetry span and the per-tool counts (:mod:`.telemetry`), the
caller's progress callback in force (:mod:`webresearch.progress`), and the shared spending
limit settled when the call ends (:meth:`~.context.ToolCall.settle`).
"""

from __future__ import annotations

import asyncio
import copy
import inspect
import logging
import time
import uuid
from collections.abc import Callable, Mapping

from .. import progress as progress_report
from ..errors import (
    BLOCKED_HINT,
    BLOCKED_HINT_NO_BROWSER,
    ApprovalDenied,
    InternalError,
    Refusal,
    StorageError,
    ToolUnavailable,
    WebResearchError,
    error_from_dict,
)
from ..invisible import strip_invisible
from ..progress import ProgressCallback
from ..runtime.cache import MemoryCache
from ..runtime.journal import JournalEvent, arguments_hash, storable, truncate_utf8
from ..runtime.run import ApprovalRequest, Approver, RunContext
from ..types import ImageBlock, JSONObject, JSONValue, ToolResult
from .arguments import json_shape
from .base import PreparedCall
from .context import Ledger, ToolCall
from .gates import backend_unavailable_reason
from .redaction import redact_json, redacted_error
from .services import Services
from .telemetry import CallTelemetry, SpanFacts
from .toolset import ToolSet

__all__ = ["REPLAY_CACHE_SIZE", "REPLAY_TTL_S", "USER_LINK_FAILED", "CallPipeline"]

log = logging.getLogger("webresearch")

#: Model-facing text for a failed open in the ``user_links`` scope (seed notes: no details,
#: and do not ask again).
USER_LINK_FAILED = (
    "The page did not open. Tell the person once and do not ask for the link again; "
    "continue without it."
)

#: Operation results kept in memory for idempotent replay (entries, seconds).
REPLAY_CACHE_SIZE = 1024
REPLAY_TTL_S = 3600.0

#: Refusal kind journaled for a policy error that does not name one itself.
_REFUSAL_KIND = {
    "blocked_address": "ssrf",
    "blocked_domain": "domain",
    "robots_disallowed": "robots",
    "scope_denied": "scope",
    "approval_denied": "approval",
    "rate_limited": "rate_limit",
    "budget_exceeded": "budget",
}


class CallPipeline:
    """Runs calls of a :class:`~.toolset.ToolSet` (see the module docstring).

    Args:
        services: the process-wide services.
        tools: the registered tools.
        ledger: the runs' spending ledger.
        telemetry: spans and counts of the calls.
    """

    def __init__(
        self, services: Services, tools: ToolSet, ledger: Ledger, telemetry: CallTelemetry
    ) -> None:
        self.services = services
        self.tools = tools
        self.ledger = ledger
        self.telemetry = telemetry
        self._replays = MemoryCache(REPLAY_CACHE_SIZE, REPLAY_TTL_S, clock=services.clock)

    def _redact(self, value: JSONValue) -> JSONValue:
        return redact_json(value, self.services.redact)

    async def call(
        self,
        name: str,
        arguments: Mapping[str, object] | None,
        run: RunContext,
        operation_id: str | None,
        offered: Callable[[RunContext], list[str]],
        progress: ProgressCallback | None = None,
    ) -> ToolResult:
        """Execute tool ``name`` (see :meth:`webresearch.tools.registry.Toolkit.call`).

        Args:
            name: tool name.
            arguments: the model's arguments (should be a JSON object).
            run: the run context.
            operation_id: idempotency key, or ``None`` for a fresh call.
            offered: the names offered to a run (named in the "not available" hint).
            progress: receives the call's progress lines (:mod:`webresearch.progress`).
        """
        if not isinstance(name, str):  # typed as str, but a face may pass anything
            name = f"<{type(name).__name__}>"
        op = operation_id if isinstance(operation_id, str) and operation_id else uuid.uuid4().hex
        tool = self.tools.get(name)
        description = tool.spec.description if tool is not None else None
        with (
            self.telemetry.call(name, op, description) as facts,
            progress_report.reporting(progress),
        ):
            return await self._call(name, arguments, run, op, operation_id, offered, facts)

    async def _call(
        self,
        name: str,
        arguments: Mapping[str, object] | None,
        run: RunContext,
        op: str,
        operation_id: str | None,
        offered: Callable[[RunContext], list[str]],
        facts: SpanFacts,
    ) -> ToolResult:
        raw: object = {} if arguments is None else arguments
        ctx = ToolCall(self.services, self.ledger, run=run, tool=name, operation_id=op)
        # Whatever was passed, it is hashed, shown and journaled as JSON (issue 20: no
        # argument may make a call raise); what is wrong with it is refused in validation.
        shape = json_shape(raw).value
        args_hash = arguments_hash(shape)
        shown = self._redact(shape if isinstance(shape, dict) else {})
        shown_args: JSONObject = shown if isinstance(shown, dict) else {}
        try:
            if operation_id is not None and op == operation_id:
                replay = await self._replay(operation_id)
                if replay is not None:
                    facts.from_result(replay, _outcome(replay))
                    return replay
            await self.services.journal.append(
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
            result = ToolResult(failed.text, meta={**failed.meta, "operation_id": op}, error=exc)
            facts.from_result(result, "error")
            return result
        started = time.perf_counter()
        try:
            result = await self._execute(name, raw, ctx, shown_args, offered)
        except WebResearchError as exc:
            result = self._failure(exc, ctx)
        except asyncio.CancelledError:
            duration_s = time.perf_counter() - started
            facts.outcome, facts.duration_ms = "cancelled", round(duration_s * 1000, 3)
            facts.cost = ctx.cost
            await self._cancelled(ctx, args_hash, duration_s)
            raise
        except Exception:
            log.exception("tool %s failed unexpectedly", name)
            result = self._failure(
                InternalError(f"{name} failed unexpectedly (an internal error)"), ctx
            )
        duration_s = time.perf_counter() - started
        result = await self._close(ctx, result, args_hash, duration_s, remember=op == operation_id)
        facts.from_result(result, _outcome(result))
        facts.duration_ms, facts.cost = round(duration_s * 1000, 3), ctx.cost
        return result

    async def _execute(
        self,
        name: str,
        arguments: object,
        ctx: ToolCall,
        shown_args: JSONObject,
        offered: Callable[[RunContext], list[str]],
    ) -> ToolResult:
        run = ctx.run
        why = self.tools.why_not(name, run)
        tool = self.tools.get(name)
        if why is not None or tool is None:
            available = ", ".join(offered(run))
            reason = why or "no such tool"
            raise ToolUnavailable(
                f"the tool {name!r} is not available in this run"
                + (f" ({reason})" if self.tools.knows(name) and reason != "no such tool" else ""),
                hint=f"use one of: {available}" if available else None,
                refusal="gate",
                reason=reason,
            )
        valid = self.tools.validator(name).validate(arguments)
        prepared = tool.prepare(valid)
        ctx.declared_limit = tool.rate_limit
        ctx.price = prepared.price
        if self.tools.approval_mode(run, name) == "supervised":
            _guard_first(self.services, name, valid)  # never ask about a call to refuse
        await self._approve(name, prepared, ctx, shown_args)
        return await prepared.run(ctx)

    async def _approve(
        self, name: str, prepared: PreparedCall, ctx: ToolCall, shown_args: JSONObject
    ) -> None:
        run = ctx.run
        mode = self.tools.approval_mode(run, name)
        risk = prepared.risk
        if mode == "allow":
            await ctx.record("approval.auto_granted", risk=risk)
            return
        approver = run.approver
        granted = False
        why = "it needs approval and no approver is configured"
        if approver is not None:
            summary = f"{name} " + " ".join(f"{k}={v}" for k, v in shown_args.items())
            request = ApprovalRequest(run.run_id, name, shown_args, risk, summary[:300])
            ctx.progress("waiting for a person to approve the call")
            timeout_s = run.approval_timeout_s or self.services.settings.mcp_approval_timeout_s
            granted, why = await _ask(approver, request, timeout_s)
        await ctx.record("approval.granted" if granted else "approval.denied", risk=risk)
        if not granted:
            raise ApprovalDenied(
                f"the call to {name} was not approved" + (f" ({why})" if why else ""),
                hint="do not retry the same call; continue without it or ask the person",
                refusal="approval",
            )

    def _failure(self, exc: WebResearchError, ctx: ToolCall) -> ToolResult:
        if ctx.counted_view and not isinstance(exc, Refusal):
            # user_links scope: the model gets no details of a failed open.
            exc = error_from_dict(
                {"code": exc.code, "message": USER_LINK_FAILED, "retryable": False}
            )
        if exc.hint == BLOCKED_HINT and backend_unavailable_reason(self.services) is not None:
            # No browser can run here: no advice the model cannot follow.
            exc = copy.copy(exc)
            exc.hint = BLOCKED_HINT_NO_BROWSER
        # An error message may quote page data: secrets and invisible characters go.
        return ToolResult.failure(redacted_error(exc, self._model_text))

    def _model_text(self, text: str) -> str:
        """``text`` as a model may read it: secrets redacted, invisible characters removed,
        valid Unicode (a lone surrogate an argument carried into a message is U+FFFD)."""
        return storable(strip_invisible(self.services.redact(text))[0])  # type: ignore[no-any-return]

    async def _close(
        self,
        ctx: ToolCall,
        result: ToolResult,
        args_hash: str,
        duration_s: float,
        *,
        remember: bool,
    ) -> ToolResult:
        """Record the spending, redact the text, write the closing event (and the replay
        record when the operation id was given: only explicit idempotency keys are kept)."""
        run = ctx.run
        self.ledger.add(run.run_id, ctx.cost)
        await ctx.settle()
        # The last pass over what the model reads: secrets, then invisible characters any
        # path let through (SPEC §1; the tools count what they removed themselves).
        text, hidden = strip_invisible(self.services.redact(result.text))
        text = storable(text)  # valid Unicode for every face (lone surrogates → U+FFFD)
        meta = dict(result.meta)
        if hidden or "hidden_chars_removed" in meta:
            counted = meta.get("hidden_chars_removed", 0)
            meta["hidden_chars_removed"] = (counted if isinstance(counted, int) else 0) + hidden
        meta["operation_id"] = ctx.operation_id
        if ctx.journal_error is not None:
            meta["journal_error"] = ctx.journal_error
        if ctx.cost:
            meta["cost"] = ctx.cost
        result = ToolResult(
            text=text,
            images=result.images,
            meta=meta,
            error=result.error,
        )
        error = result.error
        outcome = _outcome(result)
        details: dict[str, JSONValue] = {}
        if result.images:
            details["images"] = [img.describe() for img in result.images]
        if isinstance(error, Refusal):
            details["refusal"] = error.details.get("refusal") or _REFUSAL_KIND.get(
                error.code, "policy"
            )
        if ctx.costs:
            details["costs"] = {what: cost for what, cost in ctx.costs.items()}
        closing = JournalEvent(
            kind="tool.completed" if error is None else "tool.failed",
            run_id=run.run_id,
            tool=ctx.tool,
            operation_id=ctx.operation_id,
            args_hash=args_hash,
            duration_ms=round(duration_s * 1000, 3),
            outcome=outcome,
            error_code=error.code if error else None,
            cached=bool(result.meta.get("cached")),
            cost=ctx.cost,
            output=truncate_utf8(result.text),
            details=details,
        )
        try:
            await self.services.journal.append(closing)
            if remember:
                await self._remember(ctx.operation_id, result)
        except StorageError as exc:
            log.error("%s ran but its journal record failed: %s", ctx.tool, exc.message)
            result = ToolResult(
                result.text, result.images, {**result.meta, "journal_error": exc.code}, error
            )
        return result

    async def _cancelled(self, ctx: ToolCall, args_hash: str, duration_s: float) -> None:
        run = ctx.run
        self.ledger.add(run.run_id, ctx.cost)
        try:
            await asyncio.shield(ctx.settle())
        except asyncio.CancelledError:
            log.warning("%s was cancelled before its spending was settled", ctx.tool)
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
            await asyncio.shield(self.services.journal.append(closing))
        except (StorageError, asyncio.CancelledError):
            log.warning("%s was cancelled and its closing event was not written", ctx.tool)

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


#: Tools whose ``url`` argument is always fetched through the SSRF guard (the readers and
#: the image download check it first): a supervised call's URL is checked before the person
#: is asked, so nobody approves a call the guard refuses anyway.
_GUARDED_URL_TOOLS = frozenset({"web_fetch", "fetch_image"})


def _guard_first(services: Services, name: str, arguments: JSONObject) -> None:
    """The SSRF guard's rules that need no DNS (scheme, credentials, host rules, IP
    literals: :meth:`~webresearch.net.guard.SSRFGuard.check_url`) for ``arguments["url"]``
    of a :data:`_GUARDED_URL_TOOLS` call.

    Raises:
        BlockedAddress, InvalidArguments: what the tool itself would raise for the URL.
    """
    url = arguments.get("url")
    if name in _GUARDED_URL_TOOLS and isinstance(url, str):
        services.guard.check_url(url)


async def _ask(approver: Approver, request: ApprovalRequest, timeout_s: float) -> tuple[bool, str]:
    """The approver's decision on ``request`` and, for a denial the approver did not give
    itself, why. Only the boolean ``True`` approves (a truthy ``"no"`` must not, as an MCP
    answer must be accept + true); a plain function's bool is used as it is; an awaitable
    answer is awaited at most ``timeout_s`` seconds, then cancelled and left behind (never
    awaited: :func:`asyncio.wait_for` waited for an approver that swallows its cancellation,
    so the call hung); an approver that raises — its own ``CancelledError`` included —
    denies."""
    try:
        answer = approver(request)
        if inspect.isawaitable(answer):
            pending = asyncio.ensure_future(answer)
            try:
                done, _ = await asyncio.wait({pending}, timeout=timeout_s)
            except asyncio.CancelledError:  # the call itself is cancelled
                pending.cancel()
                raise
            if not done:
                pending.cancel()
                log.warning("the approver of %s did not answer in %g s", request.tool, timeout_s)
                return False, f"no answer within {timeout_s:g} s"
            if pending.cancelled():
                raise RuntimeError("the approver cancelled itself")
            answer = pending.result()
    except Exception:
        log.exception("approval callback failed")
        return False, "the approver failed"
    if not isinstance(answer, bool):
        log.warning(
            "the approver of %s answered %s, not a bool: denied",
            request.tool,
            type(answer).__name__,
        )
        return False, "the approver gave no yes/no answer"
    return answer, ""


def _replayed(result: ToolResult) -> ToolResult:
    return ToolResult(result.text, result.images, {**result.meta, "replayed": True}, result.error)


def _outcome(result: ToolResult) -> str:
    """``ok``, ``refused`` (a policy of ours said no) or ``error``."""
    error = result.error
    return "ok" if error is None else ("refused" if isinstance(error, Refusal) else "error")
