"""A call-to-action box inside or after an article is not content (extract/cta_boxes.py),
on pages of our own."""

from __future__ import annotations

from lxml import html as lxml_html

from webresearch.extract.align import page_text_size
from webresearch.extract.cta_boxes import after_prose, cta_boxes
from webresearch.extract.html import extract_html

URL = "https://loom-weekly.example.org/guides/warping-a-floor-loom"

PROSE = [
    f"<p>Step {i}: wind the warp on the board in a figure eight, keep the cross tied with "
    f"a contrasting thread and count the ends in groups of ten as you go.</p>"
    for i in range(6)
]

BOX = (
    "<div class='panel-soft'><h2>Weave along with our studio</h2>"
    "<p>Live lessons every Thursday evening for new weavers, with a teacher who answers "
    "your questions about warping and treadling as you go.</p>"
    "<a class='btn btn-primary' href='https://loom-weekly.example.org/join'>Start a free week</a>"
    "</div>"
)


def md(inner: str, declared: bool = True) -> str:
    head = "<meta property='og:type' content='article'>" if declared else ""
    html = (
        f"<!DOCTYPE html><html><head><title>Warping a floor loom</title>{head}</head><body>"
        "<header><nav><a href='/'>Home</a> <a href='/guides'>Guides</a></nav></header>"
        f"<main><article><h1>Warping a floor loom</h1>{inner}</article></main>"
        "<footer><p>© 2025 Loom Weekly</p></footer></body></html>"
    )
    return extract_html(html, URL).markdown


def test_a_call_to_action_box_inside_an_article_is_not_content() -> None:
    out = md("".join(PROSE[:3]) + BOX + "".join(PROSE[3:]))
    assert "Step 0: wind the warp" in out and "Step 5: wind the warp" in out
    assert "Weave along with our studio" not in out
    assert "Live lessons every Thursday" not in out


def test_the_same_box_printed_twice_goes_twice() -> None:
    out = md("".join(PROSE[:2]) + BOX + "".join(PROSE[2:4]) + BOX + "".join(PROSE[4:]))
    assert "Step 3: wind the warp" in out
    assert "Live lessons every Thursday" not in out


def test_a_listicles_entries_with_buttons_stay() -> None:
    entries = "".join(
        f"<div class='pick'><h2>{name}</h2><p>{name} ships a sturdy frame and a quiet "
        f"beater for small studios, and its maker answers questions about warping it.</p>"
        f"<a class='btn' href='/go/{i}'>Visit site</a></div>"
        for i, name in enumerate(("Harbor Loom", "Cedar Loom", "Juniper Loom"))
    )
    out = md("".join(PROSE[:3]) + entries + "".join(PROSE[3:]))
    assert "Harbor Loom ships a sturdy frame" in out
    assert "Juniper Loom ships a sturdy frame" in out


def test_a_box_opening_the_content_stays() -> None:
    # A listing's or a guide's head (its name, an intro, a button) opens the content.
    root = lxml_html.fromstring(f"<div>{BOX}{''.join(PROSE)}</div>")
    boxes = cta_boxes(root, page_text_size(root))
    assert len(boxes) == 1
    assert after_prose(root, boxes) == []


def test_a_button_in_a_flat_article_is_no_box() -> None:
    # Headings, paragraphs and a button side by side in the article's one container.
    flat = (
        "<h2>Download the pattern</h2><p>The draft for this warp is free to print, with "
        "the threading and the tie-up for a four-shaft loom.</p>"
        "<a class='button' href='/draft.pdf'>Download</a>"
    )
    out = md("".join(PROSE[:3]) + flat + "".join(PROSE[3:]))
    assert "The draft for this warp is free to print" in out


def test_a_page_not_declaring_an_article_keeps_its_boxes() -> None:
    out = md("".join(PROSE[:3]) + BOX + "".join(PROSE[3:]), declared=False)
    assert "Live lessons every Thursday" in out
