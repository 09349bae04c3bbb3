"""Which requests a browser page may make (SPEC §1.4 domain policy + SPEC §2 address rules).

Two parts:

* :class:`~webresearch.access.DomainPolicy` — every tool's domain policy (pure,
  :mod:`webresearch.access.domains`; re-exported here).
* :class:`RequestPolicy` — the verdict for one request URL: scheme, the SSRF guard's string
  rules (host names, IP literals), the domain policy, then DNS through the guard's resolver
  with EVERY address checked against the address policy (the same rules web_fetch uses).
  Verdicts for host names are cached for a few seconds (a page loads dozens of resources
  from one host). A navigation the model asks for (:meth:`RequestPolicy.check_navigation`)
  also passes the navigation gate: robots.txt (:meth:`webresearch.access.AccessPolicy.check_robots`).

For a launched browser this verdict is not the last word: every connection also passes the
guarded proxy (:mod:`.proxy`), which resolves once, checks every address and dials only a
checked one, so a DNS answer that changes after this check (rebinding) reaches nothing. For a
remote CDP browser, which resolves names itself, rebinding between our check and its lookup
remains a documented residual risk (docs/architecture.md, "What holds, and what remains").
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

from ..access.domains import UNNAMED_TARGET, DomainPolicy
from ..config import normalize_domain_pattern
from ..errors import (
    BlockedAddress,
    InvalidArguments,
    NetworkError,
    Refusal,
    WebResearchError,
)
from ..net.guard import SSRFGuard
from ..net.hostnames import normalize_host
from ..url_text import not_web_url

__all__ = [
    "LOCAL_SCHEMES",
    "DomainPolicy",
    "RequestPolicy",
    "RequestVerdict",
    "describe_request",
    "normalize_pattern",
    "reword_refusal",
]

#: Schemes that never reach the network: requests for them are let through untouched.
LOCAL_SCHEMES = frozenset({"data", "blob", "about"})
#: Schemes that reach the network and are checked like http(s) (WebSocket handshakes).
_NETWORK_SCHEMES = {"http": "http", "https": "https", "ws": "http", "wss": "https"}
#: Seconds a host verdict (after DNS) is reused.
DNS_VERDICT_TTL_S = 10.0


def normalize_pattern(pattern: str) -> str:
    """Lower-case, strip blanks and trailing dots: ``"*.Example.COM."`` → ``"*.example.com"``.

    Raises:
        ValueError: the pattern is empty or has a wildcard anywhere but a leading ``*.``.
    """
    return normalize_domain_pattern(pattern)


#: What the policy calls a URL it must not echo (it was not chosen by the model); see
#: :func:`reword_refusal`.
_UNNAMED = UNNAMED_TARGET
#: CDP resource types (``Network.ResourceType``) in words.
_RESOURCE_WORDS = {"xhr": "XHR", "eventsource": "event stream", "texttrack": "text track"}


def describe_request(resource_type: str, *, redirect_hop: bool = False) -> str:
    """A request of a page in words, for refusal messages (pure).

    Args:
        resource_type: the CDP resource type (``Document``, ``Image``, ``XHR``, ``Fetch``,
            ``Script``, ``WebSocket``…); ``Connection`` for a connection only the guarded
            proxy saw; empty when unknown.
        redirect_hop: the request is a redirect hop of an earlier one.

    Returns:
        e.g. ``"a navigation"``, ``"a request of the page (image)"``, ``"a redirect of a
        navigation"``, ``"a connection of the page"``.
    """
    kind = resource_type.strip()
    if kind == "Document":
        what = "a navigation"
    elif kind == "Connection":
        what = "a connection of the page"
    elif kind == "WebSocket":
        what = "a WebSocket of the page"
    elif kind and kind.lower() != "other":
        what = f"a request of the page ({_RESOURCE_WORDS.get(kind.lower(), kind.lower())})"
    else:
        what = "a request of the page"
    return f"a redirect of {what}" if redirect_hop else what


def reword_refusal(error: WebResearchError, what: str) -> WebResearchError:
    """The refusal of a request the model did not choose, naming what it was (pure).

    The policy and the SSRF guard speak of "the redirect target" for such requests (they
    never echo their URL, which may hold internal addresses or secrets); this names the
    request instead: ``"refused: the redirect target is an internal or reserved address
    (…)"`` → ``"refused: a request of the page (image) to an internal or reserved address
    (…)"``; ``"refused: h.example resolves to an internal…"`` → ``"refused: a navigation to
    h.example, which resolves to an internal…"``. Host names the message already held stay;
    nothing else is added.

    Args:
        error: the refusal.
        what: the request in words (:func:`describe_request`).
    """
    message = error.message
    if f"{_UNNAMED} is " in message:
        message = message.replace(f"{_UNNAMED} is ", f"{what} to ", 1)
    elif message.startswith("refused host "):
        message = f"refused {what} to host {message[len('refused host ') :]}"
    elif message.startswith("refused: ") and " resolves to " in message:
        host, rest = message[len("refused: ") :].split(" resolves to ", 1)
        message = f"refused: {what} to {host}, which resolves to {rest}"
    elif message.startswith(f"refused {_UNNAMED}: "):
        message = f"refused {what}: {message[len(f'refused {_UNNAMED}: ') :]}"
    else:
        message = message.replace(_UNNAMED, what)
    if message == error.message:
        return error
    return type(error)(message, hint=error.hint, retryable=error.retryable, **error.details)


@dataclass(frozen=True, slots=True)
class RequestVerdict:
    """The decision for one request.

    Attributes:
        allowed: whether the request may go out.
        error: the refusal (``BlockedAddress`` / ``BlockedDomain``) or ``NetworkError`` (the
            name does not resolve), else ``None``.
        reason: the CDP ``Network.ErrorReason`` to fail the request with.
    """

    allowed: bool
    error: Refusal | NetworkError | InvalidArguments | None = None
    reason: str = "BlockedByClient"


_ALLOW = RequestVerdict(True)


class RequestPolicy:
    """Decides every request a page makes (navigations, redirect hops, subresources).

    Args:
        guard: the SSRF guard (address policy and the resolver it uses).
        domains: the domain policy.
        clock: monotonic seconds (verdict cache).
        navigation_gate: ``await gate(url)`` for a navigation the model asks for, once the
            request rules let it through (robots.txt); raises to refuse it.
    """

    def __init__(
        self,
        guard: SSRFGuard,
        domains: DomainPolicy,
        *,
        clock: Callable[[], float] = time.monotonic,
        navigation_gate: Callable[[str], Awaitable[None]] | None = None,
    ) -> None:
        self.guard = guard
        self.domains = domains
        self.clock = clock
        self.navigation_gate = navigation_gate
        self._cache: dict[str, tuple[float, RequestVerdict]] = {}

    def check_static(self, url: str, *, redirect: bool = False) -> RequestVerdict | None:
        """Every rule that needs no DNS. Returns a verdict, or ``None`` when DNS must decide.

        Args:
            url: the request URL.
            redirect: the URL was not chosen by the model (a redirect hop or a page's own
                request), so refusal messages do not echo it.
        """
        try:
            parts = urlsplit(url)
        except ValueError:
            return RequestVerdict(False, InvalidArguments("not a valid URL"))
        scheme = parts.scheme.lower()
        if scheme in LOCAL_SCHEMES:
            return _ALLOW
        http_scheme = _NETWORK_SCHEMES.get(scheme)
        if http_scheme is None:
            return RequestVerdict(
                False,
                BlockedAddress(
                    f"the browser may only load http(s) pages, not {scheme}:",
                    hint="use an http:// or https:// URL",
                    category="scheme",
                ),
            )
        checked = url if http_scheme == scheme else http_scheme + url[len(scheme) :]
        try:
            target = self.guard.check_url(checked, redirect=redirect)
        except (BlockedAddress, InvalidArguments) as exc:
            return RequestVerdict(False, exc)
        refused = self.domains.error(url, target.host, redirect=redirect)
        if refused is not None:
            return RequestVerdict(False, refused)
        if target.address is not None:
            return _ALLOW
        return None

    async def check_navigation(self, url: str) -> None:
        """Refuse a navigation the model chose unless it is an allowed http(s) page.

        Unlike a page's own requests (where ``data:``, ``blob:`` and ``about:`` are local
        and let through), the model may only open http(s) pages: ``open data:…``,
        ``about:blank`` or ``ws://…`` are bad arguments the same way as ``javascript:`` or
        ``file:`` (``invalid_arguments``, like web_fetch's: SPEC §1.1's url is http(s)).

        Raises:
            BlockedAddress: the SSRF rules refuse it.
            BlockedDomain: the domain policy refuses it.
            RobotsDisallowed: the navigation gate (robots.txt) refuses it.
            InvalidArguments: not a URL, or not http(s).
            NetworkError: the host name does not resolve.
        """
        try:
            scheme = urlsplit(url).scheme.lower()
        except ValueError:
            raise InvalidArguments(
                "not a valid URL", hint="use an http:// or https:// URL"
            ) from None
        if scheme not in ("http", "https"):  # the caller's argument, as for web_fetch
            message, hint = not_web_url(url) or ("not an http or https URL", "")
            # ``localhost:8765``: an internal host gets no URL to retry (net/guard.py)
            hint = self.guard.scheme_hint(url) or hint
            raise InvalidArguments(message, hint=hint or "give an http:// or https:// URL")
        verdict = await self.check(url)
        if not verdict.allowed and verdict.error is not None:
            raise verdict.error
        if self.navigation_gate is not None:
            await self.navigation_gate(url)

    async def check(self, url: str, *, redirect: bool = False) -> RequestVerdict:
        """The full verdict for ``url``: string rules, domain policy, then DNS.

        Never raises: refusals are returned in the verdict.
        """
        static = self.check_static(url, redirect=redirect)
        if static is not None:
            return static
        host = normalize_host(urlsplit(url).hostname or "")
        now = self.clock()
        cached = self._cache.get(host)
        if cached is not None and now - cached[0] < DNS_VERDICT_TTL_S:
            return cached[1]
        try:
            await self.guard.resolve_and_check(host)
            verdict = _ALLOW
        except BlockedAddress as exc:
            verdict = RequestVerdict(False, exc)
        except NetworkError as exc:
            verdict = RequestVerdict(False, exc, reason="NameNotResolved")
        if len(self._cache) > 512:
            self._cache.clear()
        self._cache[host] = (now, verdict)
        return verdict
