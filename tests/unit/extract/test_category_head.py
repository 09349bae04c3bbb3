"""A listing's head — its <h1> and the paragraphs introducing the items — is content
(category_head.py)."""

from __future__ import annotations

from webresearch.extract.html import extract_html

URL = "https://shop.example.org/browse/rain-jackets"

FOOT = "".join(
    f"<p>Delivery note {i}: every parcel leaves our warehouse within two working days, and a "
    f"jacket that does not fit may be sent back free of charge within a month of delivery.</p>"
    for i in range(2)
)


def _card(i: int) -> str:
    return f"<li class='card'><a href='/p/{i}'>Jacket model {i}</a><span>$1{i}9.00</span></li>"


def _page(head: str) -> str:
    return (
        "<!DOCTYPE html><html><head><title>Rain jackets | Example shop</title></head><body>"
        "<header><nav><a href='/'>Home</a> <a href='/sale'>Sale</a></nav></header>"
        "<div class='browse'><div class='browse-header'>"
        "<ol class='crumbs'><li><a href='/'>Home</a></li><li><a href='/browse'>All</a></li></ol>"
        f"<div class='browse-head'><h1>Rain jackets</h1><div class='intro'>{head}</div></div>"
        "<div class='toolbar'><label>Sort by</label><a href='?s=new'>Newest</a>"
        "<a href='?s=low'>Price low to high</a></div></div>"
        f"<ul class='grid'>{''.join(_card(i) for i in range(6))}</ul>"
        # a block an article extractor's content selectors name (class "…section-content")
        "<div class='browse-content'><div class='browse-content_section'><h2>Shipping and "
        f"returns</h2><div class='browse-content_section-content'>{FOOT}</div></div></div></div>"
        "<footer><p>© Example shop</p></footer></body></html>"
    )


def test_the_name_and_intro_over_the_grid_are_kept() -> None:
    head = (
        "<p>Stay dry on the trail, at the school gate and in town all year.</p>"
        "<p>These jackets keep the rain out with taped seams and a breathable membrane, and "
        "pack into their own pocket when the sun comes back.</p>"
    )
    markdown = extract_html(_page(head), URL).markdown
    assert "Delivery note 1" in markdown
    # the <h1> is kept too; it repeats the title, which says it (drop_title_heading)
    assert "These jackets keep the rain out" in markdown
    assert "Stay dry on the trail, at the school gate" in markdown


def test_a_head_without_prose_adds_nothing() -> None:
    markdown = extract_html(_page("<p>New in.</p>"), URL).markdown
    assert "Delivery note 1" in markdown
    assert "New in." not in markdown


def test_a_promo_over_a_share_bar_is_not_a_listing_head() -> None:
    """Four links after the head are not a listing: a share bar's are links alone."""
    body = "".join(
        f"<p>Section {i} of the review: we walked each boot over forty miles of wet moorland "
        f"and rocky ridges, and we weighed and measured every pair before and after.</p>"
        for i in range(6)
    )
    page = (
        "<!DOCTYPE html><html><head><title>Best boots | Example mag</title>"
        "<meta property='og:type' content='article'></head><body>"
        "<header><a href='/'>Example mag</a></header><div class='top'><h1>Best boots</h1>"
        "<div class='promo'><p>Take 40% off a year of Example mag Club: every review, every "
        "map and member prices in our shop. Join today.</p></div><div class='note'><p>We may "
        "be paid a fee when you buy through the links on this page, at no cost to you.</p>"
        "</div></div>"
        "<div class='share'><a href='/s/1'>Facebook</a> <a href='/s/2'>Mastodon</a> "
        "<a href='/s/3'>Email</a> <a href='#c'>9 comments</a></div>"
        f"<main><article><h2>Our picks</h2>{body}</article></main></body></html>"
    )
    markdown = extract_html(page, "https://mag.example.org/best-boots").markdown
    assert "Section 5 of the review" in markdown
    assert "Take 40% off" not in markdown
    assert "We may be paid a fee" not in markdown
