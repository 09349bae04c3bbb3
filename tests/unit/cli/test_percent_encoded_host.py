"""A host typed with percent-escapes is judged as a browser reads it (WHATWG URL "host
parser": percent-decoded, then made ASCII): ``169%2e254.169.254/x`` is the metadata address
and gets the refusal, not an ``https://`` URL to retry (review r-15). Pure functions only:
nothing is resolved or fetched."""

from __future__ import annotations

import ipaddress

import pytest

from tests.support.fake_net import ScriptedResolver
from webresearch.cli.local_hints import Exemptions, refused_outright, scheme_typo, url_step
from webresearch.cli.targets import path_hint
from webresearch.errors import InvalidArguments
from webresearch.net.guard import SSRFGuard
from webresearch.url_text import INTERNAL_TYPED_HINT, host_as_read, typed_host

#: typed without a scheme; the metadata service or an internal name, percent-encoded
ENCODED = [
    "169%2e254.169.254/latest/meta-data",
    "169.254.169.254%2e/latest/meta-data",  # a trailing dot, encoded
    "%31%36%39.254.169.254/x",
    "169.254.169.254%2E:80/x",
    "metadata.google%2einternal/computeMetadata/v1/",
    "metadata.google.internal%2e/x",
    "http:/169%2e254.169.254/x",  # the scheme without its //
]


@pytest.mark.parametrize("typed", ENCODED)
def test_a_percent_encoded_internal_host_gets_the_refusal(typed: str) -> None:
    assert url_step(typed) == INTERNAL_TYPED_HINT
    assert path_hint(typed, FileNotFoundError(typed)) == INTERNAL_TYPED_HINT


@pytest.mark.parametrize("typed", ENCODED)
def test_the_guard_words_it_alike_for_a_model(typed: str) -> None:
    guard = SSRFGuard(resolver=ScriptedResolver({}))
    with pytest.raises(InvalidArguments) as info:
        guard.check_url(typed)
    assert info.value.hint == INTERNAL_TYPED_HINT


def test_a_scheme_typo_with_an_encoded_host_names_no_url() -> None:
    error = scheme_typo("https:169.254.169.254%2e/x", Exemptions())
    assert error is not None and error.hint == INTERNAL_TYPED_HINT


def test_an_exemption_still_opens_the_address_read() -> None:
    exempt = Exemptions((ipaddress.ip_network("169.254.0.0/16"),))
    assert not refused_outright("https://169%2e254.169.254/x", exempt)
    assert refused_outright("https://169%2e254.169.254/x", Exemptions())


@pytest.mark.parametrize(
    ("host", "read"),
    [
        ("169%2e254.169.254", "169.254.169.254"),
        ("169.254.169.254%2E", "169.254.169.254."),
        ("%31%32%37.0.0.1", "127.0.0.1"),
        ("Metadata.Google%2EInternal", "metadata.google.internal"),
        ("\uff11\uff12\uff17\uff0e0\uff0e0\uff0e1", "127.0.0.1"),  # fullwidth digits and dots
        ("docs.example.org", "docs.example.org"),
        ("a%2fb.example.org", "a%2fb.example.org"),  # a "/": no host a browser parses
        ("%ff.example.org", "%ff.example.org"),  # no UTF-8
        ("fe80::1%25eth0", "fe80::1%25eth0"),  # an IPv6 literal is not decoded
    ],
)
def test_host_as_read(host: str, read: str) -> None:
    assert host_as_read(host) == read


def test_typed_host_is_the_host_as_read_with_its_port() -> None:
    assert typed_host("169%2e254.169.254:8080/x") == "169.254.169.254:8080"
    assert typed_host("[::1]:80/x") == "[::1]:80"
    assert typed_host("Example.org/x") == "example.org"
