"""What trafilatura reads (extract/traf_input.py): the hidden blocks the verdicts keep
show, every other element stays as it is, and the page itself is never changed."""

from __future__ import annotations

from lxml import etree

from webresearch.extract.parse import parse_html
from webresearch.extract.traf_input import trafilatura_input

PAGE = (
    "<html><body><p>Visible text.</p>"
    "<div id='panel' class='tab-pane hidden-xs fade hide' style='display:none' hidden "
    "aria-hidden='true'><p>A closed tab.</p></div>"
    "<div id='other' class='note hidden' style='display: none' aria-hidden='true'>"
    "<p>Nothing opens this.</p></div>"
    "<div id='hidden-specs' style='display:none'><p>Specs a tab opens.</p></div>"
    "<div id='hidden-note' style='display:none'><p>Nothing opens this either.</p></div>"
    "</body></html>"
)


def _by_id(doc: etree._Element, ident: str) -> etree._Element:
    found = doc.xpath(f"//*[@id='{ident}']")
    assert isinstance(found, list) and isinstance(found[0], etree._Element)
    return found[0]


def test_a_kept_block_shows_and_nothing_else_changes() -> None:
    doc = parse_html(PAGE)
    before = etree.tostring(doc)
    view = trafilatura_input(doc, [_by_id(doc, "panel")])
    assert view is not doc and etree.tostring(doc) == before  # the page is not changed
    panel = _by_id(view, "panel")
    assert dict(panel.attrib) == {"id": "panel", "class": "tab-pane fade"}
    other = _by_id(view, "other")  # not kept: trafilatura's discard still applies to it
    assert other.get("style") == "display: none" and other.get("class") == "note hidden"


def test_nothing_to_show_reads_the_page_itself() -> None:
    doc = parse_html(PAGE)
    assert trafilatura_input(doc) is doc


def test_a_kept_blocks_id_saying_hidden_is_dropped_in_the_view_only() -> None:
    """trafilatura deletes an element whose ``id`` holds ``hidden`` (review r-13a)."""
    doc = parse_html(PAGE)
    before = etree.tostring(doc)
    view = trafilatura_input(doc, [_by_id(doc, "hidden-specs")])
    assert etree.tostring(doc) == before
    shown = view.xpath("//div[p='Specs a tab opens.']")
    assert isinstance(shown, list) and isinstance(shown[0], etree._Element)
    assert dict(shown[0].attrib) == {"id": "-specs"}  # its other words kept for trafilatura
    assert _by_id(view, "hidden-note").get("style") == "display:none"  # not kept: as it was
