"""Blocks the page's own ``<style>`` rules hide are left out as an inline ``display:none``
is (review 11, fault 4); an app shell whose only text a rule hides keeps it (case 06)."""

from __future__ import annotations

import time

from webresearch.extract.html import extract_html
from webresearch.extract.parse import parse_html
from webresearch.extract.style_rules import stylesheet_hidden

URL = "http://127.0.0.1/page"
PROSE = (
    "<p>The orchard on the north slope was planted in the spring of the wet year, and its "
    "pear trees now give more fruit than the village presses can take in one week.</p>"
    "<p>Every autumn the growers meet in the old mill to share out the picking days, the "
    "ladders and the carts, and to agree on the price they ask at the market.</p>"
)


def _page(style: str, body: str) -> str:
    return (
        f"<html><head><title>Orchard</title><style>{style}</style></head><body><article>"
        f"<h1>Orchard</h1>{PROSE}{body}{PROSE}</article></body></html>"
    )


def _markdown(html: str) -> str:
    return extract_html(html, URL).markdown


def test_class_id_and_important_rules_hide_their_blocks() -> None:
    html = _page(
        ".gone{display:none} #x2 {visibility:hidden} .OFF { DISPLAY : NONE !important }",
        "<div class='gone'>GONE-BY-CLASS notice.</div><div id='x2'>GONE-BY-ID notice.</div>"
        "<div class='OFF'>GONE-IMPORTANT notice.</div>",
    )
    markdown = _markdown(html)
    assert "pear trees" in markdown
    assert "GONE-" not in markdown


def test_screen_media_hides_print_and_narrow_queries_do_not() -> None:
    html = _page(
        "@media screen { .a { display: none } } @media all { .b { display: none } }"
        "@media print { .c { display: none } } @media (max-width: 600px) { .d{display:none} }",
        "<div class='a'>GONE-SCREEN.</div><div class='b'>GONE-ALL.</div>"
        "<div class='c'>SHOWN-PRINT-RULE.</div><div class='d'>SHOWN-NARROW-RULE.</div>",
    )
    markdown = _markdown(html)
    assert "GONE-" not in markdown
    assert "SHOWN-PRINT-RULE" in markdown and "SHOWN-NARROW-RULE" in markdown


def test_a_rule_that_shows_again_wins_unless_the_hiding_is_important() -> None:
    html = _page(
        ".wide{display:none} @media (min-width: 768px) { .md\\:block { display: block } }"
        ".panel{display:none} .panel.open{display:block}"
        ".x{display:none!important} .x{display:block}",
        "<p class='wide md:block'>SHOWN-WIDE-SCREEN.</p>"
        "<div class='panel open'>SHOWN-OPEN-PANEL.</div><div class='panel'>GONE-CLOSED.</div>"
        "<div class='x'>GONE-IMPORTANT.</div>"
        "<div class='gone' style='display:block'>SHOWN-INLINE.</div>",
    )
    markdown = _markdown(html.replace("</style>", ".gone{display:none}</style>"))
    assert "SHOWN-WIDE-SCREEN" in markdown
    assert "SHOWN-OPEN-PANEL" in markdown
    assert "SHOWN-INLINE" in markdown
    assert "GONE-" not in markdown


def test_state_pseudo_classes_and_invalid_selectors_hide_nothing() -> None:
    html = _page(
        ".tip:hover .note{display:none} .box::before{display:none} .a:focus-within{display:none}"
        " .b{{display:none}",
        "<div class='tip'><p class='note'>SHOWN-HOVER.</p></div>"
        "<div class='box'>SHOWN-PSEUDO-ELEMENT.</div><div class='a'>SHOWN-FOCUS.</div>",
    )
    markdown = _markdown(html)
    assert "SHOWN-HOVER" in markdown and "SHOWN-PSEUDO-ELEMENT" in markdown
    assert "SHOWN-FOCUS" in markdown


def test_combinators_match_as_a_browser_does() -> None:
    doc = parse_html(
        "<html><head><style>.list > li + li {display:none} nav a ~ span{display:none}"
        "</style></head><body><ul class='list'><li id='one'>1</li><li id='two'>2</li></ul>"
        "<nav><a id='a' href='/'>a</a><b>b</b><span id='s'>s</span></nav>"
        "<span id='t'>t</span></body></html>"
    )
    assert {el.get("id") for el in stylesheet_hidden(doc)} == {"two", "s"}


