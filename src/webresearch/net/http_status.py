"""HTTP answers → our errors: the one set of rules for every status we read. Pure, no I/O.

Two kinds of answers are judged here:

* **a page's own status** (web_fetch and its page readers, fetch_image, browser_open, the
  screenshot download): :func:`status_error` / :func:`error_for_status` give an
  :class:`~webresearch.errors.HTTPStatusError` naming the page; 408/425/429/5xx are
  retryable, with ``retry_after``.
* **an operator service's status** (search providers, hosted page readers, screenshot
  services): :func:`classify_status` gives a :class:`StatusVerdict` — what the answer means
  (``auth``, ``quota``, ``rate``, ``timeout``, ``not_found``, ``upstream``, ``rejected``,
  ``redirect``) with the wait and a short detail — and each caller words it in its own
  error vocabulary (search: SPEC §1.2 codes; readers: fetch codes).

``retry_after`` (seconds) comes from ``Retry-After`` (delta-seconds or an HTTP-date, RFC 9110
§10.2.3) or else ``X-RateLimit-Reset``: delta-seconds, or a comma-separated list of windows as
Brave sends it (one value per window, paired with ``X-RateLimit-Remaining``; the exhausted
windows decide), or an epoch timestamp in seconds or milliseconds (values above
:data:`EPOCH_THRESHOLD_S`). One clock: the caller's wall-clock ``now`` (an aware datetime).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any, Literal

from ..errors import BLOCKED_HINT, HTTPStatusError
from .client import FetchResponse

__all__ = [
    "EPOCH_THRESHOLD_S",
    "QUOTA_STATUSES",
    "StatusKind",
    "StatusVerdict",
    "WallClock",
    "classify_status",
    "error_detail",
    "error_for_status",
    "json_object",
    "looks_like_html",
    "retry_after_s",
    "status_error",
    "utc_now",
]

#: ``now()`` → the current time (an aware datetime); injected wherever time is read.
WallClock = Callable[[], datetime]


def utc_now() -> datetime:
    """The current time in UTC (the default :data:`WallClock`)."""
    return datetime.now(UTC)


#: Statuses meaning "quota or plan exhausted": 402 (SPEC §1.2) and Tavily's 432 (plan limit)
#: and 433 (pay-as-you-go limit), from Tavily's API reference.
QUOTA_STATUSES = frozenset({402, 432, 433})
#: An ``X-RateLimit-Reset`` above this is an epoch timestamp in seconds, not a delta
#: (1e9 s ≈ 2001-09-09; no window is 31 years long).
EPOCH_THRESHOLD_S = 1e9
#: Longest service detail kept for a rejected request (characters).
_DETAIL_MAX_CHARS = 200
_URLISH = re.compile(r"[a-zA-Z][a-zA-Z0-9+.-]*://\S+|\b(?:\d{1,3}\.){3}\d{1,3}(?::\d+)?\S*")

#: Next steps for a page's statuses with an obvious one (others have none).
_PAGE_HINTS = {
    401: "the page needs a login; try another source",
    403: BLOCKED_HINT,
    404: "the page does not exist; check the URL or search for it",
    410: "the page was removed; search for another source",
}

#: What an operator service's status means (see :func:`classify_status`).
StatusKind = Literal[
    "redirect", "auth", "quota", "rate", "timeout", "not_found", "upstream", "rejected"
]


@dataclass(frozen=True, slots=True)
class StatusVerdict:
    """What a service's non-success answer means.

    Attributes:
        status: the HTTP status.
        kind: ``redirect`` (1xx/3xx: never followed), ``auth`` (401/403), ``quota``
            (402/432/433), ``rate`` (429), ``timeout`` (408), ``not_found`` (404/405/410:
            the base URL is wrong), ``upstream`` (5xx), ``rejected`` (other 4xx: the query
            or the page was refused).
        retry_after_s: seconds to wait (``rate``: Retry-After or X-RateLimit-Reset;
            ``upstream``: Retry-After only), or ``None`` when not said.
        detail: a short, address-free reason from the body (``rejected`` only), or "".
    """

    status: int
    kind: StatusKind
    retry_after_s: float | None = None
    detail: str = ""


def classify_status(
    status: int,
    headers: Mapping[str, str],
    body: bytes,
    *,
    now: datetime,
    secrets: Iterable[str] = (),
) -> StatusVerdict | None:
    """What an operator service's answer means, or ``None`` for a 2xx success.

    Args:
        status: the HTTP status.
        headers: response headers (case-insensitive mapping or any case).
        body: the (possibly partial) body, for the detail of a rejected request.
        now: the current time (HTTP-date and epoch ``Retry-After`` values).
        secrets: values never repeated in the detail (a key some services echo).
    """
    if 200 <= status < 300:
        return None
    if status < 400:
        return StatusVerdict(status, "redirect")
    if status in (401, 403):
        return StatusVerdict(status, "auth")
    if status in QUOTA_STATUSES:
        return StatusVerdict(status, "quota")
    if status == 429:
        return StatusVerdict(status, "rate", retry_after_s(headers, now))
    if status == 408:
        return StatusVerdict(status, "timeout")
    if status in (404, 405, 410):
        return StatusVerdict(status, "not_found")
    if status >= 500:  # a 503 may say when to come back (RFC 9110 §10.2.3)
        value = _header(headers, "retry-after")
        wait = _delta_or_date(value, now.timestamp()) if value else None
        return StatusVerdict(status, "upstream", wait)
    return StatusVerdict(status, "rejected", detail=error_detail(body, secrets))


def retry_after_s(headers: Mapping[str, str], now: datetime) -> float | None:
    """Seconds to wait before retrying, from the rate-limit headers of an answer.

    Args:
        headers: response headers (case-insensitive mapping or any case).
        now: the current time.

    Returns:
        seconds (≥ 0), or ``None`` when no header says.
    """
    now_s = now.timestamp()
    value = _header(headers, "retry-after")
    if value:
        seconds = _delta_or_date(value, now_s)
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
    if seconds > EPOCH_THRESHOLD_S * 1000:
        seconds /= 1000  # epoch milliseconds
    if seconds > EPOCH_THRESHOLD_S:
        seconds -= now_s
    return max(0.0, seconds)


def _delta_or_date(value: str, now_s: float) -> float | None:
    number = _number(value)
    if number is not None:
        return max(0.0, number)
    try:
        when = parsedate_to_datetime(value.strip())
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        return None
    return max(0.0, when.timestamp() - now_s)


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
    """A short, address-free detail from a service's JSON error body ("" when none).

    Understands the documented error shapes: Brave ``{"error": {"detail": …}}``, Tavily
    ``{"detail": {"error": …}}``, Exa and Firecrawl ``{"error": …}``, FastAPI-style
    ``{"detail": [{"msg": …}]}`` and ``{"message": …}``. URLs and IP addresses in it are
    replaced by ``[address]`` and every value of ``secrets`` by ``[REDACTED]``.
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


