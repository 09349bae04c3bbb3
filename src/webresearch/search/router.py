"""Several providers behind one search: failover in the operator's order, or fusion (issue 18 §2).

Each provider is searched through its own :class:`~.service.SearchService` (its cache,
single-flight, admission — rate limit and budget are the caller's per provider —, charging
and normalisation), so a provider's answer is cached and shared exactly as when it is alone.

**Failover** (``search_providers = searxng, ddgs``): the providers are asked one after the
other until one answers. One that fails with ``auth``, ``quota``, ``rate``, ``upstream``,
``network``, ``timeout`` or ``protocol`` (a provider answering in no known format is as
down as one answering 502), or that our own limit or the run's budget refuses, hands over
to the next in the same call; a ``bad_request`` (the query or its options are wrong) is
the model's to fix and is raised at once. A provider whose answer is empty *and* degraded
(some engines did not answer) hands over too; when nothing better comes, that answer is
returned ("no results", naming the engines — an ok result, issue 21 item 7).

**Fusion** (``search_fusion = "rrf"``): every provider is asked at once and the answers are
merged by reciprocal rank fusion (:mod:`.fusion`); providers that fail are named, the others
answer. Only when none answers is the call an error.

**Cool-downs** (two or more providers): a provider that failed with one of the failover
codes is skipped — unless its cached answer serves the call — by every call — of every process sharing the state backend — for
``Retry-After`` seconds when the provider said (a 429's or a 503's, parsed once in
:mod:`webresearch.net.http_status`), else ``cooldown_s``, at most ``cooldown_max_s``. Only
the request's leader starts it (followers of a flight share the error, not the write).
When every provider is cooling down, the call fails at once with the first provider's
code and the seconds left, without sending anything. With one provider there is nowhere
to fail over to: its errors reach the caller as they are and nothing cools down.

When no provider answers, the error is the first provider's (its code, its hint), its
message followed by what happened to each of the others.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from ..errors import (
    BudgetExceeded,
    RateLimited,
    SearchAuthError,
    SearchError,
    SearchNetworkError,
    SearchProtocolError,
    SearchQuotaError,
    SearchRateError,
    SearchTimeout,
    SearchUpstreamError,
    WebResearchError,
)
from ..runtime.cooldowns import CooldownStore
from ..types import JSONObject
from .base import SearchOptions, SearchProvider, SearchResponse
from .fusion import fuse
from .service import Hooks, SearchOutcome, SearchService, Source

__all__ = ["FAILOVER_CODES", "Attempt", "HooksFor", "RoutedOutcome", "SearchRouter", "cooldown_key"]

#: The error codes after which the next provider answers (issue 18 §2, plus ``protocol``).
FAILOVER_CODES = frozenset({"auth", "quota", "rate", "upstream", "network", "timeout", "protocol"})
_CLASSES: dict[str, type[SearchError]] = {
    "auth": SearchAuthError,
    "quota": SearchQuotaError,
    "rate": SearchRateError,
    "upstream": SearchUpstreamError,
    "network": SearchNetworkError,
    "timeout": SearchTimeout,
    "protocol": SearchProtocolError,
}

#: What happened to a provider that did not answer: it failed, our limit or the run's budget
#: refused it, it was cooling down, or its answer was empty while some engines failed.
AttemptOutcome = Literal["failed", "refused", "cooling", "empty"]
#: The caller's admission, charging and journaling for one provider's request.
HooksFor = Callable[[SearchProvider], Hooks]


def cooldown_key(provider_id: str) -> str:
    """The cool-down store's key of a provider (``web_search:<id>``)."""
    return f"web_search:{provider_id}"


