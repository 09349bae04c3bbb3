"""A redirect or a meta refresh to an always-blocked address (cloud metadata, ``0.0.0.0``,
``[::ffff:169.254.169.254]``) is refused without an exemption hint, for the model and the
CLI alike (review, session 13: the hop's refusal said "unless an operator exempts the
network with allowed_networks" / "--allow-network CIDR"). Real local servers on 127.0.0.1."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
from click.testing import CliRunner

from tests.support.http_server import LocalServer, Route
from webresearch import Settings, Toolkit
from webresearch.cli.main import cli
from webresearch.runtime.journal import MemoryJournal

pytestmark = pytest.mark.network

HTML = [("Content-Type", "text/html; charset=utf-8")]
TARGETS = {
    "metadata": "http://169.254.169.254/latest/meta-data/",
    "unspecified": "http://0.0.0.0/",
    "mapped": "http://[::ffff:169.254.169.254]/",
}
ENV = {
    "WEBRESEARCH_JOURNAL_URL": "memory://",
    "WEBRESEARCH_SEARCH_PROVIDER": "none",
    "WEBRESEARCH_RENDER": "never",
}


def _refresh_page(target: str) -> bytes:
    return (
        f'<!doctype html><html><head><meta http-equiv="refresh" content="0;url={target}">'
        "<title>Moved</title></head><body></body></html>"
    ).encode()


@pytest.fixture(scope="module")
def site() -> Iterator[LocalServer]:
    with LocalServer() as server:
        for name, target in TARGETS.items():
            server.routes[f"/redirect-{name}"] = Route(302, [("Location", target)])
            server.routes[f"/refresh-{name}"] = Route(headers=HTML, body=_refresh_page(target))
        server.routes["/redirect-private"] = Route(302, [("Location", "http://10.1.2.3/")])
        yield server


@pytest.fixture
async def toolkit() -> AsyncIterator[Toolkit]:
    settings = Settings.load(environ={}, allowed_networks=["127.0.0.1/32"], render="never")
    async with Toolkit(settings, journal=MemoryJournal()) as kit:
        yield kit


PATHS = [f"/{hop}-{name}" for hop in ("redirect", "refresh") for name in TARGETS]


@pytest.mark.parametrize("path", PATHS)
async def test_the_model_is_not_told_an_always_blocked_hop_can_be_exempted(
    toolkit: Toolkit, site: LocalServer, path: str
) -> None:
    result = await toolkit.call("web_fetch", {"url": site.base + path})
    assert result.error is not None and result.error.code == "blocked_address", result.text
    hint = result.error.hint or ""
    assert "refuses this kind of address (link-local" in hint, hint
    for exemption in ("exempt", "allowed_networks", "allow_private"):
        assert exemption not in result.text, result.text
    assert "169.254" not in result.text and "0.0.0.0" not in result.text


@pytest.mark.parametrize("path", PATHS)
def test_the_cli_names_no_exemption_for_an_always_blocked_hop(site: LocalServer, path: str) -> None:
    result = CliRunner().invoke(
        cli, ["fetch", site.base + path, "--allow-network", "127.0.0.1/32"], env=ENV
    )
    assert result.exit_code != 0
    assert "blocked_address" in result.output, result.output
    assert "refuses this kind of address (link-local" in result.output, result.output
    for exemption in ("exempt", "--allow-network", "--allow-private", "allowed_networks"):
        assert exemption not in result.output.split("next step:", 1)[1], result.output


async def test_a_private_hop_still_names_the_exemptions_that_open_it(
    toolkit: Toolkit, site: LocalServer
) -> None:
    result = await toolkit.call("web_fetch", {"url": site.base + "/redirect-private"})
    assert result.error is not None and result.error.code == "blocked_address", result.text
    assert "allowed_networks or allow_private" in (result.error.hint or "")
