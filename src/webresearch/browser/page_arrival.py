"""The document response an action on the page led to (a click on a link, a form sent by a
key, a page's own ``location = …`` it set off), so the action reports its HTTP status as
``open`` does (new-user test, session 18: a click that landed on a 404 page said nothing
of it).

:class:`ArrivalWatch` listens to the tab while the action runs: every navigation request of
the top frame starts a new arrival (a redirect hop is a new request, so the last one is the
final document's), and its response gives the status. A navigation that got no response
(refused by the guard, failed) has no status. Nothing here imports the browser library at
run time; its objects are typed.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import TracebackType
from typing import TYPE_CHECKING

from .responses import proxy_failed

if TYPE_CHECKING:
    from playwright.async_api import Page, Request, Response

__all__ = ["Arrival", "ArrivalWatch"]


@dataclass(frozen=True, slots=True)
class Arrival:
    """A top-frame navigation seen during an action.

    Attributes:
        status: HTTP status of its document response; ``None`` when it got none (refused,
            failed, or still waiting).
        unreached: the response is the guarded proxy's own 502 (the site could not be
            reached), not the site's.
    """

    status: int | None
    unreached: bool = False


class ArrivalWatch:
    """While entered, records the tab's top-frame navigations (see the module docstring).

    Args:
        page: the tab.
    """

    def __init__(self, page: Page) -> None:
        self.page = page
        self._seen = False
        self._response: Response | None = None

    def __enter__(self) -> ArrivalWatch:
        self.page.on("request", self._on_request)
        self.page.on("response", self._on_response)
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.page.remove_listener("request", self._on_request)
        self.page.remove_listener("response", self._on_response)

    def _on_request(self, request: Request) -> None:
        if request.is_navigation_request() and request.frame == self.page.main_frame:
            self._seen = True
            self._response = None

    def _on_response(self, response: Response) -> None:
        request = response.request
        if request.is_navigation_request() and request.frame == self.page.main_frame:
            self._response = response

    def arrival(self) -> Arrival | None:
        """The last navigation seen while entered, ``None`` when there was none."""
        if not self._seen:
            return None
        response = self._response
        if response is None:
            return Arrival(None)
        return Arrival(int(response.status), proxy_failed(response))
