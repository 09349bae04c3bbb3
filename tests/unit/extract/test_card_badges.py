"""A listing's card badges ("Sold out", "New arrival" on card after card) are not content
(card_badges.py)."""

from __future__ import annotations

from lxml import etree

from webresearch.extract.card_badges import card_badges
from webresearch.extract.html import extract_html

URL = "https://shop.example.org/collections/teapots"

INTRO = (
    "<p>Our teapots are thrown by hand in a small workshop by the river, glazed in two "
    "firings and tested for drips before they leave us. A new range arrives each spring.</p>"
)


def _card(i: int, badge: str) -> str:
    return (
        f"<li class='card'><a href='/products/pot-{i}'>Stoneware teapot number {i}</a>"
        f"{badge}<span class='price'>$4{i}.00</span></li>"
    )


def _page(badges: list[str]) -> str:
    cards = "".join(_card(i, b) for i, b in enumerate(badges))
    return (
        "<!DOCTYPE html><html><head><title>Teapots</title></head><body>"
        "<nav><a href='/'>Home</a> <a href='/sale'>Offers</a></nav>"
        f"<main><h1>Teapots</h1>{INTRO}<ul class='grid'>{cards}</ul></main>"
        "<footer><p>© Example shop</p></footer></body></html>"
    )


def test_a_badge_on_card_after_card_goes() -> None:
    new = "<span class='badge'>New arrival</span>"
    markdown = extract_html(_page([new, "", new, new, "", ""]), URL).markdown
    assert "Stoneware teapot number 5" in markdown and "$45.00" in markdown
    assert "New arrival" not in markdown
    assert "A new range arrives each spring." in markdown


def test_a_single_badge_or_a_word_of_a_sentence_stays() -> None:
    root = etree.fromstring(
        "<div><span>Sold out</span><p>This is <b>New</b> and <b>New</b> and <b>New</b>.</p>"
        "<table><tr><td>New</td></tr><tr><td>New</td></tr><tr><td>New</td></tr></table></div>"
    )
    assert card_badges(root) == []


def test_repeated_badges_are_listed() -> None:
    root = etree.fromstring(
        "<ul>"
        + "".join(f"<li><a href='/p{i}'>Pot {i}</a><em> 3 Colors </em></li>" for i in range(3))
        + "</ul>"
    )
    assert [el.text for el in card_badges(root)] == [" 3 Colors "] * 3


def test_availability_labels_on_link_cards_stay() -> None:
    """A "Sold out" says the item is not on offer: never removed (review r16b)."""
    sold = "<span class='badge'>Sold out</span>"
    markdown = extract_html(_page([sold, "", sold, sold, "", ""]), URL).markdown
    assert markdown.count("Sold out") == 3


def test_labels_outside_a_grid_of_link_cards_stay() -> None:
    """A release's changes labelled "New" (no links) and "### New" headings are content."""
    changes = "".join(
        f"<li><span class='label'>New</span><span>Change number {i} to the tool.</span></li>"
        for i in range(4)
    )
    sections = "".join(
        f"<h2>Version {i}</h2><h3>New</h3><ul><li>Item {i}</li></ul>" for i in range(3)
    )
    root = etree.fromstring(f"<div><ul>{changes}</ul>{sections}</div>")
    assert card_badges(root) == []


def test_a_badge_in_one_long_section_with_links_is_not_a_card() -> None:
    long = "A paragraph of the article about glazes and kilns. " * 25
    root = etree.fromstring(
        "<div>"
        + "".join(
            f"<section><p>{long}</p><a href='/s{i}'>More</a><em>Exclusive</em></section>"
            for i in range(3)
        )
        + "</div>"
    )
    assert card_badges(root) == []


def test_a_count_badge_with_a_different_count_on_each_card_goes() -> None:
    """ "5 Colors", "2 Colors", "3 Colors": one template label, "{n} Colors", on card after
    card — each count may stand once only."""
    badges = [f"<span class='swatches'>{n} Colors</span>" for n in (5, 2, 3, 4)]
    markdown = extract_html(_page([*badges, "", ""]), URL).markdown
    assert "Stoneware teapot number 3" in markdown and "$43.00" in markdown
    assert "Colors" not in markdown
