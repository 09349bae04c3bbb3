"""The streamable-HTTP transport: the SDK's ASGI app, a bearer-token gate, uvicorn.

Binding rules: 127.0.0.1 by default; any other address — another interface, or another
loopback address such as 127.0.0.2 or ``localhost`` (which other local users' processes and
rebinding tricks can reach as easily) — is refused unless a bearer token is set. With a
token, every request must carry ``Authorization: Bearer <token>``; the comparison is
constant-time (:func:`hmac.compare_digest`) and a missing or wrong token gets HTTP 401 with
``WWW-Authenticate: Bearer`` before the MCP app sees the request. The token is never logged
or echoed. On every bind address ``Host`` and ``Origin`` are checked first (DNS-rebinding
protection, :mod:`.origin`).
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import socket

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from webresearch import ConfigurationError

__all__ = [
    "DEFAULT_HOST",
    "MCP_PATH",
    "BearerTokenGate",
    "check_bind",
    "gate",
    "is_loopback",
    "listen_socket",
    "needs_token",
    "parse_bind",
]

#: Where the MCP endpoint lives: ``http://HOST:PORT/mcp``.
MCP_PATH = "/mcp"


#: Where ``--http PORT`` (no host) listens: this machine only.
DEFAULT_HOST = "127.0.0.1"


def parse_bind(value: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:8080`` for IPv6; ``PORT`` or ``:PORT`` bind 127.0.0.1) → (host, port).

    Port 0 picks a free one.

    Raises:
        ConfigurationError: not ``[HOST:]PORT`` or the port is not 0–65535.
    """
    host, _, port_text = value.strip().rpartition(":")
    host = host.strip("[]") or DEFAULT_HOST
    if not port_text.isdigit() or int(port_text) > 65535:
        raise ConfigurationError(f"expected [HOST:]PORT (e.g. 127.0.0.1:8765), got {value!r}")
    return host, int(port_text)


def is_loopback(host: str) -> bool:
    """Whether ``host`` names only this machine (127.0.0.0/8 also IPv4-mapped, ::1, ``localhost``)."""
    if host.lower().rstrip(".") == "localhost":
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped  # ::ffff:127.0.0.1 is 127.0.0.1 (same on every Python)
    return address.is_loopback


#: Shortest bearer token accepted (characters): 16 random hex characters are 64 bits.
MIN_TOKEN_CHARS = 16


#: The only binds served without a token: the two literal loopback addresses.
TOKENLESS_BINDS = (ipaddress.ip_address("127.0.0.1"), ipaddress.ip_address("::1"))


def needs_token(host: str) -> bool:
    """Whether serving on ``host`` requires a bearer token: anything but 127.0.0.1 and ::1."""
    try:
        return ipaddress.ip_address(host.strip("[]")) not in TOKENLESS_BINDS
    except ValueError:
        return True  # a name (localhost too): it may resolve anywhere


def check_bind(host: str, token: str | None) -> None:
    """Refuse to serve without a bearer token anywhere but 127.0.0.1 and ::1.

    Raises:
        ConfigurationError: ``host`` needs a token (:func:`needs_token`) and ``token`` is
            empty; or a token is given that is too weak to guard anything (blank, or
            shorter than :data:`MIN_TOKEN_CHARS` characters).
    """
    if (
        token is not None
        and token != ""
        and (not token.strip() or len(token.strip()) < MIN_TOKEN_CHARS)
    ):
        raise ConfigurationError(
            f"the MCP token is too weak: use at least {MIN_TOKEN_CHARS} characters, "
            "e.g. WEBRESEARCH_MCP_TOKEN=$(openssl rand -hex 32)"
        )
    if not token and needs_token(host):
        why = (
            "only 127.0.0.1 and ::1 are served without one"
            if is_loopback(host)
            else "anyone who can reach it could use the tools"
        )
        raise ConfigurationError(
            f"refusing to serve MCP on {host} without a token: {why}; "
            "set WEBRESEARCH_MCP_TOKEN (or --token), or bind 127.0.0.1"
        )


def listen_socket(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port`` (so the real port is known before serving).

    Raises:
        OSError: the address cannot be bound.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    sock.setblocking(False)
    return sock


class BearerTokenGate:
    """ASGI middleware: HTTP requests need ``Authorization: Bearer <token>`` (else 401).

    Lifespan and other non-HTTP scopes pass through untouched.

    Args:
        app: the wrapped ASGI app.
        token: the expected token (compared in constant time).
    """

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self._token = token.encode("utf-8")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self._authorized(Headers(scope=scope)):
            await self.app(scope, receive, send)
            return
        body = json.dumps(
            {"error": "invalid_token", "error_description": "a valid bearer token is required"}
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 401,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"www-authenticate", b'Bearer error="invalid_token"'),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

    def _authorized(self, headers: Headers) -> bool:
        scheme, _, credentials = headers.get("authorization", "").partition(" ")
        if scheme.lower() != "bearer":
            return False
        return hmac.compare_digest(credentials.strip().encode("utf-8"), self._token)


def gate(app: ASGIApp, token: str | None) -> ASGIApp:
    """``app`` behind a :class:`BearerTokenGate` when ``token`` is set."""
    return BearerTokenGate(app, token) if token else app
