"""web_fetch's note for a page without readable text points to the browser tool only where a
browser can run: with the browser turned off or not installed it says so instead of giving
advice the model cannot follow."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import LOOPBACK_ONLY
from tests.support.http_server import LocalServer, Route
from webresearch import Settings, Toolkit
from webresearch.runtime.journal import MemoryJournal
from webresearch.tools.page_text import EMPTY_HTML_NO_BROWSER_NOTE, EMPTY_HTML_NOTE

#: An app shell: a script draws the page, the HTML holds no text.
SHELL = (
    b"<!doctype html><html><head><title>App</title><script src='/app.js'></script></head>"
    b"<body><div id='root'></div></body></html>"
)


async def _fetch_shell(**values: Any) -> str:
    settings = Settings.load(
        environ={},
        allowed_networks=list(LOOPBACK_ONLY),
        journal_url="memory://",
        search_provider="none",
        **values,
    )
    route = Route(headers=[("Content-Type", "text/html; charset=utf-8")], body=SHELL)
    with LocalServer({"/": route}) as server:
        async with Toolkit(settings, journal=MemoryJournal()) as tk:
            result = await tk.call("web_fetch", {"url": server.base + "/"})
    assert result.ok, result.text
    return result.text


@pytest.mark.parametrize(
    "values",
    [
        {"browser_backend": "none"},  # turned off by the operator
        {"browser_backend": "chromium", "chromium_path": "/nonexistent/chrome"},  # not there
    ],
    ids=["browser-off", "browser-missing"],
)
async def test_no_browser_no_advice_to_use_it(values: dict[str, Any]) -> None:
    text = await _fetch_shell(**values)
    assert EMPTY_HTML_NO_BROWSER_NOTE in text
    assert "browser tool" not in text
    assert "built by JavaScript" in text


async def test_with_a_browser_the_note_points_to_it() -> None:
    # Lightpanda is installed (the test extra); render=never keeps web_fetch from using it.
    text = await _fetch_shell(browser_backend="lightpanda", render="never")
    assert EMPTY_HTML_NOTE in text
