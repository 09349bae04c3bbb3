"""A page URL that does not parse does not fail the extraction (review r-15 L4:
``extract_html`` raised ``ValueError`` for ``http://[bad/x``): the page is read, its links
made absolute only against a base that parses, on a page of our own."""

from __future__ import annotations

import pytest

from webresearch.extract.html import extract_html

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
