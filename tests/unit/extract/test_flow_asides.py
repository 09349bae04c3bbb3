"""A box set as <aside> in the flow of an article's text is content (extract/flow_asides.py,
review n-18); the site's asides — related stories, sign-up forms, sidebars, a box at the
article's edge — still go. Pages of our own."""

from __future__ import annotations

import pytest
from lxml import html as lxml_html

from webresearch.extract.flow_asides import asides_in_flow
from webresearch.extract.html import extract_html

URL = "https://board.example/news/dam-repair"
FIRST = (
    "<p>The water board agreed on Monday to repair the old dam above the village before the "
    "spring floods, after two years of reports about cracks in its northern wall.</p>"
)
SECOND = (
    "<p>The work will close the footpath over the dam for six weeks; the ferry will run "
    "every half hour while it is closed, paid for by the board.</p>"
)
EVENT = (
    "<aside class='event-box'><h3>Public meeting on the repair</h3>"
    "<p>Tuesday 14 May, 7 pm, at the village hall on Mill Lane</p>"
    "<p><a href='/events/dam-meeting/register'>Register to attend</a></p></aside>"
)


def page(article: str, outside: str = "") -> str:
    return (
        "<html><head><title>Dam</title></head><body><header><nav><a href='/'>Home</a> "
        "<a href='/news'>News</a></nav></header><main><article><h1>The dam repair</h1>"
        f"{article}</article>{outside}</main><footer><p>© Water board</p></footer>"
        "</body></html>"
    )


@pytest.mark.parametrize("after", [SECOND, "<h2>What happens next</h2>" + SECOND])
def test_an_event_box_between_paragraphs_stays(after: str) -> None:
    out = extract_html(page(FIRST + EVENT + after), URL).markdown
    assert "### Public meeting on the repair" in out
    assert "Tuesday 14 May, 7 pm, at the village hall on Mill Lane" in out
    assert "[Register to attend](https://board.example/events/dam-meeting/register)" in out
    assert out.index("cracks in its northern wall") < out.index("Public meeting")
    assert out.index("Register to attend") < out.index("footpath over the dam")


RELATED = (
    "<aside class='recirc'><p>Related story</p><p><a href='/news/ferry-times'>The ferry "
    "timetable changes for the summer, with two more crossings every evening</a></p></aside>"
)
SIGNUP = (
    "<aside class='newsletter'><h3>Get the village news</h3><p>Every Friday, the week's "
    "stories from the valley in your inbox.</p><form><input type='email' name='email'>"
    "<button>Sign up</button></form></aside>"
)
SIDEBAR = (
    "<aside class='sidebar'><h3>About the board</h3><p>The water board looks after the "
    "river, its dams and its banks from the spring to the sea.</p></aside>"
)


@pytest.mark.parametrize(
    ("article", "outside", "gone"),
    [
        (FIRST + RELATED + SECOND, "", "ferry timetable changes"),  # mostly a link
        (FIRST + SIGNUP + SECOND, "", "Get the village news"),  # a form
        (FIRST + SECOND, SIDEBAR, "About the board"),  # outside the article
        (FIRST + SECOND + SIDEBAR, "", "About the board"),  # at the article's end
        (SIDEBAR + FIRST + SECOND, "", "About the board"),  # before its text
    ],
)
def test_the_sites_asides_still_go(article: str, outside: str, gone: str) -> None:
    out = extract_html(page(article, outside), URL).markdown
    assert "cracks in its northern wall" in out and "footpath over the dam" in out
    assert gone not in out


def test_only_boxes_in_the_flow_are_found() -> None:
    doc = lxml_html.document_fromstring(
        page(FIRST + EVENT + SECOND + FIRST + RELATED + SECOND + SIDEBAR, SIDEBAR)
    )
    assert [el.get("class") for el in asides_in_flow(doc)] == ["event-box"]


