"""Defensive readers for provider JSON: odd fields never crash, missing containers are errors.

Documented containers (``results``) must be present and of the right type, or the answer is
a :class:`~webresearch.errors.SearchProtocolError` (never "no results"); fields inside an
item are read leniently (``null`` title, a number where a string was expected, extra keys).
"""

from __future__ import annotations

from typing import Any

from ..errors import SearchProtocolError

__all__ = ["items", "require_list", "text"]


def require_list(data: dict[str, Any], key: str, *, service: str) -> list[Any]:
    """``data[key]`` when it is a list.

    Raises:
        SearchProtocolError: the key is missing or not a list (the answer is not the
            documented format).
    """
    value = data.get(key)
    if not isinstance(value, list):
        raise SearchProtocolError(
            f"{service} answered without a {key!r} list (not the documented format)",
            hint="the search backend is misconfigured or changed its API; continue without web search",
            reason="shape",
        )
    return value


def items(value: Any) -> list[dict[str, Any]]:
    """The dict items of a list (other items are skipped); ``[]`` for a non-list."""
    if not isinstance(value, list):
        return []
    return [item for item in value if isinstance(item, dict)]


def text(value: Any) -> str:
    """A field as text: strings as is, numbers formatted, anything else ``""``."""
    if isinstance(value, str):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    return ""
