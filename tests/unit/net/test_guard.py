"""The SSRF guard on its own, with an injected resolver (no DNS, no sockets)."""

from __future__ import annotations

import pytest

from tests.support.fake_net import ScriptedResolver
from webresearch.addresses import AddressPolicy
from webresearch.errors import BlockedAddress, InvalidArguments, NetworkError
from webresearch.net.guard import SSRFGuard, clean_url

PUBLIC = "93.184.216.34"


def guard(answers: dict[str, list[str]] | None = None, **policy: object) -> SSRFGuard:
    return SSRFGuard(AddressPolicy(**policy), resolver=ScriptedResolver(answers or {}))  # type: ignore[arg-type]


async def test_public_name_resolves_and_passes() -> None:
    g = guard({"example.org": [PUBLIC, "2606:2800:220:1:248:1893:25c8:1946"]})
    addresses = await g.check("https://example.org/x")
    assert [str(a) for a in addresses] == [PUBLIC, "2606:2800:220:1:248:1893:25c8:1946"]


@pytest.mark.parametrize(
    "answer",
    [
        [PUBLIC, "10.0.0.7"],
        ["127.0.0.1", PUBLIC],
        [PUBLIC, "::1"],
        [PUBLIC, "169.254.169.254"],
        ["::ffff:8.8.8.8"],
        ["100.64.3.3"],
        ["fd12::1", PUBLIC],
    ],
)
async def test_any_blocked_address_in_the_answer_refuses_the_host(answer: list[str]) -> None:
    g = guard({"mixed.example": answer})
    with pytest.raises(BlockedAddress) as info:
        await g.check("http://mixed.example/")
    # The message names the category, never the internal address the name resolved to.
    for addr in answer:
        if addr != PUBLIC:
            assert addr not in info.value.message


@pytest.mark.parametrize(
    "url",
    [
        "http://localhost/",
        "http://LOCALHOST./",
        "http://app.localhost:8080/",
        "http://nas.local/",
        "http://db.internal/",
        "http://router.lan/",
        "http://box.home.arpa/",
        "http://intranet/",
        "http://2130706433/",
        "http://0x7f.0.0.1/",
        "http://0177.0.0.1/",
        "http://127.1/",
        "http://127.0.0.1/",
        "http://[::1]/",
        "http://[::ffff:127.0.0.1]/",
        "http://10.0.0.1:8080/",
        "http://169.254.169.254/latest/meta-data/",
        "http://0.0.0.0/",
        "http://[fd00::1]/",
        "http://127。0。0。1/",
    ],
)
async def test_refused_without_resolving(url: str) -> None:
    resolver = ScriptedResolver({})
    g = SSRFGuard(AddressPolicy(), resolver=resolver)
    with pytest.raises(BlockedAddress):
        await g.check(url)
    assert resolver.calls == []


@pytest.mark.parametrize(
    "url",
    [
        "ftp://example.org/",
        "file:///etc/passwd",
        "gopher://example.org/",
        "javascript:alert(1)",
        "data:text/html,x",
    ],
)
async def test_only_http_and_https(url: str) -> None:
    """Another scheme given by the caller is a bad argument (SPEC §1.1: url is absolute
    http/https), not a refused address; a site redirecting there is refused by the guard."""
    resolver = ScriptedResolver({"example.org": [PUBLIC]})
    g = SSRFGuard(AddressPolicy(), resolver=resolver)
    with pytest.raises(InvalidArguments, match="only http and https URLs are fetched") as info:
        await g.check(url)
    assert info.value.hint == "give an http:// or https:// URL"
    assert resolver.calls == []
    with pytest.raises(BlockedAddress, match="the redirect target uses scheme") as hop:
        g.check_url(url, redirect=True)
    assert hop.value.details["category"] == "scheme" and url not in hop.value.message


@pytest.mark.parametrize(
    "url",
    [
        "http://user:pass@example.org/",
        "http://user@example.org/",
        "https://example.org@evil.example/",
    ],
)
async def test_userinfo_is_refused(url: str) -> None:
    with pytest.raises(BlockedAddress) as info:
        await guard({"example.org": [PUBLIC], "evil.example": [PUBLIC]}).check(url)
    # a bare user@ is credentials too: the message names both forms
    assert "credentials (user@ or user:password@)" in info.value.message


@pytest.mark.parametrize("url", ["not a url", "/relative/path", "http://", "http://exa mple.com/"])
async def test_unparseable_or_relative_urls_are_invalid_arguments(url: str) -> None:
    with pytest.raises((InvalidArguments, BlockedAddress)):
        await guard().check(url)


@pytest.mark.parametrize(
    "raw",
    [
        " http://docs.example.org/a",
        "http://docs.example.org/a ",
        "\thttp://docs.example.org/a",
        "\x00\x1f http://docs.example.org/a\r\n",
        "http://docs.exa\tmple.org/\na",
    ],
)
async def test_outer_spaces_and_controls_and_inner_tabs_are_dropped_as_whatwg_says(
    raw: str,
) -> None:
    """WHATWG URL Standard, basic URL parser steps 1-2: strip leading/trailing C0 controls
    and spaces, remove every ASCII tab or newline. The guard agrees with a browser."""
    assert clean_url(raw) == "http://docs.example.org/a"
    target = guard({"docs.example.org": [PUBLIC]}).check_url(raw)
    assert str(target.url) == "http://docs.example.org/a"
    assert clean_url("http://x.example/a b") == "http://x.example/a b"  # inner space kept


