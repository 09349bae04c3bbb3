"""The Firecrawl account: one set of options for its search provider, its page reader and its
screenshot service (``[reader.firecrawl]`` or ``[search.firecrawl]`` in the file,
``WEBRESEARCH_FIRECRAWL_*`` in the environment).

The hosted API (https://api.firecrawl.dev) needs an API key; a self-hosted instance
(``base_url``) may run without one. Operator headers (a proxy token) go with every request.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import Field, SecretStr

from ..config import HeaderFields, HeaderSecret, ProviderOptions, option_env_var
from ..errors import ConfigurationError
from .endpoint import bearer, check_base_url

__all__ = [
    "DEFAULT_FIRECRAWL_BASE_URL",
    "FIRECRAWL_API_PATHS",
    "FIRECRAWL_ID",
    "FirecrawlAccess",
    "FirecrawlOptions",
]

#: The provider id shared by Firecrawl's search provider, page reader and screenshot service.
FIRECRAWL_ID = "firecrawl"
#: Public origin of the hosted API (a self-hosted or proxied base URL is set instead).
DEFAULT_FIRECRAWL_BASE_URL = "https://api.firecrawl.dev"
#: The API paths called under the base URL (v2: scrape for pages and screenshots, search).
FIRECRAWL_API_PATHS = ("/v2/scrape", "/v2/search")


class FirecrawlOptions(ProviderOptions):
    """Firecrawl's options.

    Attributes:
        api_key: the API key (fc-…); optional for a self-hosted instance.
        base_url: a self-hosted Firecrawl or a proxy in front of it; unset: the hosted API.
            A secret: it may be an internal address.
        headers: extra headers for a proxy, e.g. ``{"X-Proxy-Token": "…"}`` (JSON in
            ``WEBRESEARCH_FIRECRAWL_HEADERS``); values are secrets.
        credit_price: the price of one credit in your units (the spending ledger): a page or
            a screenshot costs 1 credit, a search 2 per started 10 results.
    """

    api_key: HeaderSecret = None
    base_url: SecretStr | None = None
    headers: HeaderFields = Field(default_factory=dict)
    credit_price: float = Field(0.0, ge=0)


@dataclass(frozen=True, slots=True)
class FirecrawlAccess:
    """How to reach the account.

    Attributes:
        base_url: the API origin (without a trailing slash).
        key: the API key ("" for a keyless self-hosted instance; never shown).
        extra_headers: the operator's headers (a proxy token; values are secrets).
    """

    base_url: str
    key: str
    extra_headers: dict[str, str]

    @property
    def headers(self) -> dict[str, str]:
        """Every request's headers: the operator's, then ``Authorization: Bearer <key>``."""
        return {**self.extra_headers, **bearer(self.key)}

    @property
    def secrets(self) -> tuple[str, ...]:
        """Values never repeated anywhere (the key, every header value)."""
        return tuple(v for v in (self.key, *self.headers.values()) if v)

    @classmethod
    def of(cls, options: FirecrawlOptions, *, name: str, hint: str) -> FirecrawlAccess:
        """The account's access from its options.

        Args:
            options: the resolved options.
            name: how the error names the service ("Firecrawl", "Firecrawl search API").
            hint: the error's next step.

        Raises:
            ConfigurationError: the hosted API without a key, or a base URL that is not
                http(s) (the message names the setting, never its value).
        """
        key = options.api_key.get_secret_value().strip() if options.api_key else ""
        configured = options.base_url.get_secret_value().strip() if options.base_url else ""
        if not configured and not key:
            raise ConfigurationError(
                f"{name} needs an API key: set {option_env_var(FIRECRAWL_ID, 'api_key')} "
                f"(or {option_env_var(FIRECRAWL_ID, 'base_url')} for a self-hosted instance)",
                hint=hint,
                setting=f"{FIRECRAWL_ID}_api_key",
            )
        base = check_base_url(
            configured or DEFAULT_FIRECRAWL_BASE_URL,
            option_env_var(FIRECRAWL_ID, "base_url"),
            api_paths=FIRECRAWL_API_PATHS,
            example=f"{DEFAULT_FIRECRAWL_BASE_URL} or http://firecrawl:3002",
            hint=hint,
        )
        return cls(base, key, {k: v.get_secret_value() for k, v in options.headers.items()})
