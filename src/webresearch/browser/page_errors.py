"""Browser-library exceptions → our error tree, in one place.

Every call into the browser library from a session runs inside one of two context managers:

* :func:`library_errors` — the action's own call: a library error (or a timeout) becomes our
  error (:func:`map_error`), named after what was being done;
* :func:`best_effort` — a call whose failure changes nothing for the caller (reading a title,
  answering a dialog, closing a tab that is already gone): a library error is dropped.

Anything else — our own errors, programming errors, cancellation — passes through both
untouched. The library is never imported here: its exceptions are recognised by class name
and module (:func:`is_library_error`), so this module loads without the optional dependency.
Messages are ours: the library's text can hold URLs of redirect hops and call logs.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Iterator

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

__all__ = [
    "best_effort",
    "is_library_error",
    "library_cause",
    "library_errors",
    "map_error",
    "own_words",
    "unreached_page",
]

#: The library's "Page.goto: " / "Locator.click: " / "Error: Page.goto: " message prefix.
_API_NAME = re.compile(r"^(?:Error: )?[A-Z]\w*\.\w+: ")
#: The protocol's "Protocol error (Page.navigate): " prefix of a failed command.
_PROTOCOL = re.compile(r"Protocol error \([\w.]+\): ")
#: The library's words for ``fill`` on an element that takes no text (a button, a link).
_NOT_A_FIELD = "Element is not an <input>, <textarea>, <select> or [contenteditable]"
#: A bare "Error: " left at the start of the library's text.
_BARE_ERROR = re.compile(r"^(?:Error: )+")
#: A URL in the library's text, with its quotes.
_URL = re.compile(r"\"?\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s\"]*\"?")


def is_library_error(exc: BaseException, name: str = "Error") -> bool:
    """True when ``exc`` is the browser library's exception class ``name`` (or a subclass):
    ``Error`` is the root of every Playwright error, ``TimeoutError`` its timeouts."""
    return any(
        cls.__name__ == name and cls.__module__.startswith("playwright")
        for cls in type(exc).__mro__
    )


def _translatable(exc: BaseException) -> bool:
    """A library error or a timeout (what a call into the browser may raise on its own)."""
    return isinstance(exc, TimeoutError) or is_library_error(exc)


@contextlib.contextmanager
def library_errors(what: str, config: SessionConfig) -> Iterator[None]:
    """Translate a library error raised in the block into our error tree.

    Args:
        what: the action in words (``"click"``, ``"reading the page"``), used in messages.
        config: the session settings (the action timeout named in timeout messages).

    Raises:
        WebResearchError: the translated error (see :func:`map_error`); other exceptions
            pass through unchanged.
    """
    try:
        yield
    except WebResearchError:
        raise
    except Exception as exc:
        if not _translatable(exc):
            raise
        raise map_error(exc, what, config) from None


def library_cause(error: WebResearchError) -> BaseException | None:
    """The library exception :func:`library_errors` translated into ``error`` (its text is
    the page's own for a script exception: ``evaluate`` returns it as a value), or
    ``None`` when ``error`` did not come from one."""
    cause = error.__context__
    return cause if cause is not None and is_library_error(cause) else None


@contextlib.contextmanager
def best_effort() -> Iterator[None]:
    """Drop a library error (or a timeout) raised in the block; anything else passes."""
    try:
        yield
    except Exception as exc:
        if not _translatable(exc):
            raise


def unreached_page() -> BrowserError:
    """The error of reading a tab that shows the guarded proxy's own 502 (the site could not
    be reached): its text is our proxy's words, not the site's page."""
    return BrowserError(
        "this tab shows no page of the site, only the guarded proxy's error answer: the "
        "site could not be reached",
        hint="check the URL, or try again later",
        error_page=True,
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
            hint="give a larger timeout_ms, wait with a selector, or take a snapshot to see "
            "the page",
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
    if "net::ERR_HTTP_RESPONSE_CODE_FAILURE" in text:
        return NetworkError(
            f"{what} failed: the server answered with an HTTP error status and an empty page",
            hint="try again later, or read the URL with web_fetch to see the status",
        )
    if _NOT_A_FIELD in text:
        return InvalidArguments(
            f"{what} failed: the element is not a text field (an input, a text area, a select "
            "or an editable element)",
            hint="fill a text field (take a snapshot to see the fields); to press a button, "
            "use click",
        )
    if "net::ERR_TUNNEL_CONNECTION_FAILED" in text:
        return NetworkError(
            f"{what} failed: the server could not be reached through the browser's guarded proxy"
        )
    if "net::ERR_" in text:
        code = text[text.index("net::ERR_") :].split()[0]
        return NetworkError(
            f"{what} failed: the browser could not load the page ({code})",
            hint="check the URL, or read it with web_fetch",
        )
    if "Unknown key" in text:
        return InvalidArguments(
            f"{what} failed: unknown key", hint="use a key name such as Enter, Tab, ArrowDown"
        )
    if "is interrupted by another navigation" in text:
        return BrowserError(
            f"{what} failed: another navigation of the tab interrupted it",
            hint="open the page again",
            retryable=True,
        )
    return BrowserError(f"{what} failed: {own_words(first)[:200]}")


def own_words(library_text: str) -> str:
    """A line of the library's text without its API and protocol names (``Page.goto: ``,
    ``Protocol error (Page.navigate): ``) and with every URL (quoted or not) said as
    "a URL" (a URL may be a redirect hop's, with secrets)."""
    text = _PROTOCOL.sub("", _BARE_ERROR.sub("", _API_NAME.sub("", library_text, count=1)))
    return _URL.sub("a URL", text).strip()
