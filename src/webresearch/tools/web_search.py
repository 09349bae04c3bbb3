"""The web_search tool (SPEC §1.2): a query → answers, infoboxes and a markdown list of results.

Flow: :class:`~webresearch.search.router.SearchRouter` over the operator's providers
(``search_providers``: failover in order, or fusion with ``search_fusion = "rrf"``), each
provider through its own :class:`~webresearch.search.service.SearchService` (cache → join an
identical search in flight → that provider's rate limit and the run's budget, for the
leader only → provider → normalise) → remember the result URLs for the ``search_results``
fetch scope → format (:mod:`.search_text`).

Limits and costs count per provider: a request to a provider takes a unit of its own
``web_search:<id>`` window (``search_rate_limit`` per ``rate_window_s``) and is charged to it
(``ctx.spent(price, <id>)``, so the journal's ``costs`` name every payee). Concurrent
requests of one fused call reserve their prices together, so the run's budget holds.

The operator's controls apply before any provider sees the call: ``search_max_results``
caps ``max_results`` (a model asking for more is told), ``search_language`` and
``search_country`` stand in for codes the model did not give.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import cast

from ..config import Settings
from ..config.codes import (
    COUNTRY_FORM,
    LANGUAGE_FORM,
    country_problem,
    language_problem,
    language_tag,
)
from ..errors import ConfigurationError, InvalidArguments
from ..search.base import Freshness, SearchOptions, SearchProvider
from ..search.registry import create_provider, resolve_provider_ids
from ..search.router import RoutedOutcome, SearchRouter
from ..search.service import Hooks, SearchService
from ..types import JSONObject, JSONValue, ToolResult
from ..wording import count
from .arguments import optional_integer, optional_text, text
from .base import CallContext, RateLimit, ToolEntry, Unavailable
from .limits import search_provider_limit
from .redaction import redact_json
from .search_text import format_response, result_details
from .services import Services
from .specs import ToolSpec, object_schema

__all__ = [
    "DEFAULT_MAX_RESULTS",
    "NO_PROVIDER",
    "WEB_SEARCH",
    "WebSearch",
    "WebSearchArgs",
    "build",
    "call_price",
    "format_response",
    "options_for",
]

WEB_SEARCH = ToolSpec(
    name="web_search",
    title="Search the web",
    description=(
        "Search the web: instant answers, then results (title, URL, snippet). Read one with "
        "web_fetch."
    ),
    input_schema=object_schema(
        {
            "query": {"type": "string", "minLength": 1, "maxLength": 500},
            "max_results": {"type": "integer", "minimum": 1, "maximum": 20, "default": 8},
            "freshness": {"type": "string", "enum": ["day", "week", "month", "year"]},
            "language": {"type": "string", "description": "e.g. en"},
            "country": {"type": "string", "description": "e.g. us"},
        },
        ["query"],
    ),
    read_only=True,
    destructive=False,
    idempotent=True,
    open_world=True,
    titles=MappingProxyType({"ru": "Поиск в интернете", "zh": "网络搜索"}),
)

#: Why web_search is not registered when no provider is configured or installed.
NO_PROVIDER = (
    "no search provider: install the search extra for the keyless default (ddgs: "
    "pip install -e '.[search]' in the webresearch checkout), "
    "or set WEBRESEARCH_SEARCH_PROVIDER / WEBRESEARCH_SEARXNG_URL"
)

#: Results when the model does not say (SPEC §1.2).
DEFAULT_MAX_RESULTS = 8
#: Longest language or country code accepted (characters).
MAX_CODE_CHARS = 16


@dataclass(frozen=True, slots=True)
class WebSearchArgs:
    """web_search's arguments.

    Attributes:
        query: the query (1–500 characters, not only spaces).
        max_results: results wanted, 1–20, or ``None`` for the default (8).
        freshness: only results from the last day/week/month/year, or ``None``.
        language: a language tag that exists such as ``en`` or ``pt-BR`` (trimmed), or
            ``None`` (not given or blank).
        country: a country code that exists such as ``us`` (trimmed), or ``None``.
    """

    query: str
    max_results: int | None = None
    freshness: Freshness | None = None
    language: str | None = None
    country: str | None = None

    @classmethod
    def from_json(cls, arguments: JSONObject) -> WebSearchArgs:
        """From schema-valid arguments.

        Raises:
            InvalidArguments: a blank query; a language tag or country code that does not
                exist (``uk`` as a country: ``gb`` is the United Kingdom; ``iw``: ``he``),
                named with the fix so the model can retry (the rule of ``--language`` /
                ``--country`` and the settings, :mod:`webresearch.config.codes`).

        The first call that gives a code imports Babel (its CLDR data, once per process,
        ~50-100 ms) on the calling thread, which may be the event loop: accepted once,
        because warming it when the tool is built would cost every toolkit start (each CLI
        command) that never sees a code; afterwards a check is a dictionary look-up.
        """
        query = text(arguments, "query")
        if not query.strip():
            raise InvalidArguments("web_search arguments: query: must not be blank")
        language = _checked_code(arguments, "language", language_problem, LANGUAGE_FORM)
        country = _checked_code(arguments, "country", country_problem, COUNTRY_FORM)
        return cls(
            query=query,
            max_results=optional_integer(arguments, "max_results"),
            freshness=cast("Freshness | None", optional_text(arguments, "freshness")),
            language=language,
            country=country,
        )


def _checked_code(
    arguments: JSONObject, name: str, problem: Callable[[str], str | None], form: str
) -> str | None:
    """The ``language`` / ``country`` argument trimmed, ``None`` when absent or blank.

    Raises:
        InvalidArguments: over 16 characters, or refused by ``problem`` (naming the form,
            the value and why, e.g. ``not 'uk': no country has this code (United Kingdom
            is gb)``).
    """
    value = optional_text(arguments, name)
    code = (value or "").strip()
    if not code:
        return None
    if len(code) > MAX_CODE_CHARS:
        raise InvalidArguments(
            f"web_search arguments: {name}: must be at most {MAX_CODE_CHARS} characters"
        )
    why = problem(code)
    if why is not None:
        raise InvalidArguments(f"web_search arguments: {name}: must be {form}, not {code!r}: {why}")
    return code


def options_for(args: WebSearchArgs, settings: Settings) -> SearchOptions:
    """The provider options of a call: the language tag in its canonical case (``pt-BR``),
    the country lower-cased (absent: the operator's ``search_language`` / ``search_country``), ``max_results`` at most the
    operator's ``search_max_results``, the operator's safe-search level."""
    wanted = args.max_results or DEFAULT_MAX_RESULTS
    ceiling = settings.search_max_results
    return SearchOptions(
        max_results=min(wanted, ceiling) if ceiling else wanted,
        freshness=args.freshness,
        language=str(language_tag(args.language)) if args.language else settings.search_language,
        country=args.country.lower() if args.country else settings.search_country,
        safesearch=settings.search_safesearch,
    )


def call_price(
    provider: SearchProvider, options: SearchOptions, prices: Mapping[str, float]
) -> float:
    """Price of one request to ``provider`` in the settings' price units.

    A flat ``prices[<provider id>]`` wins; else a provider that knows its own price per
    call (``price(options)``, e.g. Firecrawl's 2 credits per 10 results) says; else 0.
    """
    if provider.id in prices:
        return float(prices[provider.id])
    price_of = getattr(provider, "price", None)
    return float(price_of(options)) if callable(price_of) else 0.0


class _Admission:
    """One call's admission and charging per provider (the :class:`Hooks` of each request).

    Prices of requests admitted but not yet sent are reserved together, so the concurrent
    requests of a fused call cannot each pass the budget check alone.
    """

    def __init__(self, ctx: CallContext, settings: Settings, options: SearchOptions) -> None:
        self.ctx = ctx
        self.settings = settings
        self.options = options
        self.pending: dict[str, float] = {}

    def hooks(self, provider: SearchProvider) -> Hooks:
        price = call_price(provider, self.options, self.settings.prices)
        limit: RateLimit = search_provider_limit(self.settings, provider.id)

        async def admit() -> None:
            self.pending[provider.id] = price
            try:
                await self.ctx.reserve(sum(self.pending.values()), provider.id)  # a check
                await self.ctx.rate_limit(limit)
            except BaseException:
                self.pending.pop(provider.id, None)
                raise

        def sent() -> None:
            self.pending.pop(provider.id, None)
            self.ctx.spent(price, provider.id)

        return Hooks(admit=admit, sent=sent, event=self.ctx.event)


class WebSearch:
    """web_search over the operator's providers, the shared cache and the runtime's limits.

    Args:
        services: the process-wide services.
        router: the providers (a single :class:`SearchService` is one provider's router).
    """

    def __init__(self, services: Services, router: SearchRouter | SearchService) -> None:
        self.services = services
        self.router = router if isinstance(router, SearchRouter) else SearchRouter((router,))

    async def __call__(self, args: WebSearchArgs, ctx: CallContext) -> ToolResult:
        """Run web_search. Raises the tool's errors (the Toolkit turns them into results)."""
        settings = self.services.settings
        options = options_for(args, settings)
        admission = _Admission(ctx, settings, options)
        query = " ".join(args.query.split())
        outcome = await self.router.search(query, options, admission.hooks)
        response = outcome.response
        await ctx.record_search_results([r.url for r in response.results])
        notes = _notes(outcome, args, options)
        name = outcome.answered[0].name if len(outcome.answered) == 1 else "one of the providers"
        meta: dict[str, object] = {
            "provider": outcome.answered[0].id,
            "cached": all(s == "cache" for s in outcome.sources),
            "shared": all(s == "shared" for s in outcome.sources),
            "results": len(response.results),
            "trust": "untrusted",
            "hidden_chars_removed": response.hidden_chars_removed,
            "result_details": result_details(response),
        }
        if outcome.fused:
            meta["fusion"] = "rrf"
            meta["providers"] = [p.id for p in outcome.answered]
        if outcome.attempts:
            meta["failover"] = [a.to_json() for a in outcome.attempts]
        if response.dropped:
            meta["dropped"] = response.dropped
        if response.degraded:
            meta["degraded"] = True
            meta["unresponsive_engines"] = [f.engine for f in response.unresponsive_engines]
        if response.ignored:
            meta["ignored"] = list(response.ignored)
        if options.max_results < (args.max_results or 0):
            meta["max_results_capped"] = options.max_results
        text_out = format_response(query, response, name, notes=notes, show_providers=outcome.fused)
        # what providers sent (result URLs, dates, engines, failure details) is redacted like
        # the text: the pipeline's last pass covers only the text
        for key in ("result_details", "failover", "unresponsive_engines"):
            if key in meta:
                meta[key] = redact_json(cast(JSONValue, meta[key]), self.services.redact)
        return ToolResult(text=text_out, meta=meta)


def _notes(outcome: RoutedOutcome, args: WebSearchArgs, options: SearchOptions) -> list[str]:
    """Our own notes: who answered and why others did not, a capped ``max_results``."""
    notes = []
    names = [p.name for p in outcome.answered]
    why = "; ".join(f"{a.reason} [{a.code}]" for a in outcome.attempts)
    if outcome.fused:
        fused = f"results of {' and '.join(names)} fused by reciprocal rank fusion"
        notes.append(fused + (f"; not answering: {why}" if why else ""))
    elif why:
        notes.append(f"answered by {names[0]}; before it: {why}")
    if options.max_results < (args.max_results or 0):
        most = count(options.max_results, "result")
        notes.append(f"at most {most} per search (the operator's limit)")
    return notes


def build(services: Services) -> ToolEntry[WebSearchArgs] | Unavailable:
    """The web_search tool, or :class:`Unavailable` when no provider is configured/installed.

    Raises:
        ConfigurationError: a chosen provider's configuration is missing (the Toolkit logs
            it and leaves the tool out).
    """
    settings = services.settings
    provider_ids = resolve_provider_ids(settings)
    if not provider_ids:
        explicitly_off = (settings.search_provider or "").strip().lower() in ("none", "off")
        return Unavailable("web_search", NO_PROVIDER, quiet=explicitly_off)
    cache = services.cache(
        "web_search", maxsize=settings.search_cache_size, ttl_s=settings.search_cache_ttl_s
    )
    services_by_id: list[SearchService] = []
    try:
        for provider_id in provider_ids:
            provider = create_provider(settings, provider_id, registry=services.registries.search)
            services_by_id.append(SearchService(provider, cache, redact=services.redact))
    except ConfigurationError:
        for built in services_by_id:
            services.on_close(built.aclose)  # closed with the services, not leaked
        raise
    router = SearchRouter(
        tuple(services_by_id),
        fusion=settings.search_fusion == "rrf",
        cooldowns=services.cooldowns if len(services_by_id) > 1 else None,
        cooldown_s=settings.search_cooldown_s,
        cooldown_max_s=settings.search_cooldown_max_s,
    )

    def price(args: WebSearchArgs) -> float:
        """The first provider's price (failover), or every provider's (fusion)."""
        options = options_for(args, settings)
        prices = [call_price(p, options, settings.prices) for p in router.providers]
        return sum(prices) if router.fusion else prices[0]

    async def aclose() -> None:
        for service in services_by_id:
            await service.aclose()

    return ToolEntry(
        spec=WEB_SEARCH,
        arguments=WebSearchArgs.from_json,
        run=WebSearch(services, router),
        rate_limit=search_provider_limit(settings, provider_ids[0]),
        price=price,
        aclose=aclose,
    )
