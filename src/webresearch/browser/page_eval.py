"""Reading values from a tab's top document with one CDP ``Runtime.evaluate``.

The library's ``page.evaluate`` first injects its helper script (its "utility script", a
13 kB serializer) into each new document, once per document, before it runs the function:
measured on Lightpanda, the first evaluation of a freshly opened page took 19.1 ms that way
and 9.8 ms as a plain ``Runtime.evaluate`` (later ones cost the same either way).
Readiness looks at every page it opens, and ``content``, the snapshot, the title and the
page size read it, so all of them go through :func:`evaluate_function` instead: the
function runs in the page's own world of the top document (what the library's
``page.evaluate`` uses too) and its result comes back as JSON (``returnByValue``): arrays,
objects, strings, numbers, booleans and ``null`` — nothing else is asked for.

The CDP session is duck-typed (``send(method, params)``), so this module does not import the
browser library; its protocol errors pass through (callers wrap the call in
:func:`~.page_errors.library_errors` or :func:`~.page_errors.best_effort`).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable
from typing import Any, Protocol

from ..errors import BrowserError
from ..types import JSONValue

__all__ = ["CDPSender", "evaluate_function"]


class CDPSender(Protocol):
    """The part of a CDP session used here."""

    def send(self, method: str, params: dict[str, Any] | None = None) -> Awaitable[Any]:
        """Send a CDP command; resolves to its result."""
        ...


async def evaluate_function(
    cdp: CDPSender, function_js: str, arg: JSONValue = None, *, what: str = "reading the page"
) -> object:
    """Call ``function_js`` (the source of a JavaScript function) in the tab's top document
    with ``arg`` (JSON data; ``None``: no argument) and return its value as JSON data
    (``what``: the action in words, for the error message).

    Raises:
        BrowserError: the function threw (the page broke a builtin it uses, or the
            document went away while it ran).
        Exception: the library's protocol error when the tab is gone or navigating.
    """
    reply: dict[str, Any] = await cdp.send(
        "Runtime.evaluate",
        {"expression": f"({function_js})({_literal(arg)})", "returnByValue": True},
    )
    if reply.get("exceptionDetails"):
        details = reply["exceptionDetails"]
        thrown = (details.get("exception") or {}).get("description") or details.get("text")
        first = str(thrown).splitlines()[0] if thrown else "an exception"
        raise BrowserError(f"{what} failed: a script of the page broke it ({first[:200]})")
    return (reply.get("result") or {}).get("value")


def _literal(arg: JSONValue) -> str:
    """``arg`` as a JavaScript literal (JSON is one; ``</script>`` and line separators
    are harmless in an expression), empty for ``None``."""
    return "" if arg is None else json.dumps(arg, ensure_ascii=True)
