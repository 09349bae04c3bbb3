"""Shop pages: a product's content without its review and recommendation widgets; a
category at a product-like address; FAQ answers folded in accordions."""

from __future__ import annotations

from webresearch.extract.html import html_to_markdown
from webresearch.extract.page_noise import hidden_blocks, visible_text_size
from webresearch.extract.page_type import item_page_landmark
from webresearch.extract.parse import parse_html
from webresearch.extract.product import (
    assistive_copies,
    is_shop_page,
    product_grid,
    recommendation_sections,
    review_items,
    tooltips,
)

PRODUCT_URL = "https://shop.example.org/products/harbour-crane-x1"
LD = (
    '<script type="application/ld+json">{"@context": "https://schema.org", "@type": "Product",'
    ' "name": "Harbour Crane Model X1", "offers": {"@type": "Offer", "price": "1999.00",'
    ' "priceCurrency": "EUR"}}</script>'
)
DESCRIPTION = (
    "<div class='description'><h2>Description</h2>"
    + "".join(
        f"<p>Point {i}: the X1 crane lifts forty tonnes at a reach of thirty metres, folds "
        f"onto one trailer and runs on a quiet electric drive all night long.</p>"
        for i in range(5)
    )
    + "<table><tr><th>Lifting capacity</th><td>40 t</td></tr>"
    "<tr><th>Reach</th><td>30 m</td></tr></table></div>"
)
REVIEWS = (
    "<section class='reviews'><h2>Customer reviews</h2><p>4.6 out of 5 stars, 212 ratings</p>"
    + "".join(
        f"<div class='review-card'><b>Reviewer {name}</b> <span>May {i + 3}, 2025</span>"
        f"<p>My crew loves it, the quay has never been this calm at night, number {i}.</p></div>"
        for i, name in enumerate(("Ada", "Brook", "Cyril"))
    )
    + "</section>"
)
SIMILAR = (
    "<div class='carousel-wrap'><h2>Customers also viewed</h2><ul>"
    + "".join(
        f"<li><a href='/products/crane-{i}'>Tower crane toy number {i}</a> <span>$19.99</span></li>"
        for i in range(8)
    )
    + "</ul></div>"
)


def page(body: str, head: str = "", title: str = "Harbour Crane Model X1") -> str:
    return (
        f"<!DOCTYPE html><html><head><title>{title}</title>{head}</head><body>{body}</body></html>"
    )


def product_page() -> str:
    return page(
        "<header><nav><a href='/'>Shop</a></nav></header>"
        f"<main><h1>Harbour Crane Model X1</h1><p class='price'>€1,999.00</p>{DESCRIPTION}"
        f"{SIMILAR}{REVIEWS}</main><footer>© Crane Shop</footer>",
        head=LD,
    )


def test_a_products_reviews_and_recommendations_are_left_out_its_facts_stay() -> None:
    out = html_to_markdown(product_page(), PRODUCT_URL)[1]
    assert "Point 3: the X1 crane lifts forty tonnes" in out
    assert "Lifting capacity" in out and "40 t" in out
    assert "the quay has never been this calm" not in out  # the individual reviews
    assert "Reviewer Ada" not in out
    assert "Tower crane toy number" not in out  # "Customers also viewed"


def test_review_items_are_the_repeated_reviews_not_the_rating_summary() -> None:
    body = parse_html(product_page()).find("body")
    assert body is not None
    items = review_items(body)
    assert [el.get("class") for el in items] == ["review-card"] * 3
    assert all("4.6 out of 5" not in "".join(el.itertext()) for el in items)


def test_a_recommendation_section_is_the_block_its_heading_opens() -> None:
    body = parse_html(product_page()).find("body")
    assert body is not None
    assert [el.get("class") for el in recommendation_sections(body)] == ["carousel-wrap"]


def test_only_shop_pages_lose_review_blocks() -> None:
    doc = parse_html(page(f"<main><article>{REVIEWS}</article></main>", title="Crane reviews"))
    assert not is_shop_page(doc, "https://magazine.example.org/2025/crane-reviews", frozenset())
    assert is_shop_page(doc, PRODUCT_URL, frozenset())
    assert is_shop_page(doc, "https://shop.example.org/x1", frozenset({"og:product"}))
    micro = parse_html(page("<div itemscope itemtype='https://schema.org/Product'>X1</div>"))
    assert is_shop_page(micro, "https://shop.example.org/x1", frozenset())
    out = html_to_markdown(
        page(f"<main><article>{DESCRIPTION}{REVIEWS}</article></main>", title="Crane reviews"),
        "https://magazine.example.org/2025/crane-reviews",
    )[1]
    assert "the quay has never been this calm at night, number 1" in out


def grid_page() -> str:
    cards = "".join(
        f"<div class='card'><div class='img'><a href='/products/lock-{i}'><img src='/i/{i}.jpg'"
        f" alt=''></a></div><div class='info'><a class='name' href='/products/lock-{i}'>Heavy "
        f"duty folding bike lock model {i} with two keys</a><div class='price'><span>"
        f"${20 + i}.99</span></div></div></div>"
        for i in range(16)
    )
    intro = "Our bike locks keep your bike where you left it, day and night, in every weather. "
    return page(
        "<header><nav><a href='/'>Home</a></nav></header><main><h1>Bike locks</h1>"
        f"<p>{intro * 3}</p><div class='grid'>{cards}</div></main><footer>© Locks</footer>",
        title="Bike locks",
    )


