"""Pure HTTP rules of the browser's guarded forward proxy (:mod:`.proxy`). No I/O.

A browser talks to an HTTP forward proxy in two forms (RFC 9110 §9.3.6, RFC 9112 §3.2.2):

* ``CONNECT host:port`` — a tunnel: Chromium uses it for https, wss AND ws (WebSockets are
  always tunnelled through a proxy), libcurl-based browsers (Lightpanda) for https;
* an absolute-form request, ``GET http://host:port/path HTTP/1.1`` — plain http.

:func:`parse_target` turns the request line's method and target into a :class:`ProxyTarget`
(or says why it is refused); :func:`upstream_headers` and :func:`downstream_headers` rewrite
the header lists of a forwarded exchange: hop-by-hop headers (RFC 9110 §7.6.1) never pass,
``Host`` is replaced by the target's authority (RFC 9112 §3.2.2: a proxy MUST), and both
sides get ``Connection: close`` so one proxied connection carries exactly one request to one
checked origin (an ``Upgrade`` handshake keeps ``Connection: upgrade``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal
from urllib.parse import urlsplit

__all__ = [
    "HOP_BY_HOP",
    "ProxyTarget",
    "TargetError",
    "downstream_headers",
    "parse_target",
    "refusal_response_body",
    "upstream_headers",
]

#: Hop-by-hop header names (RFC 9110 §7.6.1, plus the old ``Proxy-Connection``): they describe
#: one connection and are never forwarded.
HOP_BY_HOP = frozenset(
    {
        b"connection",
        b"keep-alive",
        b"proxy-connection",
        b"proxy-authenticate",
        b"proxy-authorization",
        b"te",
        b"trailer",
        b"upgrade",
    }
)

Headers = Sequence[tuple[bytes, bytes]]


class TargetError(ValueError):
    """The request line is not a proxy request we serve (the message says why)."""


@dataclass(frozen=True, slots=True)
class ProxyTarget:
    """Where one proxied request goes.

    Attributes:
        kind: ``tunnel`` (CONNECT) or ``forward`` (absolute-form plain http).
        host: the host as given (IPv6 without brackets, not yet normalised).
        port: the TCP port.
        policy_url: the URL the request policy judges (``https://host:port/`` for a tunnel:
            the string rules and the domain policy do not depend on the scheme).
        origin_form: ``/path?query`` sent upstream (``forward`` only, else ``""``).
        authority: ``host[:port]`` as it goes into ``Host`` (``forward`` only).
    """

    kind: Literal["tunnel", "forward"]
    host: str
    port: int
    policy_url: str
    origin_form: str = ""
    authority: str = ""

    @property
    def shown(self) -> str:
        """``host:port`` for records and logs (never a path: it may hold secrets)."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}"


def _port(text: str, default: int | None) -> int:
    if not text:
        if default is None:
            raise TargetError("the CONNECT target has no port")
        return default
    if not text.isdigit() or not 0 < int(text) < 65536:
        raise TargetError("the port is not a number from 1 to 65535")
    return int(text)


def _split_authority(authority: str, default_port: int | None) -> tuple[str, int]:
    """``host:port`` / ``[v6]:port`` → (host without brackets, port)."""
    if authority.startswith("["):
        end = authority.find("]")
        if end < 0:
            raise TargetError("unclosed IPv6 bracket")
        host, rest = authority[1:end], authority[end + 1 :]
        if rest and not rest.startswith(":"):
            raise TargetError("garbage after the IPv6 address")
        return host, _port(rest[1:], default_port)
    host, sep, port = authority.rpartition(":")
    if not sep:
        return authority, _port("", default_port)
    if ":" in host:
        raise TargetError("an IPv6 address must be in brackets")
    return host, _port(port, default_port)


def parse_target(method: str, target: str) -> ProxyTarget:
    """The target of one proxy request.

    Args:
        method: the request method (``CONNECT``, ``GET``…), as sent.
        target: the request target, as sent.

    Returns:
        the tunnel or forward target.

    Raises:
        TargetError: an origin-form request (we are a proxy, not a web server), a scheme
            other than http in absolute form, userinfo, a missing host or a bad port.
    """
    if method.upper() == "CONNECT":
        if "/" in target or "@" in target:
            raise TargetError("a CONNECT target is host:port")
        host, port = _split_authority(target, None)
        if not host:
            raise TargetError("the CONNECT target has no host")
        shown = f"[{host}]" if ":" in host else host
        return ProxyTarget("tunnel", host, port, f"https://{shown}:{port}/")
    try:
        parts = urlsplit(target)
    except ValueError:
        raise TargetError("the request target is not a URL") from None
    if not parts.scheme:
        raise TargetError("only proxy requests (absolute-form http:// targets) are served")
    if parts.scheme.lower() != "http":
        raise TargetError(f"{parts.scheme}: requests must use CONNECT, not absolute form")
    if "@" in parts.netloc:
        raise TargetError("user:password@ in a proxied URL is refused")
    host, port = _split_authority(parts.netloc, 80)
    if not host:
        raise TargetError("the URL has no host")
    path = parts.path or "/"
    origin_form = path + (f"?{parts.query}" if parts.query else "")
    authority = parts.netloc if port != 80 else parts.netloc.removesuffix(":80")
    return ProxyTarget("forward", host, port, target, origin_form, authority)


def _connection_tokens(headers: Headers) -> set[bytes]:
    tokens: set[bytes] = set()
    for name, value in headers:
        if name.lower() == b"connection":
            tokens.update(t.strip().lower() for t in value.split(b",") if t.strip())
    return tokens


def wants_upgrade(headers: Headers) -> bool:
    """True when the request asks to switch protocols (a WebSocket handshake in absolute form)."""
    return b"upgrade" in _connection_tokens(headers) and any(
        name.lower() == b"upgrade" for name, _ in headers
    )


def _strip(headers: Headers, keep_upgrade: bool) -> list[tuple[bytes, bytes]]:
    named = _connection_tokens(headers)
    out = []
    for name, value in headers:
        low = name.lower()
        if low == b"upgrade" and keep_upgrade:
            out.append((name, value))
            continue
        if low in HOP_BY_HOP or low in named:
            continue
        out.append((name, value))
    return out


def upstream_headers(headers: Headers, target: ProxyTarget) -> list[tuple[bytes, bytes]]:
    """The request headers sent to the origin: hop-by-hop headers removed, ``Host`` set to
    the target's authority, ``Connection: close`` (or ``upgrade`` for a handshake)."""
    upgrade = wants_upgrade(headers)
    out = [(n, v) for n, v in _strip(headers, upgrade) if n.lower() != b"host"]
    out.insert(0, (b"Host", target.authority.encode("ascii")))
    out.append((b"Connection", b"upgrade" if upgrade else b"close"))
    return out


def downstream_headers(headers: Headers, status: int) -> list[tuple[bytes, bytes]]:
    """The response headers sent back to the browser: hop-by-hop headers removed and
    ``Connection: close`` (a ``101`` keeps ``Connection: upgrade`` and ``Upgrade``)."""
    switching = status == 101
    out = _strip(headers, switching)
    out.append((b"Connection", b"upgrade" if switching else b"close"))
    return out


def refusal_response_body(code: str) -> bytes:
    """The body of a 403 the proxy answers for a refused target (shown to no model: the
    browser turns a refused tunnel into a network error)."""
    return f"webresearch: refused by the browser's request policy ({code})\n".encode("ascii")
