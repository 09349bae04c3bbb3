"""A local address typed in a spelling the SSRF guard refuses whatever the settings
(``%31%32%37.0.0.1``, a zero-width space before ``127.0.0.1``) gets the plain spelling to
give, not an exemption that leads to the same refusal; ``loc%61lhost`` is ``localhost`` in
the step after a refusal too (review r-15, M3 and L6). Pure functions only: the guard
judges the URLs (no DNS: every host is a literal or refused by rule); nothing is fetched."""

from __future__ import annotations

import ipaddress

import pytest

from tests.support.fake_net import ScriptedResolver
from webresearch.addresses import AddressPolicy
from webresearch.cli.local_hints import Exemptions, local_note, refusal_step, url_step
from webresearch.errors import BlockedAddress, WebResearchError
from webresearch.net.guard import SSRFGuard
from webresearch.net.hostnames import classify_host
from webresearch.url_text import suggested_url

LOOPBACK = (ipaddress.IPv4Network("127.0.0.1/32"),)
EXEMPT = Exemptions(LOOPBACK)
#: other spellings of 127.0.0.1 a browser reads as it (percent-escapes, a zero-width space)
SPELLINGS = ["%31%32%37.0.0.1", "%E2%80%8B127.0.0.1", "127%2e0.0.1", "127.0.0.1%2e"]
PLAIN = "http://127.0.0.1:8765/x"


def _refusal(url: str, networks: tuple[ipaddress.IPv4Network, ...] = ()) -> WebResearchError:
    guard = SSRFGuard(AddressPolicy(allowed_networks=networks), resolver=ScriptedResolver({}))
    with pytest.raises(WebResearchError) as info:
        guard.check_url(url)
    return info.value


@pytest.mark.parametrize("host", SPELLINGS)
def test_the_guard_refuses_the_spelling_even_exempted(host: str) -> None:
    assert classify_host(host).address is None
    _refusal(f"http://{host}:8765/x", LOOPBACK)  # the exemption does not open it
    SSRFGuard(AddressPolicy(allowed_networks=LOOPBACK)).check_url(PLAIN)  # the plain one


@pytest.mark.parametrize("host", SPELLINGS)
def test_the_note_gives_the_plain_spelling(host: str) -> None:
    url = f"http://{host}:8765/x"
    assert local_note(url, Exemptions()).endswith(f"give {PLAIN} --allow-network 127.0.0.1/32")
    exempted = local_note(url, EXEMPT)
    assert exempted.endswith(f"give {PLAIN}") and "--allow-network" not in exempted


@pytest.mark.parametrize("host", SPELLINGS)
def test_typed_without_its_scheme_too(host: str) -> None:
    step = url_step(f"{host}:8765/x")
    assert step is not None and step.endswith(f"give {PLAIN} --allow-network 127.0.0.1/32")


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.1."])
def test_a_plain_spelling_keeps_its_exemption(host: str) -> None:
    url = f"http://{host}:8765/x"
    assert local_note(url, Exemptions()).endswith("add --allow-network 127.0.0.1/32")
    assert local_note(url, EXEMPT) == ""


def test_a_public_address_spelled_so_gets_no_local_note() -> None:
    assert local_note("https://%39%33.184.216.34/x", Exemptions()) == ""


@pytest.mark.parametrize("host", ["%31%32%37.0.0.1", "%E2%80%8B127.0.0.1", "127%2e0.0.1"])
def test_the_step_after_the_refusal_gives_the_plain_spelling(host: str) -> None:
    url = f"http://{host}:8765/x"
    step = refusal_step(url, _refusal(url), Exemptions())
    assert step is not None and step.endswith(f"give {PLAIN} --allow-network 127.0.0.1/32")
    assert refusal_step(url, _refusal(url, LOOPBACK), EXEMPT) == (
        f"use a public URL; the SSRF guard refuses this spelling of 127.0.0.1 always: give {PLAIN}"
    )


@pytest.mark.parametrize("host", ["localhost", "loc%61lhost", "localhost%2e", "LOCALHOST."])
def test_the_step_after_a_refused_localhost_reads_the_host(host: str) -> None:
    url = f"http://{host}:8765/x"
    error = _refusal(url)
    assert isinstance(error, BlockedAddress)
    step = refusal_step(url, error, Exemptions())
    assert step is not None and step.endswith(f"give {PLAIN} --allow-network 127.0.0.1/32")
    assert refusal_step(url, _refusal(url, LOOPBACK), EXEMPT) == (
        "use a public URL; the SSRF guard refuses the name localhost whatever the settings: "
        f"give {PLAIN}"
    )


def test_a_local_host_as_read_with_a_port_is_meant_as_plain_http() -> None:
    assert suggested_url("loc%61lhost:8765/x") == "http://loc%61lhost:8765/x"
    assert suggested_url("%31%32%37.0.0.1:8765/x") == "http://%31%32%37.0.0.1:8765/x"
    assert suggested_url("%31%32%37.0.0.1/x") == "https://%31%32%37.0.0.1/x"
