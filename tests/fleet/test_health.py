"""``/healthz`` and ``/readyz`` of ``serve_http`` against the real Redis and PostgreSQL the fleet
tests start: no token needed, nothing revealed, ``/readyz`` 503 while a configured backend is
down and 200 again when it is back; every other path still needs the token (issue 16)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager

import httpx2
import pytest

from tests.support.fleet_servers import PostgresServer, RedisServer
from webresearch import Settings
from webresearch.mcp_server import serve_http

from .conftest import fresh_database

TOKEN = "tok-health-7c1e93a0b5d24f68"


@pytest.fixture
def redis_alone() -> Iterator[RedisServer]:
    """A redis-server of this test's own, so stopping it disturbs nothing else."""
    server = RedisServer(password="health-secret-0d3c")
    try:
        server.start()
        yield server
    finally:
        server.close()


@asynccontextmanager
async def serving(settings: Settings) -> AsyncIterator[str]:
    """``serve_http`` in this loop; yields its base URL; cancelled at the end."""
    ready: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    task = asyncio.ensure_future(
        serve_http(settings, port=0, token=TOKEN, on_ready=ready.set_result)
    )
    try:
        url = await asyncio.wait_for(asyncio.shield(ready), 30)
        yield url.removesuffix("/mcp")
    finally:
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task


async def status(http: httpx2.AsyncClient, url: str) -> tuple[int, str]:
    answer = await http.get(url)
    return answer.status_code, answer.text


async def test_readyz_follows_redis_and_postgresql(
    redis_alone: RedisServer, postgres_server: PostgresServer
) -> None:
    async with fresh_database(postgres_server) as journal_url:
        settings = Settings.load(
            environ={},
            state_url=redis_alone.url,
            journal_url=journal_url,
            storage_connect_timeout_s=0.5,
            storage_timeout_s=0.5,
            search_provider="none",
        )
        async with serving(settings) as base, httpx2.AsyncClient(timeout=30) as http:
            assert await status(http, f"{base}/healthz") == (200, '{"status": "ok"}')
            assert await status(http, f"{base}/readyz") == (200, '{"status": "ready"}')
            # A health check reaches the server by whatever name: Host is not checked here.
            probe = await http.get(f"{base}/readyz", headers={"Host": "10.0.0.7:8000"})
            assert probe.status_code == 200
            # Everything else still needs the token (and the right Host).
            assert (await http.get(f"{base}/mcp")).status_code == 401
            assert (await http.get(f"{base}/metrics")).status_code == 401
            assert (await http.post(f"{base}/healthz/x", json={})).status_code == 401
            assert (await http.post(f"{base}/healthz")).status_code == 405

            redis_alone.stop()
            try:
                down = await status(http, f"{base}/readyz")
                assert down == (503, '{"status": "not ready"}')  # no backend named
                assert await status(http, f"{base}/healthz") == (200, '{"status": "ok"}')
            finally:
                redis_alone.start()  # same port
            assert await status(http, f"{base}/readyz") == (200, '{"status": "ready"}')

            postgres_server.stop()
            try:
                assert (await status(http, f"{base}/readyz"))[0] == 503
            finally:
                postgres_server.start()
            assert await status(http, f"{base}/readyz") == (200, '{"status": "ready"}')
