"""FAQ answers written straight into a ``<div>`` under their question are kept."""

from __future__ import annotations

from webresearch.extract.align import Segment, normalise, text_segments
from webresearch.extract.faq_answers import keep_faq_answers
from webresearch.extract.html import extract_html
from webresearch.extract.parse import parse_html
from webresearch.extract.tree import ancestor_where

INTRO = (
    "<p>A kettle that furs up boils more slowly and tastes of chalk, and in a hard-water town "
    "the scale comes back within weeks of the last clean, whatever the packet promises.</p>"
    "<p>We descaled six kettles every fortnight for a year with citric acid, vinegar and two "
    "branded tablets, weighing the flakes each time and timing a litre to the boil.</p>"
    "<p>Citric acid won on every count: it was the cheapest, it left no smell behind, and a "
    "single sachet cleared a month of scale from the thickest element we tested.</p>"
    "<p>Vinegar worked nearly as well but the kitchen smelled of chips for a day, and the "
    "tablets cost four times as much for the same result on the scales.</p>"
    "<h2>How we tested</h2>"
    "<p>Each kettle boiled ten litres a day of water from the same tap, which the water "
    "board rates as very hard, and was left to cool with the lid open between boils.</p>"
    "<p>Every other Sunday we emptied the kettles, weighed the dry flakes on a jeweller's "
    "scale, descaled them with the method under test and weighed what came away.</p>"
    "<p>The boiling time was measured with a stopwatch from the click of the switch to the "
    "click of the thermostat, three times a kettle, and the middle time was recorded.</p>"
    "<p>We also tasted a cup of plain hot water from each kettle after cleaning, because a "
    "descaler that leaves a taste behind is one nobody will keep using for long.</p>"
)
OUTRO = (
    "<h2>Our verdict</h2><p>Buy a bag of food-grade citric acid, keep it by the kettle, and "
    "descale before the scale shows: ten minutes once a month saves a new kettle a year.</p>"
)


def answer(question: str, text: str) -> str:
    return f"<h3>{question}</h3><div class='faq-answer'><strong>A:</strong> {text}</div>"


FAQ = (
    "<h2>Questions readers ask</h2>"
    + answer(
        "Can a kettle descale itself?",
        "No. The filter in the spout only catches flakes that have already broken off; the "
        "scale on the element and the walls stays until an acid dissolves it, so a kettle "
        "with a filter needs cleaning as often as one without.",
    )
    + answer(
        "How often should I descale?",
        "In a hard-water area once a month, in a soft-water area twice a year; if you see "
        "white flakes floating in a cup of tea you have left it too long already, and the "
        "element is working harder than it should on every boil.",
    )
)


def page(body: str) -> str:
    return (
        "<html><head><title>How to descale a kettle</title>"
        # a declared article: no second opinion fills the holes (main_content, step 4)
        '<script type="application/ld+json">{"@type": "Article"}</script></head><body>'
        "<nav><a href='/'>Home</a> <a href='/kitchen'>Kitchen</a></nav>"
        f"<main><article><h1>How to descale a kettle</h1>{body}</article></main>"
        "<footer><p>Kitchen Notes</p></footer></body></html>"
    )


def test_answers_under_question_headings_are_kept() -> None:
    markdown = extract_html(page(INTRO + FAQ + OUTRO), "https://kitchen.example/kettle").markdown
    assert "### Can a kettle descale itself?" in markdown
    assert "the scale on the element and the walls stays until an acid dissolves it" in markdown
    assert "once a month, in a soft-water area twice a year" in markdown
    assert "ten minutes once a month saves a new kettle a year" in markdown


def marked(body: str) -> list[Segment]:
    """The segments of ``body`` with every text outside a ``<div>`` marked kept (what
    trafilatura keeps of an article of paragraphs)."""
    doc = parse_html(f"<html><body><article>{body}</article></body></html>")
    segments = list(text_segments(doc.find("body")))
    for seg in segments:
        seg.kept = ancestor_where(seg.holder, lambda el: el.tag == "div", {}) is None
    return segments


