"""Held element objects and the paused garbage collector change nothing but time."""

from __future__ import annotations

import gc

import pytest
from lxml import etree

from webresearch.extract.collector import collector_paused
from webresearch.extract.html import extract_html
from webresearch.extract.parse import parse_html
from webresearch.extract.tree import held_copy, held_elements

_PAGE = (
    "<html><head><title>Held</title></head><body><nav><a href='/'>Home</a></nav>"
    "<article><h1>Garden notes</h1><p>Tomatoes want sun, water at the roots and a stake "
    "before the first truss sets; pinch out the side shoots every week.</p>"
    "<p>Basil grows well beside them and keeps for days in a glass of water.</p>"
    "</article><footer>© Garden club</footer></body></html>"
)


def test_a_held_copy_is_a_copy_whose_elements_are_added_to_the_held_list() -> None:
    doc = parse_html(_PAGE)
    held = [doc]
    copied = held_copy(doc, held)
    assert copied is not doc
    assert etree.tostring(copied) == etree.tostring(doc)
    assert held[0] is doc
    assert held[1:] == list(copied.iter())  # added, in document order
    # the same objects come back from a later walk of the copy
    assert all(a is b for a, b in zip(held[1:], copied.iter(), strict=True))


def test_held_elements_are_the_tree_in_document_order() -> None:
    doc = parse_html(_PAGE)
    held = held_elements(doc)
    assert held == list(doc.iter())
    assert held[0] is doc
    # the same objects come back from a later walk
    assert all(a is b for a, b in zip(held, doc.iter(), strict=True))


def test_collector_restored_when_on() -> None:
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_collector_restored_after_an_error() -> None:
    with pytest.raises(RuntimeError), collector_paused():
        raise RuntimeError("boom")
    assert gc.isenabled()


def test_collector_left_off_when_found_off() -> None:
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_extraction_leaves_the_collector_on() -> None:
    result = extract_html(_PAGE, "https://example.org/garden")
    assert "Basil grows well" in result.markdown
    assert gc.isenabled()
