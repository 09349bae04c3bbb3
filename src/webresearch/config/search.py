"""Settings of web_search (SPEC §1.2). A provider's own options (its key, its base URL) are
its options model's (``[search.<id>]`` in the file, ``WEBRESEARCH_<ID>_<OPTION>``)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, ValidationInfo, field_validator

from .codes import COUNTRY_FORM, LANGUAGE_FORM, country_problem, language_problem, language_tag
from .defaults import (
    DEFAULT_SEARCH_CACHE_SIZE,
    DEFAULT_SEARCH_CACHE_TTL_S,
    DEFAULT_SEARCH_TIMEOUT_S,
)
from .section import Section, comma_list

__all__ = ["SearchSettings"]


class SearchSettings(Section):
    """Which providers answer web_search, how, and what applies to every provider."""

    search_provider: str | None = Field(
        None,
        description=(
            "web_search provider id: searxng, brave, ddgs, tavily, exa, firecrawl or a plugin's id; "
            "'none' turns web_search off. Unset: searxng when WEBRESEARCH_SEARXNG_URL is set, else ddgs "
            "when installed, else none (web_search is then not registered)."
        ),
    )
    search_timeout_s: float = Field(
        DEFAULT_SEARCH_TIMEOUT_S, gt=0, description="Seconds for one whole provider request."
    )
    search_cache_ttl_s: float = Field(DEFAULT_SEARCH_CACHE_TTL_S, ge=0)
    search_cache_size: int = Field(DEFAULT_SEARCH_CACHE_SIZE, ge=0)
    search_safesearch: Literal["off", "moderate", "strict"] = Field(
        "moderate", description="Safe-search level asked of every provider that has one."
    )
    # --- issue 18 §2: failover, fusion, operator controls -------------------------------
    search_providers: tuple[str, ...] = Field(
        (),
        description=(
            "Ordered provider ids, e.g. searxng,ddgs: when one fails (auth, quota, rate, "
            "upstream, network, timeout) the next answers in the same call. Set, it wins "
            "over search_provider (which stays a one-provider list)."
        ),
    )
    search_fusion: Literal["off", "rrf"] = Field(
        "off",
        description=(
            "rrf: ask every provider of search_providers at once and merge the results by "
            "reciprocal rank fusion (k = 60); needs two or more providers."
        ),
    )
    search_cooldown_s: float = Field(
        60.0,
        gt=0,
        description=(
            "Seconds a failed provider is skipped when another can answer (when the provider "
            "sent no Retry-After); kept in the shared state, so a fleet skips it together."
        ),
    )
    search_cooldown_max_s: float = Field(
        900.0, gt=0, description="Longest cool-down a provider's Retry-After may ask for (seconds)."
    )
    search_max_results: int | None = Field(
        None,
        ge=1,
        le=20,
        description=(
            "Operator ceiling for max_results (providers that bill per 10 results); a model "
            "asking for more gets this many and a note saying so."
        ),
    )
    search_language: str | None = Field(
        None,
        description=(
            "Language tag (BCP 47) asked of providers when the model gives none, e.g. en or pt-BR."
        ),
    )
    search_country: str | None = Field(
        None, description="Country code asked of providers when the model gives none, e.g. us."
    )

    @field_validator("search_providers", mode="before")
    @classmethod
    def _parse_providers(cls, value: Any) -> Any:
        value = comma_list(value)
        if not isinstance(value, (list, tuple)):
            return value
        ids = [str(v).strip().lower() for v in value if str(v).strip()]
        if len(set(ids)) != len(ids):
            raise ValueError(f"a provider is listed twice: {', '.join(ids)}")
        return tuple(ids)

    @field_validator("search_language", "search_country", mode="before")
    @classmethod
    def _check_code(cls, value: Any, info: ValidationInfo) -> Any:
        """One rule with ``--language`` / ``--country`` and the web_search tool
        (:mod:`.codes`): a language tag (``pt-BR``, ``zh-Hans``, ``es-419``, kept in its
        canonical case) or a country code (lower case) that exists (session 10 review)."""
        if not isinstance(value, str):
            return value
        code = value.strip()
        if not code:
            return None
        if info.field_name == "search_language":
            why = language_problem(code)
            if why is not None:
                raise ValueError(f"must be {LANGUAGE_FORM}, not {value!r}: {why}")
            return str(language_tag(code))
        why = country_problem(code)
        if why is not None:
            raise ValueError(f"must be {COUNTRY_FORM}, not {value!r}: {why}")
        return code.lower()

    @field_validator("search_fusion")
    @classmethod
    def _fusion_needs_providers(cls, value: str, info: ValidationInfo) -> str:
        if value == "rrf" and len(info.data.get("search_providers") or ()) < 2:
            raise ValueError("rrf needs two or more search_providers (e.g. searxng,brave)")
        return value
