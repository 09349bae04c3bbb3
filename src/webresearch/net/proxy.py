"""The outbound proxy: model-chosen connections through an operator's proxy (issue 20).

Hosts behind a corporate proxy set ``outbound_proxy`` (``http://``, ``https://`` or
``socks5://``, with optional ``user:password@``). Proxy environment variables are never
read (nothing here looks at the environment).

**What stays true: connect only to the checked address.** The proxy is a *connector* — the
guarded transport's lowest seam (:mod:`.transport`). The SSRF guard has already applied
every rule to the target (scheme, host-name rules, one resolution with our resolver, every
address checked) before :meth:`ProxyConnector.connect_tcp` is called, and it is called with
the checked IP, never the name. The connector then asks the proxy for a tunnel to that IP:

* HTTP(S) proxy: ``CONNECT 93.184.216.34:443`` (IPv6 in brackets), for ``https`` AND plain
  ``http`` targets, so the proxy never resolves a name and never sees a request it could
  forward elsewhere (absolute-form forwarding would make the proxy resolve the name itself,
  which reopens DNS rebinding between our check and its connect). A proxy that allows
  CONNECT only to port 443 (Squid's default ``SSL_ports``) therefore refuses plain-http
  targets on port 80: allow CONNECT to 80 (and other ports you need) for this client;
* SOCKS5 proxy: a CONNECT with the IPv4/IPv6 address type (never a domain name), built with
  ``socksio`` (sans-I/O, the same library httpcore uses); ``socks5h://`` is accepted and
  behaves the same (we never send a name).

Inside the tunnel httpcore2 speaks to the target exactly as without a proxy: TLS with the
original host name for SNI and certificate verification, ``Host:`` from the URL. Redirects
are followed by the guarded client, so every hop is checked again and gets its own tunnel.

The proxy's own address is trusted configuration (SPEC §2: operator endpoints are not
subject to the guard): it is dialled with the system resolver. Its credentials are a
secret: sent only to the proxy (``Proxy-Authorization: Basic`` or SOCKS5 user/password),
never in a message, log line or result. A refusal by the proxy is a ``network`` error that
names neither the proxy nor the target's address.
"""

from __future__ import annotations

import asyncio
import base64
import ipaddress
import ssl
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote, urlsplit

import h11
import httpcore2
import socksio

from ..addresses import IPAddress
from ..errors import ConfigurationError, NetworkError
from .transport import TCPOnlyBackend

__all__ = ["ProxyConfig", "ProxyConnector", "outbound_connector", "parse_proxy_url"]

_DEFAULT_PORTS = {"http": 80, "https": 443, "socks5": 1080, "socks5h": 1080}
_HINT = "an operator must check the outbound_proxy setting (address, credentials, what it allows)"
#: Largest proxy answer to CONNECT read (status line and headers).
_MAX_REPLY_BYTES = 64 * 1024


@dataclass(frozen=True, slots=True)
class ProxyConfig:
    """A parsed ``outbound_proxy``.

    Attributes:
        scheme: ``http``, ``https`` or ``socks5`` (``socks5h`` is read as ``socks5``).
        host: the proxy's host (name or IP).
        port: the proxy's port.
        username, password: credentials (secrets), or ``None``.
    """

    scheme: str
    host: str
    port: int
    username: str | None = field(default=None, repr=False)
    password: str | None = field(default=None, repr=False)


def parse_proxy_url(url: str) -> ProxyConfig:
    """``scheme://[user:password@]host[:port]`` → :class:`ProxyConfig` (credentials decoded).

    Raises:
        ConfigurationError: not such a URL (the message never repeats it: it may hold a
            password).
    """
    bad = ConfigurationError(
        "outbound_proxy must be http://, https:// or socks5://[user:password@]host[:port]"
    )
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        raise bad from None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not parts.hostname or port == 0:
        raise bad
    return ProxyConfig(
        scheme="socks5" if scheme == "socks5h" else scheme,
        host=parts.hostname,
        port=port or _DEFAULT_PORTS[scheme],
        username=unquote(parts.username) if parts.username is not None else None,
        password=unquote(parts.password) if parts.password is not None else None,
    )


def outbound_connector(
    proxy_url: str | None,
    connector: httpcore2.AsyncNetworkBackend | None = None,
    ssl_context: ssl.SSLContext | None = None,
) -> httpcore2.AsyncNetworkBackend | None:
    """The guarded transport's connector: through the proxy when ``proxy_url`` is set.

    Args:
        proxy_url: ``outbound_proxy`` (a secret), or ``None`` for direct connections.
        connector: what dials TCP (the proxy, or targets when there is none); ``None``:
            real sockets.
        ssl_context: TLS settings for an ``https://`` proxy.

    Raises:
        ConfigurationError: ``proxy_url`` is malformed.
    """
    if not proxy_url:
        return connector
    return ProxyConnector(parse_proxy_url(proxy_url), connector, ssl_context)