def looks_like_html(content_type: str, body: bytes) -> bool:
    """Whether an answer is an HTML page (an error page, a login wall, SearXNG's HTML UI)."""
    mime = content_type.split(";", 1)[0].strip().lower()
    if mime in ("text/html", "application/xhtml+xml"):
        return True
    head = body[:512].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    return head.startswith((b"<!doctype html", b"<html", b"<head", b"<body", b"<?xml"))


def json_object(
    body: bytes, content_type: str
) -> tuple[dict[str, Any], None] | tuple[None, Literal["html", "not_json", "shape"]]:
    """The JSON object of a success answer, or why there is none: ``html`` (an HTML page),
    ``not_json`` (invalid JSON) or ``shape`` (JSON that is not an object)."""
    if looks_like_html(content_type, body):
        return None, "html"
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return None, "not_json"
    if not isinstance(data, dict):
        return None, "shape"
    return data, None


def status_error(response: FetchResponse, shown: str, *, now: datetime) -> HTTPStatusError:
    """The error for a page's HTTP error status (≥ 400).

    Args:
        response: the final response.
        shown: the redacted URL to name in the message.
        now: the current time (HTTP-date ``Retry-After``).
    """
    wait = retry_after_s(response.headers, now)
    return error_for_status(response.status, shown, retry_after=wait)


def error_for_status(
    status: int, shown: str, *, retry_after: float | None = None, **details: Any
) -> HTTPStatusError:
    """The error for a page's HTTP error status (≥ 400) when only the status is known
    (a page-reader service reports the site's status in its answer).

    Args:
        status: the page's HTTP status.
        shown: the redacted URL to name in the message.
        retry_after: seconds the site asked to wait, when known.
        **details: extra context (e.g. ``reader="firecrawl"``).
    """
    hint = _PAGE_HINTS.get(status)
    if status == 429 or status >= 500:
        hint = f"retry after {retry_after:g} s" if retry_after else "retry later"
    return HTTPStatusError(
        f"{shown} answered HTTP {status}",
        status=status,
        hint=hint,
        retry_after=retry_after,
        **details,
    )
