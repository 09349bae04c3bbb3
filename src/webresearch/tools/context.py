"""The context of one call: what a running tool may ask of the runtime (fetch scope, rate
limits, budget and the shared spending limit, journal events, progress), and the run's
spending ledger."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from .. import progress
from ..errors import BudgetExceeded, RateLimited, ScopeDenied, StorageError
from ..runtime.journal import JournalEvent
from ..runtime.run import RunContext
from ..runtime.scope import scope_key, user_links
from ..runtime.spending import SpendingRule
from ..types import JSONValue
from .base import RateLimit
from .redaction import redact_json
from .services import Services

__all__ = ["SPENDING_KEY", "Ledger", "ToolCall"]

log = logging.getLogger("webresearch")

#: The state backend's key of the shared spending limit (``spending_limit``).
SPENDING_KEY = "all"


class Ledger:
    """What each run has spent in this process (price units of the settings)."""

    def __init__(self) -> None:
        self._spent: dict[str, float] = {}

    def spent_by(self, run_id: str) -> float:
        """What ``run_id`` has spent so far."""
        return self._spent.get(run_id, 0.0)

    def add(self, run_id: str, cost: float) -> None:
        """Record ``cost`` for ``run_id`` (nothing for zero)."""
        if cost:
            self._spent[run_id] = self.spent_by(run_id) + cost


class ToolCall:
    """The :class:`~webresearch.tools.base.CallContext` of one call.

    Args:
        services: the process-wide services.
        ledger: the runs' spending ledger.
        run: the run.
        tool: the tool's name.
        operation_id: the call's operation id.
        rate_limit: the tool's declared rate limit.
        price: the call's declared price.

    Attributes:
        cost: what the call has spent so far (the closing event's ``cost``).
        costs: what it has spent, by payee (provider or service id).
        counted_view: the call counted one view of the ``user_links`` scope.
        held: what the call holds of the shared spending limit (settled at the end).
        journal_error: the error code of the first event of the running tool the journal
            could not write (``None``: all written); the result then carries it as
            ``meta["journal_error"]``.
    """

    def __init__(
        self,
        services: Services,
        ledger: Ledger,
        *,
        run: RunContext,
        tool: str,
        operation_id: str,
        rate_limit: RateLimit | None = None,
        price: float = 0.0,
    ) -> None:
        self.services = services
        self.ledger = ledger
        self.run = run
        self.tool = tool
        self.operation_id = operation_id
        self.declared_limit = rate_limit
        self.price = price
        self.cost = 0.0
        self.costs: dict[str, float] = {}
        self.counted_view = False
        self.held = 0.0
        self._held_window = 0
        self.journal_error: str | None = None

    async def check_scope(self, url: str) -> None:
        """See :meth:`CallContext.check_scope` (SPEC §1.5)."""
        scope = self.run.fetch_scope
        if scope == "open":
            return
        key = scope_key(url)
        store = self.services.scopes
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
        views = settings.user_link_views
        if views is not None and not await store.add_view(self.run.conversation, views):
            raise ScopeDenied(
                f"the limit of {settings.user_link_views} link views for this conversation is reached",
                hint="continue without opening more links",
                refusal="scope",
            )
        self.counted_view = True

    async def record_search_results(self, urls: Sequence[str]) -> None:
        """See :meth:`CallContext.record_search_results`."""
        await self.services.scopes.set_search_results(self.run.run_id, list(urls))

    async def rate_limit(self, limit: RateLimit | None = None) -> None:
        """See :meth:`CallContext.rate_limit`."""
        limit = limit or self.declared_limit
        rule = limit.rule if limit is not None else None
        if limit is None or rule is None:
            return
        decision = await self.services.limiter.acquire(limit.key, rule)
        if not decision.allowed:
            seconds = max(1, round(decision.retry_after_s + 0.499))
            raise RateLimited(
                f"{limit.key} is limited to {rule.limit} calls per {rule.window_s:g} s; "
                f"retry after {seconds} s",
                retry_after=float(seconds),
                refusal="rate_limit",
            )

    async def reserve(self, cost: float, what: str) -> None:
        """See :meth:`CallContext.reserve`: the run's budget is a check only; the shared
        spending limit (``spending_limit``) is held now, atomically, and settled when the
        call ends (:meth:`settle`)."""
        if cost <= 0:
            return
        budget = self.run.budget
        if budget is not None:
            spent = self.ledger.spent_by(self.run.run_id)
            if spent + self.cost + cost > budget + 1e-12:
                raise BudgetExceeded(
                    f"the run's budget ({budget:g}) does not cover another paid call to {what} "
                    f"(spent {spent + self.cost:g}, this call {cost:g})",
                    hint="finish with what you have",
                    refusal="budget",
                )
        rule = self._spending_rule()
        if rule is None:
            return
        decision = await self.services.state.spending.hold(SPENDING_KEY, cost, rule)
        if not decision.allowed:
            hours = decision.resets_in_s / 3600
            raise BudgetExceeded(
                f"the spending limit ({rule.limit:g} per {_window_words(rule.window_s)}, all "
                f"runs together) does not cover another paid call to {what}; it resets in "
                + (f"{hours:.1f} h" if hours >= 1 else f"{max(1, round(decision.resets_in_s))} s"),
                hint="finish with what you have",
                refusal="spending_limit",
                retry_after=round(decision.resets_in_s, 3),
            )
        self.held += cost
        self._held_window = decision.window

    def _spending_rule(self) -> SpendingRule | None:
        settings = self.services.settings
        if settings.spending_limit is None:
            return None
        return SpendingRule(settings.spending_limit, settings.spending_window_s)

    async def settle(self) -> None:
        """At the end of the call: give back what was held and not spent (the request never
        left), add what was spent beyond the holds. A storage failure is logged: the call
        already ran."""
        rule = self._spending_rule()
        delta = self.cost - self.held
        if rule is None or abs(delta) < 1e-12:
            return
        self.held = self.cost
        try:
            await self.services.state.spending.adjust(SPENDING_KEY, delta, self._held_window, rule)
        except StorageError as exc:
            log.warning("%s: the spending limit was not settled (%s)", self.tool, exc.message)

    def progress(self, message: str) -> None:
        """See :meth:`CallContext.progress`."""
        progress.report(message)

    def spent(self, cost: float, what: str) -> None:
        """See :meth:`CallContext.spent`."""
        if cost > 0:
            self.cost += cost
            self.costs[what] = self.costs.get(what, 0.0) + cost

    async def event(self, kind: str, **details: JSONValue) -> None:
        """See :meth:`CallContext.event` (details redacted).

        A running tool may already have acted (a paid request sent, a page clicked), so a
        journal failure here never fails the call (README: "a journal problem never fails
        a call that already ran"): it is logged and kept in :attr:`journal_error`.
        """
        try:
            await self.record(kind, **details)
        except StorageError as exc:
            log.error("%s: its %s event was not journaled: %s", self.tool, kind, exc.message)
            if self.journal_error is None:
                self.journal_error = exc.code

    async def record(self, kind: str, **details: JSONValue) -> None:
        """Journal an event of this call before the tool runs (details redacted).

        Raises:
            StorageError: the journal could not write it (the call then fails closed).
        """
        shown = redact_json(details, self.services.redact)
        await self.services.journal.append(
            JournalEvent(
                kind=kind,
                run_id=self.run.run_id,
                tool=self.tool,
                operation_id=self.operation_id,
                details=shown if isinstance(shown, dict) else {},
            )
        )


def _window_words(window_s: float) -> str:
    """``86400`` → ``day``, ``3600`` → ``hour``, else ``N s``."""
    return {86400.0: "day", 3600.0: "hour", 60.0: "minute"}.get(window_s, f"{window_s:g} s")
