"""The one HTML5 parse: void elements are empty, as HTML5 tree construction makes them.

libxml2 nests the text after ``<wbr>``, ``<embed>``, ``<source>``, ``<track>`` and
``<keygen>`` into them; parse_html moves it back out so no consumer loses it.
"""

from __future__ import annotations

import re

import pytest
from lxml import etree

from webresearch.extract.html import extract_html, html_to_markdown
from webresearch.extract.markdown import element_to_markdown
from webresearch.extract.parse import (
    VOID_ELEMENTS,
    flatten_deep_markup,
    parse_html,
    without_subset_and_end_tags,
)

PAGE = "https://example.org/notes/page.html"


def body_xml(html: str) -> str:
    body = parse_html(f"<html><body>{html}</body></html>").find("body")
    assert body is not None
    return str(etree.tostring(body, encoding="unicode"))


def md(html: str) -> str:
    body = parse_html(f"<html><body>{html}</body></html>").find("body")
    assert body is not None
    return element_to_markdown(body, PAGE)


@pytest.mark.parametrize("tag", VOID_ELEMENTS)
def test_every_void_element_is_empty_and_the_text_after_it_follows_it(tag: str) -> None:
    doc = parse_html(f"<html><body><div>one<{tag}>two <i>three</i> four</div>five</body></html>")
    for el in doc.iter(tag):
        assert not el.text
        assert len(el) == 0
    body = doc.find("body")
    assert body is not None
    assert " ".join(body.text_content().split()) == "onetwo three fourfive"


def test_content_moves_out_in_order_before_the_tail() -> None:
    assert body_xml("<p>a<wbr>b<i>c</i>d</p>e") == "<body><p>a<wbr/>b<i>c</i>d</p>e</body>"
    assert body_xml("<p>x<embed src=a.swf>y <b>z</b> w</p>") == (
        '<body><p>x<embed src="a.swf"/>y <b>z</b> w</p></body>'
    )


def test_nested_and_self_closed_void_elements_all_end_up_empty() -> None:
    assert body_xml("<p>a<wbr>b<wbr>c<wbr/>d</p>") == "<body><p>a<wbr/>b<wbr/>c<wbr/>d</p></body>"
    assert body_xml("<p><source>t<track><embed>v</p>") == (
        "<body><p><source/>t<track/><embed/>v</p></body>"
    )


def test_picture_keeps_its_img_beside_the_source() -> None:
    xml = body_xml('<picture><source srcset="b.webp"><img src="b.jpg" alt="Owl"></picture>')
    assert (
        xml
        == '<body><picture><source srcset="b.webp"/><img src="b.jpg" alt="Owl"/></picture></body>'
    )


def test_wbr_in_a_heading_and_inside_words_is_only_a_word_break() -> None:
    out = md(
        "<h1>Package tools::<wbr>parsing</h1>"
        "<p>The type Token<wbr>Stream<wbr>Builder is joined; see /docs/<wbr>api/<wbr>v2 too.</p>"
    )
    assert out == (
        "# Package tools::parsing\n\nThe type TokenStreamBuilder is joined; see /docs/api/v2 too."
    )


def test_text_after_an_embed_in_a_paragraph_is_kept() -> None:
    out = md('<p>The old <embed src="/clock.swf"> widget showed the time of the harbour.</p>')
    assert out == "The old widget showed the time of the harbour."


def test_picture_image_reaches_the_markdown() -> None:
    picture = (
        '<picture><source srcset="/owl.webp" type="image/webp">'
        '<img src="/owl.jpg" alt="A barn owl perched on an old wooden fence post"></picture>'
    )
    assert (
        md(picture)
        == "![A barn owl perched on an old wooden fence post](https://example.org/owl.jpg)"
    )
    page = (
        "<html><head><title>Owls</title></head><body><main><h1>Barn owls</h1>"
        "<p>Barn owls hunt over open fields at dusk and nest in old barns and hollow trees.</p>"
        f"{picture}"
        "<p>They swallow small prey whole and later cough up pellets of fur and bone.</p>"
        "</main></body></html>"
    )
    _, markdown = html_to_markdown(page, PAGE)
    assert (
        "![A barn owl perched on an old wooden fence post](https://example.org/owl.jpg)" in markdown
    )
    assert markdown.endswith("pellets of fur and bone.")


