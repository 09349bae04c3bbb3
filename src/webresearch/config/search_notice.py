"""The line both faces say when web_search falls back to ddgs, the keyless default (SPEC
§1.2), because nothing chose a provider: the query then goes to public search engines,
which a person may not expect. The CLI says it before a search (``webresearch search``),
the MCP server at its first web_search call (on stderr, through its log).

Pure: settings in, the line (or ``None``) out.
"""

from __future__ import annotations

from pydantic import SecretStr

from .options import ProviderOptions
from .settings import Settings

__all__ = ["DEFAULT_PROVIDER_NOTICE", "default_provider_notice"]

#: Said when no provider is set and web_search would ask ddgs.
DEFAULT_PROVIDER_NOTICE = (
    "note: no search provider is set, so ddgs (the keyless default) sends the query to "
    "public search engines; set WEBRESEARCH_SEARCH_PROVIDER or WEBRESEARCH_SEARXNG_URL to "
    "choose one (webresearch config show lists the settings)"
)


class _SearxngUrl(ProviderOptions):
    """The one option of SearXNG's that chooses it without ``search_provider``."""

    url: SecretStr | None = None


def default_provider_notice(settings: Settings) -> str | None:
    """:data:`DEFAULT_PROVIDER_NOTICE` when web_search falls back to ddgs because nothing
    chose a provider, else ``None``. The order is web_search's (``search.registry``):
    ``search_providers``, then ``search_provider`` (``--provider``), then SearXNG when its
    URL is set, then ddgs (whether ddgs is installed is not checked: without it there is
    no web_search to call)."""
    if settings.search_providers or (settings.search_provider or "").strip():
        return None
    url = settings.options("searxng", _SearxngUrl).url
    if url is not None and url.get_secret_value().strip():
        return None
    return DEFAULT_PROVIDER_NOTICE
