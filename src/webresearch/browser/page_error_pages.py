"""After a navigation of the tab failed: wait for the browser's error page to commit.

Chromium shows its error page (``chrome-error://chromewebdata/``) for a navigation whose
request failed — one the interceptor refused (a redirect hop to a forbidden address)
included. The library's ``goto`` of that navigation fails as soon as the request does, and
the error page commits a moment later; an ``open`` sent in between was interrupted by that
commit ("Navigation to … is interrupted by another navigation to chrome-error://…") although
its page then loaded — measured in 10 of 10 opens right after a refused redirect. Sending
that ``goto`` again does not help (it is in turn interrupted by the first one's commit), so
the failed navigation's error page is waited for instead (:class:`ErrorPages`). The tab may
show an error page already (an earlier refusal), so what is waited for is a NEW commit of
one, counted from before the navigation started.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING

from ..errors import BlockedAddress, BlockedDomain, NetworkError, WebResearchError
from ..runtime.waiting import wait_within

if TYPE_CHECKING:
    from playwright.async_api import Frame, Page

__all__ = ["ERROR_PAGE_WAIT_S", "ErrorPages", "shows_error_page"]

#: Seconds a failed navigation's error page may take to commit (measured: a few ms).
ERROR_PAGE_WAIT_S = 1.0


def shows_error_page(error: WebResearchError, refused: bool, backend: str) -> bool:
    """True when a navigation that failed with ``error`` (``refused``: by our guard) leaves
    the browser's error page in the tab: a refused or failed request on a Chromium-based
    backend (Lightpanda shows none; a timeout is stopped, a download is no navigation)."""
    failed = refused or isinstance(error, (BlockedAddress, BlockedDomain, NetworkError))
    return failed and backend != "lightpanda"


class ErrorPages:
    """Counts commits of the browser's error page in the tab's top frame."""

    def __init__(self) -> None:
        #: error pages committed so far.
        self.count = 0
        self._page: Page | None = None
        self._committed = asyncio.Event()

    def attach(self, page: Page) -> None:
        """Listen to the tab's navigations."""
        self._page = page
        page.on("framenavigated", self._on_navigated)

    def _on_navigated(self, frame: Frame) -> None:
        if (
            self._page is not None
            and frame == self._page.main_frame
            and frame.url.startswith("chrome-error:")
        ):
            self.count += 1
            self._committed.set()

    async def wait_after(self, seen: int) -> None:
        """Wait until more than ``seen`` error pages committed, at most
        :data:`ERROR_PAGE_WAIT_S`; never raises (but a cancellation)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + ERROR_PAGE_WAIT_S
        while self.count <= seen:
            left = deadline - loop.time()
            if left <= 0:
                return
            self._committed.clear()
            with contextlib.suppress(TimeoutError):
                await wait_within(self._committed.wait(), left)
