"""Runs of bare links to a site's other pages after an article are not content
(extract/link_runs.py), on pages of our own."""

from __future__ import annotations

from webresearch.extract.html import extract_html
from webresearch.extract.link_runs import drop_link_runs

URL = "https://www.tidepool-notes.example.net/guides/reading-a-tide-table"

PROSE = "".join(
    f"<p>Reading {i}: the first column gives the time of high water, the second its height "
    f"above chart datum, and the spring tides come two days after the full moon.</p>"
    for i in range(6)
)

#: Titles long enough that trafilatura keeps each one-link paragraph (its link density
#: test drops a linked paragraph shorter than 30 characters, 60 for the last one).
SAME_SITE = "".join(
    f"<p><a href='https://tidepool-notes.example.net/guides/{slug}'><strong>{title}</strong>"
    "</a></p>"
    for slug, title in (
        ("rock-pools", "How to read the rock pools of the northern coast on a winter morning"),
        ("kelp", "Kelp forests you can only reach at the lowest of the spring tides"),
        ("crabs", "Shore crabs of the estuary mud and the stones where they hide all day"),
        ("anemones", "Anemones that close up tight when the water leaves them at low tide"),
    )
)


def md(inner: str, declared: bool = True) -> str:
    head = "<meta property='og:type' content='article'>" if declared else ""
    html = (
        f"<!DOCTYPE html><html><head><title>Reading a tide table</title>{head}</head><body>"
        "<header><nav><a href='/'>Home</a> <a href='/guides'>Guides</a></nav></header>"
        f"<main><article><h1>Reading a tide table</h1>{inner}</article></main>"
        "<footer><p>© 2025 Tidepool Notes</p></footer></body></html>"
    )
    return extract_html(html, URL).markdown


def test_bare_links_to_the_sites_pages_after_an_article_go() -> None:
    out = md(PROSE + SAME_SITE)
    assert "Reading 0: the first column" in out and "Reading 5: the first column" in out
    assert "rock pools of the northern coast" not in out
    assert "Anemones that close" not in out


def test_links_to_other_sites_stay() -> None:
    text = (
        "The article's text is this one paragraph of plain words before its sources.\n\n"
        "[Tide tables from the harbour office](https://harbour.example.com/tides)\n\n"
        "[The admiralty's chart datum](https://admiralty.example.org/datum)\n\n"
        "[A university's page on spring tides](https://oceans.example.edu/spring)"
    )
    assert drop_link_runs(text, URL) == text


def test_a_written_list_and_a_short_run_stay() -> None:
    text = (
        "The article's text is this one paragraph of plain words before its links.\n\n"
        "- [Rock pools](https://tidepool-notes.example.net/a)\n"
        "- [Kelp forests](https://tidepool-notes.example.net/b)\n"
        "- [Shore crabs](/c)\n\n"
        "[Rock pools](https://tidepool-notes.example.net/a)\n\n"
        "[Kelp forests](/b)"
    )
    assert drop_link_runs(text, URL) == text


def test_a_hub_whose_content_is_the_links_keeps_them() -> None:
    text = "Guides\n\n" + "\n\n".join(
        f"[The longest guide title number {i} of the site](/guides/{i})" for i in range(5)
    )
    assert drop_link_runs(text, URL) == text


def test_relative_links_and_punctuation_after_the_link_count() -> None:
    text = (
        "The article's text is this one paragraph of plain words, longer than the links.\n\n"
        "[Rock pools](/a).\n\n*[Kelp forests](/b)*\n\n[Shore crabs](https://tidepool-notes"
        ".example.net/c)"
    )
    assert drop_link_runs(text, URL) == (
        "The article's text is this one paragraph of plain words, longer than the links."
    )


def test_code_is_never_read() -> None:
    text = (
        "The article's text is this one paragraph of plain words, longer than the code.\n\n"
        "```\n\n[a](/a)\n\n[b](/b)\n\n[c](/c)\n\n```"
    )
    assert drop_link_runs(text, URL) == text


def test_a_page_not_declaring_an_article_keeps_them() -> None:
    assert "rock pools of the northern coast" in md(PROSE + SAME_SITE, declared=False)
