"""The HTTP edge of the API providers: one plain httpx2 client per operator-configured endpoint.

Provider endpoints (a self-hosted SearXNG, Brave, Tavily, Exa) are trusted configuration, so
they are dialled directly, not through the SSRF guard (SPEC §2), but never through an
environment proxy (``trust_env=False``) and never following redirects (a redirect could carry
the key header to another host). The whole request, body included, has one deadline
(``search_timeout_s``, SPEC §1.2: 10 s) and the body one size cap.

Foreign exceptions are translated here, once (:func:`translate_error`, table
:data:`HTTPX_ERRORS`), into :class:`~webresearch.errors.SearchError` subclasses whose message
names the provider, never its address or key.
"""

from __future__ import annotations

import asyncio
import logging
import ssl
import time
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import urlsplit

import httpx2

from ..config import DEFAULT_USER_AGENT
from ..errors import (
    ConfigurationError,
    SearchError,
    SearchNetworkError,
    SearchProtocolError,
    SearchTimeout,
    SearchUpstreamError,
)
from .classify import classify_status, decode_json

__all__ = [
    "HTTPX_ERRORS",
    "MAX_RESPONSE_BYTES",
    "JSONEndpoint",
    "check_base_url",
    "translate_error",
]

#: Largest provider answer read (bytes, decoded); a JSON page of 20 results is ~20–100 KiB.
MAX_RESPONSE_BYTES = 4 * 1024 * 1024

_RETRY = "retry later"
_CONFIG = "the operator must check the provider's base URL setting"

#: httpx2 exception → (our class, retryable, whether the request may have reached the
#: provider, message tail). Checked in order, most specific first; a test walks every
#: exception httpx2 exports and fails when one has no rule.
HTTPX_ERRORS: tuple[tuple[type[Exception], type[SearchError], bool, bool, str], ...] = (
    (httpx2.ConnectTimeout, SearchTimeout, True, False, "did not accept a connection in time"),
    (httpx2.PoolTimeout, SearchTimeout, True, False, "did not answer in time"),
    (httpx2.ReadTimeout, SearchTimeout, True, True, "did not answer in time"),
    (httpx2.WriteTimeout, SearchTimeout, True, True, "did not answer in time"),
    (httpx2.TimeoutException, SearchTimeout, True, True, "did not answer in time"),
    (httpx2.ProxyError, SearchNetworkError, True, False, "could not be reached through the proxy"),
    (httpx2.ConnectError, SearchNetworkError, True, False, "could not be reached"),
    (httpx2.UnsupportedProtocol, SearchNetworkError, False, False, "has an unusable address"),
    (httpx2.InvalidURL, SearchNetworkError, False, False, "has an unusable address"),
    (httpx2.RemoteProtocolError, SearchNetworkError, True, True, "broke the connection"),
    (httpx2.LocalProtocolError, SearchProtocolError, False, False, "could not be sent the request"),
    (httpx2.ReadError, SearchNetworkError, True, True, "broke the connection"),
    (httpx2.WriteError, SearchNetworkError, True, True, "broke the connection"),
    (httpx2.CloseError, SearchNetworkError, True, True, "broke the connection"),
    (httpx2.NetworkError, SearchNetworkError, True, True, "could not be reached"),
    (httpx2.DecodingError, SearchProtocolError, False, True, "sent an undecodable answer"),
    (httpx2.TooManyRedirects, SearchProtocolError, False, True, "redirects too often"),
    (httpx2.HTTPStatusError, SearchUpstreamError, True, True, "answered with an error"),
    (httpx2.RequestNotRead, SearchProtocolError, False, False, "could not be sent the request"),
    (httpx2.ResponseNotRead, SearchProtocolError, False, True, "sent an unreadable answer"),
    (httpx2.StreamConsumed, SearchProtocolError, False, True, "sent an unreadable answer"),
    (httpx2.StreamClosed, SearchProtocolError, False, True, "sent an unreadable answer"),
    (httpx2.StreamError, SearchProtocolError, False, True, "sent an unreadable answer"),
    (httpx2.CookieConflict, SearchProtocolError, False, True, "sent an unreadable answer"),
    (httpx2.SSEError, SearchProtocolError, False, True, "sent an unreadable answer"),
    # Base classes (httpx2 raises their subclasses; listed so every export has a rule).
    (httpx2.ProtocolError, SearchNetworkError, True, True, "broke the connection"),
    (httpx2.TransportError, SearchNetworkError, True, True, "could not be reached"),
    (httpx2.RequestError, SearchNetworkError, True, True, "could not be reached"),
    (httpx2.HTTPError, SearchNetworkError, True, True, "could not be reached"),
    # Below httpx2: the TLS layer and the OS.
    (ssl.SSLError, SearchNetworkError, False, False, "failed the TLS handshake"),
    (TimeoutError, SearchTimeout, True, True, "did not answer in time"),
    (OSError, SearchNetworkError, True, False, "could not be reached"),
)


class _HideEndpoints(logging.Filter):
    """Drops httpx2's per-request log lines for provider endpoints.

    httpx2 logs ``HTTP Request: GET <full URL> …`` at INFO; for an operator endpoint that
    line would carry its internal address (SPEC §1.2: never in a log line). Our own
    ``search.request`` journal event records each request instead.
    """

    def __init__(self) -> None:
        super().__init__()
        self.bases: set[str] = set()

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args if isinstance(record.args, tuple) else ()
        return not any(str(arg).startswith(tuple(self.bases)) for arg in args)


