"""The attributes several page scans test, read in one walk over a page. Pure functions.

Three scans of the body run one after another on the same, not yet pruned tree and each
tested every element's attributes in a walk of its own:
:func:`~webresearch.extract.page_noise.hidden_blocks` (``class``, ``style``, ``hidden``),
:func:`~webresearch.extract.page_noise.popup_menus` (``role``, ``class``, the tag) and
:func:`~webresearch.extract.consent.consent_banners` (``class``, ``id``, ``data-testid``).
Reading an attribute from lxml costs about as much as visiting the element; one walk that
reads the six attributes once (:func:`read_attributes`) and gives them to the three scans
replaced three walks (Zyte dev pages: measured in one process, old and new interleaved).
Each scan reads the same elements in the same (document) order as before: the outputs
do not change. The index describes the tree as it was when read: a scan given an index
of another root reads the tree itself.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from operator import itemgetter

from lxml import etree

__all__ = ["AttributeRow", "PageAttributes", "hiding_candidates", "read_attributes"]

#: One element and its ``class``, ``id``, ``style``, ``hidden``, ``role`` and
#: ``data-testid`` attributes (``None`` for an attribute the element does not have).
AttributeRow = tuple[
    etree._Element, str | None, str | None, str | None, str | None, str | None, str | None
]


@dataclass(frozen=True, slots=True)
class PageAttributes:
    """The attributes the page scans test, for every element under ``root``.

    Attributes:
        root: the element walked (the page's ``<body>``).
        rows: one :data:`AttributeRow` per element of ``root.iter()`` (``root`` first, then
            its descendants in document order; comments and processing instructions left
            out).
        styled: the rows of ``rows`` whose element has a ``style`` attribute, in the same
            order (a scan of inline styles reads these alone: a twentieth of the rows).
        marked: the rows of ``rows`` but the root's whose markup may hide their element
            (:func:`hiding_candidates`' test without the stylesheet), in the same order.
        roled: the rows of ``rows`` whose element has a ``role`` attribute, in the same
            order; ``None``: not listed (read ``rows``).
        classes: the rows' ``class`` values (those not empty) joined by line breaks, for a
            scan's test that no class holds a word (one search in C instead of one test a
            row); ``None``: not joined (read ``rows``).
    """

    root: etree._Element
    rows: list[AttributeRow]
    styled: list[AttributeRow] = field(default_factory=list)
    marked: list[AttributeRow] = field(default_factory=list)
    roled: list[AttributeRow] | None = None
    classes: str | None = None

    def describes(self, root: etree._Element) -> bool:
        """True when these rows were read from ``root`` (else read the tree itself)."""
        return self.root is root


def read_attributes(root: etree._Element) -> PageAttributes:
    """Read the attributes of every element under ``root`` (itself included) once.

    Read right before the scans that use it: the rows do not follow later changes of the
    tree (an element removed, an attribute set). Each element's attributes are read with
    one ``items()`` call (an element without any: nothing more), not one ``get`` a name:
    a tenth less time; the HTML parser keeps one value a name, so the values are the same.
    """
    rows: list[AttributeRow] = []
    styled: list[AttributeRow] = []
    marked: list[AttributeRow] = []
    roled: list[AttributeRow] = []
    append = rows.append
    for el in root.iter(etree.Element):
        pairs = el.items()
        if not pairs:
            append((el, None, None, None, None, None, None))
            continue
        klass = ident = style = flag = role = testid = None
        for name, value in pairs:
            if name == "class":
                klass = value
            elif name == "id":
                ident = value
            elif name == "style":
                style = value
            elif name == "hidden":
                flag = value
            elif name == "role":
                role = value
            elif name == "data-testid":
                testid = value
        row = (el, klass, ident, style, flag, role, testid)
        append(row)
        if role is not None:
            roled.append(row)
        if style is not None:
            styled.append(row)
            marked.append(row)
        elif flag is not None or (klass is not None and _may_hide(klass)):
            marked.append(row)
    if marked and marked[0][0] is root:
        del marked[0]  # the root: never a candidate
    classes = "\n".join(filter(None, map(itemgetter(1), rows)))  # in C: no loop here
    return PageAttributes(root, rows, styled, marked, roled, classes)


def _may_hide(klass: str) -> bool:
    """A ``class`` value holding ``hidden``, ``d-`` or ``w-`` (display utilities)."""
    return "hidden" in klass or "d-" in klass or "w-" in klass


def hiding_candidates(
    doc: etree._Element, attributes: PageAttributes | None, styled: frozenset[etree._Element]
) -> Iterator[tuple[etree._Element, str | None, str | None, str | None]]:
    """The body's elements (not the body) that may be hidden, in document order, with their
    ``class``, ``style``, ``hidden``: a ``hidden``/``style`` attribute, a class holding ``hidden``,
    ``d-`` or ``w-`` (display utilities), or in ``styled`` (a loop: an XPath took twice as long)."""
    body = doc.find("body")
    if body is None:
        return
    if attributes is None or not attributes.describes(body):
        attributes = read_attributes(body)
    if not styled:  # the rows that pass the markup's test, listed as they were read
        for el, klass, _, style, flag, _, _ in attributes.marked:
            yield el, klass, style, flag
        return
    for el, klass, _, style, flag, _, _ in attributes.rows[1:]:  # rows[0]: the body
        if (
            (klass is not None and _may_hide(klass))
            or (style is not None or flag is not None)
            or el in styled
        ):
            yield el, klass, style, flag
