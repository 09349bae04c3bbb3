"""Every user-facing example of an SSRF exemption is the narrowest one that reaches a local
test server (``127.0.0.1/32``), never the whole loopback range: help texts, the broad
exemption warning, a bad CIDR's message and the setting's description."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from webresearch.addresses import AddressPolicy
from webresearch.cli.main import cli
from webresearch.config.network import NetworkSettings

ENV = {"WEBRESEARCH_JOURNAL_URL": "memory://", "WEBRESEARCH_SEARCH_PROVIDER": "none"}


@pytest.mark.parametrize("command", ["fetch", "image", "browse"])
def test_help_examples_exempt_one_address(command: str) -> None:
    result = CliRunner().invoke(cli, [command, "--help"], env=ENV, terminal_width=200)
    assert result.exit_code == 0
    assert "127.0.0.0/8" not in result.stdout
    assert "127.0.0.1/32" in result.stdout


def test_the_broad_exemption_warning_suggests_one_address() -> None:
    (warning,) = AddressPolicy.from_strings(allowed_networks=["0.0.0.0/0"]).broad_exemptions()
    assert warning.endswith("e.g. 127.0.0.1/32")


def test_the_setting_and_a_bad_cidr_suggest_one_address() -> None:
    description = NetworkSettings.model_fields["allowed_networks"].description or ""
    assert "127.0.0.1/32" in description and "127.0.0.0/8" not in description
    result = CliRunner().invoke(cli, ["fetch", "x.html", "--allow-network", "nope"], env=ENV)
    assert result.exit_code == 2
    assert "e.g. 127.0.0.1/32" in result.stderr and "127.0.0.0/8" not in result.stderr
