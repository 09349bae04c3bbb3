"""A product's summary column (name, price, short description) left out whole is kept."""

from __future__ import annotations

from lxml import etree

from webresearch.extract.align import text_segments
from webresearch.extract.html import extract_html
from webresearch.extract.parse import parse_html
from webresearch.extract.product_name import product_h1
from webresearch.extract.product_summary import keep_product_summary

DRAWER = (
    "<div id='drawer' class='off-canvas'><h1>Menu</h1><ul><li><a href='/kettles'>Kettles"
    "</a></li><li><a href='/pans'>Pans</a></li></ul></div>"
)
SHORT = (
    "A hand-hammered copper kettle for every hob that boils a litre and a half and "
    "whistles when it is ready; its spout pours without a drip, its lid stays on when "
    "you pour, and its beech handle stays cool."
)
BACKORDER = "Copper Kettle K2 - 2.0 l is backordered and will ship as soon as it is back in stock."
DETAILS = (
    "<section id='details'><h2>Product description</h2>"
    + "".join(
        f"<p>Detail {i}: the kettle's body is spun from a single sheet of copper, tinned "
        "inside, and its handle is turned from steamed beech that stays cool while the "
        "water boils.</p>"
        for i in range(4)
    )
    + "</section>"
)


def summary(price: str = "<span class='price'>£64.50</span> <span>incl. VAT</span>") -> str:
    """A summary column whose class names a sticky bar (a class trafilatura discards)."""
    return (
        "<div class='gallery'><img src='/k2.jpg' alt='Copper Kettle K2'></div>"
        "<div class='summary summary-sticky-bar'>"
        "<a class='brand' href='/b/hammer'>HAMMERWORKS</a>"
        f"<h1>Copper Kettle K2</h1><div>{price}</div>"
        "<div class='stock'>In stock (3)</div>"
        f"<div class='short'><p>{SHORT} <a href='#details'>Read more</a></p></div>"
        "<form><label>Volume</label><select><option>1.0 l</option><option>1.5 l</option>"
        "</select><button>Add to basket</button></form></div>"
    )


def page(body: str, title: str = "Hammerworks Copper Kettle K2 | Kettle Shop") -> str:
    return (
        f"<html><head><title>{title}</title></head><body>{DRAWER}"
        f"<div class='product'>{body}</div>{DETAILS}<footer>Kettle Shop Ltd</footer>"
        "</body></html>"
    )


def test_a_summary_column_left_out_whole_is_kept_with_its_price() -> None:
    markdown = extract_html(page(summary()), "https://kettles.example/k2").markdown
    assert SHORT in markdown
    assert "£64.50 incl. VAT" in markdown
    assert "In stock (3)" in markdown
    assert "Detail 3" in markdown
    for chrome in ("Read more", "Add to basket", "Volume", "Kettle Shop Ltd", "Pans"):
        assert chrome not in markdown
    assert markdown.index("£64.50") < markdown.index(SHORT) < markdown.index("Detail 0")


def test_without_a_price_under_the_name_the_column_stays_out() -> None:
    markdown = extract_html(
        page(summary(price="<span>Ships in two days</span>")), "https://kettles.example/k2"
    ).markdown
    assert "Detail 3" in markdown
    assert SHORT not in markdown


def test_a_status_line_is_no_description() -> None:
    column = summary().replace(f"<p>{SHORT} ", f"<p>{BACKORDER} ")
    markdown = extract_html(page(column), "https://kettles.example/k2").markdown
    assert "Detail 3" in markdown
    assert "backordered" not in markdown
    assert "£64.50" not in markdown  # the head stays out whole, as the extractor chose


def test_the_h1_the_title_names_is_the_products() -> None:
    doc = parse_html(page(summary()))
    body = doc.find("body")
    assert body is not None
    h1 = product_h1(body)
    assert h1 is not None and h1.text == "Copper Kettle K2"
    other = parse_html(page(summary(), title="Kettle Shop"))  # the title names neither
    other_body = other.find("body")
    assert other_body is not None
    assert product_h1(other_body) is None


def test_nothing_is_added_when_the_page_kept_nothing_after_the_head() -> None:
    doc = parse_html(page(summary()))
    body = doc.find("body")
    assert body is not None
    segments = list(text_segments(body))
    assert (
        keep_product_summary(body, segments, product_h1(body)) == 0
    )  # nothing kept: no description below
    for seg in segments:
        seg.kept = "detail" in seg.norm
    assert keep_product_summary(body, segments, product_h1(body)) > 0
    kept = "".join(seg.norm for seg in segments if seg.kept)
    assert "copperkettlek2" in kept and "handhammered" in kept
    assert "readmore" not in kept and "volume" not in kept


def test_an_element_tree_without_a_head_has_no_title_to_choose_by() -> None:
    body = etree.fromstring("<body><h1>Menu</h1><h1>Copper Kettle K2</h1></body>")
    assert product_h1(body) is None
