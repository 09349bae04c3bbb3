"""Markdown faults the session-5 reviewers found, each on a small page of our own: formulas
shown twice (KaTeX without ``aria-hidden``, MathJax v2), TeX and prose dollars read as
markdown, link-card lists dropped by content selection, descriptive "Photo 3 …" alts taken
for file names, unescaped frame titles."""

from __future__ import annotations

import re

import pytest
from markdown_it import MarkdownIt

from webresearch.extract import markdown_inline
from webresearch.extract.html import extract_html
from webresearch.extract.markdown import element_to_markdown
from webresearch.extract.parse import parse_html

URL = "https://ferries.example.org/2025/winter-timetable.html"

PROSE = "".join(
    f"<p>Paragraph {i} explains how the ferry timetable changes in winter, which piers close "
    f"early, and where travellers can wait out of the wind before the boat arrives.</p>"
    for i in range(6)
)


def article(inner: str) -> str:
    return (
        "<!DOCTYPE html><html><head><title>Winter timetable</title></head><body>"
        "<header><nav><ul><li><a href='/'>Home</a></li><li><a href='/routes'>Routes</a></li>"
        "<li><a href='/contact'>Contact</a></li></ul></nav></header>"
        f"<main><article><h1>Winter timetable</h1>{inner}</article></main>"
        "<footer><p>© 2025 Bay Ferries</p></footer></body></html>"
    )


def md(html: str, url: str = URL) -> str:
    return extract_html(html, url).markdown


def plain_render(markdown: str) -> str:
    """What a CommonMark renderer without a math plugin shows (HTML)."""
    return MarkdownIt("commonmark").render(markdown)


# --------------------------------------------------------------------------- 4. photo alts


@pytest.mark.parametrize(
    "alt",
    [
        "Photo 3 of the bridge at dusk, seen from the river",
        "Image 12: the ferry leaving the north pier",
        "A state-of-the-art ferry at the north pier",
    ],
)
def test_a_descriptive_alt_starting_like_a_file_name_is_kept(alt: str) -> None:
    image = f"<p><img src='/media/ferry-at-pier-7.jpg' alt='{alt}'></p>"
    out = md(article(PROSE[:400] + image + PROSE[400:]))
    assert "https://ferries.example.org/media/ferry-at-pier-7.jpg" in out


@pytest.mark.parametrize(
    "alt", ["Photo 3", "IMG_1234", "DSC01234.jpg", "img 0042", "north-pier-dusk_03", "Photo-12"]
)
def test_a_file_name_alt_is_still_dropped(alt: str) -> None:
    image = f"<p><img src='/media/ferry-at-pier-7.jpg' alt='{alt}'></p>"
    out = md(article(PROSE[:400] + image + PROSE[400:]))
    assert "ferry-at-pier-7.jpg" not in out


# --------------------------------------------------------------------------- 5. frame titles


def test_frame_titles_are_plain_text_in_markdown() -> None:
    html = (
        "<html><head><title>Ferries</title></head><frameset cols='20%,80%'>"
        "<frame src='menu.html' title='*Menu* [1]'><frame src='main.html' name='_main_`x`'>"
        "</frameset></html>"
    )
    out = md(html)
    assert "- [\\*Menu\\* \\[1\\]](https://ferries.example.org/2025/menu.html)" in out
    rendered = plain_render(out)
    assert "<em>" not in rendered and "<code>" not in rendered
    assert ">*Menu* [1]</a>" in rendered
    assert ">_main_`x`</a>" in rendered


def test_an_image_alt_is_plain_text_in_markdown() -> None:
    root = parse_html("<p><img src='/i/ferry.jpg' alt='The *fast* ferry [2] at `pier`'></p>")
    out = element_to_markdown(root, URL)
    assert (
        out
        == "![The \\*fast\\* ferry \\[2\\] at \\`pier\\`](https://ferries.example.org/i/ferry.jpg)"
    )
    assert 'alt="The *fast* ferry [2] at `pier`"' in plain_render(out)


def test_escape_inline_text_leaves_nothing_active() -> None:
    text = "*a* _b_ `c` [d](e) <f> \\g ~~h~~ &amp; $1 $2 ![i](j)"
    rendered = plain_render(markdown_inline.escape_inline_text(text))
    assert re.sub(r"</?p>|\n", "", rendered) == (
        "*a* _b_ `c` [d](e) &lt;f&gt; \\g ~~h~~ &amp;amp; $1 $2 ![i](j)"
    )
