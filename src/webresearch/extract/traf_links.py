"""trafilatura's link density deletions, each text read once. Pure functions over lxml trees.

trafilatura's main extractor prunes its frame with ``htmlprocessing.delete_by_link_density``
(``div``, then ``list``, then ``p``, twice: ``main_extractor.prune_unwanted_sections``),
which asks ``link_density_test`` about every element of the tag. Each test reads the whole
text of the element (``trim(text_content())``) and, for an element with more than four
links, the text of each of its links (``collect_link_info``). A page's wrappers nest ten
deep around hundreds of links, so the page's text and every link's text were read again for
each wrapper (1.9 ms a page, the mean over every fourth page of both corpora).

:func:`delete_by_link_density` gives the same answers, reading less:

* each link's text is read once per call (the tree does not change until the deletions at
  its end);
* the elements are asked bottom up, and an element's text is read only when a test needs
  its length: the collapsed text of a block holds the collapsed texts of the blocks in it
  (``trim`` joins the words with single spaces: the words of a part of a text are within
  distinct words of the whole, so neither the letters nor the word count shrink), so the
  sum of the lengths of the asked elements nearest inside it bounds its length from below.
  A wrapper whose links are less than 90 % of that bound (``LINK_FARM_RATIO``) and whose
  bound is over the short-block limit (``limitlen``: 30-300) is no link farm, nor short:
  ``(False, False)`` without reading its text;
* only the elements holding a ``<ref>`` are asked: the others answer ``(False, False)`` at
  trafilatura's first test (the set of those elements, read before the first call of a
  prune, stays a superset of them as deletions only remove elements).

Adapted from trafilatura :data:`~webresearch.extract.traf_pass.TRAFILATURA_VERSION`
(``htmlprocessing.delete_by_link_density``, ``link_density_test``, ``collect_link_info``);
``tests/unit/extract/test_traf_links.py`` checks the deletions against trafilatura's own.
Departures: a paragraph in a list item or a table cell, or in a documentation admonition
(:func:`_holds_content`), is never deleted; nor is a list in an admonition, a list of links
to document files or a list of citations, nor an admonition or a block whose links are all
in such lists (:mod:`webresearch.extract.link_lists`).
:mod:`webresearch.extract.traf_pass` uses it only with that version.

Licence: the adapted functions are trafilatura's (© Adrien Barbaresi and contributors,
Apache License 2.0, https://github.com/adbar/trafilatura).
"""

from __future__ import annotations

from lxml import etree

from webresearch.extract.link_lists import block_of_content, is_content_box, list_of_content

__all__ = ["delete_by_link_density", "linking_elements"]


def linking_elements(tree: etree._Element) -> set[etree._Element]:
    """The elements of ``tree`` (and above it) holding a ``<ref>``: the only ones a link
    density test can delete (module docstring)."""
    linking: set[etree._Element] = set()
    for ref in tree.iter("ref"):
        for ancestor in ref.iterancestors():
            if ancestor in linking:
                break  # and its ancestors are there too
            linking.add(ancestor)
    return linking


def delete_by_link_density(
    subtree: etree._Element,
    tagname: str,
    backtracking: bool,
    favor_precision: bool,
    linking: set[etree._Element] | None = None,
    site: str = "",
) -> bool:
    """``htmlprocessing.delete_by_link_density(subtree, tagname, backtracking,
    favor_precision)``; True when it deleted something.

    ``linking``: :func:`linking_elements` of ``subtree``, read before (or ``None``: read
    here). It reads nothing but the tree, so a call that deletes nothing leaves the tree as
    it was: ``prune_unwanted_sections`` runs its three calls (``div``, ``list``, ``p``)
    twice, and when the first round deletes nothing the second one would find the same
    elements and delete nothing either, so a caller may skip it. ``site``: the page's host
    (:func:`~webresearch.extract.link_lists.site_of`; ``""``: unknown), for the lists of
    citations kept.
    """
    from trafilatura.xml import delete_element

    if linking is None:
        linking = linking_elements(subtree)
    len_threshold = 200 if favor_precision else 100
    depth_threshold = 1 if favor_precision else 3
    asked = [elem for elem in subtree.iter(tagname) if elem in linking]
    link_sizes: dict[etree._Element, int] = {}
    within: dict[etree._Element, int] = {}  # the lower bounds of the asked elements inside
    deletions = []
    for elem in reversed(asked):  # the elements inside an element come before it
        result, short_with_links, size = _density_test(
            elem, favor_precision, within.pop(elem, 0), link_sizes
        )
        outer = next(elem.iterancestors(tagname), None)
        if outer is not None:
            within[outer] = within.get(outer, 0) + size
        if result or (
            backtracking
            and short_with_links  # then ``size`` is the length of trim(text_content())
            and len(elem) >= depth_threshold
            and size < len_threshold
        ):
            parent = elem.getparent()  # a paragraph holding a list item's content stays
            if tagname == "p" and parent is not None and _holds_content(parent):
                continue
            if tagname == "list" and list_of_content(elem, parent, site):
                continue
            if tagname == "div" and block_of_content(elem, site):
                continue
            deletions.append(elem)
    for elem in reversed(deletions):  # in document order, as trafilatura deletes them
        delete_element(elem)
    return bool(deletions)


