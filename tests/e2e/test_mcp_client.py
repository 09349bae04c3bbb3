"""What MCP clients rely on, checked with the SDK's own client over stdio and HTTP (issue 16):

* every tool states all four behaviour hints (and the browser is not read-only);
* a browser open of a slow local page sends progress notifications a person can read;
* a cancelled call stops the browser's work (the slow page sees the browser hang up), the
  session is free for the next action, and when the server ends no browser process is left.

The server is a real ``python -m webresearch mcp`` child with a launched Chromium.
"""

from __future__ import annotations

import queue
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import anyio
import httpx2
import mcp_types as types
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from tests.support.cli_runs import processes_mentioning, wait_for
from tests.support.http_server import LocalServer, Route

from .conftest import ServerProcess, start_http_server, stop

pytestmark = [pytest.mark.network, pytest.mark.slow]

#: Seconds for one whole client exchange (a cold Chromium start included, on loaded cores).
EXCHANGE_TIMEOUT_S = 120.0
#: Seconds between progress notifications in these tests (the default is 4).
INTERVAL_S = 0.5
HINTS = ("read_only_hint", "destructive_hint", "idempotent_hint", "open_world_hint")


class SlowSite:
    """``/slow`` draws itself over ~2.5 s; ``/endless`` never finishes (it notices when the
    browser hangs up); ``/page`` is quick."""

    def __init__(self) -> None:
        self.hung_up: queue.Queue[float] = queue.Queue()
        self.endless_started: queue.Queue[float] = queue.Queue()
        page = b"<html><head><title>Quick</title></head><body><p>Quick page.</p></body></html>"
        self.server = LocalServer(
            {
                "/slow": self._slow,
                "/endless": self._endless,
                "/page": Route(headers=[("Content-Type", "text/html")], body=page),
            }
        )

    def hangup(self, timeout_s: float) -> float | None:
        """When the browser hung up on ``/endless`` next (``None``: not within the time)."""
        try:
            return self.hung_up.get(timeout=timeout_s)
        except queue.Empty:
            return None

    @staticmethod
    def _start(h: BaseHTTPRequestHandler, title: str) -> None:
        h.send_response(200)
        h.send_header("Content-Type", "text/html; charset=utf-8")
        h.send_header("Connection", "close")
        h.end_headers()
        h.wfile.write(f"<html><head><title>{title}</title></head><body><p>".encode())
        h.wfile.flush()

    def _slow(self, h: BaseHTTPRequestHandler) -> None:
        self._start(h, "Slow")
        for _ in range(25):
            time.sleep(0.1)
            h.wfile.write(b"words ")
            h.wfile.flush()
        h.wfile.write(b"of a slow page.</p></body></html>")
        h.wfile.flush()

    def _endless(self, h: BaseHTTPRequestHandler) -> None:
        self._start(h, "Endless")
        self.endless_started.put(time.monotonic())
        deadline = time.monotonic() + 90
        try:
            while time.monotonic() < deadline:
                time.sleep(0.1)
                h.wfile.write(b"more ")
                h.wfile.flush()
        except OSError:  # the browser closed the connection: it stopped loading
            self.hung_up.put(time.monotonic())


@pytest.fixture
def site() -> Iterator[SlowSite]:
    slow = SlowSite()
    with slow.server:
        yield slow


@pytest.fixture
def env(child_env: dict[str, str], tmp_path: Path) -> dict[str, str]:
    """The child's settings: Chromium, fast progress, TMPDIR in tmp_path (the browser's run
    directory is there, so its processes can be found by that path)."""
    return {
        **child_env,
        "TMPDIR": str(tmp_path),
        "WEBRESEARCH_BROWSER_BACKEND": "chromium",
        "WEBRESEARCH_MCP_PROGRESS_INTERVAL_S": str(INTERVAL_S),
        "WEBRESEARCH_BROWSER_RATE_LIMIT": "1000",
    }


@asynccontextmanager
async def stdio_client(env: dict[str, str]) -> AsyncIterator[Client]:
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "webresearch", "mcp"], env=env
    )
    async with Client(params, mode="legacy") as client:
        yield client


