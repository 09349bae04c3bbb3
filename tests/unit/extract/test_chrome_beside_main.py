"""A page footer longer than the page's ``<main>`` is still the footer: the whole-page
conversion removes it when the page says where its content is; chrome holding the page's
text with no such landmark beside it (an article in an ``<aside>``) still stays."""

from __future__ import annotations

from lxml import etree

from webresearch.extract.page_chrome import remove_page_chrome
from webresearch.extract.parse import parse_html

INTRO = (
    "<h1>Walking boots</h1><p>Our walking boots are made in the valley from waxed leather, "
    "resoled by the same workshop for as long as you wear them, and tested on the hill "
    "paths above the town before a pair leaves the shop.</p><p>Every pair comes with "
    "spare laces and a tin of wax.</p>"
)
COLUMNS = "".join(
    f"<div class='col'><h6>Column {c}</h6><ul>"
    + "".join(f"<li><a href='/help/{c}-{i}'>Help topic {c} number {i}</a></li>" for i in range(8))
    + "</ul></div>"
    for c in range(6)
)
DIALOG_TEXT = (
    "<div class='modal'><p>Looks like you are too far away to have an account with us, "
    "continue to the partner shop to check out in your own currency.</p></div>"
)


def text_of(html: str) -> str:
    body = parse_html(f"<html><body>{html}</body></html>").find("body")
    assert body is not None
    remove_page_chrome(body)
    return " ".join(" ".join(etree.ElementBase.itertext(body)).split())


def test_a_footer_longer_than_main_goes_beside_a_main_landmark() -> None:
    out = text_of(
        "<header><a href='/'>Shop</a></header>"
        f"<main>{INTRO}</main><footer>{COLUMNS}{DIALOG_TEXT}</footer>"
    )
    assert "resoled by the same workshop" in out
    assert "Help topic" not in out
    assert "too far away" not in out


def test_chrome_holding_the_text_stays_without_a_landmark_beside_it() -> None:
    story = "".join(
        f"<p>Paragraph {i} of the column set in a sidebar by the site's odd template, about "
        "the harbour cranes and the people who run them at night.</p>"
        for i in range(6)
    )
    # no <main>: the <aside> holds the page's text
    out = text_of(f"<div>{INTRO}</div><aside>{story}</aside>")
    assert "Paragraph 5 of the column" in out
    # a <main> too small to be the content (a heading): the <aside> still holds the text
    out = text_of(f"<main><h1>Column</h1></main><aside>{story}</aside>")
    assert "Paragraph 5 of the column" in out


def test_chrome_inside_or_around_main_is_judged_as_before() -> None:
    # a footer inside <main> is the content's own footer
    out = text_of(
        f"<main>{INTRO}<footer><p>Written by the workshop, spring 2026.</p></footer></main>"
    )
    assert "Written by the workshop" in out
    # a long <aside> inside <main>: its size still says it is content
    story = "".join(
        f"<p>Step {i}: wax the leather along every seam, then let it dry.</p>" for i in range(12)
    )
    out = text_of(f"<main>{INTRO}<aside>{story}</aside></main>")
    assert "Step 11: wax the leather" in out
