"""The common shape of a keyed JSON search API (Brave, Tavily, Exa): one :class:`JSONEndpoint`
with the key in a header, built from ``<id>_api_key`` and ``<id>_base_url``.

A provider subclass names itself (``id``, ``name``, ``key_setting``, ``capabilities``), says
how its key travels (:meth:`KeyedJSONProvider.auth_headers`) and implements ``search``.
"""

from __future__ import annotations

from typing import ClassVar, Self

import httpx2

from ..config import Settings
from .base import key_env_var, require_key
from .http import JSONEndpoint, check_base_url

__all__ = ["KeyedJSONProvider"]


class KeyedJSONProvider:
    """A keyed JSON API behind one endpoint.

    Args:
        api_key: the key (never shown anywhere).
        base_url: API origin.
        timeout_s: deadline of one request (seconds).
        user_agent: User-Agent header.
        transport: httpx2 transport seam (tests).
    """

    id: ClassVar[str]
    name: ClassVar[str]
    key_setting: ClassVar[str | None]

    def __init__(
        self,
        api_key: str,
        base_url: str,
        *,
        timeout_s: float = 10.0,
        user_agent: str = "webresearch",
        transport: httpx2.AsyncBaseTransport | None = None,
    ) -> None:
        self.endpoint = JSONEndpoint(
            base_url,
            service=self.name,
            timeout_s=timeout_s,
            headers=self.auth_headers(api_key),
            key_env=key_env_var(f"{self.id}_api_key"),
            secrets=(api_key,),
            user_agent=user_agent,
            transport=transport,
        )

    @staticmethod
    def auth_headers(api_key: str) -> dict[str, str]:
        """The request headers that carry the key (per the API's reference)."""
        raise NotImplementedError

    @classmethod
    def from_settings(cls, settings: Settings) -> Self:
        """Build from ``<id>_api_key`` and ``<id>_base_url``.

        Raises:
            ConfigurationError: no key, or a base URL that is not http(s).
        """
        key = require_key(settings, cls)  # type: ignore[arg-type]
        base_setting = f"{cls.id}_base_url"
        return cls(
            key,
            check_base_url(getattr(settings, base_setting), key_env_var(base_setting)),
            timeout_s=settings.search_timeout_s,
            user_agent=settings.user_agent,
        )

    async def aclose(self) -> None:
        await self.endpoint.aclose()
