"""After an action on the page (click, fill, press): a navigation it started is waited for,
so the action reports the page it led to and the next action finds a tab at rest.

The library's element actions wait until a navigation they start has committed (its
"signal barrier", playwright ``FrameManager.waitForSignalsCreatedBy``); its page keyboard
does not, and a script the action set off (``oninput`` → ``location = …``) is no signal of
the action at all. So a top-frame navigation request seen during the action, or a URL that
changed, is waited for here: first its commit (the new document, or the browser's error page
after a refused or failed request), then readiness as after ``open`` (:mod:`.page_ready`),
within ``budget_s``. Every request of such a navigation goes through the session's request
interceptor and guarded proxy like any other of the tab (nothing here lets one by).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TYPE_CHECKING

from ..runtime.waiting import wait_within
from .page_errors import best_effort
from .page_eval import CDPSender
from .page_events import PageEvents
from .page_ready import wait_ready

if TYPE_CHECKING:
    from playwright.async_api import Frame, Page, Request

__all__ = ["MIN_LEFT_S", "settle_after"]

#: Seconds of readiness a navigation keeps even when its commit took all of the budget.
MIN_LEFT_S = 0.25


async def settle_after(
    page: Page, cdp: CDPSender, events: PageEvents, action: Awaitable[str], budget_s: float
) -> str:
    """Run ``action`` (its result is returned); when it started a navigation of the tab's
    top frame, wait for the navigation to commit and then for readiness
    (:func:`~.page_ready.wait_ready`), all within ``budget_s`` (see the module docstring).
    Raises what ``action`` raises."""
    loop = asyncio.get_running_loop()
    before = str(page.url)
    started: list[Request] = []
    committed = asyncio.Event()

    def on_request(request: Request) -> None:
        if request.is_navigation_request() and request.frame == page.main_frame:
            started.append(request)
            committed.clear()

    def on_navigated(frame: Frame) -> None:
        if frame == page.main_frame:
            committed.set()

    page.on("request", on_request)
    page.on("framenavigated", on_navigated)
    try:
        note = await action
        deadline = loop.time() + budget_s
        if not started and str(page.url) == before:
            return note
        if started and not committed.is_set():
            with best_effort():
                await wait_within(committed.wait(), budget_s)
    finally:
        page.remove_listener("request", on_request)
        page.remove_listener("framenavigated", on_navigated)
    events.navigation_started()
    await wait_ready(page, cdp, events, max(MIN_LEFT_S, deadline - loop.time()))
    return note
