"""Cookie consent banners are not content (extract/consent.py), on small pages of our own."""

from __future__ import annotations

import pytest
from lxml import html as lxml_html

from webresearch.extract.consent import consent_banners
from webresearch.extract.html import extract_html
from webresearch.extract.parse import parse_html

URL = "https://lighthouse-keepers.example.net/guides/lamp-care"

PROSE = "".join(
    f"<p>Step {i}: the keeper trims the wick, polishes the brass around the lens and writes "
    f"the oil level in the log before the evening watch begins.</p>"
    for i in range(6)
)

BANNER = (
    "<p>We use cookies to keep the lamp guides running and to count our readers. By clicking "
    "“Accept” you agree to our use of cookies.</p><button>Accept</button><button>Reject all"
    "</button>"
)


def md(inner: str) -> str:
    html = (
        "<!DOCTYPE html><html><head><title>Lamp care</title></head><body>"
        "<header><nav><a href='/'>Home</a> <a href='/guides'>Guides</a></nav></header>"
        f"<main><h1>Lamp care</h1>{PROSE}{inner}</main>"
        "<footer><p>© 2024 Lighthouse Keepers</p></footer></body></html>"
    )
    return extract_html(html, URL).markdown


@pytest.mark.parametrize(
    "opening",
    [
        "<section class='cookie-consent'>",
        "<div id='cookie-banner'>",
        "<div class='qc-cmp2-container'>",
        "<div class='gdpr-banner gdpr-banner--bottom'>",
        "<div data-testid='consent-banner'>",
    ],
)
def test_a_cookie_consent_banner_is_not_content(opening: str) -> None:
    closing = "</" + opening[1:].split()[0].split(">")[0] + ">"
    out = md(opening + BANNER + closing)
    assert "Step 0: the keeper" in out and "Step 5: the keeper" in out
    assert "We use cookies" not in out


def test_a_section_about_cookies_stays() -> None:
    root = lxml_html.fromstring(
        "<div><section id='cookies'><h2>Cookies</h2><p>To read a cookie, accept the request "
        "object and look it up by name; to set one, call set_cookie on the response.</p>"
        "</section><div class='cookie-banner'><p>A long guide.</p></div></div>"
    )
    assert consent_banners(root) == []


# A shop page (from the product/collection work): a GDPR banner named by id, a recipe card
# named "cookie", a consent wrapper holding the page title.
SHOP_URL = "https://bakery.example.net/products/rye-loaf"

SHOP_DESCRIPTION = "".join(
    f"<p>Batch {i}: our rye loaf rests overnight in a cold cellar, then bakes for an hour "
    "in the stone oven until its crust cracks and the crumb turns dark and moist.</p>"
    for i in range(5)
)
SHOP_BANNER = (
    "<section class='page-notice' id='gdpr-banner'>"
    "<h2>Data settings</h2><p>We use cookies and similar technologies that are essential "
    "to provide our services and to measure the audience of this bakery's pages; choose "
    "which partners may store and read information on your device.</p>"
    "<a href='/privacy'>Manage settings</a></section>"
)


def shop_page(banner: str, inner: str = SHOP_DESCRIPTION) -> str:
    return (
        "<!DOCTYPE html><html><head><title>Rye loaf</title></head><body>"
        f"<div class='notices'>{banner}</div>"
        f"<main><div class='product'><h1>Rye loaf</h1><p>Price: €4.50</p>{inner}"
        "</div></main></body></html>"
    )


def test_a_gdpr_banner_inside_a_shops_text_is_not_content() -> None:
    half = SHOP_DESCRIPTION.index("<p>Batch 3")  # a banner the shop's script slides over the text
    out = extract_html(
        shop_page("", SHOP_DESCRIPTION[:half] + SHOP_BANNER + SHOP_DESCRIPTION[half:]), SHOP_URL
    ).markdown
    assert "Batch 4: our rye loaf" in out and "€4.50" in out
    assert "cookies" not in out and "Data settings" not in out, out


def test_a_block_about_cookies_is_not_a_banner() -> None:
    recipe = (
        "<div class='cookie-card'><h2>Oat cookies</h2><p>Our oat cookie recipe uses rye "
        "flour from the same mill, two eggs, brown sugar and a pinch of sea salt.</p></div>"
    )
    assert consent_banners(parse_html(shop_page("", SHOP_DESCRIPTION + recipe))) == []


def test_a_banner_holding_the_pages_title_stays() -> None:
    wrapped = (
        "<div class='cookie-consent-wrapper'><h1>Rye loaf</h1>"
        f"{SHOP_DESCRIPTION}<p>We use cookies. <button>Accept</button></p></div>"
    )
    assert consent_banners(parse_html(shop_page("", wrapped))) == []


@pytest.mark.parametrize(
    "opening",
    [
        "<section class='gdpr-explainer'>",
        "<section id='cookie-law'>",
        "<div class='cookie-notice-tips'>",
    ],
)
def test_a_section_explaining_cookies_without_a_choice_control_stays(opening: str) -> None:
    # Prose may say "accept" and "settings"; only a banner offers them as buttons or links.
    closing = "</div>" if opening.startswith("<div") else "</section>"
    explainer = (
        f"{opening}<h2>Do I need consent for cookies?</h2><p>Yes: under the cookie law a site "
        "must ask before it stores a cookie that is not essential, and visitors may accept or "
        f"change their settings at any time.</p>{closing}"
    )
    page = f"<!DOCTYPE html><html><body><main><h1>Lamp care</h1>{PROSE}{explainer}</main></body></html>"
    assert consent_banners(parse_html(page)) == []
    if "gdpr" in opening:  # trafilatura itself leaves out blocks named cookie-*
        assert "Do I need consent for cookies?" in md(explainer)
