"""A newsletter's own labelled ad sections are not its content (extract/ad_sections.py);
one such section, or a bare "Advertisement" heading, keeps its text. Pages of our own."""

from __future__ import annotations

from webresearch.extract.html import extract_html

URL = "https://letters.example.org/p/the-weekly-tide-issue-12"


def para(i: int) -> str:
    return (
        f"<p>Note {i}: the spring tides this week run a metre higher than the neaps, so the "
        f"causeway closes an hour earlier each evening and the ferry keeps its winter hours.</p>"
    )


def md(sections: str) -> str:
    html = (
        "<!DOCTYPE html><html><head><title>The Weekly Tide, issue 12</title></head><body>"
        "<main><article><h1>The Weekly Tide, issue 12</h1>"
        + "".join(para(i) for i in range(4))
        + sections
        + "<h2>Next week</h2>"
        + para(9)
        + "</article></main></body></html>"
    )
    return extract_html(html, URL).markdown


BOOK = (
    "<h2><strong>Advertisement: The Tide Almanac</strong></h2>"
    "<p>My new almanac lists every high water of the coming year for forty harbours, with "
    "the sunrise and the moon's phase beside each day; order it from the shop today.</p>"
)
COURSE = (
    "<h2>Sponsored: Learn to read charts</h2>"
    "<p>A six-week evening course on chart reading, from soundings to the symbols for "
    "wrecks and cables, taught online by a harbour pilot; seats are limited.</p>"
)


def test_labelled_ad_sections_go() -> None:
    out = md(BOOK + COURSE)
    assert "Tide Almanac" not in out and "forty harbours" not in out
    assert "six-week evening course" not in out
    assert "Note 3: the spring tides" in out and "Note 9: the spring tides" in out
    assert "## Next week" in out


def test_one_labelled_section_stays() -> None:
    """An article about advertising may title one section so."""
    history = (
        "<h2>Advertisement: a short history</h2>"
        "<p>The first printed advertisement in an English newspaper offered a reward for "
        "two stolen horses, and tide tables soon followed as paid notices.</p>"
    )
    out = md(history)
    assert "offered a reward for two stolen horses" in out


def test_a_bare_advertisement_heading_keeps_its_text() -> None:
    about = (
        "<h2>Advertisement</h2><p>Harbour boards advertised their tide tables in almanacs, "
        "which paid for the printing of the charts.</p>"
        "<h2>Advertisement</h2><p>Later the boards sold space on the tables themselves.</p>"
    )
    out = md(about)
    assert "advertised their tide tables in almanacs" in out
    assert "sold space on the tables themselves" in out
