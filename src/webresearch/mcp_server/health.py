"""Health endpoints of the HTTP transport, and refusing requests while the server stops.

* ``GET /healthz`` — the process serves HTTP: 200 ``{"status": "ok"}``.
* ``GET /readyz`` — it can serve calls: tools are registered and the state and journal
  backends answer (``Toolkit.readiness``): 200 ``{"status": "ready"}``, else 503
  ``{"status": "not ready"}``. Also 503 while the server shuts down.

Both answer without a token and whatever ``Host`` or ``Origin`` a request names (a
container's health check and an orchestrator's probe reach the server by an address no
``--allowed-host`` lists), so they reveal nothing but that one word: no version, no tool
names, no backend names, addresses or errors (the reason a check failed is logged once per
change). ``HEAD`` works as ``GET``; another method gets 405. Every other path goes to the
wrapped app (the Host/Origin gate, the bearer-token gate, MCP).

While the server stops, every other request gets 503 (so nothing reaches an MCP session
that is being closed).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable

from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["HEALTH_PATH", "READY_PATH", "HealthRoutes"]

log = logging.getLogger("webresearch.mcp")

HEALTH_PATH = "/healthz"
READY_PATH = "/readyz"

#: ``await readiness()`` → check name → passed (``Toolkit.readiness``).
Readiness = Callable[[], Awaitable[dict[str, bool]]]


class HealthRoutes:
    """ASGI middleware answering ``/healthz`` and ``/readyz`` itself.

    Args:
        app: everything else (the gates and the MCP app).
        readiness: the readiness checks.

    Attributes:
        stopping: set when the server shuts down: ``/readyz`` and every other path but
            ``/healthz`` answer 503.
    """

    def __init__(self, app: ASGIApp, readiness: Readiness) -> None:
        self.app = app
        self.readiness = readiness
        self.stopping = False
        self._failing: tuple[str, ...] = ()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "")
        if path in (HEALTH_PATH, READY_PATH):
            if scope.get("method") not in ("GET", "HEAD"):
                await _answer(send, 405, {"status": "method not allowed"}, scope, allow=True)
            elif path == HEALTH_PATH:
                await _answer(send, 200, {"status": "ok"}, scope)
            elif await self._ready():
                await _answer(send, 200, {"status": "ready"}, scope)
            else:
                await _answer(send, 503, {"status": "not ready"}, scope)
            return
        if self.stopping:
            await _answer(send, 503, {"status": "shutting down"}, scope)
            return
        await self.app(scope, receive, send)

    async def _ready(self) -> bool:
        if self.stopping:
            return False
        checks = await self.readiness()
        failing = tuple(sorted(name for name, ok in checks.items() if not ok))
        if failing != self._failing:
            self._failing = failing
            if failing:
                log.warning("not ready: %s", ", ".join(failing))
            else:
                log.warning("ready again")
        return not failing


async def _answer(
    send: Send, status: int, body: dict[str, str], scope: Scope, *, allow: bool = False
) -> None:
    data = json.dumps(body).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(data)).encode()),
        (b"cache-control", b"no-store"),
    ]
    if allow:
        headers.append((b"allow", b"GET, HEAD"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send(
        {"type": "http.response.body", "body": b"" if scope.get("method") == "HEAD" else data}
    )