def _authority(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


class ProxyConnector(TCPOnlyBackend):
    """Opens each TCP stream to a checked IP as a tunnel through the outbound proxy.

    Args:
        proxy: the proxy.
        backend: dials the proxy itself (default ``httpcore2.AnyIOBackend()``; tests pass
            a fake).
        ssl_context: TLS settings for an ``https://`` proxy (default: system trust store).
    """

    def __init__(
        self,
        proxy: ProxyConfig,
        backend: httpcore2.AsyncNetworkBackend | None = None,
        ssl_context: ssl.SSLContext | None = None,
    ) -> None:
        self.proxy = proxy
        self.backend = backend or httpcore2.AnyIOBackend()
        self._ssl_context = ssl_context

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore2.AsyncNetworkStream:
        """A stream to ``host:port`` (an IP address the guard checked) through the proxy.

        Raises:
            ValueError: ``host`` is not an IP address (the guard passes only checked IPs).
            NetworkError: the proxy refused or failed the tunnel.
            httpcore2.ConnectError, httpcore2.ConnectTimeout: the proxy cannot be reached.
        """
        target = ipaddress.ip_address(host)  # never a name: the proxy must not resolve one
        stream = await self.backend.connect_tcp(
            self.proxy.host,
            self.proxy.port,
            timeout=timeout,
            local_address=local_address,
            socket_options=socket_options,
        )
        try:
            async with asyncio.timeout(timeout):
                if self.proxy.scheme == "https":
                    stream = await stream.start_tls(
                        self._ssl_context or ssl.create_default_context(),
                        server_hostname=self.proxy.host,
                        timeout=timeout,
                    )
                if self.proxy.scheme == "socks5":
                    await self._socks5(stream, target, port)
                else:
                    await self._connect(stream, target, port)
        except TimeoutError:
            await stream.aclose()
            raise httpcore2.ConnectTimeout("the outbound proxy did not answer in time") from None
        except BaseException:
            await stream.aclose()
            raise
        return stream

    # --- HTTP CONNECT (RFC 9110 §9.3.6) ---------------------------------------------------
    async def _connect(
        self, stream: httpcore2.AsyncNetworkStream, target: IPAddress, port: int
    ) -> None:
        authority = _authority(str(target), port)
        headers = [("Host", authority)]
        if self.proxy.username is not None:
            pair = f"{self.proxy.username}:{self.proxy.password or ''}".encode()
            headers.append(("Proxy-Authorization", "Basic " + base64.b64encode(pair).decode()))
        conn = h11.Connection(h11.CLIENT)
        request = h11.Request(method="CONNECT", target=authority, headers=headers)
        await stream.write(conn.send(request) + conn.send(h11.EndOfMessage()))
        received = 0
        while True:
            try:
                event = conn.next_event()
            except h11.RemoteProtocolError:
                raise _refused("answered CONNECT with something that is not HTTP") from None
            if event is h11.NEED_DATA:
                data = await stream.read(65536)
                received += len(data)
                if received > _MAX_REPLY_BYTES:
                    raise _refused("sent an oversized answer to CONNECT")
                conn.receive_data(data)  # b"" marks the end: h11 then reports it
                continue
            if isinstance(event, h11.InformationalResponse):
                continue
            if isinstance(event, h11.Response):
                break
            raise _refused("closed the connection before answering CONNECT")
        if not 200 <= event.status_code < 300:
            what = {
                407: "asked for credentials (407: outbound_proxy has none or wrong ones)",
                403: "refused the connection (403)",
            }.get(event.status_code, f"could not open the tunnel (HTTP {event.status_code})")
            raise _refused(what)
        if conn.trailing_data[0]:
            raise _refused("sent data before the tunnel was used")

    # --- SOCKS5 (RFC 1928, RFC 1929) ------------------------------------------------------
    async def _socks5(
        self, stream: httpcore2.AsyncNetworkStream, target: IPAddress, port: int
    ) -> None:
        s5 = socksio.socks5
        conn = s5.SOCKS5Connection()
        method = (
            s5.SOCKS5AuthMethod.NO_AUTH_REQUIRED
            if self.proxy.username is None
            else s5.SOCKS5AuthMethod.USERNAME_PASSWORD
        )
        try:
            conn.send(s5.SOCKS5AuthMethodsRequest([method]))
            await stream.write(conn.data_to_send())
            reply = conn.receive_data(await _read_exactly(stream, 2))
            if not isinstance(reply, s5.SOCKS5AuthReply) or reply.method != method:
                raise _refused("does not accept the SOCKS5 authentication we offer")
            if method == s5.SOCKS5AuthMethod.USERNAME_PASSWORD:
                conn.send(
                    s5.SOCKS5UsernamePasswordRequest(
                        (self.proxy.username or "").encode(), (self.proxy.password or "").encode()
                    )
                )
                await stream.write(conn.data_to_send())
                answer = conn.receive_data(await _read_exactly(stream, 2))
                if not isinstance(answer, s5.SOCKS5UsernamePasswordReply) or not answer.success:
                    raise _refused("refused the SOCKS5 credentials in outbound_proxy")
            conn.send(
                s5.SOCKS5CommandRequest.from_address(s5.SOCKS5Command.CONNECT, (str(target), port))
            )
            await stream.write(conn.data_to_send())
            # The reply's length depends on the bound address's type: read exactly it.
            head = await _read_exactly(stream, 4)
            if head[3:4] == b"\x03":  # a domain name: a length byte, then the name
                head += await _read_exactly(stream, 1)
                size = head[4]
            else:
                size = 16 if head[3:4] == b"\x04" else 4
            rest = await _read_exactly(stream, size + 2)
            reply5 = conn.receive_data(head + rest)
        except socksio.ProtocolError:
            raise _refused("broke the SOCKS5 protocol") from None
        if (
            not isinstance(reply5, s5.SOCKS5Reply)
            or reply5.reply_code != s5.SOCKS5ReplyCode.SUCCEEDED
        ):
            code = getattr(reply5, "reply_code", None)
            name = code.name.lower().replace("_", " ") if code is not None else "no reply"
            raise _refused(f"could not open the tunnel (SOCKS5: {name})")


async def _read_exactly(stream: httpcore2.AsyncNetworkStream, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = await stream.read(size - len(data))
        if not chunk:
            raise _refused("closed the connection during the handshake")
        data += chunk
    return data


def _refused(what: str) -> NetworkError:
    return NetworkError(f"the outbound proxy {what}", hint=_HINT, retryable=False)
