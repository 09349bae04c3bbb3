"""Photo credits, page meta, author bios and readers' comments left out of an article
(extract/meta_lines.py, extract/closing_sections.py), on small pages of our own."""

from __future__ import annotations

import pytest

from webresearch.extract.closing_sections import drop_author_bios, drop_comment_sections
from webresearch.extract.html import extract_html
from webresearch.extract.meta_lines import drop_meta_lines

URL = "https://tidewater.example.org/notes/reading-a-tide-table"

PROSE = "".join(
    f"<p>Point {i}: the second column gives the height above chart datum, so a negative "
    f"number means the water falls below the lowest line printed on the chart that day.</p>"
    for i in range(8)
)


def md(inside: str = "", after: str = "") -> str:
    html = (
        "<!DOCTYPE html><html><head><title>Reading a tide table</title></head><body>"
        "<header><nav><a href='/'>Home</a> <a href='/notes'>Notes</a></nav></header>"
        "<main><article><h1>Reading a tide table</h1>"
        f"<h2>The columns</h2>{PROSE}{inside}<p>Check the table the night before you sail, "
        f"and again at the slipway.</p>{after}</article></main>"
        "<footer><p>© 2024 Tidewater Notes</p></footer></body></html>"
    )
    return extract_html(html, URL).markdown


@pytest.mark.parametrize(
    "credit",
    [
        "<p>(Image credit: Harbour Office)</p>",
        "<p><small>Photo: Mara Lindqvist</small></p>",
        "<p>Olsen Pictures via Getty Images</p>",
        "<p><em>Harbour wall at dusk / Shutterstock</em></p>",
        "<p><small>Courtesy of the Port Authority</small></p>",
    ],
)
def test_a_photo_credit_line_is_dropped(credit: str) -> None:
    out = md(
        f"<p><img src='/img/harbour-wall.jpg' alt='The harbour wall at low water'></p>{credit}"
    )
    assert "chart datum" in out and "slipway" in out
    for name in ("Harbour Office", "Lindqvist", "Getty", "Shutterstock", "Port Authority"):
        assert name not in out


@pytest.mark.parametrize(
    "caption",
    [
        "Image 3: the second column circled in red",
        "Photo of the harbour wall at low water, taken from the ferry ramp at six in the morning",
    ],
)
def test_a_caption_that_describes_the_picture_stays(caption: str) -> None:
    assert drop_meta_lines(f"Some text.\n\n{caption}\n") == f"Some text.\n\n{caption}\n"


def test_credit_words_in_code_and_lists_stay() -> None:
    text = "```\nPhoto: a variable\n```\n\n- Photo: Mara Lindqvist\n"
    assert drop_meta_lines(text) == text


@pytest.mark.parametrize(
    "meta",
    [
        "<p>6 min read</p>",
        "<p>Advertisement - Page continues below</p>",
        "<h3>Table of contents</h3>",
    ],
)
def test_a_page_meta_line_is_dropped(meta: str) -> None:
    out = md(meta)
    assert "chart datum" in out and "slipway" in out
    for words in ("min read", "Advertisement", "Table of contents"):
        assert words not in out


@pytest.mark.parametrize(
    ("meta", "kept"),
    [
        ("<p>Mara Lindqvist — 6 min read</p>", "Mara Lindqvist"),
        ("<p><em>Last updated on June 2, 2025 at 09:27 am</em></p>", "Last updated on June 2"),
    ],
)
def test_a_byline_and_a_date_line_stay_without_the_reading_time(meta: str, kept: str) -> None:
    # by whom and when the page was written: no metadata field says it (session 16)
    out = md(meta)
    assert kept in out and "min read" not in out


@pytest.mark.parametrize(
    "line",
    [
        "The harbour office updated the table on June 2, 2025 after the survey.",
        "## Contents",
        "Read the minutes read aloud at the meeting.",
    ],
)
def test_sentences_about_updates_and_a_bare_contents_title_stay(line: str) -> None:
    assert drop_meta_lines(f"Some text.\n\n{line}\n") == f"Some text.\n\n{line}\n"


BIO = (
    "<h2>About the author</h2><p><img src='/people/mara.jpg' alt='Portrait of Mara'></p>"
    "<p>Mara Lindqvist has skippered charter boats on the west coast for twenty years and "
    "teaches coastal navigation in winter.</p>"
)


def test_an_about_the_author_section_is_dropped() -> None:
    out = md(after=BIO)
    assert "slipway" in out
    assert "About the author" not in out and "charter boats" not in out


def test_a_long_section_under_a_bio_heading_stays() -> None:
    long = "Interview answer. " * 200
    text = f"# Profile\n\nIntro text here.\n\n## About the author\n\n{long}\n"
    assert drop_author_bios(text) == text


COMMENTS = (
    "<h3>2 Responses</h3>"
    "<p>Great guide, I always forgot the datum when I started sailing the estuary.</p>"
    "<p>Posted by: Jo at May 2, 2024 08:10 PM</p>"
    "<p>Which table do you use for the estuary and the bar at the river mouth?</p>"
    "<p>Posted by: Sam at May 3, 2024 09:12 AM</p>"
)


def test_readers_comments_after_the_article_are_dropped() -> None:
    out = md(after=COMMENTS)
    assert "slipway" in out
    assert "Great guide" not in out and "Posted by" not in out


def test_a_tutorial_section_about_comments_with_code_stays() -> None:
    text = (
        "# Python basics\n\n" + "Some long introduction text. " * 30 + "\n\n## Comments\n\n"
        "A comment starts with a hash:\n\n```python\n# this is ignored\n```\n\n## Variables\n\nx"
    )
    assert drop_comment_sections(text) == text


def test_comments_are_not_dropped_when_they_outweigh_the_text() -> None:
    text = "Short post.\n\n## 2 Comments\n\n" + "A long reply from a reader. " * 20
    assert drop_comment_sections(text) == text


def test_reading_times_under_each_entry_of_a_list_stay() -> None:
    text = "".join(
        f"## Post {n}\n\nA summary of post {n}.\n\n·1d ago·3 min read\n\n" for n in range(4)
    )
    assert drop_meta_lines(text) == text


def test_a_comment_form_under_a_heading_with_a_colon_is_dropped() -> None:
    # "Comments:" matched only when the pattern's \W* wrapped every form (session 16)
    text = (
        "# Slipway\n\n"
        + "The slipway is open at low tide for small boats. " * 20
        + "\n\n## Comments:\n\nLeave a comment. Your email address will not be published."
    )
    out = drop_comment_sections(text)
    assert "slipway is open" in out and "Comments:" not in out
    assert "Your email" not in out
