"""Tavily Search API: ``POST {base}/search`` with ``Authorization: Bearer <key>``.

Request (Tavily API reference): ``{"query", "max_results" (0–20), "search_depth": "basic",
"topic": "general", "include_answer": true, "time_range": day|week|month|year}``. The answer
is ``{"query", "answer", "results": [{title, url, content, score, raw_content,
published_date}], "images", "response_time", "request_id"}``. Usage limits answer 432 (plan)
or 433 (pay-as-you-go), classified as ``quota``. Its ``country`` wants full country names
and it has no language parameter, so both are reported as ignored.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..config import ProviderOptions
from .base import Capability, KeyOptions, SearchOptions, SearchResponse, SearchResult
from .keyed import KeyedJSONProvider
from .parsing import items, require_list, text

__all__ = ["TavilyOptions", "TavilyProvider"]


class TavilyOptions(KeyOptions):
    """Tavily's options: ``api_key`` (``WEBRESEARCH_TAVILY_API_KEY``) and ``base_url``
    (the public API origin by default; tests and proxies set another)."""

    base_url: str = "https://api.tavily.com"


class TavilyProvider(KeyedJSONProvider):
    """Tavily (paid, keyed; answers included).

    Args:
        api_key: the API key (never shown anywhere).
        base_url: API origin (default ``https://api.tavily.com``).
        timeout_s: deadline of one request (seconds).
        user_agent: User-Agent header.
        transport: httpx2 transport seam (tests).
    """

    id: ClassVar[str] = "tavily"
    name: ClassVar[str] = "Tavily API"
    api_paths: ClassVar[tuple[str, ...]] = ("/search",)
    options_model: ClassVar[type[ProviderOptions]] = TavilyOptions
    capabilities: ClassVar[frozenset[Capability]] = frozenset({"freshness", "answers"})

    @staticmethod
    def auth_headers(api_key: str) -> dict[str, str]:
        """The key as a bearer token (Tavily API reference)."""
        return {"Authorization": f"Bearer {api_key}"}

    def payload(self, query: str, options: SearchOptions) -> dict[str, Any]:
        """The JSON body of one search."""
        body: dict[str, Any] = {
            "query": query,
            "max_results": options.max_results,
            "search_depth": "basic",
            "topic": "general",
            "include_answer": True,
        }
        if options.freshness:
            body["time_range"] = options.freshness
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
        results = tuple(
            SearchResult(
                title=text(item.get("title")),
                url=text(item.get("url")),
                snippet=text(item.get("content")),
                published=text(item.get("published_date")),
            )
            for item in items(raw)
        )
        answer = text(data.get("answer"))
        return SearchResponse(
            results=results,
            answers=(answer,) if answer else (),
            raw_count=len(raw),
            ignored=tuple(sorted(options.requested() - self.capabilities)),
        )
