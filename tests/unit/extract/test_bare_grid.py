"""A shop's category grid with no prose (review, session 15), on small pages of our own.

trafilatura keeps fewer than 250 characters of such a page and falls back on its
baseline's last resort, the whole body's text in one paragraph; rendered as it was, the
output was the page's menu, filter labels and cards on one line, called main content.
"""

from __future__ import annotations

from lxml import etree

from webresearch.extract.html import extract_html
from webresearch.extract.parse import parse_html
from webresearch.extract.traf_pass import extraction_pass, is_whole_body_dump

URL = "https://teapots.example.org/collections/teapots"

CARDS = (
    ("tetsubin", "Iron Tetsubin", "$89.00"),
    ("glass-pot", "Glass Infuser Pot", "$34.00"),
    ("kyusu", "Side Handle Kyusu", "$56.00"),
    ("gaiwan", "Celadon Gaiwan", "$27.00"),
    ("travel", "Travel Tea Set", "$41.00"),
)


def grid_page(card: str, head: str = "<title>Teapots – Kettle &amp; Leaf</title>") -> str:
    cards = "".join(card.format(slug=s, name=n, price=p) for s, n, p in CARDS)
    return (
        f"<!DOCTYPE html><html><head>{head}</head><body>"
        "<header class='site-header'><a href='/' class='logo'>Kettle &amp; Leaf</a>"
        "<nav><ul><li><a href='/tea'>Loose tea</a></li><li><a href='/cups'>Cups</a></li>"
        "<li><a href='/gifts'>Gift boxes</a></li></ul></nav></header>"
        "<div class='page'><h1>Teapots</h1>"
        "<div class='collection-toolbar'><div class='filter'>"
        "<label for='material'>Material</label><select id='material'><option>Any</option>"
        "<option>Cast iron</option></select></div><div class='sort'>"
        "<label for='sort-by'>Sort by</label><select id='sort-by'><option>Best selling"
        "</option></select></div><span class='count'>5 products</span></div>"
        f"<div class='grid'>{cards}</div></div>"
        "<footer><p>© 2026 Kettle &amp; Leaf</p><a href='/shipping'>Shipping</a></footer>"
        "</body></html>"
    )


#: A card: picture link, name link, price, button (no text trafilatura keeps as content).
CARD = (
    "<div class='grid-item card'><a href='/products/{slug}'><img src='/i/{slug}.jpg' alt=''>"
    "</a><div class='card-info'><a class='card-title' href='/products/{slug}'>{name}</a>"
    "<div class='card-price'>{price}</div></div><button type='button'>Add to cart</button>"
    "</div>"
)


def test_trafilaturas_whole_body_text_is_marked() -> None:
    result = extraction_pass(parse_html(grid_page(CARD)), True, False)
    assert result is not None and result.whole_body
    article = "<p>A short article.</p>" * 3 + "<p>" + "Long enough words here. " * 20 + "</p>"
    result = extraction_pass(parse_html(f"<html><body>{article}</body></html>"), True, False)
    assert result is not None and not result.whole_body


def test_the_whole_body_shape() -> None:
    def body(inner: str) -> etree._Element:
        return etree.fromstring(f"<body>{inner}</body>")

    assert is_whole_body_dump(body("<p>Menu\nTeapots\n$89.00</p>"))
    assert not is_whole_body_dump(body("<p>One paragraph, whitespace collapsed.</p>"))
    assert not is_whole_body_dump(body("<p>a\nb</p><p>c</p>"))
    assert not is_whole_body_dump(body("<head>a\nb</head>"))


def test_a_grid_without_prose_is_the_cards_from_the_markup() -> None:
    result = extract_html(grid_page(CARD), URL)
    out = result.markdown
    # the cards: each name as its link, with its price
    for slug, name, price in CARDS:
        assert f"[{name}](https://teapots.example.org/products/{slug})" in out
        assert price in out
    assert out.index("Iron Tetsubin") < out.index("$89.00") < out.index("Glass Infuser Pot")
    # not one line of the whole page: no menu, footer, filter or sort labels, actions
    assert len(out.splitlines()) >= 2 * len(CARDS)
    for chrome in ("Loose tea", "Gift boxes", "Shipping", "Material", "Sort by", "5 products"):
        assert chrome not in out
    assert "Add to cart" not in out
    # said as what it is: no main content was found, the page was converted whole
    assert result.extractor == "whole-page"
    assert result.fallback is not None and "no main content" in result.fallback


def test_a_grid_kept_whole_is_said_to_be_so() -> None:
    # without form fields all of trafilatura's whole-body text is placed on the page: it
    # was rendered from the markup, yet called the main content, without a note
    page = grid_page(CARD)
    page = (
        page[: page.index("<div class='collection-toolbar'>")]
        + page[page.index("<div class='grid'>") :]
    )
    result = extract_html(page, URL)
    assert "[Celadon Gaiwan](https://teapots.example.org/products/gaiwan)" in result.markdown
    assert "Loose tea" not in result.markdown
    assert result.extractor == "whole-page"
    assert result.fallback is not None and "no main content" in result.fallback


#: A card trafilatura keeps (its line of prose), its name a linked heading.
PROSE_CARD = (
    "<div class='card'><h3><a href='/products/{slug}'>{name}</a></h3>"
    "<p class='price'>{price}</p><p>Thrown by hand in our workshop and glazed twice.</p></div>"
)


def untitled_grid(card: str) -> str:
    cards = "".join(card.format(slug=s, name=n, price=p) for s, n, p in CARDS)
    return (
        "<!DOCTYPE html><html><head></head><body><header><a href='/'>Kettle &amp; Leaf</a>"
        "<nav><a href='/tea'>Loose tea</a> <a href='/cups'>Cups</a></nav></header>"
        f"<main><div class='grid'>{cards}</div></main><footer><p>© Kettle</p></footer>"
        "</body></html>"
    )


def test_the_first_cards_name_is_no_page_title() -> None:
    # no <title>, no <h1>: the first card's heading named the page, then went from the
    # content as a repeat of the title (the other cards kept theirs)
    result = extract_html(untitled_grid(PROSE_CARD), URL)
    assert result.title == ""
    for slug, name, _ in CARDS:
        assert f"### [{name}](https://teapots.example.org/products/{slug})" in result.markdown
    assert result.markdown.index("Iron Tetsubin") < result.markdown.index("$89.00")
