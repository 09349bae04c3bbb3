"""The provider registry: built-ins and plugins register through the same ``register`` callback.

A plugin package declares an entry point in the group :data:`ENTRY_POINT_GROUP`
(``webresearch.search_providers``) whose object is either a provider class or a hook
``hook(register)`` that calls ``register(ProviderClass)`` once per provider::

    [project.entry-points."webresearch.search_providers"]
    acme = "acme_search:AcmeProvider"

webresearch's own providers are declared the same way (``builtins`` →
:func:`webresearch.search.builtins.register_builtins`); the hook is also called directly, so
they are there even when the package metadata is not installed (a source checkout on
``PYTHONPATH``). A plugin that fails to load is logged (one line) and skipped; it never
breaks the others. Code may also call :func:`register` itself.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from ..config import Settings
from ..errors import ConfigurationError
from . import ddgs as ddgs_provider
from .base import CAPABILITIES, SearchProvider
from .builtins import register_builtins

__all__ = [
    "ENTRY_POINT_GROUP",
    "REGISTRY",
    "ProviderRegistry",
    "create_provider",
    "register",
    "resolve_provider_id",
]

ENTRY_POINT_GROUP = "webresearch.search_providers"
#: ``search_provider`` values that turn web_search off.
_OFF = frozenset({"none", "off", "disabled", "false", "0"})

log = logging.getLogger("webresearch")

ProviderClass = type[SearchProvider]


class ProviderRegistry:
    """Search providers by id.

    Args:
        entry_points_of: returns the entry points of a group (a seam for tests).
    """

    def __init__(
        self,
        entry_points_of: Callable[[str], Iterable[EntryPoint]] | None = None,
    ) -> None:
        self._providers: dict[str, ProviderClass] = {}
        self._entry_points_of = entry_points_of or (lambda group: entry_points(group=group))
        self._loaded = False

    def register(self, provider: Any) -> Any:
        """Add a provider class (usable as a decorator); returns it.

        Raises:
            TypeError: it does not have the provider shape (id, name, key_setting,
                capabilities, from_settings, search, aclose).
            ValueError: another provider already has its id.
        """
        _check_shape(provider)
        known = self._providers.get(provider.id)
        if known is not None and known is not provider:
            raise ValueError(f"search provider id {provider.id!r} is already registered")
        self._providers[provider.id] = provider
        return provider

    def load(self) -> None:
        """Register the built-ins and every installed plugin (once; later calls do nothing)."""
        if self._loaded:
            return
        self._loaded = True
        register_builtins(self.register)
        try:
            found = list(self._entry_points_of(ENTRY_POINT_GROUP))
        except Exception as exc:  # broken metadata must not break search
            log.warning("cannot list search provider plugins: %s", type(exc).__name__)
            return
        for ep in found:
            if ep.value == f"{register_builtins.__module__}:{register_builtins.__name__}":
                continue
            try:
                obj = ep.load()
                if isinstance(obj, type):
                    self.register(obj)
                else:
                    obj(self.register)
            except Exception as exc:
                log.warning(
                    "search provider plugin %r not loaded: %s: %s",
                    ep.name,
                    type(exc).__name__,
                    exc,
                )

    def ids(self) -> list[str]:
        """Registered provider ids, sorted."""
        self.load()
        return sorted(self._providers)

    def get(self, provider_id: str) -> ProviderClass:
        """The provider class with this id.

        Raises:
            ConfigurationError: no such provider (the message lists the known ids).
        """
        self.load()
        try:
            return self._providers[provider_id]
        except KeyError:
            raise ConfigurationError(
                f"unknown search provider {provider_id!r}: choose one of "
                + ", ".join(sorted(self._providers)),
                hint="tell the operator; continue without web search",
                setting="search_provider",
            ) from None


def _check_shape(provider: Any) -> None:
    if not isinstance(provider, type):
        raise TypeError("a search provider must be a class")
    for attr in ("id", "name", "capabilities", "from_settings", "search", "aclose"):
        if not hasattr(provider, attr):
            raise TypeError(f"search provider {provider.__name__} has no {attr!r}")
    if not hasattr(provider, "key_setting"):
        raise TypeError(f"search provider {provider.__name__} has no 'key_setting'")
    provider_id = getattr(provider, "id", None)
    if not isinstance(provider_id, str) or not provider_id or provider_id.lower() in _OFF:
        raise TypeError(f"search provider {provider.__name__} needs a usable string id")
    unknown = set(getattr(provider, "capabilities", ())) - set(CAPABILITIES)
    if unknown:
        raise TypeError(f"search provider {provider_id!r} has unknown capabilities {unknown}")


#: The process-wide registry.
REGISTRY = ProviderRegistry()
#: Register a provider class in the process-wide registry (the plugin callback).
register = REGISTRY.register


def resolve_provider_id(
    settings: Settings, *, ddgs_available: Callable[[], bool] | None = None
) -> str | None:
    """Which provider web_search uses, or ``None`` when there is none (the tool is then absent).

    Order: ``search_provider`` when set (``none``/``off`` → none); else ``searxng`` when
    ``searxng_url`` is set; else ``ddgs`` when the package is installed; else none.
    A key alone never selects a paid provider.
    """
    chosen = (settings.search_provider or "").strip().lower()
    if chosen:
        return None if chosen in _OFF else chosen
    if settings.searxng_url is not None and settings.searxng_url.get_secret_value().strip():
        return "searxng"
    available = ddgs_available() if ddgs_available is not None else ddgs_provider.is_installed()
    return "ddgs" if available else None


def create_provider(
    settings: Settings, provider_id: str, *, registry: ProviderRegistry | None = None
) -> SearchProvider:
    """Build provider ``provider_id`` from the settings.

    Raises:
        ConfigurationError: unknown id, or the provider's configuration is missing.
    """
    cls = (registry or REGISTRY).get(provider_id)
    return cls.from_settings(settings)
