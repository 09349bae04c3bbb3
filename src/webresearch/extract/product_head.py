"""A product's head: the price, rating and options shown right under its name. Pure
functions over aligned segments.

A product page's content is the product's name, price, description and specification
table (issue 13). An article extractor keeps the description and drops the short lines
between the product's ``<h1>`` and it — ``$129.99 $159.99``, ``4.5 out of 5 stars (1,234
reviews)``, a size picker's buttons — as too short to be text (review: on a shop page
without JSON-LD the price and rating were lost; with it only the declared price was
shown). :func:`keep_product_head` marks them kept when

* the page's ``<h1>`` names it (:func:`~webresearch.extract.product_name.product_h1`: the
  one outside navigation, header, footer, sidebars and forms, or of those the one the
  ``<title>`` says);
* within :data:`MAX_HEAD_CHARS` letters and digits after it, before the next heading,
  a price is shown on a line of its own (a currency sign or code next to a number, at
  most :data:`MAX_PRICE_CHARS` letters and digits, in a block of at most twice that,
  outside links: not an amount in a sentence or a headline, nor another product's card)
  before the first kept text of :data:`PROSE_CHARS` letters (the description; an
  article's prices come in its body, below the first paragraph) and some text was kept (the description: the
  extractor chose this block as the content);

and then only short lines (at most :data:`MAX_LINE_CHARS` letters and digits: not a
teaser's prose) that are not links, form labels nor page chrome. A picker's buttons (at
least two sibling ``<button>`` elements of short labels: "40", "41", "43 (sold out)")
inside a kept line of the head become ``<span>`` elements followed by a space: the page's
text leaves every button out, so "Sizes:" stood alone; a lone button ("Add to cart")
stays out.
"""

from __future__ import annotations

import re

from lxml import etree

from webresearch.extract.align import Segment, normalise
from webresearch.extract.rescue import in_boilerplate

__all__ = [
    "MAX_HEAD_CHARS",
    "MAX_LINE_CHARS",
    "MAX_PRICE_CHARS",
    "PROSE_CHARS",
    "is_price_line",
    "keep_product_head",
]

#: The head ends after this many letters and digits (kept or not) past the ``<h1>`` …
MAX_HEAD_CHARS = 800
#: … and a line of it is kept when it has at most this many.
MAX_LINE_CHARS = 80
#: The first kept text of this many letters or more is the description: the price comes
#: before it.
PROSE_CHARS = 80
#: A price line (:func:`is_price_line`) has at most this many letters and digits.
MAX_PRICE_CHARS = 24
_PRICE = re.compile(
    r"(?:[$€£¥₹]|\b(?:USD|EUR|GBP|CAD|AUD)\b)\s?\d|"
    r"\d(?:[\d.,\s]*\d)?\s?(?:€|£|\b(?:EUR|USD|GBP|kr|zł)\b)"
)
_INLINE = frozenset(
    {"span", "s", "del", "ins", "strong", "b", "em", "i", "small", "sup", "sub", "data", "bdi"}
)
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_CONTROLS = frozenset({"a", "button", "select", "option", "label", "script", "style"})


def _tag(el: etree._Element | None) -> str:
    return el.tag.lower() if el is not None and isinstance(el.tag, str) else ""


def keep_product_head(
    body: etree._Element, segments: list[Segment], h1: etree._Element | None
) -> int:
    """Mark kept the product's name, price, rating and options under its ``<h1>`` (module
    docstring; ``h1``: :func:`~webresearch.extract.product_name.product_h1`); the letters
    and digits added (0 when the page shows no product head)."""
    if h1 is None or not any(s.kept for s in segments):
        return 0
    inside = set(h1.iter())
    start = next((i for i, s in enumerate(segments) if s.holder in inside), None)
    if start is None:
        return 0
    end = start
    while end < len(segments) and segments[end].holder in inside:
        end += 1  # the heading's texts are contiguous
    head = list(range(start, end))
    walked = 0
    for i in range(end, len(segments)):
        seg = segments[i]
        walked += len(seg.norm)
        if walked > MAX_HEAD_CHARS or _heading_of(seg.holder, body) is not None:
            break
        head.append(i)
    lines = [segments[i] for i in head]
    if not any(s.kept for s in lines[1:]) or not _priced_before_prose(lines, body):
        return 0
    added = 0
    for seg in lines:
        if seg.kept or seg.holder is None:
            continue
        if seg.holder not in inside and not _is_line(seg, body):
            continue
        seg.kept = True
        added += len(seg.norm)
    for holder in {s.holder for s in lines[1:] if s.kept and s.holder is not None}:
        _show_picker(holder)
    return added


def _priced_before_prose(lines: list[Segment], body: etree._Element) -> bool:
    """True when a price line comes before the first kept text of :data:`PROSE_CHARS`
    letters or more (the description): a price right under the name, not one in an
    article's body below the heading."""
    for seg in lines:
        if is_price_line(seg, body):
            return True
        if seg.kept and len(seg.norm) >= PROSE_CHARS:
            return False
    return False


def is_price_line(seg: Segment, body: etree._Element) -> bool:
    """A price on a line of its own ("$129.99", "From €49"), not an amount inside a
    sentence or headline ("a £71.6m release clause")."""
    return (
        len(seg.norm) <= MAX_PRICE_CHARS
        and _PRICE.search(_raw(seg)) is not None
        and _is_line(seg, body)  # not in a link: a card of another product
        and len(normalise("".join(_block(seg.holder).itertext()))) <= 2 * MAX_PRICE_CHARS
    )


def _block(el: etree._Element | None) -> etree._Element:
    """``el`` or its nearest ancestor that is not an inline element (the price's line)."""
    assert el is not None
    while _tag(el) in _INLINE and el.getparent() is not None:
        el = el.getparent()
    return el


def _raw(seg: Segment) -> str:
    return (seg.owner.tail if seg.tail else seg.owner.text) or ""


def _heading_of(el: etree._Element | None, body: etree._Element) -> etree._Element | None:
    while el is not None and el is not body:
        if _tag(el) in _HEADINGS:
            return el
        el = el.getparent()
    return None


def _is_line(seg: Segment, body: etree._Element) -> bool:
    """A short line that is no link, control nor page chrome."""
    if len(seg.norm) > MAX_LINE_CHARS or seg.holder is None:
        return False
    el: etree._Element | None = seg.holder
    while el is not None and el is not body:
        if _tag(el) in _CONTROLS:
            return False
        el = el.getparent()
    return not in_boilerplate(seg.holder, body)


def _show_picker(holder: etree._Element) -> None:
    """A picker's buttons right in ``holder`` (at least two, each a short label: "40",
    "43 (sold out)") become ``<span>`` elements followed by a space: the page's text leaves
    button labels out (:data:`webresearch.extract.markdown.SKIPPED_TAGS`)."""
    buttons = [c for c in holder if _tag(c) == "button"]
    if len(buttons) < 2:
        return
    labels = ["".join(b.itertext()).strip() for b in buttons]
    if not all(0 < len(label) <= MAX_LINE_CHARS for label in labels):
        return
    for button in buttons:
        button.tag = "span"
        button.tail = " " + (button.tail or "")
