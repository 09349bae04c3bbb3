"""The next step a person gets toward a local address: the URL meant, and the one
``--allow-network`` exemption that opens it — or none.

The SSRF guard refuses local and internal addresses unless exempted (``--allow-network
CIDR``, ``--allow-private``). A person who typed such an address gets the exemption of that
address alone (``--allow-network 127.0.0.1/32``), never a placeholder; none when the
settings already exempt it (the URL alone is the step), and none for the kinds
``--allow-private`` never opens (link-local — where cloud metadata lives —, a cloud's
metadata service, unspecified, multicast, reserved, broadcast: review r-12); typed without
its scheme, such an address — or a name of an internal network, ``metadata.google.internal``
— gets no URL either, only that it is not allowed, in web_fetch's words. Every address is judged by the
guard's own table and rule (:mod:`webresearch.addresses`), never by Python's address
flags, so a hint and the guard cannot disagree (review r-13a: ``fd00:ec2::254``, AWS's
metadata service, was offered its ``/128``). The name ``localhost`` is refused whatever the settings: its step
names ``127.0.0.1``. The model-facing words (web_fetch's hint) never suggest an internal URL
(:meth:`~webresearch.net.guard.SSRFGuard.scheme_hint`); these are for the command line only.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import SplitResult, urlsplit

from webresearch import InvalidArguments, WebResearchError

from ..addresses import (
    ALWAYS_BLOCKED_CATEGORIES,
    AddressPolicy,
    IPAddress,
    blocked_category,
    judging_ipv4,
)
from ..url_text import (
    INTERNAL_SUFFIXES,
    INTERNAL_TYPED_HINT,
    clean_url,
    host_as_read,
    scheme_hint,
    suggested_url,
)

if TYPE_CHECKING:
    from webresearch import Settings

__all__ = [
    "Exemptions",
    "local_note",
    "never_exempted",
    "refusal_step",
    "refused_outright",
    "scheme_typo",
    "url_step",
]

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

_LOOPBACK = ipaddress.IPv4Address("127.0.0.1")


@dataclass(frozen=True, slots=True)
class Exemptions:
    """What the settings of the command exempt from the SSRF guard.

    Attributes:
        networks: ``allowed_networks`` (``--allow-network``), exempted exactly.
        private: ``allow_private`` (``--allow-private``): private and loopback addresses,
            never the always-refused kinds (:func:`never_exempted`).

    Both are read as the guard reads them (:class:`~webresearch.addresses.AddressPolicy`).
    """

    networks: tuple[Network, ...] = ()
    private: bool = False

    @classmethod
    def of(cls, settings: Settings) -> Exemptions:
        """The exemptions of ``settings`` (the file's and the command line's together)."""
        return cls(tuple(settings.allowed_networks), settings.allow_private)

    def covers(self, address: IPAddress) -> bool:
        """Whether the guard lets ``address`` through with these settings already (no
        option to add for it)."""
        return self.policy(()).verdict(address).allowed

    def policy(self, more: tuple[Network, ...]) -> AddressPolicy:
        """The guard's rule for these settings with the networks ``more`` exempted too."""
        return AddressPolicy(allow_private=self.private, allowed_networks=self.networks + more)

    def opened_by(self, address: IPAddress) -> Network | None:
        """The network of ``address`` alone (``/32``, ``/128``) when exempting it lets the
        guard through to ``address`` with these settings; ``None`` when the address is
        never exempted (:func:`never_exempted`) or needs more (an IPv6 address embedding a
        blocked IPv4 one also needs that one)."""
        if never_exempted(address):
            return None
        alone = ipaddress.ip_network(address)
        return alone if self.policy((alone,)).verdict(address).allowed else None


def never_exempted(address: IPAddress) -> bool:
    """Whether ``address`` is of a kind ``allow_private`` never opens in the guard's table
    (:data:`~webresearch.addresses.ALWAYS_BLOCKED_CATEGORIES`: link-local, a cloud's
    metadata service, unspecified, multicast, reserved, broadcast), itself or the IPv4
    address it embeds (``::ffff:169.254.169.254``): no exemption is ever suggested for it."""
    inner = judging_ipv4(address)
    return any(
        blocked_category(a) in ALWAYS_BLOCKED_CATEGORIES for a in (address, inner) if a is not None
    )


