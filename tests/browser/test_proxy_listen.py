"""A proxy listener that closes while a connection is being accepted leaks no socket.

Python 3.11's ``asyncio.start_server`` takes an accepted socket from the kernel in one loop
turn and builds its transport in the next; a ``Server.close()`` in between (a session's
listener closes at every session close) made that build fail its ``_attach`` assertion and
drop the socket unclosed: the "unclosed transport" ResourceWarning collected during the
robots tests of test_access_navigation.py. Real sockets on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import socket
import warnings

import pytest

from tests.browser.test_proxy import make_policy
from webresearch.browser.proxy import GuardedProxy


def _collect_unclosed() -> list[str]:
    """Unclosed sockets and transports garbage collection finds now."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ResourceWarning)
        gc.collect()
    return [str(w.message) for w in caught if issubclass(w.category, ResourceWarning)]


@pytest.mark.parametrize("close", ["forget", "aclose"])
async def test_a_listener_closed_as_a_connection_arrives_leaks_no_socket(close: str) -> None:
    # The connection reaches the kernel's queue, then the listener closes after 0, 1, 2 … loop
    # turns: one of them falls between the accept and the transport's build.
    for turns in range(6):
        p = GuardedProxy(make_policy())
        port = int((await p.listen("session")).rsplit(":", 1)[1])
        client = socket.create_connection(("127.0.0.1", port), timeout=5)
        try:
            for _ in range(turns):
                await asyncio.sleep(0)
            if close == "forget":
                p.forget("session")
            await asyncio.wait_for(p.aclose(), 5)
            for _ in range(5):
                await asyncio.sleep(0)
            client.settimeout(5)
            # the browser's side sees the connection end (or reset), never a hang
            with contextlib.suppress(ConnectionResetError):
                assert client.recv(1) == b""
        finally:
            client.close()
        del p
        assert _collect_unclosed() == [], f"after {turns} loop turns"
