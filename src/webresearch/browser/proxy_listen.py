"""The guarded proxy's TCP listener (:mod:`.proxy`): a close that drops no accepted socket.

``asyncio.start_server`` (Python 3.11) loses a connection it accepted just before
``Server.close()``: the loop takes the socket from the kernel in its reader callback
(``sock.accept()``) and builds the transport one loop turn later, in a task; by then the
closed server's ``_attach`` fails its assertion, and the half-built transport — its socket
open — is dropped without a close (the error is only logged in debug mode). It is collected
later as an "unclosed transport" ``ResourceWarning``: one leaked descriptor per connection
that arrives as a listener closes (a session's listener closes at every session close).

Here the accept and the handover to ``on_accept`` happen in the same callback, so no
accepted socket is ever in flight: once :meth:`Listener.close` returns, every socket taken
from the kernel is the owner's, and the rest are refused by the kernel.
"""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import Callable

__all__ = ["BACKLOG", "Listener"]

log = logging.getLogger("webresearch.browser")

#: The listen backlog (connections the kernel queues before we accept them), and the most
#: connections accepted in one loop turn.
BACKLOG = 100


class Listener:
    """A non-blocking TCP listener on ``host`` (a free port), accepting in the loop's reader
    callback and handing each accepted (non-blocking) socket to ``on_accept`` at once.

    ``on_accept(sock)`` owns the socket from then on (it must close it) and must not raise.
    """

    def __init__(self, host: str, on_accept: Callable[[socket.socket], None]) -> None:
        self._loop = asyncio.get_running_loop()
        self._on_accept = on_accept
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            self._sock.bind((host, 0))
            self._sock.listen(BACKLOG)
            self._sock.setblocking(False)
            self.port = int(self._sock.getsockname()[1])
            self._loop.add_reader(self._sock.fileno(), self._ready)
        except BaseException:
            self._sock.close()
            raise
        self._closed = False

    def _ready(self) -> None:
        for _ in range(BACKLOG):
            try:
                conn, _address = self._sock.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError as exc:  # EMFILE, ECONNABORTED…: the next turn tries again
                log.debug("browser proxy: accept failed: %s", type(exc).__name__)
                return
            conn.setblocking(False)
            self._on_accept(conn)

    def close(self) -> None:
        """Stop listening (idempotent); sockets already handed over stay the owner's."""
        if self._closed:
            return
        self._closed = True
        self._loop.remove_reader(self._sock.fileno())
        self._sock.close()
