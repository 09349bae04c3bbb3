"""The HTTP edge of every operator-configured service: one plain httpx2 client per endpoint.

Search APIs (SearXNG, Brave, Tavily, Exa, Firecrawl search), hosted page readers (Firecrawl,
Jina Reader) and screenshot services are trusted configuration, so they are dialled
directly, not through the SSRF guard (SPEC §2), but never through an environment proxy
(``trust_env=False``) and never following redirects (a redirect could carry the key header
to another host). The whole request, body included, has one deadline and the body one size
cap. Their addresses and secrets are kept out of the HTTP stack's log lines.

What a failure *means* is decided once: a foreign exception by :data:`HTTPX_ERRORS` (a
:class:`TransportFailure`), a status by :func:`webresearch.net.http_status.classify_status`.
How it is *worded* is the caller's :class:`ErrorVocabulary`: a search provider fails with
SPEC §1.2's codes, a page reader like web_fetch does.
"""

from __future__ import annotations

import asyncio
import logging
import re
import ssl
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

import httpx2

from ..config import DEFAULT_USER_AGENT
from ..config.urls import service_base_url
from ..errors import ConfigurationError, WebResearchError
from ..redact import REDACTED

__all__ = [
    "HTTPX_ERRORS",
    "Answer",
    "ErrorVocabulary",
    "OperatorEndpoint",
    "TransportFailure",
    "bearer",
    "check_base_url",
    "transport_failure",
]

TransportKind = Literal["timeout", "network", "protocol"]


@dataclass(frozen=True, slots=True)
class TransportFailure:
    """A request that failed below HTTP (or could not be read).

    Attributes:
        kind: ``timeout``, ``network`` or ``protocol`` (the answer could not be read).
        tail: what happened, after the service's name ("did not answer in time").
        retryable: the same request may succeed later.
        sent: the request may have reached the service (a paid call is then charged).
    """

    kind: TransportKind
    tail: str
    retryable: bool
    sent: bool


#: httpx2 exception → (kind, retryable, whether the request may have reached the service,
#: message tail). Checked in order, most specific first; a test walks every exception httpx2
#: exports and fails when one has no rule.
HTTPX_ERRORS: tuple[tuple[type[BaseException], TransportKind, bool, bool, str], ...] = (
    (httpx2.ConnectTimeout, "timeout", True, False, "did not accept a connection in time"),
    (httpx2.PoolTimeout, "timeout", True, False, "did not answer in time"),
    (httpx2.ReadTimeout, "timeout", True, True, "did not answer in time"),
    (httpx2.WriteTimeout, "timeout", True, True, "did not answer in time"),
    (httpx2.TimeoutException, "timeout", True, True, "did not answer in time"),
    (httpx2.ProxyError, "network", True, False, "could not be reached through the proxy"),
    (httpx2.ConnectError, "network", True, False, "could not be reached"),
    (httpx2.UnsupportedProtocol, "network", False, False, "has an unusable address"),
    (httpx2.InvalidURL, "network", False, False, "has an unusable address"),
    (httpx2.RemoteProtocolError, "network", True, True, "broke the connection"),
    (httpx2.LocalProtocolError, "protocol", False, False, "could not be sent the request"),
    (httpx2.ReadError, "network", True, True, "broke the connection"),
    (httpx2.WriteError, "network", True, True, "broke the connection"),
    (httpx2.CloseError, "network", True, True, "broke the connection"),
    (httpx2.NetworkError, "network", True, True, "could not be reached"),
    (httpx2.DecodingError, "protocol", False, True, "sent an undecodable answer"),
    (httpx2.TooManyRedirects, "protocol", False, True, "redirects too often"),
    (httpx2.HTTPStatusError, "network", True, True, "answered with an error"),
    (httpx2.RequestNotRead, "protocol", False, False, "could not be sent the request"),
    (httpx2.ResponseNotRead, "protocol", False, True, "sent an unreadable answer"),
    (httpx2.StreamConsumed, "protocol", False, True, "sent an unreadable answer"),
    (httpx2.StreamClosed, "protocol", False, True, "sent an unreadable answer"),
    (httpx2.StreamError, "protocol", False, True, "sent an unreadable answer"),
    (httpx2.CookieConflict, "protocol", False, True, "sent an unreadable answer"),
    (httpx2.SSEError, "protocol", False, True, "sent an unreadable answer"),
    # Base classes (httpx2 raises their subclasses; listed so every export has a rule).
    (httpx2.ProtocolError, "network", True, True, "broke the connection"),
    (httpx2.TransportError, "network", True, True, "could not be reached"),
    (httpx2.RequestError, "network", True, True, "could not be reached"),
    (httpx2.HTTPError, "network", True, True, "could not be reached"),
    # Below httpx2: the TLS layer and the OS.
    (ssl.SSLError, "network", False, False, "failed the TLS handshake"),
    (TimeoutError, "timeout", True, True, "did not answer in time"),
    (OSError, "network", True, False, "could not be reached"),
)