def test_a_category_grid_at_a_product_address_is_read_as_a_collection() -> None:
    body = parse_html(grid_page()).find("body")
    assert body is not None
    assert product_grid(body)
    found = item_page_landmark(body, 10, frozenset(), "https://locks.example.org/products/bike")
    assert found is not None and found.tag == "main"
    out = html_to_markdown(grid_page(), "https://locks.example.org/products/bike")[1]
    for i in range(16):  # trafilatura keeps the introduction only
        assert f"bike lock model {i} with two keys" in out


def test_a_products_recommendations_are_no_category_grid() -> None:
    body = parse_html(product_page()).find("body")
    assert body is not None
    assert not product_grid(body)
    assert item_page_landmark(body, 10, frozenset(), PRODUCT_URL) is None


def test_an_faq_answer_folded_in_an_accordion_is_content() -> None:
    faq = "".join(
        f"<div class='faq'><div class='q'>Can the crane work at night, case {i}?</div>"
        f"<div class='a' style='display: none'>Yes, its drive is quiet.</div></div>"
        for i in range(3)
    )
    menu = "<div style='display:none'>Sign in to see your orders</div>"
    doc = parse_html(page(f"<main>{DESCRIPTION}{faq}<div>Account</div>{menu}</main>"))
    hidden = hidden_blocks(doc, 2000)
    assert ["".join(el.itertext()) for el in hidden] == ["Sign in to see your orders"]


def test_hidden_dialogs_do_not_make_a_recommendation_section_the_page() -> None:
    # each card carries a closed "why this ad" dialog: with it the carousel holds most of
    # the page's text, without it (what a reader sees) a small share
    dialog = (
        "<div role='dialog' hidden><h2>Why you see this ad</h2><p>"
        + "Promoted listings are chosen from the pages you visited and the seller's budget. " * 4
        + "</p></div>"
    )
    cards = "".join(
        f"<li class='card'><a href='/products/hook-{i}'>Crane hook spare part {i}</a>"
        f"<span>$4{i}.00</span>{dialog}</li>"
        for i in range(6)
    )
    related = f"<div class='rail'><h2>Explore related items</h2><ul>{cards}</ul></div>"
    body = parse_html(
        page(f"<main><h1>Harbour Crane Model X1</h1>{DESCRIPTION}{related}</main>", head=LD)
    ).find("body")
    assert body is not None
    assert [el.get("class") for el in recommendation_sections(body)] == ["rail"]
    out = html_to_markdown(
        page(f"<main><h1>Harbour Crane Model X1</h1>{DESCRIPTION}{related}</main>", head=LD),
        PRODUCT_URL,
    )[1]
    assert "Point 3: the X1 crane lifts forty tonnes" in out
    assert "Crane hook spare part" not in out


def test_visible_text_size_leaves_out_hidden_elements() -> None:
    body = parse_html(
        page(
            "<div><p>Seen text</p><p hidden>Hidden text</p><p style='display: none'>Gone</p></div>"
        )
    ).find("body")
    assert body is not None
    assert visible_text_size(body) == len("Seentext")


def test_a_shops_tooltips_are_left_out() -> None:
    tips = (
        "<p>Arrives by May 12 <span role='tooltip'>Your order should reach the quay by this "
        "date if you buy today and pay before noon.</span></p><p>Returns accepted within 30 days"
        "<span class='tip' role='tooltip'>Buyers pay the return freight of the crane unless "
        "it arrives damaged.</span></p>"
    )
    html = page(f"<main><h1>Harbour Crane Model X1</h1>{DESCRIPTION}{tips}</main>", head=LD)
    out = html_to_markdown(html, PRODUCT_URL)[1]
    assert "Point 3: the X1 crane lifts forty tonnes" in out
    assert "Returns accepted within 30 days" in out
    assert "reach the quay by this date" not in out
    assert "return freight" not in out
    body = parse_html(html).find("body")
    assert body is not None
    assert [el.tag for el in tooltips(body)] == ["span", "span"]


def test_a_screen_reader_copy_of_a_shops_label_is_read_once() -> None:
    labels = (
        "<div class='seller'><span>Harbourmaster Cranes Ltd"
        "<span class='clipped'>Harbourmaster Cranes Ltd</span></span></div>"
        "<p class='condition'>Refurbished<span class='sr-only'>Refurbished</span></p>"
        "<p>Shipping <span class='visually-hidden'>costs for the crane are</span> EUR 400</p>"
    )
    html = page(f"<main><h1>Harbour Crane Model X1</h1>{labels}{DESCRIPTION}</main>", head=LD)
    out = html_to_markdown(html, PRODUCT_URL)[1]
    assert "Point 3: the X1 crane lifts forty tonnes" in out
    assert out.count("Harbourmaster Cranes Ltd") == 1
    assert out.count("Refurbished") == 1
    assert "costs for the crane are" in out  # a screen reader's own words: no copy
    body = parse_html(html).find("body")
    assert body is not None
    assert [el.get("class") for el in assistive_copies(body)] == ["clipped", "sr-only"]
