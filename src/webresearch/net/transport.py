"""The guarded transport: resolve → check every address → connect to a checked address.

Layering (lowest first)::

    connector        httpcore2.AsyncNetworkBackend that opens a TCP stream to an IP address
                     (the injectable seam: tests pass a fake, so the whole redirect path runs
                     without sockets; default: httpcore2's AnyIOBackend)
    GuardedNetworkBackend
                     connect_tcp(host, port): SSRFGuard.resolve_and_check(host), then the
                     connector is asked for the checked IPs only (no second resolution)
    GuardedTransport httpx2 transport over an httpcore2 connection pool using the backend;
                     TLS is started by httpcore2 with server_hostname = the URL's host, so SNI
                     and certificate verification use the original name, not the IP.

Environment proxies never apply: nothing here reads the environment, and the client builds
this transport explicitly.
"""

from __future__ import annotations

import asyncio
import ssl
import time
from collections.abc import AsyncIterator, Iterable
from typing import Any

import httpcore2
import httpx2

from .. import trace
from .guard import SSRFGuard

__all__ = ["GuardedNetworkBackend", "GuardedTransport", "TCPOnlyBackend"]


class TCPOnlyBackend(httpcore2.AsyncNetworkBackend):
    """A network backend for model-chosen URLs: TCP only (no unix sockets), asyncio sleep."""

    async def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore2.AsyncNetworkStream:
        raise httpcore2.ConnectError("unix sockets are never used for model-chosen URLs")

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


class GuardedNetworkBackend(TCPOnlyBackend):
    """An httpcore2 network backend that only connects to addresses the guard checked.

    Args:
        guard: the SSRF guard (its resolver is the only DNS lookup made).
        connector: opens the TCP stream to an IP (the seam); default ``AnyIOBackend()``.
    """

    def __init__(
        self, guard: SSRFGuard, connector: httpcore2.AsyncNetworkBackend | None = None
    ) -> None:
        self.guard = guard
        self.connector = connector or httpcore2.AnyIOBackend()

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore2.AsyncNetworkStream:
        started = time.monotonic()
        async with asyncio.timeout(timeout):
            addresses = await self.guard.resolve_and_check(host)
        trace.note(  # the operator's own -vv only (webresearch.trace): never a log line
            "resolve",
            host=host,
            addresses=[str(ip) for ip in addresses],
            verdict="every address checked: allowed",
            ms=(time.monotonic() - started) * 1000,
        )
        last_error: Exception | None = None
        for ip in addresses:
            try:
                started = time.monotonic()
                stream = await self.connector.connect_tcp(
                    str(ip),
                    port,
                    timeout=timeout,
                    local_address=local_address,
                    socket_options=socket_options,
                )
                trace.note(
                    "connect", address=str(ip), port=port, ms=(time.monotonic() - started) * 1000
                )
                return stream
            except (httpcore2.ConnectError, httpcore2.ConnectTimeout, OSError) as exc:
                last_error = exc
        assert last_error is not None
        raise last_error


class _ResponseStream(httpx2.AsyncByteStream):
    def __init__(self, stream: Any) -> None:
        self._stream = stream

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for part in self._stream:
            yield part

    async def aclose(self) -> None:
        if hasattr(self._stream, "aclose"):
            await self._stream.aclose()


class GuardedTransport(httpx2.AsyncBaseTransport):
    """An httpx2 transport whose every TCP connection goes through :class:`GuardedNetworkBackend`.

    httpcore2 exceptions are not translated here; :mod:`.client` maps them once.

    Args:
        guard: the SSRF guard.
        connector: the TCP seam (see :class:`GuardedNetworkBackend`).
        ssl_context: TLS settings; default verifies certificates against the system store.
        max_connections: connection pool size.
        keepalive_expiry: seconds an idle connection is kept.
    """

    def __init__(
        self,
        guard: SSRFGuard,
        *,
        connector: httpcore2.AsyncNetworkBackend | None = None,
        ssl_context: ssl.SSLContext | None = None,
        max_connections: int = 64,
        keepalive_expiry: float = 5.0,
    ) -> None:
        self.backend = GuardedNetworkBackend(guard, connector)
        self._pool = httpcore2.AsyncConnectionPool(
            ssl_context=ssl_context or httpx2.create_ssl_context(),
            max_connections=max_connections,
            max_keepalive_connections=max_connections,
            keepalive_expiry=keepalive_expiry,
            http1=True,
            http2=False,
            retries=0,
            network_backend=self.backend,
        )

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        assert isinstance(request.stream, httpx2.AsyncByteStream)
        core_request = httpcore2.Request(
            method=request.method,
            url=httpcore2.URL(
                scheme=request.url.raw_scheme,
                host=request.url.raw_host,
                port=request.url.port,
                target=request.url.raw_path,
            ),
            headers=request.headers.raw,
            content=request.stream,
            extensions=request.extensions,
        )
        response = await self._pool.handle_async_request(core_request)
        assert not isinstance(response.stream, Iterable)
        return httpx2.Response(
            status_code=response.status,
            headers=response.headers,
            stream=_ResponseStream(response.stream),
            extensions=response.extensions,
        )

    async def aclose(self) -> None:
        await self._pool.aclose()
