"""The SSRF guard (SPEC §2), usable on its own.

    guard = SSRFGuard(AddressPolicy(), resolver=my_resolver)
    target = guard.check_url("https://example.org/a")       # string rules, no DNS
    addresses = await guard.resolve_and_check(target.host)   # DNS + every address checked

:meth:`SSRFGuard.check` does both. The guarded transport (:mod:`.transport`) calls
:meth:`resolve_and_check` inside ``connect_tcp`` and connects only to an address it returned,
so no second resolution happens between check and connect (DNS rebinding is impossible).

Refusals raise :class:`~webresearch.errors.BlockedAddress`. Messages name the category
(``loopback``, ``private``…) but never an address a name resolved to: internal DNS data does
not reach the model.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from urllib.parse import urlsplit

import httpx2

from ..addresses import (
    ALWAYS_BLOCKED_CATEGORIES,
    AddressPolicy,
    IPAddress,
    blocked_category,
    embedded_ipv4,
    judging_ipv4,
)
from ..errors import BlockedAddress, InvalidArguments, NetworkError
from ..redact import redact_url
from ..url_text import INTERNAL_TYPED_HINT, clean_url, scheme_hint, suggested_url, typed_host
from .hostnames import classify_host
from .resolver import Resolver, system_resolver

__all__ = ["ALLOWED_SCHEMES", "SSRFGuard", "Target", "clean_url", "describe_category"]

ALLOWED_SCHEMES = ("http", "https")

#: The next step after a host-name or spelling rule (``localhost``, ``*.internal``, a
#: single-label name, ``2130706433``): no setting lifts these rules; an operator's exempted
#: network is reached by its dotted-decimal address. No brackets: the CLI puts the hint in
#: "(next step: …)".
_HOST_RULE_HINT = (
    "use a public URL; the SSRF guard applies this rule whatever the settings, and a "
    "network an operator exempted is reached by its dotted-decimal IP address"
)
#: The same for an IPv6 host refused by rule (a zone identifier, a malformed literal).
_IPV6_RULE_HINT = (
    "use a public URL; the SSRF guard applies this rule whatever the settings, and an IPv6 "
    "address is written in brackets without a %zone suffix"
)


#: The next step after an address of :data:`ALWAYS_BLOCKED_CATEGORIES` was refused (link-local,
#: cloud metadata, unspecified, multicast, reserved, broadcast): no exemption is named. It
#: does not say the address is never read either: ``allow_private`` never opens it, but an
#: operator's ``allowed_networks`` entry covering it does (with a warning at start-up) —
#: not a step to coach toward (review, session 13).
_NEVER_A_PAGE_HINT = (
    "use a public URL; the SSRF guard refuses this kind of address (link-local, cloud "
    "metadata, unspecified, multicast, reserved or broadcast)"
)


def _host_rule_hint(host: str) -> str:
    """The next step after a host rule refused ``host`` (normalised, no brackets)."""
    return _IPV6_RULE_HINT if ":" in host else _HOST_RULE_HINT


def _address_hint(category: str | None, inner: str | None = None) -> str:
    """The next step after an address refusal, naming only exemptions that open it.

    ``allow_private`` never opens :data:`ALWAYS_BLOCKED_CATEGORIES` (link-local, cloud
    endpoint, unspecified, multicast, reserved, broadcast); ``allowed_networks`` opens any
    (addresses.py). An IPv6 address embedding a blocked IPv4 address (``inner``: that
    address's category; ``::ffff:127.0.0.1``, the 6to4 ``2002:7f00:1::``, an ISATAP
    identifier: :func:`~.addresses.judging_ipv4`) opens only when the IPv4 address passes too:
    both networks exempted, or ``allow_private`` when it opens the IPv4 kind. No address
    appears in it (SPEC §3 "Errors"); no brackets (the CLI wraps it in "(next step: …)").

    An address of :data:`ALWAYS_BLOCKED_CATEGORIES` (or embedding one) gets no exemption
    hint at all, on every path (a typed URL, a redirect hop, a meta refresh; the CLI and the
    model alike): ``allow_private`` never opens the cloud metadata service or ``0.0.0.0``,
    and an operator's exemption is not a next step to coach toward (review, session 13: a redirect
    to 169.254.169.254 said "unless an operator exempts the network with allowed_networks").
    """
    if category in ALWAYS_BLOCKED_CATEGORIES or inner in ALWAYS_BLOCKED_CATEGORIES:
        return _NEVER_A_PAGE_HINT
    if inner is not None:
        return (
            "use a public URL; the SSRF guard refuses an IPv6 address that embeds an internal "
            "IPv4 address unless an operator exempts both the IPv6 network and the IPv4 "
            "address inside it with allowed_networks, or sets allow_private"
        )
    return (
        "use a public URL; the SSRF guard refuses internal and reserved networks unless "
        "an operator exempts the network with allowed_networks or allow_private"
    )


@dataclass(frozen=True, slots=True)
class Target:
    """A URL that passed the string rules.

    Attributes:
        url: the parsed URL (as the HTTP client will send it).
        host: the normalised ASCII host.
        port: the port (explicit or the scheme's default).
        address: the IP when the host is an IP literal (already checked), else ``None``.
    """

    url: httpx2.URL
    host: str
    port: int
    address: IPAddress | None


def describe_category(category: str | None) -> str:
    """A block-list category in words, e.g. ``ipv4_embedded`` → ``IPv4-embedding IPv6``."""
    names = {
        "ipv4_embedded": "IPv4-embedding IPv6",
        "link_local": "link-local",
        "metadata": "cloud platform endpoint or metadata service",
    }
    return names.get(category or "", (category or "blocked").replace("_", " "))


def _refuse_public_ipv4_in_ipv6(
    ip: IPAddress,
    category: str | None,
    shown: str,
    *,
    resolved: bool,
    typed: httpx2.URL | None,
) -> None:
    """Refuse an IPv6 address carrying a public IPv4 address (``::ffff:8.8.8.8``, NAT64
    ``64:ff9b::808:808``) as what it is, not as an internal address; the plain IPv4 URL is
    the next step when the caller typed the literal (``typed``), never for a resolved name
    or a redirect (SPEC §3 "Errors": no resolved address is shown). Else returns.

    Raises:
        BlockedAddress: ``ip`` is such an address.
    """
    inner = embedded_ipv4(ip) if category == "ipv4_embedded" else None
    if inner is None or blocked_category(inner) is not None:
        return
    what = f"{shown} resolves to" if resolved else f"{shown} is"
    mapped = isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None
    form = "IPv4-mapped" if mapped else "IPv4-embedding"
    plain = typed.copy_with(host=str(inner)) if typed is not None else None
    raise BlockedAddress(
        f"refused: {what} an {form} IPv6 address; {form} IPv6 is refused even when the IPv4 "
        "address inside is public (SSRF guard)",
        hint=f"use the plain IPv4 URL: {redact_url(str(plain))}"
        if plain is not None
        else "use the site's name or its plain IPv4 address",
        category=category,
    )


class SSRFGuard:
    """Checks model-chosen URLs and the addresses their hosts resolve to.

    Args:
        policy: the address rule and its exceptions.
        resolver: ``async host -> [ip, ...]``; default the system resolver.
    """

    def __init__(
        self, policy: AddressPolicy | None = None, resolver: Resolver | None = None
    ) -> None:
        self.policy = policy or AddressPolicy()
        self.resolver: Resolver = resolver or system_resolver

    def parse(self, url: str | httpx2.URL) -> httpx2.URL:
        """Parse ``url`` the way the HTTP client will.

        Leading/trailing C0 controls and spaces and every tab or newline are dropped first
        (:func:`clean_url`).

        Raises:
            InvalidArguments: not an absolute URL.
        """
        if isinstance(url, httpx2.URL):
            return url
        url = clean_url(url) if isinstance(url, str) else url
        try:
            parsed = httpx2.URL(url)
        except (httpx2.InvalidURL, TypeError, ValueError) as exc:
            # httpx2 rejects some numeric spellings (0177.0.0.1) outright; report those as
            # what they are, a refused IPv4 spelling, not a typo.
            try:
                raw_host = urlsplit(str(url)).hostname or ""
            except ValueError:
                raw_host = ""
            verdict = classify_host(raw_host) if raw_host else None
            if verdict is not None and verdict.refusal is not None:
                raise BlockedAddress(
                    f"refused {redact_url(str(url))[:200]}: {verdict.refusal}",
                    hint=_host_rule_hint(raw_host),
                    category="host_rule",
                ) from None
            raise InvalidArguments(
                f"not a valid URL: {redact_url(str(url))[:200]} ({exc})",
                hint=self.scheme_hint(str(url)),  # ``http:x.org:8765/``: the URL meant
            ) from None
        if not parsed.scheme or (parsed.scheme in ALLOWED_SCHEMES and not parsed.is_absolute_url):
            raise InvalidArguments(
                f"the URL must be absolute (http:// or https://): {redact_url(str(url))[:200]}",
                # ``example.org``, ``https:/x.org``: the URL meant, never fetched in its place
                hint=self.scheme_hint(str(url)) or "give an http:// or https:// URL",
            )
        return parsed

    def scheme_hint(self, text: str) -> str | None:
        """The next step for ``text``, a URL typed without its scheme or its ``//``
        (:func:`~webresearch.url_text.scheme_hint`: ``a URL needs its scheme: https://…``),
        or ``None`` when it is not one. When the host a browser reads from it
        (:func:`~webresearch.url_text.typed_host`) or the host of the URL meant is one the
        guard refuses — a host-name or spelling rule (``localhost``, ``*.internal``,
        ``127.1``, ``2130706433``) or an address the policy does not exempt (``127.0.0.1``,
        ``169.254.169.254``), judged by :meth:`check_url` itself — the step says the
        address is not allowed and names no URL (:data:`~webresearch.url_text.INTERNAL_TYPED_HINT`); nothing is
        resolved."""
        host = typed_host(text)
        meant = suggested_url(text)
        for url in (f"http://{host}/" if host else None, meant):
            if url is not None and self._refuses_host(url):
                return INTERNAL_TYPED_HINT
        return scheme_hint(text)

    def _refuses_host(self, url: str) -> bool:
        """Whether :meth:`check_url` refuses ``url`` (an absolute http URL) for its host: a
        host rule or an address not exempted (no DNS)."""
        try:
            self.check_url(url)
        except BlockedAddress as refused:
            return refused.details.get("category") is not None
        except (InvalidArguments, NetworkError):
            return False
        return False

    def check_url(self, url: str | httpx2.URL, *, redirect: bool = False) -> Target:
        """Apply every rule that needs no DNS: scheme, userinfo, host names, IP literals.

        Args:
            url: the URL to check.
            redirect: the URL came from a redirect (the message then says so and does not
                echo the target, which the model did not choose).

        Raises:
            InvalidArguments: the URL cannot be parsed, or (when not a redirect) its scheme
                is not http/https: SPEC §1.1 takes an absolute http(s) URL.
            BlockedAddress: a rule refuses it (a redirect to another scheme included).
        """
        parsed = self.parse(url)
        shown = "the redirect target" if redirect else redact_url(str(parsed))
        if parsed.scheme not in ALLOWED_SCHEMES:
            meant = None if redirect else self.scheme_hint(str(url))
            if meant is not None:  # ``localhost:8765`` reads as the scheme ``localhost``
                raise InvalidArguments(
                    f"the URL must be absolute (http:// or https://): {shown}", hint=meant
                )
            if not redirect:  # the caller's own input: a bad argument, not a refused address
                # named as given: the parser writes ``file:///x`` as ``file:/x``
                shown = redact_url(str(url).strip())[:200]
                raise InvalidArguments(
                    f"only http and https URLs are fetched; {shown} uses scheme "
                    f"{parsed.scheme[:20]!r}",
                    hint="give an http:// or https:// URL",
                )
            # a site sending the client to file:, ftp:… is refused like an internal target
            raise BlockedAddress(
                f"refused: the redirect target uses scheme {parsed.scheme[:20]!r}; only http "
                "and https are followed (SSRF guard)",
                hint="the site redirects away from the web; use another source",
                category="scheme",
            )
        if parsed.userinfo:
            raise BlockedAddress(
                f"{'the redirect target' if redirect else 'the URL'} carries credentials "
                "(user@ or user:password@), which are refused",
                hint="remove the credentials, the user@ or user:password@ part",
            )
        verdict = classify_host(parsed.raw_host.decode("ascii"))
        if verdict.refusal is not None:
            raise BlockedAddress(
                f"refused {shown}: {verdict.refusal}",
                hint=_host_rule_hint(verdict.host),
                category="host_rule",
            )
        if verdict.invalid is not None:
            raise InvalidArguments(f"{verdict.invalid} in {shown}")
        if parsed.port is not None and not 0 < parsed.port < 65536:
            raise InvalidArguments(f"port {parsed.port} is out of range (1-65535) in {shown}")
        if verdict.address is not None:
            self._check_address(verdict.address, shown, typed=None if redirect else parsed)
        port = parsed.port or (443 if parsed.scheme == "https" else 80)
        return Target(url=parsed, host=verdict.host, port=port, address=verdict.address)

    async def resolve_and_check(self, host: str) -> list[IPAddress]:
        """Resolve ``host`` and check every address; refuse if ANY is blocked.

        IP literals are checked without resolving. The returned addresses are the only ones
        a connection may use.

        Raises:
            BlockedAddress: the host is refused by rule or an address is blocked.
            NetworkError: the name does not resolve.
        """
        verdict = classify_host(host)
        if verdict.refusal is not None:
            raise BlockedAddress(
                f"refused host {verdict.host[:100]}: {verdict.refusal}",
                hint=_host_rule_hint(verdict.host),
                category="host_rule",
            )
        if verdict.invalid is not None:  # never handed to a resolver
            raise InvalidArguments(f"{verdict.invalid}: {verdict.host[:100]}")
        if verdict.address is not None:
            self._check_address(verdict.address, verdict.host)
            return [verdict.address]
        try:
            answers = await self.resolver(verdict.host)
        except OSError:
            raise NetworkError(
                f"could not resolve host {verdict.host}",
                hint="check the spelling of the host name (or whether this machine can reach the internet)",
            ) from None
        addresses: list[IPAddress] = []
        for answer in answers:
            try:
                ip = ipaddress.ip_address(answer.split("%", 1)[0])
            except ValueError:
                raise NetworkError(
                    f"the resolver returned an invalid address for {verdict.host}"
                ) from None
            addresses.append(ip)
        if not addresses:
            raise NetworkError(f"could not resolve host {verdict.host}: no addresses")
        for ip in addresses:
            self._check_address(ip, verdict.host, resolved=True)
        return addresses

    async def check(self, url: str | httpx2.URL) -> list[IPAddress]:
        """Every SPEC §2 check for ``url``: string rules, then DNS with every address checked.

        Returns:
            the checked addresses a connection may use.

        Raises:
            InvalidArguments, BlockedAddress, NetworkError: see the two steps.
        """
        target = self.check_url(url)
        if target.address is not None:
            return [target.address]
        return await self.resolve_and_check(target.host)

    def _check_address(
        self,
        ip: IPAddress,
        shown: str,
        *,
        resolved: bool = False,
        typed: httpx2.URL | None = None,
    ) -> None:
        """Refuse ``ip`` unless the policy allows it.

        ``typed``: the URL the caller typed with ``ip`` as its literal host (not a redirect,
        not a resolved name), so the plain IPv4 URL of a public address carried in IPv6
        (``http://[::ffff:8.8.8.8]/`` -> ``http://8.8.8.8/``) may be named; a resolved
        address never is (SPEC §3 "Errors").
        """
        verdict = self.policy.verdict(ip)
        if verdict.allowed:
            return
        _refuse_public_ipv4_in_ipv6(ip, verdict.category, shown, resolved=resolved, typed=typed)
        what = f"{shown} resolves to" if resolved else f"{shown} is"
        inner = judging_ipv4(ip)
        raise BlockedAddress(
            f"refused: {what} an internal or reserved address "
            f"({describe_category(verdict.category)}; SSRF guard)",
            hint=_address_hint(verdict.category, blocked_category(inner) if inner else None),
            category=verdict.category,
        )
