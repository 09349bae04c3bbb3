"""Real browsers for the browser tests: one Toolkit per backend for the whole session.

Both backends (a launched Chromium, a launched Lightpanda) run for real against pages served
on 127.0.0.1. The settings exempt ONLY 127.0.0.1 and 127.0.0.3 from the SSRF guard; the
forbidden servers listen on 127.0.0.2 (a blocked loopback address) and 127.0.0.3 (a
blocked domain), and tests assert on their request logs.

Playwright objects belong to the event loop that made them, so these fixtures and the tests
that use them run on the session's loop (``loop_scope="session"``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import pytest_asyncio

from tests.browser.pages import forbidden_routes, spa_routes
from tests.browser.traps import TCPTrap, UDPTrap, WebSocketServer
from tests.support.http_server import LocalServer
from webresearch import RunContext, Settings, Toolkit, ToolResult
from webresearch.runtime.journal import MemoryJournal

BACKENDS = ("chromium", "lightpanda")


def browser_settings(backend: str, **overrides: object) -> Settings:
    """Settings for browser tests: memory journal, only 127.0.0.1 and 127.0.0.3 exempted,
    127.0.0.3 a blocked domain."""
    values: dict[str, Any] = {
        "allowed_networks": ["127.0.0.1/32", "127.0.0.3/32"],
        "blocked_domains": ["127.0.0.3"],
        "journal_url": "memory://",
        "browser_backend": backend,
        "browser_rate_limit": None,
    }
    values.update(overrides)
    return Settings.load(environ={}, **values)


@dataclass
class Sites:
    """The local servers: the site, and the two forbidden targets."""

    site: LocalServer
    private: LocalServer
    domain: LocalServer

    def forbidden_hits(self) -> int:
        return self.private.count() + self.domain.count()


@pytest.fixture(scope="session")
def sites() -> Iterator[Sites]:
    with LocalServer(host="127.0.0.2") as private, LocalServer(host="127.0.0.3") as domain:
        routes = {**spa_routes(), **forbidden_routes(private.base, domain.base)}
        with LocalServer(routes) as site:
            yield Sites(site, private, domain)


@dataclass
class Boundary:
    """Raw traps behind the forbidden addresses (every accepted connection counts), and a
    WebSocket server on the allowed address (the control: the same probes do work there)."""

    v4: TCPTrap  # 127.0.0.2: a blocked loopback address
    v6: TCPTrap  # [::1]: a blocked loopback address
    domain: TCPTrap  # 127.0.0.3: allowed by the address rules, a blocked domain
    udp: UDPTrap  # 127.0.0.2: WebRTC / QUIC / WebTransport datagrams
    ws_v4: WebSocketServer  # 127.0.0.2: an "internal service" that leaks a secret
    ws_domain: WebSocketServer  # 127.0.0.3
    ws_ok: WebSocketServer  # 127.0.0.1: allowed

    def forbidden(self) -> dict[str, int]:
        """Connections (or datagrams) every forbidden endpoint received."""
        return {
            "127.0.0.2": self.v4.count,
            "[::1]": self.v6.count,
            "127.0.0.3": self.domain.count,
            "udp 127.0.0.2": self.udp.count,
            "ws 127.0.0.2": self.ws_v4.count,
            "ws 127.0.0.3": self.ws_domain.count,
        }

    def reset(self) -> None:
        for trap in (self.v4, self.v6, self.domain, self.udp, self.ws_v4, self.ws_domain):
            trap.reset()


@pytest.fixture(scope="session")
def boundary() -> Iterator[Boundary]:
    with (
        TCPTrap("127.0.0.2") as v4,
        TCPTrap("::1") as v6,
        TCPTrap("127.0.0.3") as domain,
        UDPTrap("127.0.0.2") as udp,
        WebSocketServer("127.0.0.2") as ws_v4,
        WebSocketServer("127.0.0.3") as ws_domain,
        WebSocketServer("127.0.0.1") as ws_ok,
    ):
        yield Boundary(v4, v6, domain, udp, ws_v4, ws_domain, ws_ok)


@dataclass
class Kit:
    """A Toolkit on one backend, with helpers."""

    backend: str
    toolkit: Toolkit

    async def call(self, run: RunContext, **arguments: object) -> ToolResult:
        return await self.toolkit.call("browser", dict(arguments), run=run)

    @property
    def journal(self) -> MemoryJournal:
        journal = self.toolkit.journal
        assert isinstance(journal, MemoryJournal)
        return journal


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def kits() -> AsyncIterator[dict[str, Kit]]:
    out: dict[str, Kit] = {}
    try:
        for backend in BACKENDS:
            out[backend] = Kit(backend, Toolkit(browser_settings(backend)))
        yield out
    finally:
        for kit in out.values():
            await kit.toolkit.aclose()


@pytest.fixture(params=BACKENDS)
def kit(request: pytest.FixtureRequest, kits: dict[str, Kit]) -> Kit:
    return kits[request.param]


@pytest.fixture
def chromium(kits: dict[str, Kit]) -> Kit:
    return kits["chromium"]
