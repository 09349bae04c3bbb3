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


#: A saved page with root-relative and relative links and an image, and a fragment link.
SAVED = (
    b"<html><body><main><h1>Help</h1><p>" + b"Answers to common questions. " * 10 + b"</p>"
    b"<p>Still stuck? <a href='/contact'>Contact us</a> or read <a href='guide.html'>the "
    b"guide</a>; <a href='#top'>back to top</a>, <a href='https://other.example/'>elsewhere</a>."
    b"</p><img src='/img/team.jpg' alt='Our support team'></main></body></html>"
)


def test_a_saved_file_names_its_relative_links_left_without_a_target() -> None:
    result = asyncio.run(read_page(SAVED, "file:///tmp/saved/help.html"))
    assert result.ok
    assert "note: 3 relative links and images could not be resolved" in result.text
    assert "--base-url https://" in result.text


def test_with_a_web_address_or_a_base_element_there_is_no_such_note() -> None:
    served = asyncio.run(read_page(SAVED, "https://help.example/help"))
    based = SAVED.replace(b"<body>", b"<head><base href='https://help.example/'></head><body>")
    saved_with_base = asyncio.run(read_page(based, "file:///tmp/saved/help.html"))
    for result in (served, saved_with_base):
        assert result.ok
        assert "could not be resolved" not in result.text
