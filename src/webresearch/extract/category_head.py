"""A listing's head left out whole: the page's ``<h1>`` and the paragraphs that introduce
its items. Pure functions over aligned segments.

A shop's category page, a job board or a search results page opens with a head: the
category's name in the ``<h1>`` ("GPS Watches") and a paragraph or two that say what the
items below are ("These watches use a variety of satellites to give you the distance, time
and pace of your run …"); then come the filter controls, the grid of items and, often, a
block of prose further down (shipping terms, a buying guide). An article extractor scores
blocks by their text: the long block further down wins, and the head — a heading and a
couple of short paragraphs between a breadcrumb and a grid of links — is dropped whole,
though it is what names the page and its items (issue 13: a listing's content is its
items and what introduces them; WCXB ground truths of such pages begin with the name and
its description). :func:`~webresearch.extract.rescue.rescue_blocks` brings back the
``<h1>`` alone when it sits right before the first kept text; this module handles the head
whose paragraphs lie between them.

:func:`keep_category_head` marks kept the ``<h1>``'s text and the head's paragraphs when

* the page's ``<h1>`` names it (:func:`~webresearch.extract.product_name.product_h1`);
* nothing from it to the next heading (within :data:`MAX_HEAD_CHARS` letters and digits)
  was kept, and text after it was: the extractor found content below the head;
* the head holds paragraphs of prose — blocks of at least :data:`PARAGRAPH_CHARS` letters
  and digits outside links, controls and boilerplate, at least :data:`MIN_HEAD_CHARS` of
  them in all and at most :data:`MAX_PARAGRAPHS` blocks (more is an article's body, which
  the extractor would have kept);
* each paragraph shares an ancestor with the ``<h1>`` at most :data:`MAX_HEAD_DEPTH` levels
  above it: the heading's own box (``<div class="header"><h1/><div><p/></div></div>``),
  not a block of the page the walk reached past it;
* between the head and the first kept text stand a listing's controls or items: at least
  :data:`MIN_BETWEEN_CONTROLS` texts in links or controls, holding at least
  :data:`MIN_BETWEEN_LINK_SHARE` of the letters there (the sort links, the filter toggle,
  the item cards, "Next page"). An article's standfirst is followed by its body, or by a
  byline naming one or two authors: it stays the extractor's call;
* a listing follows the head: among the first :data:`ITEM_WINDOW` texts after it, one
  stands in a grid of item cards — at least :data:`MIN_ITEM_CARDS` sibling elements of one
  tag and class, each holding a link and two texts or more (a name and a price, a title
  and a snippet). An article's share bar ("Facebook", "Twitter", "Email", "12 comments")
  passes the condition on links between, but its links are not cards: a hero's promotion
  and advertiser disclosure over it are not a listing's head (review r16b).

It runs on every page type: a category page often declares ``og:type`` "article" (a CMS's
default), so declarations do not tell it from an article.

WCXB dev: collection 0.7305 → 0.7384 (a running shop's "GPS Watches" page 0.61 → 1.00: its
name and two paragraphs over a script-drawn grid), article −0.00001 (one page −0.004: a
post's excerpt under its title, over a row of five tag links, which its ground truth leaves
out), the other types and Zyte dev unchanged. Without the condition on what lies between,
nine article pages lost 0.004–0.013 (standfirsts, author bios beside the title).
"""

from __future__ import annotations

from lxml import etree

from webresearch.extract.align import Segment
from webresearch.extract.product_summary import head_span, prose_block

__all__ = [
    "ITEM_WINDOW",
    "MAX_CARD_DEPTH",
    "MAX_HEAD_CHARS",
    "MAX_HEAD_DEPTH",
    "MAX_PARAGRAPHS",
    "MIN_BETWEEN_CONTROLS",
    "MIN_BETWEEN_LINK_SHARE",
    "MIN_HEAD_CHARS",
    "MIN_ITEM_CARDS",
    "PARAGRAPH_CHARS",
    "keep_category_head",
]

#: The head is read up to the next heading, and at most this many letters and digits.
MAX_HEAD_CHARS = 1500
#: A paragraph of the head has at least this many letters and digits …
PARAGRAPH_CHARS = 40
#: … the head's paragraphs at least this many in all …
MIN_HEAD_CHARS = 100
#: … in at most this many blocks.
MAX_PARAGRAPHS = 4
#: A paragraph of the head shares an ancestor with the ``<h1>`` this many levels up or nearer.
MAX_HEAD_DEPTH = 3
#: Between the head and the first kept text, at least this share of the letters and digits
#: is link or control text (sort links, filters, item cards, "Next page").
MIN_BETWEEN_LINK_SHARE = 0.5
#: … in at least this many links or controls (a byline names one or two authors).
MIN_BETWEEN_CONTROLS = 4
#: A listing follows the head: at least this many item cards of one shape …
MIN_ITEM_CARDS = 3
#: … holding a text among the first this many texts after the head …
ITEM_WINDOW = 30
#: … the card this many levels or fewer above the text.
MAX_CARD_DEPTH = 4

