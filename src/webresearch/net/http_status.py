"""HTTP error statuses → :class:`~webresearch.errors.HTTPStatusError`, shared by everything
that reports a model-chosen page's status (web_fetch and its page readers, fetch_image).

The error says the status and, where there is one, the next step; 408/425/429/5xx are
retryable, with ``retry_after`` (seconds) from ``Retry-After`` (delta-seconds or HTTP date,
RFC 9110 §10.2.3) when the server sent one.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any

from ..errors import HTTPStatusError
from .client import FetchResponse

__all__ = ["error_for_status", "retry_after_s", "status_error"]

#: Next steps for statuses with an obvious one (others have none).
_HINTS = {
    401: "the page needs a login; try another source",
    403: "the site refuses access to automated clients; try another source or the browser tool",
    404: "the page does not exist; check the URL or search for it",
    410: "the page was removed; search for another source",
}


def status_error(
    response: FetchResponse,
    shown: str,
    *,
    now: Callable[[], datetime] = lambda: datetime.now(UTC),
) -> HTTPStatusError:
    """The error for an HTTP error status (≥ 400).

    Args:
        response: the final response.
        shown: the redacted URL to name in the message.
        now: wall clock (to turn an HTTP-date ``Retry-After`` into seconds).
    """
    retry_after = retry_after_s(response.headers.get("retry-after"), now=now)
    return error_for_status(response.status, shown, retry_after=retry_after)


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
    hint = _HINTS.get(status)
    if status == 429 or status >= 500:
        hint = f"retry after {retry_after:g} s" if retry_after else "retry later"
    return HTTPStatusError(
        f"{shown} answered HTTP {status}",
        status=status,
        hint=hint,
        retry_after=retry_after,
        **details,
    )


def retry_after_s(
    value: str | None, *, now: Callable[[], datetime] = lambda: datetime.now(UTC)
) -> float | None:
    """Seconds to wait from a ``Retry-After`` value, or ``None`` when absent or unreadable."""
    if not value:
        return None
    try:
        return max(0.0, float(value.strip()))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
        return max(0.0, (when - now()).total_seconds())
    except (TypeError, ValueError):
        return None