@dataclass(frozen=True, slots=True)
class Attempt:
    """A provider that did not answer this call, and why.

    Attributes:
        provider: its id.
        name: how messages name it.
        outcome: see :data:`AttemptOutcome`.
        code: the error code (``upstream``, ``rate_limited`` …; ``no_results`` for empty).
        reason: a short, model-safe text (the error's message).
        retry_after_s: seconds until it may answer again, when known.
        error: the error, when there was one (``empty`` has none).
    """

    provider: str
    name: str
    outcome: AttemptOutcome
    code: str
    reason: str
    retry_after_s: float | None = None
    error: WebResearchError | None = None

    def to_json(self) -> JSONObject:
        """For metadata and journal events."""
        out: JSONObject = {"provider": self.provider, "outcome": self.outcome, "code": self.code}
        if self.retry_after_s is not None:
            out["retry_after"] = round(self.retry_after_s, 3)
        out["reason"] = self.reason
        return out


@dataclass(frozen=True, slots=True)
class RoutedOutcome:
    """What one search through the router returned.

    Attributes:
        response: the normalised (and, with fusion, fused) response.
        answered: the providers whose answers it holds, in the operator's order.
        sources: where each of those answers came from (``upstream``, ``cache``, ``shared``).
        attempts: the providers that did not answer, in the operator's order, and why.
        fused: whether the response is a fusion of the answers.
    """

    response: SearchResponse
    answered: tuple[SearchProvider, ...]
    sources: tuple[Source, ...]
    attempts: tuple[Attempt, ...] = ()
    fused: bool = False


@dataclass
class SearchRouter:
    """Failover or fusion over one :class:`SearchService` per provider.

    Attributes:
        services: the providers' services, in the operator's order (at least one).
        fusion: ask every provider at once and fuse (RRF) instead of failing over.
        cooldowns: where cool-downs are shared, or ``None`` for none (one provider).
        cooldown_s: a failed provider's cool-down when it sent no Retry-After (seconds).
        cooldown_max_s: the longest cool-down a Retry-After may ask for (seconds).
    """

    services: tuple[SearchService, ...]
    fusion: bool = False
    cooldowns: CooldownStore | None = None
    cooldown_s: float = 60.0
    cooldown_max_s: float = 900.0

    @property
    def providers(self) -> tuple[SearchProvider, ...]:
        """The providers, in the operator's order."""
        return tuple(service.provider for service in self.services)

    async def search(
        self, query: str, options: SearchOptions, hooks_for: HooksFor
    ) -> RoutedOutcome:
        """Search with failover or fusion (see the module docstring).

        Args:
            query: the query.
            options: the options (the same for every provider).
            hooks_for: the caller's hooks for a provider's request.

        Raises:
            SearchError, RateLimited, BudgetExceeded: no provider answered (the first
                provider's error, naming what happened to the others), or a
                ``bad_request`` in failover.
            StorageError: the limiter's backend failed (limits fail closed).
        """
        if self.fusion:
            return await self._fused(query, options, hooks_for)
        attempts: list[Attempt] = []
        fallback: tuple[SearchProvider, SearchOutcome] | None = None
        last = len(self.services) - 1
        for index, service in enumerate(self.services):
            got = await self._ask(service, query, options, hooks_for)
            if isinstance(got, Attempt):
                attempts.append(got)
                continue
            response = got.response
            if response.empty and response.degraded and index < last:
                fallback = fallback or (service.provider, got)
                attempts.append(_empty(service.provider, response))
                continue
            return RoutedOutcome(response, (service.provider,), (got.source,), tuple(attempts))
        if fallback is not None:
            provider, outcome = fallback
            others = tuple(a for a in attempts if a.provider != provider.id)
            return RoutedOutcome(outcome.response, (provider,), (outcome.source,), others)
        raise _nobody_answered(attempts)

    async def _fused(
        self, query: str, options: SearchOptions, hooks_for: HooksFor
    ) -> RoutedOutcome:
        got = await asyncio.gather(
            *(self._ask(s, query, options, hooks_for) for s in self.services),
            return_exceptions=True,
        )
        for item in got:
            if isinstance(item, BaseException):
                raise item
        answered = [
            (service.provider, item)
            for service, item in zip(self.services, got, strict=True)
            if isinstance(item, SearchOutcome)
        ]
        attempts = tuple(item for item in got if isinstance(item, Attempt))
        if not answered:
            raise _nobody_answered(list(attempts))
        response = fuse([(p.id, o.response) for p, o in answered], options.max_results)
        return RoutedOutcome(
            response,
            tuple(p for p, _ in answered),
            tuple(o.source for _, o in answered),
            attempts,
            fused=True,
        )

    async def _ask(
        self, service: SearchService, query: str, options: SearchOptions, hooks_for: HooksFor
    ) -> SearchOutcome | Attempt:
        """One provider's answer, or why it gave none (errors it must not absorb propagate)."""
        provider = service.provider
        if self.cooldowns is not None:
            hit = await service.cached(query, options)  # a fresh answer needs no provider
            if hit is not None:
                return SearchOutcome(hit, "cache")
            cooling = await self.cooldowns.get(cooldown_key(provider.id))
            if cooling is not None:
                return _cooling(provider, cooling.code, cooling.reason, cooling.remaining_s)
        hooks = hooks_for(provider)

        async def failed(exc: SearchError) -> None:
            await self._cool_down(provider, exc, hooks)

        try:
            return await service.search(query, options, dataclasses.replace(hooks, failed=failed))
        except (RateLimited, BudgetExceeded) as exc:
            wait = exc.retry_after if isinstance(exc, RateLimited) else None
            return Attempt(provider.id, provider.name, "refused", exc.code, exc.message, wait, exc)
        except SearchError as exc:
            if exc.code not in FAILOVER_CODES and not self.fusion:
                raise
            wait = _retry_after(exc)
            return Attempt(provider.id, provider.name, "failed", exc.code, exc.message, wait, exc)

    async def _cool_down(self, provider: SearchProvider, exc: SearchError, hooks: Hooks) -> None:
        """Start the provider's cool-down after its failure (the flight's leader only)."""
        if self.cooldowns is None or exc.code not in FAILOVER_CODES:
            return
        wait = _retry_after(exc)
        seconds = min(self.cooldown_max_s, max(1.0, wait)) if wait else self.cooldown_s
        await self.cooldowns.start(cooldown_key(provider.id), seconds, exc.code, exc.message)
        await hooks.event(
            "search.cooldown", provider=provider.id, code=exc.code, seconds=round(seconds, 3)
        )


