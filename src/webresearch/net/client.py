"""The guarded HTTP client for model-chosen URLs.

Every request: string rules of the SSRF guard → guarded transport (resolve, check every
address, connect to a checked address) → response. Redirects are followed here, not by
httpx2, so that each hop is re-checked, at most ``max_redirects`` hops are taken (SPEC §1.1:
5), cookies set during one call's chain are sent on its later hops and forgotten after the
call, and the chain is reported. Timeouts: ``connect_timeout_s`` per connection,
``request_timeout_s`` for the whole call including redirects and the body.

All httpcore2/httpx2/ssl exceptions are translated to :mod:`webresearch.errors` in
:func:`translate_transport_error`, the one place that knows them.
"""

from __future__ import annotations

import asyncio
import ssl
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urljoin

import httpcore2
import httpx2

from .. import trace
from ..errors import (
    BlockedAddress,
    FetchError,
    InvalidArguments,
    NetworkError,
    Timeout,
    TooManyRedirects,
    WebResearchError,
)
from ..redact import install_log_redaction, redact_url
from .download import CappedBody, read_capped, too_large
from .guard import SSRFGuard, describe_category
from .locations import browser_location
from .tls_failure import tls_failure
from .transport import GuardedTransport

__all__ = [
    "REDIRECT_STATUSES",
    "REFUSED_HOP",
    "RETRY_HINT",
    "UNREACHABLE_HINT",
    "FetchResponse",
    "GuardedClient",
    "HopGate",
    "hop_refused",
    "translate_transport_error",
]

# The HTTP stack logs request URLs (DEBUG traces): keep URL secrets out of those lines.
install_log_redaction(("httpx2", "httpcore2"))

REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})

#: ``await gate(url, hop)`` before each request of a call (``hop`` 0: the URL asked for;
#: 1…: redirect targets), after the SSRF guard's string rules; raises to refuse the hop
#: (the domain policy and robots.txt: :class:`webresearch.access.AccessPolicy`).
HopGate = Callable[[str, int], Awaitable[None]]

DEFAULT_ACCEPT = (
    "text/html,application/xhtml+xml,application/xml;q=0.9,text/plain;q=0.8,"
    "application/json;q=0.8,application/pdf;q=0.7,*/*;q=0.5"
)


@dataclass(slots=True)
class FetchResponse:
    """A completed GET, redirects followed, body read (decoded, capped).

    Attributes:
        requested_url: the URL asked for.
        url: the final URL after redirects.
        status: the final HTTP status.
        headers: the final response's headers.
        body: decoded body bytes (at most the cap).
        raw_bytes: bytes received on the wire for the final body.
        capped: True when the download cap cut the body.
        decoded: False when a declared Content-Encoding was wrong and the body kept as sent.
        incomplete: the server closed the connection before the whole body arrived (fewer
            bytes than its ``Content-Length``, a chunked body without its last chunk); the
            body is what arrived. Only with ``allow_incomplete=True``.
        redirects: ``[(status, url), ...]`` for each redirect hop taken, in order.
        elapsed_s: seconds from the first request to the end of the body.
    """

    requested_url: str
    url: str
    status: int
    headers: httpx2.Headers
    body: bytes
    raw_bytes: int
    capped: bool
    decoded: bool = True
    redirects: list[tuple[int, str]] = field(default_factory=list)
    elapsed_s: float = 0.0
    incomplete: bool = False

    @property
    def content_type(self) -> str | None:
        """The ``Content-Type`` header value, if any."""
        return self.headers.get("content-type")


#: The next step after a site that could not be reached (as the robots.txt step words it:
#: access.robots): the address may be wrong, else the site is down or unreachable.
UNREACHABLE_HINT = (
    "check the address; if it is right, the site is down or unreachable from here: try "
    "again later or use another source"
)
#: The next step after a connection that broke or an answer that did not come in time.
RETRY_HINT = "try again later or use another source"


