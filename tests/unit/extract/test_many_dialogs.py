"""A page with thousands of closed modals (extract/dialogs.closed_dialogs): each one is
listed once, in document order, and a box inside another closed box is not listed again —
read from the tree and from the page's attribute index alike. (Each modal's ancestors were
looked up in a list of the boxes found so far: quadratic, 0.5 s for 5,000 modals; now a set.)"""

from __future__ import annotations

import pytest
from lxml import etree

from webresearch.extract.dialogs import closed_dialogs
from webresearch.extract.parse import parse_html
from webresearch.extract.scan_index import read_attributes

MODALS = 5000


def modal(i: int, inner: str = "") -> str:
    return (
        f'<div class="modal fade" id="m{i}"><div class="modal-dialog"><p>Reserve table {i} '
        f"for dinner at the harbour inn.</p>{inner}</div></div>"
    )


def body_of(blocks: str) -> etree._Element:
    html = (
        "<html><head><title>Harbour inn</title></head><body><main><h1>Harbour inn</h1><p>"
        + "Fresh fish every morning from the boats in the harbour. " * 20
        + f"</p></main>{blocks}</body></html>"
    )
    body = parse_html(html).find(".//body")
    assert body is not None
    return body


@pytest.mark.parametrize("indexed", [False, True])
def test_thousands_of_modals_are_each_listed_once_in_order(indexed: bool) -> None:
    body = body_of("".join(modal(i) for i in range(MODALS)))
    attributes = read_attributes(body) if indexed else None
    found = closed_dialogs(body, attributes)
    assert [el.get("id") for el in found] == [f"m{i}" for i in range(MODALS)]


@pytest.mark.parametrize("indexed", [False, True])
def test_a_modal_inside_a_closed_modal_is_not_listed_again(indexed: bool) -> None:
    blocks = "".join(modal(i, modal(MODALS + i) if i % 2 else "") for i in range(MODALS))
    body = body_of(blocks)
    attributes = read_attributes(body) if indexed else None
    found = closed_dialogs(body, attributes)
    assert [el.get("id") for el in found] == [f"m{i}" for i in range(MODALS)]
