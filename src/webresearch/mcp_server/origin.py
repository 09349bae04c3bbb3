"""DNS-rebinding protection for the HTTP transport: ``Host`` and ``Origin`` checks (SPEC §4).

A web page can point a name it controls at the address we listen on (DNS rebinding) and then
talk to us from the person's browser: the request reaches our socket, but its ``Host``
header still carries the attacker's name, and a cross-site request carries the page's
``Origin``. So every HTTP request, on every bind address and every path, must name us:

* ``Host`` must be one of the accepted authorities, else **421 Misdirected Request**;
* ``Origin``, when present, must be ``http(s)://`` + an accepted authority, else **403**
  (no ``Origin`` is a non-browser client; ``Origin: null`` is refused).

Accepted authorities (``host:port``): the bind address with the port we listen on (for
127.0.0.1 and ::1 also ``localhost`` — a rebinding page cannot send that name), and every
``--allowed-host NAME[:PORT]`` / ``mcp_allowed_hosts`` entry (the server's port when none is
given; ``NAME:*`` any port, e.g. behind a container's port mapping). A ``Host`` without a
port means port 80. Names compare case-insensitively without a trailing dot; IP literals
compare as addresses. A wildcard bind (0.0.0.0, ::) has no address a client would use, so
it needs ``--allowed-host``.

The MCP SDK's own check (on only when bound to the literal 127.0.0.1, ::1 or localhost, any
port) is switched off: this gate is the one rule, in front of the bearer-token gate.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from webresearch import ConfigurationError

__all__ = ["ANY_PORT", "HostOriginGate", "HostRules", "normalize_authority", "parse_allowed_host"]

_WILDCARDS = ("0.0.0.0", "::")
_LOCAL_NAMES = {"127.0.0.1": "localhost", "::1": "localhost"}
_NAME = re.compile(r"^[a-z0-9_.-]+$")  # a host name or IPv4 literal, normalised
#: The port of an accepted authority that matches any port (``NAME:*``).
ANY_PORT = 0


def _norm_host(host: str) -> str:
    h = host.strip().lower().rstrip(".")
    if h.startswith("[") and h.endswith("]"):
        h = h[1:-1]
    try:
        return str(ipaddress.ip_address(h))
    except ValueError:
        return h


def normalize_authority(text: str, default_port: int) -> tuple[str, int] | None:
    """``host[:port]`` (``[v6]:port`` for IPv6) → (normalised host, port); ``None`` if malformed."""
    value = text.strip()
    if not value or any(c in value for c in "/?#@ \t"):
        return None
    if value.startswith("["):
        end = value.find("]")
        if end < 0:
            return None
        host, rest = value[1:end], value[end + 1 :]
        if rest and not rest.startswith(":"):
            return None
        port_text = rest[1:] if rest else ""
    elif value.count(":") > 1:  # a bare IPv6 literal (only in --allowed-host)
        host, port_text = value, ""
    else:
        host, _, port_text = value.partition(":")
    if not host or (port_text and not port_text.isdigit()):
        return None
    port = int(port_text) if port_text else default_port
    host = _norm_host(host)
    if not 0 < port < 65536 or not (_NAME.match(host) or _is_ip(host)):
        return None
    return host, port


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def parse_allowed_host(text: str, port: int) -> tuple[str, int]:
    """One ``--allowed-host`` value (``NAME``, ``NAME:PORT``, ``NAME:*``, ``[v6]:PORT``) →
    (host, port); ``NAME:*`` gives :data:`ANY_PORT`.

    Raises:
        ConfigurationError: not a host with an optional port.
    """
    value = text.strip()
    if value.endswith(":*"):
        parsed = normalize_authority(value[:-2], 1)
        if parsed is not None:
            return parsed[0], ANY_PORT
    parsed = normalize_authority(value, port)
    if parsed is None:
        raise ConfigurationError(
            "--allowed-host (mcp_allowed_hosts) expects NAME, NAME:PORT or NAME:* "
            f"(e.g. mcp.example.org:8443), got {text!r}"
        )
    return parsed


@dataclass(frozen=True, slots=True)
class HostRules:
    """The authorities a request may name.

    Attributes:
        accepted: (host, port) pairs, hosts normalised (see :func:`normalize_authority`).
    """

    accepted: frozenset[tuple[str, int]]

    @classmethod
    def for_bind(cls, bind_host: str, port: int, allowed_hosts: Iterable[str] = ()) -> HostRules:
        """The rules for a server listening on ``bind_host:port``.

        Raises:
            ConfigurationError: a malformed ``allowed_hosts`` entry, or a wildcard bind
                (0.0.0.0, ::) without any.
        """
        accepted = {parse_allowed_host(h, port) for h in allowed_hosts}
        bind = _norm_host(bind_host)
        if bind in _WILDCARDS:
            if not accepted:
                raise ConfigurationError(
                    f"serving on every interface ({bind_host}) needs --allowed-host NAME for "
                    "each name or address clients use to reach this server (DNS-rebinding "
                    "protection checks the Host header)"
                )
        else:
            accepted.add((bind, port))
            if bind in _LOCAL_NAMES:
                accepted.add((_LOCAL_NAMES[bind], port))
        return cls(frozenset(accepted))

    def host_ok(self, header: str | None) -> bool:
        """Whether a ``Host`` header names this server (a missing one does not)."""
        return self._accepts(normalize_authority(header, 80) if header else None)

    def origin_ok(self, header: str | None) -> bool:
        """Whether an ``Origin`` header is absent or an http(s) origin of this server."""
        if header is None:
            return True
        try:
            parts = urlsplit(header.strip())
        except ValueError:
            return False
        if parts.scheme not in ("http", "https") or parts.path or parts.query or parts.fragment:
            return False
        return self._accepts(
            normalize_authority(parts.netloc, 443 if parts.scheme == "https" else 80)
        )

    def _accepts(self, authority: tuple[str, int] | None) -> bool:
        return authority is not None and (
            authority in self.accepted or (authority[0], ANY_PORT) in self.accepted
        )


class HostOriginGate:
    """ASGI middleware: 421 for a foreign ``Host``, 403 for a foreign ``Origin``.

    Lifespan and other non-HTTP scopes pass through untouched.

    Args:
        app: the wrapped ASGI app (the bearer-token gate and the MCP app behind it).
        rules: the accepted authorities.
    """

    def __init__(self, app: ASGIApp, rules: HostRules) -> None:
        self.app = app
        self.rules = rules

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        if len(headers.getlist("host")) != 1 or not self.rules.host_ok(headers.get("host")):
            await _refuse(send, 421, b"Invalid Host header")
        elif len(headers.getlist("origin")) > 1 or not self.rules.origin_ok(headers.get("origin")):
            await _refuse(send, 403, b"Invalid Origin header")
        else:
            await self.app(scope, receive, send)


async def _refuse(send: Send, status: int, body: bytes) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
