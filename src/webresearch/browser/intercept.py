"""Request interception at the protocol level: the CDP ``Fetch`` domain (SPEC §1.4).

``Fetch.enable`` with the pattern ``*`` at the request stage pauses EVERY request before it
leaves the browser — the top document, each redirect hop (Chromium reports hops as new
paused requests carrying ``redirectedRequestId``), iframes, subresources, workers — and emits
``Fetch.requestPaused``. Each paused request is judged by :class:`~.policy.RequestPolicy`
and answered with ``Fetch.continueRequest`` or ``Fetch.failRequest`` (``BlockedByClient``,
or ``NameNotResolved`` when our resolver cannot resolve the name). A route-level hook such as
Playwright's ``page.route`` is not enough: it is not consulted for redirect hops.

The interceptor fails closed: if judging a request raises, the request is failed.
It also serves the capability probe page (:data:`~.probe.PROBE_URL`) itself with
``Fetch.fulfillRequest`` while ``serve_probe`` is on.

The CDP session is duck-typed (``send(method, params)`` and ``on(event, handler)``), so this
module does not import the browser library.
"""

from __future__ import annotations

import asyncio
import base64
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from ..errors import WebResearchError
from ..redact import redact_url
from .base import BlockedRequest
from .page_errors import best_effort
from .policy import RequestPolicy, describe_request, reword_refusal
from .probe import PROBE_HTML, PROBE_URL

__all__ = ["CDPSessionLike", "Interceptor", "OnBlocked"]

log = logging.getLogger("webresearch.browser")


class CDPSessionLike(Protocol):
    """The part of a CDP session the interceptor uses."""

    def send(self, method: str, params: dict[str, Any] | None = None) -> Awaitable[Any]:
        """Send a CDP command; resolves to its result."""
        ...

    def on(self, event: str, f: Callable[..., Any]) -> Any:
        """Subscribe to a CDP event."""
        ...


#: ``on_blocked(frame_id, record, error)``: a request was refused.
OnBlocked = Callable[[str | None, BlockedRequest, WebResearchError], None]


class Interceptor:
    """Pauses every request of a CDP target and lets through only what the policy allows.

    Args:
        cdp: a browser-level or page-level CDP session.
        policy: the request policy.
        on_blocked: called for each refused request.
    """

    def __init__(self, cdp: CDPSessionLike, policy: RequestPolicy, on_blocked: OnBlocked) -> None:
        self.cdp = cdp
        self.policy = policy
        self.on_blocked = on_blocked
        self.serve_probe = False
        #: Requests paused so far (the probe checks this moved).
        self.paused = 0
        self._tasks: set[asyncio.Task[None]] = set()

    async def enable(self) -> None:
        """Subscribe and ``Fetch.enable`` every URL at the request stage.

        Raises:
            Exception: the backend's protocol error when it has no ``Fetch`` domain.
        """
        self.cdp.on("Fetch.requestPaused", self._on_paused)
        await self.cdp.send(
            "Fetch.enable", {"patterns": [{"urlPattern": "*", "requestStage": "Request"}]}
        )

    def _on_paused(self, event: dict[str, Any]) -> None:
        self.paused += 1
        task = asyncio.ensure_future(self._handle(event))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _handle(self, event: dict[str, Any]) -> None:
        request_id = event.get("requestId", "")
        request = event.get("request") or {}
        url = str(request.get("url", ""))
        try:
            if self.serve_probe and url == PROBE_URL:
                await self.cdp.send(
                    "Fetch.fulfillRequest",
                    {
                        "requestId": request_id,
                        "responseCode": 200,
                        "responseHeaders": [
                            {"name": "Content-Type", "value": "text/html; charset=utf-8"}
                        ],
                        "body": base64.b64encode(PROBE_HTML.encode()).decode("ascii"),
                    },
                )
                return
            verdict = await self.policy.check(url, redirect=True)
        except Exception:
            log.exception("judging a browser request failed; refusing it")
            with best_effort():
                await self.cdp.send(
                    "Fetch.failRequest", {"requestId": request_id, "errorReason": "Failed"}
                )
            return
        if verdict.allowed:
            with best_effort():  # the target may have gone away
                await self.cdp.send("Fetch.continueRequest", {"requestId": request_id})
            return
        # Record first, then fail: the navigation error must find its refusal recorded.
        if verdict.error is not None:
            self._record(event, url, verdict.error)
        with best_effort():
            await self.cdp.send(
                "Fetch.failRequest", {"requestId": request_id, "errorReason": verdict.reason}
            )

    def _record(self, event: dict[str, Any], url: str, error: WebResearchError) -> None:
        resource_type = str(event.get("resourceType", ""))
        what = describe_request(resource_type, redirect_hop=bool(event.get("redirectedRequestId")))
        error = reword_refusal(error, what)
        record = BlockedRequest(
            url=redact_url(url)[:300],
            code=error.code,
            message=error.message,
            resource_type=resource_type,
            navigation=resource_type == "Document",
        )
        try:
            self.on_blocked(event.get("frameId"), record, error)
        except Exception:
            log.exception("recording a blocked browser request failed")

    async def aclose(self) -> None:
        """Cancel pending judgements (their requests die with the target)."""
        for task in list(self._tasks):
            task.cancel()
        self._tasks.clear()