def test_video_fallback_text_is_still_not_text() -> None:
    out = md(
        '<p>Before.</p><video controls><source src="/v.mp4"><track src="/c.vtt">'
        "Your browser cannot play this video.</video><p>After.</p>"
    )
    assert out == "Before.\n\nAfter."


def test_thousands_of_wbr_in_one_paragraph_lose_no_text() -> None:
    """libxml2 would nest each ``<wbr>`` in the previous one, past its depth limit."""
    words = [f"w{i}" for i in range(3000)]
    doc = parse_html(f"<html><body><p>{'<wbr>'.join(words)}</p><p>after</p></body></html>")
    body = doc.find("body")
    assert body is not None
    assert body.text_content() == "".join(words) + "after"
    assert len(list(doc.iter("wbr"))) == len(words) - 1


def test_flattening_writes_nesting_void_elements_self_closing() -> None:
    assert flatten_deep_markup('<p>a<embed src=x.swf>b<wbr/>c<source src="v.mp4">d</p>') == (
        '<p>a<embed src=x.swf />b<wbr/>c<source src="v.mp4" />d</p>'
    )


@pytest.mark.parametrize(
    "char", [chr(c) for c in (*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0xFFFE, 0xFFFF)]
)
def test_a_character_xml_cannot_hold_is_removed(char: str) -> None:
    assert body_xml(f"<p>Pier{char} news</p>") == "<body><p>Pier news</p></body>"
    # a page that is not ASCII (a curly quote) is checked another way: same result
    assert body_xml(f"<p>Pier{char} \u2019news</p>") == "<body><p>Pier \u2019news</p></body>"


def test_tabs_newlines_and_other_text_stay() -> None:
    assert body_xml("<p>Pier\tnews\r\nand \u00e9t\u00e9 \U0001f600</p>") == (
        "<body><p>Pier\tnews\nand \u00e9t\u00e9 \U0001f600</p></body>"
    )


@pytest.mark.parametrize(
    "html",
    [
        "<!DOCTYPE html [ <!ENTITY a 'b'> ]><p>Pier</p></body></html><p>news</p>",
        "<p>Pier</p></BODY ><!doctype x [ </body> ]><p>news</p></html>",
        "<!DOCTYPE a [ ]><p>Pier</p><!DOCTYPE b [ </html> ]><p>news</p></body>",
        "<p>Pier</p></body><!DOCTYPE a</body>><p>news [x]</p>",
    ],
)
def test_the_subset_and_end_tags_go_in_one_scan_as_in_two(html: str) -> None:
    two = re.sub(
        r"</(?:body|html)\s*>",
        "",
        re.sub(r"<!DOCTYPE[^>\[]*\[.*?\]\s*>", "<!DOCTYPE html>", html, count=1, flags=re.I | re.S),
        flags=re.I,
    )
    assert without_subset_and_end_tags(html) == two


def test_html5_content_of_a_page_without_body_tags_is_in_the_body() -> None:
    # <title> then <main>, no <html> nor <body>: libxml2 kept the article in <head>, where
    # its links were never read (review n-18)
    html = (
        "<title>Study</title><meta charset='utf-8'><main><article><h1>Study</h1><p>Text.</p>"
        "<ol><li><a href='https://journal.example/a/1'>Smith 2026</a></li></ol></article></main>"
    )
    root = parse_html(html)
    head, body = root.find("head"), root.find("body")
    assert [child.tag for child in head] == ["title", "meta"]
    assert body.find("main/article/ol/li/a") is not None


def test_the_links_of_a_page_without_body_tags_are_kept() -> None:
    html = (
        "<title>Study</title><main><article><h1>Study</h1><p>A large cohort study followed "
        "500,000 adults for a decade and found lower mortality among coffee drinkers.</p>"
        "<p>Researchers cautioned that the association does not prove causation.</p>"
        "<h2>References</h2><ol><li><a href='https://journal.example/a/1'>Smith et al., "
        "2026</a></li><li><a href='https://who.example/coffee'>WHO fact sheet</a></li>"
        "<li><a href='https://stats.example/cohort'>Cohort dataset</a></li></ol>"
        "</article></main>"
    )
    markdown = extract_html(html, "https://news.example.org/study").markdown
    assert "[Smith et al., 2026](https://journal.example/a/1)" in markdown
    assert "[Cohort dataset](https://stats.example/cohort)" in markdown
