"""A paywall's prompt box is not content (extract/paywall.py), the premium text and prose
about subscriptions stay; on small pages of our own."""

from __future__ import annotations

from lxml import html as lxml_html

from webresearch.extract.html import extract_html
from webresearch.extract.paywall import may_hold_paywall
from webresearch.extract.scan_index import read_attributes

URL = "https://harbour-gazette.example.org/2026/11/ferry-fares-rise"

PROSE = "".join(
    f"<p>Paragraph {i}: the ferry company told the council that winter fares would rise by "
    f"a fifth on the island route, citing fuel and the cost of the new berth at the quay.</p>"
    for i in range(8)
)

PROMPT = (
    "<div class='story-paywall-breaker'>"
    "<p class='label'>Gazette+ Exclusive Story</p>"
    "<h2>This story is for Gazette+ subscribers</h2>"
    "<h3>Unlock this story — plus daily briefings and the archive.</h3>"
    "<div class='plans'><p>Monthly</p><p>$9</p><a href='/subscribe?p=m'>Get started</a>"
    "<p>Annual</p><p>$90</p><a href='/subscribe?p=y'>Get started</a></div>"
    "<p>Already have an account? <a href='/login'>Log in</a></p></div>"
)


def md(inner: str, head: str = "") -> str:
    html = (
        f"<!DOCTYPE html><html><head><title>Ferry fares rise</title>{head}</head><body>"
        "<header><nav><a href='/'>Home</a> <a href='/news'>News</a></nav></header>"
        f"<main><article><h1>Ferry fares rise</h1>{inner}</article></main>"
        "<footer><p>© 2026 Harbour Gazette</p></footer></body></html>"
    )
    return extract_html(html, URL).markdown


def test_a_paywall_prompt_box_is_not_content() -> None:
    out = md(PROSE + PROMPT)
    assert "Paragraph 7: the ferry company" in out
    for line in ("Gazette+ subscribers", "Unlock this story", "Already have an account", "$90"):
        assert line not in out, line


def test_the_premium_text_a_paywall_marks_stays() -> None:
    """schema.org's hasPart cssSelector names the paid part: it is the article."""
    ld = (
        '<script type=\'application/ld+json\'>{"@type": "NewsArticle", '
        '"isAccessibleForFree": false, "hasPart": {"@type": "WebPageElement", '
        '"isAccessibleForFree": false, "cssSelector": ".paywall"}}</script>'
    )
    premium = (
        "<div class='paywall'><p>Subscribers read on: the council will vote in March, and "
        "members said they would ask the company to log in its fuel costs.</p></div>"
    )
    out = md(PROSE + premium, ld)
    assert "Subscribers read on: the council will vote in March" in out


def test_a_paywall_class_holding_prose_stays() -> None:
    """Without JSON-LD too: a 'paywall' block of long paragraphs is the paid text."""
    premium = (
        "<div class='paywall-content'><p>Subscribers read on: the council will vote in "
        "March on the new fares, and members of the harbour board said they would ask the "
        "company to publish its fuel costs and the berth's loan terms before that vote, so "
        "that islanders can see what the fifth pays for.</p></div>"
    )
    out = md(PROSE + premium)
    assert "Subscribers read on: the council will vote in March" in out


def test_prose_and_boxes_about_subscriptions_stay() -> None:
    """No paywall markup: a newsletter's article about subscriptions, a price box, and a
    sentence "Subscribe to the idea …" are content."""
    about = (
        "<p>Subscribe to the idea that a ferry is a road: it is paid for like one.</p>"
        "<div class='price-box'><h3>Island season ticket</h3><p>$90 a year</p>"
        "<p>Subscribers log in at the ticket office to renew.</p></div>"
    )
    out = md(PROSE + about)
    assert "Subscribe to the idea that a ferry is a road" in out
    assert "Island season ticket" in out
    assert "Subscribers log in at the ticket office" in out


def test_a_page_without_a_gates_class_or_id_is_not_walked() -> None:
    # session 18: walking every element of every page for a paywall's class cost ~5% of an
    # extraction; the joined class and id values of the page tell first
    plain = lxml_html.fromstring(
        "<html><body><div class='story'><p id='lead'>Text</p></div></body></html>"
    )
    assert not may_hold_paywall(read_attributes(plain))
    for marks in ("class='x tp-container'", "id='paywall'", "class='subscriber-only'"):
        gated = lxml_html.fromstring(f"<html><body><div {marks}><p>Log in</p></div></body></html>")
        assert may_hold_paywall(read_attributes(gated))
