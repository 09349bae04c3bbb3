"""The guarded client against a real local server: encodings, caps, bombs, slow peers."""

from __future__ import annotations

import gzip
import socket
import threading
import time
import tracemalloc
import zlib
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler

import brotli
import pytest

from tests.support.fake_net import ScriptedResolver
from tests.support.http_server import LocalServer, Route
from webresearch.addresses import AddressPolicy
from webresearch.errors import BlockedAddress, Timeout, TooLarge
from webresearch.net.client import GuardedClient
from webresearch.net.guard import SSRFGuard

try:
    from compression import zstd  # type: ignore[import-not-found,unused-ignore]
except ImportError:
    from backports import zstd

LOOPBACK = AddressPolicy.from_strings(allowed_networks=["127.0.0.0/8"])
TEXT = ("Grüße, мир, 世界 — " * 2000).encode("utf-8")


def client(**kw: object) -> GuardedClient:
    return GuardedClient(SSRFGuard(LOOPBACK), **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("coding", "encode"),
    [
        ("gzip", gzip.compress),
        ("x-gzip", gzip.compress),
        ("deflate", zlib.compress),
        ("deflate", lambda d: zlib.compress(d)[2:-4]),  # raw deflate under "deflate"
        ("br", brotli.compress),
        ("zstd", zstd.compress),
        ("gzip, br", lambda d: brotli.compress(gzip.compress(d))),
        ("identity", lambda d: d),
        ("gzip", lambda d: gzip.compress(d[:1000]) + gzip.compress(d[1000:])),  # multi-member
    ],
)
async def test_content_encodings_are_decoded(server: LocalServer, coding: str, encode) -> None:  # type: ignore[no-untyped-def]
    server.routes["/t"] = Route(
        headers=[("Content-Type", "text/plain; charset=utf-8"), ("Content-Encoding", coding)],
        body=encode(TEXT),
    )
    async with client() as c:
        response = await c.get(f"{server.base}/t")
    assert response.body == TEXT
    assert response.decoded


@pytest.mark.parametrize("coding", ["gzip", "br", "deflate", "zstd"])
async def test_a_body_that_lies_about_its_encoding_is_read_as_is(
    server: LocalServer, coding: str
) -> None:
    server.routes["/t"] = Route(
        headers=[("Content-Type", "text/plain"), ("Content-Encoding", coding)],
        body=b"plain text, not compressed at all",
    )
    async with client() as c:
        response = await c.get(f"{server.base}/t")
    assert response.body == b"plain text, not compressed at all"
    assert not response.decoded


def _bomb(size: int) -> bytes:
    comp = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    block = b"\0" * (1 << 20)
    parts = [comp.compress(block) for _ in range(size >> 20)]
    parts.append(comp.flush())
    return b"".join(parts)


@pytest.fixture(scope="module")
def bomb() -> bytes:
    return _bomb(512 << 20)  # 512 MiB of zeros in ~0.5 MiB


async def test_a_gzip_bomb_stops_at_the_cap_quickly_with_bounded_memory(
    server: LocalServer, bomb: bytes
) -> None:
    server.routes["/bomb"] = Route(
        headers=[("Content-Type", "text/html"), ("Content-Encoding", "gzip")], body=bomb
    )
    async with client() as c:
        tracemalloc.start()
        started = time.monotonic()
        with pytest.raises(TooLarge):
            await c.get(f"{server.base}/bomb")
        elapsed = time.monotonic() - started
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    assert elapsed < 5
    assert peak < 24 * 1024 * 1024, peak  # cap (2 MiB) + bounded pieces, not 512 MiB


async def test_allow_capped_returns_the_first_bytes(server: LocalServer, bomb: bytes) -> None:
    server.routes["/bomb"] = Route(headers=[("Content-Encoding", "gzip")], body=bomb)
    async with client(download_cap_bytes=100_000) as c:
        response = await c.get(f"{server.base}/bomb", allow_capped=True)
    assert response.capped and len(response.body) == 100_000


async def test_a_large_page_is_refused_at_the_cap(server: LocalServer) -> None:
    server.routes["/big"] = Route(
        headers=[("Content-Type", "text/html")], body=b"<p>" + b"x" * (3 << 20)
    )
    async with client() as c:
        with pytest.raises(TooLarge) as info:
            await c.get(f"{server.base}/big")
    assert info.value.code == "too_large"
    exactly = Route(headers=[("Content-Type", "text/plain")], body=b"y" * (2 << 20))
    server.routes["/exact"] = exactly
    async with client() as c:
        assert len((await c.get(f"{server.base}/exact")).body) == 2 << 20


def _never_finishes(h: BaseHTTPRequestHandler) -> None:
    h.send_response_only(200)
    h.send_header("Content-Type", "text/html")
    h.send_header("Content-Length", str(10 << 20))
    h.end_headers()
    try:
        for _ in range(600):
            h.wfile.write(b"<p>drip</p>")
            h.wfile.flush()
            time.sleep(0.05)
    except (BrokenPipeError, ConnectionResetError):
        pass


def _never_answers(h: BaseHTTPRequestHandler) -> None:
    time.sleep(5)


@pytest.mark.parametrize("handler", [_never_finishes, _never_answers])
async def test_a_page_that_never_finishes_times_out_on_the_whole_request(
    server: LocalServer, handler: Callable[[BaseHTTPRequestHandler], None]
) -> None:
    server.routes["/slow"] = handler
    async with client(request_timeout_s=1.0) as c:
        started = time.monotonic()
        with pytest.raises(Timeout) as info:
            await c.get(f"{server.base}/slow")
    assert time.monotonic() - started < 3
    assert info.value.retryable


class _CountingListener:
    """A raw TCP listener that counts accepted connections (any packet that got through)."""

    def __init__(self, host: str) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind((host, 0))
        self.sock.listen(16)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.accepted = 0
        self._stop = False
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.accepted += 1
            conn.close()

    def close(self) -> None:
        self._stop = True
        self._thread.join()
        self.sock.close()


@pytest.fixture
def listener() -> Iterator[_CountingListener]:
    lst = _CountingListener("127.0.0.2")
    yield lst
    lst.close()


async def test_a_blocked_request_sends_no_packet(listener: _CountingListener) -> None:
    # 127.0.0.2 is loopback: blocked unless exempted. Literal, via a name, and via a redirect.
    guard = SSRFGuard(
        AddressPolicy(), resolver=ScriptedResolver({"internal.example": ["127.0.0.2"]})
    )
    async with GuardedClient(guard) as c:
        for url in (
            f"http://127.0.0.2:{listener.port}/",
            f"http://internal.example:{listener.port}/",
        ):
            with pytest.raises(BlockedAddress):
                await c.get(url)
    with LocalServer() as redirector:
        redirector.routes["/r"] = Route(302, [("Location", f"http://127.0.0.2:{listener.port}/")])
        guard = SSRFGuard(AddressPolicy.from_strings(allowed_networks=["127.0.0.1/32"]))
        async with GuardedClient(guard) as c:
            with pytest.raises(BlockedAddress):
                await c.get(f"{redirector.base}/r")
    time.sleep(0.3)
    assert listener.accepted == 0
    # Control: the same listener is reachable when exempted, so the zero above means something.
    async with GuardedClient(
        SSRFGuard(AddressPolicy.from_strings(allowed_networks=["127.0.0.2/32"])),
        request_timeout_s=2,
    ) as c:
        with pytest.raises(Exception):  # noqa: B017 - the listener closes without answering
            await c.get(f"http://127.0.0.2:{listener.port}/")
    time.sleep(0.3)
    assert listener.accepted == 1
