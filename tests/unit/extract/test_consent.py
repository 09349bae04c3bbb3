"""Cookie and consent banners are never a page's content (extract/consent.py)."""

from __future__ import annotations

from webresearch.extract.consent import consent_banners
from webresearch.extract.html import extract_html
from webresearch.extract.parse import parse_html

URL = "https://bakery.example.net/products/rye-loaf"

DESCRIPTION = "".join(
    f"<p>Batch {i}: our rye loaf rests overnight in a cold cellar, then bakes for an hour "
    "in the stone oven until its crust cracks and the crumb turns dark and moist.</p>"
    for i in range(5)
)
BANNER = (
    "<section class='page-notice' id='gdpr-banner'>"
    "<h2>Data settings</h2><p>We use cookies and similar technologies that are essential "
    "to provide our services and to measure the audience of this bakery's pages; choose "
    "which partners may store and read information on your device.</p>"
    "<a href='/privacy'>Manage settings</a></section>"
)


def page(banner: str, inner: str = DESCRIPTION) -> str:
    return (
        "<!DOCTYPE html><html><head><title>Rye loaf</title></head><body>"
        f"<div class='notices'>{banner}</div>"
        f"<main><div class='product'><h1>Rye loaf</h1><p>Price: €4.50</p>{inner}"
        "</div></main></body></html>"
    )


def test_a_consent_banner_is_not_content() -> None:
    half = DESCRIPTION.index("<p>Batch 3")  # a banner the shop's script slides over the text
    out = extract_html(page("", DESCRIPTION[:half] + BANNER + DESCRIPTION[half:]), URL).markdown
    assert "Batch 4: our rye loaf" in out and "€4.50" in out
    assert "cookies" not in out and "Data settings" not in out, out


def test_a_block_about_cookies_is_not_a_banner() -> None:
    recipe = (
        "<div class='cookie-card'><h2>Oat cookies</h2><p>Our oat cookie recipe uses rye "
        "flour from the same mill, two eggs, brown sugar and a pinch of sea salt.</p></div>"
    )
    assert consent_banners(parse_html(page("", DESCRIPTION + recipe))) == []


def test_a_banner_holding_the_pages_title_stays() -> None:
    wrapped = f"<div class='cookie-consent-wrapper'><h1>Rye loaf</h1>{DESCRIPTION}</div>"
    assert consent_banners(parse_html(page("", wrapped))) == []
