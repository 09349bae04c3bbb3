"""SPEC §2 address rules: every blocked range, the embedding forms, and the two exceptions."""

from __future__ import annotations

import ipaddress

import pytest
from hypothesis import given
from hypothesis import strategies as st

from webresearch.addresses import (
    ALWAYS_BLOCKED_CATEGORIES,
    BLOCKED_NETWORKS,
    AddressPolicy,
    blocked_category,
    embedded_ipv4,
    isatap_ipv4,
    reaches_this_host,
)

SPEC_IPV4 = [
    "0.0.0.0/8",
    "10.0.0.0/8",
    "100.64.0.0/10",
    "127.0.0.0/8",
    "169.254.0.0/16",
    "172.16.0.0/12",
    "192.0.0.0/24",
    "192.0.2.0/24",
    "192.168.0.0/16",
    "198.18.0.0/15",
    "198.51.100.0/24",
    "203.0.113.0/24",
    "224.0.0.0/4",
    "240.0.0.0/4",
    "255.255.255.255/32",
    "192.88.99.0/24",
    "168.63.129.16/32",
    "100.100.100.200/32",
]
SPEC_IPV6 = [
    "::/128",
    "::1/128",
    "fc00::/7",
    "fe80::/10",
    "fec0::/10",
    "ff00::/8",
    "2001:db8::/32",
    "::ffff:0:0/96",
    "::/96",
    "64:ff9b::/96",
    "64:ff9b:1::/48",
    "2001::/32",
    "100::/64",
    "3fff::/20",
    "5f00::/16",
    "fd00:ec2::254/128",
]


