"""Elements of a tab: snapshot refs and selectors turned into elements, and the actions on them.

A ref (``d<doc>e<n>``, :mod:`.snapshot`) resolves only in the document whose snapshot issued
it, and only to the element it was issued for: a ref of an earlier document, of a detached
element, or one no snapshot of this session gave is an error that says which — never a click
on something else. A selector is waited for (:data:`ELEMENT_WAIT_S`) before "no element
matches".

A click is a real mouse click at the element's centre, after the library's checks that the
element is visible, stable and the one that receives the click. A backend that draws no
pixels (Lightpanda) has only an approximate geometry, in which an element inside an iframe
is never the one hit at its own centre; there an element of a frame is clicked by
dispatching the click event to that very element.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import BrowserError, InvalidArguments, StaleRef, Timeout
from ..wording import count
from .base import SessionConfig
from .page_errors import best_effort, library_errors
from .snapshot import RESOLVE_JS, parse_ref

if TYPE_CHECKING:
    from playwright.async_api import ElementHandle, Locator, Page

__all__ = ["ELEMENT_WAIT_S", "FORM_SUBMIT_S", "MAX_FRAMES_SEARCHED", "Elements", "RefState"]

#: Seconds an element given by selector is waited for before "no element matches".
ELEMENT_WAIT_S = 5.0
#: Most frames a ref is looked for in (the top document's snapshot reaches into
#: same-origin frames; an element there is acted on in its own frame).
MAX_FRAMES_SEARCHED = 20

_TAKE = "take a new snapshot"
#: Most seconds ``press Enter`` in a form's field waits for the navigation of the form's
#: submission to start: the HTML Standard queues a submission's navigation as a task
#: ("plan to navigate"), so on a busy machine it may start after the key event returned
#: (CI, session 18: a refused submission not reported on Lightpanda). A form its script
#: handles (no navigation) costs this wait.
FORM_SUBMIT_S = 0.5
#: Whether the element is a field of a form (Enter may submit it).
_IN_FORM_JS = "e => !!(e.form && e.form.isConnected)"
#: The focused element of the top document, or null (nothing, the body, or a frame or a
#: shadow root whose own element holds the focus: the key then goes to the page as it is).
_FOCUSED_JS = """() => {
  const el = document.activeElement;
  if (!el || el === document.body || el === document.documentElement) return null;
  if (el.shadowRoot && el.shadowRoot.activeElement) return null;
  return /^(IFRAME|FRAME)$/.test(el.tagName) ? null : el;
}"""


@dataclass
class RefState:
    """The session's snapshot stamps: a secret token (so a page cannot forge ref state) and
    the last document stamp issued (0: no snapshot yet)."""

    token: str
    issued: int = 0


class Elements:
    """Finds elements by ref or selector and acts on them.

    Args:
        page: the tab.
        config: the session settings (the action timeout).
        refs: the session's snapshot stamps.
    """

    def __init__(
        self, page: Page, config: SessionConfig, refs: RefState, *, real_geometry: bool = True
    ) -> None:
        self.page = page
        self.config = config
        self.refs = refs
        self.real_geometry = real_geometry

    @property
    def _timeout_ms(self) -> float:
        return self.config.action_timeout_s * 1000

    async def find(self, selector: str | None, ref: str | None) -> ElementHandle | Locator:
        """The element for a ref (checked against the document stamp) or a selector.

        Raises:
            InvalidArguments: neither given, a malformed ref, or a ref while no snapshot was
                taken in this session.
            StaleRef: the ref belongs to an earlier document or its element is gone.
            BrowserError: no element matches the selector.
        """
        element, _frame = await self._find(selector, ref)
        return element

    async def _find(
        self, selector: str | None, ref: str | None
    ) -> tuple[ElementHandle | Locator, bool]:
        """The element and whether it lives in a child frame (see :meth:`find`)."""
        if ref:
            return await self._by_ref(ref.strip())
        if not selector:
            raise InvalidArguments("give a selector or a ref", hint="take a snapshot to get refs")
        locator = self.page.locator(selector).first
        try:
            with library_errors(f"finding {selector!r}", self.config):
                await locator.wait_for(state="attached", timeout=ELEMENT_WAIT_S * 1000)
        except Timeout:
            raise BrowserError(
                f"no element matches {selector!r}",
                hint="take a snapshot to see the page's elements and their refs",
            ) from None
        return locator, False

    async def _by_ref(self, ref: str) -> tuple[ElementHandle, bool]:
        parsed = parse_ref(ref)
        if parsed is None:
            raise InvalidArguments(
                f"{ref!r} is not an element ref (refs look like d1e5)",
                hint="take a snapshot and use one of its [ref=…] values",
            )
        doc, _n = parsed
        if self.refs.issued == 0:
            raise InvalidArguments(
                f"no snapshot has been taken in this session yet, so ref {ref} means nothing "
                "here — take a snapshot first, then use one of its refs",
                hint="call browser with action=snapshot",
            )
        if doc > self.refs.issued:
            raise InvalidArguments(
                f"unknown ref {ref}: no snapshot of this session gave it (the latest refs "
                f"look like d{self.refs.issued}e…)",
                hint=_TAKE,
            )
        element, why = await self._resolve(doc, ref)
        if element is not None:
            return element, why == "frame"
        if why == "detached":
            message = f"stale ref {ref}: that element is no longer on the page"
        elif why == "unknown":
            message = f"unknown ref {ref} for this page"
        else:  # "stale" or "none": the page is another document than the snapshot's
            message = f"stale ref {ref}: the page has changed since that snapshot"
        raise StaleRef(message, hint=_TAKE)

    async def _resolve(self, doc: int, ref: str) -> tuple[ElementHandle | None, str]:
        """(element, "" or "frame") or (None, why) — why is the top document's answer of
        :data:`~.snapshot.RESOLVE_JS`. An element inside a same-origin iframe is resolved in
        its own frame ("frame"), so actions scroll and click it there."""
        why = "stale"
        for index, frame in enumerate(self.page.frames[:MAX_FRAMES_SEARCHED]):
            handle = None
            with best_effort():
                handle = await frame.evaluate_handle(
                    RESOLVE_JS, {"token": self.refs.token, "doc": doc, "ref": ref}
                )
            if handle is None:
                continue
            element = handle.as_element()
            if element is not None:
                return element, "frame" if index else ""
            answer = "stale"
            with best_effort():
                answer = str(await handle.json_value())
            if index == 0:
                why = answer
                if answer != "elsewhere":
                    return None, answer
        return None, why

    async def click(self, selector: str | None, ref: str | None) -> str:
        """Scroll into view and click the element's centre (see the module docstring)."""
        element, in_frame = await self._find(selector, ref)
        with library_errors("click", self.config):
            if in_frame and not self.real_geometry:
                await element.dispatch_event("click")
            else:
                await element.click(timeout=self._timeout_ms)
        await asyncio.sleep(0)  # let navigation/dialog events land
        return "clicked"

    async def fill(self, selector: str | None, ref: str | None, text: str) -> str:
        """Focus, clear and insert ``text`` with real input events."""
        element = await self.find(selector, ref)
        with library_errors("fill", self.config):
            await element.fill(text, timeout=self._timeout_ms)
        return f"filled {count(len(text), 'character')}"

    async def press(self, key: str) -> str:
        """Press ``key`` in the focused element: through the library's element press, which
        waits for a navigation it starts (a form submitted by Enter) as a click does; with
        no element of the top document focused (the body, a frame), on the page."""
        with library_errors(f"pressing {key!r}", self.config):
            focused = await self.page.evaluate_handle(_FOCUSED_JS)
            element = focused.as_element()
            if element is None:
                await self.page.keyboard.press(key)
            else:
                submits = key == "Enter" and bool(await element.evaluate(_IN_FORM_JS))
                # listening before the key: a submission started at once is seen at once
                started = asyncio.ensure_future(self._submission_started()) if submits else None
                try:
                    await element.press(key, timeout=self._timeout_ms)
                finally:
                    if started is not None:
                        await started
        return f"pressed {key}"

    async def _submission_started(self) -> None:
        """Wait at most :data:`FORM_SUBMIT_S` for a navigation request of the top frame (a
        form's submission queued as a task); nothing when none starts."""
        page = self.page

        def navigation(request: Any) -> bool:
            return bool(request.is_navigation_request() and request.frame == page.main_frame)

        with best_effort():
            await page.wait_for_event(
                "request", predicate=navigation, timeout=FORM_SUBMIT_S * 1000
            )

    async def scroll(
        self, direction: str | None, amount: int | None, selector: str | None, ref: str | None
    ) -> str:
        """Scroll the page by ``amount`` px (default: one viewport) or an element into view."""
        if selector or ref:
            element = await self.find(selector, ref)
            with library_errors("scroll", self.config):
                await element.scroll_into_view_if_needed(timeout=self._timeout_ms)
        else:
            width, height = self.config.viewport
            step = amount or (height if direction in (None, "up", "down") else width)
            dx, dy = {"up": (0, -step), "down": (0, step), "left": (-step, 0), "right": (step, 0)}[
                direction or "down"
            ]
            with library_errors("scroll", self.config):
                await self.page.evaluate("([dx, dy]) => window.scrollBy(dx, dy)", [dx, dy])
        with library_errors("scroll", self.config):
            pos: list[Any] = await self.page.evaluate(
                "() => [Math.round(window.scrollX), Math.round(window.scrollY), "
                "Math.max(document.documentElement.scrollHeight, "
                "document.body ? document.body.scrollHeight : 0)]"
            )
        return f"scroll position x={pos[0]} y={pos[1]} of page height {pos[2]} px"

    async def box(self, selector: str | None, ref: str | None) -> tuple[float, float, float, float]:
        """The element's (x, y, width, height) in CSS px of the page (its frame's offset
        included), after scrolling it into view.

        Raises:
            BrowserError: it is not displayed (no box); as :meth:`find` otherwise.
        """
        element = await self.find(selector, ref)
        with library_errors("finding the element", self.config):
            with best_effort():
                await element.scroll_into_view_if_needed(timeout=ELEMENT_WAIT_S * 1000)
            box = await element.bounding_box()
            scroll: list[Any] = await self.page.evaluate("() => [window.scrollX, window.scrollY]")
        if box is None or box["width"] < 1 or box["height"] < 1:
            raise BrowserError(
                "the element is not displayed, so it has no picture",
                hint="take a snapshot to see what the page shows, or give a clip region",
            )
        return (
            box["x"] + float(scroll[0]),
            box["y"] + float(scroll[1]),
            box["width"],
            box["height"],
        )

    async def wait(self, selector: str | None, ref: str | None, ms: int | None) -> str:
        """Wait for an element to be visible, or ``ms`` milliseconds (bounded by the action
        timeout)."""
        limit_ms = self._timeout_ms
        if selector:
            try:
                with library_errors("wait", self.config):
                    await self.page.locator(selector).first.wait_for(
                        state="visible", timeout=min(ms or limit_ms, limit_ms)
                    )
            except Timeout:
                raise Timeout(
                    f"no visible element matched {selector!r} in time",
                    hint="take a snapshot to see what the page shows",
                ) from None
            return f"{selector} is visible"
        if ref:
            await self.find(None, ref)
            return f"{ref} is on the page"
        delay = min(float(ms or 0), limit_ms) / 1000
        await asyncio.sleep(delay)
        return f"waited {delay * 1000:.0f} ms"
