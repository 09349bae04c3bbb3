"""A page URL that does not parse does not fail the extraction (review r-15 L4:
``extract_html`` raised ``ValueError`` for ``http://[bad/x``): the page is read, its links
made absolute only against a base that parses, on a page of our own."""

from __future__ import annotations

import pytest

from webresearch.extract.dispatch import convert
from webresearch.extract.html import extract_html
from webresearch.extract.title import url_title

PAGE = (
    "<html><head><title>Harbour notes</title>{base}</head><body><article><h1>Harbour</h1>"
    "<p>The tide table is <a href='/tides'>on the tides page</a>, and the pilot's notes "
    "<a href='https://pilots.example/notes'>on the pilots' site</a>; the harbour office opens "
    "at eight.</p></article></body></html>"
)


@pytest.mark.parametrize("url", ["http://[bad/x", "http://harbour.example:99999/", "http://[::1"])
def test_a_bad_page_url_still_gives_the_page(url: str) -> None:
    out = extract_html(PAGE.format(base=""), url)
    assert out.title == "Harbour notes"
    assert "harbour office opens at eight" in out.markdown
    assert "[on the pilots' site](https://pilots.example/notes)" in out.markdown
    assert "on the tides page" in out.markdown and "](/tides)" not in out.markdown


def test_a_base_href_that_parses_still_resolves_links() -> None:
    base = "<base href='https://harbour.example/guide/'>"
    out = extract_html(PAGE.format(base=base), "http://[bad/x")
    assert "[on the tides page](https://harbour.example/tides)" in out.markdown


@pytest.mark.parametrize("content_type", ["text/html", "text/plain"])
@pytest.mark.parametrize("url", ["http://[bad/x", "http://\udcff.org/notes"])
def test_an_untitled_page_at_a_bad_url_is_converted(content_type: str, url: str) -> None:
    """The name of an untitled page comes from its URL (title.url_title): a URL that does
    not split, or does not encode, gives none rather than an error (review, session 16)."""
    body = b"<p>The harbour office opens at eight.</p>"
    out = convert(body, content_type, url)
    assert "harbour office opens at eight" in out.text
    assert isinstance(out.title, str)


@pytest.mark.parametrize("url", ["http://\udcff.org/", "http://x.org/\ud800"])
def test_a_url_that_does_not_encode_still_gives_the_page(url: str) -> None:
    out = extract_html(PAGE.format(base=""), url)
    assert "harbour office opens at eight" in out.markdown


def test_url_title_of_a_bad_url_is_empty_or_its_name() -> None:
    assert url_title("http://[bad/x") == ""
    assert url_title("http://harbour.example/notes.txt") == "notes.txt"


@pytest.mark.parametrize("url", ["about:blank", "about:srcdoc", "data:text/html,<p>x</p>"])
def test_url_title_of_an_address_without_a_file_name_is_empty(url: str) -> None:
    """``about:blank`` was named ``blank``: the browser's header said ``title:`` empty and
    its ``content`` ``title: blank`` (review)."""
    assert url_title(url) == ""
    assert url_title("file:///srv/notes/tides.txt") == "tides.txt"
    assert url_title("/srv/notes/tides.txt") == "tides.txt"
