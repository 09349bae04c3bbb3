"""Progress notifications of a running call (MCP ``notifications/progress``; issue 16).

MCP clients time out a request after a while (60 s by default in the reference SDKs) unless
progress notifications arrive, which many clients treat as "still working" and which extend
the timeout. A client that wants them sends a ``progressToken`` with ``tools/call``. Then a
:class:`ProgressPump` runs beside the call:

* each new line the call reports (``webresearch.progress``: "starting Chromium",
  "waiting for the page to settle") is sent at once;
* the latest line is sent again every ``interval_s`` (≤ 5 s) while the call runs, so a slow
  page that stays in one stage for 40 s still sends a notification every few seconds.

``progress`` is the call's elapsed seconds (it only grows, as the protocol requires), with no
``total``: how long a page takes is not known in advance. The pump stops before the call's
result is sent (no notification may follow the response).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable

__all__ = ["ProgressPump", "Sender"]

log = logging.getLogger("webresearch.mcp")

#: ``await send(progress, message)``: one notification.
Sender = Callable[[float, str], Awaitable[None]]

#: Said when a call has reported nothing yet but the interval has passed.
_WORKING = "working"


class ProgressPump:
    """Sends one call's progress lines as notifications, and repeats the latest.

    Args:
        send: sends one notification (progress seconds, message).
        interval_s: longest time between two notifications while the call runs.
        clock: monotonic seconds (tests inject one).
    """

    def __init__(
        self,
        send: Sender,
        interval_s: float,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._send = send
        self.interval_s = interval_s
        self._clock = clock
        self._started = clock()
        self._message: str | None = None
        self._changed = asyncio.Event()
        self._last = 0.0
        self.sent = 0

    def report(self, message: str) -> None:
        """A new stage (a :data:`webresearch.progress.ProgressCallback`): sent at once."""
        self._message = message
        self._changed.set()

    async def run(self) -> None:
        """Send notifications until cancelled (or until sending fails: the client is gone)."""
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), self.interval_s)
            self._changed.clear()
            elapsed = max(round(self._clock() - self._started, 3), self._last + 0.001)
            self._last = elapsed
            try:
                await self._send(elapsed, self._message or _WORKING)
            except Exception as exc:  # the stream is gone: the call goes on without us
                log.debug("progress notification not sent (%s)", type(exc).__name__)
                return
            self.sent += 1
