"""trafilatura's link density deletions, each text read once (extract/traf_links.py), delete
what trafilatura's ``delete_by_link_density`` deletes."""

from __future__ import annotations

from copy import deepcopy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree
from lxml import html as lxml_html
from trafilatura.htmlprocessing import delete_by_link_density as trafilaturas

from webresearch.extract.traf_links import delete_by_link_density, linking_elements

ROUNDS = [("div", True), ("list", False), ("p", False), ("div", False), ("list", True)]


def _same_deletions(markup: str, favor_precision: bool = False) -> None:
    """Each round of ours deletes what trafilatura's deletes, on the tree the rounds before
    left; the set of linking elements read once, before the first round."""
    ours = lxml_html.fromstring(f"<html><body>{markup}</body></html>")
    theirs = deepcopy(ours)
    linking = linking_elements(ours)
    for tag, backtracking in ROUNDS:
        before = etree.tostring(theirs)
        trafilaturas(theirs, tag, backtracking, favor_precision)
        deleted = delete_by_link_density(ours, tag, backtracking, favor_precision, linking)
        assert etree.tostring(ours) == etree.tostring(theirs), (tag, backtracking)
        assert deleted == (etree.tostring(theirs) != before)


PROSE = (
    "The harbour committee met on Tuesday to agree the timetable for the new ferry pier, "
    "which the crews will rebuild plank by plank over the spring. "
)


def _links(n: int, words: str = "Story") -> str:
    return " ".join(f"<ref target='/{i}'>{words} {i}</ref>" for i in range(n))


PAGES = [
    # only the elements holding a <ref> are asked; the others are left as trafilatura leaves them
    "<div><p>Plain prose with no link at all, long enough to be a paragraph.</p>"
    "<div><p><ref target='/a'>Home</ref> <ref target='/b'>News</ref></p>"
    "<list><item><ref target='/c'>Sport</ref></item><item><ref target='/d'>Weather</ref>"
    "</item><item>x</item></list></div>"
    "<div><p>Text <ref target='/e'>one link</ref> in a longer sentence of prose here.</p>"
    "<list><item>An item</item><item>Another item</item></list></div>"
    "<div><div><div><ref target='/f'>Only a link, and a long one over the limits set for it"
    " by the test of link density in trafilatura</ref></div></div></div></div>",
    # wrappers around a long article and a menu: their texts bound from below by the
    # article's block (not read), the menu's block a farm
    f"<div><div><div><div><p>{PROSE * 6}<ref target='/x'>more</ref></p></div>"
    f"<div>{_links(12)}</div></div></div></div>",
    # a wrapper whose links are most of its text: the bound does not decide, the text is read
    f"<div><div><p>{PROSE}</p></div><div>{_links(40, 'A longer headline of a story')}</div>"
    f"<div>{_links(3)}</div></div>",
    # one long link in a block of the same length, nested
    "<div><div><div><ref target='/l'>" + "A very long link text " * 8 + "</ref></div></div></div>",
    # short blocks with links (backtracking: three children or more, under 100 letters)
    "<div><div><ref target='/1'>a</ref><ref target='/2'>b</ref><ref target='/3'>c</ref>"
    "</div><div>x <ref target='/4'>y</ref><span>z</span><span>w</span></div></div>",
    # an image holder is kept; paragraphs of list items stay
    f"<div><div><graphic src='i.png'/>{_links(6)}</div><list><item><p>{_links(2)}</p>"
    "</item></list></div>",
]


@pytest.mark.parametrize("markup", PAGES)
@pytest.mark.parametrize("favor_precision", [False, True])
def test_the_deletions_are_trafilaturas(markup: str, favor_precision: bool) -> None:
    _same_deletions(markup, favor_precision)


_TEXTS = st.sampled_from(["", " ", "word", "a few words here", PROSE, "  two\n words  "])
_TAGS = st.sampled_from(["div", "p", "list", "item", "span", "ref", "graphic"])


@st.composite
def _blocks(draw: st.DrawFn, depth: int = 0) -> str:
    tag = draw(_TAGS)
    if tag == "graphic" or depth >= 4:
        return f"<ref target='/x'>{draw(_TEXTS)}</ref>" if tag != "graphic" else "<graphic/>"
    inner = "".join(
        draw(_blocks(depth + 1)) + draw(_TEXTS)
        for _ in range(draw(st.integers(min_value=0, max_value=6)))
    )
    return f"<{tag}>{draw(_TEXTS)}{inner}</{tag}>"


@settings(max_examples=300, deadline=None)
@given(_blocks(), st.booleans())
def test_the_deletions_are_trafilaturas_on_any_tree(markup: str, favor_precision: bool) -> None:
    _same_deletions(f"<div>{markup}</div>", favor_precision)
