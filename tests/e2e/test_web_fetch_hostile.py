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


def gzip_bomb(size: int, block: bytes = b"<p>" + b"A" * ((1 << 20) - 3)) -> bytes:
    comp = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
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
    # Over the 2 MiB cap, a binary body (a PDF, an archive) is refused; HTML and text are
    # read as far as the cap (issue 21, tests/e2e/test_download_cap.py).
    srv.routes["/big"] = Route(
        headers=[("Content-Type", "application/pdf")], body=b"%PDF-1.7\n" + b"\x00\x01" * 1_500_000
    )
    srv.routes["/bomb"] = Route(
        headers=[("Content-Type", "application/octet-stream"), ("Content-Encoding", "gzip")],
        body=gzip_bomb(64 << 20, b"\x00" * (1 << 20)),  # 32 times the cap: enough to tell
    )
    srv.routes["/html-bomb"] = Route(
        headers=[("Content-Type", "text/html"), ("Content-Encoding", "gzip")],
        body=gzip_bomb(64 << 20),
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
        ("/html-bomb", None, 20),
        ("/slow", "timeout", 5),
        ("/loop", "too_many_redirects", 5),
    ],
)
async def test_hostile_pages_end_quickly_with_bounded_memory(
    toolkit: Toolkit, hostile: LocalServer, path: str, code: str | None, seconds: float
) -> None:
    tracemalloc.start()
    started = time.monotonic()
    result = await toolkit.call("web_fetch", {"url": f"{hostile.base}{path}"})
    elapsed = time.monotonic() - started
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    if code is None:  # HTML: read as far as the cap, and said so
        assert result.ok and result.meta["download_truncated"] is True, result.text
        assert result.meta["body_bytes"] == 2 * 1024 * 1024, result.meta  # the cap, not 64 MiB
    else:
        assert result.error is not None and result.error.code == code, result.text
    assert elapsed < seconds
    assert peak < 32 * 1024 * 1024, peak  # the 64 MiB bombs and the 3 MiB file never sit in memory
