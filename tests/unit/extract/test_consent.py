"""Cookie consent banners are not content (extract/consent.py), on small pages of our own."""

from __future__ import annotations

import pytest
from lxml import html as lxml_html

from webresearch.extract.consent import consent_banners
from webresearch.extract.html import extract_html

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
