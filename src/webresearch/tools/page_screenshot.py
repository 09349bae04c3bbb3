"""page_screenshot(url): a screenshot of a web page, also on hosts without a local browser.

A constant tool (spec :data:`~webresearch.tools.specs.PAGE_SCREENSHOT`), registered only when
something can draw the page: a screenshot service (``screenshot_service``, Firecrawl today;
:mod:`webresearch.tools.service_shots`) or, without one, a browser backend that draws real
pixels (a local Chromium, a CDP endpoint, or ``browser_screenshot_fallback_url``). Per call:
the fetch scope, then

* with a service: ONE paid request returns the screenshot and the page text; a model that
  cannot see images gets that text, and a picture that cannot be fetched or prepared becomes
  "screenshot no longer available" plus the text — never an error;
* with the browser: a one-shot tab (its own context; counted against the session cap) opens
  the URL, and the browser tool's screenshot runs on it (the text for a blind model, the
  text when the backend turns out to draw no pixels), then the tab is closed.
"""

from __future__ import annotations

import contextlib
import uuid
from typing import Any

from ..errors import BrowserError
from ..types import ToolResult
from .base import CallContext, ToolEntry, Unavailable
from .image_tools import pillow_missing
from .service_shots import BLIND_NOTE, UNAVAILABLE_NOTE, ServiceShooter, shooter_for
from .services import Services
from .specs import PAGE_SCREENSHOT

__all__ = ["BLIND_NOTE", "UNAVAILABLE_NOTE", "BrowserShooter", "PageScreenshot", "build"]


class BrowserShooter:
    """page_screenshot through the process's browser (no screenshot service configured)."""

    def __init__(self, services: Services) -> None:
        from .browser_tool import BrowserTool, manager_for

        self.manager = manager_for(services)
        self.tool = BrowserTool(services, self.manager)

    async def shoot(self, url: str, ctx: CallContext) -> ToolResult:
        """Open ``url`` in a one-shot tab, take the browser tool's screenshot, close the tab."""
        await ctx.rate_limit("browser")
        verdict = await self.manager.policy.check(url)
        if not verdict.allowed and verdict.error is not None:
            raise verdict.error
        await self.manager.expire()
        key = f"page_screenshot:{uuid.uuid4().hex}"
        try:
            session, _lost = await self.manager.session(key, create=True)
            if session is None:  # pragma: no cover - create=True always makes one
                raise BrowserError("the browser could not open a tab")
            await session.open(url)
            meta: dict[str, Any] = {
                "action": "screenshot",
                "backend": session.capabilities.backend,
                "trust": "untrusted",
            }
            return await self.tool._screenshot(session, False, ctx, meta)
        finally:
            with contextlib.suppress(Exception):
                await self.manager.close_session(key)


class PageScreenshot:
    """page_screenshot over a screenshot service, or else the browser.

    Args:
        shooter: the service shooter or the browser shooter.
    """

    def __init__(self, shooter: ServiceShooter | BrowserShooter) -> None:
        self.shooter = shooter

    async def __call__(self, arguments: dict[str, Any], ctx: CallContext) -> ToolResult:
        """Run page_screenshot (raises only the call's errors: scope, budget, the service)."""
        url: str = arguments["url"]
        await ctx.check_scope(url)
        return await self.shooter.shoot(url, ctx)


def _pixel_browser(services: Services) -> str | None:
    """Why the browser cannot draw page_screenshot's pictures, or ``None`` when it can."""
    from .browser_tool import backend_unavailable_reason

    reason = backend_unavailable_reason(services)
    if reason is not None:
        return reason
    settings = services.settings
    if (
        settings.browser_backend == "lightpanda"
        and settings.browser_screenshot_fallback_url is None
    ):
        return "the lightpanda backend draws no real screenshots"
    return None


def build(services: Services) -> ToolEntry | Unavailable:
    """The page_screenshot entry, or why it is not offered.

    Raises:
        ConfigurationError: the chosen service's configuration is missing (the Toolkit logs
            it and leaves the tool out).
    """
    missing = pillow_missing()
    shooter: ServiceShooter | BrowserShooter | None = shooter_for(services)
    if shooter is None and _pixel_browser(services) is None:
        shooter = BrowserShooter(services)
    if shooter is None:
        return Unavailable(
            "page_screenshot",
            "no screenshot service (set WEBRESEARCH_SCREENSHOT_SERVICE=firecrawl) "
            "and no browser that draws real pixels",
            quiet=True,
        )
    if missing:
        return Unavailable("page_screenshot", missing)
    return ToolEntry(spec=PAGE_SCREENSHOT, run=PageScreenshot(shooter))