def kept_text(segments: list[Segment]) -> str:
    return "".join(seg.norm for seg in segments if seg.kept)


def test_only_a_div_under_a_question_is_an_answer() -> None:
    box = (
        "<h3>About our shop</h3><div class='shop-box'>Kitchen Notes is a family shop in the "
        "old market hall, selling kettles, pans and knives since 1982, with free sharpening "
        "for every knife bought from us and a repair desk open on Saturday mornings.</div>"
    )
    segments = marked(INTRO + box + FAQ + OUTRO)
    assert keep_faq_answers(segments) > 0
    text = kept_text(segments)
    assert normalise("until an acid dissolves it") in text
    assert normalise("in a soft-water area twice a year") in text
    assert normalise("a family shop in the old market hall") not in text


def test_a_box_of_blocks_or_a_short_line_is_no_answer() -> None:
    blocks = (
        "<h3>Which kettle did best?</h3><div class='card'><p>The steel Brixton kettle kept "
        "the least scale of the six and boiled a litre fastest after a month of hard "
        "water, so it is the one we would buy again for a hard-water kitchen.</p></div>"
        "<h3>Is it safe?</h3><div>Yes.</div>"
    )
    segments = marked(INTRO + blocks + OUTRO)
    assert keep_faq_answers(segments) == 0


# Review 10, fault 3: an FAQ that ends the article (nothing kept after it).
def test_an_faq_at_the_end_of_the_article_is_kept() -> None:
    markdown = extract_html(page(INTRO + FAQ), "https://kitchen.example/kettle").markdown
    assert "## Questions readers ask" in markdown
    assert "### Can a kettle descale itself?" in markdown
    assert "the scale on the element and the walls stays until an acid dissolves it" in markdown
    assert "### How often should I descale?" in markdown
    assert "once a month, in a soft-water area twice a year" in markdown


def paragraphs_kept(html: str) -> list[Segment]:
    """The segments of ``html``'s body with the text of ``<p>`` elements marked kept
    (trafilatura drops a heading with no kept text after it)."""
    doc = parse_html(f"<html><body>{html}</body></html>")
    segments = list(text_segments(doc.find("body")))
    for seg in segments:
        seg.kept = ancestor_where(seg.holder, lambda el: el.tag == "p", {}) is not None
    return segments


SHOP_BOX = (
    "<h3>About our shop</h3><div class='shop-box'>Kitchen Notes is a family shop in the "
    "old market hall, selling kettles, pans and knives since 1982, with free sharpening "
    "for every knife bought from us and a repair desk open on Saturday mornings.</div>"
)


def test_a_trailing_faq_stops_at_the_first_text_that_is_no_answer() -> None:
    segments = paragraphs_kept(f"<article>{INTRO}{FAQ}{SHOP_BOX}{FAQ}</article>")
    assert keep_faq_answers(segments) > 0
    text = kept_text(segments)
    assert normalise("Questions readers ask") in text
    assert normalise("in a soft-water area twice a year") in text
    assert normalise("About our shop") not in text
    assert normalise("a family shop in the old market hall") not in text
    assert text.count(normalise("until an acid dissolves it")) == 1


def test_no_trailing_faq_outside_the_article_or_under_other_headings() -> None:
    outside = paragraphs_kept(f"<article>{INTRO}</article><aside>{FAQ}</aside>")
    assert keep_faq_answers(outside) == 0
    two_titles = paragraphs_kept(f"<article>{INTRO}<h2>More</h2>{FAQ}</article>")
    assert keep_faq_answers(two_titles) == 0
    shop = paragraphs_kept(f"<article>{INTRO}{SHOP_BOX}</article>")
    assert keep_faq_answers(shop) == 0


def test_questions_in_other_scripts_are_questions() -> None:
    for mark in ("\uff1f", "\u061f", "\u037e"):
        faq = FAQ.replace("itself?", f"itself{mark}").replace("descale?", f"descale{mark}")
        segments = paragraphs_kept(f"<article>{INTRO}{faq}</article>")
        assert keep_faq_answers(segments) > 0, mark
        assert normalise("in a soft-water area twice a year") in kept_text(segments), mark
