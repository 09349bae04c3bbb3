"""ddgs: the keyless metasearch library (PyPI ``ddgs``), the embedded default provider.

``DDGS(timeout=…).text(query, region=, safesearch=, timelimit=, max_results=, backend="auto")``
is blocking, so it runs in a worker thread under the search deadline. It returns
``[{"title", "href", "body"}]``; it raises ``DDGSException("No results found.")`` when every
engine answered with nothing (a real empty answer) and ``DDGSException(<last engine error>)``
/ ``TimeoutException`` when the engines failed (an error, never "no results").

The library is imported lazily, here only; a missing package makes the provider unavailable
(:func:`is_installed`, which tests monkeypatch to simulate a machine without it). Tests inject
a client object with the same ``text`` method instead of the real library (no network).
"""

from __future__ import annotations

import asyncio
import importlib
import importlib.util
from collections.abc import Callable
from typing import Any, ClassVar, Protocol

from ..config import ProviderOptions, Settings
from ..config.codes import language_tag
from ..errors import (
    ConfigurationError,
    SearchError,
    SearchNetworkError,
    SearchRateError,
    SearchTimeout,
    SearchUpstreamError,
)
from ..runtime.waiting import wait_within
from .base import Capability, NoOptions, SearchOptions, SearchResponse, SearchResult
from .parsing import items, text

__all__ = [
    "DDGSClient",
    "DdgsProvider",
    "ddgs_errors",
    "is_installed",
    "region_for",
    "translate_error",
]

#: ddgs's message when every engine answered with no results (ddgs/ddgs.py ``_search_sync``).
NO_RESULTS_MESSAGE = "No results found."
_SAFESEARCH = {"off": "off", "moderate": "moderate", "strict": "on"}
_TIMELIMIT = {"day": "d", "week": "w", "month": "m", "year": "y"}
#: DuckDuckGo region codes (country-language), from DuckDuckGo's region list, which ddgs
#: passes on to its engines. Countries that differ from ISO 3166: uk (GB), jp, kr.
_REGIONS = [
    "ar-es",
    "au-en",
    "at-de",
    "be-fr",
    "be-nl",
    "br-pt",
    "bg-bg",
    "ca-en",
    "ca-fr",
    "cl-es",
    "cn-zh",
    "co-es",
    "hr-hr",
    "cz-cs",
    "dk-da",
    "ee-et",
    "fi-fi",
    "fr-fr",
    "de-de",
    "gr-el",
    "hk-tzh",
    "hu-hu",
    "in-en",
    "id-id",
    "id-en",
    "ie-en",
    "il-he",
    "it-it",
    "jp-jp",
    "kr-kr",
    "lv-lv",
    "lt-lt",
    "my-ms",
    "my-en",
    "mx-es",
    "nl-nl",
    "nz-en",
    "no-no",
    "pe-es",
    "ph-en",
    "ph-tl",
    "pl-pl",
    "pt-pt",
    "ro-ro",
    "ru-ru",
    "sg-en",
    "sk-sk",
    "sl-sl",
    "za-en",
    "es-es",
    "se-sv",
    "ch-de",
    "ch-fr",
    "ch-it",
    "tw-tzh",
    "th-th",
    "tr-tr",
    "ua-uk",
    "uk-en",
    "us-en",
    "ve-es",
    "vn-vi",
]
_COUNTRY_ALIASES = {"gb": "uk", "ja": "jp", "ko": "kr"}
#: A language alone: its main region where it is not the language's own country code.
_LANGUAGE_REGIONS = {"en": "us-en", "es": "es-es", "pt": "br-pt", "ja": "jp-jp", "ko": "kr-kr"}
_NETWORK_WORDS = ("connect", "dns", "resolve", "unreachable", "network", "sending request")


class DDGSClient(Protocol):
    """The part of ``ddgs.DDGS`` this provider uses (tests pass a fake with this method)."""

    def text(self, query: str, **kwargs: Any) -> list[dict[str, Any]]:
        """Blocking text search."""
        ...


def is_installed() -> bool:
    """Whether the ``ddgs`` package can be imported (without importing it)."""
    try:
        return importlib.util.find_spec("ddgs") is not None
    except (ImportError, ValueError):  # a finder that refuses it, a broken installation
        return False


def _tag_parts(language: str) -> tuple[str, str | None, str | None]:
    """A tag's language (lower case), script and region; a value that is no tag (a caller
    that built :class:`SearchOptions` itself) is the language, lower-cased."""
    try:
        tag = language_tag(language)
    except ValueError:
        return language.lower(), None, None
    return tag.language, tag.script, tag.region


def region_for(language: str | None, country: str | None) -> str:
    """The ddgs region (``us-en``) closest to a language tag and a country code.

    Both given and listed → that region; a country → its first region; a language → the first
    region speaking it; nothing (or nothing listed) → ``us-en``, ddgs's default.
    """
    lang, script, own_region = _tag_parts(language or "")
    # the tag's own two-letter region stands in for a country not given (pt-BR → br-pt)
    country = country or (own_region if own_region and own_region.isalpha() else None)
    if (lang, script) == ("zh", "Hant"):
        lang = "tzh"  # DuckDuckGo's code of Traditional Chinese (hk-tzh, tw-tzh)
    ctry = _COUNTRY_ALIASES.get((country or "").lower(), (country or "").lower())
    if ctry and lang and f"{ctry}-{lang}" in _REGIONS:
        return f"{ctry}-{lang}"
    if ctry:
        for region in _REGIONS:
            if region.startswith(f"{ctry}-"):
                return region
    if lang in _LANGUAGE_REGIONS:
        return _LANGUAGE_REGIONS[lang]
    if lang:
        for region in _REGIONS:
            if region.endswith(f"-{lang}") and region.split("-")[0] == lang:
                return region
        for region in _REGIONS:
            if region.endswith(f"-{lang}"):
                return region
    return "us-en"


