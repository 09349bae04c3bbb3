"""Newsletter sign-up boxes are not content (extract/signup.py), on small pages of our own."""

from __future__ import annotations

import pytest
from lxml import html as lxml_html

from webresearch.extract.align import page_text_size
from webresearch.extract.html import extract_html
from webresearch.extract.signup import signup_boxes

URL = "https://tide-tables.example.org/notes/reading-a-tide-chart"

PROSE = "".join(
    f"<p>Reading {i}: find the harbour's reference port, add the time difference printed "
    f"under its name, then scale the range by the spring or neap factor for the day.</p>"
    for i in range(6)
)

BOX = (
    "<div class='panel'><h3>Get the tide notes</h3>"
    "<p>One short letter a month with new charts, delivered to your inbox.</p>"
    "<form action='/letters'><input type='email' name='address' placeholder='Your email'>"
    "<input type='hidden' name='list' value='7'><button>Subscribe</button></form></div>"
)


def md(inner: str, after: str = "") -> str:
    html = (
        "<!DOCTYPE html><html><head><title>Reading a tide chart</title></head><body>"
        "<header><nav><a href='/'>Home</a> <a href='/notes'>Notes</a></nav></header>"
        f"<main><article><h1>Reading a tide chart</h1>{inner}</article>{after}</main>"
        "<footer><p>© 2024 Tide Tables</p></footer></body></html>"
    )
    return extract_html(html, URL).markdown


@pytest.mark.parametrize("where", ["inside", "after"])
def test_a_newsletter_signup_box_is_not_content(where: str) -> None:
    out = md(PROSE[:400] + BOX + PROSE[400:]) if where == "inside" else md(PROSE, BOX)
    assert "Reading 0: find the harbour" in out and "Reading 5: find the harbour" in out
    assert "tide notes" not in out and "delivered to your inbox" not in out


def test_an_email_field_named_by_its_placeholder_counts() -> None:
    box = BOX.replace("type='email' name='address'", "type='text' name='q1'")
    out = md(PROSE[:400] + box + PROSE[400:])
    assert "Reading 5: find the harbour" in out
    assert "delivered to your inbox" not in out


@pytest.mark.parametrize(
    "form",
    [
        # a search box
        "<form><input type='search' placeholder='Search the notes'><button>Go</button></form>",
        # a contact form asks for a message
        "<form><input type='email' name='email'><textarea name='msg'></textarea>"
        "<button>Subscribe</button></form>",
        # a long form (an order form) is not a sign-up box
        "<form>"
        + "".join(f"<input name='f{i}'>" for i in range(5))
        + "<input type='email'><button>Sign up</button></form>",
    ],
)
def test_other_forms_leave_their_box(form: str) -> None:
    root = lxml_html.fromstring(
        "<div><div class='panel'><p>One short letter a month with new charts, delivered "
        f"to your inbox.</p>{form}</div><div>{PROSE}</div></div>"
    )
    assert signup_boxes(root, page_text_size(root)) == []


def test_a_box_without_subscription_words_stays() -> None:
    root = lxml_html.fromstring(
        "<div><div class='panel'><p>Log in to see your saved charts.</p><form>"
        "<input type='email' name='email'><input type='password'><button>Log in</button>"
        f"</form></div><div>{PROSE}</div></div>"
    )
    assert signup_boxes(root, page_text_size(root)) == []


def test_a_short_article_around_the_form_stays() -> None:
    # The box stops below the element holding the page's title: a short note that ends
    # with a sign-up form keeps its text.
    note = (
        "<h1>Spring tides this week</h1><p>The highest tides of the season arrive on "
        "Thursday; moor well clear of the harbour wall and check your lines at dusk.</p>"
        "<form><input type='email' placeholder='Email'><button>Subscribe</button></form>"
    )
    out = md(note)
    assert "highest tides of the season" in out


def test_pictures_next_to_the_box_stay() -> None:
    # The box stops below a parent holding more than two images: a product's feature
    # pictures (their alt text is the content) share a short wrapper with the sign-up form.
    features = "".join(
        f"<img src='/f{i}.jpg' alt='Feature {i}: the float gauge reads the tide height'>"
        for i in range(4)
    )
    root = lxml_html.fromstring(
        f"<div><div class='wrap'><div class='features'>{features}</div>{BOX}</div>"
        f"<div>{PROSE}</div></div>"
    )
    boxes = signup_boxes(root, page_text_size(root))
    assert [b.get("class") for b in boxes] == ["panel"]


def test_the_articles_pictures_stay_when_the_box_held_the_last_kept_text() -> None:
    # trafilatura keeps the box's line of prose, the last text it keeps; once the box is
    # gone the article's pictures are still between its first and last kept text.
    figure = (
        "<figure><img src='/charts/brest.png' alt='Tide curve for Brest on a spring tide'></figure>"
    )
    out = md(PROSE[:400] + figure + PROSE[400:], BOX)
    assert "Tide curve for Brest" in out
    assert "delivered to your inbox" not in out


def test_a_lead_magnet_box_saying_subscribing_only_in_its_thank_you_line_goes() -> None:
    box = (
        "<div class='magnet'><p>Download a free tide-chart workbook for your first season.</p>"
        "<form><input type='email' name='email' placeholder='Enter your email'>"
        "<input type='submit' value='→'></form>"
        "<p class='ok'>Thank you for subscribing.</p></div>"
    )
    out = md(PROSE[:400] + box + PROSE[400:])
    assert "Reading 5: find the harbour" in out
    assert "tide-chart workbook" not in out and "Thank you for subscribing" not in out
