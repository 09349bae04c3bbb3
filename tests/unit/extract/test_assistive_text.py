"""A hidden block holding only screen-reader text is left out; a collapsed panel stays."""

from __future__ import annotations

import pytest
from lxml import etree

from webresearch.extract.assistive_text import only_assistive_text
from webresearch.extract.html import extract_html

INTRO = (
    "<h1>Walking boots</h1><p>Our walking boots are resoled by hand in the workshop behind the "
    "shop, and every pair is waxed twice before it leaves us for the hills and the moors.</p>"
    "<p>Each boot is cut from a single hide of full-grain leather tanned with oak bark in "
    "Devon, stitched with waxed linen thread on a Goodyear welt, and fitted with a Vibram sole "
    "that grips on wet rock, loose scree and the peat bogs of the high moors alike.</p>"
    "<p>Bring your old pair to the counter any weekday and we will tell you within a minute "
    "whether it can be resoled, what the work costs and when it will be ready again.</p>"
)


def card(name: str, hide: str) -> str:
    """A product card whose details are repeated for screen readers in a hidden list."""
    return (
        f"<div class='tile'><a href='/boots/{name.lower()}'>{name} boot</a> <span>£120</span>"
        f"<dl {hide}><dt class='sr-only'>Item name</dt><dd class='sr-only'>{name} boot</dd>"
        "<dt class='sr-only'>Item details</dt><dd class='sr-only'>The "
        f"{name} boot comes in four different leathers. The leather now selected is Chestnut "
        "and it costs one hundred and twenty pounds, with free resoling for the first two "
        "years.</dd><dt class='sr-only'>Item address</dt>"
        f"<dd class='visually-hidden'>/boots/{name.lower()}?colour=chestnut&amp;ref=category-grid"
        "</dd>"
        "</dl></div>"
    )


def page(body: str) -> str:
    return f"<html><head><title>Boots</title></head><body><main>{body}</main></body></html>"


@pytest.mark.parametrize("hide", ["hidden", "style='display:none'", "class='d-none'"])
def test_hidden_screen_reader_details_of_cards_are_left_out(hide: str) -> None:
    names = ("Fell", "Tor", "Dale", "Moss", "Crag", "Beck")
    markdown = extract_html(
        page(INTRO + "".join(card(n, hide) for n in names)), "https://b.example/"
    ).markdown
    assert "resoled by hand" in markdown
    assert "Crag boot" in markdown  # the visible card stays
    for text in ("Item details", "comes in four leathers", "colour=chestnut"):
        assert text not in markdown


def test_a_collapsed_panel_of_prose_stays() -> None:
    # A panel a button opens (collapsed_panels.py: hidden prose nothing opens goes).
    panel = (
        "<button aria-expanded='false' aria-controls='care'>Care notes</button>"
        "<div class='d-none' id='care'><h2>Care</h2><p>Brush off dried mud, let the boots dry away from a fire and "
        "wax them again every few walks; the leather stays supple and keeps the water out for "
        "years if it is fed like this through every winter. Laces wear first: a spare pair "
        "comes in the box, and we replace worn hooks and eyelets free of charge.</p>"
        "<span class='sr-only'>End of the care notes</span></div>"
    )
    markdown = extract_html(page(INTRO + panel), "https://b.example/").markdown
    assert "wax them again every few walks" in markdown


def test_only_assistive_text_reads_every_letter() -> None:
    block = etree.fromstring(
        "<div> <span class='sr-only'>ab <b class='sr-only'>cd</b></span><!-- x -->"
        "<span class='govuk-visually-hidden'>ef</span>. </div>"
    )
    assert only_assistive_text(block, 6)
    assert not only_assistive_text(block, 0)  # no text at all
    outside = (
        "<div><span class='sr-only'>ab</span>gh</div>",
        "<div>gh<i class='sr-only'>ab</i></div>",
    )
    for markup in outside:
        assert not only_assistive_text(etree.fromstring(markup), 4)
    assert only_assistive_text(etree.fromstring("<p class='screen-reader-text'>x</p>"), 1)
    assert not only_assistive_text(etree.fromstring("<p class='sr-only-focusable'>x</p>"), 1)
