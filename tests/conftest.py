"""Shared fixtures: real local servers on 127.0.0.1 and settings that exempt only loopback."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

from tests.support.http_server import LocalServer
from webresearch import Settings

# Shared 2-core machines: a slow example is load, not a bug. No per-example deadline.
hypothesis_settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
hypothesis_settings.load_profile("default")

FIXTURES = Path(__file__).parent / "fixtures"
CASES = FIXTURES / "cases"

#: Tests reach local servers through this exemption, never by turning the guard off.
LOOPBACK_ONLY = ("127.0.0.0/8",)


@pytest.fixture(autouse=True)
def no_user_settings_file(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The CLI reads $XDG_CONFIG_HOME/webresearch/config.toml: a developer's own file must
    not change what tests see (an empty directory stands in for it)."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.getbasetemp() / "no-xdg-config"))


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