def transport_failure(exc: BaseException) -> TransportFailure:
    """What a foreign exception from the HTTP stack, the TLS layer or the OS means."""
    for kind, what, retryable, sent, tail in HTTPX_ERRORS:
        if isinstance(exc, kind):
            return TransportFailure(what, tail, retryable, sent)
    return TransportFailure("network", "failed", True, True)


class ErrorVocabulary(Protocol):
    """How one kind of caller words an endpoint's failures (its error classes and hints)."""

    def transport(self, failure: TransportFailure, service: str) -> WebResearchError:
        """The error for a transport failure (``request_sent`` in its details)."""
        ...

    def deadline(self, service: str, timeout_s: float) -> WebResearchError:
        """The error when the whole request took longer than ``timeout_s`` seconds."""
        ...

    def too_large(self, service: str, max_bytes: int) -> WebResearchError:
        """The error when the answer is larger than ``max_bytes``."""
        ...


@dataclass(frozen=True, slots=True)
class Answer:
    """A service's answer: status, headers, body bytes."""

    status: int
    headers: httpx2.Headers
    body: bytes

    @property
    def content_type(self) -> str:
        """The ``Content-Type`` header ("" when absent)."""
        return self.headers.get("content-type", "")


def bearer(key: str) -> dict[str, str]:
    """The ``Authorization: Bearer <key>`` header (nothing when there is no key)."""
    return {"Authorization": f"Bearer {key}"} if key else {}


def check_base_url(
    url: str,
    setting: str,
    *,
    api_paths: Sequence[str] = (),
    example: str = "https://service.example",
    hint: str = "tell the operator",
) -> str:
    """An operator-configured base URL in the one form the endpoint dials.

    The forms operators paste work: a trailing slash, a reverse proxy's sub-path, the
    endpoint path the service documents (``api_paths``, removed because the code appends
    it); see :func:`webresearch.config.urls.service_base_url`.

    Args:
        url: the setting's value.
        setting: its name in messages (``WEBRESEARCH_SEARXNG_URL``).
        api_paths: the paths called under the base (``/search``).
        example: the expected form, named when the value is refused.
        hint: the refusal's next step.

    Raises:
        ConfigurationError: not an http(s) base URL, or one that would send requests to a
            wrong path (names the setting and the expected form, never the value: a
            self-hosted address is internal).
    """
    try:
        return service_base_url(url, api_paths=api_paths, example=example)
    except ValueError as exc:
        raise ConfigurationError(f"{setting} {exc}", hint=hint, setting=setting) from None


