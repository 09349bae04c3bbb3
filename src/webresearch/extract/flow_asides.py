"""Boxes set as ``<aside>`` in the flow of an article's text. Pure functions over lxml trees.

trafilatura deletes every ``<aside>`` before it looks for the content (``tree_cleaning``:
``MANUALLY_CLEANED``), and most asides inside an ``<article>`` are the site's: related
stories, a sidebar's widgets, a newsletter form, a table of contents, the author's card, a
forum post's signature (WCXB dev half A: 131 asides of three words or more in an
``<article>`` or ``<main>``, nearly all such). Some are the article's own: a box of facts
between two paragraphs ("Not all vegetarians are the same." on a health institute's page,
whose ground truth keeps it), an event's date, place and registration link (review n-18:
the box was lost).

:func:`asides_in_flow` finds the asides that read as part of the text: inside an
``<article>``, right after a block of prose (a paragraph, list or quotation of at least
:data:`PROSE_WORDS` words) and right before another one or a heading, with at least
:data:`MIN_WORDS` words, less than half of its text in links (a "Related story" box is its
headline's link) and no form control (a sign-up box). On half A these rules keep the two
content boxes and leave out the one other aside between paragraphs (a related story).
Measured (webresearch, before → after): WCXB dev article half A +0.0002 (the health page
+0.047), half B, the other types and Zyte unchanged.
:mod:`webresearch.extract.traf_input` hands them to trafilatura as ``<div>`` elements marked
:data:`BOX_ATTR`, which its link density test keeps whole (a box's "Register" link is most
of its last paragraph, and a short box with links goes whole:
:mod:`webresearch.extract.link_lists`).
"""

from __future__ import annotations

from lxml import etree

__all__ = ["BOX_ATTR", "MIN_WORDS", "PROSE_WORDS", "asides_in_flow"]

#: The attribute marking such a box in trafilatura's view of the page: its link density
#: test keeps the box and its paragraphs (:mod:`webresearch.extract.link_lists`).
BOX_ATTR = "data-wr-box"

#: The fewest words of a block of prose around the box.
PROSE_WORDS = 5
#: The fewest words of a box kept.
MIN_WORDS = 5

_PROSE_TAGS = frozenset({"p", "ul", "ol", "blockquote"})
_HEADINGS = frozenset({"h2", "h3", "h4", "h5", "h6"})
_CONTROLS = ("form", "input", "select", "textarea")


def asides_in_flow(doc: etree._Element) -> list[etree._Element]:
    """The ``<aside>`` elements of ``doc`` that are part of an article's text (module
    docstring), in document order; none of them inside another."""
    found: list[etree._Element] = []
    for aside in doc.iter("aside"):
        if not any(outer in found for outer in aside.iterancestors("aside")) and _in_flow(aside):
            found.append(aside)
    return found


def _in_flow(aside: etree._Element) -> bool:
    if next(aside.iterancestors("article"), None) is None:
        return False
    before, after = aside.getprevious(), aside.getnext()
    if not _prose(before) or after is None:
        return False
    if not (_prose(after) or after.tag in _HEADINGS):
        return False
    if next(aside.iter(*_CONTROLS), None) is not None:
        return False
    text = " ".join("".join(aside.itertext()).split())
    if len(text.split()) < MIN_WORDS:
        return False
    linked = sum(len(" ".join("".join(a.itertext()).split())) for a in aside.iter("a"))
    return linked * 2 < len(text)


def _prose(el: etree._Element | None) -> bool:
    if el is None or el.tag not in _PROSE_TAGS:
        return False
    return len("".join(el.itertext()).split()) >= PROSE_WORDS
