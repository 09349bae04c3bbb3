"""``read_page`` (``webresearch fetch -`` / ``fetch PATH``): an app shell read offline gets
advice a person can follow, not the model's "use the browser tool"."""

from __future__ import annotations

import asyncio

from webresearch import read_page

SHELL = b"<html><head><title>App</title></head><body><div id=root></div><script>x()</script></body></html>"


def test_an_empty_app_shell_names_the_clis_browser() -> None:
    result = asyncio.run(read_page(SHELL, "https://example.org/app"))
    assert result.ok
    assert "webresearch browse URL --do content" in result.text
    assert "browser tool" not in result.text


def test_a_page_with_text_has_no_empty_page_note() -> None:
    html = (
        b"<html><body><main><h1>Hello</h1><p>"
        + b"Plain words here. " * 20
        + b"</p></main></body></html>"
    )
    result = asyncio.run(read_page(html, "https://example.org/page"))
    assert "Plain words here." in result.text
    assert "no readable text" not in result.text