_CONTROLS = frozenset({"a", "button", "label", "select", "option"})


def _tag(el: etree._Element | None) -> str:
    return el.tag.lower() if el is not None and isinstance(el.tag, str) else ""


def keep_category_head(
    body: etree._Element, segments: list[Segment], h1: etree._Element | None
) -> int:
    """Mark kept the ``<h1>`` and the introducing paragraphs of a head left out whole
    (module docstring).

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
    if any(s.kept for s in segments[start:stop]) or not any(s.kept for s in segments[stop:]):
        return 0
    box = _ancestors(h1, body)
    blocks: dict[etree._Element, list[Segment]] = {}
    for seg in segments[end:stop]:
        block = prose_block(seg, body)
        if block is not None and not box.isdisjoint(block.iterancestors()):
            blocks.setdefault(block, []).append(seg)
    paragraphs = [
        texts for texts in blocks.values() if sum(len(s.norm) for s in texts) >= PARAGRAPH_CHARS
    ]
    size = sum(len(s.norm) for texts in paragraphs for s in texts)
    if size < MIN_HEAD_CHARS or len(paragraphs) > MAX_PARAGRAPHS:
        return 0
    first = next(i for i in range(stop, len(segments)) if segments[i].kept)
    said = {id(s) for texts in paragraphs for s in texts}
    rest = [s for s in segments[end:first] if id(s) not in said]
    controls = [s for s in rest if _in_control(s.holder)]
    links = sum(len(s.norm) for s in controls)
    between = sum(len(s.norm) for s in rest)
    if len(controls) < MIN_BETWEEN_CONTROLS or links < MIN_BETWEEN_LINK_SHARE * between:
        return 0  # no controls or items between: an article's standfirst, an author's bio
    if not _listing_follows(segments[end : first + ITEM_WINDOW], body):
        return 0  # a share bar's links, a byline: no grid of item cards after the head
    added = 0
    for seg in [*segments[start:end], *(s for texts in paragraphs for s in texts)]:
        seg.kept = True
        added += len(seg.norm)
    return added


def _listing_follows(segments: list[Segment], body: etree._Element) -> bool:
    """True when the texts after the head stand in a listing's item cards: at least
    :data:`MIN_ITEM_CARDS` sibling elements of one tag and class, each holding a link and
    at least two texts (a name and a price, a title and a snippet) —
    :func:`_item_card`. A share bar's links ("Facebook", "Email", "12 comments") are links
    alone, not cards."""
    seen: dict[etree._Element, bool] = {}
    for seg in segments:
        node = seg.holder
        for _ in range(MAX_CARD_DEPTH):
            if node is None or node is body:
                break
            parent = node.getparent()
            if parent is None or parent is body:
                break
            if parent not in seen:
                seen[parent] = _card_grid(parent)
            if seen[parent]:
                return True
            node = parent
    return False


def _card_grid(parent: etree._Element) -> bool:
    """True when ``parent`` holds :data:`MIN_ITEM_CARDS` item cards of one tag and class."""
    shapes: dict[tuple[str, str], int] = {}
    for child in parent:
        if _item_card(child):
            shape = (_tag(child), child.get("class") or "")
            shapes[shape] = shapes.get(shape, 0) + 1
            if shapes[shape] >= MIN_ITEM_CARDS:
                return True
    return False


def _item_card(el: etree._Element) -> bool:
    """True when ``el`` holds a link and at least two separate texts."""
    if not isinstance(el.tag, str):
        return False
    if not any(a.get("href") for a in el.iter("a")):  # el itself when it is the link
        return False
    texts = sum(1 for t in el.itertext() if t.strip())
    return texts >= 2


def _ancestors(h1: etree._Element, body: etree._Element) -> set[etree._Element]:
    """The ``<h1>``'s ancestors up to :data:`MAX_HEAD_DEPTH` levels, ``<body>`` excluded."""
    found: set[etree._Element] = set()
    node = h1.getparent()
    while node is not None and node is not body and len(found) < MAX_HEAD_DEPTH:
        found.add(node)
        node = node.getparent()
    return found


def _in_control(el: etree._Element | None) -> bool:
    """True when ``el`` or one of its :data:`MAX_HEAD_DEPTH` nearest ancestors is a link or
    a control (``<a>``, ``<button>``, ``<label>``, ``<select>``, ``<option>``)."""
    for _ in range(MAX_HEAD_DEPTH + 1):
        if el is None:
            return False
        if _tag(el) in _CONTROLS:
            return True
        el = el.getparent()
    return False
