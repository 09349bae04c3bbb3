"""Link cards: a grid or a list of them, whose every item is one link around a title.
Pure functions over lxml trees, the tests :mod:`webresearch.extract.rescue` brings such
blocks back with (its docstring gives the rules' sources and measures).

trafilatura reads a link card as link text and drops a block of them by link density; a
menu is a block of bare links — no heading, no summary — and these tests leave it out.
"""

from __future__ import annotations

from collections.abc import Iterator

from lxml import etree

from webresearch.extract.align import normalise

__all__ = ["MIN_GRID_CARDS", "is_card_grid", "is_card_list", "is_name_list"]

#: A grid or a list of link cards has at least this many (:func:`is_card_grid`).
MIN_GRID_CARDS = 3

_HEADING_TAGS = ("h2", "h3", "h4", "h5", "h6")


def _tag(el: etree._Element) -> str:
    return el.tag.lower() if isinstance(el.tag, str) else ""


def _only(found: Iterator[etree._Element]) -> etree._Element | None:
    """The one element ``found`` yields, or ``None`` when it yields none or more than one
    (read no further than the second: a block's first child may be most of the page)."""
    first = next(found, None)
    return first if first is not None and next(found, None) is None else None


def _inside(el: etree._Element, outer: etree._Element) -> bool:
    """True when ``el`` is ``outer`` or inside it."""
    return el is outer or any(a is outer for a in el.iterancestors())


def is_card_grid(el: etree._Element) -> bool:
    """At least :data:`MIN_GRID_CARDS` children, every one a card: a link wrapping a
    paragraph (its description) and a title beside it (a docs site's "Accept payments
    without code — Use Payment Links to …" tiles; trafilatura drops them as link text)."""
    if len(el) < MIN_GRID_CARDS:  # (comments counted: read for every <div> of the page)
        return False
    children = [c for c in el if isinstance(c.tag, str)]
    if len(children) < MIN_GRID_CARDS:
        return False
    return all(_is_card(c) for c in children)


def _is_card(el: etree._Element) -> bool:
    link = el if _tag(el) == "a" else _only(el.iter("a"))
    if link is None:
        return False
    text = normalise("".join(el.itertext()))
    if not text or len(normalise("".join(link.itertext()))) < len(text):
        return False  # text outside the link: not a card
    paragraphs = list(link.iter("p"))
    if len(paragraphs) != 1:
        return False
    description = normalise("".join(paragraphs[0].itertext()))
    return bool(description) and len(description) < len(text)


def is_card_list(el: etree._Element) -> bool:
    """At least :data:`MIN_GRID_CARDS` items and nothing else, every item a card: one
    link, one heading (``h2``–``h6``) that the link wraps or holds, and text besides the
    heading's (a summary) — or a name card (:func:`is_name_list`)."""
    items = [c for c in el if isinstance(c.tag, str)]
    if len(items) < MIN_GRID_CARDS or any(_tag(c) != "li" for c in items):
        return False
    return all(_is_heading_card(item) for item in items)


def is_name_list(el: etree._Element) -> bool:
    """At least :data:`MIN_GRID_CARDS` items and nothing else, every one a name card: one
    link wrapping one heading and no other text (``<li><a href="#bio-1"><h3>Name</h3></a>
    </li>``: a team's names; a "Most popular" list numbers its items)."""
    items = [c for c in el if isinstance(c.tag, str)]
    if len(items) < MIN_GRID_CARDS or any(_tag(c) != "li" for c in items):
        return False
    return all(_is_name_card(item) for item in items)


def _is_heading_card(item: etree._Element) -> bool:
    link = _only(item.iter("a"))
    heading = None if link is None else _only(item.iter(*_HEADING_TAGS))
    if link is None or heading is None:
        return False
    if not (_inside(heading, link) or _inside(link, heading)):
        return False
    title = normalise("".join(heading.itertext()))
    return bool(title) and (
        len(normalise("".join(item.itertext()))) > len(title) or _is_name_card(item)
    )


def _is_name_card(item: etree._Element) -> bool:
    """One link wrapping one heading (``h2``–``h6``), and no other text: a team's name."""
    links = item.findall(".//a")
    if len(links) != 1:
        return False
    headings = list(links[0].iter(*_HEADING_TAGS))
    if len(headings) != 1:
        return False
    title = normalise("".join(headings[0].itertext()))
    return bool(title) and normalise("".join(item.itertext())) == title
