"""trafilatura's tree cleaning with one walk for its deletions. Pure functions over lxml trees.

``htmlprocessing.tree_cleaning`` deletes the elements of some fifty tags (``MANUALLY_CLEANED``:
asides, forms, navigation, buttons, inputs, …) with one loop per tag, ``for element in
tree.iter(tag): delete_element(element)``: fifty walks over the whole page, a pass, and a
page has up to four passes (0.6 of its 1.5 ms, the median over every fourth page of both
corpora). :func:`clean_tree` finds those elements with one walk (``iter`` over all the tags
at once, in document order) and deletes them in trafilatura's order, so the tree is the same.

The order matters, and so does a quirk of the loop: lxml's iterator finds the next element
when it hands out the current one, before the loop deletes it. When the next element of the
tag lies *inside* the current one (a ``<nav>`` in a ``<nav>``), the iterator walks on in the
deleted, detached subtree and ends there: the later elements of that tag stay in the page
(an Elementor page keeps its second ``<nav>`` breadcrumbs). :func:`deletion_order` repeats
that: per tag, in document order, the elements not inside one deleted before, until the
first one whose next element of its tag is inside it.

Adapted from trafilatura :data:`~webresearch.extract.traf_pass.TRAFILATURA_VERSION`
(``htmlprocessing.tree_cleaning``; its other steps are trafilatura's own functions, called in
its order); ``tests/unit/extract/test_traf_clean.py`` checks the trees against trafilatura's.
:mod:`webresearch.extract.traf_pass` uses it only with that version.

Licence: the adapted function is trafilatura's (© Adrien Barbaresi and contributors, Apache
License 2.0, https://github.com/adbar/trafilatura).
"""

from __future__ import annotations

from copy import deepcopy
from typing import TYPE_CHECKING

from lxml import etree

if TYPE_CHECKING:
    from trafilatura.settings import Extractor

__all__ = ["clean_tree", "deletion_order"]


def deletion_order(tree: etree._Element, tags: list[str]) -> list[etree._Element]:
    """The elements ``for tag in tags: for element in tree.iter(tag):
    delete_element(element)`` deletes while they are in the tree, in that order (module
    docstring); the tree is not changed."""
    found: list[etree._Element] = []  # document order
    inside: list[int] = []  # how many of ``found`` are inside each (they follow it)
    open_ones: list[int] = []
    for event, el in etree.iterwalk(tree, events=("start", "end"), tag=tags):
        if event == "start":
            open_ones.append(len(found))
            found.append(el)
            inside.append(0)
        else:
            i = open_ones.pop()
            inside[i] = len(found) - 1 - i
    if not found:
        return []
    dead = bytearray(len(found))  # 1: deleted, or inside an element deleted before
    by_tag: dict[str, list[int]] = {}
    for i, el in enumerate(found):
        by_tag.setdefault(el.tag, []).append(i)
    order: list[etree._Element] = []
    for tag in tags:
        alive = [i for i in by_tag.get(tag, ()) if not dead[i]]
        for n, i in enumerate(alive):
            order.append(found[i])
            end = i + inside[i]
            dead[i : end + 1] = b"\x01" * (end + 1 - i)
            if n + 1 < len(alive) and alive[n + 1] <= end:
                break  # the iterator's next element is inside this one: it ends there
    return order


def clean_tree(tree: etree._Element, options: Extractor) -> etree._Element:
    """``htmlprocessing.tree_cleaning(tree, options)`` (module docstring): ``tree`` is
    cleaned in place and returned (or the copy trafilatura takes back in recall mode)."""
    from trafilatura.htmlprocessing import (
        PRESERVE_IMG_CLEANING,
        _handle_forms,
        prune_html,
        recover_math,
    )
    from trafilatura.settings import MANUALLY_CLEANED, MANUALLY_STRIPPED
    from trafilatura.xml import delete_element

    recover_math(tree)
    cleaning_list, stripping_list = MANUALLY_CLEANED.copy(), MANUALLY_STRIPPED.copy()
    clean_forms = "form" in cleaning_list
    if clean_forms:
        cleaning_list.remove("form")
    if not options.tables:
        cleaning_list.extend(["table", "td", "th", "tr"])
    else:
        for elem in tree.iter("figure", "table"):
            if (
                elem.find(".//table") is not None
                if elem.tag == "figure"
                else elem.get("role") in ("presentation", "none")
            ):
                elem.tag = "div"
    if options.images:
        cleaning_list = [e for e in cleaning_list if e not in PRESERVE_IMG_CLEANING]
        stripping_list.remove("img")
    etree.strip_tags(tree, *stripping_list)
    tcopy = None
    if (
        options.focus == "recall"
        and tree.find(".//p") is not None
        and (
            "p" in cleaning_list
            or not any(next(p.iterancestors(cleaning_list), tree) is tree for p in tree.iter("p"))
        )
    ):
        tcopy = deepcopy(tree)
    for element in deletion_order(tree, cleaning_list):
        delete_element(element)
    if tcopy is not None and tree.find(".//p") is None:
        tree = tcopy
    if clean_forms:
        _handle_forms(tree)
    result: etree._Element = prune_html(tree, options.focus)
    return result
