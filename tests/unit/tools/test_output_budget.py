"""``max_bytes`` is the output budget (SPEC §1.1): the whole text a model gets — header
lines, body, outline, truncation marker — fits in it, on a page whose text alone fits and on
one whose text is cut alike; and a cut markdown window does not end on a heading whose
section it left out (review of session 7).

Before: a page whose text was under the budget but whose header took it over came out
whole and over ``max_bytes`` (859 bytes for ``--max-bytes 800``), while a cut page counted
only its body; a cut could end on ``## Next section`` with nothing under it.
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
def test_the_whole_output_fits_max_bytes(size: int) -> None:
    text = ("Widgets turn quietly. " * 2000)[:size]
    out, window = format_document(page(text), 0, 800)
    assert len(out.encode("utf-8")) <= 800, (size, len(out.encode()))
    if window["truncated"]:
        assert out.endswith(
            f"[truncated at {window['next_offset']} of {window['total_bytes']} bytes]"
        )
    else:
        assert out.endswith(text)


def test_a_cut_page_with_headings_and_its_outline_fits_max_bytes() -> None:
    sections = "\n\n".join(
        f"## Section {n}\n\n" + "Body words of this section. " * 20 for n in range(12)
    )
    out, window = format_document(page(sections), 0, 1500)
    assert window["truncated"] and window.get("outline")
    assert len(out.encode("utf-8")) <= 1500


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
