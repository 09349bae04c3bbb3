"""A page's structure for focused reading: headings, byte offsets, chunks, the outline."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from webresearch.extract.sections import (
    CHUNK_MAX_BYTES,
    Heading,
    closing_fence,
    heading_title,
    render_outline,
    scan,
)

PAGE = """Intro before any heading — déjà vu.

# Guide

Some text.

## Install

```sh
# this is a shell comment, not a heading
pip install thing

echo done
```

## Configure ##

~~~
## not a heading either
~~~

Setext Title
============

para under setext

Second *setext*
---------------

### Deep [link](https://example.org/x) `code`

text
"""


def at(text: str, offset: int) -> str:
    """The text from a byte offset."""
    return text.encode("utf-8")[offset:].decode("utf-8")


def test_headings_are_found_outside_code_with_byte_offsets_and_paths() -> None:
    s = scan(PAGE)
    assert [(h.level, h.title) for h in s.headings] == [
        (1, "Guide"),
        (2, "Install"),
        (2, "Configure"),
        (1, "Setext Title"),
        (2, "Second *setext*"),
        (3, "Deep link code"),
    ]
    # Byte offsets: the text before "Guide" holds multi-byte letters (— and é, à).
    for h in s.headings:
        assert at(PAGE, h.start).startswith(("#", "Setext", "Second"))
    assert at(PAGE, s.headings[0].start).startswith("# Guide")
    assert s.headings[0].start == len("Intro before any heading — déjà vu.\n\n".encode())
    assert s.headings[2].path == ("Guide", "Configure")
    assert s.headings[5].path == ("Setext Title", "Second *setext*", "Deep link code")
    assert s.total == len(PAGE.encode())


def test_plain_text_has_no_headings() -> None:
    s = scan("# a comment in a shell script\necho hi\n", markdown=False)
    assert s.headings == ()
    assert len(s.chunks) == 1 and s.chunks[0].path == ()


def test_atx_edge_cases() -> None:
    s = scan("#hashtag\n\n####### seven\n\n#\n\n   ### indented ok\n\n    # code block\n")
    assert [h.title for h in s.headings] == ["indented ok"]


def test_a_list_or_quote_line_does_not_make_a_setext_heading() -> None:
    s = scan("- item\n---\n\n> quote\n===\n\nreal\n---\n")
    assert [h.title for h in s.headings] == ["real"]


def test_chunks_cover_the_text_in_order_and_name_their_section() -> None:
    s = scan(PAGE)
    data = PAGE.encode()
    starts = [c.start for c in s.chunks]
    assert starts == sorted(starts)
    for a, b in zip(s.chunks, s.chunks[1:], strict=False):
        assert a.end <= b.start and not data[a.end : b.start].strip()  # only blank lines between
    install = next(c for c in s.chunks if c.path == ("Guide", "Install"))
    assert data[install.start : install.end].decode().startswith("## Install")
    assert "pip install thing" in data[install.start : install.end].decode()
    assert install.has_heading and install.body > install.start
    configure = next(c for c in s.chunks if c.path == ("Guide", "Configure"))
    assert configure.has_heading
    intro = s.chunks[0]
    assert intro.path == () and not intro.has_heading


def test_a_heading_alone_is_marked_as_such() -> None:
    s = scan("# Top\n\n## Child\n\ntext\n")
    top = s.chunks[0]
    assert top.path == ("Top",) and top.body == top.end  # nothing after the heading


def test_long_sections_are_split_by_paragraphs_within_the_chunk_size() -> None:
    paragraphs = [f"Paragraph {i}: " + "words " * 60 for i in range(30)]
    text = "# Long\n\n" + "\n\n".join(paragraphs) + "\n"
    s = scan(text)
    data = text.encode()
    assert len(s.chunks) > 5
    for c in s.chunks:
        assert c.end - c.start <= CHUNK_MAX_BYTES
        assert c.path == ("Long",)
        piece = data[c.start : c.end].decode()
        assert piece.startswith(("# Long", "Paragraph"))  # cut between paragraphs
    assert s.chunks[0].has_heading and not any(c.has_heading for c in s.chunks[1:])


def test_a_long_code_block_is_split_at_lines_and_remembers_its_fence() -> None:
    lines = [f"    value_{i} = compute({i})  # étape {i}" for i in range(400)]
    text = "# Listing\n\n```python\n" + "\n".join(lines) + "\n```\n\nAfter.\n"
    s = scan(text)
    data = text.encode()
    inside = [c for c in s.chunks if c.fence is not None]
    assert inside, "later pieces of the listing start inside its fence"
    for c in inside:
        assert c.fence == "```"
        assert data[c.start : c.end].decode().startswith("    value_")
    assert all(c.end - c.start <= CHUNK_MAX_BYTES for c in s.chunks)
    # "# étape" comments inside the block are no headings
    assert [h.title for h in s.headings] == ["Listing"]


def test_a_line_longer_than_a_chunk_is_cut_at_character_boundaries() -> None:
    text = "# Wide\n\n" + "€𝄞あ" * 1000 + "\n"
    s = scan(text)
    data = text.encode()
    for c in s.chunks:
        data[c.start : c.end].decode("utf-8")  # never inside a character
        assert c.end - c.start <= CHUNK_MAX_BYTES
    assert b"".join(data[c.start : c.end] for c in s.chunks).replace(b"\n", b"") == data.replace(
        b"\n", b""
    )


def test_closing_fence() -> None:
    assert closing_fence(None, "```py\nx = 1\n") == "```py"[:3]
    assert closing_fence(None, "```\nx\n```\n") is None
    assert closing_fence("~~~~", "x\n~~~\n") == "~~~~"  # a shorter fence does not close
    assert closing_fence("~~~~", "x\n~~~~~\n") is None
    assert closing_fence(None, "``` a `b` c\n") is None  # backticks in the info: no fence


def test_heading_title_cleaning() -> None:
    assert (
        heading_title("**Bold** [Link](https://x.y/z) ![img](a.png) `code`") == "Bold Link img code"
    )
    long = heading_title("word " * 40)
    assert len(long) == 80 and long.endswith("…")


def outline_headings() -> list[Heading]:
    out = []
    start = 0
    for level, title in [(1, "Top"), (2, "A"), (3, "A1"), (3, "A2"), (2, "B"), (3, "B1"), (2, "C")]:
        out.append(Heading(level, title, start, (title,)))
        start += 1000
    return out


def test_outline_lists_every_heading_indented_with_its_offset() -> None:
    text = render_outline(outline_headings(), 10_000)
    assert text.split("\n") == [
        "- Top (offset=0)",
        "  - A (offset=1000)",
        "    - A1 (offset=2000)",
        "    - A2 (offset=3000)",
        "  - B (offset=4000)",
        "    - B1 (offset=5000)",
        "  - C (offset=6000)",
    ]


def test_an_outline_over_its_budget_keeps_shallow_levels_and_headings_ahead() -> None:
    headings = outline_headings()
    full = render_outline(headings, 10_000)
    budget = len(full.encode()) - 10
    text = render_outline(headings, budget, position=4500)
    assert len(text.encode()) <= budget
    lines = text.split("\n")
    left = len(headings) - (len(lines) - 1)
    assert left == 2 and lines[-1] == "- … 2 more headings not listed"
    assert "    - B1 (offset=5000)" in lines  # ahead of the reader: kept
    # behind the reader, deepest level: dropped first
    assert "    - A1 (offset=2000)" not in lines and "    - A2 (offset=3000)" not in lines
    assert [line for line in lines if line in full.split("\n")] == lines[:-1]  # page order
    tiny = render_outline(headings, 90, position=4500)
    assert tiny.split("\n")[-1].startswith("- … ") and len(tiny.encode()) <= 90
    assert tiny.split("\n") == [  # shallow levels first; within a level, ahead of the reader
        "- Top (offset=0)",
        "  - A (offset=1000)",
        "  - C (offset=6000)",
        "- … 4 more headings not listed",
    ]


def test_no_outline_for_fewer_than_two_headings() -> None:
    assert render_outline(outline_headings()[:1], 1000) == ""
    assert render_outline(outline_headings(), 20) == ""


@given(st.text(alphabet=st.sampled_from("ab #=-`~\n é€𝄞"), max_size=400))
def test_scan_never_fails_and_offsets_are_character_boundaries(text: str) -> None:
    s = scan(text)
    data = text.encode()
    for h in s.headings:
        data[h.start :].decode("utf-8")
        assert h.title and 1 <= h.level <= 6
    for c in s.chunks:
        data[c.start : c.end].decode("utf-8")
        assert c.start < c.end <= len(data) and c.start <= c.body <= c.end


def test_an_outline_lists_relevant_headings_first_with_their_ancestors() -> None:
    headings = outline_headings()
    text = render_outline(headings, 100, relevance={5000: 2.5, 3000: 0.5})
    assert text.split("\n") == [
        "- Top (offset=0)",
        "  - B (offset=4000)",
        "    - B1 (offset=5000)",
        "- … 4 more headings not listed",
    ]
