"""The search provider protocol and the data every provider returns (SPEC §1.2).

A provider is a small class (the shape of simonw/llm's ``KeyModel``):

* class attributes: ``id`` (the ``search_provider`` setting value), ``name`` (how messages
  refer to it: "Brave Search API", "the SearXNG instance" — never its address),
  ``options_model`` (its own options model, a :class:`~webresearch.config.ProviderOptions`:
  ``[search.<id>]`` in the settings file, ``WEBRESEARCH_<ID>_<OPTION>`` in the environment)
  and ``capabilities`` (which :class:`SearchOptions` it honours; the rest are ignored and
  reported as such);
* ``from_settings(settings)``: build it from ``settings.options(cls.id, cls.options_model)``
  and the general search settings, raising :class:`~webresearch.errors.ConfigurationError` when
  required configuration is missing (the "set WEBRESEARCH_…_API_KEY" message lives once, in
  :func:`require_key`);
* one method, ``async search(query, options) -> SearchResponse``, raising only
  :class:`~webresearch.errors.SearchError` subclasses;
* ``aclose()`` to release connections.

Results come back raw; :mod:`webresearch.search.normalize` cleans every provider's output in
one place (tags, entities, secrets in URLs, lengths, schemes, duplicates).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from ..config import HeaderSecret, ProviderOptions, Settings, option_env_var
from ..errors import ConfigurationError

__all__ = [
    "CAPABILITIES",
    "Capability",
    "EngineFailure",
    "Freshness",
    "Infobox",
    "KeyOptions",
    "NoOptions",
    "SafeSearch",
    "SearchOptions",
    "SearchProvider",
    "SearchResponse",
    "SearchResult",
    "require_key",
]

Freshness = Literal["day", "week", "month", "year"]
SafeSearch = Literal["off", "moderate", "strict"]
#: What a provider may honour besides the query and the result count.
Capability = Literal["freshness", "language", "country", "safesearch", "answers", "infoboxes"]
CAPABILITIES: tuple[Capability, ...] = (
    "freshness",
    "language",
    "country",
    "safesearch",
    "answers",
    "infoboxes",
)


class SearchOptions(BaseModel):
    """Options of one search (strict: unknown fields and wrong types are refused).

    Attributes:
        max_results: results wanted, 1–20 (SPEC §1.2; default 8).
        freshness: only results from the last day/week/month/year, or ``None`` for any age.
        language: a language tag such as ``en`` or ``pt-BR`` (web_search checks it and
            keeps its canonical case; each provider converts it to its own form), or ``None``.
        country: ISO 3166-1 alpha-2 code such as ``us`` (lower-cased), or ``None``.
        safesearch: the operator's safe-search level (``search_safesearch`` setting).
    """

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    max_results: int = Field(default=8, ge=1, le=20)
    freshness: Freshness | None = None
    language: str | None = Field(default=None, min_length=1, max_length=16)
    country: str | None = Field(default=None, min_length=1, max_length=16)
    safesearch: SafeSearch = "moderate"

    def requested(self) -> set[Capability]:
        """The optional features this call asks for (to report the ones a provider ignores)."""
        out: set[Capability] = set()
        if self.freshness:
            out.add("freshness")
        if self.language:
            out.add("language")
        if self.country:
            out.add("country")
        return out


@dataclass(frozen=True, slots=True)
class SearchResult:
    """One result. Raw from a provider; normalised by :func:`normalize.normalize_response`.

    Attributes:
        title: page title (plain text after normalisation, ≤ 200 characters).
        url: absolute http(s) URL (secrets redacted after normalisation).
        snippet: text excerpt (plain text after normalisation, ≤ 500 characters).
        published: publication date: ``YYYY-MM-DD`` after normalisation when the provider's
            value is a date (ISO 8601, RFC 2822, "March 5, 2024"), else its text (``2 days
            ago``), or "".
        engine: the engine(s) that found it, for metasearch providers (``google, bing``:
            lower-cased, each once, after normalisation), or "".
        providers: the ids of the providers that returned it (set by the search service:
            one for a single provider, several after fusion).
    """

    title: str
    url: str
    snippet: str = ""
    published: str = ""
    engine: str = ""
    providers: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Infobox:
    """A knowledge panel (SearXNG infobox, Brave infobox).

    Attributes:
        title: its heading.
        text: its description (plain text after normalisation, ≤ 1000 characters).
        url: its source page, or "".
    """

    title: str
    text: str = ""
    url: str = ""


@dataclass(frozen=True, slots=True)
class EngineFailure:
    """An engine of a metasearch provider that did not answer (SearXNG ``unresponsive_engines``).

    Attributes:
        engine: engine name, e.g. ``google``.
        reason: the provider's short reason, e.g. ``timeout`` or ``Suspended: CAPTCHA``.
    """

    engine: str
    reason: str = ""


@dataclass(frozen=True, slots=True)
class SearchResponse:
    """What one search returned.

    Attributes:
        results: the results, best first.
        answers: instant answers (short texts).
        infoboxes: knowledge panels.
        suggestions: alternative queries the provider proposed.
        unresponsive_engines: engines that failed (a degraded answer, never "no results").
        raw_count: results the provider sent before normalisation dropped any.
        ignored: options this provider cannot honour (e.g. ``country`` for Tavily).
        hidden_chars_removed: invisible characters normalisation removed from the texts.
    """

    results: tuple[SearchResult, ...] = ()
    answers: tuple[str, ...] = ()
    infoboxes: tuple[Infobox, ...] = ()
    suggestions: tuple[str, ...] = ()
    unresponsive_engines: tuple[EngineFailure, ...] = ()
    raw_count: int = 0
    ignored: tuple[str, ...] = field(default=())
    hidden_chars_removed: int = 0

    @property
    def degraded(self) -> bool:
        """Whether some engines did not answer (results may be incomplete)."""
        return bool(self.unresponsive_engines)

    @property
    def empty(self) -> bool:
        """Whether nothing at all came back (no results, answers or infoboxes)."""
        return not (self.results or self.answers or self.infoboxes)

    @property
    def dropped(self) -> int:
        """Results the provider sent that normalisation removed (bad URLs, duplicates, cut)."""
        return max(0, self.raw_count - len(self.results))

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable form (cache backends store it)."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SearchResponse:
        """Rebuild a response from :meth:`to_dict`."""
        return cls(
            results=tuple(
                SearchResult(**{**r, "providers": tuple(r.get("providers", ()))})
                for r in data.get("results", ())
            ),
            answers=tuple(data.get("answers", ())),
            infoboxes=tuple(Infobox(**i) for i in data.get("infoboxes", ())),
            suggestions=tuple(data.get("suggestions", ())),
            unresponsive_engines=tuple(
                EngineFailure(**e) for e in data.get("unresponsive_engines", ())
            ),
            raw_count=int(data.get("raw_count", 0)),
            ignored=tuple(data.get("ignored", ())),
            hidden_chars_removed=int(data.get("hidden_chars_removed", 0)),
        )


class NoOptions(ProviderOptions):
    """The options of a provider that has none (ddgs)."""


class KeyOptions(ProviderOptions):
    """The options of a keyed API: its key (a secret) and its origin.

    Attributes:
        api_key: the API key; unset: the provider cannot be used (:func:`require_key`).
        base_url: the API origin (a subclass sets the public default; tests and proxies set
            another).
    """

    api_key: HeaderSecret = None
    base_url: str


@runtime_checkable
class SearchProvider(Protocol):
    """One search backend. Built-in and plugin providers have exactly this shape."""

    #: the ``search_provider`` setting value, e.g. ``brave``.
    id: ClassVar[str]
    #: how messages name it, e.g. ``Brave Search API`` (never its address or key).
    name: ClassVar[str]
    #: its options model (``[search.<id>]``, ``WEBRESEARCH_<ID>_<OPTION>``).
    options_model: ClassVar[type[ProviderOptions]]
    #: the options it honours.
    capabilities: ClassVar[frozenset[Capability]]

    @classmethod
    def from_settings(cls, settings: Settings) -> SearchProvider:
        """Build the provider from the settings.

        Raises:
            ConfigurationError: required configuration (key, base URL) is missing.
        """
        ...

    async def search(self, query: str, options: SearchOptions) -> SearchResponse:
        """Run one search.

        Raises:
            SearchError: a subclass naming what failed (auth, quota, rate, bad_request,
                upstream, network, timeout, protocol).
        """
        ...

    async def aclose(self) -> None:
        """Release connections (idempotent)."""
        ...


def require_key(options: KeyOptions, provider: type[SearchProvider] | SearchProvider) -> str:
    """The provider's API key: the one place that says "set X".

    Args:
        options: the provider's resolved options.
        provider: the provider class (or instance): its ``id`` names the variable.

    Returns:
        the key (never show it anywhere).

    Raises:
        ConfigurationError: the key is not set; the message names the variable to set.
    """
    secret = options.api_key.get_secret_value().strip() if options.api_key else ""
    if not secret:
        raise ConfigurationError(
            f"{provider.name} needs an API key: set {option_env_var(provider.id, 'api_key')}",
            hint="tell the operator; continue without web search",
            setting=f"{provider.id}_api_key",
        )
    return secret
