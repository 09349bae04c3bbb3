"""The common shape of a keyed JSON search API (Brave, Tavily, Exa): one :class:`JSONEndpoint`
with the key in a header, built from the provider's own options (``api_key``, ``base_url``:
``[search.<id>]`` in the settings file, ``WEBRESEARCH_<ID>_API_KEY`` in the environment).

A provider subclass names itself (``id``, ``name``, ``capabilities``), declares its options
model (a :class:`~webresearch.search.base.KeyOptions` with its public origin as the default
``base_url``), says how its key travels (:meth:`KeyedJSONProvider.auth_headers`) and
implements ``search``.
"""

from __future__ import annotations

from typing import ClassVar, Self

import httpx2

from ..config import ProviderOptions, Settings, option_env_var
from ..hosted.endpoint import check_base_url
from .base import KeyOptions, require_key
from .http import JSONEndpoint

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
    #: a :class:`KeyOptions` subclass with the API's public origin as ``base_url``.
    options_model: ClassVar[type[ProviderOptions]]
    #: the paths the API is called at under its base URL (a pasted one is removed).
    api_paths: ClassVar[tuple[str, ...]] = ()

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
            key_env=option_env_var(self.id, "api_key"),
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
        """Build from the provider's options (``api_key``, ``base_url``).

        Raises:
            ConfigurationError: no key, or a base URL that is not http(s).
        """
        options = settings.options(cls.id, cls.options_model)
        if not isinstance(options, KeyOptions):  # pragma: no cover - a declaration bug
            raise TypeError(f"{cls.__name__}.options_model must be a KeyOptions")
        key = require_key(options, cls)  # type: ignore[arg-type]
        return cls(
            key,
            check_base_url(
                options.base_url,
                option_env_var(cls.id, "base_url"),
                api_paths=cls.api_paths,
                example=cls.options_model.model_fields["base_url"].default,
                hint="tell the operator; continue without web search",
            ),
            timeout_s=settings.search_timeout_s,
            user_agent=settings.user_agent,
        )

    async def aclose(self) -> None:
        await self.endpoint.aclose()
