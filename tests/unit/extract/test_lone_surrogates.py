"""A lone surrogate in a page (a DOM string may hold one) is U+FFFD and the text around it
is kept (extract/parse.py ``without_lone_surrogates``), on pages of our own."""

from __future__ import annotations

from webresearch.extract.html import extract_html
from webresearch.extract.parse import without_lone_surrogates

URL = "https://loaves.example.org/rye"
PROSE = (
    "<p>Our rye loaves rest overnight in cane baskets before they are baked on the stone "
    "floor of the oven, which keeps the crust thin and the crumb moist for days.</p>"
    "<p>Order before noon for collection the next morning at the shop on the market square.</p>"
)


def test_a_lone_surrogate_in_the_base_href_keeps_the_body() -> None:
    html = (
        "<html><head><title>Rye</title><base href='http://x/\ud800'></head>"
        f"<body><main><h1>Rye bread</h1>{PROSE}</main></body></html>"
    )
    result = extract_html(html, URL)
    assert "cane baskets" in result.markdown
    assert "market square" in result.markdown


def test_a_lone_surrogate_in_the_text_is_replaced_and_the_rest_kept() -> None:
    html = (
        "<html><head><title>Rye</title></head><body><main><h1>Rye bread</h1>"
        f"<p>The starter \udc80 is fed twice a day.</p>{PROSE}</main></body></html>"
    )
    result = extract_html(html, URL)
    assert "The starter \ufffd is fed twice a day." in result.markdown
    assert "market square" in result.markdown


def test_without_lone_surrogates_leaves_valid_text_alone() -> None:
    text = "Grüße “aus” Köln 😀"
    assert without_lone_surrogates(text) is text
    assert without_lone_surrogates("a\ud800b\udfffc") == "a\ufffdb\ufffdc"
