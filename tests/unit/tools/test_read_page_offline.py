"""``read_page`` (``webresearch fetch -`` / ``fetch PATH``): an app shell read offline gets
advice a person can follow, not the model's "use the browser tool"."""

from __future__ import annotations

import asyncio

from webresearch import Settings, read_page

SHELL = b"<html><head><title>App</title></head><body><div id=root></div><script>x()</script></body></html>"


def test_an_empty_app_shell_names_the_clis_browser() -> None:
    result = asyncio.run(read_page(SHELL, "https://example.org/app"))
    assert result.ok
    assert "webresearch browse URL --do content" in result.text
    assert "browser tool" not in result.text


def test_with_the_browser_turned_off_the_note_suggests_no_browser() -> None:
    off = Settings.load(environ={}, browser_backend="none")
    result = asyncio.run(read_page(SHELL, "https://example.org/app", settings=off))
    assert result.ok
    assert "no browser is configured here" in result.text
    assert "webresearch browse" not in result.text


def test_a_page_with_text_has_no_empty_page_note() -> None:
    html = (
        b"<html><body><main><h1>Hello</h1><p>"
        + b"Plain words here. " * 20
        + b"</p></main></body></html>"
    )
    result = asyncio.run(read_page(html, "https://example.org/page"))
    assert "Plain words here." in result.text
    assert "no readable text" not in result.text


#: create-react-app's template: its only text is the <noscript> sentence.
CRA_SHELL = (
    b"<html><head><title>React App</title></head><body>"
    b"<noscript>You need to enable JavaScript to run this app.</noscript>"
    b"<div id='root'></div><script src='/static/js/main.js'></script></body></html>"
)


def test_a_shell_whose_only_text_asks_for_javascript_gets_the_note() -> None:
    result = asyncio.run(read_page(CRA_SHELL, "https://example.org/app"))
    assert result.ok
    assert "webresearch browse URL --do content" in result.text
    assert "You need to enable JavaScript" not in result.text


def test_a_page_that_mentions_loading_keeps_its_text() -> None:
    html = b"<html><body><p>Loading docks open at six; trucks unload until noon.</p></body></html>"
    result = asyncio.run(read_page(html, "https://example.org/docks"))
    assert "Loading docks open at six" in result.text
    assert "no readable text" not in result.text


def test_a_page_read_offline_reports_no_http_status() -> None:
    # Before: a saved file or stdin came back with "status": 200, a response that never was.
    result = asyncio.run(read_page(b"<p>Saved words.</p>", "file:///tmp/saved.html"))
    assert result.ok and "Saved words." in result.text
    assert result.meta["status"] is None
    assert result.meta["reader"] == "local"
