"""A product's summary left out with its whole head: the name, price and short description
beside the product's photos. Pure functions over aligned segments.

A product page's content is the product's name, price, description and specification
table (issue 13). Shops often set the product's name, price and a short description (a
paragraph or two) in a "summary" column beside the photos, and the long description
further down in a section of its own ("Product description", "Details"). An article
extractor then keeps the long section, a block of prose, and drops the summary column
whole: its short lines look like a form's labels, and its one paragraph sits between
them (WCXB dev, a shop's jacket: the name, price and the paragraph that introduces the
product were lost; trafilatura's own default pass kept them).
:func:`~webresearch.extract.product_head.keep_product_head` keeps the short lines of a
head only when some text of it was kept; :func:`keep_product_summary` handles the head of
which *nothing* was kept. It marks kept the ``<h1>``'s text and the head's paragraphs of
prose when

* the page's ``<h1>`` names it (:func:`~webresearch.extract.product_name.product_h1`);
* nothing from it to the next heading, within :data:`MAX_HEAD_CHARS` letters and digits,
  was kept, but text after the head was (the extractor found the product's description
  below: this is a product page, not a landing page the extractor rejected);
* a price stands on a line of its own in the head
  (:func:`~webresearch.extract.product_head.is_price_line`), before its paragraphs;
* the head's paragraphs are prose: a block (``<p>``, ``<div>``…; inline markup such as
  ``<em>`` or ``<sup>`` is part of its block) of at least :data:`PROSE_CHARS` letters and
  digits outside links, controls and boilerplate, at most :data:`MAX_PARAGRAPHS` of them
  (a shop's status line — "is backordered and will ship as soon as it is back in stock"
  — is shorter).

The head's short lines (price, stock, rating) are then kept by
:func:`~webresearch.extract.product_head.keep_product_head`, which runs next.
"""

from __future__ import annotations

from lxml import etree

from webresearch.extract.align import Segment
from webresearch.extract.product_head import MAX_HEAD_CHARS, is_price_line
from webresearch.extract.rescue import in_boilerplate

__all__ = ["MAX_PARAGRAPHS", "PROSE_CHARS", "head_span", "keep_product_summary", "prose_block"]

#: A summary has at most this many paragraphs of prose: more is an article's body.
MAX_PARAGRAPHS = 3
#: A paragraph of the summary has at least this many letters and digits outside links:
#: a sentence or two that introduce the product, not a status line of the shop ("Mat -
#: Black is backordered and will ship as soon as it is back in stock", about 80).
PROSE_CHARS = 150

_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_INLINE = frozenset(
    {
        "a",
        "abbr",
        "b",
        "bdi",
        "code",
        "data",
        "em",
        "i",
        "mark",
        "q",
        "s",
        "small",
        "span",
        "strong",
        "sub",
        "sup",
        "u",
    }
)
_CONTROLS = frozenset({"a", "button", "select", "option", "label", "script", "style"})


def _tag(el: etree._Element | None) -> str:
    return el.tag.lower() if el is not None and isinstance(el.tag, str) else ""


def keep_product_summary(
    body: etree._Element, segments: list[Segment], h1: etree._Element | None
) -> int:
    """Mark kept the name and short description of a product head left out whole (module
    docstring).

    Args:
        body: the page's ``<body>``.
        segments: the page's text nodes in document order, the kept ones marked.
        h1: the ``<h1>`` naming the page (:func:`~webresearch.extract.product_name.product_h1`).

    Returns:
        the letters and digits added (0 when the page shows no such head).
    """
    span = head_span(body, segments, h1, MAX_HEAD_CHARS)
    if span is None:
        return 0
    start, end, stop = span
    head = segments[start:stop]
    if any(s.kept for s in head) or not any(s.kept for s in segments[stop:]):
        return 0
    priced = False
    blocks: dict[etree._Element, list[Segment]] = {}
    for seg in segments[end:stop]:
        if not priced:
            priced = is_price_line(seg, body)  # the name, then its price, then prose
            continue
        block = prose_block(seg, body)
        if block is not None and priced:
            blocks.setdefault(block, []).append(seg)
    paragraphs = [
        texts for texts in blocks.values() if sum(len(s.norm) for s in texts) >= PROSE_CHARS
    ]
    if not paragraphs or len(paragraphs) > MAX_PARAGRAPHS:
        return 0
    added = 0
    for seg in [*segments[start:end], *(s for texts in paragraphs for s in texts)]:
        seg.kept = True
        added += len(seg.norm)
    return added


def head_span(
    body: etree._Element, segments: list[Segment], h1: etree._Element | None, max_chars: int
) -> tuple[int, int, int] | None:
    """Where a page's head lies in ``segments``: ``(start, end, stop)`` — the ``<h1>``'s own
    texts are ``segments[start:end]``, the head under it runs to ``stop`` (the next heading,
    or ``max_chars`` characters on); ``None`` when ``h1`` is ``None`` or holds no segment."""
    if h1 is None:
        return None
    inside = set(h1.iter())
    start = next(  # the owner test first: no parent lookup for the page's other texts
        (i for i, s in enumerate(segments) if s.owner in inside and s.holder in inside), None
    )
    if start is None:
        return None
    end = start
    while end < len(segments) and segments[end].holder in inside:
        end += 1
    walked = 0
    stop = end
    while stop < len(segments):
        walked += len(segments[stop].norm)
        if walked > max_chars or _in_heading(segments[stop].holder, body):
            break
        stop += 1
    return start, end, stop


def _in_heading(el: etree._Element | None, body: etree._Element) -> bool:
    while el is not None and el is not body:
        if _tag(el) in _HEADINGS:
            return True
        el = el.getparent()
    return False


def prose_block(seg: Segment, body: etree._Element) -> etree._Element | None:
    """The block whose prose the text is part of, or ``None`` for a text in a link, a
    control or page chrome."""
    el = seg.holder
    block: etree._Element | None = None
    while el is not None and el is not body:
        tag = _tag(el)
        if tag in _CONTROLS:
            return None
        if block is None and tag not in _INLINE:
            block = el
        el = el.getparent()
    if block is None or in_boilerplate(block, body):
        return None
    return block
