"""Shared fixtures: real local servers on 127.0.0.1 and settings that exempt only loopback."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.http_server import LocalServer
from webresearch import Settings

FIXTURES = Path(__file__).parent / "fixtures"
CASES = FIXTURES / "cases"

#: Tests reach local servers through this exemption, never by turning the guard off.
LOOPBACK_ONLY = ("127.0.0.0/8",)


@pytest.fixture
def settings() -> Settings:
    """Defaults, with 127.0.0.0/8 exempted from the SSRF guard (and nothing else)."""
    return Settings.load(
        environ={},
        allowed_networks=list(LOOPBACK_ONLY),
        journal_url="memory://",
        search_provider="none",  # the keyless default (ddgs) would leave the machine
    )


@pytest.fixture
def server() -> Iterator[LocalServer]:
    """An empty local server; tests add routes to ``server.routes``."""
    with LocalServer() as srv:
        yield srv
