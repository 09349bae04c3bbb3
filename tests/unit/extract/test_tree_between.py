"""The elements between two others in document order (extract/tree.py ``elements_between``)
are those a position for every element of the page gives."""

from __future__ import annotations

from itertools import count

import pytest
from lxml import etree
from lxml import html as lxml_html

from webresearch.extract.tree import elements_between

PAGE = (
    "<html><body><img src='0'/><div id='a'>a<img src='1'/></div><p id='b'>b<img src='2'/>"
    "<span id='c'>c</span><img src='3'/></p><!-- note --><img src='4'/><div id='d'>d</div>"
    "<img src='5'/></body></html>"
)


def _by_positions(
    body: etree._Element, first: etree._Element, last: etree._Element
) -> list[etree._Element]:
    order = dict(zip(body.iter(), count()))
    start, end = order.get(first, 0), order.get(last, 0)
    return [img for img in body.iter("img") if start < order.get(img, -1) < end]


def test_every_pair_of_elements_gives_what_positions_give() -> None:
    doc = lxml_html.fromstring(PAGE)
    body = doc.find("body")
    assert body is not None
    outside = etree.Element("div")  # not in the page: stands at its start
    elements = [*body.iter(), outside]
    assert any(not isinstance(el.tag, str) for el in elements)  # the comment too
    for first in elements:
        for last in elements:
            assert elements_between(body, "img", first, last) == _by_positions(body, first, last)


@pytest.mark.parametrize(("first", "last", "sources"), [("a", "d", ["1", "2", "3", "4"])])
def test_the_images_inside_the_span(first: str, last: str, sources: list[str]) -> None:
    body = lxml_html.fromstring(PAGE).find("body")
    assert body is not None
    start, end = body.get_element_by_id(first), body.get_element_by_id(last)
    assert [img.get("src") for img in elements_between(body, "img", start, end)] == sources
