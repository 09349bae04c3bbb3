"""SPEC §2 hostname rules that need no DNS."""

from __future__ import annotations

import pytest

from webresearch.net.hostnames import classify_host


@pytest.mark.parametrize(
    "host",
    [
        "localhost",
        "LOCALHOST",
        "localhost.",
        "api.localhost",
        "x.y.localhost.",
        "printer.local",
        "PRINTER.LOCAL.",
        "db.internal",
        "metadata.google.internal",
        "nas.lan",
        "router.home.arpa",
        "Router.Home.Arpa.",
        "intranet",
        "intranet.",
        "wpad",
        "x",
    ],
)
def test_internal_and_single_label_names_are_refused(host: str) -> None:
    assert classify_host(host).refusal is not None


@pytest.mark.parametrize(
    "host",
    [
        "2130706433",
        "0x7f000001",
        "017700000001",
        "0177.0.0.1",
        "0x7f.0.0.1",
        "0x7F.0x0.0x0.0x1",
        "127.1",
        "127.0.1",
        "10.1",
        "127.000.000.001",
        "127.0.0.01",
        "00127.0.0.1",
        "1.2.3.4.5",
        "256.1.1.1",
        "8.8.8.010",
        "0x8.8.8.8",
        "8.8.8.0x8",
        "example.123",
        "1.2.3.",
        "4294967296",
        "0x",
        "8.8.8.8."[:-1] + ".0",
    ],
)
def test_non_canonical_ipv4_spellings_are_refused(host: str) -> None:
    assert classify_host(host).refusal is not None, host


@pytest.mark.parametrize("host", ["8.8.8.8", "8.8.8.8.", "127.0.0.1", "0.0.0.0", "255.255.255.255"])
def test_plain_dotted_decimal_is_an_address(host: str) -> None:
    verdict = classify_host(host)
    assert verdict.refusal is None
    assert verdict.address is not None
    assert str(verdict.address) == host.rstrip(".")


@pytest.mark.parametrize(
    "host", ["::1", "[::1]", "::ffff:127.0.0.1", "2001:db8::1", "[2606:4700::1111]"]
)
def test_ipv6_literals_are_addresses(host: str) -> None:
    verdict = classify_host(host)
    assert verdict.refusal is None and verdict.address is not None


@pytest.mark.parametrize("host", ["fe80::1%eth0", "[fe80::1%25eth0]", "::g"])
def test_bad_ipv6_literals_are_refused(host: str) -> None:
    assert classify_host(host).refusal is not None


@pytest.mark.parametrize(
    "host",
    [
        "example.org",
        "EXAMPLE.ORG.",
        "xn--bcher-kva.de",
        "a.b.c.example.com",
        "1password.com",
        "123.example.com",
        "localhost.example.com",
    ],
)
def test_ordinary_names_need_resolution(host: str) -> None:
    verdict = classify_host(host)
    assert verdict.refusal is None and verdict.address is None
    assert verdict.host == host.lower().rstrip(".")


def test_case_and_trailing_dots_do_not_change_the_verdict() -> None:
    for a, b in [
        ("LocalHost..", "localhost"),
        ("Example.COM...", "example.com"),
        ("0X7F.1.", "0x7f.1"),
    ]:
        va, vb = classify_host(a), classify_host(b)
        assert (va.refusal is None) == (vb.refusal is None)
        assert va.host == vb.host


def _name(total: int, label: int = 63) -> str:
    """A name of ``total`` characters made of labels of at most ``label`` characters."""
    parts, left = [], total
    while left > 0:
        size = min(label, left)
        parts.append("a" * size)
        left -= size + 1
    name = ".".join(parts)
    return name[:-4] + ".com" if len(name) >= 4 else name


@pytest.mark.parametrize(
    "host",
    [
        _name(254),
        _name(300),
        _name(2000, 40),
        "a" * 64 + ".example.com",
        "www." + "b" * 100 + ".org",
        "ok.example." + "c" * 64,
        "a..example.com",
        "bad!name.example.com",
    ],
)
def test_names_too_long_or_malformed_are_invalid_before_any_resolution(host: str) -> None:
    verdict = classify_host(host)
    assert verdict.invalid is not None and verdict.address is None


@pytest.mark.parametrize(
    "host", [_name(253), "a" * 63 + ".example.com", _name(253) + ".", "xn--bcher-kva.example"]
)
def test_names_at_the_limits_are_valid(host: str) -> None:
    verdict = classify_host(host)
    assert verdict.invalid is None and verdict.refusal is None