async def test_resolution_failure_is_a_network_error() -> None:
    with pytest.raises(NetworkError):
        await guard({}).check("http://nowhere.example/")


async def test_exceptions_are_narrow() -> None:
    g = guard(
        {"docs.corp.example": ["10.1.2.3"]},
        allowed_networks=(__import__("ipaddress").ip_network("10.1.0.0/16"),),
    )
    assert [str(a) for a in await g.check("http://docs.corp.example/")] == ["10.1.2.3"]
    with pytest.raises(BlockedAddress):
        await guard(
            {"other.corp.example": ["10.2.0.1"]},
            allowed_networks=(__import__("ipaddress").ip_network("10.1.0.0/16"),),
        ).check("http://other.corp.example/")
    # allow_private opens loopback but never the metadata address
    assert await guard(allow_private=True).check("http://127.0.0.1:9/")
    with pytest.raises(BlockedAddress):
        await guard(allow_private=True).check("http://169.254.169.254/")
    # allow_private does not open the host-name rules
    with pytest.raises(BlockedAddress):
        await guard(allow_private=True).check("http://localhost/")


async def test_secrets_in_the_url_never_reach_the_message() -> None:
    with pytest.raises(BlockedAddress) as info:
        await guard().check("http://10.0.0.1/?token=s3cr3t-value&q=1")
    assert "s3cr3t-value" not in info.value.message


@pytest.mark.parametrize(
    "host", ["a" * 64 + ".example.com", ("abcdefghi." * 26) + "com", "x." + "y" * 250 + ".org"]
)
async def test_overlong_names_are_invalid_and_never_resolved(host: str) -> None:
    resolver = ScriptedResolver({host: ["93.184.216.34"]})
    g = SSRFGuard(AddressPolicy(), resolver=resolver)
    with pytest.raises(InvalidArguments, match="longer than"):
        await g.check(f"https://{host}/")
    with pytest.raises(InvalidArguments, match="longer than"):
        await g.resolve_and_check(host)  # the transport's and the browser proxy's entry
    assert resolver.calls == []


@pytest.mark.parametrize(
    ("address", "category"),
    [
        ("168.63.129.16", "cloud platform endpoint"),
        ("100.100.100.200", "metadata service"),
        ("fd00:ec2::254", "metadata service"),
        ("2a00:1450:4001:800:0:5efe:a9fe:a9fe", "link-local"),
        ("2a00:1450:4001:800:200:5efe:7f00:1", "loopback"),
        ("192.88.99.1", "reserved"),
    ],
)
async def test_new_table_entries_refuse_resolved_names(address: str, category: str) -> None:
    g = guard({"evil.example": [address]})
    with pytest.raises(BlockedAddress, match=category):
        await g.check("https://evil.example/")


def _net(cidr: str) -> tuple[object, ...]:
    return (__import__("ipaddress").ip_network(cidr),)


@pytest.mark.parametrize(
    ("answer", "opens"),
    [
        ("127.0.0.1", ("allowed_networks", "allow_private")),  # loopback
        ("10.0.0.7", ("allowed_networks", "allow_private")),  # private
        ("169.254.169.254", ("allowed_networks",)),  # link-local: allow_private never opens it
        ("0.0.0.0", ("allowed_networks",)),  # unspecified
    ],
)
async def test_an_address_refusal_names_only_the_exemptions_that_open_it(
    answer: str, opens: tuple[str, ...]
) -> None:
    """The hint is one true statement: no "never fetched" next to "an operator can exempt",
    and every setting it names really opens that address (and no other setting is named)."""
    with pytest.raises(BlockedAddress) as info:
        await guard({"docs.corp.example": [answer]}).check("http://docs.corp.example/")
    hint = info.value.hint or ""
    assert "SSRF guard" in hint and "public URL" in hint
    assert answer not in hint and answer not in info.value.message  # no internal address
    if "allow_private" in opens:
        assert "never" not in hint and "allowed_networks or allow_private" in hint
    else:  # always blocked (link-local, unspecified…): no exemption is ever suggested
        assert "allowed_networks" not in hint and "allow_private" not in hint
        assert "refuses this kind of address (link-local" in hint and "never" not in hint
    opened = guard({"docs.corp.example": [answer]}, allowed_networks=_net(f"{answer}/32"))
    assert await opened.check("http://docs.corp.example/")
    private = guard({"docs.corp.example": [answer]}, allow_private=True)
    if "allow_private" in opens:
        assert await private.check("http://docs.corp.example/")
    else:
        with pytest.raises(BlockedAddress):
            await private.check("http://docs.corp.example/")