class _HideOperatorData(logging.Filter):
    """Keeps services' addresses and secrets out of the HTTP stack's log records.

    httpx2 logs ``HTTP Request: GET <full URL> …`` at INFO: for an operator endpoint that line
    would carry its internal address (SPEC §1.2), so it is dropped (our own journal events
    record each request instead). httpcore2 traces responses at DEBUG, headers included; a
    service that reflects our key or proxy token into a header would put it in a log line,
    so known secrets are replaced. Filters on a logger do not apply to its children's
    records, so the filter is attached to every ``httpx2``/``httpcore2`` logger that exists
    when an endpoint is built. Logging is process-wide, so this one filter is too.
    """

    _STACK = ("httpcore2", "httpx2")

    def __init__(self) -> None:
        super().__init__()
        self.bases: set[str] = set()
        self._values: set[str] = set()
        self._pattern: re.Pattern[str] | None = None

    def add(self, base_url: str, secrets: Iterable[str]) -> None:
        self.bases.add(base_url)
        fresh = {v for v in (*secrets, base_url) if len(v) >= 4} - self._values
        if fresh:
            self._values |= fresh
            ordered = sorted(self._values, key=len, reverse=True)
            self._pattern = re.compile("|".join(re.escape(v) for v in ordered))
        names = [
            n for n in list(logging.Logger.manager.loggerDict) if n.split(".")[0] in self._STACK
        ]
        for name in {*names, *self._STACK}:
            logger = logging.getLogger(name)
            if self not in logger.filters:
                logger.addFilter(self)

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args if isinstance(record.args, tuple) else ()
        if record.name.startswith("httpx2") and any(
            str(arg).startswith(tuple(self.bases)) for arg in args
        ):
            return False
        if self._pattern is None:
            return True
        try:
            message = record.getMessage()
        except Exception:  # a broken record is left to logging's own handling
            return True
        hidden = self._pattern.sub(REDACTED, message)
        if hidden != message:
            record.msg, record.args = hidden, None
        return True


_LOG_FILTER = _HideOperatorData()


class OperatorEndpoint:
    """One service's HTTP API: requests with one deadline, a size cap and worded failures.

    Args:
        base_url: the service's origin (trusted operator configuration; never shown).
        service: how messages name the service ("Brave Search API", "Firecrawl").
        vocabulary: how failures are worded (the caller's error classes).
        timeout_s: deadline of one whole request, body included (seconds).
        max_bytes: body cap (bytes).
        headers: headers sent with every request (key, proxy headers; never logged).
        secrets: values kept out of log lines (keys, header values).
        user_agent: the User-Agent header.
        transport: an httpx2 transport seam (tests pass a mock transport).
    """

    def __init__(
        self,
        base_url: str,
        *,
        service: str,
        vocabulary: ErrorVocabulary,
        timeout_s: float,
        max_bytes: int,
        headers: Mapping[str, str] | None = None,
        secrets: Iterable[str] = (),
        user_agent: str = DEFAULT_USER_AGENT,
        transport: httpx2.AsyncBaseTransport | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.service = service
        self.vocabulary = vocabulary
        self.timeout_s = timeout_s
        self.max_bytes = max_bytes
        _LOG_FILTER.add(self.base_url, (*secrets, *(headers or {}).values()))
        self._client = httpx2.AsyncClient(
            headers={"Accept": "application/json", "User-Agent": user_agent, **(headers or {})},
            timeout=httpx2.Timeout(timeout_s),
            follow_redirects=False,
            trust_env=False,
            transport=transport,
        )

    async def aclose(self) -> None:
        """Close the connection pool."""
        await self._client.aclose()

    async def fetch(
        self,
        method: str,
        path: str,
        *,
        params: Mapping[str, Any] | None = None,
        json_body: Mapping[str, Any] | None = None,
    ) -> Answer:
        """Send one request; return the answer (any status) or raise the worded failure.

        Raises:
            WebResearchError: the vocabulary's error for a transport failure, the deadline or
                the size cap; ``details["request_sent"]`` says whether the service may have
                seen the request.
        """
        url = self.base_url + path
        try:
            async with asyncio.timeout(self.timeout_s):
                async with self._client.stream(
                    method, url, params=params, json=json_body
                ) as response:
                    body = bytearray()
                    async for chunk in response.aiter_bytes():
                        body += chunk
                        if len(body) > self.max_bytes:
                            raise self.vocabulary.too_large(self.service, self.max_bytes)
                    return Answer(response.status_code, response.headers, bytes(body))
        except WebResearchError:
            raise
        except TimeoutError:
            raise self.vocabulary.deadline(self.service, self.timeout_s) from None
        except Exception as exc:
            raise self.vocabulary.transport(transport_failure(exc), self.service) from None
