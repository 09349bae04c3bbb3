"""A menu button's or a navigation's unclosed ``<div>`` does not swallow the article
(extract/block_ends.py), on small pages of our own."""

from __future__ import annotations

import sys
from types import FrameType
from typing import TYPE_CHECKING

from lxml import etree

from webresearch.extract.block_ends import (
    MAX_OPEN_BLOCKS,
    close_chrome_blocks,
    swallowed_content,
)
from webresearch.extract.html import extract_html
from webresearch.extract.parse import parse_html

if TYPE_CHECKING:
    from _typeshed import TraceFunction

URL = "https://www.gardenrow.example.com/how-to-start-a-herb-garden-1234"

ARTICLE = (
    "<main><article><h1>How to Start a Herb Garden</h1>"
    "<div class='byline'>By Ada Marsh <div class='bio'>Ada Marsh grows herbs on a balcony "
    "and writes about small-space gardening for our readers.</div></div>"
    "<p>A herb garden needs six hours of sun, soil that drains and a tap within reach; a "
    "balcony rail box or a patch by the kitchen door is enough for a family's cooking.</p>"
    "<h2>Choosing your herbs</h2>"
    "<p>Start with what you cook: basil, parsley, chives and thyme grow fast from young "
    "plants, and mint is best kept in its own pot because its runners take over a bed.</p>"
    "<h2>Planting, step by step</h2><ol>"
    "<li>Loosen the soil to a spade's depth and work in two buckets of compost.</li>"
    "<li>Set the plants a hand's width apart, the tallest at the back.</li>"
    "<li>Water them in and again every morning for the first fortnight.</li></ol>"
    "<div class='recipe-card'><h3>Herb butter</h3><ul><li>100 g soft butter</li>"
    "<li>2 tbsp chopped parsley and chives</li><li>1 clove garlic, crushed</li></ul>"
    "<p>Mash together, roll in paper and chill for an hour.</p></div>"
    "<p>Pick often and from the top: a herb cut back keeps growing leaves instead of "
    "flowering, and the plants stay bushy until the first frost.</p>"
    "</article></main>"
)


def page(chrome: str) -> str:
    return (
        "<!DOCTYPE html><html><head><title>How to Start a Herb Garden</title></head><body>"
        f"{chrome}{ARTICLE}"
        "<div class='feedback'>Was this page helpful? <button>Yes</button> <button>No</button>"
        "</div><footer><p>Garden Row, 12 Mill Lane</p></footer></body></html>"
    )


# A publisher's menu button whose inner <div> is never closed: libxml2 ignores </button>.
BROKEN_BUTTON = (
    "<header><a href='/'>Garden Row</a>"
    "<button class='menu-button' aria-label='Main menu'><div class='menu-button-inner'>"
    "<div></button></header>"
)
# A navigation whose last <div> is never closed: libxml2 ignores </nav>.
BROKEN_NAV = (
    "<nav class='site-nav'><div class='menu'><a href='/herbs'>Herbs</a> "
    "<a href='/trees'>Trees</a><div class='dropdown'><a href='/ponds'>Ponds</a></div></nav>"
)


def test_a_menu_buttons_unclosed_div_leaves_the_article_outside_the_button() -> None:
    root = parse_html(page(BROKEN_BUTTON))
    button = next(root.iter("button"))
    assert button.find(".//main") is None
    assert root.find(".//main") is not None


def test_a_navigations_unclosed_div_leaves_the_article_outside_the_navigation() -> None:
    root = parse_html(page(BROKEN_NAV))
    nav = next(root.iter("nav"))
    assert nav.find(".//main") is None and nav.find(".//h1") is None
    assert "Ponds" in "".join(nav.itertext())


def test_the_article_under_a_broken_menu_button_is_read_with_its_structure() -> None:
    markdown = extract_html(page(BROKEN_BUTTON), URL).markdown
    assert "## Choosing your herbs" in markdown
    assert "1. Loosen the soil" in markdown and "3. Water them in" in markdown
    assert "### Herb butter" in markdown and "- 100 g soft butter" in markdown
    assert "Pick often and from the top" in markdown
    assert "Was this page helpful" not in markdown


