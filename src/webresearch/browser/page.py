"""One browser session: an isolated context with one tab, and every action on it (SPEC §1.4).

The session is put together from one part per concern, each in its own module:

* :class:`~.page_events.PageEvents` — refusals, dialogs, popups, notes, requests in flight;
* :func:`~.page_ready.wait_ready` — when a navigated page is ready to read (the rules:
  :mod:`.readiness`);
* :class:`~.page_elements.Elements` — refs and selectors → elements, and the actions on them;
* :func:`~.page_settle.settle_after` — a navigation an action on the page started, waited for;
* :class:`~.page_reading.Reader` — rendered HTML with frames, the snapshot, screenshots.

This module navigates (``open``, ``back``, ``forward``), evaluates scripts and owns the
session's lifetime. The page, context and CDP session come from :mod:`.backend`; every call
into the library runs inside :func:`~.page_errors.library_errors` (the action's own call: its
errors become ours) or :func:`~.page_errors.best_effort` (a call whose failure changes
nothing).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import re
from collections.abc import Awaitable, Callable, Iterator
from typing import TYPE_CHECKING, Any, Literal

from .. import progress
from ..errors import BlockedAddress, BrowserError, Timeout, UnsupportedContent, WebResearchError
from ..redact import redact_url
from ..runtime.waiting import wait_within
from .base import (
    Capabilities,
    FrameDocument,
    NavResult,
    SessionConfig,
    SnapshotData,
)
from .intercept import Interceptor
from .page_elements import Elements, RefState
from .page_error_pages import ErrorPages, shows_error_page
from .page_errors import best_effort, library_cause, library_errors, unreached_page
from .page_events import Drained, PageEvents, frame_ids
from .page_reading import Box, Reader
from .page_ready import wait_ready
from .page_scripts import PAGE_GUARD_JS
from .page_settle import settle_after
from .page_values import EVALUATE_MAX_VALUES, json_safe
from .responses import file_type as file_type_of
from .responses import proxy_failed, refused_by_proxy

if TYPE_CHECKING:
    from playwright.async_api import Browser, BrowserContext, CDPSession, Page, Response

log = logging.getLogger("webresearch.browser")

__all__ = ["LATE_READY_S", "MIN_READY_S", "PlaywrightSession", "SessionConfig", "StateKeeper"]

#: ``await keeper(state)`` stores the session's Playwright storage state (cookies and
#: local storage) when the session closes (opt-in persistence of named sessions).
StateKeeper = Callable[[dict[str, Any]], Awaitable[None]]

#: Seconds of readiness a navigation keeps even when it used up most of the action's time.
MIN_READY_S = 0.5
LATE_READY_S = 5.0  #: Most seconds location() waits for a document still loading.
#: Seconds an interrupt of a running page script may take.
INTERRUPT_WAIT_S = 1.0
#: Seconds a tab may take to answer a trivial evaluation before it counts as busy.
BUSY_PROBE_S = 0.3
#: Seconds closing the context (and an owned connection) may take.
CLOSE_WAIT_S = 5.0

#: The library's "Page.evaluateHandle: " prefix of page exceptions.
_API_PREFIX = re.compile(r"^(?:Error: )?Page\.\w+: ")


class PlaywrightSession:
    """One tab in its own browser context (see the module docstring).

    Args:
        key: the session table key.
        config: per-session settings.
        capabilities: what the backend can do.
        context: the browser context.
        page: the tab.
        cdp: a CDP session on the tab.
        own_browser: the connection owned by this session (one context per connection).
        token: secret stamp of this session's snapshot state in pages.
        on_close: called once when the session closes.
    """

    def __init__(
        self,
        *,
        key: str,
        config: SessionConfig,
        capabilities: Capabilities,
        context: BrowserContext,
        page: Page,
        cdp: CDPSession,
        own_browser: Browser | None,
        token: str,
        on_close: Callable[[PlaywrightSession], None],
    ) -> None:
        self.key = key
        self.config = config
        self.capabilities = capabilities
        self.context = context
        self.page = page
        self.cdp = cdp
        self.own_browser = own_browser
        self.token = token
        self.interceptor: Interceptor | None = None
        self.events = PageEvents(config, capabilities, _loop_time)
        self.error_pages = ErrorPages()
        self.refs = RefState(token)
        self.elements = Elements(
            page, config, self.refs, real_geometry=capabilities.real_screenshots
        )
        self.reader = Reader(page, cdp, config, self.refs)
        #: stores the storage state when the session closes (``None``: not persisted).
        self.keeper: StateKeeper | None = None
        #: the URL the last ``open`` asked for (shown instead of the browser's error page).
        self.asked: str | None = None
        self.unreached: str | None = None  # the URL the guarded proxy's own 502 answered
        self._on_close = on_close
        self._closed = False

    # --- set-up ---------------------------------------------------------------------------
    async def prepare(self) -> None:
        """Install the event handlers, the page guard script and the timeouts."""
        ms = self.config.action_timeout_s * 1000
        self.context.set_default_timeout(ms)
        self.context.set_default_navigation_timeout(ms)
        self.events.attach(self.page, self.context)
        self.error_pages.attach(self.page)
        with best_effort():
            await self.context.add_init_script(PAGE_GUARD_JS)

    async def target_id(self) -> str | None:
        """The tab's CDP target id (== its top frame id in Chromium)."""
        with best_effort():
            info = await self.cdp.send("Target.getTargetInfo")
            self.events.main_frame = str(info["targetInfo"]["targetId"])
        return self.events.main_frame

    @contextlib.contextmanager
    def limits(self, timeout_s: float | None) -> Iterator[None]:
        """Within the block, every action of this session is bounded by ``timeout_s``
        instead of the configured action timeout, and a navigation may spend all of it
        getting ready (a slow page; ``None``: the configured bounds)."""
        if timeout_s is None:
            yield
            return
        base = self.config
        self._use(dataclasses.replace(base, action_timeout_s=timeout_s, ready_timeout_s=timeout_s))
        try:
            yield
        finally:
            self._use(base)

    def _use(self, config: SessionConfig) -> None:
        self.config = self.elements.config = self.reader.config = config
        with best_effort():
            self.context.set_default_timeout(config.action_timeout_s * 1000)
            self.context.set_default_navigation_timeout(config.action_timeout_s * 1000)

    # --- events (recorded by the backend and the interceptor; drained by the tool) --------
    async def drain_events(self) -> Drained:
        """Refusals (including those of this tab's iframes), dialogs and notes since the
        last drain."""
        frames = await frame_ids(self.cdp) if self.events.has_unattributed else set()
        return self.events.drain(frames)

    # --- state ----------------------------------------------------------------------------
    @property
    def alive(self) -> bool:
        """False once the tab, its context or the browser is gone."""
        return not self._closed and not self.page.is_closed()

    async def location(self) -> tuple[str, str]:
        """``(url, title)`` of the page, read together (:meth:`.Reader.here`), after a
        document still loading (a late navigation) for at most :data:`LATE_READY_S`; for the
        browser's error page, the URL the last ``open`` asked for and no title (its title
        names the refused host)."""
        here = None if self.error_page() is not None else await self.reader.here()
        if here is not None and here[2]:
            budget = min(LATE_READY_S, self.config.ready_timeout_s)
            await wait_ready(self.page, self.cdp, self.events, budget)
            here = None if self.error_page() is not None else await self.reader.here()
        if self.error_page() is not None:
            return self.asked or str(self.page.url), ""
        return (here[0], here[1]) if here is not None else (str(self.page.url), "")

    def error_page(self) -> BrowserError | None:
        """The error to raise when the tab shows no page of a site but the browser's error
        page after a refused or failed navigation (Chromium: ``chrome-error://…``; a
        backend that stays at the refused URL: that URL), else ``None``."""
        url = str(self.page.url)
        if self.unreached is not None and url == self.unreached:
            return unreached_page()
        refused = self.events.refused_nav
        at_refused = refused is not None and redact_url(url)[:300] == refused[0]
        if not (url.startswith("chrome-error:") or at_refused):
            return None
        if refused is not None:
            why = f"its last navigation was refused ({refused[1].message})"
        else:
            why = "its last navigation failed"
        return BrowserError(
            f"this tab shows no page, only the browser's error page: {why}",
            hint="open another URL, or go back to the previous page",
            error_page=True,
        )

    async def interrupt(self, *, if_busy: bool = False) -> bool:
        """Stop the JavaScript running in the tab (an endless loop an action timed out on),
        so the session stays usable; at most :data:`INTERRUPT_WAIT_S` (+ :data:`BUSY_PROBE_S`),
        never raises.

        Args:
            if_busy: stop it only when the tab does not answer a trivial evaluation within
                :data:`BUSY_PROBE_S` (an action that timed out at the library's own bound,
                such as a wait for an element that never came, usually left no script
                running: nothing is stopped then, and a backend that cannot stop scripts
                is not taken for hung).

        Returns:
            False when the browser did not answer (a single-threaded backend such as
            Lightpanda is then hung as a whole).
        """
        if if_busy:
            with best_effort():
                probe = self.cdp.send("Runtime.evaluate", {"expression": "0"})
                await wait_within(probe, BUSY_PROBE_S)
                return True
        with best_effort():
            await wait_within(self.cdp.send("Runtime.terminateExecution"), INTERRUPT_WAIT_S)
            return True
        return False

    async def stop(self) -> None:
        """Stop whatever the tab is doing — loading a page (``Page.stopLoading``) and running
        script (:meth:`interrupt`) — when the action is cancelled, so the session is free for
        the next one; bounded, never raises.

        A stop that lands while a navigation is about to commit is ignored by Chromium
        (measured: about one time in three when cancelled right after the request left),
        so it is repeated until the document is no longer loading, within
        :data:`INTERRUPT_WAIT_S`.
        """
        await self.interrupt()
        deadline = _loop_time() + INTERRUPT_WAIT_S
        while _loop_time() < deadline:
            with best_effort():
                await wait_within(self.cdp.send("Page.stopLoading"), INTERRUPT_WAIT_S)
                state = await wait_within(
                    self.cdp.send(
                        "Runtime.evaluate",
                        {"expression": "document.readyState", "returnByValue": True},
                    ),
                    INTERRUPT_WAIT_S,
                )
                if state.get("result", {}).get("value") != "loading":
                    return
            await asyncio.sleep(0.05)

    async def aclose(self) -> None:
        """Close the tab, its context and an owned connection. Idempotent."""
        if self._closed:
            return
        self._closed = True
        self._on_close(self)
        if self.keeper is not None and not self.page.is_closed():
            await self._keep_state(self.keeper)
        if self.interceptor is not None:
            await self.interceptor.aclose()
        self.events.cancel()
        with best_effort():
            await wait_within(self.context.close(), CLOSE_WAIT_S)
        if self.own_browser is not None:
            with best_effort():
                await wait_within(self.own_browser.close(), CLOSE_WAIT_S)

    async def storage_state(self) -> dict[str, Any]:
        """The context's Playwright storage state: cookies and each origin's local storage.

        Raises:
            BrowserError, Timeout: the browser could not give it.
        """
        with library_errors("saving the session", self.config):
            return dict(await self.context.storage_state())

    async def _keep_state(self, keeper: StateKeeper) -> None:
        """Hand the storage state to ``keeper``; a failure is logged, never raised (the
        session closes either way)."""
        try:
            state = await wait_within(self.storage_state(), CLOSE_WAIT_S)
            await keeper(state)
        except (WebResearchError, TimeoutError) as exc:
            log.warning("the browser session's state was not saved: %s", exc)

    # --- navigation -----------------------------------------------------------------------
    async def open(self, url: str) -> NavResult:
        """Navigate, then wait until the page is ready (:mod:`.readiness`).

        Raises:
            BlockedAddress, BlockedDomain: the navigation or one of its redirect hops was
                refused by the request policy or the guarded proxy.
            UnsupportedContent: the URL is a file download.
            NetworkError, Timeout, BrowserError: the navigation failed.
        """
        started, self.asked = _loop_time(), url
        mark, seen = self.events.mark(), self.error_pages.count
        self.events.navigation_started()
        progress.report("loading the page")
        try:
            with library_errors("opening the page", self.config):
                response = await self.page.goto(
                    url, wait_until="commit", timeout=self.config.action_timeout_s * 1000
                )
        except WebResearchError as exc:
            refusal = self.events.refusal_since(mark)
            await self._abandon(exc, refusal is not None, seen)
            if refusal is not None:
                raise refusal from None
            raise
        refusal = self.events.refusal_since(mark)
        if refusal is not None and (response is None or refused_by_proxy(response)):
            raise refusal
        if response is not None and refused_by_proxy(response):
            raise BlockedAddress("opening the page was refused by the browser's guarded proxy")
        file_type = file_type_of(response)
        if file_type is not None:
            raise UnsupportedContent(
                f"opening the page failed: the URL is a file ({file_type}), not a page the "
                "browser can show",
                hint="read it with web_fetch (text, PDF) or fetch_image (a picture)",
                content_type=file_type,
            )
        return await self._arrived(response, started)

    async def _abandon(self, error: WebResearchError, refused: bool, seen: int) -> None:
        """After a navigation timed out, stop it: left pending, it would interrupt the next
        navigation of the tab (a retry with a longer ``timeout_ms`` failed so). After one
        that failed or was ``refused``, wait for its error page to commit (the tab had
        ``seen`` before it; :mod:`.page_error_pages`)."""
        if isinstance(error, Timeout):
            with best_effort():
                await wait_within(self.cdp.send("Page.stopLoading"), INTERRUPT_WAIT_S)
        elif shows_error_page(error, refused, self.capabilities.backend):
            await self.error_pages.wait_after(seen)

    async def _arrived(self, response: Response | None, started: float) -> NavResult:
        """Wait for readiness after a navigation (within the readiness budget and what is
        left of the action's time); where it ended."""
        progress.report("waiting for the page to settle")
        left = self.config.action_timeout_s - (_loop_time() - started)
        budget = max(MIN_READY_S, min(self.config.ready_timeout_s, left))
        ready = await wait_ready(self.page, self.cdp, self.events, budget)
        url = str(self.page.url)
        unreached = response is not None and proxy_failed(response)
        self.unreached = url if unreached else None  # its title is our proxy's, not the site's
        title = "" if self.error_page() is not None else ready.title
        status = None if response is None else int(response.status)
        return NavResult(url, title, status, ready.loaded, ready.settled, budget, unreached)

    async def history(self, step: Literal[-1, 1]) -> NavResult | None:
        """Go back (-1) or forward (1); ``None`` when there is no such entry."""
        before = str(self.page.url)
        started = _loop_time()
        mark, seen = self.events.mark(), self.error_pages.count
        self.events.navigation_started()
        what = "going back" if step < 0 else "going forward"
        go = self.page.go_back if step < 0 else self.page.go_forward
        try:
            with library_errors(what, self.config):
                response = await go(
                    wait_until="commit", timeout=self.config.action_timeout_s * 1000
                )
        except WebResearchError as exc:
            refusal = self.events.refusal_since(mark)
            await self._abandon(exc, refusal is not None, seen)
            if refusal is not None:
                raise refusal from None
            raise
        if response is None and str(self.page.url) == before:
            return None
        result = await self._arrived(response, started)
        return dataclasses.replace(result, status=None)

    # --- actions on elements --------------------------------------------------------------
    async def click(self, selector: str | None, ref: str | None) -> str:
        """Scroll into view and click the element's centre (then :meth:`_settled`)."""
        return await self._settled(self.elements.click(selector, ref))

    async def fill(self, selector: str | None, ref: str | None, text: str) -> str:
        """Focus, clear and insert ``text`` with real input events (then :meth:`_settled`)."""
        return await self._settled(self.elements.fill(selector, ref, text))

    async def press(self, key: str) -> str:
        """Press ``key`` in the focused element (then :meth:`_settled`)."""
        return await self._settled(self.elements.press(key))

    async def _settled(self, action: Awaitable[str]) -> str:
        """``action``, and a navigation it started waited for (:mod:`.page_settle`)."""
        budget = max(MIN_READY_S, min(self.config.ready_timeout_s, self.config.action_timeout_s))
        return await settle_after(self.page, self.cdp, self.events, action, budget)

    async def scroll(
        self, direction: str | None, amount: int | None, selector: str | None, ref: str | None
    ) -> str:
        """Scroll the page by ``amount`` px (default: one viewport) or an element into view."""
        return await self.elements.scroll(direction, amount, selector, ref)

    async def wait(self, selector: str | None, ref: str | None, ms: int | None) -> str:
        """Wait for an element to be visible, or ``ms`` milliseconds (bounded by the action
        timeout)."""
        return await self.elements.wait(selector, ref, ms)

    async def evaluate(self, expression: str) -> tuple[bool, Any]:
        """Run JavaScript; promises are awaited. A page exception is a value, not an error.

        The library turns cyclic values into cyclic Python structures and another window
        into a graph of its properties; :func:`json_safe` makes any of them plain JSON.

        Returns:
            ``(True, value)``, or ``(False, the exception's text)``.

        Raises:
            Timeout: the script did not return within the action timeout.
            BrowserError: the tab was lost.
        """
        try:
            with library_errors("evaluate", self.config):
                value = await self.page.evaluate(expression)
        except (Timeout, BrowserError) as mapped:
            cause = library_cause(mapped)
            if isinstance(mapped, Timeout) or mapped.details.get("session_lost") or not cause:
                raise
            text = _API_PREFIX.sub("", str(cause), count=1)
            lines = [ln for ln in text.splitlines() if not ln.strip().startswith("at ")]
            return False, " ".join(lines)[:500]
        return True, json_safe(value, EVALUATE_MAX_VALUES)

    # --- reading --------------------------------------------------------------------------
    async def html(self) -> tuple[str, str, str, list[FrameDocument], str]:
        """``(url, title, rendered HTML, frames with text, content type)``: :mod:`.page_reading`.

        Raises:
            BrowserError, Timeout: the page could not be read.
        """
        title, body, frames, mime = await self.reader.html()
        if self.error_page() is not None:
            title = ""
        return str(self.page.url), title, body, frames, mime

    async def snapshot(self) -> SnapshotData:
        """Collect the snapshot; a new document gets the next document stamp."""
        return await self.reader.snapshot()

    async def screenshot(self, full_page: bool, max_tiles: int) -> tuple[list[bytes], int]:
        """PNG tiles of the viewport's size, top to bottom (one tile unless ``full_page``)."""
        progress.report("taking a screenshot")
        return await self.reader.screenshot(full_page, max_tiles)

    async def screenshot_region(self, box: Box, zoom: float) -> bytes:
        """A PNG of ``box`` (x, y, width, height in CSS px of the page), drawn ``zoom``
        times larger: the browser renders it at that scale (sharper than enlarging pixels)."""
        return await self.reader.screenshot_region(self.cdp, box, zoom)

    async def page_size(self) -> tuple[int, int]:
        """The page's width and height (CSS px)."""
        return await self.reader.page_size()

    async def element_box(self, selector: str | None, ref: str | None) -> Box:
        """Where the element is on the page: (x, y, width, height) in CSS px of the page.

        Raises:
            InvalidArguments, StaleRef, BrowserError: as finding the element; BrowserError
                too when it is not displayed (no box).
        """
        return await self.elements.box(selector, ref)

    async def cookies(self) -> list[dict[str, Any]]:
        """The context's cookies (to carry a session to a screenshot fallback backend)."""
        with best_effort():
            return [dict(cookie) for cookie in await self.context.cookies()]
        return []

    async def add_cookies(self, cookies: list[dict[str, Any]]) -> None:
        """Add cookies to this session's context."""
        if cookies:
            with best_effort():
                await self.context.add_cookies(cookies)  # type: ignore[arg-type]


def _loop_time() -> float:
    return asyncio.get_running_loop().time()
