"""What happens to a session's tab besides its actions: the events a session records.

* refusals: requests the interceptor refused (navigations and the page's own requests, with
  those of iframes claimed when the session drains), and connections the guarded proxy
  refused;
* JavaScript dialogs, answered by the configured policy (or by a backend that answers them
  itself);
* popups, closed at once (a session has one tab), and other notes for the model;
* the requests in flight and when the network last moved (readiness, :mod:`.readiness`).

The tool drains refusals, dialogs and notes after each action (:meth:`PageEvents.drain`) and
journals them. Nothing here imports the browser library at run time; its objects are typed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

from ..errors import WebResearchError
from ..redact import redact_url
from .base import BlockedRequest, Capabilities, DialogRecord, SessionConfig
from .page_errors import best_effort
from .page_eval import CDPSender
from .proxy import ProxyRefusal
from .readiness import LONG_REQUEST_S

if TYPE_CHECKING:
    from playwright.async_api import BrowserContext, Dialog, Page, Request

__all__ = ["Drained", "PageEvents", "RefusalMark", "document_id", "frame_ids"]

#: (blocked requests, dialogs, notes) drained after an action.
Drained = tuple[list[BlockedRequest], list[DialogRecord], list[str]]
#: How many interceptor and proxy refusals had been recorded at some moment.
RefusalMark = tuple[int, int]

#: Most refusals of unknown frames and of connections kept between two drains.
MAX_KEPT = 50


class PageEvents:
    """The event record of one tab (see the module docstring).

    Args:
        config: the session settings (dialog policy).
        capabilities: what the backend can do (whether it answers dialogs itself).
        clock: monotonic seconds (the event loop's clock).
    """

    def __init__(
        self, config: SessionConfig, capabilities: Capabilities, clock: Callable[[], float]
    ) -> None:
        self.config = config
        self.capabilities = capabilities
        self.clock = clock
        #: The tab's top frame id (refusals of other frames of this tab are claimed at drain).
        self.main_frame: str | None = None
        #: (redacted URL, refusal) of the tab's last refused navigation (error-page check).
        self.refused_nav: tuple[str, WebResearchError] | None = None
        self._page: Page | None = None
        self._blocked: list[BlockedRequest] = []
        self._nav_refusals: list[WebResearchError] = []
        self._conn_refusals: list[WebResearchError] = []
        self._unattributed: list[tuple[str | None, BlockedRequest, WebResearchError]] = []
        self._dialogs: list[DialogRecord] = []
        self._notes: list[str] = []
        self._inflight: dict[Request, float] = {}
        self._net_activity = clock()
        self._tasks: set[asyncio.Task[None]] = set()

    def attach(self, page: Page, context: BrowserContext) -> None:
        """Listen to the tab's dialogs and requests and to the context's new pages."""
        self._page = page
        page.on("dialog", self._on_dialog)
        page.on("request", self._on_request)
        page.on("requestfinished", self._on_request_done)
        page.on("requestfailed", self._on_request_done)
        context.on("page", self._on_popup)

    # --- the network, for readiness -------------------------------------------------------
    def _on_request(self, request: Request) -> None:
        now = self.clock()
        self._inflight[request] = now
        self._net_activity = now

    def _on_request_done(self, request: Request) -> None:
        self._inflight.pop(request, None)
        self._net_activity = self.clock()

    def navigation_started(self) -> None:
        """A navigation begins: the network counts as active from now."""
        self._net_activity = self.clock()

    def network(self) -> tuple[bool, float]:
        """(a request is in flight, seconds since a request last started or finished).

        Requests pending longer than :data:`~.readiness.LONG_REQUEST_S` (long polls,
        streams) do not count; those pending ten times as long are forgotten.
        """
        now = self.clock()
        for request, started in list(self._inflight.items()):
            if now - started > 10 * LONG_REQUEST_S:
                del self._inflight[request]
        pending = any(now - started < LONG_REQUEST_S for started in self._inflight.values())
        return pending, 0.0 if pending else now - self._net_activity

    # --- dialogs and popups ---------------------------------------------------------------
    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _on_dialog(self, dialog: Dialog) -> None:
        kind = str(dialog.type)
        message = str(dialog.message)[:200]
        if self.capabilities.handles_dialogs:
            self._dialogs.append(DialogRecord(kind, message, "answered by the backend"))
            return
        # Dismissing beforeunload would cancel the navigation the model asked for.
        accept = kind == "beforeunload" or self.config.dialog_policy == "accept"
        self._dialogs.append(DialogRecord(kind, message, "accepted" if accept else "dismissed"))

        async def answer() -> None:
            with best_effort():
                await (dialog.accept() if accept else dialog.dismiss())

        self._spawn(answer())

    def _on_popup(self, page: Page) -> None:
        if page is self._page:
            return
        url = redact_url(str(page.url))[:200]
        self._notes.append(
            f"the page tried to open a new window ({url}); it was closed — this session has "
            "one tab: use open(url) to go there"
        )

        async def close() -> None:
            with best_effort():
                await page.close()

        self._spawn(close())

    def note(self, text: str) -> None:
        """A note for the model with the next action's result."""
        self._notes.append(text)

    # --- refusals -------------------------------------------------------------------------
    def record_blocked(
        self,
        frame_id: str | None,
        record: BlockedRequest,
        error: WebResearchError,
        *,
        main_frame: bool = False,
    ) -> None:
        """A refused request of this tab (called by the interceptor)."""
        top = main_frame or self.main_frame is None or frame_id == self.main_frame
        record = BlockedRequest(
            record.url, record.code, record.message, record.resource_type, record.navigation and top
        )
        self._blocked.append(record)
        if record.navigation:
            self._nav_refusals.append(error)
            self.refused_nav = (record.url, error)

    def record_connection_refused(self, refusal: ProxyRefusal) -> None:
        """A connection of this session's context that the guarded proxy refused (a worker's
        WebSocket, a request the interceptor did not see)."""
        self._blocked.append(
            BlockedRequest(
                url=refusal.target,
                code=refusal.error.code,
                message=refusal.error.message,
                resource_type="Connection",
                navigation=False,
            )
        )
        self._conn_refusals.append(refusal.error)
        del self._conn_refusals[:-MAX_KEPT]

    def record_unattributed(
        self, frame_id: str | None, record: BlockedRequest, error: WebResearchError
    ) -> None:
        """A refused request of some frame not known to be ours (claimed at drain time)."""
        self._unattributed.append((frame_id, record, error))
        del self._unattributed[:-MAX_KEPT]

    def mark(self) -> RefusalMark:
        """The refusals recorded so far (see :meth:`refusal_since`)."""
        return len(self._nav_refusals), len(self._conn_refusals)

    def refusal_since(self, mark: RefusalMark) -> WebResearchError | None:
        """The latest refusal recorded since ``mark``: the interceptor's navigation refusals
        first, then the guarded proxy's connection refusals."""
        nav = self._nav_refusals[mark[0] :]
        if nav:
            return nav[-1]
        conn = self._conn_refusals[mark[1] :]
        return conn[-1] if conn else None

    @property
    def has_unattributed(self) -> bool:
        """Refusals of unknown frames wait to be claimed (the drain needs the frame ids)."""
        return bool(self._unattributed)

    def drain(self, frame_ids: set[str]) -> Drained:
        """Refusals (with those of this tab's frames ``frame_ids`` claimed), dialogs and
        notes since the last drain."""
        for frame_id, record, _error in self._unattributed:
            if frame_id in frame_ids:
                self._blocked.append(
                    BlockedRequest(
                        record.url, record.code, record.message, record.resource_type, False
                    )
                )
        self._unattributed.clear()
        blocked, dialogs, notes = self._blocked, self._dialogs, self._notes
        self._blocked, self._dialogs, self._notes = [], [], []
        return blocked, dialogs, notes

    def cancel(self) -> None:
        """Stop pending dialog answers and popup closes (the tab is closing)."""
        for task in list(self._tasks):
            task.cancel()


async def frame_ids(cdp: CDPSender) -> set[str]:
    """The ids of every frame of the tab ``cdp`` is a session of (claiming refusals of
    iframes at drain); empty when the browser does not answer."""
    tree: dict[str, Any] = {}
    with best_effort():
        tree = await cdp.send("Page.getFrameTree")
    out: set[str] = set()
    stack = [tree.get("frameTree", {})]
    while stack:
        node = stack.pop()
        frame = node.get("frame") or {}
        if frame.get("id"):
            out.add(str(frame["id"]))
        stack.extend(node.get("childFrames") or [])
    return out


async def document_id(cdp: CDPSender) -> str:
    """The id of the document the tab's top frame shows (CDP's ``loaderId``: a new one for
    every document loaded, the same after ``history.pushState`` or a fragment change, which
    keep the document and so its snapshot refs); empty when the browser does not say."""
    tree: dict[str, Any] = {}
    with best_effort():
        tree = await cdp.send("Page.getFrameTree")
    return str((tree.get("frameTree", {}).get("frame") or {}).get("loaderId") or "")
