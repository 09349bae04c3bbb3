"""Reading whether hidden blocks can be opened costs time linear in the page (review r-12:
thousands of hidden reviews under one parent had the parent's text measured once per block,
and every ``aria-labelledby`` searched the whole page): counted in calls, not timed."""

from __future__ import annotations

import pytest
from lxml import etree

from webresearch.extract import collapsed_panels
from webresearch.extract.align import page_text_size
from webresearch.extract.collapsed_panels import PanelControls
from webresearch.extract.parse import parse_html

PROSE = "the crane was fine and the crew was kind to us all night long " * 6


def test_a_parent_of_many_hidden_blocks_is_measured_once(monkeypatch: pytest.MonkeyPatch) -> None:
    blocks = "".join(
        f"<div class='review' hidden><p>Review {i}: {PROSE}</p></div>" for i in range(300)
    )
    doc = parse_html(f"<html><body><article><section>{blocks}</section></article></body></html>")
    measured: list[etree._Element] = []
    real = page_text_size

    def counting(el: etree._Element) -> int:
        measured.append(el)
        return real(el)

    monkeypatch.setattr(collapsed_panels, "page_text_size", counting)
    hidden = doc.xpath("//div[@hidden]")
    controls = PanelControls(doc, frozenset(hidden))
    assert not any(controls.opens(el) for el in hidden)
    assert len(measured) == len(set(map(id, measured)))  # no element measured twice
    assert len(measured) <= len(hidden) + 3


def test_labels_name_controls_through_the_pages_ids() -> None:
    """The id map read once answers as the per-label search did: a label naming a button
    opens its block, one naming a plain span does not, a duplicated id counts if any of
    its elements is a control."""
    blocks = "".join(
        f"<section><div hidden aria-labelledby='lab{i}'><p>{PROSE}</p></div>"
        f"<button id='lab{i}'>Open {i}</button></section>"
        for i in range(20)
    )
    other = (
        f"<section><div hidden id='x' aria-labelledby='plain'><p>{PROSE}</p></div>"
        "<span id='plain'>Plain</span></section>"
        f"<section><div hidden id='y' aria-labelledby='twice'><p>{PROSE}</p></div>"
        "<span id='twice'>Once</span><span role='tab' id='twice'>Tab</span></section>"
    )
    doc = parse_html(f"<html><body>{blocks}{other}</body></html>")
    hidden = doc.xpath("//div[@hidden]")
    controls = PanelControls(doc, frozenset(hidden))
    opened = {el.get("id") or el.get("aria-labelledby"): controls.opens(el) for el in hidden}
    assert all(opened[f"lab{i}"] for i in range(20))
    assert opened["x"] is False
    assert opened["y"] is True