def _holds_content(parent: etree._Element) -> bool:
    """Whether a paragraph in ``parent`` is content whatever its links: a list item's or a
    table cell's, or a documentation admonition's body (``<div class="admonition seealso">``
    of Sphinx and MkDocs: a "See also" box of links only lost its links and left its title
    alone, review n-17), or a box's in an article's flow (an event's "Register" link)."""
    if parent.tag in ("item", "td", "th"):
        return True
    return is_content_box(parent)


def _text_size(element: etree._Element) -> int:
    """``len(trim(element.text_content()))``."""
    from trafilatura.utils import trim

    return len(trim(element.text_content()))


def _links_info(
    links: list[etree._Element], sizes: dict[etree._Element, int]
) -> tuple[int, int, int]:
    """``collect_link_info(links)[:3]``: the length of the links' texts (trimmed), how many
    are not empty, and how many of those are shorter than 10; each link's text read once
    (``sizes``)."""
    total = count = short = 0
    for link in links:
        size = sizes.get(link)
        if size is None:
            size = sizes[link] = _text_size(link)
        if size:
            total += size
            count += 1
            short += size < 10
    return total, count, short


def _density_test(
    element: etree._Element,
    favor_precision: bool,
    bound: int,
    link_sizes: dict[etree._Element, int],
) -> tuple[bool, bool, int]:
    """``htmlprocessing.link_density_test(element, favor_precision)``, and the length of
    ``trim(element.text_content())`` — or, when no test needed it, a lower bound of it:
    ``bound`` (module docstring)."""
    from trafilatura.htmlprocessing import is_paragraph_listing
    from trafilatura.utils import LINK_FARM_RATIO

    links = element.findall(".//ref")
    if not links or element.find(".//graphic") is not None:
        return False, False, bound
    if element.tag == "p":
        limitlen = 60 if element.getnext() is None else 30
    elif element.getnext() is None:
        limitlen = 300
    else:
        limitlen = 100
    size = _text_size(element) if bound < limitlen else -1  # -1: not read (bound stands)
    if len(links) == 1:
        len_threshold = 10 if favor_precision else 100
        link_size = _links_info(links, link_sizes)[0]
        if link_size > len_threshold:
            if size < 0 and link_size > bound * 0.9:
                size = _text_size(element)
            if size >= 0 and link_size > size * 0.9:
                return True, False, size
    if 0 <= size < limitlen:
        linklen, elemnum, shortelems = _links_info(links, link_sizes)
        if elemnum == 0:
            return True, False, size
        return linklen > size * 0.8 or (elemnum > 1 and shortelems / elemnum > 0.8), True, size
    if len(links) > 4:
        linklen, elemnum, _ = _links_info(links, link_sizes)
        if size < 0 and linklen > bound * LINK_FARM_RATIO:
            size = _text_size(element)
        if (
            size >= 0
            and linklen > size * LINK_FARM_RATIO
            and linklen < 100 * elemnum
            and not is_paragraph_listing(links)
        ):
            return True, False, size
    return False, False, size if size >= 0 else bound
