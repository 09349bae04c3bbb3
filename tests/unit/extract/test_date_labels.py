"""A dateline's label stays with its date, and a date line a byline repeats is written once
(extract/inline_dates.py, extract/markdown_tidy.py; review, session 17), on pages of our own."""

from __future__ import annotations

import pytest

from webresearch.extract.html import extract_html
from webresearch.extract.markdown_tidy import tidy_markdown

URL = "https://harbour.example.org/news/ferry-timetable"
BODY = (
    "<p>The winter timetable of the island ferry starts on Monday, with two crossings a day "
    "instead of four and the last boat leaving the harbour at half past five.</p>"
    "<p>Tickets bought for the summer crossings stay valid until the end of the month; the "
    "office on the quay exchanges them for winter tickets free of charge.</p>"
)
TIME = "<time datetime='2026-12-01'>Dec 1, 2026</time>"


def news_page(head: str) -> str:
    return (
        "<html><head><title>Ferry timetable</title><meta property='og:type' content='article'>"
        f"</head><body><article><h1>Winter ferry timetable</h1>{head}{BODY}</article>"
        "</body></html>"
    )


@pytest.mark.parametrize(
    "head",
    [
        f"<p>Published {TIME}</p>",
        f"<div class='meta'>Published {TIME}</div>",
        f"<div class='meta'><span class='label'>Published</span> {TIME}</div>",
        f"<div class='meta'>Last updated on: {TIME}</div>",
    ],
)
def test_a_datelines_label_stays_with_its_date(head: str) -> None:
    markdown = extract_html(news_page(head), URL).markdown
    label = "Last updated on:" if "updated" in head else "Published"
    assert f"{label} Dec 1, 2026" in markdown


def test_a_date_beside_other_words_is_not_a_dateline() -> None:
    head = f"<div class='meta'>Ferry notice board {TIME}</div>"
    assert "Dec 1, 2026" not in extract_html(news_page(head), URL).markdown


@pytest.mark.parametrize(
    ("markdown", "expected"),
    [
        ("By Ann Lee · Dec 1, 2026\n\nDec 1, 2026\n\nText.", "By Ann Lee · Dec 1, 2026\n\nText."),
        ("Dec 1, 2026\n\nPublished: Dec 1, 2026\n\nText.", "Published: Dec 1, 2026\n\nText."),
        ("*Dec 1, 2026*\n\n*Dec 1, 2026*\n\nText.", "*Dec 1, 2026*\n\nText."),
        # a listing's entries each with their date: not neighbours, all kept
        (
            "## Ferry\n\nDec 1, 2026\n\n## Bus\n\nDec 1, 2026",
            "## Ferry\n\nDec 1, 2026\n\n## Bus\n\nDec 1, 2026",
        ),
        ("Dec 1, 2026\n\nDec 2, 2026", "Dec 1, 2026\n\nDec 2, 2026"),
        # the same day in another format (new-user test, session 17)
        ("By Ann Lee · 2026-03-03\n\nMarch 3, 2026\n\nText.", "By Ann Lee · 2026-03-03\n\nText."),
        ("March 3rd, 2026\n\nBy Ann Lee · 3 Mar 2026\n\nText.", "By Ann Lee · 3 Mar 2026\n\nText."),
        ("Published: 2026-03-03\n\n3 March 2026\n\nText.", "Published: 2026-03-03\n\nText."),
        ("By Ann Lee · 13/03/2026\n\nMarch 13, 2026\n\nText.", "By Ann Lee · 13/03/2026\n\nText."),
    ],
)
def test_a_date_line_repeated_by_its_neighbour_is_written_once(
    markdown: str, expected: str
) -> None:
    assert tidy_markdown(markdown, keep_repeats=True) == expected


LONG = (
    "The ferry company wrote to every season ticket holder this week to explain the winter "
    "crossings, the new fares and the ticket exchange at the office on the quay side, which "
    "opens an hour earlier on market days."
)


@pytest.mark.parametrize(
    "markdown",
    [
        # a release's date under its heading, a sentence naming it: no byline (review n-17)
        "## Version 3.2\n\n14 November 2026\n\nSecurity release. Upgrade if you run a version "
        "released before 14 November 2026.",
        # a labelled line tells of an update: it stays
        "By Maria Kovacs · 2 December 2026\n\nUpdated 2 December 2026\n\nText.",
        # another day, or a numeric date read two ways: not the same date
        "By Ann Lee · 2026-03-04\n\nMarch 3, 2026\n\nText.",
        "By Ann Lee · 03/04/2026\n\nMarch 4, 2026\n\nText.",
        # two bare dates, no byline: the rule is the byline's only
        "2026-03-03\n\nMarch 3, 2026\n\nText.",
        # past the article's head (a long paragraph): dates are entries' dates
        f"{LONG}\n\nBy Ann Lee · Dec 1, 2026\n\nDec 1, 2026\n\nText.",
    ],
)
def test_a_date_line_beside_no_byline_stays(markdown: str) -> None:
    assert tidy_markdown(markdown, keep_repeats=True) == markdown


def test_a_date_line_beside_an_author_link_goes() -> None:
    markdown = "[Ann Lee](/authors/ann-lee) · Dec 1, 2026\n\nDec 1, 2026\n\nText."
    expected = "[Ann Lee](/authors/ann-lee) · Dec 1, 2026\n\nText."
    assert tidy_markdown(markdown, keep_repeats=True) == expected


def test_a_labelled_date_line_copying_the_line_before_goes_anywhere() -> None:
    post = "[Posted Dec 1, 2026](/t/1#post-2)\n\nPosted Dec 1, 2026\n\nText."
    markdown = f"{LONG}\n\n{post}"
    expected = f"{LONG}\n\n[Posted Dec 1, 2026](/t/1#post-2)\n\nText."
    assert tidy_markdown(markdown, keep_repeats=True) == expected
