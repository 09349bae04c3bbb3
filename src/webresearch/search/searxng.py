"""SearXNG (self-hosted metasearch): ``GET {base}/search?format=json&q=…``.

Parameters (SearXNG "Search API" docs): ``q``, ``format=json``, ``pageno`` (1), ``time_range``
(day|week|month|year), ``language`` (``en`` or ``en-US``, :func:`searxng_language`; country
alone is not expressible),
``safesearch`` (0 off, 1 moderate, 2 strict). The answer holds ``results`` (url, title,
content, engine(s), publishedDate), ``answers`` (strings, or objects with ``answer`` in
SearXNG ≥ 2025), ``infoboxes`` (infobox, content, id/urls), ``suggestions`` and
``unresponsive_engines`` (pairs of engine name and reason).

An answer with nothing in it and some ``unresponsive_engines`` is "no results" (an ok answer
naming the engines that failed, issue 21 item 7) unless *no* engine answered: the engines a
default search asks are the enabled engines of the ``general`` category in the instance's
``GET {base}/config`` (with a time range, only those that support one), read only then
and kept :data:`CONFIG_TTL_S`. When every one of them failed, the search is an ``upstream``
error; when ``/config`` cannot be read, the answer stays "no results" with the failed
engines named.

A fresh instance has JSON output switched off: it answers ``format=json`` with **403** (or a
proxy/old instance sends its HTML page). Both are a misconfiguration to fix in SearXNG's
settings.yml (``search.formats`` must list ``json``), never "no results" (case 22; searxng
#3749, open-webui #2797).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, ClassVar

import httpx2
from pydantic import SecretStr

from ..config import ProviderOptions, Settings, option_env_var
from ..config.codes import language_tag
from ..errors import (
    ConfigurationError,
    SearchAuthError,
    SearchError,
    SearchProtocolError,
    SearchUpstreamError,
)
from ..hosted.endpoint import check_base_url
from ..net.http_status import looks_like_html
from .base import (
    Capability,
    EngineFailure,
    Infobox,
    SearchOptions,
    SearchResponse,
    SearchResult,
)
from .http import JSONEndpoint
from .parsing import items, require_list, text

__all__ = [
    "CONFIG_TTL_S",
    "JSON_FORMAT_FIX",
    "SearxngOptions",
    "SearxngProvider",
    "searxng_language",
]

#: The operator's fix for a SearXNG that refuses JSON (SearXNG docs, settings.yml ``search``).
JSON_FORMAT_FIX = (
    "the operator must enable the JSON format: add `json` to `search.formats` in SearXNG's "
    "settings.yml and restart it"
)
_SAFESEARCH = {"off": 0, "moderate": 1, "strict": 2}
#: How long the instance's engine list (``/config``) is kept (seconds).
CONFIG_TTL_S = 600.0


def searxng_language(language: str, country: str | None) -> str:
    """SearXNG's ``language`` for a language tag and a country code.

    SearXNG's search API takes only ``^[a-z]{2,3}(-[a-zA-Z]{2})?$`` (searx/webapp.py
    ``VALID_LANGUAGE_CODE``; session 10 review): the language, then the tag's own two-letter
    region, else the country (``pt-BR`` → ``pt-BR``; ``en`` with ``gb`` → ``en-GB``). A
    script is dropped (``zh-Hans`` → ``zh``) save Traditional Chinese, which SearXNG's
    locales name by region (``zh-Hant`` → ``zh-TW``, or ``zh-HK`` with country ``hk``); a
    UN M.49 area is dropped (``es-419`` → ``es``). A value that is no tag (a caller that
    built :class:`SearchOptions` itself) is sent lower-cased, as before.
    """
    try:
        tag = language_tag(language)
    except ValueError:
        return language.lower()
    region = tag.region if tag.region and tag.region.isalpha() else None
    region = region or (country.upper() if country else None)
    if region is None and (tag.language, tag.script) == ("zh", "Hant"):
        region = "TW"
    return f"{tag.language}-{region}" if region else tag.language


class SearxngOptions(ProviderOptions):
    """SearXNG's options.

    Attributes:
        url: the instance's base URL, e.g. ``http://searxng:8080`` (``WEBRESEARCH_SEARXNG_URL``).
            A secret: its address is internal, kept out of every message and log line.
    """

    url: SecretStr | None = None


class SearxngProvider:
    """A self-hosted SearXNG instance (keyless).

    Args:
        base_url: the instance's base URL (trusted configuration; never shown).
        timeout_s: deadline of one request (seconds).
        user_agent: User-Agent header.
        transport: httpx2 transport seam (tests).
        clock: monotonic seconds (how long the engine list is kept).
    """

    id: ClassVar[str] = "searxng"
    name: ClassVar[str] = "the SearXNG instance"
    options_model: ClassVar[type[ProviderOptions]] = SearxngOptions
    capabilities: ClassVar[frozenset[Capability]] = frozenset(
        {"freshness", "language", "country", "safesearch", "answers", "infoboxes"}
    )

    def __init__(
        self,
        base_url: str,
        *,
        timeout_s: float = 10.0,
        user_agent: str = "webresearch",
        transport: httpx2.AsyncBaseTransport | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._clock = clock
        self._engines: tuple[float, list[dict[str, Any]]] | None = None
        self.endpoint = JSONEndpoint(
            base_url,
            service=self.name,
            timeout_s=timeout_s,
            user_agent=user_agent,
            transport=transport,
        )

    @classmethod
    def from_settings(cls, settings: Settings) -> SearxngProvider:
        """Build from the ``url`` option (``WEBRESEARCH_SEARXNG_URL``).

        Raises:
            ConfigurationError: the URL is not set or not an http(s) URL.
        """
        secret = settings.options(cls.id, SearxngOptions).url
        url = secret.get_secret_value().strip() if secret is not None else ""
        setting = option_env_var(cls.id, "url")
        if not url:
            raise ConfigurationError(
                f"the searxng provider needs an instance: set {setting}",
                hint="tell the operator; continue without web search",
                setting="searxng_url",
            )
        return cls(
            check_base_url(
                url,
                setting,
                api_paths=("/search",),
                example="http://searxng:8080",
                hint="tell the operator; continue without web search",
            ),
            timeout_s=settings.search_timeout_s,
            user_agent=settings.user_agent,
        )

    async def aclose(self) -> None:
        await self.endpoint.aclose()

    def params(self, query: str, options: SearchOptions) -> dict[str, Any]:
        """The query parameters of one search."""
        params: dict[str, Any] = {
            "q": query,
            "format": "json",
            "pageno": 1,
            "safesearch": _SAFESEARCH[options.safesearch],
        }
        if options.freshness:
            params["time_range"] = options.freshness
        if options.language:
            params["language"] = searxng_language(options.language, options.country)
        return params

    async def search(self, query: str, options: SearchOptions) -> SearchResponse:
        answer = await self.endpoint.fetch("GET", "/search", params=self.params(query, options))
        status = answer.status
        if status == 403:
            raise SearchAuthError(
                f"the search backend is misconfigured: {self.name} refuses JSON output (HTTP 403)",
                hint=f"{JSON_FORMAT_FIX}; continue without web search",
                status=403,
                misconfigured=True,
                request_sent=True,
            )
        if 200 <= status < 300 and looks_like_html(answer.content_type, answer.body):
            raise SearchProtocolError(
                f"the search backend is misconfigured: {self.name} answered with an HTML page "
                "instead of JSON",
                hint=f"{JSON_FORMAT_FIX} (and check that no proxy rewrites the request); "
                "continue without web search",
                status=status,
                misconfigured=True,
                request_sent=True,
            )
        data = self.endpoint.interpret(answer)
        response = self.parse(data, options)
        if response.empty and response.degraded:
            asked = await self.engines_asked(options)
            failed = {f.engine.strip().lower() for f in response.unresponsive_engines}
            if asked and asked <= failed:
                names = ", ".join(f.engine for f in response.unresponsive_engines[:8])
                raise SearchUpstreamError(
                    f"{self.name}: none of its engines answered ({names})",
                    hint="retry later",
                    unresponsive_engines=[f.engine for f in response.unresponsive_engines],
                    request_sent=True,
                )
        return response

    async def engines_asked(self, options: SearchOptions) -> frozenset[str] | None:
        """The engines a default search with these options asks (lower-case names), from
        ``GET /config``: enabled, in the ``general`` category, and with a time range only
        those supporting one. ``None`` when the list cannot be read."""
        now = self._clock()
        if self._engines is None or now - self._engines[0] >= CONFIG_TTL_S:
            try:
                data = await self.endpoint.get_json("/config", {})
            except SearchError:
                return None
            self._engines = (now, items(data.get("engines")))
        return (
            frozenset(
                text(engine.get("name")).strip().lower()
                for engine in self._engines[1]
                if engine.get("enabled") is True
                and "general" in (engine.get("categories") or ())
                and (not options.freshness or engine.get("time_range_support") is True)
                and text(engine.get("name")).strip()
            )
            or None
        )

    def parse(self, data: dict[str, Any], options: SearchOptions) -> SearchResponse:
        """The response of a decoded answer.

        Raises:
            SearchProtocolError: no ``results`` list.
        """
        raw = require_list(data, "results", service=self.name)
        results = []
        for item in items(raw):
            engines = item.get("engines")
            engine = (
                ", ".join(text(e) for e in engines if text(e))
                if isinstance(engines, list)
                else text(item.get("engine"))
            )
            results.append(
                SearchResult(
                    title=text(item.get("title")),
                    url=text(item.get("url")),
                    snippet=text(item.get("content")),
                    published=text(item.get("publishedDate")),
                    engine=engine,
                )
            )
        answers = []
        for answer in data.get("answers") or ():
            if isinstance(answer, dict):
                answers.append(text(answer.get("answer")))
            else:
                answers.append(text(answer))
        infoboxes = []
        for box in items(data.get("infoboxes")):
            urls = items(box.get("urls"))
            url = text(box.get("id")) or (text(urls[0].get("url")) if urls else "")
            infoboxes.append(
                Infobox(title=text(box.get("infobox")), text=text(box.get("content")), url=url)
            )
        failures = []
        for entry in data.get("unresponsive_engines") or ():
            if isinstance(entry, (list, tuple)) and entry:
                reason = text(entry[1]) if len(entry) > 1 else ""
                failures.append(EngineFailure(text(entry[0]), reason))
            elif isinstance(entry, str):
                failures.append(EngineFailure(entry))
        # SearXNG expresses a country only as a locale (en-US): alone it cannot be honoured.
        ignored = ("country",) if options.country and not options.language else ()
        return SearchResponse(
            results=tuple(results),
            answers=tuple(answers),
            infoboxes=tuple(infoboxes),
            suggestions=tuple(text(s) for s in data.get("suggestions") or () if text(s)),
            unresponsive_engines=tuple(failures),
            raw_count=len(raw),
            ignored=ignored,
        )
