"""DNS resolution seam: an async callable ``host -> list of IP strings``.

The guard and the guarded transport take any such callable, so tests and auditors can
inject answers (mixed public/private, rebinding, failures) without DNS.
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Awaitable, Callable

__all__ = ["Resolver", "system_resolver"]

#: ``await resolver(host)`` → IP address strings in preference order (may raise ``OSError``).
Resolver = Callable[[str], Awaitable[list[str]]]


async def system_resolver(host: str) -> list[str]:
    """Resolve with the operating system's resolver (``getaddrinfo``), IPv4 and IPv6.

    Returns:
        unique address strings in the order the system prefers them.

    Raises:
        OSError: resolution failed (``socket.gaierror``).
    """
    loop = asyncio.get_running_loop()
    infos = await loop.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    seen: dict[str, None] = {}
    for _family, _type, _proto, _canon, sockaddr in infos:
        seen.setdefault(str(sockaddr[0]), None)
    return list(seen)
