"""Waiting for a navigated tab to be ready to read (the rules live in :mod:`.readiness`).

One look at the page is one evaluation of :data:`~.readiness.ACTIVITY_PROBE_JS` (a plain CDP
``Runtime.evaluate``: :mod:`.page_eval`) plus the session's own record of requests
(:meth:`~.page_events.PageEvents.network`); the loop looks again every :data:`POLL_S` until
the verdict is "settled" or the readiness budget is spent.
A page with no script is read right after its load event, with no wait at all.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import BrowserError
from .page_errors import best_effort
from .page_eval import CDPSender, evaluate_function
from .page_events import PageEvents
from .readiness import ACTIVITY_PROBE_JS, Activity, is_settled, parse_activity

if TYPE_CHECKING:
    from playwright.async_api import Page

__all__ = ["POLL_S", "Ready", "look", "wait_ready"]

#: Seconds between two looks at a page that is not settled yet.
POLL_S = 0.025


@dataclass(frozen=True, slots=True)
class Ready:
    """How the wait ended.

    Attributes:
        loaded: the load event fired within the budget.
        settled: after it, the page settled (:func:`~.readiness.is_settled`) within the budget.
        title: the document title at the last look (empty when it could not be read).
    """

    loaded: bool
    settled: bool
    title: str


async def look(page: Page, cdp: CDPSender) -> Activity | None:
    """The page's activity, or ``None`` when it cannot be asked (navigating, gone, or a
    page that broke the builtins the probe uses) or when the answer came from a new tab's
    initial empty document although the navigation has committed (the CDP evaluation is
    not tied to the library's view of the frame: such an answer says nothing of the page)."""
    raw: object = None
    with best_effort(), contextlib.suppress(BrowserError):
        raw = await evaluate_function(cdp, ACTIVITY_PROBE_JS)
    if not isinstance(raw, list):
        return None
    try:
        activity = parse_activity(raw)
    except (ValueError, TypeError, IndexError):
        return None
    if activity.url == "about:blank" and str(page.url) != "about:blank":
        return None
    return activity


async def wait_ready(page: Page, cdp: CDPSender, events: PageEvents, budget_s: float) -> Ready:
    """Wait for the load event, then until the page settles; both within ``budget_s``
    (``cdp``: a CDP session on the tab ``page``, which the looks go through)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + budget_s
    activity = await look(page, cdp)
    if activity is None or not activity.loaded:
        loaded = False
        with best_effort():
            await page.wait_for_load_state("load", timeout=budget_s * 1000)
            loaded = True
        if not loaded:
            return Ready(False, False, activity.title if activity else "")
        activity = await look(page, cdp)
    start = loop.time()
    while True:
        now = loop.time()
        pending, network_quiet = events.network()
        if activity is not None and is_settled(
            activity,
            requests_pending=pending,
            network_quiet_s=network_quiet,
            settling_s=now - start,
        ):
            return Ready(True, True, activity.title)
        if now >= deadline:
            # An app shell quiet until the end: it settled, it just shows no text.
            quiet = activity is not None and is_settled(
                dataclasses.replace(activity, shell=False),
                requests_pending=pending,
                network_quiet_s=network_quiet,
                settling_s=now - start,
            )
            return Ready(True, quiet, activity.title if activity else "")
        await asyncio.sleep(min(POLL_S, max(0.0, deadline - now)))
        activity = await look(page, cdp)
