"""Hostile servers through the whole web_fetch tool: each ends quickly, with the right code,
and memory stays bounded (issue 2 acceptance)."""

from __future__ import annotations

import time
import tracemalloc
import zlib
from collections.abc import AsyncIterator, Iterator
from http.server import BaseHTTPRequestHandler

import pytest

from tests.support.http_server import LocalServer, Route
from webresearch import Settings, Toolkit
from webresearch.runtime.journal import MemoryJournal


def gzip_bomb(size: int) -> bytes:
    comp = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    block = b"<p>" + b"A" * ((1 << 20) - 3)
    return b"".join([comp.compress(block) for _ in range(size >> 20)] + [comp.flush()])


def never_finishes(h: BaseHTTPRequestHandler) -> None:
    h.send_response_only(200)
    h.send_header("Content-Type", "text/html")
    h.send_header("Content-Length", str(50 << 20))
    h.end_headers()
    try:
        for _ in range(2000):
            h.wfile.write(b"<p>still sending</p>\n")
            h.wfile.flush()
            time.sleep(0.01)
    except (BrokenPipeError, ConnectionResetError):
        pass


@pytest.fixture(scope="module")
def hostile() -> Iterator[LocalServer]:
    srv = LocalServer()
    srv.routes["/big"] = Route(
        headers=[("Content-Type", "text/html")], body=b"<html><body>" + b"<p>big page</p>" * 200_000
    )
    srv.routes["/bomb"] = Route(
        headers=[("Content-Type", "text/html"), ("Content-Encoding", "gzip")],
        body=gzip_bomb(1 << 30),
    )
    srv.routes["/slow"] = never_finishes
    srv.routes["/loop"] = Route(302, [("Location", "/loop")])
    with srv:
        yield srv


@pytest.fixture
async def toolkit(settings: Settings) -> AsyncIterator[Toolkit]:
    async with Toolkit(
        settings.replace(request_timeout_s=2.0, render="never"), journal=MemoryJournal()
    ) as tk:
        yield tk


@pytest.mark.parametrize(
    ("path", "code", "seconds"),
    [
        ("/big", "too_large", 5),
        ("/bomb", "too_large", 5),
        ("/slow", "timeout", 5),
        ("/loop", "too_many_redirects", 5),
    ],
)
async def test_hostile_pages_end_quickly_with_bounded_memory(
    toolkit: Toolkit, hostile: LocalServer, path: str, code: str, seconds: float
) -> None:
    tracemalloc.start()
    started = time.monotonic()
    result = await toolkit.call("web_fetch", {"url": f"{hostile.base}{path}"})
    elapsed = time.monotonic() - started
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert result.error is not None and result.error.code == code, result.text
    assert elapsed < seconds
    assert peak < 32 * 1024 * 1024, peak  # the 256 MiB bomb and the 3 MiB page never sit in memory
