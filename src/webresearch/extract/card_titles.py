"""Product cards whose price was kept but not their name. Pure functions over lxml trees.

On a shop's category page (a grid of product cards: a link and a price each) an article
extractor reads a card's name as link text — a heading inside the card's link, a
``product-title`` link — and drops it, while the card's price, a short line of plain text,
stays: the output then lists "$75, $65, $65 …" without saying what costs that. The name is
the card's first content (issue 13: a listing's repeated items, "title, link, one line
each").

Rule (:func:`keep_card_titles`): in a grid of at least :data:`MIN_CARDS` sibling product
cards (same tag, at least :data:`MIN_CARD_SHARE` of the siblings of that tag; each holds a
link, a short text showing a price after or before a currency sign, and at most
:data:`MAX_CARD_CHARS` letters and digits), a card of which some text is kept also keeps
the text of its headings (``<h1>``–``<h6>``) and of the elements whose class names a title
or a name (``product-title``, ``card__heading``, ``product-name``). A card of which nothing
is kept stays out (the extractor's choice of *which* cards are content stands), and so
does the rest of the card (buttons, swatches, badges).

WCXB dev (webresearch alone): collection 0.7152 → 0.7182 (6 pages up: a graphics-card
grid 0.19 → 0.26, a parts catalog 0.61 → 0.64, a clothing grid 0.84 → 0.87; one down
−0.007: a headphone grid whose ground truth leaves the names of some cards out), listing
0.7297 → 0.7295 (one up +0.012, one down −0.028: a kitchen shop whose ground truth lists
only the ratings), product and service unchanged (without :data:`MAX_CARD_CHARS` a
payment provider's page sections and a pricing page's plan cards came in: service −0.001).
Cost: the prices are found from the page's text nodes (a currency-sign test first), the
grids from the prices up: 0.35 ms a page (median, in process).
"""

from __future__ import annotations

import re
from collections import defaultdict

from lxml import etree

from webresearch.extract.align import Segment

__all__ = ["MAX_CARD_CHARS", "MAX_PRICE_TEXT", "MIN_CARDS", "MIN_CARD_SHARE", "keep_card_titles"]

#: A grid has at least this many product cards …
MIN_CARDS = 4
#: … making at least this share of the siblings of their tag.
MIN_CARD_SHARE = 0.5

#: A product card holds at most this many letters and digits (a name, a line, a price, a
#: rating): a pricing plan's card with its list of features, a page section showing a
#: price, are more than an item of a grid.
MAX_CARD_CHARS = 300
#: A card's price is a text node of at most this many characters ("$1,299.00", "Now
#: $174.99 , discount of 30%"); longer texts are sentences that may name a price.
MAX_PRICE_TEXT = 80

_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
#: A class token naming an item's title or name (``product-title``, ``card__heading``,
#: ``productName``, ``woocommerce-loop-product__title``).
_TITLE_CLASS = re.compile(r"title|name|heading", re.I)
#: A price: an amount after a currency sign, or before one ("49,95 €"). A price written
#: with a currency code alone ("480 kr") is not looked for: testing every text node of
#: the page for codes costs four times the test for a sign.
_PRICE = re.compile(r"[$€£¥₹]\s?\d|\d\s?[€£]")
#: A currency sign (a cheap test before :data:`_PRICE`).
_SIGN = re.compile(r"[$€£¥₹]")


def keep_card_titles(body: etree._Element, segments: list[Segment]) -> int:
    """Mark kept the titles of the product cards partly kept (module docstring).

    Args:
        body: the page's ``<body>`` (not modified).
        segments: the page's text segments, some kept (changed in place).

    Returns:
        the letters and digits added.
    """
    if not any(seg.kept for seg in segments):
        return 0
    card_of = _grid_cards(body, segments)
    if not card_of:
        return 0
    size: dict[etree._Element, int] = defaultdict(int)
    partly: set[etree._Element] = set()
    for seg in segments:
        card = card_of.get(seg.holder)
        if card is not None:
            size[card] += len(seg.norm)
            if seg.kept:
                partly.add(card)
    partly = {card for card in partly if size[card] <= MAX_CARD_CHARS}
    added = 0
    for seg in segments:
        holder = seg.holder
        if seg.kept or holder is None:
            continue
        card = card_of.get(holder)
        if card is not None and card in partly and _in_title(holder, card):
            seg.kept = True
            added += len(seg.norm)
    return added


def _grid_cards(
    body: etree._Element, segments: list[Segment]
) -> dict[etree._Element, etree._Element]:
    """Each element inside a grid's product card → that card (the innermost grids).

    The cards are found from the prices up: each text showing a price climbs to ``body``,
    counting for every ancestor the children of each tag that hold a price — one walk up
    per price, not a walk over every block of the page.
    """
    priced: dict[tuple[etree._Element, str], set[etree._Element]] = defaultdict(set)
    for seg in segments:
        raw = seg.owner.tail if seg.tail else seg.owner.text
        if not raw or len(raw) > MAX_PRICE_TEXT or not _SIGN.search(raw):
            continue
        if not _PRICE.search(raw):
            continue
        child = seg.holder
        while child is not None and child is not body:
            parent = child.getparent()
            if parent is None:
                break
            priced[(parent, child.tag)].add(child)
            child = parent
    grids: list[tuple[int, list[etree._Element]]] = []
    for (parent, tag), holding in priced.items():
        if len(holding) < MIN_CARDS or not isinstance(tag, str):
            continue
        siblings = sum(1 for c in parent if c.tag == tag)
        cards = [c for c in parent if c in holding and (c.tag == "a" or c.find(".//a") is not None)]
        if len(cards) >= max(MIN_CARDS, MIN_CARD_SHARE * siblings):
            grids.append((sum(1 for _ in parent.iterancestors()), cards))
    card_of: dict[etree._Element, etree._Element] = {}
    for _, cards in sorted(grids, key=lambda g: -g[0]):  # deepest first: the innermost
        if any(c in card_of for c in cards):
            continue  # a grid of blocks that hold grids: its cards are the inner ones
        for card in cards:
            for inner in card.iter():
                card_of[inner] = card
    return card_of


def _in_title(el: etree._Element, card: etree._Element) -> bool:
    """True when ``el`` (inside ``card``) is or lies in a heading or a title element."""
    node: etree._Element | None = el
    while node is not None:
        if isinstance(node.tag, str):
            if node.tag in _HEADINGS:
                return True
            name = node.get("class") or ""
            if name and _TITLE_CLASS.search(name):
                return True
        if node is card:
            return False
        node = node.getparent()
    return False
