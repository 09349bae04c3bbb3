"""The built-in providers, registered through the plugin hook shape (``hook(register)``).

Declared in pyproject under the ``webresearch.search_providers`` entry-point group, exactly
like a third-party plugin would be.
"""

from __future__ import annotations

from collections.abc import Callable

from .base import SearchProvider
from .brave import BraveProvider
from .ddgs import DdgsProvider
from .exa import ExaProvider
from .firecrawl import FirecrawlProvider
from .searxng import SearxngProvider
from .tavily import TavilyProvider

__all__ = ["BUILTIN_PROVIDERS", "register_builtins"]

BUILTIN_PROVIDERS: tuple[type[SearchProvider], ...] = (
    SearxngProvider,
    BraveProvider,
    DdgsProvider,
    TavilyProvider,
    ExaProvider,
    FirecrawlProvider,
)


def register_builtins(
    register: Callable[[type[SearchProvider]], type[SearchProvider]],
) -> None:
    """Register every built-in provider with ``register``."""
    for provider in BUILTIN_PROVIDERS:
        register(provider)
