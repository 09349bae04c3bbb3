"""The provider health check (SPEC §1.2): one real query per provider, no cache, no
cool-down; per provider: ok or the error code, the number of results and the latency."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

from ..config import Settings
from ..errors import WebResearchError
from ..redact import Redactor
from .base import SearchOptions
from .registry import REGISTRY, create_provider, resolve_provider_ids
from .service import SearchService

__all__ = ["HEALTH_QUERY", "ProviderCheck", "check_provider", "check_search"]

#: The default query of the health check (case 22: ``format=json&q=test`` shows a SearXNG
#: without JSON).
HEALTH_QUERY = "test"

log = logging.getLogger("webresearch")


@dataclass(frozen=True, slots=True)
class ProviderCheck:
    """One provider's health.

    Attributes:
        provider: the provider's id ("" when no provider is configured at all).
        ok: it answered in its documented format.
        code: the error code when not ok (``configuration``, ``auth``, ``protocol`` …).
        results: results it returned (after normalisation).
        latency_ms: how long the search took (milliseconds; 0 when it was never sent).
    """

    provider: str
    ok: bool
    code: str | None = None
    results: int = 0
    latency_ms: float = 0.0


async def check_search(
    settings: Settings, providers: tuple[str, ...] | None = None, query: str | None = None
) -> list[ProviderCheck]:
    """Run one real search with each provider, one after the other, bypassing the cache.

    Args:
        settings: the settings (keys, base URLs, timeout, the operator's language, country
            and ``max_results`` ceiling).
        providers: provider ids; default: the ones web_search would use, in order.
        query: the query; default :data:`HEALTH_QUERY`.

    Returns:
        one :class:`ProviderCheck` per provider, in order (one with ``provider=""`` and code
        ``configuration`` when no provider is configured). A failure is also logged
        (warning) with its message and fix, for the operator; no message holds a key or a
        provider's address.
    """
    try:
        redact = Redactor(settings.secret_values(REGISTRY.options_catalog()))
    except WebResearchError as exc:  # an installed provider's option is invalid
        log.warning("search settings: %s", Redactor(settings.secret_values())(exc.message))
        return [ProviderCheck("", False, exc.code)]
    ids = providers or resolve_provider_ids(settings)
    if not ids:
        log.warning(
            "no search provider: install the search extra for the keyless default (pip install "
            "-e '.[search]' in the webresearch checkout), or set WEBRESEARCH_SEARCH_PROVIDER"
        )
        return [ProviderCheck("", False, "configuration")]
    options = SearchOptions(
        max_results=min(8, settings.search_max_results or 8),
        language=settings.search_language,
        country=settings.search_country,
        safesearch=settings.search_safesearch,
    )
    return [await _check(settings, pid, query or HEALTH_QUERY, options, redact) for pid in ids]


async def _check(
    settings: Settings, provider_id: str, query: str, options: SearchOptions, redact: Redactor
) -> ProviderCheck:
    try:
        instance = create_provider(settings, provider_id)
    except WebResearchError as exc:
        log.warning("search provider %s: %s", provider_id, redact(exc.message))
        return ProviderCheck(provider_id, False, exc.code)
    service = SearchService(instance, log_errors=False)
    started = time.perf_counter()
    try:
        outcome = await service.search(query, options, use_cache=False)
    except WebResearchError as exc:
        log.warning(
            "search provider %s failed its health check (%s): %s%s",
            provider_id,
            exc.code,
            redact(exc.message),
            f" — {redact(exc.hint)}" if exc.hint else "",
        )
        return ProviderCheck(provider_id, False, exc.code, 0, _ms(started))
    finally:
        await service.aclose()
    return ProviderCheck(provider_id, True, None, len(outcome.response.results), _ms(started))


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 1)


async def check_provider(
    settings: Settings, provider: str | None = None
) -> tuple[bool, str | None]:
    """Run one real search with a provider (default: each one web_search would use).

    Returns:
        ``(True, None)`` when every provider answered in its documented format, else
        ``(False, code)`` with the first failing provider's error code. See
        :func:`check_search` for the details of each provider.
    """
    checks = await check_search(settings, (provider,) if provider else None)
    failed = next((c for c in checks if not c.ok), None)
    return (True, None) if failed is None else (False, failed.code)