def ddgs_errors() -> tuple[tuple[type[Exception], type[SearchError]], ...]:
    """ddgs exception → our class, most specific first (imports the optional library).

    A test walks every exception class in ``ddgs.exceptions`` and fails when one has no rule.
    """
    exceptions = importlib.import_module("ddgs.exceptions")
    return (
        (exceptions.RatelimitException, SearchRateError),
        (exceptions.TimeoutException, SearchTimeout),
        (exceptions.DDGSException, SearchUpstreamError),
    )


def translate_error(exc: BaseException, service: str) -> SearchError:
    """Our error for an exception raised by ddgs (the empty answer is handled by the caller)."""
    message = str(exc).lower()
    for kind, cls in ddgs_errors():
        if isinstance(exc, kind):
            if cls is SearchUpstreamError and "timed out" in message:
                cls = SearchTimeout
            elif cls is SearchUpstreamError and any(w in message for w in _NETWORK_WORDS):
                cls = SearchNetworkError
            what = {
                SearchRateError: "is being rate-limited by its engines",
                SearchTimeout: "did not get an answer in time",
                SearchNetworkError: "could not reach its engines",
                SearchUpstreamError: "failed: its engines returned errors",
            }[cls]
            hint = "retry later"
            if cls is SearchNetworkError:  # it asks public engines itself: name the cause
                hint = "check whether this machine can reach the internet (ddgs asks public search engines directly); then retry"
            return cls(f"{service} {what}", hint=hint, request_sent=True)
    return SearchUpstreamError(f"{service} failed unexpectedly", hint="retry later")


class DdgsProvider:
    """Keyless metasearch through the ``ddgs`` library.

    Args:
        timeout_s: deadline of one search (seconds); also given to ddgs.
        client_factory: builds the client (default ``ddgs.DDGS(timeout=…)``); tests inject one.
    """

    id: ClassVar[str] = "ddgs"
    name: ClassVar[str] = "the ddgs metasearch"
    options_model: ClassVar[type[ProviderOptions]] = NoOptions
    capabilities: ClassVar[frozenset[Capability]] = frozenset(
        {"freshness", "language", "country", "safesearch"}
    )

    def __init__(
        self, *, timeout_s: float = 10.0, client_factory: Callable[[], DDGSClient] | None = None
    ) -> None:
        self.timeout_s = timeout_s
        self._client_factory = client_factory or self._default_client

    def _default_client(self) -> DDGSClient:
        module = importlib.import_module("ddgs")
        client: DDGSClient = module.DDGS(timeout=max(1, round(self.timeout_s)))
        return client

    @classmethod
    def from_settings(cls, settings: Settings) -> DdgsProvider:
        """Build the default keyless provider.

        Raises:
            ConfigurationError: the ``ddgs`` package is not installed.
        """
        if not is_installed():
            raise ConfigurationError(
                "the ddgs provider needs the ddgs package: "
                "pip install -e '.[search]' in the webresearch checkout",
                hint="tell the operator; continue without web search",
            )
        return cls(timeout_s=settings.search_timeout_s)

    async def aclose(self) -> None:
        return None

    def kwargs(self, options: SearchOptions) -> dict[str, Any]:
        """The keyword arguments of ``DDGS.text`` for these options."""
        out: dict[str, Any] = {
            "region": region_for(options.language, options.country),
            "safesearch": _SAFESEARCH[options.safesearch],
            "max_results": options.max_results,
            "backend": "auto",
        }
        if options.freshness:
            out["timelimit"] = _TIMELIMIT[options.freshness]
        return out

    def _run(self, query: str, kwargs: dict[str, Any]) -> list[dict[str, Any]]:
        return self._client_factory().text(query, **kwargs)

    async def search(self, query: str, options: SearchOptions) -> SearchResponse:
        kwargs = self.kwargs(options)
        try:
            rows = await wait_within(asyncio.to_thread(self._run, query, kwargs), self.timeout_s)
        except TimeoutError:
            raise SearchTimeout(
                f"{self.name} did not answer within {self.timeout_s:g} s",
                hint="retry later",
                request_sent=True,
            ) from None
        except Exception as exc:
            if str(exc).strip() == NO_RESULTS_MESSAGE and _is_ddgs_error(exc):
                return SearchResponse()
            raise translate_error(exc, self.name) from None
        if not isinstance(rows, list):
            raise SearchUpstreamError(f"{self.name} returned an unexpected answer")
        results = tuple(
            SearchResult(
                title=text(row.get("title")),
                url=text(row.get("href")) or text(row.get("url")),
                snippet=text(row.get("body")),
            )
            for row in items(rows)
        )
        return SearchResponse(results=results, raw_count=len(rows))


def _is_ddgs_error(exc: BaseException) -> bool:
    return any(isinstance(exc, kind) for kind, _ in ddgs_errors())
