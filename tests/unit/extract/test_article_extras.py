"""Teaser sections after an article (extract/article_extras.py), on small pages of our own."""

from __future__ import annotations

import pytest

from webresearch.extract.article_extras import drop_teaser_sections
from webresearch.extract.html import extract_html

URL = "https://orchard.example.net/journal/pruning-old-apple-trees"

PROSE = "".join(
    f"<p>Step {i}: cut the crossing branch just outside its collar, leave the spur wood that "
    f"bore fruit last summer, and paint nothing on the wound; the tree seals it by spring.</p>"
    for i in range(8)
)


def md(after: str) -> str:
    html = (
        "<!DOCTYPE html><html><head><title>Pruning old apple trees</title></head><body>"
        "<header><nav><a href='/'>Home</a> <a href='/journal'>Journal</a></nav></header>"
        "<main><div class='wrap'><article><h1>Pruning old apple trees</h1>"
        f"<h2>The winter cut</h2>{PROSE}{after}</article></div></main>"
        "<footer><p>© 2024 Orchard Journal</p></footer></body></html>"
    )
    return extract_html(html, URL).markdown


TEASERS = (
    "<h2>Read this next</h2>"
    "<p><a href='/journal/grafting'>Grafting a heritage variety onto rootstock</a>: "
    "whip-and-tongue joints for beginners, with the tools laid out on the bench.</p>"
    "<p><a href='/journal/codling-moth'>When the codling moth arrives</a>: traps, timing and "
    "the week the first larvae hatch in the orchard.</p>"
)


def test_read_this_next_section_after_the_article_is_dropped() -> None:
    out = md(TEASERS)
    assert "spur wood" in out  # the article stays
    assert "Read this next" not in out
    assert "codling moth" not in out
    assert "whip-and-tongue" not in out


@pytest.mark.parametrize(
    "heading",
    [
        "Related posts",
        "**You’ll Also Love...**",
        "Up Next",
        "Recent Blogs",
        "MORE NEWS",
        "Want more like this?",
        "You may also like",
        "Explore more",
    ],
)
def test_teaser_headings(heading: str) -> None:
    text = f"# Story\n\nBody text.\n\n## {heading}\n\n- [Other story](/x)\n\n## Notes\n\nKept."
    assert drop_teaser_sections(text) == "# Story\n\nBody text.\n\n## Notes\n\nKept."


def test_section_ends_at_a_heading_of_the_same_or_higher_level_only() -> None:
    text = "## Read next\n\n### Card one\n\nTeaser.\n\n# Appendix\n\nKept."
    assert drop_teaser_sections(text) == "# Appendix\n\nKept."


@pytest.mark.parametrize(
    "heading", ["Related", "Related work", "See also", "Further reading", "Next steps"]
)
def test_other_headings_stay(heading: str) -> None:
    text = f"# Paper\n\nBody.\n\n## {heading}\n\nProse about earlier results, with [a link](/y)."
    assert drop_teaser_sections(text) == text


def test_a_heading_line_inside_code_is_not_a_heading() -> None:
    text = "Intro.\n\n```\n## Related posts\nprint('still code')\n```\n\nAfter."
    assert drop_teaser_sections(text) == text
