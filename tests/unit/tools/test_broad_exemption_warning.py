"""Building the services with an allowed network like ``0.0.0.0/0`` warns the operator: it
switches the SSRF guard off for loopback, private and link-local (cloud metadata) space."""

from __future__ import annotations

import logging

import pytest

from webresearch import Settings
from webresearch.tools.services import Services


def _warnings(caplog: pytest.LogCaptureFixture, networks: list[str]) -> list[str]:
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="webresearch"):
        Services(Settings.load(environ={}, allowed_networks=networks, journal_url="memory://"))
    return [r.getMessage() for r in caplog.records if "allowed network" in r.getMessage()]


def test_every_ipv4_address_exempted_is_warned_about(caplog: pytest.LogCaptureFixture) -> None:
    (line,) = _warnings(caplog, ["127.0.0.0/8", "0.0.0.0/0"])
    assert "0.0.0.0/0" in line and "metadata" in line


def test_loopback_only_is_quiet(caplog: pytest.LogCaptureFixture) -> None:
    assert _warnings(caplog, ["127.0.0.0/8"]) == []


@pytest.mark.parametrize(("network", "this_host"), [("0.0.0.0/32", "0.0.0.0"), ("::/128", "::")])
def test_exempting_the_unspecified_address_says_it_reaches_this_host(
    caplog: pytest.LogCaptureFixture, network: str, this_host: str
) -> None:
    (line,) = _warnings(caplog, [network])
    assert f"{this_host} reaches this host's own services" in line
