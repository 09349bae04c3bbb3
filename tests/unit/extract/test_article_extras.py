"""Teaser sections after an article (extract/article_extras.py), on small pages of our own."""

from __future__ import annotations

import pytest

from webresearch.extract.article_extras import drop_promo_paragraphs, drop_teaser_sections
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
    story = "# Story\n\nThe whole article body, long enough to be the page's own text."
    text = f"{story}\n\n## Read next\n\n### [Card one](/one)\n\nTeaser.\n\n# Appendix\n\nKept."
    assert drop_teaser_sections(text) == f"{story}\n\n# Appendix\n\nKept."


def test_a_teaser_phrase_over_the_pages_own_content_stays() -> None:
    # A blog index: its listing under "Latest posts" is most of the page, not a teaser.
    index = (
        "# Orchard journal\n\nNotes from the orchard.\n\n## Latest posts\n\n"
        "- [Grafting a heritage variety](/grafting): whip-and-tongue joints for beginners.\n"
        "- [When the codling moth arrives](/moth): traps, timing and the first larvae.\n"
        "- [Pruning old apple trees](/pruning): the winter cut, branch by branch."
    )
    assert drop_teaser_sections(index) == index
    # A course page's reading list in prose (no links) is the course's content.
    course = (
        "# Soil science 101\n\nThe course covers texture, structure, water and life in "
        "soils, with field work every other week.\n\n## Recommended reading\n\n"
        "The core textbook is The Nature and Properties of Soils; read chapters 1 to 4."
    )
    assert drop_teaser_sections(course) == course


@pytest.mark.parametrize(
    "heading", ["Related", "Related work", "See also", "Further reading", "Next steps"]
)
def test_other_headings_stay(heading: str) -> None:
    text = f"# Paper\n\nBody.\n\n## {heading}\n\nProse about earlier results, with [a link](/y)."
    assert drop_teaser_sections(text) == text


def test_a_heading_line_inside_code_is_not_a_heading() -> None:
    text = "Intro.\n\n```\n## Related posts\nprint('still code')\n```\n\nAfter."
    assert drop_teaser_sections(text) == text


# Paragraph-headed lists of links ("**Related articles:**" over a list, "You may also like...").

RELATED_LIST = (
    "<p><strong>Related articles:</strong></p><ul>"
    "<li><a href='/journal/grafting'>Grafting a heritage variety</a></li>"
    "<li><a href='/journal/moth'>When the codling moth arrives</a></li></ul>"
)


@pytest.mark.parametrize("where", ["inside", "after"])
def test_a_paragraph_headed_list_of_links_is_dropped(where: str) -> None:
    out = md(RELATED_LIST + PROSE) if where == "inside" else md(RELATED_LIST)
    assert "spur wood" in out and "Step 7: cut the crossing" in out
    assert "Related articles" not in out and "codling moth" not in out


LINK_LINES = "[Grafting a heritage variety](/g)\n\n[When the codling moth arrives](/m)"
STORY = (
    "# Story\n\nThe body of the story: the old tree, the winter cut, the spring after it "
    "and the first apples on the spurs we left."
)


@pytest.mark.parametrize(
    "label",
    [
        "You may also like...",
        "**Related Articles:**",
        "*Read Next*",
        "If you liked this post you might also like:",
        "More from the orchard journal:",
    ],
)
def test_promotion_labels_over_link_lines(label: str) -> None:
    text = f"{STORY}\n\n{label}\n\n{LINK_LINES}\n\nMore body text."
    assert drop_promo_paragraphs(text) == f"{STORY}\n\nMore body text."
    listed = f"{STORY}\n\n{label}\n\n- [Grafting](/g)\n- [The moth](/m)"
    assert drop_promo_paragraphs(listed) == STORY
    # alone at the end (its links left out as link-dense)
    assert drop_promo_paragraphs(f"{STORY}\n\n{label}") == STORY


def test_a_label_over_more_links_than_text_before_it_stays() -> None:
    index = f"# Blog\n\nLatest posts\n\n{LINK_LINES}"  # a blog index: the links are the page
    assert drop_promo_paragraphs(index) == index


@pytest.mark.parametrize(
    "text",
    [
        # a label with its link on the same line: the ground truth keeps as many as not
        "Intro.\n\n**Read more:** [The grafting guide](/g)\n\nEnd.",
        # a label over prose with a link in it
        "Intro.\n\n**Related:**\n\nThe moth and the sawfly share [one trap](/t) in tests.",
        # "See also" and "Related work" are the article's own pointers
        "Intro.\n\n**See also:**\n\n- [The grafting guide](/g)\n\nEnd.",
        "Intro.\n\nRelated work:\n\n- [Smith 2020](/s)\n\nEnd.",
        # a label over a list that is not links
        "Intro.\n\n**Related posts:**\n\n- mulch in spring\n- water in summer",
        # inside code
        "Intro.\n\n```\nRelated posts:\n\n[x](/x)\n```\n\nEnd.",
    ],
)
def test_paragraphs_that_stay(text: str) -> None:
    assert drop_promo_paragraphs(text) == text


def test_a_teaser_heading_left_with_nothing_under_it_goes() -> None:
    # Its links were left out as link-dense; the heading alone says nothing of the article.
    story = "# Story\n\nThe whole article body, long enough to be the page's own text."
    text = f"{story}\n\n## **Related content**\n\n## How we help\n\nKept.\n\n## Related Post\n"
    assert drop_teaser_sections(text) == f"{story}\n\n## How we help\n\nKept."
