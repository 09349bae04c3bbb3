"""robots.txt for model-initiated fetches (RFC 9309; SPEC §1.6, issue 18 §3).

Per origin (``scheme://host:port``): the file is fetched ONCE through the guarded client —
the SSRF guard on every hop, at most five redirects (each hop also through the domain
policy), 500 KiB parsed, ≤ 10 s — and kept as a JSON entry in the ``robots`` cache of the
state backend (in-process, SQLite or Redis: a fleet shares it) for at most 24 h; parsed
files are kept in this process too. Concurrent checks of one origin share one fetch.
What an answer means is :mod:`.robots_rules` (pure).

A robots.txt the SSRF guard (or the domain policy) refuses to fetch counts as unavailable
for a minute (nothing to obey: the page's own fetch then gets the guard's refusal). When the site itself
cannot be reached — its name does not resolve, the connection or TLS fails, it does not
answer in time — nothing is fetched from it (RFC 9309 §2.3.1.4: complete disallow) and the
call fails with that error (``network``, ``tls``, ``timeout``), which says more than a
verdict would; nothing is kept, so the next call tries again. A 5xx answer (or a redirect
to a host that cannot be reached) is ``robots_disallowed`` for
:data:`~.robots_rules.UNREACHABLE_RETRY_S` (60 s).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict

from ..errors import (
    BlockedAddress,
    InvalidArguments,
    NetworkError,
    Refusal,
    RobotsDisallowed,
    Timeout,
    TLSError,
    TooManyRedirects,
    WebResearchError,
)
from ..net.client import GuardedClient, HopGate
from ..net.http_status import WallClock, utc_now
from ..redact import redact_url
from ..runtime.cache import Cache
from ..runtime.singleflight import SingleFlight
from .domains import UNNAMED_TARGET
from .robots_rules import (
    ROBOTS_MAX_BYTES,
    ROBOTS_MAX_REDIRECTS,
    ROBOTS_TTL_S,
    UNREACHABLE_RETRY_S,
    Refused,
    RobotsEntry,
    RobotsRules,
    entry_for_answer,
    entry_unavailable,
    entry_unreachable,
    origin_of,
)

__all__ = ["ROBOTS_ACCEPT", "ROBOTS_TIMEOUT_S", "RobotsChecker"]

#: Seconds for one robots.txt fetch, redirects included (at most the client's
#: ``request_timeout_s``).
ROBOTS_TIMEOUT_S = 10.0
#: Accept header of a robots.txt fetch.
ROBOTS_ACCEPT = "text/plain, */*;q=0.1"
#: Parsed files kept in this process (origins).
MEMO_SIZE = 64
#: Files larger than this are parsed in a worker thread (bytes).
THREAD_PARSE_BYTES = 64 * 1024

#: Words for transport failures (error code → "the fetch ended with …").
_FAILURES = {
    "timeout": "no answer in time",
    "network": "could not connect",
    "tls": "TLS handshake failed",
}
_PERSON_CAN = (
    "a person can still open it with their own command (`webresearch fetch URL` does not "
    "apply robots.txt)"
)


class RobotsChecker:
    """Checks URLs against their origin's robots.txt for one product token.

    Args:
        client: the guarded client (fetches ``/robots.txt``).
        cache: the shared ``robots`` cache (JSON entries, keyed by origin).
        product_token: our product token (RFC 9309 §2.2.1), e.g. ``webresearch``.
        ttl_s: seconds a fetched file is used (at most 24 h).
        now: the wall clock every process agrees on (entries carry their expiry).
        hop_gate: checks each hop of a robots.txt fetch (the domain policy).
    """

    def __init__(
        self,
        client: GuardedClient,
        cache: Cache,
        *,
        product_token: str,
        ttl_s: float = ROBOTS_TTL_S,
        now: WallClock = utc_now,
        hop_gate: HopGate | None = None,
    ) -> None:
        self.client = client
        self.cache = cache
        self.product_token = product_token
        self.ttl_s = min(ttl_s, ROBOTS_TTL_S)
        self.now = now
        self.hop_gate = hop_gate
        self._memo: OrderedDict[str, RobotsRules] = OrderedDict()
        self._flights: SingleFlight[RobotsEntry] = SingleFlight()

    async def check(self, url: str, *, redirect: bool = False) -> None:
        """Refuse ``url`` when its origin's robots.txt disallows it (a URL the SSRF guard's
        string rules refuse passes: the guard refuses it, and no robots.txt is read).

        Args:
            url: the URL about to be fetched.
            redirect: the model did not choose it (a redirect hop): not echoed.

        Raises:
            RobotsDisallowed: a rule disallows it, or the file could not be fetched.
            NetworkError, TLSError, Timeout: the site cannot be reached (nothing fetched).
        """
        try:
            # the guard's string rules, and the URL as the client will send it (dot
            # segments removed: /open/../x is /x, and the rules must see what is fetched)
            url = str(self.client.guard.check_url(url, redirect=redirect).url)
        except (BlockedAddress, InvalidArguments):
            return  # the SSRF guard refuses the URL itself: no robots.txt is read for it
        origin = origin_of(url)
        if origin is None:
            return
        try:
            rules = await self.rules(origin)
        except (NetworkError, TLSError, Timeout) as exc:
            raise _site_unreachable(exc, url, origin, redirect=redirect) from None
        refused = rules.refusal(url, self.product_token)
        if refused is not None:
            raise self._error(url, origin, refused, redirect=redirect)

    async def rules(self, origin: str) -> RobotsRules:
        """The parsed robots.txt of ``origin`` (from this process, the shared cache, or a
        fetch).

        Raises:
            NetworkError, TLSError, Timeout: the site cannot be reached.
        """
        now = self.now().timestamp()
        rules = self._memo.get(origin)
        if rules is not None and rules.entry.fresh(now):
            self._memo.move_to_end(origin)
            return rules
        entry = RobotsEntry.from_json(await self.cache.get(origin))
        if entry is None or not entry.fresh(now):
            entry, _shared = await self._flights.do(origin, lambda: self._fetch_and_store(origin))
        if len(entry.body) > THREAD_PARSE_BYTES:
            rules = await asyncio.to_thread(RobotsRules, entry)
        else:
            rules = RobotsRules(entry)
        self._memo[origin] = rules
        self._memo.move_to_end(origin)
        while len(self._memo) > MEMO_SIZE:
            self._memo.popitem(last=False)
        return rules

    async def _fetch_and_store(self, origin: str) -> RobotsEntry:
        entry = await self.fetch(origin)
        await self.cache.set(origin, entry.to_json())
        return entry

    async def fetch(self, origin: str) -> RobotsEntry:
        """Fetch ``origin``'s robots.txt now and say what it means (RFC 9309 §2.3.1).

        Raises:
            NetworkError, TLSError, Timeout: the site cannot be reached.
        """
        url = f"{origin}/robots.txt"
        ttl = self.ttl_s
        reached = [0]  # the hop being requested (0: the origin's own /robots.txt)

        async def gate(hop_url: str, hop: int) -> None:
            reached[0] = hop
            if self.hop_gate is not None:
                await self.hop_gate(hop_url, hop)

        try:
            response = await self.client.get(
                url,
                headers={"Accept": ROBOTS_ACCEPT},
                cap=ROBOTS_MAX_BYTES,
                allow_capped=True,
                max_redirects=ROBOTS_MAX_REDIRECTS,
                timeout_s=min(ROBOTS_TIMEOUT_S, self.client.request_timeout_s),
                gate=gate,
            )
        except TooManyRedirects:
            return entry_unavailable("too many redirects", now=self._now(), ttl_s=ttl)
        except (Refusal, InvalidArguments):
            # the SSRF guard or the domain policy refused the origin or a redirect: no file
            # to obey here; the page's own fetch then gets the guard's own refusal
            # (kept briefly: what the guard refuses may change with DNS or the settings)
            short = min(ttl, UNREACHABLE_RETRY_S)
            return entry_unavailable("a refused address", now=self._now(), ttl_s=short)
        except WebResearchError as exc:
            if reached[0] == 0 and exc.code in _FAILURES:
                # The site itself cannot be reached (no such name, refused, TLS, timeout):
                # nothing is fetched from it — the page's fetch would fail the same way —
                # and the call says why; nothing is kept, the next call tries again.
                raise
            reason = _FAILURES.get(exc.code, "the fetch failed")
            return entry_unreachable(reason, now=self._now(), ttl_s=ttl)
        return entry_for_answer(
            response.status, response.body, response.capped, now=self._now(), ttl_s=ttl
        )

    def _now(self) -> float:
        return self.now().timestamp()

    def _error(
        self, url: str, origin: str, refused: Refused, *, redirect: bool
    ) -> RobotsDisallowed:
        robots_url = redact_url(f"{origin}/robots.txt")
        token = self.product_token
        shown = f"{UNNAMED_TARGET} ({origin})" if redirect else redact_url(url)[:200]
        if refused.unreachable:
            return RobotsDisallowed(
                f"refused {shown}: the site's robots.txt could not be fetched "
                f"({refused.reason}); until it can, RFC 9309 counts the whole site as "
                "disallowed",
                hint=f"try again in a minute or use another source; {_PERSON_CAN}",
                retryable=True,
                refusal="robots",
                reason="unreachable",
                robots_url=robots_url,
                rule=None,
            )
        rule = None if refused.rule is None else refused.rule[:200]
        said = f" (rule: Disallow: {rule})" if rule is not None else ""
        return RobotsDisallowed(
            f"refused {shown}: the site's robots.txt disallows it for {token}{said}",
            hint=f"the site asks automated clients not to fetch this; use another source; {_PERSON_CAN}",
            refusal="robots",
            reason="disallowed",
            robots_url=robots_url,
            rule=rule,
        )


def _site_unreachable(
    exc: NetworkError | TLSError | Timeout, url: str, origin: str, *, redirect: bool
) -> NetworkError | TLSError | Timeout:
    """The error of a page whose site did not answer its robots.txt request: the same class
    (code, retryability), worded for the page the caller asked for — the robots.txt URL
    alone read as if the caller had asked for it — with a next step.

    Returns:
        ``could not reach <page>: could not connect to the site (its robots.txt …)``.
    """
    shown = f"{UNNAMED_TARGET} ({origin})" if redirect else redact_url(url)[:200]
    what = _FAILURES.get(exc.code, "the fetch failed")
    robots_url = f"{origin}/robots.txt"
    detail = exc.message
    for named in (robots_url, redact_url(robots_url)):
        detail = detail.replace(named, "robots.txt")
    if detail.startswith(f"{what} to robots.txt"):  # the plain failure: said already
        detail = ""
    return type(exc)(
        f"could not reach {shown}: {what} (the site did not answer the request for its "
        "robots.txt, made before the page)" + (f": {detail}" if detail else ""),
        # a specific cause's own next step (an outbound proxy's refusal) stays
        hint=exc.hint
        or "check the address; if it is right, the site is down or unreachable from "
        "here: try again later or use another source",
        retryable=exc.retryable,
        robots_url=redact_url(robots_url),
    )