def _edges(cidr: str) -> list[str]:
    net = ipaddress.ip_network(cidr)
    mid = net.network_address + (net.num_addresses // 2)
    return [str(net.network_address), str(mid), str(net.broadcast_address)]


def test_table_is_exactly_the_spec_list() -> None:
    assert sorted(str(n) for n, _, _ in BLOCKED_NETWORKS) == sorted(
        str(ipaddress.ip_network(c)) for c in SPEC_IPV4 + SPEC_IPV6
    )


@pytest.mark.parametrize("cidr", SPEC_IPV4 + SPEC_IPV6)
def test_every_spec_range_is_blocked_at_its_edges_and_middle(cidr: str) -> None:
    policy = AddressPolicy()
    for address in _edges(cidr):
        verdict = policy.verdict(address)
        assert not verdict.allowed, address
        assert verdict.category is not None


@pytest.mark.parametrize(
    "address",
    [
        "100.63.255.255",
        "100.128.0.0",
        "9.255.255.255",
        "11.0.0.0",
        "172.15.255.255",
        "172.32.0.0",
        "192.0.1.1",
        "198.17.255.255",
        "198.20.0.0",
        "223.255.255.255",
        "1.1.1.1",
        "8.8.8.8",
        "93.184.216.34",
        "2606:4700:4700::1111",
        "2a00:1450:4001::200e",
    ],
)
def test_neighbours_and_public_addresses_are_allowed(address: str) -> None:
    assert AddressPolicy().verdict(address).allowed


def test_python_is_private_misses_shared_space_but_we_do_not() -> None:
    # The reason for an explicit table (SPEC §2): 100.64/10 is neither private nor global.
    ip = ipaddress.ip_address("100.64.1.1")
    assert not ip.is_private
    assert blocked_category(ip) == "shared"


@pytest.mark.parametrize(
    ("address", "inner"),
    [
        ("::ffff:127.0.0.1", "127.0.0.1"),
        ("::ffff:8.8.8.8", "8.8.8.8"),
        ("::127.0.0.1", "127.0.0.1"),
        ("64:ff9b::8.8.8.8", "8.8.8.8"),
        ("64:ff9b:1::a00:1", "10.0.0.1"),
        ("2002:0a00:0001::1", "10.0.0.1"),
        ("2001:0:4136:e378:8000:63bf:3fff:fdd2", "192.0.2.45"),
        ("2a00:1450::5efe:7f00:1", "127.0.0.1"),
        ("2a00:1450::200:5efe:a9fe:a9fe", "169.254.169.254"),
    ],
)
def test_embedded_ipv4_is_extracted(address: str, inner: str) -> None:
    assert str(embedded_ipv4(ipaddress.ip_address(address))) == inner


@pytest.mark.parametrize(
    "address",
    [
        "::ffff:8.8.8.8",
        "::ffff:127.0.0.1",
        "::8.8.8.8",
        "64:ff9b::8.8.8.8",
        "64:ff9b:1::808:808",
        "2001:0:4136:e378:8000:63bf:3fff:fdd2",
    ],
)
def test_embedding_forms_are_blocked_whole_even_with_a_public_inner_address(address: str) -> None:
    verdict = AddressPolicy().verdict(address)
    assert not verdict.allowed
    assert verdict.category == "ipv4_embedded"


def test_six_to_four_is_judged_by_its_embedded_address() -> None:
    policy = AddressPolicy()
    assert policy.verdict("2002:0808:0808::1").allowed  # 8.8.8.8 inside
    for private in (
        "2002:7f00:0001::1",
        "2002:0a00:0001::",
        "2002:c0a8:0101::1",
        "2002:a9fe:a9fe::",
    ):
        assert not policy.verdict(private).allowed, private


#: ISATAP interface identifiers (RFC 5214) under public prefixes, both spellings of the
#: identifier (0000:5efe and 0200:5efe), with an internal IPv4 inside.
ISATAP_INTERNAL = [
    f"{prefix}:{iid}:{inner}"
    for prefix in ("2a00:1450:4001:800", "2606:4700:0:1", "2001:4860:4860:1")
    for iid in ("0", "200")
    for inner in ("5efe:7f00:1", "5efe:a00:1", "5efe:a9fe:a9fe", "5efe:c0a8:101", "5efe:6440:1")
]


@pytest.mark.parametrize("address", ISATAP_INTERNAL)
def test_isatap_identifiers_are_judged_by_their_embedded_ipv4(address: str) -> None:
    ip = ipaddress.IPv6Address(address)
    inner = isatap_ipv4(ip)
    assert inner is not None and not AddressPolicy().verdict(inner).allowed
    verdict = AddressPolicy().verdict(ip)
    assert not verdict.allowed, address
    assert verdict.category == blocked_category(inner)


def test_isatap_with_a_public_ipv4_and_lookalikes_are_allowed() -> None:
    policy = AddressPolicy()
    assert policy.verdict("2a00:1450:4001:800:0:5efe:808:808").allowed  # 8.8.8.8 inside
    assert policy.verdict("2a00:1450:4001:800:200:5efe:808:808").allowed
    # Other identifiers are not ISATAP: 0100:5efe, 0000:5eff.
    assert isatap_ipv4(ipaddress.IPv6Address("2a00:1450::100:5efe:7f00:1")) is None
    assert isatap_ipv4(ipaddress.IPv6Address("2a00:1450::5eff:7f00:1")) is None
    assert policy.verdict("2a00:1450::5eff:7f00:1").allowed


def test_the_new_ranges_are_never_opened_by_allow_private() -> None:
    policy = AddressPolicy(allow_private=True)
    for never in ("168.63.129.16", "100::1", "5f00::1", "192.88.99.1", "3fff::1"):
        verdict = policy.verdict(never)
        assert verdict.category is not None
        assert verdict.allowed is (verdict.category not in ALWAYS_BLOCKED_CATEGORIES), never
    assert not policy.verdict("168.63.129.16").allowed  # a cloud endpoint, like metadata
    assert policy.verdict("168.63.129.15").allowed  # its neighbour is public


def test_cloud_metadata_services_inside_private_ranges_stay_closed_under_allow_private() -> None:
    # Alibaba Cloud's ECS metadata service sits in 100.64/10 (shared) and AWS IMDS over IPv6
    # in fc00::/7 (unique local): allow_private opens those ranges, never the metadata service.
    policy = AddressPolicy(allow_private=True)
    for metadata, neighbour in (
        ("100.100.100.200", "100.100.100.199"),
        ("fd00:ec2::254", "fd00:ec2::253"),
    ):
        assert blocked_category(ipaddress.ip_address(metadata)) == "metadata"
        assert not policy.verdict(metadata).allowed, metadata
        assert policy.verdict(neighbour).allowed, neighbour
    # Only an explicit exemption opens one.
    assert (
        AddressPolicy.from_strings(allowed_networks=["100.100.100.200/32"])
        .verdict("100.100.100.200")
        .allowed
    )


def test_allowed_networks_exempt_exactly_the_listed_networks() -> None:
    policy = AddressPolicy.from_strings(allowed_networks=["127.0.0.0/8", "10.1.0.0/16"])
    assert policy.verdict("127.0.0.1").allowed
    assert policy.verdict("127.0.0.1").exempted_by == "allowed_networks"
    assert policy.verdict("10.1.2.3").allowed
    assert not policy.verdict("10.2.0.1").allowed
    assert not policy.verdict("192.168.1.1").allowed
    assert not policy.verdict("::1").allowed  # another family is not implied
    assert not policy.verdict("::ffff:127.0.0.1").allowed


def test_allow_private_opens_private_ranges_but_never_metadata_or_unspecified() -> None:
    policy = AddressPolicy(allow_private=True)
    for ok in (
        "127.0.0.1",
        "10.0.0.1",
        "192.168.0.10",
        "172.16.5.4",
        "100.64.0.1",
        "::1",
        "fd00::1",
        "::ffff:10.0.0.1",
    ):
        assert policy.verdict(ok).allowed, ok
    for never in (
        "169.254.169.254",
        "0.0.0.0",
        "224.0.0.1",
        "255.255.255.255",
        "240.0.0.1",
        "fe80::1",
        "ff02::1",
        "::",
        "::ffff:169.254.169.254",
        "2002:a9fe:a9fe::1",
    ):
        assert not policy.verdict(never).allowed, never


def test_allowed_networks_can_open_even_the_always_blocked_categories() -> None:
    policy = AddressPolicy.from_strings(allowed_networks=["169.254.169.254/32"])
    assert policy.verdict("169.254.169.254").allowed
    assert not policy.verdict("169.254.169.253").allowed


def test_always_blocked_categories_exist_in_the_table() -> None:
    categories = {c for _, c, _ in BLOCKED_NETWORKS}
    assert categories >= ALWAYS_BLOCKED_CATEGORIES


@given(st.ip_addresses())
def test_verdict_agrees_with_the_table_for_any_address(
    ip: ipaddress.IPv4Address | ipaddress.IPv6Address,
) -> None:
    in_table = any(ip.version == n.version and ip in n for n, _, _ in BLOCKED_NETWORKS)
    embeds = isinstance(ip, ipaddress.IPv6Address) and (
        ip.sixtofour is not None or isatap_ipv4(ip) is not None
    )
    verdict = AddressPolicy().verdict(ip)
    if in_table:
        assert not verdict.allowed
    elif not embeds:
        assert verdict.allowed
    else:
        inner = isatap_ipv4(ip) or getattr(ip, "sixtofour", None)
        assert inner is not None
        if not AddressPolicy().verdict(inner).allowed:
            assert not verdict.allowed


@pytest.mark.parametrize(
    ("exempt", "address"),
    [
        ("::/0", "::ffff:127.0.0.2"),
        ("::ffff:0:0/96", "::ffff:10.0.0.1"),
        ("64:ff9b::/96", "64:ff9b::a9fe:a9fe"),
        ("2001::/32", "2001:0:4136:e378:8000:63bf:3fff:fdd2"),  # Teredo client 192.0.2.45
        ("::/96", "::127.0.0.1"),
    ],
)
def test_an_exempted_ipv6_range_never_opens_the_ipv4_address_it_embeds(
    exempt: str, address: str
) -> None:
    assert not AddressPolicy.from_strings(allowed_networks=[exempt]).verdict(address).allowed


def test_an_embedded_address_passes_when_its_ipv4_passes_too() -> None:
    policy = AddressPolicy.from_strings(allowed_networks=["::ffff:0:0/96", "127.0.0.0/8"])
    assert policy.verdict("::ffff:127.0.0.2").allowed
    assert policy.verdict("::ffff:8.8.8.8").allowed  # public inside
    assert not policy.verdict("::ffff:10.0.0.1").allowed


@pytest.mark.parametrize(
    ("address", "local"),
    [
        ("127.0.0.1", True),
        ("127.9.8.7", True),
        ("::1", True),
        ("0.0.0.0", True),
        ("::", True),
        ("::ffff:7f00:1", True),  # IPv4-mapped 127.0.0.1
        ("::ffff:0:0", True),  # IPv4-mapped 0.0.0.0
        ("::7f00:1", True),  # IPv4-compatible 127.0.0.1
        ("64:ff9b::7f00:1", True),  # NAT64
        ("64:ff9b:1::7f00:1", True),  # local-use NAT64
        ("2002:7f00:1::", True),  # 6to4
        ("10.0.0.1", False),
        ("192.168.1.1", False),
        ("::ffff:a00:1", False),  # mapped 10.0.0.1: private, but not this host
        ("93.184.216.34", False),
        ("2606:4700::1", False),
    ],
)
def test_reaches_this_host_knows_every_spelling_of_the_local_host(
    address: str, local: bool
) -> None:
    assert reaches_this_host(address) is local
    assert reaches_this_host(ipaddress.ip_address(address)) is local


@pytest.mark.parametrize(
    ("network", "names"),
    [
        ("0.0.0.0/0", ("loopback", "link-local", "metadata", "private")),
        ("::/0", ("loopback", "link-local", "private")),
        ("169.254.0.0/16", ("link-local",)),
        ("0.0.0.0/1", ("loopback", "private")),
        # Whole shared / unique-local ranges hold a cloud metadata service each.
        ("100.64.0.0/10", ("metadata", "cloud metadata services included")),
        ("fc00::/7", ("metadata", "cloud metadata services included")),
    ],
)
def test_a_broad_exemption_is_named_in_a_warning(network: str, names: tuple[str, ...]) -> None:
    (line,) = AddressPolicy.from_strings(allowed_networks=[network]).broad_exemptions()
    assert line.startswith(f"allowed network {network} exempts ")
    assert all(name in line for name in names)
    assert "SSRF guard" in line


@pytest.mark.parametrize(
    ("network", "kinds"),
    [
        ("::/128", "unspecified addresses"),  # only ::, not also the ::/96 block holding it
        ("0.0.0.0/8", "unspecified addresses"),
        ("::/96", "IPv4-embedding IPv6, loopback and unspecified addresses"),
        ("fe80::/10", "link-local addresses"),
        ("0.0.0.0/0", "benchmarking, broadcast, cloud metadata, documentation, link-local, "),
    ],
)
def test_a_warning_names_the_kinds_in_plain_words(network: str, kinds: str) -> None:
    (line,) = AddressPolicy.from_strings(allowed_networks=[network]).broad_exemptions()
    assert line.startswith(f"allowed network {network} exempts {kinds}")
    assert "_" not in line  # no category name of the code (link_local, ipv4_embedded)


@pytest.mark.parametrize(
    "network", ["127.0.0.0/8", "10.0.0.0/8", "192.168.1.0/24", "fd12:3456::/32", "100.64.0.0/16"]
)
def test_a_narrow_exemption_gives_no_warning(network: str) -> None:
    assert AddressPolicy.from_strings(allowed_networks=[network]).broad_exemptions() == []
