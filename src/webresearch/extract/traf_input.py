"""The page as trafilatura reads it. Pure functions over lxml trees.

trafilatura decides what the main content is (:mod:`webresearch.extract.main_content`) on a
view of the page that differs from the page in three ways; the page itself is never changed:

* a formula (``<math>``) without TeX source is its text, as the alignment reads it:
  trafilatura turns a formula with TeX into that TeX (``htmlprocessing.recover_math``) but
  deletes the others, and a link around such a formula then reads as an empty link, a short
  list holding it as a menu, dropped whole with its other items (review:
  ``<li><a><math>w</math></a>.</li>`` took the next item's text with it);
* a hidden block our verdict keeps (a closed tab or accordion panel a control opens, an app
  shell's content: :func:`~webresearch.extract.page_noise.hidden_verdicts`) shows: its
  ``style``, ``hidden`` and ``aria-hidden`` attributes and the class tokens that say hidden
  (``hidden…``, ``hide…``, ``…-hide-…``) are dropped, and ``hidden`` is cut out of its
  ``id`` (``hidden-specs`` reads ``-specs``: nothing but trafilatura reads the view's ids,
  and its other id tests — ``article``, ``content`` — still see the rest). trafilatura
  deletes every ``display:none``, ``aria-hidden="true"``, ``class="… hidden"`` or
  ``id="…hidden…"`` element it meets (``OVERALL_DISCARD_XPATH``, readability's visibility
  test), so a panel the verdict kept — ``<div id="specs" style="display:none">`` under a
  tab with ``aria-controls="specs"``, ``<div id="hidden-specs">`` under
  ``aria-controls="hidden-specs"`` (review r-13a) — never reached the markdown (review:
  the verdict and the discard disagreed, the discard won). Hidden blocks the verdict
  removes, and hidden elements inside a kept one, are left as they are: trafilatura's
  discard still applies to them;
* a box set as ``<aside>`` in the flow of an article's text (an event's date, place and
  registration link between two paragraphs: :func:`~webresearch.extract.flow_asides.asides_in_flow`)
  is a ``<div>`` marked ``BOX_ATTR``: trafilatura deletes every ``<aside>`` before it looks
  for the content.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from copy import deepcopy

from lxml import etree

from webresearch.extract.flow_asides import BOX_ATTR, asides_in_flow
from webresearch.extract.formulas import formula_tex
from webresearch.extract.tree import remove_keep_tail

__all__ = ["trafilatura_input"]

_MATH_TAGS = ("math", "{http://www.w3.org/1998/Math/MathML}math")
#: Attributes that hide an element from trafilatura (its discard XPath, readability).
_HIDING_ATTRIBUTES = ("style", "hidden", "aria-hidden")
#: Class tokens trafilatura's hidden-class test reads as hidden (``^hide-``, `` hidden``,
#: `` hide``, ``-hide-``: a token starting so, or holding ``-hide-``).
_HIDING_CLASS = re.compile(r"hid(?:den|e).*|.*-hide-.*")


def trafilatura_input(
    doc: etree._Element, shown: Collection[etree._Element] = ()
) -> etree._Element:
    """A copy of ``doc`` with its formulas without TeX as text, the hidden blocks in
    ``shown`` unhidden and its boxes in an article's flow as ``<div>`` (module docstring),
    or ``doc`` itself when none applies.

    Args:
        doc: the parsed page (``<html>``); not modified.
        shown: hidden elements of ``doc`` that are content (the verdict's ``kept``).
    """
    formulas = any(not formula_tex(el) for el in doc.iter(*_MATH_TAGS))
    boxes = set(asides_in_flow(doc))
    if not formulas and not shown and not boxes:
        return doc
    page = deepcopy(doc)
    if boxes:  # a deep copy has the same shape (below)
        for original, copied in zip(doc.iter("aside"), page.iter("aside"), strict=True):
            if original in boxes:
                copied.tag = "div"
                copied.set(BOX_ATTR, "aside")
    if shown:
        wanted = set(shown)
        # a deep copy has the same shape: the n-th element of each walk is the same node
        for original, copied in zip(doc.iter(), page.iter(), strict=True):
            if original in wanted:
                _unhide(copied)
    for math in [el for el in page.iter(*_MATH_TAGS) if not formula_tex(el)]:
        text = " ".join("".join(math.itertext()).split())
        math.tail = f"{text} {math.tail or ''}" if text else math.tail
        remove_keep_tail(math)
    return page


def _unhide(el: etree._Element) -> None:
    """Drop what hides ``el`` from trafilatura (module docstring), in place."""
    for name in _HIDING_ATTRIBUTES:
        el.attrib.pop(name, None)
    ident = el.get("id")
    if ident is not None and "hidden" in ident:  # re:test(@id|@style, 'hidden')
        if ident.replace("hidden", ""):
            el.set("id", ident.replace("hidden", ""))
        else:
            del el.attrib["id"]
    klass = el.get("class")
    if klass is not None:
        tokens = [t for t in klass.split() if not _HIDING_CLASS.fullmatch(t)]
        el.set("class", " ".join(tokens))
