"""Firecrawl search: ``POST {base}/v2/search`` with ``Authorization: Bearer <key>``.

Request (Firecrawl v2 API reference, "Search"): ``{"query", "limit" (1–100), "sources":
["web"], "tbs": "qdr:d|w|m|y", "country": "US", "timeout": <ms>}``. The answer is
``{"success": true, "data": {"web": [{"url", "title", "description", "position"}], …}}``;
``web`` is absent or empty when nothing was found. Errors are ``{"success": false, "error"}``
with the HTTP status, classified like every provider's (SPEC §1.2: 401/403 ``auth``, 402
``quota``, 429 ``rate`` …).

Price: 2 credits per 10 results (Firecrawl's pricing; the seed notes of issue 8), so a
search of up to 10 results costs 2 credits and one of 11–20 costs 4; a credit's price is the
``credit_price`` option. The same options (``[reader.firecrawl]`` or ``[search.firecrawl]``,
``WEBRESEARCH_FIRECRAWL_*``: key, base URL, proxy headers, credit price) serve the Firecrawl
page reader and screenshot service: :mod:`webresearch.hosted.firecrawl`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, ClassVar

import httpx2

from ..config import ProviderOptions, Settings, option_env_var
from ..errors import SearchProtocolError
from ..hosted.endpoint import bearer
from ..hosted.firecrawl import FIRECRAWL_ID, FirecrawlAccess, FirecrawlOptions
from .base import Capability, SearchOptions, SearchResponse, SearchResult
from .http import JSONEndpoint
from .parsing import items, text

__all__ = ["CREDITS_PER_10_RESULTS", "FirecrawlProvider", "search_credits"]

#: Credits per started block of 10 results (Firecrawl pricing).
CREDITS_PER_10_RESULTS = 2
_TBS = {"day": "qdr:d", "week": "qdr:w", "month": "qdr:m", "year": "qdr:y"}


def search_credits(max_results: int) -> int:
    """Credits of one search asking for ``max_results`` results: 2 per started 10."""
    return CREDITS_PER_10_RESULTS * max(1, math.ceil(max_results / 10))


class FirecrawlProvider:
    """Firecrawl's search API (paid, keyed; a self-hosted instance may be keyless).

    Args:
        api_key: the API key ("" for a keyless self-hosted instance; never shown).
        base_url: API origin (default ``https://api.firecrawl.dev``).
        timeout_s: deadline of one request (seconds).
        user_agent: User-Agent header.
        headers: extra headers for a proxy (values are secrets).
        credit_price: price of one credit in the settings' price units.
        transport: httpx2 transport seam (tests).
    """

    id: ClassVar[str] = FIRECRAWL_ID
    name: ClassVar[str] = "Firecrawl search API"
    options_model: ClassVar[type[ProviderOptions]] = FirecrawlOptions
    capabilities: ClassVar[frozenset[Capability]] = frozenset({"freshness", "country"})

    def __init__(
        self,
        api_key: str,
        base_url: str,
        *,
        timeout_s: float = 10.0,
        user_agent: str = "webresearch",
        headers: Mapping[str, str] | None = None,
        credit_price: float = 0.0,
        transport: httpx2.AsyncBaseTransport | None = None,
    ) -> None:
        self.timeout_s = timeout_s
        self.credit_price = credit_price
        sent = {**(headers or {}), **bearer(api_key)}
        self.endpoint = JSONEndpoint(
            base_url,
            service=self.name,
            timeout_s=timeout_s,
            headers=sent,
            key_env=option_env_var(FIRECRAWL_ID, "api_key"),
            secrets=tuple(v for v in (api_key, *sent.values()) if v),
            user_agent=user_agent,
            transport=transport,
        )

    @classmethod
    def from_settings(cls, settings: Settings) -> FirecrawlProvider:
        """Build from the Firecrawl options (key, base URL, proxy headers, credit price).

        Raises:
            ConfigurationError: the hosted API without a key, or a base URL that is not http(s).
        """
        options = settings.options(FIRECRAWL_ID, FirecrawlOptions)
        access = FirecrawlAccess.of(
            options, name=cls.name, hint="tell the operator; continue without web search"
        )
        return cls(
            access.key,
            access.base_url,
            timeout_s=settings.search_timeout_s,
            user_agent=settings.user_agent,
            headers=access.extra_headers,
            credit_price=options.credit_price,
        )

    async def aclose(self) -> None:
        await self.endpoint.aclose()

    def price(self, options: SearchOptions) -> float:
        """Price of one search (2 credits per started 10 results) in the settings' units."""
        return search_credits(options.max_results) * self.credit_price

    def payload(self, query: str, options: SearchOptions) -> dict[str, Any]:
        """The JSON body of one search."""
        body: dict[str, Any] = {
            "query": query,
            "limit": options.max_results,
            "sources": ["web"],
            # one second less than our deadline, so Firecrawl's own timeout answer arrives
            "timeout": max(1000, int((self.timeout_s - 1) * 1000)),
        }
        if options.freshness:
            body["tbs"] = _TBS[options.freshness]
        if options.country:
            body["country"] = options.country.upper()
        return body

    async def search(self, query: str, options: SearchOptions) -> SearchResponse:
        data = await self.endpoint.post_json("/v2/search", self.payload(query, options))
        return self.parse(data, options)

    def parse(self, data: dict[str, Any], options: SearchOptions) -> SearchResponse:
        """The response of a decoded answer.

        Raises:
            SearchProtocolError: ``success`` is not true, ``data`` is not an object, or
                ``data.web`` is present but not a list (never reported as "no results").
        """
        body = data.get("data")
        if data.get("success") is not True or not isinstance(body, dict):
            raise SearchProtocolError(
                f"{self.name} answered without a successful 'data' object",
                hint="continue without web search, or try again later",
                reason="shape",
            )
        raw = body.get("web", [])
        if not isinstance(raw, list):
            raise SearchProtocolError(
                f"{self.name} answered with a malformed 'web' list",
                hint="continue without web search, or try again later",
                reason="shape",
            )
        results = tuple(
            SearchResult(
                title=text(item.get("title")),
                url=text(item.get("url")),
                snippet=text(item.get("description")),
            )
            for item in items(raw)
        )
        return SearchResponse(
            results=results,
            raw_count=len(raw),
            ignored=tuple(sorted(options.requested() - self.capabilities)),
        )