def translate_transport_error(exc: BaseException, shown_url: str) -> WebResearchError:
    """Map an httpcore2/httpx2/ssl/OS exception to the most specific webresearch error.

    Args:
        exc: the foreign exception.
        shown_url: the (redacted) URL to name in the message.
    """
    if isinstance(exc, WebResearchError):
        return exc
    if (tls := tls_failure(exc, shown_url)) is not None:
        return tls
    if isinstance(exc, (httpcore2.ConnectTimeout, httpx2.ConnectTimeout)):
        return Timeout(f"connecting to {shown_url} timed out", hint=UNREACHABLE_HINT)
    if isinstance(exc, (httpcore2.TimeoutException, httpx2.TimeoutException, TimeoutError)):
        return Timeout(f"{shown_url} did not answer in time", hint=RETRY_HINT)
    if isinstance(exc, (httpcore2.ConnectError, httpx2.ConnectError, ConnectionError)):
        return NetworkError(f"could not connect to {shown_url}", hint=UNREACHABLE_HINT)
    if isinstance(exc, (httpcore2.ProtocolError, httpx2.ProtocolError)):
        return NetworkError(
            f"{shown_url} broke the HTTP protocol or closed the connection", hint=RETRY_HINT
        )
    if isinstance(exc, (httpcore2.NetworkError, httpx2.NetworkError, OSError)):
        return NetworkError(f"the connection to {shown_url} failed", hint=RETRY_HINT)
    if isinstance(exc, (httpcore2.UnsupportedProtocol, httpx2.UnsupportedProtocol)):
        return BlockedAddress(f"{shown_url}: unsupported protocol; only http and https are allowed")
    if isinstance(
        exc, (httpx2.InvalidURL, httpx2.DecodingError, httpx2.HTTPError, httpx2.StreamError)
    ):
        return FetchError(f"fetching {shown_url} failed")
    if isinstance(exc, (httpcore2.ProxyError, httpcore2.PoolTimeout)):
        return NetworkError(f"fetching {shown_url} failed")
    return FetchError(f"fetching {shown_url} failed ({type(exc).__name__})")


#: What stands for a redirect target the SSRF guard refused in an error's redirect chain:
#: the hop is listed, its address never (SPEC §3 "Errors": no internal address in an error).
REFUSED_HOP = "[refused by the SSRF guard]"


def hop_refused(
    exc: BlockedAddress, how: str, redirects: list[tuple[int, str]] | None = None
) -> BlockedAddress:
    """The refusal of a hop the page chose (a redirect, a meta refresh), worded without the
    target's address: ``refused: <how> to an internal or reserved address (<category>;
    SSRF guard)``. ``redirects`` (``[(status, url), …]``, URLs redacted, the refused hop
    last as :data:`REFUSED_HOP`) becomes its ``redirects`` detail, as ``exc``'s own does."""
    category = exc.details.get("category", "internal")
    chain = redirects if redirects is not None else exc.details.get("redirects")
    refused = BlockedAddress(
        f"refused: {how} to an internal or reserved address "
        f"({describe_category(str(category))}; SSRF guard)",
        hint=exc.hint,
        category=category,
    )
    if chain is not None:
        refused.details["redirects"] = chain
    return refused


def _refused_chain(taken: list[tuple[int, str]], status: int) -> list[tuple[int, str]]:
    """The redirect chain of a call whose next hop the SSRF guard refused: the hops taken
    (``[(status, url), …]``, URLs redacted) and the refused one, its target withheld."""
    return [(s, redact_url(u)) for s, u in taken] + [(status, REFUSED_HOP)]


def _note_refused(hop: int, url: str, exc: BlockedAddress) -> None:
    """The ``-vv`` line of a redirect hop the SSRF guard refused (the operator's own
    terminal only, :mod:`webresearch.trace`: the URL is shown, redacted)."""
    category = describe_category(str(exc.details.get("category", "internal")))
    trace.note(
        "hop", hop=hop, url=redact_url(url), refused=f"refused by the SSRF guard ({category})"
    )


