"""browser_open(url): a one-shot browser read for models that do not need a session.

Open a fresh tab (its own browser context: no cookies from any session), wait for the page
to be ready (the readiness budget, SPEC §1.4: 15 s), return the rendered page as markdown in
web_fetch's format (the browser's ``content`` extraction), close the tab — whatever
happened. The same request policy as the browser tool guards the navigation and every
request the page makes (SSRF address rules, domain policy); the run's fetch scope applies to
the URL; the ``browser`` rate limit counts the call. The tab counts against the process's
session cap while it is open.

An error status of the page's document is the same ``http_status`` error web_fetch gives.
Registered where the browser tool is (a backend can run), gated by network access.
"""

from __future__ import annotations

import uuid
from types import MappingProxyType

from ..browser.page import PlaywrightSession
from ..errors import BrowserError, Timeout
from ..net.http_status import error_for_status
from ..redact import redact_url
from ..runtime.waiting import wait_in_task
from ..types import JSONValue, ToolResult
from .arguments import UrlArgs
from .base import CallContext, ToolEntry, Unavailable
from .browser_journal import journaled_action
from .browser_reading import OPEN_READ_ON_NOTE, read_rendered, readiness_note
from .gates import backend_unavailable_reason, browser_off
from .limits import browser_limit
from .services import Services
from .specs import URL_PROPERTY, ToolSpec, object_schema

__all__ = ["BROWSER_OPEN", "BrowserOpen", "build"]

BROWSER_OPEN = ToolSpec(
    name="browser_open",
    title="Open a page in a browser",
    description="Render a URL in a browser; read it as web_fetch does.",
    input_schema=object_schema({"url": URL_PROPERTY}, ["url"]),
    read_only=True,
    destructive=False,
    idempotent=True,
    open_world=True,
    titles=MappingProxyType({"ru": "Открыть страницу в браузере", "zh": "在浏览器中打开网页"}),
)


class BrowserOpen:
    """browser_open over the process's browser (shared with the browser tool and
    web_fetch's renderer).

    Args:
        services: the process-wide services.
    """

    def __init__(self, services: Services) -> None:
        self.services = services
        self.settings = services.settings

    async def __call__(self, args: UrlArgs, ctx: CallContext) -> ToolResult:
        """Open, read, close (raises the call's errors; the tab is closed in every case)."""
        url = args.url
        manager = self.services.browser
        await ctx.check_scope(url)
        await ctx.rate_limit()
        await manager.policy.check_navigation(url)
        await manager.expire()
        key = f"browser_open:{uuid.uuid4().hex}"

        async def close_tab() -> object:
            return await manager.close_session(key)

        head: dict[str, JSONValue] = {"action": "open", "one_shot": True}
        async with journaled_action(ctx, head, cleanup=close_tab) as record:
            record.session, _lost = await manager.session(
                key, create=True, start_timeout_s=self.settings.browser_action_timeout_s
            )
            if record.session is None:  # pragma: no cover - create=True always makes one
                raise BrowserError("the browser could not open a tab")
            try:
                result = await wait_in_task(
                    self._read(record.session, url), self.settings.browser_action_timeout_s + 5
                )
            except TimeoutError:
                raise Timeout(
                    f"opening the page in the browser took longer than "
                    f"{self.settings.browser_action_timeout_s:g} s",
                    hint="try web_fetch, or the browser tool to wait for a selector",
                ) from None
            return await record.succeeded(result)

    async def _read(self, session: PlaywrightSession, url: str) -> ToolResult:
        self.services.cpu.warm()  # the extraction's workers start during the navigation
        nav = await session.open(url)
        if nav.status is not None and nav.status >= 400:
            raise error_for_status(nav.status, redact_url(nav.url))
        text, doc, facts = await read_rendered(
            session, self.settings.fetch_max_bytes, self.services.cpu, read_on=OPEN_READ_ON_NOTE
        )
        note = readiness_note(nav.ready, nav.settled, nav.ready_budget_s)
        if note:
            text += f"\n\n{note}"
        meta: dict[str, object] = {
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


def build(services: Services) -> ToolEntry[UrlArgs] | Unavailable:
    """The browser_open tool, or why it cannot be offered (no Playwright / no backend)."""
    reason = backend_unavailable_reason(services)
    if reason is not None:
        return Unavailable("browser_open", reason, quiet=browser_off(services))
    return ToolEntry(
        spec=BROWSER_OPEN,
        arguments=UrlArgs.from_json,
        run=BrowserOpen(services),
        rate_limit=browser_limit(services.settings),
    )
