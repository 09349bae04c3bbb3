"""Finding the CDP websocket of a remote endpoint (SPEC §1.4 "any CDP endpoint").

``GET {base}/json/version`` answers ``{"Browser": …, "webSocketDebuggerUrl": "ws://host:port/…"}``.
The advertised URL may carry a host we must not dial (``0.0.0.0``, a container's internal
name, another machine's address): only its *path* is taken, and the websocket is always
dialled at the configured base URL's host and port (query parameters of the configured URL,
e.g. a browserless ``?token=``, are kept). The CDP endpoint is operator configuration, so it
is dialled directly, not through the SSRF guard (SPEC §2); its URL may hold a token and is
never shown in a message.

Chrome's DevTools server answers only requests whose ``Host`` is an IP address or
``localhost`` (a DNS-rebinding defence since Chrome 66, https://crbug.com/813540; recent
versions check the WebSocket upgrade too). A browser reached by a service name
(``http://browser:9222`` in a compose file) therefore refuses discovery: when it says so, the
request is repeated with ``Host: localhost:<port>``, and the WebSocket is opened with the same
header. Endpoints that accept the real ``Host`` (TLS services, reverse proxies, Lightpanda
started with ``--advertise-host``) keep it.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import SplitResult, urlsplit, urlunsplit

import httpx2

from ..config.urls import cdp_url
from ..errors import BrowserError, ConfigurationError

__all__ = ["DISCOVERY_TIMEOUT_S", "Endpoint", "discover", "normalize_cdp_url", "websocket_url"]

#: Seconds for the ``/json/version`` request.
DISCOVERY_TIMEOUT_S = 10.0

#: What Chrome's DevTools server answers (HTTP 500) to a ``Host`` it does not accept.
HOST_REFUSED = "Host header is specified and is not an IP address or localhost"


@dataclass(frozen=True, slots=True)
class Endpoint:
    """Where and how to open the CDP WebSocket.

    Attributes:
        ws_url: the WebSocket URL to dial (configured host and port, advertised path).
        version: the ``/json/version`` document (``{}`` without discovery).
        headers: extra handshake headers (``{"Host": "localhost:9222"}`` for a Chrome
            reached by a service name), else empty.
    """

    ws_url: str
    version: dict[str, Any] = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)


def normalize_cdp_url(url: str) -> str:
    """The endpoint in the form discovery dials (the settings' rule,
    :func:`webresearch.config.urls.cdp_url`): ``cdp://`` is http, a pasted
    ``/json/version`` or trailing slash is removed, an http URL of a ``/devtools/…``
    websocket is that websocket.

    Raises:
        ConfigurationError: not a URL with one of those schemes, a host and a valid port.
    """
    try:
        return cdp_url(url)
    except ValueError as exc:
        raise ConfigurationError(f"browser_cdp_url {exc}") from None


def websocket_url(base: str, advertised: str | None) -> str:
    """The websocket URL to dial: the configured host and port, the advertised path. Pure.

    Args:
        base: the configured endpoint (http(s) or ws(s)).
        advertised: ``webSocketDebuggerUrl`` from ``/json/version`` (may be ``None``).
    """
    b = urlsplit(base)
    scheme = {"http": "ws", "https": "wss"}.get(b.scheme, b.scheme)
    if b.scheme in ("ws", "wss") and b.path not in ("", "/"):
        return base  # a full websocket URL was configured: dial it as is
    path = "/"
    query = b.query
    if advertised:
        a = urlsplit(advertised)
        path = a.path or "/"
        if a.query:
            query = f"{query}&{a.query}" if query else a.query
    return urlunsplit((scheme, b.netloc, path, query, ""))


def _is_ip_or_localhost(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return host.lower() == "localhost"
    return True


async def _host_override_for(ws: SplitResult) -> dict[str, str]:
    """For a full ``ws://name:port/devtools/…`` URL (no discovery): ask the same server's
    ``/json/version`` whether it refuses our ``Host``; if so, the handshake sends
    ``Host: localhost:<port>``. TLS endpoints, IP addresses and ``localhost`` keep theirs;
    a server without that page keeps it too."""
    host = ws.hostname or ""
    if ws.scheme != "ws" or _is_ip_or_localhost(host):
        return {}
    probe = urlunsplit(("http", ws.netloc, "/json/version", "", ""))
    try:
        async with httpx2.AsyncClient(trust_env=False, timeout=DISCOVERY_TIMEOUT_S) as client:
            response = await client.get(probe)
    except httpx2.HTTPError:
        return {}
    if response.status_code != 200 and HOST_REFUSED in response.text:
        return {"Host": f"localhost:{ws.port or 80}"}
    return {}


async def discover(base: str) -> Endpoint:
    """Ask ``{base}/json/version`` and build the WebSocket endpoint to dial.

    A ``ws(s)://`` base with a path is dialled as is (no discovery).

    Raises:
        BrowserError: the endpoint does not answer or answers something else (the message
            never holds the URL, which may carry a token).
    """
    b = urlsplit(base)
    if b.scheme in ("ws", "wss"):
        if b.path not in ("", "/"):
            return Endpoint(base, headers=await _host_override_for(b))
        http_base = urlunsplit(
            ({"ws": "http", "wss": "https"}[b.scheme], b.netloc, "", b.query, "")
        )
    else:
        http_base = base
    hb = urlsplit(http_base)
    version_url = urlunsplit(
        (hb.scheme, hb.netloc, hb.path.rstrip("/") + "/json/version", hb.query, "")
    )
    headers: dict[str, str] = {}
    data: Any = None
    try:
        async with httpx2.AsyncClient(trust_env=False, timeout=DISCOVERY_TIMEOUT_S) as client:
            response = await client.get(version_url)
            if response.status_code != 200 and HOST_REFUSED in response.text:
                headers = {"Host": f"localhost:{hb.port or (443 if hb.scheme == 'https' else 80)}"}
                response = await client.get(version_url, headers=headers)
        data = response.json() if response.status_code == 200 else None
    except (httpx2.HTTPError, ValueError):
        data = None
    if not isinstance(data, dict):
        raise BrowserError(
            "the configured CDP endpoint did not answer /json/version",
            hint="check browser_cdp_url and that the browser is running",
            retryable=True,
        )
    advertised = data.get("webSocketDebuggerUrl")
    ws_url = websocket_url(base, advertised if isinstance(advertised, str) else None)
    return Endpoint(ws_url, data, headers)