@asynccontextmanager
async def http_client(server: ServerProcess) -> AsyncIterator[Client]:
    async with (
        httpx2.AsyncClient(timeout=EXCHANGE_TIMEOUT_S) as http,
        Client(streamable_http_client(server.url, http_client=http), mode="legacy") as client,
    ):
        yield client


async def check_the_client_contract(client: Client, site: SlowSite) -> None:
    # 1. Every tool states all four hints; the browser is not read-only.
    tools = {t.name: t for t in (await client.list_tools()).tools}
    assert {"web_fetch", "browser", "browser_open"} <= set(tools)
    for tool in tools.values():
        assert tool.annotations is not None
        hints = tool.annotations.model_dump(exclude_unset=True)
        assert all(isinstance(hints.get(h), bool) for h in HINTS), (tool.name, hints)
    browser = tools["browser"].annotations
    assert browser is not None
    assert (browser.read_only_hint, browser.destructive_hint, browser.idempotent_hint) == (
        False,
        True,
        False,
    )

    # 2. Progress while a slow page opens: readable stages, progress only growing.
    seen: list[tuple[float, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen.append((progress, message))

    opened = await client.call_tool(
        "browser_open", {"url": f"{site.server.base}/slow"}, progress_callback=on_progress
    )
    assert opened.is_error is False, opened.content
    messages = [m for _, m in seen]
    assert "starting Chromium" in messages
    assert "loading the page" in messages
    assert "waiting for the page to settle" in messages
    values = [p for p, _ in seen]
    assert values == sorted(values) and len(set(values)) == len(values)

    # 3. A cancelled browser open stops loading the endless page, and the session works at
    #    once; a cancelled browser_open closes its one-shot tab (which stops loading too).
    endless: list[tuple[str, dict[str, object]]] = [
        ("browser", {"action": "open", "url": f"{site.server.base}/endless"}),
        ("browser_open", {"url": f"{site.server.base}/endless"}),
    ]
    for name, arguments in endless:
        started = time.monotonic()
        await cancel_once_loading(client, site, name, arguments)
        stopped = await anyio.to_thread.run_sync(site.hangup, 20.0)
        assert stopped is not None, f"{name}: the browser kept loading after the cancel"
        assert stopped - started < 30, name  # far less than the page's 90 s or a timeout
    again = await client.call_tool("browser", {"action": "open", "url": f"{site.server.base}/page"})
    assert again.is_error is False, again.content
    first = again.content[0]
    assert isinstance(first, types.TextContent) and "Quick" in first.text


async def cancel_once_loading(
    client: Client, site: SlowSite, tool: str, arguments: dict[str, object]
) -> None:
    """Call ``tool``; cancel the call (the client sends ``notifications/cancelled``) once the
    endless page is loading."""

    async def call() -> None:
        await client.call_tool(tool, arguments)

    async with anyio.create_task_group() as tg:
        tg.start_soon(call)
        await anyio.to_thread.run_sync(lambda: site.endless_started.get(timeout=60.0))
        tg.cancel_scope.cancel()


async def test_stdio_client_sees_hints_progress_and_a_cancel_that_stops_the_browser(
    env: dict[str, str], site: SlowSite, tmp_path: Path
) -> None:
    with anyio.fail_after(EXCHANGE_TIMEOUT_S):
        async with stdio_client(env) as client:
            await check_the_client_contract(client, site)
            assert processes_mentioning(str(tmp_path)), "the browser should be running"
    # The client closed stdin: the server closed its browser and exited; nothing is left.
    assert wait_for(lambda: processes_mentioning(str(tmp_path)) == [], 20.0), (
        processes_mentioning(str(tmp_path))
    )


async def test_http_client_sees_hints_progress_and_a_cancel_that_stops_the_browser(
    env: dict[str, str], site: SlowSite, tmp_path: Path
) -> None:
    server = start_http_server(env)
    try:
        with anyio.fail_after(EXCHANGE_TIMEOUT_S):
            async with http_client(server) as client:
                await check_the_client_contract(client, site)
    finally:
        stop(server.process, server.drain)
    assert "Traceback" not in server.stderr_text()
    assert wait_for(lambda: processes_mentioning(str(tmp_path)) == [], 20.0), (
        processes_mentioning(str(tmp_path))
    )
