"""An article's byline and bare date lines left out of its markdown (extract/bylines.py),
on small pages of our own."""

from __future__ import annotations

import pytest

from webresearch.extract.bylines import MAX_BYLINE_LINES, drop_bylines
from webresearch.extract.html import extract_html

URL = "https://quayside.example.net/journal/winter-moorings"

PROSE = "".join(
    f"<p>Mooring {i}: a winter mooring needs a heavier riser chain than a summer one, "
    f"because the gales that come in from the west pull the buoy sideways for days.</p>"
    for i in range(8)
)


def md(before: str = "", after: str = "") -> str:
    html = (
        "<!DOCTYPE html><html><head><title>Winter moorings</title></head><body>"
        "<header><nav><a href='/'>Home</a> <a href='/journal'>Journal</a></nav></header>"
        f"<main><article><h1>Winter moorings</h1>{before}{PROSE}"
        f"<p>Check the shackles every month until spring.</p>{after}</article></main>"
        "<footer><p>© 2024 Quayside Journal</p></footer></body></html>"
    )
    return extract_html(html, URL).markdown


@pytest.mark.parametrize(
    "byline",
    [
        "<p>By Ingrid Halvorsen • March 12, 2025</p>",
        "<p><strong>By <a href='/team/ingrid'>Dr. Ingrid Halvorsen</a></strong> - Mar 27, 2024</p>",
        "<div class='meta'><span>Written by:</span> <span>Ingrid Halvorsen and Tom Reyes</span></div>",
        "<p>Posted by Ingrid at December 16, 2025 11:15 AM</p>",
        "<p>December 15, 2025</p>",
        "<p><time datetime='2025-12-19'>19 Dec, 2025</time></p>",
    ],
)
def test_a_byline_or_a_date_alone_over_the_article_is_dropped(byline: str) -> None:
    out = md(before=byline)
    assert "riser chain" in out and "shackles" in out
    for word in ("Ingrid", "Halvorsen", "Reyes", "2025", "2024"):
        assert word not in out


def test_a_byline_under_the_article_is_dropped() -> None:
    out = md(after="<p>By Ingrid Halvorsen</p>")
    assert "shackles" in out and "Halvorsen" not in out


@pytest.mark.parametrize(
    "sentence",
    [
        "By Monday, the water had gone down.",
        "By the river",
        "By 2030 every mooring will be checked by divers.",
        "May 5, 2020 was the day the chain broke.",
        "BY APPOINTMENT ONLY.",
    ],
)
def test_a_sentence_starting_like_a_byline_stays(sentence: str) -> None:
    text = f"Some text.\n\n{sentence}\n\nMore text.\n"
    assert drop_bylines(text) == text


def test_headings_list_items_and_code_stay() -> None:
    text = (
        "## March 3, 2025\n\nFirst entry.\n\n- By Ingrid Halvorsen\n\n"
        "```\nBy Ingrid Halvorsen\n```\n"
    )
    assert drop_bylines(text) == text


def test_many_bylines_are_a_list_of_entries_and_stay() -> None:
    entries = "".join(
        f"### Post {i}\n\nBy Ingrid Halvorsen\n\nMarch {i + 1}, 2025\n\nA short note.\n\n"
        for i in range(MAX_BYLINE_LINES)
    )
    assert drop_bylines(entries) == entries


def test_a_forum_posts_author_line_stays() -> None:
    posts = "".join(
        f"<div class='post'><p>Posted by Skipper{i} at December {i + 1}, 2025 11:15 AM</p>"
        f"<div class='post-body'><p>Reply {i}: I moved to a heavier riser chain after the "
        f"autumn gales and the buoy has not dragged since, even at spring tides.</p></div></div>"
        for i in range(2)
    )
    html = (
        "<html><head><title>Riser chains</title></head><body><main>"
        f"<div class='thread'>{posts}</div></main></body></html>"
    )
    out = extract_html(html, "https://forum.example.net/t/riser-chains/12").markdown
    assert "Posted by Skipper0" in out


def test_an_events_date_among_dated_entries_stays() -> None:
    events = (
        "## Upcoming\n\n[Harbour Fair](/events/fair)\n\nMar 18, 2026\n\nPortsmouth\n\n"
        "[Rope Work](/events/rope)\n\nMar 6–Apr 18, 2026\n\nFalmouth\n\n"
        "[Tide Talks](/events/tides)\n\nFeb 18–Apr 25, 2026\n\nPlymouth\n"
    )
    assert drop_bylines(events) == events


def test_a_date_or_by_line_that_is_content_stays() -> None:
    """Review r-15: an event's date under "## When", a date after a lead-in ending in ":",
    a bold "By Car" label, and a by-line in the middle of a long text are content."""
    event = "Intro.\n\n## When\n\nSaturday, June 14, 2025\n\n## Where\n\nTown Hall"
    assert drop_bylines(event) == event
    closing = "Apply by post.\n\nThe closing date for applications is:\n\nMarch 12, 2025"
    assert drop_bylines(closing) == closing
    directions = "Getting here.\n\n**By Car**\n\nTake the A40 west.\n\n**By Bus**\n\nBus 12."
    assert drop_bylines(directions) == directions
    middle = "\n\n".join(
        ["One.", "Two.", "Three.", "By Appointment Only", "Four.", "Five.", "Six."]
    )
    assert drop_bylines(middle) == middle
