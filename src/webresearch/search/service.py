"""One provider's search end to end: cache → single-flight → admission → provider →
normalisation. Several providers (failover, fusion) are :mod:`.router`'s, each through its
own :class:`SearchService`.

Per call of :meth:`SearchService.search`:

1. **cache** (key: provider, query, max_results, freshness, language, country, safesearch):
   a hit is free — no rate-limit unit, no cost;
2. **single-flight**: concurrent identical searches join the one in flight (followers pay
   nothing and take no limiter unit); only the leader goes on, after checking the cache again
   (a search that just finished has filled it);
3. **admission** (``hooks.admit``, the caller's rate limit and budget check) — its refusals
   belong to the leader alone and are never shared;
4. the **provider** request; ``hooks.sent`` is called once the request may have reached the
   provider (a paid call is charged even if it then fails or the call is cancelled);
   ``hooks.failed`` once when it failed (the leader's: a cool-down starts there);
5. **normalisation**, each result marked with the provider's id; complete answers are
   cached. A degraded answer (some engines did not answer) is returned, never cached: with
   nothing in it, it is still an ok answer ("no results", naming the engines that failed,
   issue 21 item 7) — a provider that knows *no* engine answered raises ``upstream``.

Provider errors are shared with the followers of the flight. Non-retryable provider errors
(a wrong key, a misconfigured SearXNG) are also logged once per process for the operator.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from ..errors import SearchError
from ..redact import Redactor
from ..runtime.cache import Cache
from ..runtime.singleflight import SingleFlight
from .base import SearchOptions, SearchProvider, SearchResponse
from .normalize import normalize_response

__all__ = ["Hooks", "SearchOutcome", "SearchService", "cache_key"]

log = logging.getLogger("webresearch")

Source = Literal["upstream", "cache", "shared"]


async def _nothing() -> None:
    return None


async def _no_event(kind: str, **details: Any) -> None:
    return None


async def _no_failure(exc: SearchError) -> None:
    return None


@dataclass(frozen=True, slots=True)
class Hooks:
    """What the caller does around an upstream request (the Toolkit's context provides these).

    Attributes:
        admit: before the request (leader only): rate limit, budget; raises a refusal.
        sent: after the request may have reached the provider (charge a paid call).
        event: journal an extra event (``search.request`` with provider, outcome, duration).
        failed: after the provider failed (leader only: followers share the error, not this).
    """

    admit: Callable[[], Awaitable[None]] = _nothing
    sent: Callable[[], None] = lambda: None
    event: Callable[..., Awaitable[None]] = _no_event
    failed: Callable[[SearchError], Awaitable[None]] = _no_failure


@dataclass(frozen=True, slots=True)
class SearchOutcome:
    """A search's response and where it came from.

    Attributes:
        response: the normalised response.
        source: ``upstream`` (this call asked the provider), ``cache`` (a fresh cached answer)
            or ``shared`` (joined an identical search in flight).
    """

    response: SearchResponse
    source: Source


def cache_key(provider_id: str, query: str, options: SearchOptions) -> str:
    """The cache and single-flight key of a search (SPEC §1.2 plus the safe-search level)."""
    parts = [
        provider_id,
        " ".join(query.split()),
        options.max_results,
        options.freshness,
        (options.language or "").lower() or None,
        (options.country or "").lower() or None,
        options.safesearch,
    ]
    return "web_search:" + json.dumps(parts, ensure_ascii=False, separators=(",", ":"))


@dataclass
class SearchService:
    """Searches with one provider, a cache and single-flight.

    Attributes:
        provider: the provider.
        cache: the ``web_search`` cache, or ``None`` for none.
        log_errors: log non-retryable provider errors once per process (for the operator).
        redact: applied to every logged text (the Toolkit passes its secret redactor).
    """

    provider: SearchProvider
    cache: Cache | None = None
    log_errors: bool = True
    redact: Callable[[str], str] = field(default_factory=Redactor)
    _flights: SingleFlight[tuple[SearchResponse, Source]] = field(
        default_factory=lambda: SingleFlight(lambda exc: isinstance(exc, SearchError))
    )
    _logged: set[str] = field(default_factory=set)

    async def search(
        self,
        query: str,
        options: SearchOptions,
        hooks: Hooks | None = None,
        *,
        use_cache: bool = True,
    ) -> SearchOutcome:
        """Run one search (see the module docstring for the steps).

        Args:
            query: the query (whitespace is collapsed).
            options: the options.
            hooks: admission, charging and journaling of the upstream request.
            use_cache: False bypasses cache and single-flight (the health check).

        Returns:
            the normalised response and its source.

        Raises:
            RateLimited, BudgetExceeded: from ``hooks.admit``.
            SearchError: the provider failed.
        """
        hooks = hooks or Hooks()
        query = " ".join(query.split())
        if not use_cache or self.cache is None:
            response = await self._upstream(query, options, hooks, None)
            return SearchOutcome(response, "upstream")
        key = cache_key(self.provider.id, query, options)
        hit = await self._cached(key)
        if hit is not None:
            return SearchOutcome(hit, "cache")

        async def lead() -> tuple[SearchResponse, Source]:
            again = await self._cached(key)
            if again is not None:
                return again, "cache"
            return await self._upstream(query, options, hooks, key), "upstream"

        (response, source), shared = await self._flights.do(key, lead)
        return SearchOutcome(response, "shared" if shared else source)

    async def cached(self, query: str, options: SearchOptions) -> SearchResponse | None:
        """The cached answer of this search, or ``None`` (a read only: nothing is asked)."""
        return await self._cached(cache_key(self.provider.id, " ".join(query.split()), options))

    async def _cached(self, key: str) -> SearchResponse | None:
        if self.cache is None:
            return None
        data = await self.cache.get(key)
        return SearchResponse.from_dict(data) if isinstance(data, dict) else None

    async def _upstream(
        self, query: str, options: SearchOptions, hooks: Hooks, key: str | None
    ) -> SearchResponse:
        await hooks.admit()
        started = time.perf_counter()
        provider = self.provider
        try:
            raw = await provider.search(query, options)
        except SearchError as exc:
            if exc.details.get("request_sent", True):
                hooks.sent()
            await hooks.event(
                "search.request",
                provider=provider.id,
                outcome=exc.code,
                duration_ms=_ms(started),
            )
            self._log_once(exc)
            await hooks.failed(exc)
            raise
        except asyncio.CancelledError:
            hooks.sent()  # cut off ("Stop") after the request may have left: still charged
            raise
        hooks.sent()
        response = normalize_response(raw, options.max_results)
        mine = (provider.id,)
        response = replace(
            response, results=tuple(replace(r, providers=mine) for r in response.results)
        )
        await hooks.event(
            "search.request",
            provider=provider.id,
            outcome="ok",
            duration_ms=_ms(started),
            results=len(response.results),
            unresponsive_engines=len(response.unresponsive_engines),
        )
        if key is not None and self.cache is not None and not response.degraded:
            await self.cache.set(key, response.to_dict())
        return response

    def _log_once(self, exc: SearchError) -> None:
        if not self.log_errors or exc.retryable or exc.code in self._logged:
            return
        self._logged.add(exc.code)
        log.warning(
            "web_search provider %s failed (%s): %s%s",
            self.provider.id,
            exc.code,
            self.redact(exc.message),
            f" — {self.redact(exc.hint)}" if exc.hint else "",
            extra={"about_tool": "web_search"},
        )

    async def aclose(self) -> None:
        """Close the provider."""
        await self.provider.aclose()


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 3)