_HIDDEN = _HideEndpoints()
logging.getLogger("httpx2").addFilter(_HIDDEN)


def translate_error(exc: BaseException, service: str) -> SearchError:
    """Our error for a transport failure (``raise translate_error(e, name) from e``).

    Args:
        exc: the exception from httpx2, the TLS layer or the OS.
        service: how to name the provider ("Brave Search API").

    Returns:
        a :class:`SearchError` subclass; ``details["request_sent"]`` says whether the request
        may have reached the provider (a paid call is then charged).
    """
    if isinstance(exc, SearchError):
        return exc
    for kind, cls, retryable, sent, tail in HTTPX_ERRORS:
        if isinstance(exc, kind):
            hint = _RETRY if retryable else f"{_CONFIG}; continue without web search"
            return cls(f"{service} {tail}", retryable=retryable, hint=hint, request_sent=sent)
    return SearchNetworkError(f"{service} failed", hint=_RETRY, request_sent=True)


def check_base_url(url: str, setting: str) -> str:
    """Validate an operator-configured base URL; return it without a trailing slash.

    Raises:
        ConfigurationError: not an absolute http(s) URL with a host (names the setting only).
    """
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigurationError(
            f"{setting} must be an absolute http(s) URL",
            hint="tell the operator; continue without web search",
            setting=setting,
        )
    return url.strip().rstrip("/")


class JSONEndpoint:
    """A provider's HTTP API: GET/POST JSON with one deadline, a size cap and classified errors.

    Args:
        base_url: the API origin (trusted operator configuration).
        service: how messages name the provider.
        timeout_s: deadline of one whole request, body included (seconds).
        headers: headers sent with every request (the key header; never logged).
        key_env: the key's environment variable (for the auth hint), or ``None``.
        secrets: values never repeated in an error (the key; some APIs echo it).
        user_agent: the User-Agent header.
        transport: an httpx2 transport seam (tests pass a mock transport).
        now_epoch: Unix time in seconds (Retry-After dates).
        max_bytes: body cap (bytes).
    """

    def __init__(
        self,
        base_url: str,
        *,
        service: str,
        timeout_s: float,
        headers: Mapping[str, str] | None = None,
        key_env: str | None = None,
        secrets: tuple[str, ...] = (),
        user_agent: str = DEFAULT_USER_AGENT,
        transport: httpx2.AsyncBaseTransport | None = None,
        now_epoch: Callable[[], float] = time.time,
        max_bytes: int = MAX_RESPONSE_BYTES,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        _HIDDEN.bases.add(self.base_url)
        self.service = service
        self.timeout_s = timeout_s
        self.key_env = key_env
        self._secrets = secrets
        self.max_bytes = max_bytes
        self._now_epoch = now_epoch
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

    async def get_json(self, path: str, params: Mapping[str, Any]) -> dict[str, Any]:
        """``GET {base}{path}?params`` → the JSON object (see :meth:`request_json`)."""
        return await self.request_json("GET", path, params=params)

    async def post_json(self, path: str, payload: Mapping[str, Any]) -> dict[str, Any]:
        """``POST {base}{path}`` with a JSON body → the JSON object (see :meth:`request_json`)."""
        return await self.request_json("POST", path, json_body=payload)

    async def request_json(
        self,
        method: str,
        path: str,
        *,
        params: Mapping[str, Any] | None = None,
        json_body: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Send one request and return the answer's JSON object.

        Raises:
            SearchError: classified by status (:func:`classify.classify_status`), transport
                failure (:func:`translate_error`), deadline (:class:`SearchTimeout`), size cap,
                a redirect, HTML or non-JSON bodies (:class:`SearchProtocolError`).
        """
        status, headers, body = await self.fetch(method, path, params=params, json_body=json_body)
        return self.interpret(status, headers, body)

    async def fetch(
        self,
        method: str,
        path: str,
        *,
        params: Mapping[str, Any] | None = None,
        json_body: Mapping[str, Any] | None = None,
    ) -> tuple[int, httpx2.Headers, bytes]:
        """Send one request; return (status, headers, body) or raise a translated error."""
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
                            raise SearchProtocolError(
                                f"{self.service} sent an answer larger than "
                                f"{self.max_bytes // (1024 * 1024)} MiB",
                                hint="continue without web search",
                                request_sent=True,
                            )
                    return response.status_code, response.headers, bytes(body)
        except SearchError:
            raise
        except TimeoutError:
            raise SearchTimeout(
                f"{self.service} did not answer within {self.timeout_s:g} s",
                hint=_RETRY,
                request_sent=True,
            ) from None
        except Exception as exc:
            raise translate_error(exc, self.service) from None

    def interpret(self, status: int, headers: httpx2.Headers, body: bytes) -> dict[str, Any]:
        """Classify an answer: the JSON object of a success, else raise the error."""
        error = classify_status(
            status,
            headers,
            body,
            service=self.service,
            now_epoch_s=self._now_epoch(),
            key_env=self.key_env,
            secrets=self._secrets,
        )
        if error is not None:
            error.details["request_sent"] = True
            raise error
        if 300 <= status < 400 or status < 200:
            raise SearchProtocolError(
                f"{self.service} redirected the request (HTTP {status})",
                hint=f"{_CONFIG} (use the final address, e.g. https); continue without web search",
                status=status,
                request_sent=True,
            )
        return decode_json(body, headers.get("content-type", ""), service=self.service)
