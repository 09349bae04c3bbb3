"""Running the HTTP transport under uvicorn, and stopping it without a traceback.

A signal used to cancel ``uvicorn.Server.serve`` in the middle: uvicorn's lifespan task was
left waiting and reported the ``CancelledError`` with a traceback on every Ctrl-C and
SIGTERM (``shared/security/mcp-sigterm``). Here the stop is an ordered shutdown instead:

1. new requests get 503 (:class:`~.health.HealthRoutes`), uvicorn is told to exit;
2. running calls are stopped (each gets :data:`~.server.CANCEL_GRACE_S` to release its
   browser tab or download) and answered "the server is shutting down";
3. the MCP session manager stops: every session is closed, which ends their streams;
4. uvicorn closes its listener and connections (none is left waiting) and returns.

The session manager's lifespan is run here rather than through uvicorn's lifespan protocol,
and uvicorn's own signal handlers are off (:class:`EmbeddedServer`): the caller owns the
signals and prints the one line.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import uvicorn
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager

from .health import HealthRoutes

__all__ = ["SHUTDOWN_GRACE_S", "EmbeddedServer", "serve_until_cancelled"]

#: Seconds uvicorn waits for open connections once the sessions are closed.
SHUTDOWN_GRACE_S = 5


class EmbeddedServer(uvicorn.Server):
    """uvicorn's server without its signal handling (it would also re-raise the signal
    after its shutdown, cancelling the caller's cleanup)."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


async def serve_until_cancelled(
    server: uvicorn.Server,
    sock: socket.socket,
    sessions: StreamableHTTPSessionManager,
    front: HealthRoutes,
    ready: Callable[[], Any],
    stop_calls: Callable[[], Awaitable[None]],
) -> None:
    """Serve on ``sock`` until cancelled; then stop in order (module docstring) and let the
    cancellation propagate.

    Args:
        server: the uvicorn server (its app is ``front``).
        sock: the listening socket.
        sessions: the MCP session manager (its lifespan runs here).
        front: the outermost app; set to refuse requests while stopping.
        ready: called once everything listens.
        stop_calls: stops the running calls and answers them (before sessions close).
    """
    serving = asyncio.ensure_future(server.serve(sockets=[sock]))
    cancelled = False
    try:
        async with sessions.run():
            ready()
            try:
                await asyncio.shield(serving)
            except asyncio.CancelledError:
                cancelled = True
                task = asyncio.current_task()
                if task is not None:
                    task.uncancel()  # stop in order first; re-raised below
                front.stopping = True
                server.should_exit = True
                await stop_calls()
        if cancelled:
            await asyncio.wait([serving], timeout=SHUTDOWN_GRACE_S + 2)
            raise asyncio.CancelledError
    finally:
        if not serving.done():
            server.force_exit = True
            serving.cancel()
            with contextlib.suppress(BaseException):
                await serving
