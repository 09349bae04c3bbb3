"""A listing's card badges, found for removal. Pure functions.

A shop's category page or a store's front page stamps its item cards with badges: "Sold
out", "New arrival", "Top rated", "Pre-order now", "Sale", "3 Colors". They are set
by the shop's template on every card it applies to — the same label in its own small
element (``<span class="badge">Sold out</span>``) on card after card — and say nothing of
the item a reader does not get from its name and price; written out they are short lines
between the items (issue 13: a listing's items without the chrome around them). WCXB dev
ground truths of such pages leave them out: of 131 badge lines we wrote three times or more
on 11 collection, listing and product pages, 2 are in their ground truths.

:func:`card_badges` lists the elements whose whole text is a badge label
(:data:`_BADGE`, whitespace collapsed, case ignored) — the element has no child element,
and no text stands loose in its parent — when the same label stands in at least
:data:`MIN_BADGE_REPEATS` such elements on the page: one "New" or "Sold out" is a
sentence's word, a product's status or a heading; the same label on three cards is the
template's. Nothing inside a table (an availability column is data), ``<pre>`` or
``<code>`` is listed, and only a badge inside a grid of link cards (repeated sibling
elements of one tag, each holding a link: :func:`_in_link_card`) — a product's list of
sizes, a programme of concerts without links or a changelog's "New" sections are content.
Headings are never badges ("### New" over a release's additions).

Availability labels ("Sold out", "Out of stock", "Only 2 left", "Coming soon",
"Pre-order", "In stock") are never removed: they change what the item means to a reader —
a size or a concert marked "Sold out" is not one on offer (review r16b). This gives back
the "Sold out" pages of the first measurement below: WCXB dev collection 0.7416 → 0.7393
(3 pages down, all availability labels now kept: a shop's 9 "Sold out" −0.094, 16 and 6
"Pre Order Now" −0.013 and −0.001), the other types and Zyte dev unchanged.

A label with a count is one label whatever the count: the template writes "{n} Colors",
so "5 Colors" on one card and "2 Colors" on the next are the same badge (the digits are
read as one placeholder when the labels are counted); grouped by their exact text, a grid
whose cards each show another count kept them all. WCXB dev, tuned on half A of the pages
(``bench/dev_halves.py``): collection A +0.0002 (2 pages up, a luggage grid's and a
headphone grid's swatch counts), half B and the other types unchanged.

Removed after the main content is chosen, with the hidden blocks (``extract_html``).
WCXB dev: collection 0.7384 → 0.7413 (8 pages up, a shop's 9 "Sold out" +0.094), listing
+0.0004 (one page up +0.025: "2 Colors" on 37 cards; one down −0.003: a chess shop whose
ground truth keeps its "Bestseller" labels), product +0.0001 (2 up), article, service,
documentation, forum and Zyte dev unchanged.
"""

from __future__ import annotations

import re
from collections import defaultdict

from lxml import etree

__all__ = ["MIN_BADGE_REPEATS", "card_badges"]

#: The same badge label in at least this many elements is a card template's.
MIN_BADGE_REPEATS = 3
#: A badge label is short: an element's own text is read only up to this many characters.
_MAX_BADGE_CHARS = 40

_BADGE = re.compile(
    r"\+?\s*\d+\s+colou?rs?|(?:more\s+)?colou?rs?\s+available|"
    r"new\s+arrivals?|new!?|best\s*-?\s*sellers?|top\s+rated|"
    r"online\s+only|exclusive|limited\s+edition|just\s+in|sale!?|on\s+sale",
    re.I,
)
#: The elements a badge is set in (lxml's tag filter: the page's other elements are skipped
#: in C).
_BADGE_TAGS = (
    "span", "div", "p", "a", "li", "em", "strong", "b", "i", "small", "mark", "label",
    "button",
)  # fmt: skip
#: A card is short: an ancestor with more text than this (whitespace collapsed) is a
#: section, not one card.
_MAX_CARD_CHARS = 1000
_VERBATIM = frozenset({"table", "pre", "code", "kbd", "samp"})
_WS = re.compile(r"\s+")
#: A label's count: "5 colors" and "2 colors" are one template label, "{n} colors".
_DIGITS = re.compile(r"\d+")


def card_badges(root: etree._Element) -> list[etree._Element]:
    """The card badges under ``root`` (module docstring); nothing is removed yet (pass them
    to ``remove_elements``).

    Args:
        root: the page's ``<body>`` (or any subtree).

    Returns:
        the elements holding nothing but a badge label repeated on the page.
    """
    found: dict[str, list[etree._Element]] = defaultdict(list)
    for el in root.iter(*_BADGE_TAGS):
        text = el.text
        if not text or len(text) > _MAX_BADGE_CHARS or len(el):
            continue
        label = _WS.sub(" ", text).strip()
        if not label or not _BADGE.fullmatch(label) or not _alone(el) or _verbatim(el, root):
            continue
        found[_DIGITS.sub("0", label.lower())].append(el)  # "5 colors", "2 colors": one label
    grids: dict[tuple[etree._Element, str], bool] = {}
    return [
        el
        for els in found.values()
        if len(els) >= MIN_BADGE_REPEATS
        for el in els
        if _in_link_card(el, root, grids)
    ]


def _in_link_card(
    el: etree._Element, root: etree._Element, grids: dict[tuple[etree._Element, str], bool]
) -> bool:
    """True when ``el`` stands in a card of a grid of link cards: an ancestor of at most
    :data:`_MAX_CARD_CHARS` characters holding a link (other than ``el``) whose parent holds
    at least :data:`MIN_BADGE_REPEATS` children of its tag that each hold a link — a
    listing's item cards. A list of sizes, a programme of events without links or a
    release's list of changes is not a grid of link cards; its labels are its content."""
    node = el.getparent()
    while node is not None and node is not root:
        if len(_WS.sub(" ", "".join(node.itertext())).strip()) > _MAX_CARD_CHARS:
            return False
        parent = node.getparent()
        if parent is None:
            return False
        if any(a is not el for a in node.iter("a") if a.get("href")):
            key = (parent, str(node.tag))
            if key not in grids:
                grids[key] = _link_grid(parent, key[1])
            if grids[key]:
                return True
        node = parent
    return False


def _link_grid(parent: etree._Element, tag: str) -> bool:
    """True when at least :data:`MIN_BADGE_REPEATS` of ``parent``'s ``tag`` children each
    hold a link."""
    cards = [c for c in parent if c.tag == tag and any(a.get("href") for a in c.iter("a"))]
    return len(cards) >= MIN_BADGE_REPEATS


def _alone(el: etree._Element) -> bool:
    """True when no text stands loose in ``el``'s parent (beside its child elements): the
    label is not a word of a sentence (``<p>A <b>new</b> range</p>``)."""
    if (el.tail or "").strip():
        return False
    parent = el.getparent()
    if parent is None:
        return True
    if (parent.text or "").strip():
        return False
    return not any((sib.tail or "").strip() for sib in parent)


def _verbatim(el: etree._Element, root: etree._Element) -> bool:
    node: etree._Element | None = el
    while node is not None and node is not root:
        if isinstance(node.tag, str) and node.tag.lower() in _VERBATIM:
            return True
        node = node.getparent()
    return False
