"""Counts in words (webresearch/wording.py) and the outputs that write them: one is never
"1 characters" (new-user test, session 17)."""

from __future__ import annotations

from webresearch.adapters._common import image_facts
from webresearch.browser.base import BlockedRequest
from webresearch.browser.snapshot import render_snapshot
from webresearch.extract.budget import TextWindow, truncation_marker
from webresearch.images.rules import human_bytes
from webresearch.net.download import cap_text
from webresearch.tools.browser_journal import with_notes
from webresearch.tools.page_text import format_document, hidden_kept_note
from webresearch.types import ImageBlock, PageText, ToolResult
from webresearch.wording import count


def test_one_is_singular_and_every_other_count_plural() -> None:
    assert count(1, "character") == "1 character"
    assert count(0, "character") == "0 characters"
    assert count(2, "interactive element") == "2 interactive elements"
    assert count(1, "entry", "entries") == "1 entry"
    assert count(3, "entry", "entries") == "3 entries"


def test_a_snapshot_cut_by_one_control_says_it_in_the_singular() -> None:
    nodes: list[dict[str, object]] = [
        {"kind": "i", "role": "link", "name": f"Harbour timetable page {n}", "ref": f"d1e{n}"}
        for n in range(1, 6)
    ]
    nodes.append({"kind": "t", "role": "text", "parts": ["The ferry leaves the harbour. " * 10]})
    text, stats = render_snapshot(nodes, 200 + 4 * 45 + 10)  # room for four of the five
    assert stats["truncated"]
    assert "with 1 interactive element;" in text, text


def test_page_notes_and_sizes_of_one() -> None:
    assert hidden_kept_note(1).startswith("note: 1 letter of this text is hidden")
    assert hidden_kept_note(5).startswith("note: 5 letters of this text are hidden")
    assert human_bytes(1) == "1 byte"
    blocked = BlockedRequest("http://127.0.0.2/x", "blocked_address", "refused", "Image", False)
    noted = with_notes(ToolResult(text="clicked"), ([blocked], [], []))
    assert "note: 1 request of the page was refused by policy" in noted.text


def test_more_counts_of_one_are_singular() -> None:
    # review r-18a: these counts were written as "N <plural>" outside wording.count
    doc = PageText(
        url="https://example.org/", content_type="text/html", title="T",
        text="The harbour\u202e timetable.", markdown=True,
    )  # fmt: skip
    text, _window = format_document(doc, 0, 10_000)
    assert "note: 1 invisible character was removed (hidden text)" in text
    # SPEC §1.1 writes the marker literally: a parser reads "of M bytes" for every M.
    assert truncation_marker(TextWindow("", 0, 0, 1)) == "[truncated at 0 of 1 bytes]"
    assert cap_text(1) == "1 byte"
    assert image_facts(ImageBlock(data=b"x", mime="image/png")) == "image/png, 1 byte"
