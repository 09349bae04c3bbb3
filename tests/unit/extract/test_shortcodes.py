"""Unrendered WordPress shortcodes are left out of a page's text (shortcodes.py)."""

from __future__ import annotations

from lxml import etree

from webresearch.extract.html import extract_html
from webresearch.extract.shortcodes import strip_shortcodes

PAGE = (
    "<html><head><title>Start sewing</title></head><body><article><div class='entry-content'>"
    "<p>[vc_row type=”full_width_background” bg_image=”684292″ top_padding=”13%”]"
    "[vc_column column_padding=”no-extra-padding” width=”1/1″][vc_custom_heading "
    "text=”You do not need years to learn to sew your own clothes.</p>"
    "<p>Beginners are welcome here.” font_container=”tag:p|font_size:20” "
    "use_theme_fonts=”yes”][/vc_column][/vc_row][vc_row_inner equal_height=”yes”]"
    "[vc_column_text]Our beginner patterns come with full tutorials and embedded videos, "
    "so you end up wearing the piece you spent your evenings on.[/vc_column_text]"
    "[nectar_btn size=”medium” url=”https://shop.example/beginners”]</p>"
    "<p>Footnotes stay as they are [1], and so does a wiki's [edit] link text.</p>"
    '<pre><code>[my_shortcode id="3"]</code></pre>'
    "</div></article></body></html>"
)


def test_shortcodes_are_left_out_and_their_text_stays() -> None:
    markdown = extract_html(PAGE, "https://sew.example/start").markdown
    assert "vc_row" not in markdown
    assert "font_container" not in markdown
    assert "nectar_btn" not in markdown
    assert "You do not need years to learn to sew your own clothes." in markdown
    assert "Beginners are welcome here." in markdown
    assert "Our beginner patterns come with full tutorials" in markdown
    assert "[1]" in markdown.replace("\\[", "[").replace("\\]", "]")


def test_code_and_plain_brackets_are_untouched() -> None:
    body = etree.fromstring(
        "<body><p>See [1] and [edit] and [citation needed].</p>"
        '<pre>[my_shortcode id="3"]</pre><code>[/vc_row]</code></body>'
    )
    assert strip_shortcodes(body) == 0
    assert body.find("p").text == "See [1] and [edit] and [citation needed]."
    assert body.find("pre").text == '[my_shortcode id="3"]'


def test_shortcodes_quoted_with_entities_in_the_markup_are_found() -> None:
    page = (
        "<html><body><article><p>[shareaholic app=&#8221;share_buttons&#8221; "
        "id=&#8221;20872686&#8243;]</p><p>The river walk starts at the old mill and follows "
        "the bank for six miles to the ferry, with benches every mile or so.</p>"
        "<p>Bring water: the only café on the way opens at weekends in summer.</p>"
        "</article></body></html>"
    )
    markdown = extract_html(page, "https://walks.example/river").markdown
    assert "shareaholic" not in markdown
    assert "follows the bank for six miles" in markdown
