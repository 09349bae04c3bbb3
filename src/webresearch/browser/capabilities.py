"""Probing what a freshly connected backend can do (SPEC §1.4: probed, not assumed).

:func:`probe_capabilities` opens :data:`~.probe.PROBE_URL` in a tab of its own, served by our
own interceptor (the request never reaches the network; by loading at all, the page proves
that request interception works), then measures: whether a screenshot shows the probe's red
box (real pixels), whether a ``confirm()`` we accept still returns false (the backend answers
dialogs itself), and — at the same time — whether a second tab and a second context can be
opened. A backend whose interception cannot be verified gets ``interception="none"`` and is
refused by :mod:`.backend`.

The second tab is not wasted: it is handed back, fresh (no history, no document), and
becomes the first session's tab — a cold start opens one tab fewer.
"""

from __future__ import annotations

import asyncio
import dataclasses
from typing import TYPE_CHECKING

from ..runtime.waiting import wait_within
from .base import Capabilities, InterceptionLevel
from .intercept import Interceptor
from .page_errors import best_effort
from .policy import RequestPolicy
from .probe import PROBE_CLIP, PROBE_URL, has_probe_box

if TYPE_CHECKING:
    from playwright.async_api import Browser, BrowserContext, Dialog, FloatRect, Page

__all__ = ["DIALOG_PROBE_TIMEOUT_S", "PROBE_TIMEOUT_S", "probe_capabilities"]

#: Seconds the probe page may take to load.
PROBE_TIMEOUT_S = 20.0
#: Seconds the dialog probe waits for ``confirm()`` to return.
DIALOG_PROBE_TIMEOUT_S = 5.0


async def probe_capabilities(
    browser: Browser,
    context: BrowserContext,
    interceptor: Interceptor | None,
    policy: RequestPolicy,
    caps: Capabilities,
) -> tuple[Capabilities, Page | None]:
    """``caps`` completed with what the backend proved (see the module docstring), and the
    second tab of ``context`` when one could be opened (``None``: the backend holds one
    page per context).

    Args:
        browser: the connection.
        context: a fresh context on it (the probe tab is opened and closed in it).
        interceptor: the browser-wide interceptor, or ``None`` when the backend refused one
            (a page-level one is then tried on the probe tab).
        policy: the request policy (for a page-level interceptor).
        caps: what is known already (backend name, product).
    """
    # The second tab and context open while the probe tab works (each tab is a process).
    tab_task = asyncio.ensure_future(_second_tab(context))
    other_task = asyncio.ensure_future(_second_context(browser))
    try:
        page = await context.new_page()
    except BaseException:
        await _settle_side_tasks(tab_task, other_task)
        raise
    page_interceptor: Interceptor | None = None
    level: InterceptionLevel = "browser"
    tab: Page | None = None
    try:
        if interceptor is None:
            with best_effort():
                cdp = await context.new_cdp_session(page)
                page_interceptor = Interceptor(cdp, policy, lambda *a: None)
                await page_interceptor.enable()
                interceptor, level = page_interceptor, "page"
        if interceptor is None or not await _serves_probe(page, interceptor):
            return caps, None
        pixels = await _pixels_then_dialogs(page)
        tab, other = await tab_task, await other_task
        caps = dataclasses.replace(
            caps,
            interception=level,
            real_screenshots=pixels[0],
            handles_dialogs=pixels[1],
            multi_page=tab is not None,
            multi_context=other,
        )
        return caps, tab
    finally:
        if not tab_task.done() or tab is None:
            unused = await _settle_side_tasks(tab_task, other_task)
            if unused is not None and tab is None:
                with best_effort():
                    await unused.close()
        if page_interceptor is not None:
            await page_interceptor.aclose()
        with best_effort():
            await page.close()


async def _settle_side_tasks(
    tab_task: asyncio.Future[Page | None], other_task: asyncio.Future[bool]
) -> Page | None:
    """Wait for the side probes after an early end; the tab they opened, if any."""
    await asyncio.gather(tab_task, other_task, return_exceptions=True)
    if tab_task.cancelled() or tab_task.exception() is not None:
        return None
    return tab_task.result()


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


async def _pixels_then_dialogs(page: Page) -> tuple[bool, bool]:
    """(real pixels, the backend answers dialogs itself) — one after the other: no
    screenshot is taken while a dialog is open."""
    pixels = False
    with best_effort():
        x, y, width, height = PROBE_CLIP
        clip: FloatRect = {"x": x, "y": y, "width": width, "height": height}
        pixels = has_probe_box(await page.screenshot(type="png", clip=clip))
    return pixels, await _answers_dialogs(page)


async def _second_tab(context: BrowserContext) -> Page | None:
    """A second tab of ``context``, or ``None`` when the backend refuses one."""
    with best_effort():
        return await context.new_page()
    return None


async def _second_context(browser: Browser) -> bool:
    """True when the connection holds a second context."""
    with best_effort():
        other = await browser.new_context()
        await other.close()
        return True
    return False


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
    try:
        with best_effort():
            result = await wait_within(
                page.evaluate("() => confirm('webresearch probe')"), DIALOG_PROBE_TIMEOUT_S
            )
            return result is not True
        return False
    finally:
        page.remove_listener("dialog", accept)
