"""A template's Lorem ipsum filler is left out; a sentence about the filler, and a page about
it, stay."""

from __future__ import annotations

from webresearch.extract.html import extract_html
from webresearch.extract.parse import parse_html
from webresearch.extract.placeholders import placeholder_blocks

INVITE = (
    "<p>Join the regional water board's open evening on 12 March: engineers explain the new "
    "reservoir plan, the pipe replacement schedule and what it means for household bills.</p>"
    "<p>Seats are free but limited; register with your postcode so we can plan the room.</p>"
)
FILLER = (
    "<div class='speaker-cards'><h3>Lorem Ipsum</h3><p>Lorem ipsum dolor sit amet, consectetur "
    "adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut "
    "enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip.</p>"
    "<ul><li>Lorem ipsum 1</li><li>Lorem ipsum 2</li></ul></div>"
)
ABOUT = (
    "<p>Designers still paste lorem ipsum into mock-ups so that readers judge the layout "
    "rather than the wording of the page.</p>"
)


def page(body: str, title: str = "Open evening") -> str:
    return (
        f"<html><head><title>{title}</title></head><body><main><article><h1>{title}</h1>"
        f"{body}</article></main></body></html>"
    )


def test_lorem_ipsum_blocks_are_left_out() -> None:
    markdown = extract_html(page(INVITE * 2 + FILLER), "http://127.0.0.1/evening").markdown
    assert "reservoir plan" in markdown
    assert "lorem ipsum" not in markdown.lower()
    assert "dolor sit amet" not in markdown


def test_a_sentence_about_the_filler_stays() -> None:
    doc = parse_html(page(INVITE + ABOUT))
    assert placeholder_blocks(doc) == []


def test_a_page_about_lorem_ipsum_keeps_it() -> None:
    doc = parse_html(page(INVITE + FILLER, title="Where lorem ipsum comes from"))
    assert placeholder_blocks(doc) == []
