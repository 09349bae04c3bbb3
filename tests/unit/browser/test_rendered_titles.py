"""The title of a rendered document that has none of its own, as web_fetch gives it
(tools/browser_reading.read_rendered, tools/page_text.format_document): a JSON or text file
the browser wraps in ``<pre>`` has an empty title (web_fetch: ``title:`` empty; the browser's
``content`` said ``title: data.json``: review), an untitled HTML page is named by its
address, ``about:blank`` is not named ``blank`` (review)."""

from __future__ import annotations

from typing import cast

import pytest

from webresearch.browser.page import PlaywrightSession
from webresearch.runtime.cpu_pool import CPUPool
from webresearch.tools.browser_reading import read_rendered

WRAPPED = (
    '<html><head><meta name="color-scheme" content="light dark"></head><body>'
    '<pre style="word-wrap: break-word; white-space: pre-wrap;">{"tide": "06:12"}</pre>'
    "</body></html>"
)
UNTITLED_PAGE = "<html><body><p>High water at 06:12, low water at 12:30.</p></body></html>"


class _Tab:
    def __init__(self, url: str, html: str, mime: str) -> None:
        self.url, self.body, self.mime = url, html, mime

    async def html(self) -> tuple[str, str, str, list[object], str]:
        return self.url, "", self.body, [], self.mime


async def _title(url: str, html: str, mime: str) -> str:
    tab = cast(PlaywrightSession, _Tab(url, html, mime))
    text, _doc, _facts = await read_rendered(tab, 100_000, CPUPool(0))
    return next(line for line in text.split("\n") if line.startswith("title:"))


@pytest.mark.parametrize("mime", ["application/json", "text/plain"])
async def test_a_wrapped_document_without_a_title_has_none(mime: str) -> None:
    assert await _title("http://127.0.0.1:8765/tides.json", WRAPPED, mime) == "title: "


@pytest.mark.parametrize("mime", ["text/html", "application/xhtml+xml", ""])
async def test_an_untitled_page_is_named_by_its_address(mime: str) -> None:
    title = await _title("http://127.0.0.1:8765/tides.html", UNTITLED_PAGE, mime)
    assert title == "title: tides.html"


async def test_about_blank_is_not_named_blank() -> None:
    assert await _title("about:blank", "<html><head></head><body></body></html>", "text/html") == (
        "title: "
    )
