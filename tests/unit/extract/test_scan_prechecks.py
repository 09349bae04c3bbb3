"""The cheap checks and prefiltered lists that let a scan skip work (session 17 speed):
each gives what the full scan gives, on small pages of our own."""

from __future__ import annotations

from dataclasses import replace

from lxml import etree

from webresearch.extract.api_item_chrome import api_item_chrome
from webresearch.extract.kept_hidden import closed_details_marked_hidden, drawn_invisibly
from webresearch.extract.page_noise import popup_menus
from webresearch.extract.parse import parse_html
from webresearch.extract.scan_index import hiding_candidates, read_attributes
from webresearch.extract.utility_classes import hidden_on_desktop, shown_on_another_screen

PAGE = (
    "<html><body class='page'>"
    "<p style='color: red'>The tram to the old quarter runs every ten minutes.</p>"
    "<div class='row-wide'><p>Tickets at the kiosk.</p></div>"
    "<div class='card hidden-xs'><p>Desktop timetable.</p></div>"
    "<div hidden><p>Night service.</p></div>"
    "<span class='d-none'>x</span><span class='w-condition-invisible'>y</span>"
    "<span style='font-size:0'>invisible words</span>"
    "</body></html>"
)


def _body(html: str) -> etree._Element:
    body = parse_html(html).find("body")
    assert body is not None
    return body


def test_styled_rows_are_the_rows_with_a_style_in_document_order() -> None:
    attributes = read_attributes(_body(PAGE))
    assert attributes.styled == [row for row in attributes.rows if row[3] is not None]
    assert len(attributes.styled) == 2
    # an inline-style scan finds the same elements in the styled rows as in all of them
    assert drawn_invisibly(attributes.styled) == drawn_invisibly(attributes.rows)


def test_marked_rows_are_what_the_candidate_test_passes_without_a_stylesheet() -> None:
    doc = parse_html(PAGE)
    body = doc.find("body")
    assert body is not None
    attributes = read_attributes(body)
    full = list(hiding_candidates(doc, attributes, frozenset({body})))  # every row tested
    fast = list(hiding_candidates(doc, attributes, frozenset()))
    assert [c[0] for c in fast] == [c[0] for c in full if c[0] is not body]
    # style, class 'row-wide' (w-), hidden-xs, hidden attribute, d-none, w-…, style
    assert len(fast) == 7


def test_the_root_is_never_marked() -> None:
    body = _body("<html><body hidden style='color:red'><p>Alone.</p></body></html>")
    assert read_attributes(body).marked == []


def test_class_lists_without_a_hiding_name_are_shown_at_once() -> None:
    for klass in ("", "card row", "d-flex col-md-6", "md:flex sm:block", "w-full"):
        assert not hidden_on_desktop(klass)
        assert not shown_on_another_screen(klass)
    assert hidden_on_desktop("card d-none")
    assert hidden_on_desktop("hidden", tailwind=True)
    assert hidden_on_desktop("w-form-done")
    assert hidden_on_desktop("elementor-hidden-desktop")


def test_marked_details_need_a_details_element() -> None:
    assert (
        closed_details_marked_hidden(_body("<html><body><p>No disclosure.</p></body></html>")) == []
    )
    body = _body(
        "<html><body><details><summary>Why?</summary>"
        "<div aria-hidden='true'><p>Because the tide turns.</p></div></details></body></html>"
    )
    assert [el.tag for el in closed_details_marked_hidden(body)] == ["div"]


def test_a_page_declaring_another_charset_keeps_its_characters() -> None:
    html = "<html><head><meta charset='iso-8859-1'></head><body><p>café 中文 “q”</p></body></html>"
    assert _body(html).findtext("p") == "café 中文 “q”"


def test_a_lone_surrogate_is_parsed_as_before() -> None:
    body = _body("<html><body><p>caf\u00e9 \udcff end</p></body></html>")
    assert (body.findtext("p") or "").startswith("café")


MENUS = (
    "<html><body role='document'>"
    "<nav><ul role='menu'><li><a href='/en'>English</a></li><li><a href='/fr'>Français</a>"
    "</li><li><a href='/de'>Deutsch</a></li></ul></nav>"
    "<div class='dropdown-menu'><a href='/a'>Alpha</a><a href='/b'>Beta</a>"
    "<a href='/c'>Gamma</a></div>"
    "<p>The museum opens at nine; the garden closes at dusk.</p>"
    "<dl class='method'><dt>fetch<a class='reference internal' href='/_modules/x'>"
    "<span class='viewcode-link'>[source]</span></a></dt><dd>Reads a page.</dd></dl>"
    "</body></html>"
)


def test_role_rows_and_joined_classes_are_what_the_rows_hold() -> None:
    attributes = read_attributes(_body(MENUS))
    assert attributes.roled == [row for row in attributes.rows if row[5] is not None]
    assert attributes.roled is not None and len(attributes.roled) == 2  # body, ul
    classes = [row[1] for row in attributes.rows if row[1]]
    assert attributes.classes == "\n".join(classes)


def test_menu_and_api_scans_find_with_the_lists_what_they_find_without() -> None:
    for html in (MENUS, MENUS.replace("dropdown-menu", "panel"), PAGE):
        body = _body(html)
        attributes = read_attributes(body)
        bare = replace(attributes, roled=None, classes=None)  # every row read
        assert popup_menus(body, attributes) == popup_menus(body, bare)
        assert api_item_chrome(body, attributes) == api_item_chrome(body, bare)
    body = _body(MENUS)
    assert [el.tag for el in popup_menus(body, read_attributes(body))] == ["ul", "div"]
    assert [el.tag for el in api_item_chrome(body, read_attributes(body))] == ["a"]
