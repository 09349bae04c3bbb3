"""Scrolling tickers read once (extract/marquee.py), on small pages of our own."""

from __future__ import annotations

from lxml import html as lxml_html

from webresearch.extract.html import extract_html
from webresearch.extract.marquee import collapse_marquees

URL = "https://quayside-design.example.com/services/label-design"

PROSE = "".join(
    f"<p>Step {i}: our studio sketches the label, prints a proof on the real bottle and "
    f"adjusts the colours until the shelf test in daylight looks right.</p>"
    for i in range(6)
)


def md(inner: str) -> str:
    html = (
        "<!DOCTYPE html><html><head><title>Label design</title></head><body>"
        "<header><nav><a href='/'>Home</a> <a href='/work'>Work</a></nav></header>"
        f"<main><h1>Label design</h1>{PROSE}{inner}</main>"
        "<footer><p>© 2024 Quayside Design</p></footer></body></html>"
    )
    return extract_html(html, URL).markdown


def test_a_ticker_repeating_a_call_to_action_is_read_once() -> None:
    ticker = (
        "<div class='ticker'><p>Bring your bottle to the studio and we start the same week, "
        "with a first proof in days.</p>"
        + "<span>Order a proof <span class='star'>*</span></span>" * 40
        + "</div>"
    )
    out = md(ticker)
    assert "Step 0: our studio" in out and "Step 5: our studio" in out
    assert out.count("Order a proof") == 1


def test_table_cells_and_separated_mentions_stay() -> None:
    root = lxml_html.fromstring(
        "<div><table><tr>" + "<td>PDF</td>" * 9 + "</tr></table>"
        "<p><b>Free</b> and <b>Free</b> and <b>Free</b> and <b>Free</b></p>"
        "<ul><li>Rush order</li><li>Rush order</li><li>Rush order</li></ul></div>"
    )
    assert collapse_marquees(root) == 0
    text = root.text_content()
    assert text.count("PDF") == 9 and text.count("Free") == 4 and text.count("Rush order") == 3


def test_collapse_marquees_keeps_the_first_copy_and_the_text_after_the_run() -> None:
    root = lxml_html.fromstring(
        "<div><div>" + "<span>Book now</span>" * 9 + "then more</div><p>After</p></div>"
    )
    assert collapse_marquees(root) == 8
    assert " ".join(root.text_content().split()) == "Book nowthen moreAfter"


def test_four_copies_of_a_short_text_are_the_pages_own_repetition() -> None:
    answers = "<ul>" + "<li>Yes</li>" * 4 + "</ul>"
    refrain = "<div>" + "<p>Never more.</p>" * 4 + "</div>"
    for block in (answers, refrain):
        root = lxml_html.fromstring(f"<div>{block}</div>")
        assert collapse_marquees(root) == 0
