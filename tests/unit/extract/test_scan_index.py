"""One walk reads the attributes the page scans test (extract/scan_index.py): the scans
find the same elements with it as without it, on a small page of our own."""

from __future__ import annotations

from lxml import etree

from webresearch.extract.consent import consent_banners
from webresearch.extract.page_noise import hidden_blocks, popup_menus
from webresearch.extract.parse import parse_html
from webresearch.extract.scan_index import read_attributes

PAGE = (
    "<html><body class='site'>"
    "<p>The ferry to the lighthouse island leaves the harbour at nine and returns at four.</p>"
    "<div hidden><p>Winter timetable: no sailings.</p></div>"
    "<div style='display: none'><p>Sold out.</p></div>"
    "<div class='d-none d-lg-block'><p>Desktop note.</p></div>"
    "<div class='d-lg-none'><p>Phone note.</p></div>"
    "<ul role='menu'><li><a href='/en'>English</a></li><li><a href='/fr'>Français</a></li>"
    "<li><a href='/de'>Deutsch</a></li></ul>"
    "<div class='nav dropdown-content'><a href='/a'>Harbour</a> <a href='/b'>Island</a> "
    "<a href='/c'>Tickets</a></div>"
    "<div id='cookie-banner' data-testid='x'><p>We use cookies to count our readers.</p>"
    "<button>Accept</button></div>"
    "</body></html>"
)


def _names(elements: list[etree._Element]) -> list[str]:
    return [el.getroottree().getpath(el) for el in elements]


def test_rows_cover_the_root_and_its_elements_in_document_order() -> None:
    body = parse_html(PAGE).find("body")
    assert body is not None
    rows = read_attributes(body).rows
    assert [row[0] for row in rows] == list(body.iter(etree.Element))
    first = rows[0]
    assert first[1] == "site" and first[2:] == (None, None, None, None, None)
    banner = next(row for row in rows if row[2] == "cookie-banner")
    assert banner[6] == "x"


def test_scans_find_the_same_elements_with_and_without_the_index() -> None:
    doc = parse_html(PAGE)
    body = doc.find("body")
    assert body is not None
    attributes = read_attributes(body)
    hidden = hidden_blocks(doc, 200, attributes=attributes)
    assert _names(hidden) == _names(hidden_blocks(doc, 200))
    assert len(hidden) == 3  # hidden, display:none, d-lg-none (d-none d-lg-block is shown)
    menus = popup_menus(body, attributes)
    assert _names(menus) == _names(popup_menus(body)) and len(menus) == 2
    banners = consent_banners(body, attributes)
    assert _names(banners) == _names(consent_banners(body)) and len(banners) == 1


def test_an_index_of_another_root_is_not_used() -> None:
    doc = parse_html(PAGE)
    body = doc.find("body")
    assert body is not None
    other = read_attributes(parse_html("<html><body><p>Nothing here</p></body></html>"))
    assert len(consent_banners(body, other)) == 1  # the page's own banner, read from the tree
    assert len(popup_menus(body, other)) == 2
    assert len(hidden_blocks(doc, 200, attributes=other)) == 3
