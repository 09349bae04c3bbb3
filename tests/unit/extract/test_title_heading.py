"""The site's name is cut from <title> when the page's heading says the rest (review r-11)."""

from __future__ import annotations

import pytest

from webresearch.extract.html import document_title, extract_html
from webresearch.extract.markdown_tidy import drop_title_heading
from webresearch.extract.parse import parse_html

URL = "https://127.0.0.1/news/ferry"
LD = '<script type="application/ld+json">{}</script>'


@pytest.mark.parametrize(
    ("head", "body", "title"),
    [
        ("<title>Ferry timetable changes - Lakeside Gazette</title>",
         "<h1>Ferry timetable changes</h1><footer>© Lakeside Gazette</footer>",
         "Ferry timetable changes"),
        # a dash-separated subtitle the page does not repeat is part of the title
        ("<title>Ferry timetable changes - Overview</title>",
         "<h1>Ferry timetable changes</h1>", "Ferry timetable changes - Overview"),
        ("<title>Lakeside Gazette | Ferry timetable changes</title>",
         "<h1>Ferry timetable changes</h1>", "Ferry timetable changes"),
        ("<title>Walnut Side Table 45 cm | TimberHouse</title>"
         + LD.format('{"@type": "Product", "name": "Walnut Side Table 45 cm"}'),
         "<div>no heading</div>", "Walnut Side Table 45 cm"),
        ("<title>Ferry timetable changes - Lakeside Gazette</title>"
         + LD.format('{"@graph": [{"@type": "Organization", "name": "Lakeside Gazette"},'
                     ' {"@type": "NewsArticle", "headline": "Ferry timetable changes"}]}'),
         "<img src='/logo.png' alt='Lakeside Gazette'>", "Ferry timetable changes"),
        # disagreement: nothing is cut
        ("<title>Ferry timetable changes - Lakeside Gazette</title>",
         "<h1>Ferries on the lake</h1>", "Ferry timetable changes - Lakeside Gazette"),
        # a logo set as <h1> in the page header, or a heading much shorter than the rest
        ("<title>Ferry timetable changes - Lakeside Gazette</title>",
         "<header><h1>Lakeside Gazette</h1></header>",
         "Ferry timetable changes - Lakeside Gazette"),
        ("<title>News - Lakeside Gazette and Shoreline Courier</title>",
         "<h1>News</h1>", "News - Lakeside Gazette and Shoreline Courier"),
        # og:title is the publisher's statement: a heading never overrides it
        ("<title>Ferry timetable changes - Lakeside Gazette</title>"
         "<meta property='og:title' content='Ferries: the new timetable'>",
         "<h1>Ferry timetable changes</h1>", "Ferry timetable changes - Lakeside Gazette"),
        # a separator inside the heading itself stays
        ("<title>Lakeside Gazette | Before - After</title>", "<h1>Before - After</h1>",
         "Before - After"),
    ],
)  # fmt: skip
def test_the_heading_or_json_ld_cuts_the_site_name(head: str, body: str, title: str) -> None:
    html = f"<html><head>{head}</head><body>{body}</body></html>"
    assert document_title(parse_html(html), URL) == title


@pytest.mark.parametrize(
    ("body", "title"),
    [
        # a lone heading of the highest level used names the page
        ("<h2>Opening hours</h2><h3>Weekdays</h3><h3>Weekends</h3>", "Opening hours"),
        ("<h3>Opening hours</h3><h4>Weekdays</h4>", "Opening hours"),
        # several of that level are a listing's items or an article's sections
        ("<h2><a href='/a'>Oak bird feeder</a></h2><h2><a href='/b'>Cedar nest box</a></h2>", ""),
        ("<h2>Weekdays</h2><p>9 to 5</p><h2>Weekends</h2><p>10 to 4</p><h3>Holidays</h3>", ""),
        # a heading over comments, replies or related posts names no page (review r-15 L7)
        ("<p>The office opens at eight.</p><h2>Comments</h2><p>Thanks! Ann</p>", ""),
        ("<p>The office opens at eight.</p><h2>3 Comments</h2><p>Thanks! Ann</p>", ""),
        ("<p>The office opens at eight.</p><h2>Replies (2)</h2><p>Thanks! Ann</p>", ""),
        ("<p>The office opens at eight.</p><h3>Related posts</h3><p>Ferry times</p>", ""),
        ("<p>The office opens at eight.</p><h2>Leave a Reply</h2><form></form>", ""),
        ("<h2>Comment policy</h2><p>Be kind.</p>", "Comment policy"),
        # punctuation around the whole heading, not only its first or last form (session 16)
        ("<p>The office opens at eight.</p><h2>Comments:</h2><p>Thanks! Ann</p>", ""),
        ("<p>The office opens at eight.</p><h2>Leave a Reply:</h2><form></form>", ""),
        ("<p>The office opens at eight.</p><h2>No replies</h2>", ""),
        # the word alone names a letters page or a film, not a section (session 16)
        ("<h2>Reply</h2><p>Dear sir, our reply to your letter follows.</p>", "Reply"),
        ("<h2>No Reply</h2><p>A film about a postman.</p>", "No Reply"),
    ],
)  # fmt: skip
def test_without_title_and_h1_only_a_lone_top_heading_names_the_page(body: str, title: str) -> None:
    html = f"<html><head></head><body><nav>Menu</nav>{body}</body></html>"
    assert document_title(parse_html(html), URL) == title


def test_a_title_heading_holding_a_date_is_dropped_and_its_date_kept() -> None:
    """A ``<time>`` in the ``<h1>`` (its text restored by inline_dates.py) kept the heading
    from being seen as the title's repeat (review, session 16): the heading goes, its date
    stays as a line of its own."""
    prose = "".join(
        f"<p>Paragraph {i}: the lock keepers reopened the towpath after the spring floods, "
        "and the first barges came through the upper gates this week.</p>"
        for i in range(5)
    )
    html = (
        "<html><head><title>Towpath reopens | Canal diary</title></head><body><article>"
        "<header><h1><a href='/towpath'><time datetime='2026-12-01'>Dec 1 2026</time> "
        f"Towpath reopens</a></h1></header>{prose}</article></body></html>"
    )
    result = extract_html(html, URL)
    assert result.title.startswith("Towpath reopens")
    assert result.markdown.startswith("Dec 1 2026\n\nParagraph 0")


def test_a_heading_with_a_date_and_other_words_stays() -> None:
    text = "# Towpath reopens for barges 2026-12-01\n\nBody."
    assert drop_title_heading(text, "Towpath reopens") == text
    dated = "# Towpath reopens, 1 December 2026\n\nBody."
    assert drop_title_heading(dated, "Towpath reopens") == "1 December 2026\n\nBody."
