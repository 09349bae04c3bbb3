"""Browser-library exceptions → our error tree, in one place.

The library is never imported here: its exceptions are recognised by class name and module
(:func:`is_library_error`), and messages are ours (the library's text can hold URLs of
redirect hops and call logs).
"""

from __future__ import annotations

import asyncio

from ..errors import (
    BlockedAddress,
    BrowserError,
    InvalidArguments,
    NetworkError,
    Timeout,
    UnsupportedContent,
    WebResearchError,
)
from .base import SessionConfig

__all__ = ["is_library_error", "map_error"]


def is_library_error(exc: BaseException, name: str) -> bool:
    return any(
        cls.__name__ == name and cls.__module__.startswith("playwright")
        for cls in type(exc).__mro__
    )


def map_error(exc: BaseException, what: str, config: SessionConfig) -> WebResearchError:
    """Translate a browser-library exception into our error tree (once, here).

    Messages are ours: the library's text can hold URLs of redirect hops and call logs.
    """
    if isinstance(exc, WebResearchError):
        return exc
    if isinstance(exc, (TimeoutError, asyncio.TimeoutError)) or is_library_error(
        exc, "TimeoutError"
    ):
        return Timeout(
            f"{what} timed out after {config.action_timeout_s:g} s",
            hint="try wait with a selector, or take a snapshot to see the page",
        )
    text = str(exc)
    first = text.splitlines()[0] if text else type(exc).__name__
    if "has been closed" in text or "Target closed" in text or "Connection closed" in text:
        return BrowserError(
            f"{what} failed: the browser tab was closed or crashed",
            hint="open the page again",
            retryable=True,
            session_lost=True,
        )
    if "net::ERR_NAME_NOT_RESOLVED" in text:
        return NetworkError(f"{what} failed: the host name does not resolve")
    if "net::ERR_CONNECTION_REFUSED" in text or "net::ERR_CONNECTION_RESET" in text:
        return NetworkError(f"{what} failed: the server refused or reset the connection")
    if "net::ERR_BLOCKED_BY_CLIENT" in text:
        return BlockedAddress(f"{what} was refused by the browser's request policy")
    if "Download is starting" in text:
        return UnsupportedContent(
            f"{what} failed: the URL is a file download, not a page the browser can show",
            hint="read it with web_fetch (text, PDF) or fetch_image (a picture)",
        )
    if "net::ERR_TUNNEL_CONNECTION_FAILED" in text:
        return NetworkError(
            f"{what} failed: the server could not be reached through the browser's guarded proxy"
        )
    if "net::ERR_" in text:
        code = text[text.index("net::ERR_") :].split()[0]
        return NetworkError(f"{what} failed: {code}")
    if "Unknown key" in text:
        return InvalidArguments(
            f"{what} failed: unknown key", hint="use a key name such as Enter, Tab, ArrowDown"
        )
    return BrowserError(f"{what} failed: {first[:200]}")
