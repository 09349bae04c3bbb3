"""Which IP addresses a model-chosen request may reach (SPEC §2). Pure: no sockets, no DNS.

The one table and rule: the SSRF guard (:mod:`webresearch.net.guard`) refuses by it, and the
command line's next steps (:mod:`webresearch.cli.local_hints`) judge a typed address by it,
so a hint never offers an exemption the guard would not honour.

The block list is an explicit table, not ``ipaddress.is_private``/``is_global``: in Python
3.11 those miss 100.64.0.0/10 (shared address space, RFC 6598) and call several reserved
ranges global.

Each entry carries a category. :class:`AddressPolicy` decides with two narrow exceptions:

* ``allowed_networks`` — CIDRs exempted exactly (an operator's explicit choice);
* ``allow_private`` — exempts every category except those that are never a legitimate
  unicast target or are the cloud-metadata path: ``unspecified`` (0.0.0.0 reaches the local
  host on Linux), ``link_local`` (169.254.169.254 is the metadata service), ``metadata``
  (a cloud platform's endpoint or metadata service outside link-local: inside the shared
  or unique-local ranges, which ``allow_private`` would otherwise open), ``multicast``, ``reserved`` and
  ``broadcast``. Those stay blocked unless listed in ``allowed_networks``.

6to4 (2002::/16) and ISATAP interface identifiers (``…:0:5efe:a.b.c.d`` and
``…:200:5efe:a.b.c.d`` under any prefix, RFC 5214) are judged by the IPv4 address they
embed; the other IPv4-embedding IPv6 forms (mapped, compatible, NAT64, Teredo) are blocked
whole, as SPEC §2 says.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = [
    "ALWAYS_BLOCKED_CATEGORIES",
    "BLOCKED_NETWORKS",
    "AddressPolicy",
    "AddressVerdict",
    "IPAddress",
    "blocked_category",
    "embedded_ipv4",
    "isatap_ipv4",
    "judging_ipv4",
    "reaches_this_host",
]

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
_Net = ipaddress.IPv4Network | ipaddress.IPv6Network


def _n(cidr: str) -> _Net:
    return ipaddress.ip_network(cidr)


#: (network, category, source). Sources: SPEC §2; IANA IPv4/IPv6 Special-Purpose Address
#: Registries (RFC 6890 and updates).
BLOCKED_NETWORKS: tuple[tuple[_Net, str, str], ...] = (
    (_n("0.0.0.0/8"), "unspecified", "RFC 1122 'this network'"),
    (_n("10.0.0.0/8"), "private", "RFC 1918"),
    (_n("100.64.0.0/10"), "shared", "RFC 6598 carrier-grade NAT"),
    (_n("127.0.0.0/8"), "loopback", "RFC 1122"),
    (_n("169.254.0.0/16"), "link_local", "RFC 3927 (cloud metadata lives here)"),
    (_n("172.16.0.0/12"), "private", "RFC 1918"),
    (_n("192.0.0.0/24"), "reserved", "RFC 6890 IETF protocol assignments"),
    (_n("192.0.2.0/24"), "documentation", "RFC 5737 TEST-NET-1"),
    (_n("192.168.0.0/16"), "private", "RFC 1918"),
    (_n("198.18.0.0/15"), "benchmarking", "RFC 2544"),
    (_n("198.51.100.0/24"), "documentation", "RFC 5737 TEST-NET-2"),
    (_n("203.0.113.0/24"), "documentation", "RFC 5737 TEST-NET-3"),
    (_n("224.0.0.0/4"), "multicast", "RFC 5771"),
    (_n("240.0.0.0/4"), "reserved", "RFC 1112 class E"),
    (_n("255.255.255.255/32"), "broadcast", "RFC 919"),
    (_n("::/128"), "unspecified", "RFC 4291"),
    (_n("::1/128"), "loopback", "RFC 4291"),
    (_n("fc00::/7"), "private", "RFC 4193 unique local"),
    (_n("fe80::/10"), "link_local", "RFC 4291"),
    (_n("fec0::/10"), "private", "RFC 3879 deprecated site-local"),
    (_n("ff00::/8"), "multicast", "RFC 4291"),
    (_n("2001:db8::/32"), "documentation", "RFC 3849"),
    (_n("::ffff:0:0/96"), "ipv4_embedded", "RFC 4291 IPv4-mapped"),
    (_n("::/96"), "ipv4_embedded", "RFC 4291 IPv4-compatible (deprecated)"),
    (_n("64:ff9b::/96"), "ipv4_embedded", "RFC 6052 NAT64 well-known prefix"),
    (_n("64:ff9b:1::/48"), "ipv4_embedded", "RFC 8215 local-use NAT64"),
    (_n("2001::/32"), "ipv4_embedded", "RFC 4380 Teredo"),
    (_n("100::/64"), "reserved", "RFC 6666 discard-only"),
    (_n("3fff::/20"), "documentation", "RFC 9637"),
    (_n("5f00::/16"), "reserved", "RFC 9602 SRv6 SIDs"),
    (_n("192.88.99.0/24"), "reserved", "RFC 7526 deprecated 6to4 relay anycast"),
    (_n("168.63.129.16/32"), "metadata", "a cloud platform's host endpoint (Azure WireServer)"),
    (_n("100.100.100.200/32"), "metadata", "a cloud metadata service (Alibaba Cloud ECS)"),
    (_n("fd00:ec2::254/128"), "metadata", "a cloud metadata service (AWS IMDS over IPv6)"),
)

_SIX_TO_FOUR = _n("2002::/16")

#: ISATAP interface identifiers (RFC 5214 §6.1): bits 64–95 are 0000:5efe or 0200:5efe (the
#: "universal" bit set); the low 32 bits are the IPv4 address.
_ISATAP_IDS = frozenset({0x00005EFE, 0x02005EFE})

#: Categories that ``allow_private`` does not open (see the module docstring).
ALWAYS_BLOCKED_CATEGORIES = frozenset(
    {"unspecified", "link_local", "metadata", "multicast", "reserved", "broadcast"}
)


def blocked_category(address: IPAddress) -> str | None:
    """The block-list category of ``address``, or ``None`` when it is a public address.

    ``::`` and ``::1`` report ``unspecified``/``loopback`` (the most specific entry wins over
    the whole ``::/96`` IPv4-compatible block). 6to4 addresses and ISATAP interface
    identifiers report the category of their embedded IPv4 address.
    """
    listed = _listed_category(address)
    if listed is not None:
        return listed
    inner = _judging_inner(address)
    return blocked_category(inner) if inner is not None else None


def _listed_category(address: IPAddress) -> str | None:
    """The category of the most specific blocked network holding ``address`` itself."""
    best: tuple[int, str] | None = None
    for net, category, _source in BLOCKED_NETWORKS:
        if (
            address.version == net.version
            and address in net
            and (best is None or net.prefixlen > best[0])
        ):
            best = (net.prefixlen, category)
    return best[1] if best is not None else None


def _judging_inner(address: IPAddress) -> ipaddress.IPv4Address | None:
    """The blocked IPv4 address inside a 6to4 address or an ISATAP identifier (the first
    found), which :func:`blocked_category` reports for it; ``None`` otherwise."""
    if not isinstance(address, ipaddress.IPv6Address):
        return None
    for embedded in (address.sixtofour, isatap_ipv4(address)):
        if embedded is not None and blocked_category(embedded) is not None:
            return embedded
    return None


def judging_ipv4(address: IPAddress) -> ipaddress.IPv4Address | None:
    """The IPv4 address whose own verdict an IPv6 address also needs, else ``None``.

    An IPv4-embedding form blocked whole (mapped, compatible, NAT64, Teredo: category
    ``ipv4_embedded``) and a 6to4 address or ISATAP identifier judged by the blocked IPv4
    address inside (no blocked network of its own) are exempted by the same rule: their
    IPv6 network AND that IPv4 address must both be open (:meth:`AddressPolicy.verdict`).
    """
    category = _listed_category(address)
    if category == "ipv4_embedded":
        return embedded_ipv4(address)
    if category is None:
        return _judging_inner(address)
    return None


def isatap_ipv4(address: IPAddress) -> ipaddress.IPv4Address | None:
    """The IPv4 address of an ISATAP interface identifier (``…:0:5efe:a.b.c.d``,
    ``…:200:5efe:a.b.c.d``; RFC 5214), else ``None``."""
    if not isinstance(address, ipaddress.IPv6Address):
        return None
    value = int(address)
    if (value >> 32) & 0xFFFFFFFF not in _ISATAP_IDS:
        return None
    return ipaddress.IPv4Address(value & 0xFFFFFFFF)


@dataclass(frozen=True, slots=True)
class AddressVerdict:
    """The decision for one address.

    Attributes:
        allowed: whether a connection may be made.
        category: the block-list category (``None`` for a public address).
        exempted_by: ``"allowed_networks"`` or ``"allow_private"`` when an exception applied.
    """

    allowed: bool
    category: str | None = None
    exempted_by: str | None = None


@dataclass(frozen=True, slots=True)
class AddressPolicy:
    """The SSRF address rule with its two narrow exceptions.

    Attributes:
        allow_private: exempt private/reserved addresses except the always-blocked categories.
        allowed_networks: networks exempted exactly (checked first).
    """

    allow_private: bool = False
    allowed_networks: tuple[_Net, ...] = ()

    @classmethod
    def from_strings(
        cls, *, allow_private: bool = False, allowed_networks: Iterable[str] = ()
    ) -> AddressPolicy:
        """Build a policy from CIDR strings.

        Raises:
            ValueError: a string is not a network.
        """
        return cls(
            allow_private=allow_private,
            allowed_networks=tuple(ipaddress.ip_network(c, strict=False) for c in allowed_networks),
        )

    def broad_exemptions(self) -> list[str]:
        """A warning per allowed network that opens more than one kind of internal address.

        An exemption is meant for one internal range (``127.0.0.1/32``, a company's
        ``10.0.0.0/8``). A network overlapping an always-blocked range (link-local, where
        cloud metadata lives; unspecified; multicast; reserved) or three kinds of blocked
        ranges or more — ``0.0.0.0/0``, ``::/0`` — switches the SSRF guard off for them,
        which is rarely what was meant. Shapes: a list of one-line English warnings
        (networks and range kinds only), empty when every exemption is narrow.
        """
        out = []
        for net in self.allowed_networks:
            kinds = _kinds_opened(net)
            if len(kinds) >= 3 or ALWAYS_BLOCKED_CATEGORIES.intersection(kinds):
                notes = []
                if {"link_local", "metadata"}.intersection(kinds):
                    notes.append("cloud metadata services included")
                if "unspecified" in kinds:  # a connection to 0.0.0.0 or :: reaches this host
                    this_host = "0.0.0.0" if net.version == 4 else "::"
                    notes.append(f"{this_host} reaches this host's own services, as loopback does")
                out.append(
                    f"allowed network {net} exempts {_in_words(kinds)} addresses from the "
                    "SSRF guard"
                    + (f" ({'; '.join(notes)})" if notes else "")
                    + "; list only the networks you mean, e.g. 127.0.0.1/32"
                )
        return out

    def verdict(self, address: IPAddress | str) -> AddressVerdict:
        """Decide whether ``address`` may be connected to.

        Raises:
            ValueError: ``address`` is a string that is not an IP address.
        """
        ip = ipaddress.ip_address(address) if isinstance(address, str) else address
        category = blocked_category(ip)
        if category is None:
            return AddressVerdict(True)
        # An exempted IPv6 range never opens the IPv4 address it embeds (``::/0`` must not
        # reach ::ffff:127.0.0.1, nor an exempted NAT64 prefix 169.254.169.254, nor
        # ``2002::/16`` the 6to4 address 2002:7f00:1::): such an address passes only when
        # its embedded IPv4 address passes on its own.
        embedded = judging_ipv4(ip)
        inner_ok = embedded is None or self.verdict(embedded).allowed
        for net in self.allowed_networks:
            if ip.version == net.version and ip in net and inner_ok:
                return AddressVerdict(True, category, "allowed_networks")
        if self.allow_private and category not in ALWAYS_BLOCKED_CATEGORIES and inner_ok:
            return AddressVerdict(True, category, "allow_private")
        return AddressVerdict(False, category)


def embedded_ipv4(address: IPAddress) -> ipaddress.IPv4Address | None:
    """The IPv4 address carried inside an IPv4-embedding IPv6 address, if any.

    Covers IPv4-mapped (::ffff:0:0/96), IPv4-compatible (::/96), NAT64 (64:ff9b::/96 and
    64:ff9b:1::/48, low 32 bits), Teredo (2001::/32, the obfuscated client address), 6to4
    and ISATAP interface identifiers.
    """
    if not isinstance(address, ipaddress.IPv6Address):
        return None
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.teredo is not None:
        return address.teredo[1]
    if address.sixtofour is not None:
        return address.sixtofour
    for net in _LOW32_EMBEDDING:
        if address in net:
            return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return isatap_ipv4(address)


_LOW32_EMBEDDING = (_n("::/96"), _n("64:ff9b::/96"), _n("64:ff9b:1::/48"))


#: Categories of addresses whose connections end on this host itself.
_THIS_HOST = frozenset({"loopback", "unspecified"})


def reaches_this_host(address: IPAddress | str) -> bool:
    """True when a connection to ``address`` may end at a listener of this host's loopback
    interface, however it is spelled: loopback (127.0.0.0/8, ``::1``), unspecified
    (``0.0.0.0``, ``::`` — Linux connects those to the local host), and every IPv6 form
    embedding one of those IPv4 addresses (IPv4-mapped ``::ffff:127.0.0.1``,
    IPv4-compatible ``::127.0.0.1``, NAT64 ``64:ff9b::127.0.0.1``, 6to4, Teredo).

    For checks that must hold whatever the address policy allows (a process's own
    listening ports).

    Raises:
        ValueError: ``address`` is a string that is not an IP address.
    """
    ip = ipaddress.ip_address(address) if isinstance(address, str) else address
    if blocked_category(ip) in _THIS_HOST:
        return True
    embedded = embedded_ipv4(ip)
    return embedded is not None and blocked_category(embedded) in _THIS_HOST


#: A category as a warning says it to a person (the category names are the code's).
_KIND_WORDS = {
    "link_local": "link-local",
    "ipv4_embedded": "IPv4-embedding IPv6",
    "metadata": "cloud metadata",
    "shared": "shared (carrier-grade NAT)",
}


def _kinds_opened(net: _Net) -> list[str]:
    """The categories of blocked ranges ``net`` overlaps, sorted. A network inside blocked
    ranges counts only the most specific of them, as :func:`blocked_category` does
    (``::/128`` is unspecified, not also the ``::/96`` IPv4-compatible block)."""
    overlapping = [
        (blocked, category)
        for blocked, category, _source in BLOCKED_NETWORKS
        if blocked.version == net.version and blocked.overlaps(net)
    ]
    holding = [(b, c) for b, c in overlapping if net.subnet_of(b)]  # type: ignore[arg-type]
    inner = max(holding, key=lambda pair: pair[0].prefixlen, default=None)
    return sorted({c for b, c in overlapping if (b, c) == inner or (b, c) not in holding})


def _in_words(kinds: list[str]) -> str:
    """``a, b and c`` of the categories, in a person's words (sorted by them)."""
    words = sorted((_KIND_WORDS.get(kind, kind) for kind in kinds), key=str.lower)
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