def local_note(url: str | None, exempt: Exemptions | None = None) -> str:
    """What follows :func:`~webresearch.url_text.scheme_hint` when the URL meant names this
    machine or an internal network (``localhost``, ``127.0.0.1``, ``[::1]``, ``10.1.2.3``):
    the option that exempts just that address (``--allow-network 127.0.0.1/32``) unless
    ``exempt`` covers it already, ``127.0.0.1`` for the name ``localhost``, and only the
    refusal for an address no exemption is suggested for. A local address typed in a
    spelling the guard refuses whatever the settings (``%31%32%37.0.0.1``) gets its plain
    spelling to give (:func:`_plain_spelling`), not an exemption alone. Empty for any other
    URL."""
    exempt = exempt or Exemptions()
    parts = _split(url)
    if parts is None:
        return ""
    host = _host(parts)
    if host == "localhost":  # "localhost." too (a fully qualified name)
        shown = _on_loopback(parts)
        if exempt.covers(_LOOPBACK):
            return f"; but the SSRF guard refuses the name localhost always: give {shown}"
        return (
            "; but the SSRF guard refuses local and loopback addresses unless exempted, and "
            f"the name localhost always: give {shown} --allow-network 127.0.0.1/32"
        )
    address = _address(host)
    plain = _plain_spelling(parts, address)
    if plain is not None and address is not None:  # ``%31%32%37.0.0.1``: refused as typed
        option = exempt.opened_by(address)
        if exempt.covers(address):
            return f"; but the SSRF guard refuses this spelling of {address} always: give {plain}"
        if option is None:
            return "; but the SSRF guard refuses this address whatever the settings"
        return (
            "; but the SSRF guard refuses local and loopback addresses unless exempted, and "
            f"this spelling of {address} always: give {plain} --allow-network {option}"
        )
    if address is None or exempt.covers(address):
        return ""  # a public address, or one exempted already: the URL alone is the step
    option = exempt.opened_by(address)
    if option is None:  # an IPv6 address embedding an internal IPv4 one
        return "; but the SSRF guard refuses this address: it embeds an internal IPv4 address"
    return (
        "; the SSRF guard refuses local and loopback addresses unless exempted: add "
        f"--allow-network {option}"
    )


def url_step(target: str, exempt: Exemptions | None = None) -> str | None:
    """The next step for ``target`` typed without its scheme or its ``//``
    (``localhost:8765/x``, ``http:/127.0.0.1:8765/x``, ``//example.org/a``): the URL meant
    and :func:`local_note`'s exemption; for a host no option the person may type opens
    (:func:`refused_outright`: ``metadata.google.internal/x``, ``169.254.169.254/x``) only
    that it is not allowed, as web_fetch tells a model — no URL; ``None`` when it is no
    such URL."""
    cleaned = clean_url(target)
    typed = cleaned[2:] if cleaned.startswith("//") else cleaned
    hint = scheme_hint(typed)
    if hint is None:
        return None
    meant = suggested_url(typed)
    if refused_outright(meant, exempt or Exemptions()):
        return INTERNAL_TYPED_HINT
    return hint + local_note(meant, exempt)


def refused_outright(url: str | None, exempt: Exemptions) -> bool:
    """Whether the guard refuses ``url``'s host and no exemption is suggested for it: a
    name of an internal network other than ``localhost`` (``*.internal`` — where
    ``metadata.google.internal`` is —, ``*.local``, ``*.lan``, ``*.home.arpa``,
    ``*.localhost``: refused whatever the settings) or an address of a kind
    :func:`never_exempted` that ``exempt`` does not cover."""
    parts = _split(url)
    host = _host(parts) if parts is not None else ""
    if host.endswith(INTERNAL_SUFFIXES):
        return True
    address = _address(host)
    return address is not None and never_exempted(address) and not exempt.covers(address)


def scheme_typo(target: str, exempt: Exemptions) -> InvalidArguments | None:
    """The error of a URL target written with its scheme but not its ``//``
    (``http:/127.0.0.1:8765/x``, ``https:example.org``), with the person's next step
    (:func:`url_step`), else ``None``. The command says it before any tool runs: the
    tool's own words for a model name no internal URL."""
    cleaned = clean_url(target)
    if "://" in cleaned or suggested_url(cleaned) is None:
        return None
    return InvalidArguments(
        f"the URL must be absolute (http:// or https://): {cleaned[:200]}",
        hint=url_step(cleaned, exempt),
    )


