"""trafilatura's tree cleaning with one walk for its deletions (extract/traf_clean.py) gives
the trees ``htmlprocessing.tree_cleaning`` gives."""

from __future__ import annotations

from copy import deepcopy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree
from lxml import html as lxml_html
from trafilatura.htmlprocessing import tree_cleaning
from trafilatura.settings import Extractor

from webresearch.extract.traf_clean import clean_tree, deletion_order


def _options(focus: str = "balanced", tables: bool = True, images: bool = False) -> Extractor:
    options = Extractor(output_format="txt", tables=tables, images=images)
    options.focus = focus
    return options


def _same_tree(markup: str, options: Extractor) -> None:
    ours = lxml_html.fromstring(f"<html><head><title>t</title></head><body>{markup}</body></html>")
    theirs = deepcopy(ours)
    assert etree.tostring(clean_tree(ours, options)) == etree.tostring(
        tree_cleaning(theirs, options)
    )


PROSE = "The ferry crews rebuilt the old pier after the winter storms, plank by plank."

PAGES = [
    # a <nav> inside a <nav>: trafilatura's loop ends in the deleted subtree, so the later
    # <nav> (breadcrumbs) stays; the <button> inside it goes with the buttons' loop
    f"<nav>Menu <nav>Sub</nav> tail</nav><p>{PROSE}</p><nav>Home › News<button>x</button>"
    "</nav> after",
    # tails of deleted elements join the text before them, in trafilatura's order
    f"<div>a<button>b</button>c<label>d</label>e<input/>f<aside>g</aside>h</div><p>{PROSE}</p>",
    # an element deleted inside one deleted before (a label in an aside) is no longer there
    f"<aside><label>l</label><nav>n</nav></aside><label>k</label><p>{PROSE}</p>",
    # figures holding tables become <div>s and stay; forms holding most text stay
    f"<figure><table><tr><td>{PROSE}</td></tr></table></figure><figure>photo</figure>"
    f"<form><p>{PROSE} {PROSE}</p><input/></form><form>search</form>",
    # recall: deleting every paragraph is undone
    f"<footer><p>{PROSE}</p></footer>",
    "<div><math><annotation encoding='application/x-tex'>x^2</annotation></math> is</div>",
]


@pytest.mark.parametrize("markup", PAGES)
@pytest.mark.parametrize("focus", ["balanced", "recall", "precision"])
def test_the_cleaned_tree_is_trafilaturas(markup: str, focus: str) -> None:
    _same_tree(markup, _options(focus))


@pytest.mark.parametrize("markup", PAGES)
def test_without_tables_and_with_images_too(markup: str) -> None:
    _same_tree(markup, _options(tables=False))
    _same_tree(markup, _options(images=True))


def test_the_loop_of_a_tag_ends_inside_a_nested_one() -> None:
    tree = lxml_html.fromstring("<div><nav><nav>a</nav></nav><nav>b</nav><p>c</p></div>")
    outer, inner, later = tree.iter("nav")
    assert deletion_order(tree, ["nav"]) == [outer]  # the inner one goes with it
    assert later not in deletion_order(tree, ["nav"])
    assert deletion_order(tree, ["p", "nav", "nav"]) == [tree.find("p"), outer, later]
    assert inner.getparent() is outer  # the tree is not changed


_TAGS = st.sampled_from(["div", "p", "nav", "aside", "button", "label", "footer", "span", "time"])
_TEXTS = st.sampled_from(["", " ", "word", PROSE])


@st.composite
def _blocks(draw: st.DrawFn, depth: int = 0) -> str:
    tag = draw(_TAGS)
    if depth >= 4:
        return f"<{tag}>{draw(_TEXTS)}</{tag}>"
    inner = "".join(
        draw(_blocks(depth + 1)) + draw(_TEXTS)
        for _ in range(draw(st.integers(min_value=0, max_value=5)))
    )
    return f"<{tag}>{draw(_TEXTS)}{inner}</{tag}>"


@settings(max_examples=300, deadline=None)
@given(_blocks(), st.sampled_from(["balanced", "recall", "precision"]))
def test_the_cleaned_tree_is_trafilaturas_on_any_tree(markup: str, focus: str) -> None:
    _same_tree(f"<div>{markup}</div>", _options(focus))
