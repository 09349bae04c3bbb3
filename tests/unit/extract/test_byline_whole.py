"""A byline keeps its author, its date and its words; only a reading time beside them goes
(new-user test, session 16: "By <a rel=author>…</a> · <time>…</time> · 4 min read" lost
the whole line, the author's name alone, or "Posted on"), on pages of our own."""

from __future__ import annotations

import pytest

from webresearch.extract.html import extract_html
from webresearch.extract.meta_lines import drop_meta_lines

PROSE = "".join(
    f"<p>Paragraph {i}: the ferry to the outer islands now leaves an hour earlier in winter, "
    f"and the harbour office has moved the ticket desk beside the slipway.</p>"
    for i in range(6)
)


def page(byline: str, lead: str = "<p class='lead'>The timetable changes on Monday.</p>") -> str:
    html = (
        "<html><head><title>Winter ferry times</title></head><body><main><article>"
        f"<h1>Winter ferry times</h1>{lead}{byline}{PROSE}</article></main></body></html>"
    )
    return extract_html(html, "https://harbour.example/news/ferry").markdown


def test_the_author_link_and_date_of_a_byline_stay_without_the_reading_time() -> None:
    out = page(
        '<div class="byline">By <a href="/people/ola-berg" rel="author">Ola Berg</a> · '
        '<time datetime="2026-11-02T08:00Z">2 November 2026</time> · 3 min read</div>'
    )
    assert "By [Ola Berg](https://harbour.example/people/ola-berg) · 2 November 2026" in out
    assert "min read" not in out


def test_the_author_link_of_a_byline_stays() -> None:
    # resiliparse, which fills the gaps, drops a rel="author" link: "By · 2 November 2026"
    out = page(
        '<div class="byline">By <a href="/people/ola-berg" rel="author">Ola Berg</a> · '
        '<time datetime="2026-11-02T08:00Z">2 November 2026</time></div>'
    )
    assert "By [Ola Berg](https://harbour.example/people/ola-berg) · 2 November 2026" in out


def test_a_posted_on_line_stays_whole() -> None:
    # a newsletter modal and an open consent <dialog> before the page: the alignment kept the tail "by Ola Berg"
    # alone, and the line read "2 October 2026 by Ola Berg"
    html = (
        "<html><head><title>How to plant tulips</title></head><body>"
        "<div class='modal' role='dialog' aria-modal='true'><h2>Before you go</h2><p>Join our "
        "mailing list for a seed discount.</p><form><input type='email'><button>Join</button>"
        "</form></div>"
        "<dialog open id='consent'><p>This site uses cookies. By continuing you agree to our "
        "cookie policy.</p><button>OK</button></dialog>"
        "<header><a href='/'>Garden Notes</a></header><main><article>"
        "<h1>How to plant tulips</h1><p class='meta'>Posted on "
        "<time datetime='2026-10-02'>2 October 2026</time> by Ola Berg</p>"
        "<p>Plant tulip bulbs in autumn, when the soil has cooled. Pick firm bulbs and set "
        "them pointed end up.</p><ol><li>Dig a hole three times as deep as the bulb.</li>"
        "<li>Add a little grit for drainage.</li><li>Set the bulb and cover it with soil.</li><li>Water once and wait for spring.</li></ol>"
        "</article></main></body></html>"
    )
    out = extract_html(html, "https://garden.example/tulips").markdown
    assert "Posted on 2 October 2026 by Ola Berg" in out


@pytest.mark.parametrize(
    ("line", "kept"),
    [
        ("By Ola Berg · 2 November 2026 · 3 min read", "By Ola Berg · 2 November 2026"),
        ("Nov 02, 2026 • 11 Minute Read", "Nov 02, 2026"),
        ("3 min read · By Ola Berg", "By Ola Berg"),
        ("By Ola Berg · 3 min read · 2 November 2026", "By Ola Berg · 2 November 2026"),
        ("Published: 2 November 2026", "Published: 2 November 2026"),
        ("Last updated on November 3, 2026", "Last updated on November 3, 2026"),
    ],
)
def test_a_meta_line_loses_only_its_reading_time(line: str, kept: str) -> None:
    assert drop_meta_lines(f"Some text.\n\n{line}\n\nMore text.") == (
        f"Some text.\n\n{kept}\n\nMore text."
    )


@pytest.mark.parametrize(
    "line", ["3 min read", "*3 min read*", "Estimated reading time: 4 minutes"]
)
def test_a_line_that_is_only_a_reading_time_goes(line: str) -> None:
    assert drop_meta_lines(f"Some text.\n\n{line}\n\nMore text.") == "Some text.\n\nMore text."


def test_a_reading_time_inside_a_sentence_stays() -> None:
    text = "Some text.\n\nIt is a 3 min read for most people, says the editor.\n"
    assert drop_meta_lines(text) == text
