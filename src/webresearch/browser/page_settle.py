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
action left work pending that may lead somewhere: more pending timeouts of at most
:data:`~.page_scripts.FOLLOW_TIMER_MS` and unanswered ``fetch``/``XMLHttpRequest`` calls,
summed, than before the action, as the page's activity record counts them
(:mod:`.page_scripts`). The sum, not each count: a page polling in a loop (``fetch``, then
``setTimeout(poll, 30)``) swaps one for the other and keeps the sum, where comparing each
count alone found one always "more than before" and every action waited the whole window
(review r-18a). A longer timeout (a toast hidden after 900 ms) is not waited for: see
:data:`~.page_scripts.FOLLOW_TIMER_MS`. Once the work is done the page gets
:data:`~.readiness.GRACE_S` more (a fetch's answer is handed to the script that moves the
page); an action that set nothing off costs two looks at the page (one small evaluation
each, a few ms), and a backend without the activity record (no counts) is not waited for.
The decision is logged at DEBUG (``webresearch.browser``: ``after the action: REASON``, one
of :data:`FOLLOW_REASONS`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable
from typing import TYPE_CHECKING

from ..errors import BrowserError
from ..runtime.waiting import wait_within
from .page_errors import best_effort
from .page_eval import CDPSender, evaluate_function
from .page_events import PageEvents
from .page_ready import POLL_S, wait_ready
from .page_scripts import ACTIVITY_KEY
from .readiness import GRACE_S

if TYPE_CHECKING:
    from playwright.async_api import Frame, Page, Request

__all__ = ["FOLLOW_REASONS", "FOLLOW_S", "LOOK_S", "MIN_LEFT_S", "pending_work", "settle_after"]

log = logging.getLogger("webresearch.browser")

#: Seconds of readiness a navigation keeps even when its commit took all of the budget.
MIN_LEFT_S = 0.25
#: Most seconds an action waits for a navigation its page starts after it (module docstring):
#: a short timeout fires within :data:`~.page_scripts.SHORT_TIMER_MS`.
FOLLOW_S = 1.0
#: Most seconds one look at the page may take here (a page busy in a script: no wait).
LOOK_S = 0.5
#: Why an action's wait for a later navigation ended (logged at DEBUG): the page moved;
#: the action set nothing off; no counts (no activity record, or a look did not answer);
#: the work it set off ended and the grace ran out; the window ended with work pending.
FOLLOW_REASONS = ("moved", "nothing set off", "no counts", "work done", "window over")
#: The work an action may lead somewhere with, as one number: the pending timeouts of at
#: most ``FOLLOW_TIMER_MS`` plus the unanswered fetch/XHR calls; ``null`` without a full
#: record. One property read, not the readiness probe's walk of the page's text.
_WORK_JS = (
    "() => { const A = window[Symbol.for('"
    + ACTIVITY_KEY
    + "')]; return A && typeof A.soon === 'number' && typeof A.fetches === 'number'"
    " ? A.soon + A.fetches : null; }"
)


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
            reason = await _follow(page, cdp, base, moved, min(FOLLOW_S, budget_s))
            log.debug("after the action: %s", reason)
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


def pending_work(before: int | None, now: int | None) -> bool | None:
    """Whether more work is pending ``now`` than ``before`` the action (each: the pending
    timeouts of at most ``FOLLOW_TIMER_MS`` plus the unanswered fetch/XHR calls, summed: a
    poll loop swapping a fetch for a timer keeps it); ``None`` when either look has no
    count (no activity record)."""
    if before is None or now is None:
        return None
    return now > before


async def _look(page: Page, cdp: CDPSender) -> int | None:
    """One bounded look at the page's pending work (:data:`_WORK_JS`, :data:`LOOK_S`);
    ``None`` when it did not answer or has no full activity record."""
    raw: object = None
    with contextlib.suppress(TimeoutError), best_effort(), contextlib.suppress(BrowserError):
        raw = await wait_within(evaluate_function(cdp, _WORK_JS), LOOK_S)
    return raw if isinstance(raw, int) and not isinstance(raw, bool) else None


async def _follow(
    page: Page, cdp: CDPSender, base: int | None, moved: asyncio.Event, window_s: float
) -> str:
    """Wait at most ``window_s`` for ``moved`` while the action's work is pending (and
    :data:`~.readiness.GRACE_S` after it ended); return at once when it set nothing off.
    Returns why the wait ended (one of :data:`FOLLOW_REASONS`)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + window_s
    calm_until: float | None = None  # the work ended: the grace runs until then
    first = True
    while not moved.is_set():
        busy = pending_work(base, await _look(page, cdp))
        if busy is None:
            return "no counts"
        if first and not busy:
            return "nothing set off"
        first = False
        now = loop.time()
        if busy:
            calm_until = None
        elif calm_until is None:
            calm_until = now + GRACE_S
        stop = end if calm_until is None else min(end, calm_until)
        if now >= stop:
            return "window over" if calm_until is None or end <= calm_until else "work done"
        with contextlib.suppress(TimeoutError):
            await wait_within(moved.wait(), min(POLL_S, stop - now))
    return "moved"
