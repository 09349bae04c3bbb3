"""A product card whose price was kept keeps its name (extract/card_titles.py)."""

from __future__ import annotations

from lxml import etree

from webresearch.extract.align import Segment, text_segments
from webresearch.extract.card_titles import keep_card_titles
from webresearch.extract.parse import parse_html

NAMES = ("Harbor Lamp", "Cedar Stool", "Linen Throw", "Stone Vase", "Oak Shelf")


def card(i: int, name: str) -> str:
    slug = name.lower().replace(" ", "-")
    return (
        f"<div class='pc_{slug} card-wrapper'><a href='/products/{slug}'>"
        f"<h2>{name}</h2><span class='card-title__sub'>Hand made</span></a>"
        f"<p class='price'>${40 + i}.00</p>"
        f"<a class='quick' href='/quick/{slug}'>Quick shop</a></div>"
    )


def segments_of(html: str) -> tuple[list[Segment], etree._Element]:
    body = parse_html(html).find("body")
    assert body is not None
    return list(text_segments(body)), body


def grid_page(cards: str) -> str:
    return f"<html><body><h1>Lamps</h1><div class='grid'>{cards}</div></body></html>"


def kept_text(segments: list[Segment]) -> str:
    return " ".join(s.norm for s in segments if s.kept)


def test_a_card_with_its_price_kept_keeps_its_name_and_title_line() -> None:
    segments, body = segments_of(grid_page("".join(card(i, n) for i, n in enumerate(NAMES))))
    for seg in segments:  # the extractor kept the prices only
        seg.kept = seg.norm.isdigit() or seg.norm == "lamps"
    added = keep_card_titles(body, segments)
    text = kept_text(segments)
    assert added > 0
    for name in NAMES:
        assert name.lower().replace(" ", "") in text
    assert "handmade" in text  # a class naming a title: the card's subtitle line
    assert "quickshop" not in text  # a button of the card is not its name


def test_a_card_with_nothing_kept_stays_out() -> None:
    segments, body = segments_of(grid_page("".join(card(i, n) for i, n in enumerate(NAMES))))
    for seg in segments:  # only the first card's price: the other cards were not chosen
        seg.kept = seg.norm == "4000"
    keep_card_titles(body, segments)
    text = kept_text(segments)
    assert "harborlamp" in text
    assert "cedarstool" not in text and "woolrug" not in text


def test_too_few_cards_are_no_grid() -> None:
    segments, body = segments_of(grid_page("".join(card(i, n) for i, n in enumerate(NAMES[:3]))))
    for seg in segments:
        seg.kept = seg.norm.isdigit()
    assert keep_card_titles(body, segments) == 0
    assert "harborlamp" not in kept_text(segments)


def test_without_prices_the_blocks_are_no_product_cards() -> None:
    cards = "".join(
        f"<div class='teaser'><a href='/posts/{i}'><h2>{n}</h2></a><p>{i} comments</p></div>"
        for i, n in enumerate(NAMES)
    )
    segments, body = segments_of(grid_page(cards))
    for seg in segments:
        seg.kept = "comments" in seg.norm
    assert keep_card_titles(body, segments) == 0