def _retry_after(exc: SearchError) -> float | None:
    wait = exc.details.get("retry_after")
    return float(wait) if isinstance(wait, (int, float)) and wait >= 0 else None


def _cooling(provider: SearchProvider, code: str, reason: str, left_s: float) -> Attempt:
    seconds = max(1, round(left_s + 0.499))
    message = f"{provider.name} is cooling down for {seconds} s after: {reason or code}"
    cls = _CLASSES.get(code, SearchUpstreamError)
    error = (
        SearchRateError(message, retry_after=float(seconds))
        if cls is SearchRateError
        else cls(message, hint=f"retry after {seconds} s", retry_after=float(seconds))
    )
    return Attempt(provider.id, provider.name, "cooling", code, message, left_s, error)


def _empty(provider: SearchProvider, response: SearchResponse) -> Attempt:
    engines = ", ".join(f.engine for f in response.unresponsive_engines[:8])
    reason = f"{provider.name} found nothing and some of its engines did not answer ({engines})"
    return Attempt(provider.id, provider.name, "empty", "no_results", reason)


def _nobody_answered(attempts: list[Attempt]) -> WebResearchError:
    """The first provider's error, its message followed by what happened to the others."""
    first = next(a for a in attempts if a.error is not None)
    error = first.error
    assert error is not None
    if len(attempts) == 1:
        return error
    others = "; ".join(f"{a.reason} [{a.code}]" for a in attempts if a is not first)
    cls = type(error)
    combined = cls.__new__(cls)
    combined.__dict__.update(error.__dict__)
    combined.message = f"{error.message}; then {others}"
    combined.args = (combined.message,)
    combined.details = {**error.details, "attempts": [a.to_json() for a in attempts]}
    return combined
