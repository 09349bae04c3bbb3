"""Search's error vocabulary (SPEC §1.2): what an answer or a transport failure means, worded
as :class:`~webresearch.errors.SearchError` codes. Pure functions, no I/O.

The meaning of a status comes from :func:`webresearch.net.http_status.classify_status` (the
rules every service shares); here it becomes:

* 401, 403 → :class:`SearchAuthError` (``auth``, not retryable)
* 402, and Tavily's 432/433 → :class:`SearchQuotaError` (``quota``, not retryable)
* 429 → :class:`SearchRateError` (``rate``, retryable, ``retry_after``)
* 400, 422 and other 4xx → :class:`SearchBadRequest` (``bad_request``, not retryable)
* 404, 405, 410 → :class:`SearchProtocolError` (``protocol``: the base URL is wrong)
* 408 → :class:`SearchTimeout` (``timeout``, retryable)
* 5xx → :class:`SearchUpstreamError` (``upstream``, retryable)
* 1xx/3xx → :class:`SearchProtocolError` (a redirect is never followed: it could carry the key)
* 2xx that is HTML, not JSON, or not a JSON object → :class:`SearchProtocolError`

Every message names the provider by its ``name`` ("Brave Search API", "the SearXNG
instance"): never its base URL, never a key. A short detail from the provider's JSON error
body is kept for ``bad_request`` only (it tells the model which argument to fix), with every
URL in it removed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any, ClassVar

from ..errors import (
    SearchAuthError,
    SearchBadRequest,
    SearchError,
    SearchNetworkError,
    SearchProtocolError,
    SearchQuotaError,
    SearchRateError,
    SearchTimeout,
    SearchUpstreamError,
)
from ..hosted.endpoint import TransportFailure, transport_failure
from ..net.http_status import StatusVerdict, classify_status, json_object

__all__ = [
    "SEARCH_ERRORS",
    "SearchVocabulary",
    "decode_json",
    "search_error",
    "status_error",
    "translate_error",
]

_CONTINUE = "continue without web search, or try again later"
_RETRY = "retry later"
_CONFIG = "the operator must check the provider's base URL setting"


def search_error(verdict: StatusVerdict, *, service: str, key_env: str | None) -> SearchError:
    """The search error for a non-success answer.

    Args:
        verdict: what the answer means.
        service: how to name the provider in messages ("Brave Search API").
        key_env: the key's environment variable, for the auth hint (``None`` when keyless).
    """
    status = verdict.status
    if verdict.kind == "redirect":
        return SearchProtocolError(
            f"{service} redirected the request (HTTP {status})",
            hint=f"{_CONFIG} (use the final address, e.g. https); continue without web search",
            status=status,
        )
    if verdict.kind == "auth":
        fix = f"the operator must check {key_env}" if key_env else "the operator must check access"
        return SearchAuthError(
            f"{service} refused the credentials (HTTP {status})",
            hint=f"{fix}; {_CONTINUE}",
            status=status,
        )
    if verdict.kind == "quota":
        return SearchQuotaError(
            f"{service}: the plan's quota or credit is used up (HTTP {status})",
            hint="continue without web search",
            status=status,
        )
    if verdict.kind == "rate":
        wait = verdict.retry_after_s
        extra: dict[str, Any] = {} if wait is not None else {"hint": _RETRY}
        return SearchRateError(
            f"{service} is rate-limiting requests (HTTP 429)",
            retry_after=wait,
            status=status,
            **extra,
        )
    if verdict.kind == "timeout":
        return SearchTimeout(f"{service} timed out (HTTP 408)", hint=_RETRY, status=status)
    if verdict.kind == "not_found":
        return SearchProtocolError(
            f"{service} has no search endpoint at the configured address (HTTP {status})",
            hint=f"{_CONFIG}; {_CONTINUE}",
            status=status,
        )
    if verdict.kind == "upstream":
        error = SearchUpstreamError(
            f"{service} failed on its side (HTTP {status})", hint=_RETRY, status=status
        )
        if verdict.retry_after_s is not None:  # a 503's Retry-After: how long failover skips it
            error.details["retry_after"] = verdict.retry_after_s
        return error
    return SearchBadRequest(
        f"{service} rejected the query or its options (HTTP {status})"
        + (f": {verdict.detail}" if verdict.detail else ""),
        hint="change the query, language or country and try again",
        status=status,
    )


def status_error(
    status: int,
    headers: Mapping[str, str],
    body: bytes,
    *,
    service: str,
    now: datetime,
    key_env: str | None = None,
    secrets: Iterable[str] = (),
) -> SearchError | None:
    """The search error for an answer, or ``None`` for a 2xx success.

    Args:
        status: HTTP status.
        headers: response headers.
        body: the (possibly partial) body, for the error detail.
        service: how to name the provider in messages.
        now: the current time (Retry-After dates).
        key_env: the key's environment variable, for the auth hint.
        secrets: values never to repeat (the provider's key) in the error detail.
    """
    verdict = classify_status(status, headers, body, now=now, secrets=secrets)
    return None if verdict is None else search_error(verdict, service=service, key_env=key_env)


def decode_json(body: bytes, content_type: str, *, service: str) -> dict[str, Any]:
    """The JSON object of a success answer.

    Raises:
        SearchProtocolError: HTML instead of JSON, invalid JSON, or a JSON value that is not
            an object (never a "no results" answer).
    """
    data, reason = json_object(body, content_type)
    if data is not None:
        return data
    if reason == "html":
        message = f"{service} answered with an HTML page instead of JSON"
        hint = f"the search backend is misconfigured; {_CONTINUE}"
    elif reason == "not_json":
        message = f"{service} answered with something that is not JSON"
        hint = f"the search backend is misconfigured or failing; {_CONTINUE}"
    else:
        message, hint = f"{service} answered with JSON of an unexpected shape", _CONTINUE
    raise SearchProtocolError(message, hint=hint, reason=reason)


class SearchVocabulary:
    """Transport failures of a provider's endpoint as :class:`SearchError` codes."""

    _CLASSES: ClassVar[dict[str, type[SearchError]]] = {
        "timeout": SearchTimeout,
        "network": SearchNetworkError,
        "protocol": SearchProtocolError,
    }

    def transport(self, failure: TransportFailure, service: str) -> SearchError:
        """``network``, ``timeout`` or ``protocol``, naming the provider, never its address."""
        hint = _RETRY if failure.retryable else f"{_CONFIG}; continue without web search"
        if failure.kind == "network" and failure.retryable and not failure.sent:
            # nothing reached the provider: name the likely cause as web_fetch does
            hint = (
                "check whether this machine can reach the provider (network, DNS, proxy) "
                "and the provider's address setting; then retry"
            )
        return self._CLASSES[failure.kind](
            f"{service} {failure.tail}",
            retryable=failure.retryable,
            hint=hint,
            request_sent=failure.sent,
        )

    def deadline(self, service: str, timeout_s: float) -> SearchError:
        """``timeout``: the whole request took longer than the search timeout."""
        return SearchTimeout(
            f"{service} did not answer within {timeout_s:g} s", hint=_RETRY, request_sent=True
        )

    def too_large(self, service: str, max_bytes: int) -> SearchError:
        """``protocol``: the answer is larger than the cap."""
        return SearchProtocolError(
            f"{service} sent an answer larger than {max_bytes // (1024 * 1024)} MiB",
            hint="continue without web search",
            request_sent=True,
        )


#: The search vocabulary (stateless).
SEARCH_ERRORS = SearchVocabulary()


def translate_error(exc: BaseException, service: str) -> SearchError:
    """Our error for a transport failure (``raise translate_error(e, name) from None``).

    Returns:
        a :class:`SearchError` subclass; ``details["request_sent"]`` says whether the request
        may have reached the provider (a paid call is then charged). Our own errors pass.
    """
    if isinstance(exc, SearchError):
        return exc
    return SEARCH_ERRORS.transport(transport_failure(exc), service)
