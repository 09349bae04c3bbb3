"""A page's explicit <main> with prose is not lost to a list of other items beside it."""

from __future__ import annotations

from webresearch.extract.align import text_segments
from webresearch.extract.html import extract_html
from webresearch.extract.landmark_pass import explicit_landmark, holds_landmark
from webresearch.extract.parse import parse_html

URL = "https://careers.example.org/openings/beekeeper"

OFFER = (
    "<h1>Assistant Beekeeper</h1>"
    "<p>Seasonal post at the Hill Farm apiary from April to October.</p>"
    "<p>You will inspect forty hives every week and harvest the honey and keep the "
    "records of every colony with the head beekeeper.</p>"
)


def offer_page(links: int, cards: int, title: str = "Openings at Hill Farm") -> str:
    """An offer in <main> between a <nav> of ``links`` other offers and an <aside> of
    ``cards`` cards."""
    nav = "".join(
        f"<a href='/openings/{i}'>Another opening with the number {i} in the orchard team</a>"
        for i in range(links)
    )
    aside = "".join(
        f"<div class='job'><a href='/o/{i}'>Farm hand post {i}</a><p>A farm hand post "
        f"elsewhere on the estate with other working hours, another pay scale and a "
        f"different start date for the applicant.</p></div>"
        for i in range(cards)
    )
    return (
        f"<!DOCTYPE html><html><head><title>{title}</title></head><body>"
        f"<nav>{nav}</nav><main>{OFFER}</main>"
        f"<aside><h2>Other openings</h2>{aside}</aside></body></html>"
    )


def test_main_offer_is_kept_over_an_aside_of_other_offers() -> None:
    result = extract_html(offer_page(20, 10), URL)
    assert result.extractor == "main-content"
    assert result.markdown.startswith("# Assistant Beekeeper\n")
    assert "inspect forty hives" in result.markdown
    assert "Other openings" not in result.markdown
    assert "Farm hand post" not in result.markdown


def test_a_short_main_is_not_a_reason_for_the_whole_page_fallback() -> None:
    result = extract_html(offer_page(0, 30), URL)
    assert (result.extractor, result.fallback) == ("main-content", None)
    assert "inspect forty hives" in result.markdown
    assert "Farm hand post" not in result.markdown


def test_the_landmark_is_main_or_the_only_article() -> None:
    def landmark(body: str) -> str | None:
        found = explicit_landmark(parse_html(f"<html><body>{body}</body></html>").find("body"))
        return None if found is None else found.tag

    assert landmark("<article>a</article><div role='main'>b</div>") == "div"
    assert landmark("<div><article>a</article></div>") == "article"
    assert landmark("<article>a</article><article>b</article>") is None


def test_a_main_without_a_sentence_is_no_evidence() -> None:
    body = parse_html(
        "<html><body><main><p>Loading the offer now</p></main><aside><p>other text</p>"
        "</aside></body></html>"
    ).find("body")
    segments = list(text_segments(body))
    for seg in segments:
        seg.kept = True
    segments[-1].kept = False
    assert not holds_landmark(segments, explicit_landmark(body))
