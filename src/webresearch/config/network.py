"""Settings of the SSRF guard and of fetching model-chosen URLs (SPEC §1.1, §2)."""

from __future__ import annotations

from typing import Any, Literal
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, field_validator

from .defaults import (
    DEFAULT_CONNECT_TIMEOUT_S,
    DEFAULT_DOWNLOAD_CAP_BYTES,
    DEFAULT_FETCH_CACHE_SIZE,
    DEFAULT_FETCH_CACHE_TTL_S,
    DEFAULT_MAX_BYTES,
    DEFAULT_MAX_REDIRECTS,
    DEFAULT_REQUEST_TIMEOUT_S,
    DEFAULT_USER_AGENT,
    MAX_MAX_BYTES,
    IPNetwork,
)
from .section import Section, header_value, parse_networks

__all__ = ["NetworkSettings"]


class NetworkSettings(Section):
    """The SSRF guard (SPEC §2) and web_fetch's transfer limits (SPEC §1.1)."""

    allow_private: bool = Field(
        False,
        description="Exempt every private/reserved address from the SSRF guard (internal doc servers).",
    )
    allowed_networks: tuple[IPNetwork, ...] = Field(
        (),
        description="CIDR networks exempted from the SSRF block list, e.g. 127.0.0.1/32.",
    )
    # Outbound proxy (issue 20): trusted configuration, a secret (it may hold credentials).
    outbound_proxy: SecretStr | None = Field(
        None,
        description=(
            "Proxy for model-chosen URLs (web_fetch, fetch_image, the browser's connections): "
            "http://, https:// or socks5://[user:password@]host:port. Each target is still "
            "checked by the SSRF guard and reached through the proxy by its checked address "
            "(CONNECT / SOCKS5 to the IP). Proxy environment variables are never used."
        ),
    )
    user_agent: str = DEFAULT_USER_AGENT
    fetch_max_bytes: int = Field(DEFAULT_MAX_BYTES, ge=1, le=MAX_MAX_BYTES)
    download_cap_bytes: int = Field(DEFAULT_DOWNLOAD_CAP_BYTES, ge=1024)
    connect_timeout_s: float = Field(DEFAULT_CONNECT_TIMEOUT_S, gt=0)
    request_timeout_s: float = Field(DEFAULT_REQUEST_TIMEOUT_S, gt=0)
    max_redirects: int = Field(DEFAULT_MAX_REDIRECTS, ge=0, le=20)
    fetch_cache_ttl_s: float = Field(DEFAULT_FETCH_CACHE_TTL_S, ge=0)
    fetch_cache_size: int = Field(DEFAULT_FETCH_CACHE_SIZE, ge=0)
    render: Literal["auto", "never", "always"] = Field(
        "auto", description="web_fetch browser rendering of app-shell pages (SPEC §1.1)."
    )

    @field_validator("allowed_networks", mode="before")
    @classmethod
    def _parse_networks(cls, value: Any) -> Any:
        return parse_networks(value)

    @field_validator("user_agent")
    @classmethod
    def _check_user_agent(cls, value: str) -> str:
        return header_value(value)

    @field_validator("outbound_proxy")
    @classmethod
    def _check_outbound_proxy(cls, value: SecretStr | None) -> SecretStr | None:
        # The message never repeats the value: it may hold a password.
        if value is None or not value.get_secret_value().strip():
            return None
        try:
            parts = urlsplit(value.get_secret_value().strip())
            port = parts.port
        except ValueError:
            raise ValueError("is not a URL with a valid port") from None
        if parts.scheme.lower() not in ("http", "https", "socks5", "socks5h"):
            raise ValueError("must start with http://, https:// or socks5://")
        if not parts.hostname or parts.path not in ("", "/") or parts.query or parts.fragment:
            raise ValueError("must be scheme://[user:password@]host[:port] and nothing else")
        if port == 0:
            raise ValueError("needs a port from 1 to 65535")
        return SecretStr(value.get_secret_value().strip())
