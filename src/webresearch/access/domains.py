"""The domain policy (pure): which hosts any tool may touch (SPEC §1.4, issue 20 item 6).

``allowed_domains`` / ``blocked_domains`` hold exact names (``example.com``) and wildcards
(``*.example.com`` matches every subdomain, not the apex). ``allowed=None`` means no allow
list; an explicitly empty allow list blocks everything. The block list wins over the allow
list. Hosts are compared in their ASCII form (IDNA), lower-case, without a trailing dot.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import httpx2

from ..config import normalize_domain_pattern
from ..errors import BlockedDomain
from ..net.hostnames import normalize_host
from ..redact import redact_url

__all__ = ["DOMAIN_HINT", "UNNAMED_TARGET", "DomainPolicy", "ascii_pattern", "host_of"]

#: The next step a refused model is given.
DOMAIN_HINT = "this site is outside the allowed domains; use another source"
#: How a refusal names a URL the model did not choose (a redirect hop, a page's request):
#: never echoed, it may hold internal addresses or secrets.
UNNAMED_TARGET = "the redirect target"


def host_of(url: str) -> str | None:
    """The normalised ASCII host of ``url``, or ``None`` when it has none or is no URL."""
    try:
        raw = httpx2.URL(url).raw_host.decode("ascii")
    except (httpx2.InvalidURL, TypeError, ValueError, UnicodeDecodeError):
        return None
    return normalize_host(raw) or None


def ascii_pattern(pattern: str) -> str:
    """A normalised pattern in the ASCII form hosts are compared in: ``*.bücher.de`` →
    ``*.xn--bcher-kva.de`` (the HTTP client's IDNA encoding); unchanged when it cannot be
    encoded (it then matches nothing)."""
    wildcard = pattern.startswith("*.")
    body = pattern[2:] if wildcard else pattern
    if body.isascii():
        return pattern
    host = host_of(f"http://{body}/")
    return pattern if host is None else ("*." if wildcard else "") + host


def _matches(host: str, pattern: str) -> bool:
    if pattern.startswith("*."):
        return host.endswith(pattern[1:])
    return host == pattern


@dataclass(frozen=True, slots=True)
class DomainPolicy:
    """Allowed and blocked domains (patterns already normalised).

    Attributes:
        allowed: patterns a host must match, or ``None`` for no allow list (an empty tuple
            blocks every host).
        blocked: patterns a host must not match.
    """

    allowed: tuple[str, ...] | None = None
    blocked: tuple[str, ...] = ()

    @classmethod
    def from_settings(cls, allowed: Iterable[str] | None, blocked: Iterable[str]) -> DomainPolicy:
        """Build from setting values (normalising each pattern).

        Raises:
            ValueError: a pattern is malformed.
        """

        def norm(pattern: str) -> str:
            return ascii_pattern(normalize_domain_pattern(pattern))

        return cls(
            None if allowed is None else tuple(norm(p) for p in allowed),
            tuple(norm(p) for p in blocked),
        )

    @property
    def open(self) -> bool:
        """No rule at all: every host passes."""
        return self.allowed is None and not self.blocked

    def refusal(self, host: str) -> str | None:
        """Why ``host`` is refused, or ``None`` when the policy lets it through."""
        h = normalize_host(host)
        for pattern in self.blocked:
            if _matches(h, pattern):
                return f"{h} is in the blocked domains"
        if self.allowed is not None and not any(_matches(h, p) for p in self.allowed):
            if not self.allowed:
                return "the allowed-domains list is empty: every site is blocked"
            return f"{h} is not in the allowed domains"
        return None

    def error(self, url: str, host: str, *, redirect: bool = False) -> BlockedDomain | None:
        """The refusal of ``url`` (whose host is ``host``), or ``None`` when allowed.

        Args:
            url: the URL (named in the message unless ``redirect``).
            host: its host.
            redirect: the model did not choose the URL (a redirect hop, a page's request):
                the message says "the redirect target" instead of echoing it.
        """
        reason = self.refusal(host)
        if reason is None:
            return None
        shown = UNNAMED_TARGET if redirect else redact_url(url)[:200]
        return BlockedDomain(f"refused {shown}: {reason}", hint=DOMAIN_HINT, refusal="domain")

    def check(self, url: str, *, redirect: bool = False) -> None:
        """Raise the refusal of ``url``; a URL without a host passes (the SSRF guard refuses it).

        Raises:
            BlockedDomain: the policy refuses the URL's host.
        """
        if self.open:
            return
        host = host_of(url)
        if host is None:
            return
        error = self.error(url, host, redirect=redirect)
        if error is not None:
            raise error

    async def hop_gate(self, url: str, hop: int) -> None:
        """:meth:`check` as a guarded client's per-hop gate (robots.txt fetches: a
        robots.txt that redirects to a blocked domain is not followed)."""
        self.check(url, redirect=hop > 0)
