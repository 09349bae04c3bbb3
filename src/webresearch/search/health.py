"""The provider health check (SPEC §1.2): one real query, no cache, ok or an error code."""

from __future__ import annotations

import logging

from ..config import Settings
from ..errors import WebResearchError
from ..redact import Redactor
from .base import SearchOptions
from .registry import REGISTRY, create_provider, resolve_provider_id
from .service import SearchService

__all__ = ["HEALTH_QUERY", "check_provider"]

#: The query of the health check (case 22: ``format=json&q=test`` shows a SearXNG without JSON).
HEALTH_QUERY = "test"

log = logging.getLogger("webresearch")


async def check_provider(
    settings: Settings, provider: str | None = None
) -> tuple[bool, str | None]:
    """Run one real search with a provider, bypassing the cache.

    Args:
        settings: the settings (keys, base URLs, timeout).
        provider: a provider id; default: the one web_search would use.

    Returns:
        ``(True, None)`` when the provider answered in its documented format, else
        ``(False, code)`` with the error code (``configuration``, ``auth``, ``protocol`` …).
        A failure is also logged (warning) with its message and fix, for the operator; the
        message never holds a key or the provider's address.
    """
    try:
        redact = Redactor(settings.secret_values(REGISTRY.options_catalog()))
    except WebResearchError as exc:  # an installed provider's option is invalid
        log.warning("search settings: %s", Redactor(settings.secret_values())(exc.message))
        return False, exc.code
    provider_id = provider or resolve_provider_id(settings)
    if provider_id is None:
        log.warning(
            "no search provider: install webresearch[search] for the keyless "
            "default, or set WEBRESEARCH_SEARCH_PROVIDER"
        )
        return False, "configuration"
    try:
        instance = create_provider(settings, provider_id)
    except WebResearchError as exc:
        log.warning("search provider %s: %s", provider_id, redact(exc.message))
        return False, exc.code
    service = SearchService(instance, log_errors=False)
    try:
        options = SearchOptions(max_results=1, safesearch=settings.search_safesearch)
        await service.search(HEALTH_QUERY, options, use_cache=False)
    except WebResearchError as exc:
        log.warning(
            "search provider %s failed its health check (%s): %s%s",
            provider_id,
            exc.code,
            redact(exc.message),
            f" — {redact(exc.hint)}" if exc.hint else "",
        )
        return False, exc.code
    finally:
        await service.aclose()
    return True, None
