"""A product page: the shop's menu is not content, the product's main photo is (r-11)."""

from __future__ import annotations

from webresearch.extract.html import extract_html

URL = "https://127.0.0.1/shop/teapot-blue"
LD = (
    '<script type="application/ld+json">{"@context": "https://schema.org", "@type": '
    '"Product", "name": "Glazed Stoneware Teapot", "offers": {"@type": "Offer", '
    '"price": "38.00", "priceCurrency": "EUR"}}</script>'
)


def shop_page(ld: str = LD) -> str:
    return (
        f"<html><head><title>Glazed Stoneware Teapot | PotteryBarn</title>{ld}</head><body>"
        "<nav><a href='/'>Start</a> <a href='/kitchen'>Kitchen</a> <a href='/bag'>Bag (2)</a>"
        "</nav><div class='item'><h1>Glazed Stoneware Teapot</h1>"
        "<img src='/img/teapot.jpg' alt='Glazed Stoneware Teapot'>"
        "<div class='price'>€38.00</div><button>Add to bag</button>"
        "<div class='description'><p>A teapot for four cups, thrown on the wheel and glazed "
        "in blue.</p></div>"
        "<table><tr><th>Volume</th><td>1.1 l</td></tr><tr><th>Weight</th><td>900 g</td></tr>"
        "</table></div></body></html>"
    )


def test_the_shops_menu_is_not_the_products_content() -> None:
    markdown = extract_html(shop_page(), URL).markdown
    assert "Kitchen" not in markdown and "Bag (2)" not in markdown
    assert "thrown on the wheel" in markdown


def test_the_main_photo_named_as_the_product_is_kept() -> None:
    markdown = extract_html(shop_page(), URL).markdown
    assert "![Glazed Stoneware Teapot](https://127.0.0.1/img/teapot.jpg)" in markdown
    assert markdown.count("![") == 1


def test_a_menu_of_the_pages_own_sections_stays() -> None:
    toc = "<nav><a href='#care'>Care</a> <a href='#sizes'>Sizes</a></nav>"
    html = shop_page().replace("<div class='item'>", f"<div class='item'>{toc}", 1)
    html = html.replace("</table>", "</table><h2 id='care'>Care</h2><p>Hand wash.</p>", 1)
    assert "[Care](" in extract_html(html, URL).markdown
