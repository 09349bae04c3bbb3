"""Classifying a provider's answer into the SPEC §1.2 error codes. Pure functions, no I/O.

* 401, 403 → :class:`SearchAuthError` (``auth``, not retryable)
* 402, and Tavily's 432/433 → :class:`SearchQuotaError` (``quota``, not retryable)
* 429 → :class:`SearchRateError` (``rate``, retryable, ``retry_after``)
* 400, 422 and other 4xx → :class:`SearchBadRequest` (``bad_request``, not retryable)
* 404, 405, 410 → :class:`SearchProtocolError` (``protocol``: the base URL is wrong)
* 408 → :class:`SearchTimeout` (``timeout``, retryable)
* 5xx → :class:`SearchUpstreamError` (``upstream``, retryable)
* 2xx that is HTML, not JSON, or not a JSON object → :class:`SearchProtocolError`

Every message names the provider by its ``name`` ("Brave Search API", "the SearXNG
instance"): never its base URL, never a key. A short detail from the provider's JSON error
body is kept for ``bad_request`` only (it tells the model which argument to fix), with every
URL in it removed.

``retry_after`` (seconds) comes from ``Retry-After`` (delta-seconds or an HTTP-date, RFC 9110
§10.2.3) or else ``X-RateLimit-Reset``: delta-seconds, or a comma-separated list of windows as
Brave sends it (its docs: one value per window, paired with ``X-RateLimit-Remaining``; the
exhausted windows decide), or an epoch timestamp in seconds or milliseconds (values above
:data:`_EPOCH_THRESHOLD_S`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from email.utils import parsedate_to_datetime
from typing import Any

from ..errors import (
    SearchAuthError,
    SearchBadRequest,
    SearchError,
    SearchProtocolError,
    SearchQuotaError,
    SearchRateError,
    SearchTimeout,
    SearchUpstreamError,
)

__all__ = [
    "QUOTA_STATUSES",
    "classify_status",
    "decode_json",
    "error_detail",
    "looks_like_html",
    "retry_after_s",
]

#: Statuses meaning "quota or plan exhausted": 402 (SPEC §1.2) and Tavily's 432 (plan limit)
#: and 433 (pay-as-you-go limit), from Tavily's API reference.
QUOTA_STATUSES = frozenset({402, 432, 433})
#: An ``X-RateLimit-Reset`` above this is an epoch timestamp in seconds, not a delta
#: (1e9 s ≈ 2001-09-09; no window is 31 years long).
_EPOCH_THRESHOLD_S = 1e9
#: Longest provider detail kept in a bad_request message (characters).
_DETAIL_MAX_CHARS = 200
_URLISH = re.compile(r"[a-zA-Z][a-zA-Z0-9+.-]*://\S+|\b(?:\d{1,3}\.){3}\d{1,3}(?::\d+)?\S*")

_CONTINUE = "continue without web search, or try again later"


def retry_after_s(headers: Mapping[str, str], now_epoch_s: float) -> float | None:
    """Seconds to wait before retrying, from the rate-limit headers of an answer.

    Args:
        headers: response headers (case-insensitive mapping or lower-case keys).
        now_epoch_s: the current Unix time in seconds (for HTTP-dates and epoch resets).

    Returns:
        seconds (≥ 0), or ``None`` when no header says.
    """
    value = _header(headers, "retry-after")
    if value:
        seconds = _delta_or_date(value, now_epoch_s)
        if seconds is not None:
            return seconds
    reset = _header(headers, "x-ratelimit-reset")
    if not reset:
        return None
    resets = [_number(v) for v in reset.split(",")]
    remaining = [_number(v) for v in (_header(headers, "x-ratelimit-remaining") or "").split(",")]
    values = [r for r in resets if r is not None]
    if not values:
        return None
    seconds = min(values)
    if len(remaining) == len(resets):
        exhausted = [
            r for r, left in zip(resets, remaining, strict=True) if r is not None and left == 0
        ]
        if exhausted:
            seconds = max(exhausted)
    if seconds > _EPOCH_THRESHOLD_S * 1000:
        seconds /= 1000  # epoch milliseconds
    if seconds > _EPOCH_THRESHOLD_S:
        seconds -= now_epoch_s
    return max(0.0, seconds)


def _delta_or_date(value: str, now_epoch_s: float) -> float | None:
    number = _number(value)
    if number is not None:
        return max(0.0, number)
    try:
        when = parsedate_to_datetime(value.strip())
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        return None
    return max(0.0, when.timestamp() - now_epoch_s)


def _number(value: str) -> float | None:
    try:
        number = float(value.strip())
    except ValueError:
        return None
    return number if number == number and number not in (float("inf"), float("-inf")) else None


def _header(headers: Mapping[str, str], name: str) -> str | None:
    value = headers.get(name)
    if value is None:
        for key, candidate in headers.items():
            if key.lower() == name:
                return candidate
    return value


def error_detail(body: bytes, secrets: Iterable[str] = ()) -> str:
    """A short, address-free detail from a provider's JSON error body ("" when none).

    Understands the documented error shapes: Brave ``{"error": {"detail": …}}``, Tavily
    ``{"detail": {"error": …}}``, Exa ``{"error": …}``, FastAPI-style ``{"detail": [{"msg": …}]}``
    and ``{"message": …}``. URLs and IP addresses in it are replaced by ``[address]`` and
    every value of ``secrets`` (the provider's key, which some APIs echo) by ``[REDACTED]``.
    """
    try:
        data = json.loads(body[:65536])
    except (ValueError, UnicodeDecodeError):
        return ""
    text = _find_detail(data)
    if not text:
        return ""
    for secret in secrets:
        if secret:
            text = text.replace(secret, "[REDACTED]")
    text = _URLISH.sub("[address]", " ".join(text.split()))
    return text[:_DETAIL_MAX_CHARS]


def _find_detail(data: Any, depth: int = 0) -> str:
    if depth > 3:
        return ""
    if isinstance(data, str):
        return data
    if isinstance(data, list) and data:
        return _find_detail(data[0], depth + 1)
    if isinstance(data, dict):
        for key in ("detail", "error", "message", "msg"):
            if key in data:
                found = _find_detail(data[key], depth + 1)
                if found:
                    return found
    return ""


def classify_status(
    status: int,
    headers: Mapping[str, str],
    body: bytes,
    *,
    service: str,
    now_epoch_s: float,
    key_env: str | None = None,
    secrets: Iterable[str] = (),
) -> SearchError | None:
    """The error for a non-success answer, or ``None`` for 2xx/3xx.

    Args:
        status: HTTP status.
        headers: response headers.
        body: the (possibly partial) body, for the error detail.
        service: how to name the provider in messages ("Brave Search API").
        key_env: the key's environment variable, for the auth hint (``None`` when keyless).
        secrets: values never to repeat (the provider's key) in the error detail.
        now_epoch_s: current Unix time in seconds (Retry-After dates).

    Returns:
        the classified error, or ``None`` when the status is not an error.
    """
    if status < 400:
        return None
    if status in (401, 403):
        fix = f"the operator must check {key_env}" if key_env else "the operator must check access"
        return SearchAuthError(
            f"{service} refused the credentials (HTTP {status})",
            hint=f"{fix}; {_CONTINUE}",
            status=status,
        )
    if status in QUOTA_STATUSES:
        return SearchQuotaError(
            f"{service}: the plan's quota or credit is used up (HTTP {status})",
            hint="continue without web search",
            status=status,
        )
    if status == 429:
        wait = retry_after_s(headers, now_epoch_s)
        extra: dict[str, Any] = {} if wait is not None else {"hint": "retry later"}
        return SearchRateError(
            f"{service} is rate-limiting requests (HTTP 429)",
            retry_after=wait,
            status=status,
            **extra,
        )
    if status == 408:
        return SearchTimeout(f"{service} timed out (HTTP 408)", hint="retry later", status=status)
    if status in (404, 405, 410):
        return SearchProtocolError(
            f"{service} has no search endpoint at the configured address (HTTP {status})",
            hint=f"the operator must check the provider's base URL setting; {_CONTINUE}",
            status=status,
        )
    if status >= 500:
        return SearchUpstreamError(
            f"{service} failed on its side (HTTP {status})", hint="retry later", status=status
        )
    detail = error_detail(body, secrets)
    return SearchBadRequest(
        f"{service} rejected the query or its options (HTTP {status})"
        + (f": {detail}" if detail else ""),
        hint="change the query, language or country and try again",
        status=status,
    )


def looks_like_html(content_type: str, body: bytes) -> bool:
    """Whether an answer is an HTML page (an error page, a login wall, SearXNG's HTML UI)."""
    mime = content_type.split(";", 1)[0].strip().lower()
    if mime in ("text/html", "application/xhtml+xml"):
        return True
    head = body[:512].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    return head.startswith((b"<!doctype html", b"<html", b"<head", b"<body", b"<?xml"))


def decode_json(body: bytes, content_type: str, *, service: str) -> dict[str, Any]:
    """The JSON object of a success answer.

    Args:
        body: the body bytes.
        content_type: the Content-Type header ("" when absent).
        service: how to name the provider in messages.

    Returns:
        the decoded top-level object.

    Raises:
        SearchProtocolError: HTML instead of JSON, invalid JSON, or a JSON value that is not
            an object (never a "no results" answer).
    """
    if looks_like_html(content_type, body):
        raise SearchProtocolError(
            f"{service} answered with an HTML page instead of JSON",
            hint=f"the search backend is misconfigured; {_CONTINUE}",
            reason="html",
        )
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        raise SearchProtocolError(
            f"{service} answered with something that is not JSON",
            hint=f"the search backend is misconfigured or failing; {_CONTINUE}",
            reason="not_json",
        ) from None
    if not isinstance(data, dict):
        raise SearchProtocolError(
            f"{service} answered with JSON of an unexpected shape",
            hint=_CONTINUE,
            reason="shape",
        )
    return data
