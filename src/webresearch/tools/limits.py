"""The named rate limits of the built-in tools (SPEC §1.2, §1.4; ``*_rate_limit`` settings).

A tool declares the limit it takes a unit of in its :class:`~webresearch.tools.base.ToolEntry`;
tools that count together share a key (fetch_image and the hosted readers count as
``web_fetch``; browser_open and page_screenshot's browser as ``browser``). A new tool
declares its own ``RateLimit("my_tool", limit, window_s)``.
"""

from __future__ import annotations

from dataclasses import replace

from ..config import Settings
from .base import RateLimit

__all__ = ["browser_limit", "fetch_limit", "search_limit", "search_provider_limit"]


def search_limit(settings: Settings) -> RateLimit:
    """``web_search``: ``search_rate_limit`` per ``rate_window_s`` (30 per minute)."""
    return RateLimit("web_search", settings.search_rate_limit, settings.rate_window_s)


def search_provider_limit(settings: Settings, provider_id: str) -> RateLimit:
    """``web_search:<provider id>``: the same window as :func:`search_limit`, one per
    provider — web_search's requests count per provider (issue 18 §2): a failover or a
    fusion takes a unit of each provider it asks, and a provider at its limit hands over."""
    return replace(search_limit(settings), key=f"web_search:{provider_id}")


def fetch_limit(settings: Settings) -> RateLimit:
    """``web_fetch``: ``fetch_rate_limit`` per ``rate_window_s`` (none by default)."""
    return RateLimit("web_fetch", settings.fetch_rate_limit, settings.rate_window_s)


def browser_limit(settings: Settings) -> RateLimit:
    """``browser``: ``browser_rate_limit`` per ``rate_window_s`` (60 per minute)."""
    return RateLimit("browser", settings.browser_rate_limit, settings.rate_window_s)
