"""Result dates and engine names in one form whichever provider sent them. Pure, no I/O.

Providers give a result's date in their own form: SearXNG ``publishedDate`` and Brave
``page_age`` as ISO 8601 without a zone (``2024-01-15T10:04:15``), Exa ISO 8601 with
milliseconds and ``Z``, Tavily an RFC 2822 date (``Mon, 15 Jan 2024 10:00:00 GMT``), Brave's
``age`` a text (``January 15, 2024`` or ``2 days ago``). :func:`normalize_date` makes every
date ``YYYY-MM-DD`` (the date as the provider stated it, no zone conversion) and keeps any
other text as it is; :func:`normalize_engines` makes SearXNG's engine lists
``google, bing`` (lower case, each once, in the provider's order).
"""

from __future__ import annotations

from datetime import date, datetime
from email.utils import parsedate_to_datetime

__all__ = ["normalize_date", "normalize_engines"]

#: Written dates Brave's ``age`` and news sites use (English month names, as sent).
_WRITTEN = ("%B %d, %Y", "%b %d, %Y", "%d %B %Y", "%d %b %Y", "%B %d %Y", "%b %d %Y")
#: Plausible years of a web page (a year 1 or 9999 is a provider's placeholder).
_YEARS = range(1990, 2200)


def _parse(text: str) -> date | None:
    try:
        return datetime.fromisoformat(text).date()
    except ValueError:
        pass
    try:
        return parsedate_to_datetime(text).date()
    except (TypeError, ValueError, IndexError):
        pass
    for form in _WRITTEN:
        try:
            return datetime.strptime(text, form).date()
        except ValueError:
            continue
    return None


def normalize_date(value: str) -> str:
    """``YYYY-MM-DD`` when ``value`` is a date in a standard form, else ``value`` trimmed.

    A date outside 1990–2199 (a placeholder such as ``0001-01-01``) becomes "".

    Examples: ``2024-01-15T10:04:15`` → ``2024-01-15``; ``Mon, 15 Jan 2024 10:00:00 GMT``
    → ``2024-01-15``; ``January 15, 2024`` → ``2024-01-15``; ``2 days ago`` → itself.
    """
    text = value.strip()
    if not text:
        return ""
    parsed = _parse(text)
    if parsed is None:
        return text
    return parsed.isoformat() if parsed.year in _YEARS else ""


def normalize_engines(value: str) -> str:
    """``"Google, bing ,google"`` → ``"google, bing"``: lower case, each once, order kept."""
    seen: list[str] = []
    for part in value.split(","):
        name = part.strip().lower()
        if name and name not in seen:
            seen.append(name)
    return ", ".join(seen)
