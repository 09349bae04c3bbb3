"""A rule (``---``) that begins or ends the markdown, or follows another, separates nothing
and goes (extract/markdown_tidy.py, review: a directory listing began with ``---``), on
pages of our own."""

from __future__ import annotations

from webresearch.extract.html import extract_html
from webresearch.extract.markdown_tidy import tidy_markdown

LISTING = (
    "<html><head><title>Index of /pub/maps/</title></head><body>"
    "<h1>Index of /pub/maps/</h1><hr><pre><a href='../'>../</a>\n"
    "<a href='alps-2026.pdf'>alps-2026.pdf</a>        01-Dec-2026 09:12     482113\n"
    "<a href='pyrenees.pdf'>pyrenees.pdf</a>         14-Nov-2026 17:40     391022\n"
    "</pre><hr></body></html>"
)


def test_a_directory_listing_neither_begins_nor_ends_with_a_rule() -> None:
    markdown = extract_html(LISTING, "https://files.example.org/pub/maps/").markdown
    assert "alps-2026.pdf" in markdown
    assert not markdown.startswith("---")
    assert not markdown.endswith("---")


def test_rules_between_blocks_stay_once() -> None:
    text = "---\n\nFirst part.\n\n---\n\n---\n\nSecond part.\n\n---"
    assert tidy_markdown(text, keep_repeats=True) == "First part.\n\n---\n\nSecond part."


def test_a_rule_inside_fenced_code_is_kept() -> None:
    text = "```yaml\n---\n\n---\nkey: 1\n```"
    assert tidy_markdown(text, keep_repeats=True) == text
