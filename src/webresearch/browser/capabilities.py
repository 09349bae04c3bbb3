"""Probing what a freshly connected backend can do (SPEC §1.4: probed, not assumed).

:func:`probe_capabilities` opens :data:`~.probe.PROBE_URL` in a scratch context, served by
our own interceptor (the request never reaches the network; by loading at all, the page
proves that request interception works), then measures: whether a screenshot shows the
probe's red box (real pixels), whether a ``confirm()`` we accept still returns false (the
backend answers dialogs itself), and whether a second page and a second context can be
opened. A backend whose interception cannot be verified gets ``interception="none"`` and is
refused by :mod:`.backend`.
"""

from __future__ import annotations

import asyncio
import dataclasses
from typing import TYPE_CHECKING

from .base import Capabilities, InterceptionLevel
from .intercept import Interceptor
from .page_errors import best_effort
from .policy import RequestPolicy
from .probe import PROBE_URL, has_probe_box

if TYPE_CHECKING:
    from playwright.async_api import Browser, Dialog, Page

__all__ = ["DIALOG_PROBE_TIMEOUT_S", "PROBE_TIMEOUT_S", "probe_capabilities"]

#: Seconds the probe page may take to load.
PROBE_TIMEOUT_S = 20.0
#: Seconds the dialog probe waits for ``confirm()`` to return.
DIALOG_PROBE_TIMEOUT_S = 5.0


async def probe_capabilities(
    browser: Browser,
    interceptor: Interceptor | None,
    policy: RequestPolicy,
    caps: Capabilities,
    viewport: tuple[int, int],
) -> Capabilities:
    """``caps`` completed with what the backend proved (see the module docstring).

    Args:
        browser: the connection.
        interceptor: the browser-wide interceptor, or ``None`` when the backend refused one
            (a page-level one is then tried on the probe page).
        policy: the request policy (for a page-level interceptor).
        caps: what is known already (backend name, product).
        viewport: (width, height) of the probe context.
    """
    context = await browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
    page_interceptor: Interceptor | None = None
    level: InterceptionLevel = "browser"
    try:
        page = await context.new_page()
        if interceptor is None:
            with best_effort():
                cdp = await context.new_cdp_session(page)
                page_interceptor = Interceptor(cdp, policy, lambda *a: None)
                await page_interceptor.enable()
                interceptor, level = page_interceptor, "page"
        if interceptor is None or not await _serves_probe(page, interceptor):
            return caps
        caps = dataclasses.replace(caps, interception=level)
        with best_effort():
            pixels = has_probe_box(await page.screenshot(type="png"))
            caps = dataclasses.replace(caps, real_screenshots=pixels)
        caps = dataclasses.replace(caps, handles_dialogs=await _answers_dialogs(page))
        with best_effort():
            extra = await context.new_page()
            await extra.close()
            caps = dataclasses.replace(caps, multi_page=True)
        with best_effort():
            other = await browser.new_context()
            await other.close()
            caps = dataclasses.replace(caps, multi_context=True)
        return caps
    finally:
        if page_interceptor is not None:
            await page_interceptor.aclose()
        with best_effort():
            await context.close()


async def _serves_probe(page: Page, interceptor: Interceptor) -> bool:
    """True when the probe page, answered by ``interceptor``, loaded."""
    interceptor.serve_probe = True
    loaded = False
    try:
        with best_effort():
            await page.goto(PROBE_URL, wait_until="load", timeout=PROBE_TIMEOUT_S * 1000)
            loaded = await page.title() == "webresearch probe"
    finally:
        interceptor.serve_probe = False
    return loaded


async def _answers_dialogs(page: Page) -> bool:
    """True when the backend answers dialogs itself: we accept a ``confirm()`` and it still
    returns false (Lightpanda dismisses every dialog on its own)."""

    answering: set[asyncio.Future[None]] = set()

    def accept(dialog: Dialog) -> None:
        async def answer() -> None:
            with best_effort():
                await dialog.accept()

        task = asyncio.ensure_future(answer())
        answering.add(task)
        task.add_done_callback(answering.discard)

    page.on("dialog", accept)
    result: object = False
    try:
        with best_effort():
            result = await asyncio.wait_for(
                page.evaluate("() => confirm('webresearch probe')"), DIALOG_PROBE_TIMEOUT_S
            )
            return result is not True
        return False
    finally:
        page.remove_listener("dialog", accept)