def test_the_article_under_a_broken_navigation_keeps_every_part() -> None:
    markdown = extract_html(page(BROKEN_NAV), URL).markdown
    for part in (
        "## Planting, step by step",
        "2. Set the plants",
        "2 tbsp chopped parsley",
        "Mash together",
        "until the first frost",
    ):
        assert part in markdown
    assert "Trees" not in markdown


def test_a_well_formed_page_is_not_touched() -> None:
    html = page("<header><h1>Garden Row</h1><nav><div><a href='/'>Home</a></div></nav></header>")
    assert not swallowed_content(parse_html(html))
    assert close_chrome_blocks(html) is html


def test_a_title_in_the_banner_is_ordinary() -> None:
    html = "<html><body><header><div><h1>Garden Row</h1></div></header><p>text</p></body></html>"
    assert not swallowed_content(parse_html(html))


def test_only_the_divs_opened_inside_the_block_are_closed() -> None:
    html = "<div id=wrap><nav><div><a href=/>Home</a></nav><p>Body</p></div>"
    assert close_chrome_blocks(html) == (
        "<div id=wrap><nav><div><a href=/>Home</a></div></nav><p>Body</p></div>"
    )


def test_a_stray_div_end_tag_closes_the_block_as_before() -> None:
    html = "<div><nav><a href=/>Home</a></div><div>x</div></nav>"
    assert close_chrome_blocks(html) is html


def test_a_block_holding_a_table_is_left_to_the_parser() -> None:
    html = "<nav><div><table><tr><td>Home</td></tr></table></nav><main>x</main>"
    assert close_chrome_blocks(html) is html


def test_divs_in_comments_scripts_and_attribute_values_are_not_counted() -> None:
    html = (
        "<nav><!-- <div> --><script>var t = '<div>';</script>"
        "<a title='<div>' href=/>Home</a></nav><main>x</main>"
    )
    assert close_chrome_blocks(html) is html


def test_nested_blocks_close_what_they_opened() -> None:
    html = "<nav><div><button><div>Menu</button></nav>"
    assert close_chrome_blocks(html) == "<nav><div><button><div>Menu</div></button></div></nav>"
    body = parse_html(f"<html><body>{html}<main>x</main></body></html>").find("body")
    assert body is not None
    assert [child.tag for child in body] == ["nav", "main"]
    assert etree.tostring(body.find("nav"), encoding="unicode").count("<div>") == 2


def test_a_logo_heading_in_a_closed_navigation_changes_nothing() -> None:
    html = (
        "<html><body><nav><h1><a href='/'>Garden Row</a></h1><div><a href='/herbs'>Herbs</a>"
        "</div></nav><main><p>Body</p></main></body></html>"
    )
    assert swallowed_content(parse_html(html))
    assert close_chrome_blocks(html) is html


def test_a_self_closed_div_in_a_closed_navigation_is_not_open() -> None:
    html = (
        "<html><body><div id='page'><nav><h1>Garden Row</h1><div class='sep'/>"
        "<a href='/'>Home</a></nav><div class='post'><p>Body</p></div>"
        "<p>Closing words of the post.</p></div></body></html>"
    )
    assert close_chrome_blocks(html) is html
    page_div = parse_html(html).find(".//div[@id='page']")
    assert page_div is not None
    assert [child.tag for child in page_div] == ["nav", "div", "p"]


def test_only_a_block_the_tree_proves_swallowed_is_repaired() -> None:
    # The button's <div> is unclosed but nothing of the page's content went into it; the
    # <h1> inside the (closed) navigation is its logo: no </div> is written anywhere.
    html = (
        "<html><body><div id='page'><nav><h1>Garden Row</h1></nav>"
        "<button><div>Menu</button><p>Body</p></div></body></html>"
    )
    assert close_chrome_blocks(html) != html  # without the tree: repaired
    assert close_chrome_blocks(html, parse_html(html)) is html


