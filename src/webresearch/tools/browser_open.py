"""browser_open(url): a one-shot browser read for models that do not need a session.

Open a fresh tab (its own browser context: no cookies from any session), wait for the page
to be ready (the readiness budget, SPEC §1.4: 15 s), return the rendered page as markdown in
web_fetch's format (the browser tool's ``content`` extraction), close the tab — whatever
happened. The same request policy as the browser tool guards the navigation and every
request the page makes (SSRF address rules, domain policy); the run's fetch scope applies to
the URL; the ``browser`` rate limit counts the call. The tab counts against the process's
session cap while it is open.

An error status of the page's document is the same ``http_status`` error web_fetch gives.
Registered where the browser tool is (a backend can run), gated by network access.
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from typing import Any

from ..browser.manager import BrowserManager
from ..browser.page import PlaywrightSession
from ..errors import BrowserError, Timeout
from ..net.http_status import error_for_status
from ..redact import redact_url
from ..types import ToolResult
from .base import CallContext, ToolEntry, Unavailable
from .browser_tool import (
    Drained,
    _journal_events,
    _with_notes,
    backend_unavailable_reason,
    manager_for,
    read_rendered,
    readiness_note,
)
from .services import Services
from .specs import BROWSER_OPEN

__all__ = ["BrowserOpen", "build"]


class BrowserOpen:
    """browser_open over the process's browser manager.

    Args:
        services: the process-wide services.
        manager: the browser manager (shared with the browser tool and web_fetch's renderer).
    """

    def __init__(self, services: Services, manager: BrowserManager) -> None:
        self.services = services
        self.manager = manager
        self.settings = services.settings

    async def __call__(self, arguments: dict[str, Any], ctx: CallContext) -> ToolResult:
        """Open, read, close (raises the call's errors; the tab is closed in every case)."""
        url = str(arguments["url"])
        await ctx.check_scope(url)
        await ctx.rate_limit("browser")
        await self.manager.policy.check_navigation(url)
        await self.manager.expire()
        key = f"browser_open:{uuid.uuid4().hex}"
        outcome = "error"
        session: PlaywrightSession | None = None
        drained: Drained | None = None
        try:
            session, _lost = await self.manager.session(key, create=True)
            if session is None:  # pragma: no cover - create=True always makes one
                raise BrowserError("the browser could not open a tab")
            try:
                result = await asyncio.wait_for(
                    self._read(session, url), self.settings.browser_action_timeout_s + 5
                )
            except TimeoutError:
                raise Timeout(
                    f"opening the page in the browser took longer than "
                    f"{self.settings.browser_action_timeout_s:g} s",
                    hint="try web_fetch, or the browser tool to wait for a selector",
                ) from None
            drained = await session.drain_events()
            outcome = "ok"
            return _with_notes(result, drained)
        finally:
            details: dict[str, Any] = {"action": "open", "one_shot": True, "outcome": outcome}
            if session is not None:
                with contextlib.suppress(Exception):
                    details["url"] = redact_url(str(session.page.url))[:300]
                if drained is None:
                    with contextlib.suppress(Exception):
                        drained = await session.drain_events()
                if drained is not None:
                    await _journal_events(drained, ctx)
            with contextlib.suppress(Exception):
                await self.manager.close_session(key)
            await ctx.event("browser.action", **details)

    async def _read(self, session: PlaywrightSession, url: str) -> ToolResult:
        nav = await session.open(url)
        if nav.status is not None and nav.status >= 400:
            raise error_for_status(nav.status, redact_url(nav.url))
        text, doc, facts = await read_rendered(session, self.settings.fetch_max_bytes)
        note = readiness_note(nav.ready, nav.settled, self.settings.browser_ready_timeout_s)
        if note:
            text += f"\n\n{note}"
        meta: dict[str, Any] = {
            "url": doc["url"],
            "requested_url": redact_url(url),
            "final_url": doc["url"],
            "status": nav.status,
            "ready": nav.ready,
            "settled": nav.settled,
            "title": doc["title"],
            "content_type": "text/html",
            "render": "browser",
            "backend": session.capabilities.backend,
            "trust": "untrusted",
            **facts,
        }
        return ToolResult(text=text, meta=meta)


def build(services: Services) -> ToolEntry | Unavailable:
    """The browser_open entry, or why it cannot be offered (no Playwright / no backend)."""
    reason = backend_unavailable_reason(services)
    if reason is not None:
        return Unavailable("browser_open", reason)
    return ToolEntry(spec=BROWSER_OPEN, run=BrowserOpen(services, manager_for(services)))
