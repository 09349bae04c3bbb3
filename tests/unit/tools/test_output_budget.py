"""``max_bytes`` is the budget of the page's text (case 16: the kept text is at most B
bytes; the header lines and the marker come on top), and a cut markdown window does not end
on a heading whose section it left out (review of session 7).

Before: a cut could end on ``## Next section`` with nothing under it.
"""

from __future__ import annotations

import pytest

from webresearch.extract.budget import cut_window
from webresearch.tools.page_text import format_document
from webresearch.types import PageText


def page(text: str, title: str = "A title long enough to matter in a small budget") -> PageText:
    return {
        "url": "https://docs.example.test/guide/how-to-tune-widgets-for-speed",
        "content_type": "text/html",
        "title": title,
        "text": text,
        "markdown": True,
    }


@pytest.mark.parametrize("size", [700, 760, 790, 800, 2000, 20000])
def test_max_bytes_is_the_budget_of_the_text_on_every_page(size: int) -> None:
    """One rule whatever the page (case 16: the kept text's length N is at most B): the
    header lines and the marker are not counted."""
    text = ("Widgets turn quietly. " * 2000)[:size]
    out, window = format_document(page(text), 0, 800)
    _, _, body = out.partition("\n\n")
    if size <= 800:
        assert not window["truncated"] and body == text
    else:
        marker = f"[truncated at {window['next_offset']} of {window['total_bytes']} bytes]"
        assert body.endswith("\n" + marker)
        assert len(body[: -len(marker) - 1].encode()) <= 800


def test_a_cut_page_s_text_and_outline_fit_max_bytes() -> None:
    sections = "\n\n".join(
        f"## Section {n}\n\n" + "Body words of this section. " * 20 for n in range(12)
    )
    out, window = format_document(page(sections), 0, 1500)
    assert window["truncated"] and window.get("outline")
    body = out.partition("\n\n")[2].rsplit("\n", 1)[0]  # without the header and the marker
    assert len(body.encode("utf-8")) <= 1500
    # the kept text does not end on a heading (the outline follows it)
    assert not body.split("\n\n[outline")[0].rstrip().split("\n")[-1].startswith("#")


def test_a_cut_window_does_not_end_on_an_empty_heading() -> None:
    text = (
        "First paragraph of words.\n\n"
        + "More words here. " * 5
        + "\n\n## Next section\n\n"
        + ("Text of the next section. " * 20)
    )
    limit = text.index("## Next section") + len("## Next section\n\n") + 5
    window = cut_window(text, 0, limit, markdown=True)
    assert window.truncated
    assert not window.text.rstrip().endswith("## Next section"), window.text
    assert window.text.rstrip().endswith("More words here.")
    # the next window starts with the heading
    assert text.encode()[window.end :].decode().startswith("## Next section")


def test_a_hash_line_inside_a_code_block_is_no_heading() -> None:
    text = "Intro words.\n\n```sh\necho one\n# a comment\n" + "echo more\n" * 40 + "```\n"
    limit = text.index("# a comment") + len("# a comment\n") + 5  # room for the fence
    window = cut_window(text, 0, limit, markdown=True)
    assert "# a comment" in window.text