class GuardedClient:
    """GET model-chosen URLs safely.

    Args:
        guard: the SSRF guard (policy + resolver).
        connector: the TCP seam of the transport (tests inject a fake; default real sockets).
        user_agent: ``User-Agent`` header.
        connect_timeout_s: seconds to connect (per connection).
        request_timeout_s: seconds for the whole call, redirects and body included.
        max_redirects: redirects followed before :class:`TooManyRedirects`.
        download_cap_bytes: decoded body bytes kept; more raises :class:`TooLarge` (or, with
            ``allow_capped=True``, returns the first bytes with ``capped=True``).
        ssl_context: TLS settings (tests pass one trusting a local CA).
    """

    def __init__(
        self,
        guard: SSRFGuard,
        *,
        connector: httpcore2.AsyncNetworkBackend | None = None,
        user_agent: str = "webresearch",
        connect_timeout_s: float = 15.0,
        request_timeout_s: float = 30.0,
        max_redirects: int = 5,
        download_cap_bytes: int = 2 * 1024 * 1024,
        ssl_context: ssl.SSLContext | None = None,
    ) -> None:
        self.guard = guard
        self.user_agent = user_agent
        self.connect_timeout_s = connect_timeout_s
        self.request_timeout_s = request_timeout_s
        self.max_redirects = max_redirects
        self.download_cap_bytes = download_cap_bytes
        self.transport = GuardedTransport(guard, connector=connector, ssl_context=ssl_context)

    async def aclose(self) -> None:
        """Close pooled connections."""
        await self.transport.aclose()

    async def __aenter__(self) -> GuardedClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def get(
        self,
        url: str,
        *,
        headers: Mapping[str, str] | None = None,
        cap: int | None = None,
        allow_capped: bool = False,
        allow_incomplete: bool = False,
        max_redirects: int | None = None,
        timeout_s: float | None = None,
        gate: HopGate | None = None,
    ) -> FetchResponse:
        """GET ``url``, following at most ``max_redirects`` redirects, every hop re-checked.

        Args:
            url: absolute http(s) URL chosen by a model.
            headers: extra request headers (``Accept`` etc.).
            cap: decoded-body cap in bytes (default ``download_cap_bytes``).
            allow_capped: return a capped body instead of raising :class:`TooLarge`.
            allow_incomplete: return the bytes that arrived, with ``incomplete=True``, when
                the connection closes in the middle of the body (a reader that can use part
                of a page); otherwise that is a :class:`NetworkError`. Robots.txt and API
                answers keep the error: a cut rule file or JSON is not a smaller one.
            max_redirects: redirects followed for this call (default: the client's).
            timeout_s: seconds for this whole call, redirects and body included (default:
                ``request_timeout_s``), e.g. a screenshot download's 20 s.
            gate: checks every hop before it is requested (see :data:`HopGate`).

        Returns:
            the final response with its body read. Error statuses are returned, not raised.

        Raises:
            InvalidArguments: the URL cannot be parsed.
            BlockedAddress: the URL or any redirect hop is refused by the SSRF guard.
            Refusal: the gate refused a hop (``BlockedDomain``, ``RobotsDisallowed`` …).
            TooManyRedirects: more than ``max_redirects`` redirects.
            TooLarge: the body exceeds the cap (unless ``allow_capped``).
            Timeout, NetworkError, TLSError, FetchError: transport failures.
        """
        started = time.monotonic()
        shown = redact_url(url)
        deadline_s = timeout_s if timeout_s is not None else self.request_timeout_s
        hops = max_redirects if max_redirects is not None else self.max_redirects
        try:
            async with asyncio.timeout(deadline_s):
                return await self._get(
                    url,
                    headers or {},
                    cap or self.download_cap_bytes,
                    allow_capped,
                    started,
                    hops,
                    gate,
                    allow_incomplete,
                )
        except TimeoutError:
            raise Timeout(
                f"{shown} did not finish within {deadline_s:g} s",
                hint="the site is slow or never finishes sending; try again later or another source",
            ) from None

    async def _get(
        self,
        url: str,
        headers: Mapping[str, str],
        cap: int,
        allow_capped: bool,
        started: float,
        max_redirects: int,
        gate: HopGate | None = None,
        allow_incomplete: bool = False,
    ) -> FetchResponse:
        cookies = httpx2.Cookies()
        redirects: list[tuple[int, str]] = []
        current = self.guard.check_url(url).url
        timeout = {
            "connect": self.connect_timeout_s,
            "read": self.request_timeout_s,
            "write": self.request_timeout_s,
            "pool": self.request_timeout_s,
        }
        while True:
            hop = len(redirects)
            shown = "the redirect target" if hop else redact_url(str(current))
            request = httpx2.Request(
                "GET",
                current,
                headers={
                    "User-Agent": self.user_agent,
                    "Accept": DEFAULT_ACCEPT,
                    "Accept-Encoding": "gzip, deflate, br, zstd",
                    **headers,
                },
                extensions={"timeout": timeout},
            )
            cookies.set_cookie_header(request)
            hop_started = time.monotonic()
            try:
                if gate is not None:
                    await gate(str(current), hop)
                response = await self.transport.handle_async_request(request)
                trace.note(
                    "hop",
                    hop=hop,
                    url=redact_url(str(current)),
                    status=response.status_code,
                    ms=(time.monotonic() - hop_started) * 1000,
                )
            except BlockedAddress as exc:
                if hop:  # refused when resolved: the hop is listed, its address withheld
                    _note_refused(hop, str(current), exc)
                    chain = _refused_chain(redirects[:-1], redirects[-1][0])
                    raise hop_refused(exc, "the site redirected", chain) from None
                raise
            except WebResearchError:
                raise
            except Exception as exc:
                raise translate_transport_error(exc, shown) from None
            response.request = request
            try:
                cookies.extract_cookies(response)
                location = response.headers.get("location")
                if response.status_code in REDIRECT_STATUSES and location:
                    await response.aclose()
                    if hop >= max_redirects:
                        raise TooManyRedirects(
                            f"{redact_url(url)} redirected more than {max_redirects} times",
                            hint="the site is in a redirect loop or needs a browser; try the final URL or another source",
                            redirects=[(s, redact_url(u)) for s, u in redirects],
                        )
                    try:
                        current = self._next_hop(current, location, hop + 1)
                    except BlockedAddress as exc:  # refused by its spelling: listed too
                        exc.details["redirects"] = _refused_chain(redirects, response.status_code)
                        raise
                    redirects.append((response.status_code, str(current)))
                    continue
                body, incomplete = await self._read(response, cap, shown, allow_incomplete)
            finally:
                await response.aclose()
            if body.capped and not allow_capped:
                raise too_large(shown, cap)
            return FetchResponse(
                requested_url=url,
                url=str(current),
                status=response.status_code,
                headers=response.headers,
                body=body.data,
                raw_bytes=body.raw_bytes,
                capped=body.capped,
                decoded=body.decoded,
                redirects=redirects,
                elapsed_s=time.monotonic() - started,
                incomplete=incomplete,
            )

    def _next_hop(self, current: httpx2.URL, location: str, hop: int) -> httpx2.URL:
        """The redirect target, through every string rule of the guard.

        The Location is first read as a browser reads it (``http:/\\host`` names ``host``,
        :mod:`webresearch.net.locations`). A Location the URL parser refuses is still judged
        by the host rules first (``0177.0.0.1`` is a refused IPv4 spelling, not a typo);
        anything else invalid is the site's fault.

        Args:
            hop: the number of the hop it would be (1: the first redirect), for ``-vv``.

        Raises:
            BlockedAddress: the target is refused by the SSRF guard.
            FetchError: the Location cannot be understood.
        """
        invalid = FetchError(
            "the site sent a redirect to an invalid URL",
            hint="the site is broken; try another source",
        )
        location = browser_location(location, current.scheme)  # ``\`` as ``/`` (locations.py)
        try:
            target = str(current.join(location))
        except (httpx2.InvalidURL, ValueError):
            try:
                target = urljoin(str(current), location)
            except ValueError:
                raise invalid from None
        try:
            return self.guard.check_url(target, redirect=True).url
        except InvalidArguments:
            raise invalid from None
        except BlockedAddress as exc:
            _note_refused(hop, target, exc)
            raise

    async def _read(
        self, response: httpx2.Response, cap: int, shown: str, allow_incomplete: bool
    ) -> tuple[CappedBody, bool]:
        """The body (capped) and whether the connection closed before all of it arrived
        (only with ``allow_incomplete`` and some bytes received; else that raises)."""
        cut = False

        async def chunks() -> AsyncIterator[bytes]:
            nonlocal cut
            stream: Any = response.stream
            received = 0
            try:
                async for part in stream:
                    received += len(part)
                    yield part
            except (httpx2.RemoteProtocolError, httpcore2.RemoteProtocolError):
                if not (allow_incomplete and received):
                    raise
                cut = True  # "peer closed connection without sending complete message body"

        try:
            body = await read_capped(chunks(), response.headers.get("content-encoding"), cap)
            return body, cut and not body.capped
        except WebResearchError:
            raise
        except Exception as exc:
            raise translate_transport_error(exc, shown) from None
