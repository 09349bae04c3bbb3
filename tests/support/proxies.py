"""Small forward proxies on 127.0.0.1 for tests: HTTP CONNECT (plain or TLS) and SOCKS5.

They record what they were asked (tunnel targets, credentials, any request that was not a
tunnel) and tunnel only to loopback addresses, so a test can assert that the client named
the checked IP — never a host name — and that a refused request never reached the proxy.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import ipaddress
import ssl
from dataclasses import dataclass, field
from typing import Self


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, asyncio.IncompleteReadError):
        pass
    finally:
        with contextlib.suppress(Exception):
            writer.close()


async def _tunnel(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, host: str, port: int
) -> bool:
    if not ipaddress.ip_address(host).is_loopback:  # tests never leave this machine
        return False
    up_reader, up_writer = await asyncio.open_connection(host, port)
    await asyncio.gather(_pipe(reader, up_writer), _pipe(up_reader, writer))
    return True


@dataclass
class ProxyServer:
    """Common state: what the proxy saw."""

    credentials: tuple[str, str] | None = None
    tls: ssl.SSLContext | None = None
    connections: int = 0
    tunnels: list[str] = field(default_factory=list)
    auth: list[str | None] = field(default_factory=list)
    other: list[str] = field(default_factory=list)
    port: int = 0
    _server: asyncio.Server | None = None

    def url(self, userinfo: str = "") -> str:
        """The proxy URL for ``outbound_proxy`` (``user:password`` in ``userinfo``)."""
        raise NotImplementedError

    async def __aenter__(self) -> Self:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0, ssl=self.tls)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._server is not None
        self._server.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._server.wait_closed(), 2)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            await self.handle(reader, writer)
        except (ConnectionError, asyncio.IncompleteReadError, ValueError):
            pass
        finally:
            with contextlib.suppress(Exception):
                writer.close()

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        raise NotImplementedError


@dataclass
class ConnectProxy(ProxyServer):
    """An HTTP proxy that only tunnels (``CONNECT``); ``refuse`` answers every CONNECT with
    that status instead."""

    refuse: int | None = None

    def url(self, userinfo: str = "") -> str:
        scheme = "https" if self.tls else "http"
        return f"{scheme}://{userinfo + '@' if userinfo else ''}127.0.0.1:{self.port}"

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
        line, *lines = head.split("\r\n")
        method, target, _version = line.split(" ", 2)
        headers = {
            k.strip().lower(): v.strip() for k, _, v in (h.partition(":") for h in lines if h)
        }
        if method != "CONNECT":
            self.other.append(line)
            writer.write(b"HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n")
            return
        auth = headers.get("proxy-authorization")
        self.auth.append(auth)
        if self.credentials is not None:
            expected = "Basic " + base64.b64encode(":".join(self.credentials).encode()).decode()
            if auth != expected:
                writer.write(
                    b"HTTP/1.1 407 Proxy Authentication Required\r\n"
                    b'Proxy-Authenticate: Basic realm="t"\r\nContent-Length: 0\r\n\r\n'
                )
                return
        if self.refuse is not None:
            writer.write(f"HTTP/1.1 {self.refuse} No\r\nContent-Length: 0\r\n\r\n".encode())
            return
        self.tunnels.append(target)
        host, _, port = target.rpartition(":")
        writer.write(b"HTTP/1.1 200 Connection established\r\n\r\n")
        await writer.drain()
        await _tunnel(reader, writer, host.strip("[]"), int(port))


@dataclass
class Socks5Proxy(ProxyServer):
    """A SOCKS5 proxy (RFC 1928; user/password of RFC 1929 when ``credentials`` is set).
    ``tunnels`` records ``"<atype> <address>:<port>"``."""

    def url(self, userinfo: str = "") -> str:
        return f"socks5://{userinfo + '@' if userinfo else ''}127.0.0.1:{self.port}"

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        version, count = await reader.readexactly(2)
        methods = await reader.readexactly(count)
        want = 2 if self.credentials is not None else 0
        if version != 5 or want not in methods:
            writer.write(b"\x05\xff")
            return
        writer.write(bytes([5, want]))
        if want == 2:
            _v, ulen = await reader.readexactly(2)
            user = (await reader.readexactly(ulen)).decode()
            (plen,) = await reader.readexactly(1)
            password = (await reader.readexactly(plen)).decode()
            self.auth.append(f"{user}:{password}")
            ok = (user, password) == self.credentials
            writer.write(b"\x01\x00" if ok else b"\x01\x01")
            if not ok:
                return
        _v, cmd, _rsv, atype = await reader.readexactly(4)
        if atype == 1:
            host = str(ipaddress.IPv4Address(await reader.readexactly(4)))
        elif atype == 4:
            host = str(ipaddress.IPv6Address(await reader.readexactly(16)))
        else:
            (size,) = await reader.readexactly(1)
            host = (await reader.readexactly(size)).decode()
        port = int.from_bytes(await reader.readexactly(2), "big")
        self.tunnels.append(f"{atype} {host}:{port}")
        if cmd != 1 or atype == 3:  # we never resolve names: a name is a failure to see
            writer.write(b"\x05\x08\x00\x01" + bytes(6))
            return
        writer.write(b"\x05\x00\x00\x01" + bytes(6))
        await writer.drain()
        await _tunnel(reader, writer, host, port)
