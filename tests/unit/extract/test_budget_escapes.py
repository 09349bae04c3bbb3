"""A markdown window (``offset`` / ``max_length`` paging) never starts or ends between a
backslash and the character it escapes (review of session 9).

Before: a page's ``\\<script>`` on a long line, read from the byte after the backslash,
gave a window starting ``<script>`` — raw HTML to a renderer — and the window before it
ended on a lone ``\\``.
"""

from __future__ import annotations

import pytest
from markdown_it import MarkdownIt

from webresearch.extract.budget import cut_window
from webresearch.tools.page_text import format_document
from webresearch.types import PageText

#: One long line (no line boundary to move a cut to), an escaped tag in its middle.
LINE = "Rake the beds well. " * 10 + "Never paste \\<script>alert(1)\\</script> in the form."
AT = LINE.index("\\<")


def test_a_window_read_from_inside_an_escape_starts_with_its_backslash() -> None:
    window = cut_window(LINE, AT + 1, 4000, markdown=True)
    assert window.start == AT
    assert window.text.startswith("\\<script>")
    assert "<script>" not in MarkdownIt("commonmark").render(window.text)


def test_a_window_cut_inside_an_escape_ends_before_its_backslash() -> None:
    window = cut_window(LINE, 0, AT + 1, markdown=True)
    assert window.end == AT and not window.text.endswith("\\")
    after = cut_window(LINE, window.end, 4000, markdown=True)
    assert after.text.startswith("\\<script>")


@pytest.mark.parametrize("budget", range(AT - 2, AT + 4))
def test_paging_a_line_of_escapes_keeps_every_escape_whole(budget: int) -> None:
    """Pages read one after another (each from the last one's end) put the text back
    together, and none of them starts with a character its backslash was cut from."""
    text, offset, pages = "", 0, []
    while offset < len(LINE):
        window = cut_window(LINE, offset, budget, markdown=True)
        pages.append(window.text)
        text += window.text
        offset = window.end
    assert text == LINE
    assert all(not page.startswith("<") for page in pages)


def test_a_double_backslash_is_no_escape_of_what_follows() -> None:
    """``\\\\<`` is an escaped backslash then ``<``: a cut after it splits nothing."""
    text = "a" * 40 + "\\\\<b" + "c" * 40
    at = text.index("<")
    assert cut_window(text, at, 4000, markdown=True).start == at
    assert cut_window(text, at - 1, 4000, markdown=True).start == at - 2  # inside "\\\\"


def test_pass_through_text_is_cut_where_asked() -> None:
    """Plain data (not markdown) keeps its exact byte prefix rule (case 16)."""
    window = cut_window(LINE, AT + 1, 4000, markdown=False)
    assert window.start == AT + 1


def test_web_fetch_paging_from_inside_an_escape() -> None:
    page: PageText = {
        "url": "https://beds.example.test/notes",
        "content_type": "text/html",
        "title": "Beds",
        "text": LINE,
        "markdown": True,
    }
    out, window = format_document(page, AT + 1, 4000)
    assert window["offset"] == AT
    assert "\n\\<script>" in out
