"""The guarded proxy's shutdown: every accepted connection is closed, including one the
event loop hands over while (or after) the proxy closes, and a backend's close reaches its
proxy even when an earlier step fails or is cancelled. Real sockets on 127.0.0.1."""

from __future__ import annotations

import asyncio
import gc
import warnings
from typing import Any, cast

import pytest

from tests.browser.test_proxy import make_policy
from webresearch.browser.backend import BackendConfig, PlaywrightBackend
from webresearch.browser.base import SessionConfig
from webresearch.browser.proxy import GuardedProxy


class _HandedOverLate(GuardedProxy):
    """Holds each accepted connection back: the test hands it to the proxy when it wants
    (as the loop does with a socket it accepted just before the listener closed)."""

    held: list[tuple[str | None, asyncio.StreamReader, asyncio.StreamWriter]]

    def _accept(self, owner: str | None, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.held.append((owner, reader, writer))

    def hand_over(self) -> None:
        for owner, reader, writer in self.held:
            super()._accept(owner, reader, writer)


async def _accepted(p: _HandedOverLate, count: int) -> None:
    while len(p.held) < count:
        await asyncio.sleep(0.01)


def _no_open_transport_is_collected() -> None:
    """Garbage collection finds no unclosed socket or transport (warnings are errors)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", ResourceWarning)
        gc.collect()


async def test_a_connection_handed_over_after_close_is_closed_at_once() -> None:
    # Python 3.11: a socket the loop accepted before the listener closed reaches the proxy
    # after aclose() returned (Server.close stops no pending accept, wait_closed does not
    # wait for it). It was then served like any other, waiting up to HEAD_TIMEOUT_S for a
    # request head that no browser would send, and no later close reached it.
    p = _HandedOverLate(make_policy())
    p.held = []
    port = int((await p.listen()).rsplit(":", 1)[1])
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        await asyncio.wait_for(_accepted(p, 1), 5)
        await asyncio.wait_for(p.aclose(), 5)
        p.hand_over()
        assert await asyncio.wait_for(reader.read(), 3) == b""
    finally:
        writer.close()
        await writer.wait_closed()
    _no_open_transport_is_collected()


async def test_close_ends_a_connection_whose_handler_never_ran() -> None:
    # A connection handed to the proxy in the loop turn aclose() starts: aclose itself
    # closes its transport (not only the handler's finally, which may never run).
    p = _HandedOverLate(make_policy())
    p.held = []
    port = int((await p.listen()).rsplit(":", 1)[1])
    clients = [await asyncio.open_connection("127.0.0.1", port) for _ in range(3)]
    try:
        await asyncio.wait_for(_accepted(p, 3), 5)
        p.hand_over()
        await asyncio.wait_for(p.aclose(), 5)
        for reader, _writer in clients:
            assert await asyncio.wait_for(reader.read(), 3) == b""
    finally:
        for _reader, writer in clients:
            writer.close()
            await writer.wait_closed()
    _no_open_transport_is_collected()


class _FailingInterceptor:
    async def aclose(self) -> None:
        raise RuntimeError("closing the interception failed")


class _HangingSession:
    async def aclose(self) -> None:
        await asyncio.Event().wait()


async def _backend_with_a_proxy_connection() -> tuple[
    PlaywrightBackend, int, asyncio.StreamReader, asyncio.StreamWriter
]:
    """A backend (no browser) whose proxy has one idle browser connection open."""
    backend = PlaywrightBackend(BackendConfig(kind="chromium", session=SessionConfig()), make_policy())
    backend.proxy = GuardedProxy(make_policy())
    port = int((await backend.proxy.listen()).rsplit(":", 1)[1])
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    while backend.proxy.stats.accepted < 1:
        await asyncio.sleep(0.01)
    return backend, port, reader, writer


async def _proxy_is_closed(port: int, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        assert await asyncio.wait_for(reader.read(), 3) == b""
    finally:
        writer.close()
        await writer.wait_closed()
    with pytest.raises(OSError):
        await asyncio.open_connection("127.0.0.1", port)
    _no_open_transport_is_collected()


async def test_a_backend_closes_its_proxy_when_an_earlier_close_step_fails() -> None:
    # Before: aclose() stopped at the failing step; the proxy (its listener, its open
    # connections and their tasks) was left to the garbage collector.
    backend, port, reader, writer = await _backend_with_a_proxy_connection()
    backend._interceptor = cast(Any, _FailingInterceptor())
    with pytest.raises(RuntimeError):
        await backend.aclose()
    await _proxy_is_closed(port, reader, writer)


async def test_a_backend_closes_its_proxy_when_its_close_is_cancelled() -> None:
    backend, port, reader, writer = await _backend_with_a_proxy_connection()
    backend._sessions.append(cast(Any, _HangingSession()))
    closing = asyncio.ensure_future(backend.aclose())
    await asyncio.sleep(0.1)
    closing.cancel()
    with pytest.raises(asyncio.CancelledError):
        await closing
    await _proxy_is_closed(port, reader, writer)