def test_an_app_shell_hidden_by_its_stylesheet_keeps_its_content() -> None:
    article = "".join(
        f"<p>Section {n}: the gateway keeps a table that maps routing keys to worker pools, "
        f"and moves the keys of a drained pool to a standby pool within two seconds.</p>"
        for n in range(6)
    )
    html = (
        "<html><head><title>Routing</title><style>#ssr{visibility:hidden;position:absolute}"
        "</style></head><body><div id='shell'><p>Loading…</p></div>"
        f"<div id='ssr'><main><article><h1>Routing</h1>{article}</article></main></div>"
        "</body></html>"
    )
    markdown = _markdown(html)
    assert "Section 0: the gateway" in markdown and "Section 5:" in markdown


def test_a_hostile_stylesheet_stays_fast() -> None:
    body = "".join(
        f"<div class='c{n % 50} e{n % 7}'><p class='d{n}'>x</p></div>" for n in range(3000)
    )
    shows = "".join(f"div .c{n} p{{display:block}}" for n in range(20000))
    for count in (500, 20000):  # under the cap of hiding rules (the test budget), over it
        rules = "".join(
            f".c{n} .d{n} > .e{n}:nth-child(2n+1){{display:none}}" for n in range(count)
        )
        doc = parse_html(
            f"<html><head><style>{rules}{shows}</style></head><body>{body}</body></html>"
        )
        start = time.perf_counter()
        stylesheet_hidden(doc)
        assert time.perf_counter() - start < 20  # about 0.4 s on an idle machine


def test_template_content_is_never_read_but_a_declarative_shadow_root_is() -> None:
    html = _page(
        "",
        "<template><p>GONE-TEMPLATE: a row a script would copy into the table.</p></template>"
        "<div><template shadowrootmode='open'><p>SHOWN-SHADOW-ROOT: the browser shows this "
        "in place of the host's children.</p></template></div>",
    )
    markdown = _markdown(html)
    assert "GONE-TEMPLATE" not in markdown
    assert "SHOWN-SHADOW-ROOT" in markdown


def test_zero_font_size_hides_bare_text_not_an_inline_block_container() -> None:
    html = _page(
        "",
        "<div style='font-size:0'>GONE-ZERO-FONT text no one can read.</div>"
        "<div style='font-size: 0px'><span class='cell'>SHOWN-CELL-ONE</span> "
        "<span class='cell'>SHOWN-CELL-TWO</span></div>",
    )
    markdown = _markdown(html)
    assert "GONE-ZERO-FONT" not in markdown
    assert "SHOWN-CELL-ONE" in markdown and "SHOWN-CELL-TWO" in markdown


def test_a_rule_met_again_on_another_page_hides_that_page_s_block() -> None:
    # the parsed selectors and declarations are remembered between pages: the second page
    # gets its own elements hidden, not the first page's
    style = ".promo-box > .inner{display:none}"
    first = parse_html(_page(style, "<div class='promo-box'><p class='inner'>A</p></div>"))
    second = parse_html(_page(style, "<div class='promo-box'><p class='inner'>B</p></div>"))
    hidden_first, hidden_second = stylesheet_hidden(first), stylesheet_hidden(second)
    assert [el.text for el in hidden_first] == ["A"]
    assert [el.text for el in hidden_second] == ["B"]
    assert "SHOWN-AGAIN" in _markdown(
        _page(
            ".box > .inner{display:none} .box > .inner.open{display:block}",
            "<div class='box'><p class='inner open'>SHOWN-AGAIN note here.</p></div>",
        )
    )


def test_each_style_element_is_read_on_its_own() -> None:
    # a browser parses each <style> by itself: a block or a comment left open in one does
    # not swallow the rules of the next (the sheets were once read as one joined text)
    doc = parse_html(
        "<html><head><style>.a{display:none</style><style>.b{display:none}</style>"
        "<style>/* open</style><style>.c{display:none}</style></head>"
        "<body><p class='b'>B</p><p class='c'>C</p></body></html>"
    )
    assert sorted(el.get("class") or "" for el in stylesheet_hidden(doc)) == ["b", "c"]
