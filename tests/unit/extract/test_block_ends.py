"""A menu button's or a navigation's unclosed ``<div>`` does not swallow the article
(extract/block_ends.py), on small pages of our own."""

from __future__ import annotations

from lxml import etree

from webresearch.extract.block_ends import close_chrome_blocks, swallowed_content
from webresearch.extract.html import extract_html
from webresearch.extract.parse import parse_html

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
