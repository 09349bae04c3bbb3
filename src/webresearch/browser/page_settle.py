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

A navigation the page starts a little *after* the action — a click handler's
``setTimeout(() => location = '/next', 400)``, a form sent by ``fetch`` whose answer moves
the page — is waited for too, within :data:`FOLLOW_S` (new-user test, session 17: only the
next ``wait`` showed the new page). The wait is short because it is only taken while the
action left work pending that may lead somewhere: more short timeouts (≤
:data:`~.page_scripts.SHORT_TIMER_MS`) or unanswered ``fetch``/``XMLHttpRequest`` calls than
before the action, as the page's activity record counts them (:mod:`.readiness`). Once that
work is done the page gets :data:`~.readiness.GRACE_S` more (a fetch's answer is handed to
the script that moves the page); an action that set nothing off costs two looks at the page
(a few ms), and a backend without the activity record (no counts) is not waited for.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable
from typing import TYPE_CHECKING

from ..runtime.waiting import wait_within
from .page_errors import best_effort
from .page_eval import CDPSender
from .page_events import PageEvents
from .page_ready import POLL_S, look, wait_ready
from .readiness import GRACE_S, Activity

if TYPE_CHECKING:
    from playwright.async_api import Frame, Page, Request

__all__ = ["FOLLOW_S", "LOOK_S", "MIN_LEFT_S", "pending_work", "settle_after"]

#: Seconds of readiness a navigation keeps even when its commit took all of the budget.
MIN_LEFT_S = 0.25
#: Most seconds an action waits for a navigation its page starts after it (module docstring):
#: a short timeout fires within :data:`~.page_scripts.SHORT_TIMER_MS`.
FOLLOW_S = 1.0
#: Most seconds one look at the page may take here (a page busy in a script: no wait).
LOOK_S = 0.5


async def settle_after(
    page: Page, cdp: CDPSender, events: PageEvents, action: Awaitable[str], budget_s: float
) -> str:
    """Run ``action`` (its result is returned); when it started a navigation of the tab's
    top frame, at once or within :data:`FOLLOW_S` while work it set off is pending, wait for
    the navigation to commit and then for readiness (:func:`~.page_ready.wait_ready`), all
    within ``budget_s`` (see the module docstring). Raises what ``action`` raises."""
    loop = asyncio.get_running_loop()
    before = str(page.url)
    started: list[Request] = []
    committed = asyncio.Event()
    moved = asyncio.Event()  # a navigation request left, or the top frame navigated

    def on_request(request: Request) -> None:
        if request.is_navigation_request() and request.frame == page.main_frame:
            started.append(request)
            committed.clear()
            moved.set()

    def on_navigated(frame: Frame) -> None:
        if frame == page.main_frame:
            committed.set()
            moved.set()

    page.on("request", on_request)
    page.on("framenavigated", on_navigated)
    try:
        base = await _look(page, cdp)  # the work pending before the action
        note = await action
        deadline = loop.time() + budget_s
        if not started and str(page.url) == before:
            await _follow(page, cdp, base, moved, min(FOLLOW_S, budget_s))
            if not started and str(page.url) == before:
                return note
        if started and not committed.is_set():
            with best_effort():
                await wait_within(committed.wait(), max(MIN_LEFT_S, deadline - loop.time()))
    finally:
        page.remove_listener("request", on_request)
        page.remove_listener("framenavigated", on_navigated)
    events.navigation_started()
    await wait_ready(page, cdp, events, max(MIN_LEFT_S, deadline - loop.time()))
    return note


def pending_work(before: Activity | None, now: Activity | None) -> bool | None:
    """Whether the page has more short timeouts or unanswered fetch/XHR calls ``now`` than
    ``before`` the action; ``None`` when either look has no counts (no activity record)."""
    if before is None or now is None:
        return None
    counts = (before.timers, before.fetches, now.timers, now.fetches)
    if any(c is None for c in counts):
        return None
    return (now.timers or 0) > (before.timers or 0) or (now.fetches or 0) > (before.fetches or 0)


async def _look(page: Page, cdp: CDPSender) -> Activity | None:
    """One bounded look at the page (:data:`LOOK_S`); ``None`` when it did not answer."""
    with contextlib.suppress(TimeoutError):
        return await wait_within(look(page, cdp), LOOK_S)
    return None


async def _follow(
    page: Page, cdp: CDPSender, base: Activity | None, moved: asyncio.Event, window_s: float
) -> None:
    """Wait at most ``window_s`` for ``moved`` while the action's work is pending (and
    :data:`~.readiness.GRACE_S` after it ended); return at once when it set nothing off."""
    loop = asyncio.get_running_loop()
    end = loop.time() + window_s
    calm_until: float | None = None  # the work ended: the grace runs until then
    first = True
    while not moved.is_set():
        busy = pending_work(base, await _look(page, cdp))
        if busy is None or (first and not busy):
            return  # no counts, or nothing set off by the action
        first = False
        now = loop.time()
        if busy:
            calm_until = None
        elif calm_until is None:
            calm_until = now + GRACE_S
        stop = end if calm_until is None else min(end, calm_until)
        if now >= stop:
            return
        with contextlib.suppress(TimeoutError):
            await wait_within(moved.wait(), min(POLL_S, stop - now))
