"""The provider registry: built-ins and plugins register through the same ``register`` callback.

A plugin package declares an entry point in the group :data:`ENTRY_POINT_GROUP`
(``webresearch.search_providers``) whose object is either a provider class or a hook
``hook(register)`` that calls ``register(ProviderClass)`` once per provider::

    [project.entry-points."webresearch.search_providers"]
    acme = "acme_search:AcmeProvider"

webresearch's own providers are declared the same way (``builtins`` →
:func:`webresearch.search.builtins.register_builtins`); see :mod:`webresearch.plugins` for
the loading rules. A provider's options are its own model (``options_model``): it is
configured with ``[search.<id>]`` in the settings file or ``WEBRESEARCH_<ID>_<OPTION>``,
without any change to webresearch.
"""

from __future__ import annotations

from collections.abc import Callable

from ..config import ProviderOptions, Settings
from ..plugins import EntryPointsOf, Registry
from . import ddgs as ddgs_provider
from .base import CAPABILITIES, SearchProvider
from .builtins import register_builtins
from .searxng import SearxngOptions

__all__ = [
    "ENTRY_POINT_GROUP",
    "REGISTRY",
    "ProviderRegistry",
    "create_provider",
    "register",
    "resolve_provider_id",
    "resolve_provider_ids",
]

ENTRY_POINT_GROUP = "webresearch.search_providers"
#: ``search_provider`` values that turn web_search off.
_OFF = frozenset({"none", "off", "disabled", "false", "0"})

ProviderClass = type[SearchProvider]


def check_shape(provider: object) -> ProviderClass:
    """``provider`` when it has the provider shape (see :mod:`.base`).

    Raises:
        TypeError: it is not a class, or misses an attribute (named), or its id or
            capabilities are unusable.
    """
    if not isinstance(provider, type):
        raise TypeError("a search provider must be a class")
    for attr in (
        "id",
        "name",
        "capabilities",
        "options_model",
        "from_settings",
        "search",
        "aclose",
    ):
        if not hasattr(provider, attr):
            raise TypeError(f"search provider {provider.__name__} has no {attr!r}")
    provider_id = getattr(provider, "id", None)
    if not isinstance(provider_id, str) or not provider_id or provider_id.lower() in _OFF:
        raise TypeError(f"search provider {provider.__name__} needs a usable string id")
    model = getattr(provider, "options_model", None)
    if not (isinstance(model, type) and issubclass(model, ProviderOptions)):
        raise TypeError(f"search provider {provider_id!r}: options_model is not a ProviderOptions")
    unknown = set(getattr(provider, "capabilities", ())) - set(CAPABILITIES)
    if unknown:
        raise TypeError(f"search provider {provider_id!r} has unknown capabilities {unknown}")
    return provider


class ProviderRegistry(Registry[ProviderClass]):
    """Search providers by id.

    Args:
        entry_points_of: returns the entry points of a group (a seam for tests).
    """

    def __init__(self, entry_points_of: EntryPointsOf | None = None) -> None:
        super().__init__(
            kind="search provider",
            group=ENTRY_POINT_GROUP,
            setting="search_provider",
            builtins=register_builtins,
            check=check_shape,
            id_of=lambda cls: cls.id,
            hint="tell the operator; continue without web search",
            entry_points_of=entry_points_of,
        )

    def options_catalog(self) -> dict[str, type[ProviderOptions]]:
        """Every registered provider's options model, by id."""
        return {cls.id: cls.options_model for cls in self.classes()}


#: The process-wide registry (plugins register into it).
REGISTRY = ProviderRegistry()
#: Register a provider class in the process-wide registry (the plugin callback).
register = REGISTRY.register


def resolve_provider_id(
    settings: Settings, *, ddgs_available: Callable[[], bool] | None = None
) -> str | None:
    """Which provider web_search uses, or ``None`` when there is none (the tool is then absent).

    Order: ``search_provider`` when set (``none``/``off`` → none); else ``searxng`` when its
    ``url`` option (``WEBRESEARCH_SEARXNG_URL``) is set; else ``ddgs`` when the package is
    installed; else none. A key alone never selects a paid provider.
    """
    chosen = (settings.search_provider or "").strip().lower()
    if chosen:
        return None if chosen in _OFF else chosen
    searxng_url = settings.options("searxng", SearxngOptions).url
    if searxng_url is not None and searxng_url.get_secret_value().strip():
        return "searxng"
    available = ddgs_available() if ddgs_available is not None else ddgs_provider.is_installed()
    return "ddgs" if available else None


def resolve_provider_ids(
    settings: Settings, *, ddgs_available: Callable[[], bool] | None = None
) -> tuple[str, ...]:
    """The providers web_search uses, in order (``()``: none, the tool is then absent).

    ``search_providers`` when set (failover order, or the providers fused); else the one
    provider :func:`resolve_provider_id` chooses (``search_provider`` is a one-provider
    list). ``none``/``off`` in the list turns web_search off.
    """
    listed = settings.search_providers
    if listed:
        return () if any(p in _OFF for p in listed) else listed
    single = resolve_provider_id(settings, ddgs_available=ddgs_available)
    return (single,) if single else ()


def create_provider(
    settings: Settings, provider_id: str, *, registry: ProviderRegistry | None = None
) -> SearchProvider:
    """Build provider ``provider_id`` from the settings.

    Raises:
        ConfigurationError: unknown id, or the provider's configuration is missing.
    """
    cls = (registry or REGISTRY).get(provider_id)
    return cls.from_settings(settings)