# review r-18a: promotions and pull quotes between two paragraphs are the site's
INLINE_CTA = (
    "<aside class='inline-cta'><p>Enjoying this article? Subscribe to our newsletter for more "
    "stories like this one.</p><a href='/subscribe'>Subscribe</a></aside>"
)
DONATE = (
    "<aside><p>Support independent local journalism. Your gift keeps our reporters at every "
    "meeting of the board.</p><a href='/give'>Donate now</a></aside>"
)
APP = (
    "<aside><p>Get breaking news alerts on your phone with the free Valley app for iOS and "
    "Android.</p><p><a href='https://apps.apple.com/app/id1'>App Store</a></p></aside>"
)
PULL_QUOTE = (
    "<aside class='quote'><p>“Two years of reports about cracks in its northern wall,” "
    "the chair said.</p></aside>"
)


@pytest.mark.parametrize(
    ("aside", "gone"),
    [
        (INLINE_CTA, "Enjoying this article"),
        (DONATE, "independent local journalism"),
        (APP, "breaking news alerts"),
        (PULL_QUOTE, "the chair said"),
    ],
)
def test_promotions_and_pull_quotes_in_the_flow_go(aside: str, gone: str) -> None:
    out = extract_html(page(FIRST + aside + SECOND), URL).markdown
    assert "cracks in its northern wall" in out and "footpath over the dam" in out
    assert gone not in out


FACTS = (
    "<aside class='center'><p><strong>Not every dam is the same.</strong><br>Earth dams hold "
    "water back by their weight of packed clay and stone, while arch dams carry the load "
    "sideways into the rock of the valley walls. Older village dams are mostly earth dams, "
    "and their cracks show where water has begun to seep through the core.</p></aside>"
)


def test_a_box_of_facts_in_the_flow_stays() -> None:
    out = extract_html(page(FIRST + FACTS + "<h2>What happens next</h2>" + SECOND), URL).markdown
    assert "Not every dam is the same." in out and "arch dams carry the load" in out


def test_a_comment_beside_a_box_changes_nothing() -> None:
    doc = lxml_html.document_fromstring(
        page(FIRST + "<!-- box -->" + EVENT + "<!-- end -->" + SECOND)
    )
    assert [el.get("class") for el in asides_in_flow(doc)] == ["event-box"]


def test_promotions_and_pull_quotes_are_not_found() -> None:
    article = FIRST + INLINE_CTA + SECOND + FIRST + DONATE + SECOND + FIRST + APP + SECOND
    doc = lxml_html.document_fromstring(page(article + FIRST + PULL_QUOTE + SECOND))
    assert asides_in_flow(doc) == []


# recheck n-18b: sponsor boxes worded without "sponsor" or "advert" were kept as facts, and
# a box's own text could count as a repeat of the article (ids of freed lxml proxies reused)
SPONSORED = (
    "<main><article><h1>Harbour market reopens</h1><p>The harbour market reopened on Saturday "
    "after a two-year renovation that added a covered hall and forty new stalls.</p>"
    "<aside class='box'><h3>Presented by Northwind Bank</h3><p>Open a Northwind Flex account "
    "before 30 June and get 50 euros. Offer ends Friday at 6 pm.</p></aside><p>Traders said the"
    " first weekend brought more visitors than any weekend before the works began.</p><aside "
    "class='box'><p>Paid post</p><p>Visit Harbour Hotel this June 12 and enjoy a free breakfast"
    " with every two-night stay.</p></aside><p>The market is open every day from 8 am to 6 pm,"
    " and until 9 pm on Fridays during the summer.</p><aside class='box'><p>In partnership "
    "with Acme Tours. Boat trips leave the pier every Tuesday at 10:30; book through Acme.</p>"
    "</aside><p>The city plans a second phase of works on the western quay next year, with a "
    "new cycle path.</p></article></main>"
)


def test_sponsor_boxes_by_their_label_are_not_found() -> None:
    doc = lxml_html.document_fromstring(f"<html><body>{SPONSORED}</body></html>")
    assert asides_in_flow(doc) == []


def test_a_boxs_own_text_is_no_repeat_of_the_article() -> None:
    from webresearch.extract import flow_asides

    doc = lxml_html.document_fromstring(f"<html><body>{SPONSORED}</body></html>")
    article = doc.find(".//article")
    assert article is not None
    for aside in article.iter("aside"):
        assert not flow_asides._repeats(aside, article, " ".join(aside.itertext()))
