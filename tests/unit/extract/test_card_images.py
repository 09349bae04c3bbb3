"""A grid card's picture beside the card's link is not a content image (content_images rule 5)."""

from __future__ import annotations

from webresearch.extract.html import extract_html

URL = "https://shop.example.com/collections/benches"

ITEMS = [
    ("Oak storage bench", "Solid oak bench with two drawers, seen from the side", "120"),
    ("Pine hall bench", "Light pine bench standing in a bright hallway", "85"),
    ("Walnut garden bench", "Dark walnut bench on a lawn under an apple tree", "240"),
    ("Birch shoe bench", "Birch bench holding six pairs of shoes on its rack", "95"),
]


def card(name: str, alt: str, price: str) -> str:
    slug = name.lower().replace(" ", "-")
    return (
        "<article class='product-card'><div class='product-card__box'>"
        f"<div class='product-card__text'><h2><a href='/products/{slug}'>{name}</a></h2>"
        f"<p>Price ${price}. Handmade in our workshop from local wood.</p></div>"
        f"<div class='product-card__media'><img src='/img/{slug}.jpg' alt='{alt}' "
        "width='400' height='400'></div></div></article>"
    )


def page(inner: str) -> str:
    return (
        "<!DOCTYPE html><html><head><title>Benches</title></head><body>"
        "<header><nav><a href='/'>Home</a> <a href='/collections'>Shop</a></nav></header>"
        "<main><h1>Benches</h1><p>Every bench in this collection is built by hand in our "
        "workshop from wood grown within fifty miles of it, finished with natural oils and "
        f"delivered assembled.</p>{inner}</main>"
        "<footer><p>© 2024 Bench Shop</p></footer></body></html>"
    )


def test_a_grid_cards_picture_is_not_a_content_image() -> None:
    out = extract_html(
        page("<div class='grid'>" + "".join(card(*i) for i in ITEMS) + "</div>"), URL
    )
    assert "Oak storage bench" in out.markdown and "Price $240" in out.markdown
    assert "![" not in out.markdown, out.markdown


def test_a_picture_beside_a_link_outside_a_grid_stays() -> None:
    one = card(*ITEMS[0]) + "<p>Our benches last for generations when oiled every spring.</p>"
    out = extract_html(page(one), URL)
    assert "![Solid oak bench with two drawers, seen from the side]" in out.markdown, out.markdown


def test_a_picture_in_one_of_several_long_posts_stays() -> None:
    posts = "".join(
        f"<div class='post'><p><a href='/users/{i}'>member{i}</a> wrote:</p><p>"
        + "The bench held up through a wet winter on the porch; the oil needs renewing "
        "every spring, and the drawers swell a little in August but never stick. "
        * 3
        + f"</p><p><img src='/uploads/porch-{i}.jpg' alt='Bench on the porch after winter "
        f"number {i}' width='600' height='400'></p></div>"
        for i in range(3)
    )
    out = extract_html(page(posts), URL)
    assert "![Bench on the porch after winter number 1]" in out.markdown, out.markdown
