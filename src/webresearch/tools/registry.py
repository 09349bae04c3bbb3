"""The Toolkit: builds the tool set for a run and executes calls (SPEC §3, §4).

    toolkit = Toolkit(Settings.load())
    specs = toolkit.tools(run)                       # what the model may call in this run
    result = await toolkit.call("web_fetch", {"url": "https://example.org"}, run=run)

Every tool error becomes a failed :class:`~webresearch.types.ToolResult` carrying the
error's model-facing text; nothing raises out of :meth:`Toolkit.call` except programming
errors.
"""

from __future__ import annotations

import logging
import ssl
from typing import Any

import httpcore2

from ..config import Settings
from ..errors import ToolUnavailable, WebResearchError
from ..net.addresses import AddressPolicy
from ..net.client import GuardedClient
from ..net.guard import SSRFGuard
from ..net.resolver import Resolver
from ..redact import Redactor
from ..runtime.cache import MemoryCache
from ..runtime.run import RunContext
from ..types import ToolResult
from .specs import SPECS_BY_NAME, ToolSpec
from .web_fetch import WebFetch

__all__ = ["Toolkit"]

log = logging.getLogger("webresearch")


class Toolkit:
    """The tool set of webresearch for agent runs.

    Args:
        settings: configuration (default: :meth:`Settings.load` from the environment).
        resolver: DNS seam for the SSRF guard (tests inject one).
        connector: TCP seam of the guarded transport (tests inject one).
        ssl_context: TLS settings for model-chosen URLs (tests pass one trusting a local CA).
    """

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        resolver: Resolver | None = None,
        connector: httpcore2.AsyncNetworkBackend | None = None,
        ssl_context: ssl.SSLContext | None = None,
    ) -> None:
        self.settings = settings or Settings.load()
        self.redact = Redactor(self.settings.secret_values())
        self.guard = SSRFGuard(
            AddressPolicy(
                allow_private=self.settings.allow_private,
                allowed_networks=self.settings.allowed_networks,
            ),
            resolver=resolver,
        )
        self.client = GuardedClient(
            self.guard,
            connector=connector,
            user_agent=self.settings.user_agent,
            connect_timeout_s=self.settings.connect_timeout_s,
            request_timeout_s=self.settings.request_timeout_s,
            max_redirects=self.settings.max_redirects,
            download_cap_bytes=self.settings.download_cap_bytes,
            ssl_context=ssl_context,
        )
        self.fetch_cache = MemoryCache(
            self.settings.fetch_cache_size, self.settings.fetch_cache_ttl_s
        )
        self._web_fetch = WebFetch(self.settings, self.client, self.fetch_cache)

    async def aclose(self) -> None:
        """Release connections and backends."""
        await self.client.aclose()

    async def __aenter__(self) -> Toolkit:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    def tools(self, run: RunContext | None = None) -> list[ToolSpec]:
        """The specs of the tools registered for ``run`` (constant specs; gated set)."""
        run = run or RunContext()
        out = []
        if run.network_access:
            out.append(SPECS_BY_NAME["web_fetch"])
        return out

    async def call(
        self, name: str, arguments: dict[str, Any], *, run: RunContext | None = None
    ) -> ToolResult:
        """Execute tool ``name`` with ``arguments`` for ``run``.

        Returns:
            the result; on failure ``result.error`` holds the error and ``result.text`` its
            model-facing text (redacted).
        """
        run = run or RunContext()
        registered = {spec.name for spec in self.tools(run)}
        try:
            if name not in registered:
                raise ToolUnavailable(
                    f"no tool named {name!r} is available in this run",
                    hint="use one of: " + ", ".join(sorted(registered)) if registered else None,
                )
            return await self._web_fetch(arguments)
        except WebResearchError as exc:
            exc.message = self.redact(exc.message)
            return ToolResult.failure(exc)