@pytest.mark.parametrize(
    ("url", "inner", "opens"),
    [
        ("http://[::ffff:127.0.0.1]/", "127.0.0.1/32", "allow_private"),  # mapped loopback
        ("http://[64:ff9b::a00:7]/", "10.0.0.7/32", "allow_private"),  # NAT64 private
        ("http://[::ffff:169.254.169.254]/", "169.254.169.254/32", None),  # mapped metadata
    ],
)
async def test_an_ipv4_embedding_refusal_names_what_really_opens_it(
    url: str, inner: str, opens: str | None
) -> None:
    """Blocked whole (README): neither the IPv6 address alone nor the IPv4 alone opens it;
    both networks do, and allow_private when it opens the IPv4 inside. The hint says so."""
    with pytest.raises(BlockedAddress) as info:
        await guard().check(url)
    hint = info.value.hint or ""
    if opens is None:  # the IPv4 inside is always blocked: no exemption is suggested
        assert "allowed_networks" not in hint and "refuses this kind of address" in hint
    else:
        assert "both the IPv6 network and the IPv4 address" in hint and "(" not in hint
        assert "allow_private" in hint
    v6 = url.split("[", 1)[1].split("]", 1)[0] + "/128"
    for alone in (v6, inner):
        with pytest.raises(BlockedAddress):
            await guard(allowed_networks=_net(alone)).check(url)
    both = _net(v6) + _net(inner)
    assert await guard(allowed_networks=both).check(url)
    if opens is not None:
        assert await guard(allow_private=True).check(url)


@pytest.mark.parametrize("url", ["http://[fe80::1%25eth0]/", "http://[::1%25lo]/"])
async def test_an_ipv6_zone_refusal_speaks_of_ipv6_not_dotted_decimal(url: str) -> None:
    with pytest.raises(BlockedAddress) as info:
        await guard().check(url)
    hint = info.value.hint or ""
    assert "zone" in info.value.message and "dotted-decimal" not in hint
    assert "IPv6 address is written in brackets without a %zone" in hint


@pytest.mark.parametrize("url", ["http://localhost/", "http://2130706433/", "http://intranet/"])
async def test_a_host_rule_refusal_promises_no_exemption_that_does_not_exist(url: str) -> None:
    """No setting lifts the host-name and spelling rules, so the hint names none as doing so."""
    with pytest.raises(BlockedAddress) as info:
        await guard().check(url)
    hint = info.value.hint or ""
    assert "whatever the settings" in hint and "public URL" in hint
    assert "allowed_networks" not in hint and "allow_private" not in hint
    with pytest.raises(BlockedAddress):  # the hint's claim holds
        await guard(allow_private=True, allowed_networks=_net("0.0.0.0/0")).check(url)


@pytest.mark.parametrize(
    ("answer", "inner", "opens"),
    [
        ("2002:7f00:1::1", "127.0.0.1/32", "allow_private"),  # 6to4 of loopback
        ("2002:a00:7::", "10.0.0.7/32", "allow_private"),  # 6to4 of a private address
        ("2002:a9fe:a9fe::1", "169.254.169.254/32", None),  # 6to4 of the metadata address
        ("2001:db8:1::5efe:a00:7", None, None),  # ISATAP of 10.0.0.7 (documentation prefix)
        ("2606:4700:1::200:5efe:7f00:1", "127.0.0.1/32", "allow_private"),  # ISATAP, public
    ],
)
async def test_a_6to4_or_isatap_address_opens_only_as_strictly_as_a_mapped_one(
    answer: str, inner: str | None, opens: str | None
) -> None:
    """Judged by the IPv4 inside (README), with the same exemption rule as ``::ffff:…``: a
    name resolving to it passes only when both its IPv6 network and the IPv4 address are
    exempted (or allow_private where it opens that IPv4 kind). Before, the IPv6 network
    alone (``2002::/16``, ``::/0``) opened it, and the hint said the network alone would."""
    name = {"docs.corp.example": [answer]}
    url = "http://docs.corp.example/"
    with pytest.raises(BlockedAddress) as info:
        await guard(name).check(url)
    if inner is None:  # the IPv6 network is blocked itself (documentation): no IPv4 rule
        return
    hint = info.value.hint or ""
    if opens is None:  # the IPv4 inside is always blocked: no exemption is suggested
        assert "allowed_networks" not in hint and "refuses this kind of address" in hint
    else:
        assert "both the IPv6 network and the IPv4 address" in hint and "allow_private" in hint
    assert answer not in hint + info.value.message and inner.split("/")[0] not in hint
    for alone in (f"{answer}/128", "2002::/16", "::/0", inner):
        with pytest.raises(BlockedAddress):
            await guard(name, allowed_networks=_net(alone)).check(url)
    both = _net(f"{answer}/128") + _net(inner)
    assert await guard(name, allowed_networks=both).check(url)
    if opens is not None:
        assert await guard(name, allow_private=True).check(url)
    else:
        with pytest.raises(BlockedAddress):
            await guard(name, allow_private=True).check(url)


async def test_a_6to4_address_of_a_public_ipv4_passes_untouched() -> None:
    assert await guard({"example.org": ["2002:808:808::1"]}).check("http://example.org/")
