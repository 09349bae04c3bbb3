"""The HTTP edge of the hosted page services (Firecrawl, Jina Reader), with fetch-style errors.

Transport is :class:`webresearch.search.http.JSONEndpoint` (an operator-configured endpoint:
plain httpx2 client, ``trust_env=False``, no redirects, one deadline, a size cap, its
address filtered out of httpx2's log lines). What differs from search providers is the error
vocabulary: a page reader fails like web_fetch does (SPEC §3), so its errors are
:class:`~webresearch.errors.FetchError` subclasses — the service's status as
``http_status`` (retryable for 408/429/5xx, ``retry_after`` from ``Retry-After``), ``timeout``,
``network`` — whose message names the service ("Firecrawl answered HTTP 402 …") and never
its address or key, so a service failure is never mistaken for the site's own status.

:func:`classify_service_status` is pure; :class:`ServiceEndpoint` sends and translates.
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any
from urllib.parse import urlsplit

import httpx2

from ..config import DEFAULT_USER_AGENT
from ..errors import (
    ConfigurationError,
    FetchError,
    HTTPStatusError,
    NetworkError,
    SearchError,
    SearchNetworkError,
    SearchProtocolError,
    SearchTimeout,
    Timeout,
    WebResearchError,
)
from ..redact import REDACTED
from ..search.classify import error_detail, looks_like_html, retry_after_s
from ..search.http import JSONEndpoint
from .base import OnSent

__all__ = [
    "MAX_SERVICE_ANSWER_BYTES",
    "ServiceAnswer",
    "ServiceEndpoint",
    "classify_service_status",
    "decode_object",
    "reported_url",
    "service_base_url",
    "translate_transport",
]


class _HideSecrets(logging.Filter):
    """Removes the hosted services' secrets from the HTTP stack's own log records.

    httpcore2 traces responses at DEBUG, headers included; a service (or a proxy in front of
    it) that reflects our key or proxy token into a header would otherwise put it in a log
    line. Filters on a logger do not apply to its children's records, so the filter is
    attached to every ``httpcore2``/``httpx2`` logger that exists when an endpoint is built.
    """

    def __init__(self) -> None:
        super().__init__()
        self._values: set[str] = set()
        self._pattern: re.Pattern[str] | None = None

    def add(self, values: Iterable[str]) -> None:
        fresh = {v for v in values if len(v) >= 4} - self._values
        if not fresh:
            return
        self._values |= fresh
        ordered = sorted(self._values, key=len, reverse=True)
        self._pattern = re.compile("|".join(re.escape(v) for v in ordered))
        names = [n for n in list(logging.Logger.manager.loggerDict) if n.split(".")[0] in _STACK]
        for name in {*names, *_STACK}:
            logger = logging.getLogger(name)
            if self not in logger.filters:
                logger.addFilter(self)

    def filter(self, record: logging.LogRecord) -> bool:
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


_STACK = ("httpcore2", "httpx2")
_HIDDEN_SECRETS = _HideSecrets()

#: Largest service answer read (bytes): 2 MiB of page text as JSON, or a full-page
#: screenshot sent inline as base64 (5 MiB of image is ~6.7 MiB of base64).
MAX_SERVICE_ANSWER_BYTES = 16 * 1024 * 1024

_LATER = "try again later or use another tool"

#: Service statuses with a fixed reading (Firecrawl's "Errors" reference; Jina's errors
#: follow the same HTTP meanings).
_FIXED = {
    401: ("refused the API key", "the operator must check {key}; " + _LATER),
    402: ("reports the plan's credits are used up", "the operator must add credits; " + _LATER),
    403: ("refused the request", "the operator must check {key} and the plan; " + _LATER),
    404: ("has no such endpoint at the configured address", "the operator must check {base}"),
    405: ("has no such endpoint at the configured address", "the operator must check {base}"),
    410: ("has no such endpoint at the configured address", "the operator must check {base}"),
}


def _service_failure(message: str, *, status: int, **kwargs: Any) -> HTTPStatusError:
    """An ``http_status`` error of the SERVICE: its status is ``service_status`` only, so it
    never reads as the page's own status (``status`` is the site's)."""
    error = HTTPStatusError(message, status=status, **kwargs)
    error.details.pop("status", None)
    return error


def classify_service_status(
    status: int,
    headers: Mapping[str, str],
    body: bytes,
    *,
    service: str,
    service_id: str,
    key_setting: str,
    base_setting: str,
    now_epoch_s: float,
    secrets: Iterable[str] = (),
) -> FetchError | None:
    """The error for a service's non-success answer, or ``None`` for 2xx.

    * 401, 402, 403 → ``http_status``, not retryable (the operator must act);
    * 404, 405, 410 → ``http_status``, not retryable: the base URL is wrong;
    * 408 → ``timeout`` (the service gave up on the page), retryable;
    * 429 → ``http_status``, retryable, ``retry_after`` from ``Retry-After`` /
      ``X-RateLimit-Reset``;
    * 5xx → ``http_status``, retryable;
    * other 4xx (400, 422 …) → ``http_status``, not retryable, with the service's short
      reason (URLs and secrets removed): usually the page could not be loaded;
    * 3xx / 1xx → ``fetch_error``: a redirect is never followed (it could carry the key).

    Args:
        status: the service's HTTP status.
        headers: its response headers.
        body: its body (for the error reason).
        service: how to name it ("Firecrawl").
        service_id: its id (``firecrawl``), kept in the error's details as ``service``.
        key_setting: the environment variable of its key (for hints).
        base_setting: the environment variable of its base URL (for hints).
        now_epoch_s: Unix time in seconds (HTTP-date ``Retry-After``).
        secrets: values never repeated (the key; some services echo it).
    """
    if 200 <= status < 300:
        return None
    where: dict[str, Any] = {
        "service": service_id,
        "service_status": status,
        "request_sent": True,
    }
    if status < 200 or 300 <= status < 400:
        return FetchError(
            f"{service} answered with a redirect (HTTP {status}), which is not followed",
            hint=f"the operator must check {base_setting} (use the final address)",
            **where,
        )
    if status in _FIXED:
        what, hint = _FIXED[status]
        return _service_failure(
            f"{service} (the page service) {what} (HTTP {status})",
            status=status,
            retryable=False,
            hint=hint.format(key=key_setting, base=base_setting),
            **where,
        )
    if status == 408:
        return Timeout(
            f"{service} (the page service) gave up loading the page in time (HTTP 408)",
            hint="try again later or another source",
            **where,
        )
    if status == 429:
        wait = retry_after_s(headers, now_epoch_s)
        return _service_failure(
            f"{service} (the page service) is rate-limiting requests (HTTP 429)",
            status=status,
            retry_after=wait,
            hint=f"retry after {max(1, round(wait))} s" if wait is not None else "retry later",
            **where,
        )
    if status >= 500:
        return _service_failure(
            f"{service} (the page service) failed on its side (HTTP {status})",
            status=status,
            hint="retry later or use another tool",
            **where,
        )
    detail = error_detail(body, secrets)
    return _service_failure(
        f"{service} (the page service) could not read the page (HTTP {status})"
        + (f": {detail}" if detail else ""),
        status=status,
        retryable=False,
        hint="check the URL, or try another source",
        **where,
    )


def reported_url(reported: str, requested: str) -> str:
    """The page address a service reports, when it is one: an absolute http(s) URL with a
    host; else the address that was asked for (a service's odd ``url`` field such as ``"x"``
    must not become the page's address in the output). Pure."""
    parts = urlsplit(reported.strip()) if reported else None
    if parts is not None and parts.scheme in ("http", "https") and parts.hostname:
        return reported.strip()
    return requested


def decode_object(body: bytes, content_type: str, *, service: str) -> dict[str, Any]:
    """The JSON object of a service's success answer.

    Raises:
        FetchError: HTML, invalid JSON or not an object (``reason`` says which).
    """
    if looks_like_html(content_type, body):
        raise FetchError(
            f"{service} answered with an HTML page instead of JSON",
            hint="the operator must check the service's base URL; " + _LATER,
            reason="html",
            request_sent=True,
        )
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        raise FetchError(
            f"{service} answered with something that is not JSON",
            hint=_LATER,
            reason="not_json",
            request_sent=True,
        ) from None
    if not isinstance(data, dict):
        raise FetchError(
            f"{service} answered with JSON of an unexpected shape",
            hint=_LATER,
            reason="shape",
            request_sent=True,
        )
    return data


def service_base_url(url: str, setting: str) -> str:
    """An operator-configured service origin, without a trailing slash.

    Raises:
        ConfigurationError: not an absolute http(s) URL with a host (names the setting, never
            the value: a self-hosted address is internal).
    """
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigurationError(
            f"{setting} must be an absolute http(s) URL", hint="tell the operator", setting=setting
        )
    return url.strip().rstrip("/")


def translate_transport(exc: SearchError, service: str, timeout_s: float) -> WebResearchError:
    """The fetch-style error for a transport failure of :class:`JSONEndpoint`.

    ``request_sent`` is kept: a connection that never opened is not charged.
    """
    sent = bool(exc.details.get("request_sent", True))
    if isinstance(exc, SearchTimeout):
        return Timeout(
            f"{service} did not answer within {timeout_s:g} s",
            hint="try again later or use another tool",
            request_sent=sent,
        )
    if isinstance(exc, SearchNetworkError):
        return NetworkError(
            f"{service} could not be reached", hint="retry later", request_sent=sent
        )
    if isinstance(exc, SearchProtocolError):
        return FetchError(
            f"{service} sent an answer that could not be read", hint=_LATER, request_sent=sent
        )
    return FetchError(f"{service} failed", hint=_LATER, request_sent=sent)


class ServiceAnswer:
    """A service's answer: status, headers, body bytes."""

    __slots__ = ("body", "headers", "status")

    def __init__(self, status: int, headers: httpx2.Headers, body: bytes) -> None:
        self.status = status
        self.headers = headers
        self.body = body

    @property
    def content_type(self) -> str:
        """The ``Content-Type`` header ("" when absent)."""
        return self.headers.get("content-type", "")


class ServiceEndpoint:
    """One hosted page service's HTTP API (trusted operator configuration).

    Args:
        base_url: the service's origin (a secret when self-hosted: never shown).
        service: how messages name it ("Firecrawl").
        service_id: its id (``firecrawl``, ``jina``).
        key_setting: its key's environment variable (hints).
        base_setting: its base URL's environment variable (hints).
        timeout_s: deadline of one whole request, body included (seconds).
        headers: headers sent with every request (key, proxy headers; never logged).
        secrets: values never repeated in an error.
        user_agent: the User-Agent header.
        transport: httpx2 transport seam (tests).
        now_epoch: Unix time in seconds (Retry-After dates).
    """

    def __init__(
        self,
        base_url: str,
        *,
        service: str,
        service_id: str,
        key_setting: str,
        base_setting: str,
        timeout_s: float,
        headers: Mapping[str, str] | None = None,
        secrets: tuple[str, ...] = (),
        user_agent: str = DEFAULT_USER_AGENT,
        transport: httpx2.AsyncBaseTransport | None = None,
        now_epoch: Callable[[], float] = time.time,
    ) -> None:
        self.service = service
        self.service_id = service_id
        self.key_setting = key_setting
        self.base_setting = base_setting
        self.timeout_s = timeout_s
        self._secrets = secrets
        self._now_epoch = now_epoch
        _HIDDEN_SECRETS.add((*secrets, *(headers or {}).values(), base_url.rstrip("/")))
        self._endpoint = JSONEndpoint(
            base_url,
            service=service,
            timeout_s=timeout_s,
            headers=headers,
            secrets=secrets,
            user_agent=user_agent,
            transport=transport,
            now_epoch=now_epoch,
            max_bytes=MAX_SERVICE_ANSWER_BYTES,
        )

    async def aclose(self) -> None:
        """Close the connection pool."""
        await self._endpoint.aclose()

    async def send(
        self,
        method: str,
        path: str,
        *,
        json_body: Mapping[str, Any] | None = None,
        on_sent: OnSent | None = None,
    ) -> ServiceAnswer:
        """Send one request; return the success answer or raise the classified error.

        Args:
            method: ``GET`` or ``POST``.
            path: appended to the base URL (``/v2/scrape``, ``/https://example.org/``).
            json_body: JSON body of a POST.
            on_sent: called right before the request is handed to the transport.

        Raises:
            FetchError: see :func:`classify_service_status` and :func:`translate_transport`;
                ``details["request_sent"]`` says whether the service may have seen it.
        """
        if on_sent is not None:
            on_sent()
        try:
            status, headers, body = await self._endpoint.fetch(method, path, json_body=json_body)
        except SearchError as exc:
            raise translate_transport(exc, self.service, self.timeout_s) from None
        error = classify_service_status(
            status,
            headers,
            body,
            service=self.service,
            service_id=self.service_id,
            key_setting=self.key_setting,
            base_setting=self.base_setting,
            now_epoch_s=self._now_epoch(),
            secrets=self._secrets,
        )
        if error is not None:
            raise error
        return ServiceAnswer(status, headers, body)