def test_self_closed_blocks_are_not_kept_open() -> None:
    # 40 icon buttons closed XML-style, then a broken navigation: the tracker holds the
    # navigation alone, and its end tag gets the one </div> it needs.
    icons = "<button class='icon'/>" * 40
    html = f"<body>{icons}<nav><div>Menu</nav><main><h1>Title</h1><p>Body</p></main></body>"
    assert close_chrome_blocks(html) == html.replace("Menu</nav>", "Menu</div></nav>")
    root = parse_html(html)
    nav = next(root.iter("nav"))
    assert nav.find(".//main") is None


def _lines_run(html: str) -> int:
    """How many lines of block_ends.py run while it repairs ``html`` (a count of work)."""
    source = close_chrome_blocks.__code__.co_filename
    lines = 0

    def trace(frame: FrameType, event: str, arg: object) -> TraceFunction | None:
        nonlocal lines
        if frame.f_code.co_filename != source:
            return None
        if event == "line":
            lines += 1
        return trace

    sys.settrace(trace)
    try:
        close_chrome_blocks(html)
    finally:
        sys.settrace(None)
    return lines


def _icons_and_table(n: int) -> str:
    icons = "<button class='icon'/>" * n
    rows = "".join(f"<tr><td>{i}</td><td>v{i}</td></tr>" for i in range(n))
    return f"<body><nav><div>Menu</nav>{icons}<main><h1>T</h1><table>{rows}</table></main>"


def test_the_work_grows_with_the_page_not_its_square() -> None:
    # Self-closed icon buttons and a table after a broken navigation: twice the markup,
    # about twice the lines run (a tracker rescanning its open blocks runs four times).
    small, large = _lines_run(_icons_and_table(200)), _lines_run(_icons_and_table(400))
    assert large < 2.2 * small


def test_self_closed_icon_buttons_do_not_fill_the_tracker() -> None:
    icons = "<button class='icon'/>" * (MAX_OPEN_BLOCKS + 10)
    html = f"<body>{icons}<nav><div>Menu</nav><main><h1>Title</h1></main></body>"
    assert close_chrome_blocks(html) == html.replace("Menu</nav>", "Menu</div></nav>")


def test_the_open_blocks_tracked_are_bounded() -> None:
    opened = "<nav><div>" * (MAX_OPEN_BLOCKS + 1)
    html = f"<body>{opened}Menu</nav><main><h1>Title</h1></main></body>"
    assert close_chrome_blocks(html) is html
    fewer = "<nav><div>" * 3 + "Menu</nav><main><h1>Title</h1></main>"
    assert close_chrome_blocks(fewer) != fewer


def test_a_deep_page_is_repaired_too() -> None:
    deep = "<span>" * 3000 + "x" + "</span>" * 3000
    html = (
        f"<html><body>{deep}<button><div>Menu</button>"
        "<main><h1>Title</h1><p>Body</p></main></body></html>"
    )
    root = parse_html(html)
    h1 = root.find(".//h1")
    assert h1 is not None
    assert "button" not in [ancestor.tag for ancestor in h1.iterancestors()]


def test_an_article_without_main_or_h1_under_a_broken_menu_button_is_read() -> None:
    # a WordPress theme: no <main>, the title an <h2 class="entry-title"> (review n-18 M4)
    article = (
        ARTICLE.replace("<main>", "<div id='content'>")
        .replace("</main>", "</div>")
        .replace(
            "<h1>How to Start a Herb Garden</h1>",
            "<h2 class='entry-title'>How to Start a Herb Garden</h2>",
        )
    )
    html = page(BROKEN_BUTTON).replace(ARTICLE, article)
    markdown = extract_html(html, URL).markdown
    assert "## Choosing your herbs" in markdown
    assert "1. Loosen the soil" in markdown and "- 100 g soft butter" in markdown
