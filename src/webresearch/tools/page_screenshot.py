"""page_screenshot(url): a screenshot of a web page, also on hosts without a local browser.

Registered only when something can draw the page: a screenshot service
(``screenshot_service``, Firecrawl or a plugin; :mod:`webresearch.tools.service_shots`) or,
without one, a browser backend that draws real pixels (a local Chromium, a CDP endpoint, or
``browser_screenshot_fallback_url``). Per call: the fetch scope, then

* with a service: ONE paid request returns the screenshot and the page text; a model that
  cannot see images gets that text, and a picture that cannot be fetched or prepared becomes
  "screenshot no longer available" plus the text — never an error;
* with the browser: a one-shot tab (its own context; counted against the session cap) opens
  the URL, and the browser's screenshot runs on it (the text for a blind model, the text
  when the backend turns out to draw no pixels), then the tab is closed.
"""

from __future__ import annotations

import contextlib
import uuid
from types import MappingProxyType

from ..errors import BrowserError
from ..types import ToolResult
from .arguments import UrlArgs
from .base import CallContext, ToolEntry, Unavailable
from .browser_screenshot import Shot, TabScreenshots
from .gates import pillow_missing, pixel_browser_unavailable_reason
from .limits import browser_limit, fetch_limit
from .service_shots import BLIND_NOTE, UNAVAILABLE_NOTE, ServiceShooter, shooter_for
from .services import Services
from .specs import URL_PROPERTY, ToolSpec, object_schema

__all__ = [
    "BLIND_NOTE",
    "PAGE_SCREENSHOT",
    "UNAVAILABLE_NOTE",
    "BrowserShooter",
    "PageScreenshot",
    "build",
]

PAGE_SCREENSHOT = ToolSpec(
    name="page_screenshot",
    title="Screenshot a web page",
    description="Screenshot a web page (without vision: its text).",
    input_schema=object_schema({"url": URL_PROPERTY}, ["url"]),
    read_only=True,
    destructive=False,
    idempotent=True,
    open_world=True,
    titles=MappingProxyType({"ru": "Скриншот страницы", "zh": "网页截图"}),
)


class BrowserShooter:
    """page_screenshot through the process's browser (no screenshot service configured)."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self.screenshots = TabScreenshots(services)

    async def shoot(self, url: str, ctx: CallContext) -> ToolResult:
        """Open ``url`` in a one-shot tab, take the browser's screenshot, close the tab."""
        manager = self.services.browser
        await ctx.rate_limit()
        await manager.policy.check_navigation(url)  # SSRF, domain policy, robots.txt
        await manager.expire()
        key = f"page_screenshot:{uuid.uuid4().hex}"
        try:
            session, _lost = await manager.session(key, create=True)
            if session is None:  # pragma: no cover - create=True always makes one
                raise BrowserError("the browser could not open a tab")
            self.services.cpu.warm()  # the screenshot's pipeline runs in the workers
            await session.open(url)
            meta: dict[str, object] = {
                "action": "screenshot",
                "backend": session.capabilities.backend,
                "trust": "untrusted",
            }
            return await self.screenshots.take(session, Shot(), ctx, meta)
        finally:
            with contextlib.suppress(Exception):
                await manager.close_session(key)


class PageScreenshot:
    """page_screenshot over a screenshot service, or else the browser.

    Args:
        shooter: the service shooter or the browser shooter.
    """

    def __init__(self, shooter: ServiceShooter | BrowserShooter) -> None:
        self.shooter = shooter

    async def __call__(self, args: UrlArgs, ctx: CallContext) -> ToolResult:
        """Run page_screenshot (raises only the call's errors: scope, budget, the service)."""
        await ctx.check_scope(args.url)
        return await self.shooter.shoot(args.url, ctx)


def build(services: Services) -> ToolEntry[UrlArgs] | Unavailable:
    """The page_screenshot tool, or why it is not offered.

    Raises:
        ConfigurationError: the chosen service's configuration is missing (the Toolkit logs
            it and leaves the tool out).
    """
    missing = pillow_missing()
    shooter: ServiceShooter | BrowserShooter | None = shooter_for(services)
    if shooter is None and pixel_browser_unavailable_reason(services) is None:
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
    settings = services.settings
    by_browser = isinstance(shooter, BrowserShooter)
    return ToolEntry(
        spec=PAGE_SCREENSHOT,
        arguments=UrlArgs.from_json,
        run=PageScreenshot(shooter),
        rate_limit=browser_limit(settings) if by_browser else fetch_limit(settings),
        price=0.0 if isinstance(shooter, BrowserShooter) else shooter.service.price,
    )
