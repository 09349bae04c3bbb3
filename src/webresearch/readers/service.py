"""The HTTP edge of the hosted page services (Firecrawl, Jina Reader), with fetch-style errors.

Transport is the shared operator endpoint (:class:`~webresearch.hosted.endpoint.OperatorEndpoint`:
plain httpx2 client, ``trust_env=False``, no redirects, one deadline, a size cap, its address
and secrets kept out of the HTTP stack's log lines); what a status means comes from
:func:`webresearch.net.http_status.classify_status`, the rules every service shares. What
differs from search providers is the error vocabulary: a page reader fails like web_fetch
does (SPEC §3), so its errors are :class:`~webresearch.errors.FetchError` subclasses — the
service's status as ``http_status`` (retryable for 408/429/5xx, ``retry_after`` from
``Retry-After``), ``timeout``, ``network`` — whose message names the service ("Firecrawl
answered HTTP 402 …") and never its address or key, so a service failure is never mistaken
for the site's own status.

:func:`classify_service_status` is pure; :class:`ServiceEndpoint` sends and translates.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

import httpx2

from ..config import DEFAULT_USER_AGENT
from ..errors import FetchError, HTTPStatusError, NetworkError, Timeout, WebResearchError
from ..hosted.endpoint import Answer, OperatorEndpoint, TransportFailure
from ..net.http_status import StatusVerdict, WallClock, classify_status, json_object, utc_now
from .base import OnSent

__all__ = [
    "MAX_SERVICE_ANSWER_BYTES",
    "ReaderVocabulary",
    "ServiceEndpoint",
    "classify_service_status",
    "decode_object",
    "reported_url",
]

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


def service_error(
    verdict: StatusVerdict,
    *,
    service: str,
    service_id: str,
    key_setting: str,
    base_setting: str,
) -> FetchError:
    """The fetch-style error for a service's non-success answer.

    * 401, 402, 403 → ``http_status``, not retryable (the operator must act);
    * 404, 405, 410 → ``http_status``, not retryable: the base URL is wrong;
    * 408 → ``timeout`` (the service gave up on the page), retryable;
    * 429 → ``http_status``, retryable, ``retry_after``;
    * 5xx → ``http_status``, retryable;
    * other 4xx (400, 422 …) → ``http_status``, not retryable, with the service's short
      reason (URLs and secrets removed): usually the page could not be loaded;
    * 3xx / 1xx → ``fetch_error``: a redirect is never followed (it could carry the key).

    Args:
        verdict: what the answer means.
        service: how to name it ("Firecrawl").
        service_id: its id (``firecrawl``), kept in the error's details as ``service``.
        key_setting: the environment variable of its key (for hints).
        base_setting: the environment variable of its base URL (for hints).
    """
    status = verdict.status
    where: dict[str, Any] = {"service": service_id, "service_status": status, "request_sent": True}
    if verdict.kind == "redirect":
        return FetchError(
            f"{service} answered with a redirect (HTTP {status}), which is not followed",
            hint=f"the operator must check {base_setting} (use the final address)",
            **where,
        )
    fixed = _FIXED.get(status) or (_FIXED[402] if verdict.kind == "quota" else None)
    if fixed is not None:
        what, hint = fixed
        return _service_failure(
            f"{service} (the page service) {what} (HTTP {status})",
            status=status,
            retryable=False,
            hint=hint.format(key=key_setting, base=base_setting),
            **where,
        )
    if verdict.kind == "timeout":
        return Timeout(
            f"{service} (the page service) gave up loading the page in time (HTTP 408)",
            hint="try again later or another source",
            **where,
        )
    if verdict.kind == "rate":
        wait = verdict.retry_after_s
        return _service_failure(
            f"{service} (the page service) is rate-limiting requests (HTTP 429)",
            status=status,
            retry_after=wait,
            hint=f"retry after {max(1, round(wait))} s" if wait is not None else "retry later",
            **where,
        )
    if verdict.kind == "upstream":
        return _service_failure(
            f"{service} (the page service) failed on its side (HTTP {status})",
            status=status,
            hint="retry later or use another tool",
            **where,
        )
    return _service_failure(
        f"{service} (the page service) could not read the page (HTTP {status})"
        + (f": {verdict.detail}" if verdict.detail else ""),
        status=status,
        retryable=False,
        hint="check the URL, or try another source",
        **where,
    )


def classify_service_status(
    status: int,
    headers: Mapping[str, str],
    body: bytes,
    *,
    service: str,
    service_id: str,
    key_setting: str,
    base_setting: str,
    now: datetime,
    secrets: Iterable[str] = (),
) -> FetchError | None:
    """The error for a service's answer (:func:`service_error`), or ``None`` for 2xx.

    Args:
        status: the service's HTTP status.
        headers: its response headers.
        body: its body (for the error reason).
        service: how to name it ("Firecrawl").
        service_id: its id (``firecrawl``).
        key_setting: the environment variable of its key (for hints).
        base_setting: the environment variable of its base URL (for hints).
        now: the current time (HTTP-date ``Retry-After``).
        secrets: values never repeated (the key; some services echo it).
    """
    verdict = classify_status(status, headers, body, now=now, secrets=secrets)
    if verdict is None:
        return None
    return service_error(
        verdict,
        service=service,
        service_id=service_id,
        key_setting=key_setting,
        base_setting=base_setting,
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
    data, reason = json_object(body, content_type)
    if data is not None:
        return data
    if reason == "html":
        message = f"{service} answered with an HTML page instead of JSON"
        hint = "the operator must check the service's base URL; " + _LATER
    elif reason == "not_json":
        message, hint = f"{service} answered with something that is not JSON", _LATER
    else:
        message, hint = f"{service} answered with JSON of an unexpected shape", _LATER
    raise FetchError(message, hint=hint, reason=reason, request_sent=True)


class ReaderVocabulary:
    """Transport failures of a page service as fetch errors (``request_sent`` kept: a
    connection that never opened is not charged).

    Args:
        timeout_s: the service's deadline (seconds), named by every timeout.
    """

    def __init__(self, timeout_s: float) -> None:
        self.timeout_s = timeout_s

    def transport(self, failure: TransportFailure, service: str) -> WebResearchError:
        """``network`` (``fetch_error`` when the answer could not be read)."""
        if failure.kind == "network":
            return NetworkError(
                f"{service} could not be reached", hint="retry later", request_sent=failure.sent
            )
        if failure.kind == "timeout":
            return Timeout(
                f"{service} did not answer within {self.timeout_s:g} s",
                hint=_LATER,
                request_sent=failure.sent,
            )
        return FetchError(
            f"{service} sent an answer that could not be read",
            hint=_LATER,
            request_sent=failure.sent,
        )

    def deadline(self, service: str, timeout_s: float) -> WebResearchError:
        """``timeout``: the service took longer than its deadline."""
        return Timeout(
            f"{service} did not answer within {timeout_s:g} s", hint=_LATER, request_sent=True
        )

    def too_large(self, service: str, max_bytes: int) -> WebResearchError:
        """``fetch_error``: the answer is larger than the cap."""
        return FetchError(
            f"{service} sent an answer that could not be read", hint=_LATER, request_sent=True
        )


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
        now: wall clock (Retry-After dates).
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
        now: WallClock = utc_now,
    ) -> None:
        self.service = service
        self.service_id = service_id
        self.key_setting = key_setting
        self.base_setting = base_setting
        self.timeout_s = timeout_s
        self._secrets = secrets
        self._now = now
        self._endpoint = OperatorEndpoint(
            base_url,
            service=service,
            vocabulary=ReaderVocabulary(timeout_s),
            timeout_s=timeout_s,
            max_bytes=MAX_SERVICE_ANSWER_BYTES,
            headers=headers,
            secrets=secrets,
            user_agent=user_agent,
            transport=transport,
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
    ) -> Answer:
        """Send one request; return the success answer or raise the classified error.

        Args:
            method: ``GET`` or ``POST``.
            path: appended to the base URL (``/v2/scrape``, ``/https://example.org/``).
            json_body: JSON body of a POST.
            on_sent: called right before the request is handed to the transport.

        Raises:
            FetchError: see :func:`service_error` and :class:`ReaderVocabulary`;
                ``details["request_sent"]`` says whether the service may have seen it.
        """
        if on_sent is not None:
            on_sent()
        answer = await self._endpoint.fetch(method, path, json_body=json_body)
        error = classify_service_status(
            answer.status,
            answer.headers,
            answer.body,
            service=self.service,
            service_id=self.service_id,
            key_setting=self.key_setting,
            base_setting=self.base_setting,
            now=self._now(),
            secrets=self._secrets,
        )
        if error is not None:
            raise error
        return answer
