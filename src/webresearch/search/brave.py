"""Brave Search Web API: ``GET {base}/res/v1/web/search`` with the key in ``X-Subscription-Token``.

Parameters (Brave "Web Search API" reference): ``q``, ``count`` (≤ 20), ``country`` (2-letter
code), ``search_lang`` (e.g. ``en``, ``pt-br``, ``zh-hant``: :func:`brave_language`),
``safesearch`` (off|moderate|strict), ``freshness`` (``pd`` day, ``pw`` week, ``pm`` month,
``py`` year). The answer is ``{"type": "search", "query": {…}, "web": {"results": [{title,
url, description, age, page_age, extra_snippets, …}]}, "infobox": {"results": [{title,
description, long_desc, url}]}, …}``; ``web`` is absent when nothing was found. Errors come as
``{"type": "ErrorResponse", "error": {"status", "code", "detail"}}``; 429 carries
``X-RateLimit-Reset`` with one value per window.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..config import ProviderOptions
from ..config.codes import language_tag
from ..errors import SearchProtocolError
from .base import (
    Capability,
    Infobox,
    KeyOptions,
    SearchOptions,
    SearchResponse,
    SearchResult,
)
from .keyed import KeyedJSONProvider
from .parsing import items, require_list, text

__all__ = ["BraveOptions", "BraveProvider", "brave_language"]

_FRESHNESS = {"day": "pd", "week": "pw", "month": "pm", "year": "py"}
#: Brave's most results per request (API reference: ``count`` maximum 20).
_MAX_COUNT = 20


#: Tags whose region Brave's ``search_lang`` keeps (its list: ``en-gb``, ``pt-br``, ``pt-pt``).
_BRAVE_REGIONAL = frozenset({("en", "GB"), ("pt", "BR"), ("pt", "PT")})
#: Regions whose Chinese is written in Traditional characters.
_TRADITIONAL_REGIONS = frozenset({"TW", "HK", "MO"})


def brave_language(language: str) -> str:
    """Brave's ``search_lang`` for a language tag: lower case, the language alone save the
    regional forms Brave lists (``en-GB`` → ``en-gb``, ``pt-BR`` → ``pt-br``), Chinese as
    ``zh-hans`` / ``zh-hant`` (by script, else by region; ``zh`` → ``zh-hans``) and Japanese
    as ``jp`` (Brave's own code for it). Source: the ``search_lang`` language-code table of
    Brave's Web Search API reference (en, en-gb, pt-br, pt-pt, zh-hans, zh-hant, jp, …;
    session 10 wrote it from that table without a live request). A value that is no tag
    (a caller that built :class:`SearchOptions` itself) is sent lower-cased.
    """
    try:
        tag = language_tag(language)
    except ValueError:
        return language.lower()
    if tag.language == "zh":
        traditional = tag.script == "Hant" or (
            tag.script is None and tag.region in _TRADITIONAL_REGIONS
        )
        return "zh-hant" if traditional else "zh-hans"
    if tag.language == "ja":
        return "jp"
    if (tag.language, tag.region) in _BRAVE_REGIONAL:
        return f"{tag.language}-{(tag.region or '').lower()}"
    return tag.language


class BraveOptions(KeyOptions):
    """Brave's options: ``api_key`` (``WEBRESEARCH_BRAVE_API_KEY``) and ``base_url``
    (the public API origin by default; tests and proxies set another)."""

    base_url: str = "https://api.search.brave.com"


class BraveProvider(KeyedJSONProvider):
    """Brave Search API (paid, keyed).

    Args:
        api_key: the subscription token (never shown anywhere).
        base_url: API origin (default ``https://api.search.brave.com``).
        timeout_s: deadline of one request (seconds).
        user_agent: User-Agent header.
        transport: httpx2 transport seam (tests).
    """

    id: ClassVar[str] = "brave"
    name: ClassVar[str] = "Brave Search API"
    api_paths: ClassVar[tuple[str, ...]] = ("/res/v1/web/search",)
    options_model: ClassVar[type[ProviderOptions]] = BraveOptions
    capabilities: ClassVar[frozenset[Capability]] = frozenset(
        {"freshness", "language", "country", "safesearch", "infoboxes"}
    )

    @staticmethod
    def auth_headers(api_key: str) -> dict[str, str]:
        """The key in ``X-Subscription-Token`` (Brave API reference)."""
        return {"X-Subscription-Token": api_key}

    def params(self, query: str, options: SearchOptions) -> dict[str, Any]:
        """The query parameters of one search."""
        params: dict[str, Any] = {
            "q": query,
            "count": min(options.max_results, _MAX_COUNT),
            "safesearch": options.safesearch,
        }
        if options.freshness:
            params["freshness"] = _FRESHNESS[options.freshness]
        if options.country:
            params["country"] = options.country.upper()
        if options.language:
            params["search_lang"] = brave_language(options.language)
        return params

    async def search(self, query: str, options: SearchOptions) -> SearchResponse:
        data = await self.endpoint.get_json("/res/v1/web/search", self.params(query, options))
        return self.parse(data)

    def parse(self, data: dict[str, Any]) -> SearchResponse:
        """The response of a decoded answer.

        Raises:
            SearchProtocolError: not a Brave search answer (no ``query`` object, or ``web``
                without a ``results`` list).
        """
        if data.get("type") != "search" and not isinstance(data.get("query"), dict):
            raise SearchProtocolError(
                f"{self.name} answered with JSON that is not a search answer",
                hint="continue without web search, or try again later",
                reason="shape",
            )
        web = data.get("web")
        raw: list[Any] = []
        if web is not None:
            if not isinstance(web, dict):
                raise SearchProtocolError(
                    f"{self.name} answered with a malformed 'web' section",
                    hint="continue without web search, or try again later",
                    reason="shape",
                )
            raw = require_list(web, "results", service=self.name)
        results = []
        for item in items(raw):
            snippet = text(item.get("description"))
            if not snippet:
                extra = item.get("extra_snippets")
                snippet = text(extra[0]) if isinstance(extra, list) and extra else ""
            results.append(
                SearchResult(
                    title=text(item.get("title")),
                    url=text(item.get("url")),
                    snippet=snippet,
                    published=text(item.get("page_age")) or text(item.get("age")),
                )
            )
        infoboxes = []
        infobox = data.get("infobox")
        if isinstance(infobox, dict):
            for box in items(infobox.get("results")):
                infoboxes.append(
                    Infobox(
                        title=text(box.get("title")),
                        text=text(box.get("long_desc")) or text(box.get("description")),
                        url=text(box.get("url")),
                    )
                )
        return SearchResponse(
            results=tuple(results), infoboxes=tuple(infoboxes), raw_count=len(raw)
        )
