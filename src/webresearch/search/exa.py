"""Exa search API: ``POST {base}/search`` with the key in ``x-api-key``.

Request (Exa API reference): ``{"query", "numResults", "type": "auto", "contents":
{"highlights": true}, "startPublishedDate": ISO 8601, "userLocation": "US",
"moderation": true}``. The answer is ``{"requestId", "resolvedSearchType", "results":
[{id, url, title, publishedDate, author, score, highlights: [str], text, summary}],
"costDollars": {…}}``. Freshness becomes a start publication date computed from the injected
clock; ``country`` is the user location; there is no language parameter.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any, ClassVar

import httpx2

from ..config import ProviderOptions
from .base import Capability, KeyOptions, SearchOptions, SearchResponse, SearchResult
from .keyed import KeyedJSONProvider
from .parsing import items, require_list, text

__all__ = ["ExaOptions", "ExaProvider"]

_FRESHNESS = {
    "day": timedelta(days=1),
    "week": timedelta(days=7),
    "month": timedelta(days=31),
    "year": timedelta(days=366),
}


class ExaOptions(KeyOptions):
    """Exa's options: ``api_key`` (``WEBRESEARCH_EXA_API_KEY``) and ``base_url``
    (the public API origin by default; tests and proxies set another)."""

    base_url: str = "https://api.exa.ai"


class ExaProvider(KeyedJSONProvider):
    """Exa (paid, keyed).

    Args:
        api_key: the API key (never shown anywhere).
        base_url: API origin (default ``https://api.exa.ai``).
        timeout_s: deadline of one request (seconds).
        user_agent: User-Agent header.
        transport: httpx2 transport seam (tests).
        now: wall-clock time (freshness dates).
    """

    id: ClassVar[str] = "exa"
    name: ClassVar[str] = "Exa API"
    api_paths: ClassVar[tuple[str, ...]] = ("/search",)
    options_model: ClassVar[type[ProviderOptions]] = ExaOptions
    capabilities: ClassVar[frozenset[Capability]] = frozenset(
        {"freshness", "country", "safesearch"}
    )

    def __init__(
        self,
        api_key: str,
        base_url: str,
        *,
        timeout_s: float = 10.0,
        user_agent: str = "webresearch",
        transport: httpx2.AsyncBaseTransport | None = None,
        now: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        super().__init__(
            api_key, base_url, timeout_s=timeout_s, user_agent=user_agent, transport=transport
        )
        self._now = now

    @staticmethod
    def auth_headers(api_key: str) -> dict[str, str]:
        """The key in ``x-api-key`` (Exa API reference)."""
        return {"x-api-key": api_key}

    def payload(self, query: str, options: SearchOptions) -> dict[str, Any]:
        """The JSON body of one search."""
        body: dict[str, Any] = {
            "query": query,
            "numResults": options.max_results,
            "type": "auto",
            "contents": {"highlights": True},
        }
        if options.freshness:
            start = self._now().astimezone(UTC) - _FRESHNESS[options.freshness]
            body["startPublishedDate"] = start.strftime("%Y-%m-%dT%H:%M:%S.000Z")
        if options.country:
            body["userLocation"] = options.country.upper()
        if options.safesearch == "strict":
            body["moderation"] = True
        return body

    async def search(self, query: str, options: SearchOptions) -> SearchResponse:
        data = await self.endpoint.post_json("/search", self.payload(query, options))
        return self.parse(data, options)

    def parse(self, data: dict[str, Any], options: SearchOptions) -> SearchResponse:
        """The response of a decoded answer.

        Raises:
            SearchProtocolError: no ``results`` list.
        """
        raw = require_list(data, "results", service=self.name)
        results = []
        for item in items(raw):
            highlights = item.get("highlights")
            snippet = (
                " … ".join(text(h) for h in highlights if text(h))
                if isinstance(highlights, list)
                else ""
            )
            snippet = snippet or text(item.get("summary")) or text(item.get("text"))
            results.append(
                SearchResult(
                    title=text(item.get("title")),
                    url=text(item.get("url")),
                    snippet=snippet,
                    published=text(item.get("publishedDate")),
                )
            )
        return SearchResponse(
            results=tuple(results),
            raw_count=len(raw),
            ignored=tuple(sorted(options.requested() - self.capabilities)),
        )