def refusal_step(target: str, error: WebResearchError | None, exempt: Exemptions) -> str | None:
    """The person's next step after the SSRF guard refused the URL ``target`` whose host is
    an IP literal or ``localhost`` (the guard's hint names ``allowed_networks`` or no way
    at all), else ``None`` (the hint stays). An address the settings exempt already was
    refused for another reason (a redirect): ``None`` too.

    Returns:
        the guard's hint with the concrete option (``… with --allow-network 127.0.0.1/32 or
        allow_private``) or the loopback URL for ``localhost`` (as read: ``loc%61lhost``)
        and for a local address refused for its spelling (``%31%32%37.0.0.1``: the plain
        one); ``None`` (the guard's own
        step: the kind refused, no exemption) for an address no exemption is suggested for.
    """
    if error is None or error.code != "blocked_address" or error.hint is None:
        return None
    parts = _split(clean_url(target))
    if parts is None or parts.scheme.lower() not in ("http", "https"):
        return None
    host = _host(parts)  # ``loc%61lhost`` is localhost (review r-15)
    by_rule = error.details.get("category") == "host_rule"
    if host == "localhost" and by_rule:
        step = "use a public URL; the SSRF guard refuses the name localhost whatever the settings"
        option = "" if exempt.covers(_LOOPBACK) else " --allow-network 127.0.0.1/32"
        return f"{step}: give {_on_loopback(parts)}{option}"
    address = _address(host)
    plain = _plain_spelling(parts, address)
    if by_rule and plain is not None and address is not None and not never_exempted(address):
        network = exempt.opened_by(address)
        option = "" if exempt.covers(address) else f" --allow-network {network}"
        step = f"use a public URL; the SSRF guard refuses this spelling of {address} always"
        return None if network is None else f"{step}: give {plain}{option}"
    if address is None or exempt.covers(address):
        return None
    if never_exempted(address):
        return None  # the guard's own step: the kind refused, no exemption named
    network = exempt.opened_by(address)
    said = "exempts the network with allowed_networks"
    if network is None or said not in error.hint:
        return None  # (an IPv6 address embedding an IPv4 one: the guard names both)
    return error.hint.replace(said, f"exempts this address with --allow-network {network}")


def _split(url: str | None) -> SplitResult | None:
    if url is None:
        return None
    try:
        return urlsplit(url)
    except ValueError:
        return None


def _host(parts: SplitResult) -> str:
    """The host of ``parts`` as a browser reads it (:func:`~webresearch.url_text.host_as_read`:
    ``169%2e254.169.254`` is 169.254.169.254, review r-15), without trailing dots (as the
    guard judges it)."""
    return host_as_read(parts.hostname or "").rstrip(".")


def _on_loopback(parts: SplitResult) -> str:
    """``parts`` (a ``localhost`` URL) as the plain-http URL of ``127.0.0.1``."""
    return _on_host(parts, "127.0.0.1", "http")


def _plain_spelling(parts: SplitResult, address: IPAddress | None) -> str | None:
    """``parts`` with its host spelled as the guard reads an address when the host typed
    is another spelling of ``address``, a local IPv4 address (``%31%32%37.0.0.1``, a
    zero-width space before ``127.0.0.1``, ``127.0.0.1%2e``), else ``None``. The guard
    judges the host as typed (its HTTP client keeps percent-escapes): hostnames.py refuses
    every numeric IPv4 spelling but plain dotted decimal whatever the settings, and a name
    holding ``%`` is invalid — an exemption alone is a dead end (review r-15)."""
    if not isinstance(address, ipaddress.IPv4Address) or Exemptions().covers(address):
        return None  # IPv6 hosts are not decoded (host_as_read); a public address
    if (parts.hostname or "").rstrip(".") == str(address):
        return None  # plain dotted decimal (trailing dots and case do not matter)
    return _on_host(parts, str(address), parts.scheme.lower())


def _on_host(parts: SplitResult, host: str, scheme: str) -> str:
    """``parts`` with the host ``host``, its port and the scheme ``scheme``, without
    credentials."""
    try:
        port = f":{parts.port}" if parts.port is not None else ""
    except ValueError:  # out of range: the guard says so when it is typed
        port = ""
    return parts._replace(scheme=scheme, netloc=f"{host}{port}").geturl()


def _address(host: str) -> IPAddress | None:
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        return None
