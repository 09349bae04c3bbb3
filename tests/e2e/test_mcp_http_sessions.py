"""Streamable-HTTP sessions are capped and reclaimed: at most ``mcp_max_sessions`` at once
(one more gets 503), and a session without a request for ``mcp_session_idle_s`` is closed —
its id then answers 404 and its place is free (issue 16: 200 abandoned sessions stayed)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx2
import pytest

from webresearch import Settings
from webresearch.mcp_server import serve_http

from .conftest import INITIALIZE

pytestmark = pytest.mark.network

PING = {"jsonrpc": "2.0", "id": 2, "method": "ping"}
HEADERS = {"Accept": "application/json, text/event-stream"}
IDLE_S = 0.6


@asynccontextmanager
async def serving(settings: Settings) -> AsyncIterator[str]:
    ready: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    task = asyncio.ensure_future(serve_http(settings, port=0, on_ready=ready.set_result))
    try:
        yield await asyncio.wait_for(asyncio.shield(ready), 30)
    finally:
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task


async def open_session(http: httpx2.AsyncClient, url: str) -> httpx2.Response:
    return await http.post(url, json=INITIALIZE, headers=HEADERS)


async def ping(http: httpx2.AsyncClient, url: str, session: str) -> int:
    answer = await http.post(url, json=PING, headers={**HEADERS, "Mcp-Session-Id": session})
    return answer.status_code


async def test_abandoned_sessions_are_capped_then_reclaimed(
    settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    capped = settings.replace(mcp_max_sessions=2, mcp_session_idle_s=IDLE_S)
    with caplog.at_level(logging.WARNING):
        async with serving(capped) as url, httpx2.AsyncClient(timeout=30) as http:
            first, second = await open_session(http, url), await open_session(http, url)
            assert first.status_code == second.status_code == 200
            ids = [first.headers["mcp-session-id"], second.headers["mcp-session-id"]]
            assert await ping(http, url, ids[0]) == 200  # a live session answers
            refused = await open_session(http, url)
            assert refused.status_code == 503  # the cap holds
            # Nobody uses the two sessions any more: both are closed after the idle time.
            # (A ping to a live session is a use: look again only after a full idle time.)
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:
                await asyncio.sleep(IDLE_S * 2)
                if all([await ping(http, url, s) == 404 for s in ids]):
                    break
            assert [await ping(http, url, s) for s in ids] == [404, 404]
            assert (await open_session(http, url)).status_code == 200  # room again
    assert "Traceback" not in caplog.text
    for session in ids:  # session ids work like credentials: never logged
        assert session not in caplog.text
