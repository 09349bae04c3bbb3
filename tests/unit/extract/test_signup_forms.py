"""Sign-in, sign-up and newsletter forms are not content (extract/signup_forms.py), on small
pages of our own."""

from __future__ import annotations

from webresearch.extract.align import page_text_size
from webresearch.extract.html import extract_html
from webresearch.extract.parse import parse_html
from webresearch.extract.signup import signup_forms

URL = "https://kite-workshop.example.com/kites/storm-delta"

PROSE = "".join(
    f"<p>Panel {i}: the Storm Delta's ripstop sail is stitched twice along the leading edge "
    f"and its carbon spars flex in gusts without snapping.</p>"
    for i in range(6)
)

SIGN_IN = (
    "<div class='drawer'><h2>Welcome back</h2><form action='/account/login'>"
    "<label>Email address <input type='email' name='login'></label>"
    "<label>Password <input type='password' name='secret'></label>"
    "<p>By signing in you agree to receive recurring automated marketing messages from the "
    "workshop at the number and address you provided.</p><button>Sign in</button></form></div>"
)
NEWSLETTER = (
    "<form class='news'><p>Notify me when the Storm Delta is back in stock and send me the "
    "workshop letter every other week.</p><input name='customer_email' placeholder='Your email'>"
    "<button>Notify me</button></form>"
)


def page(inner: str) -> str:
    """The forms sit between the description's paragraphs (a drawer's markup)."""
    half = len(PROSE) // 2
    return (
        "<!DOCTYPE html><html><head><title>Storm Delta kite</title></head><body>"
        f"<main><h1>Storm Delta kite</h1>{PROSE[:half]}{inner}{PROSE[half:]}</main></body></html>"
    )


def test_sign_in_and_newsletter_forms_are_left_out_the_description_stays() -> None:
    out = extract_html(page(SIGN_IN + NEWSLETTER), URL).markdown
    assert "Panel 0: the Storm Delta" in out and "Panel 5: the Storm Delta" in out
    assert "recurring automated marketing messages" not in out
    assert "back in stock" not in out


def test_a_form_wrapping_the_page_or_asking_no_address_stays() -> None:
    wrapped = parse_html(
        "<html><body><form id='aspnetForm'><h2>Storm Delta kite</h2>"
        f"{PROSE}<input type='email' name='newsletter'></form></body></html>"
    )
    assert signup_forms(wrapped, page_text_size(wrapped)) == []  # the whole page: no sign-up box
    search = parse_html(
        "<html><body><main>"
        f"{PROSE}<form><input type='search' name='q'><p>Search the kite archive by sail "
        "shape, spar material and wind range.</p></form></main></body></html>"
    )
    assert signup_forms(search, page_text_size(search)) == []
    body = parse_html(page(SIGN_IN + NEWSLETTER)).find("body")
    assert body is not None
    assert [f.get("class") for f in signup_forms(body, page_text_size(body))] == [None, "news"]
