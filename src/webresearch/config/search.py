"""Settings of web_search (SPEC §1.2). A provider's own options (its key, its base URL) are
its options model's (``[search.<id>]`` in the file, ``WEBRESEARCH_<ID>_<OPTION>``)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .defaults import (
    DEFAULT_SEARCH_CACHE_SIZE,
    DEFAULT_SEARCH_CACHE_TTL_S,
    DEFAULT_SEARCH_TIMEOUT_S,
)
from .section import Section

__all__ = ["SearchSettings"]


class SearchSettings(Section):
    """Which provider answers web_search, and what applies to every provider."""

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
