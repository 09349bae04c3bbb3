"""A hub page's cards to its own sub-pages: content, not links. Pure functions over lxml trees.

A section's hub page ("Our services", "HR consulting") lists the pages below it, each as a
card: a heading and a one-sentence summary of that sub-page, the whole card one link (HTML5
lets ``<a>`` wrap flow content, so builders make the card clickable). What the hub offers
*is* that list — the ground truth keeps every card's heading and summary. But a card that is
one big link reads as navigation to a main-content extractor: all its text is link text, and
trafilatura drops blocks of high link density, so the page came out as its intro alone.

:func:`open_hub_cards` finds such cards before the main content is chosen and rewrites each
as the text it shows: the ``<a>`` becomes a ``<div>`` and its link moves onto the card's
heading, so the markdown reads ``### [AI & Engineering](…)`` and the summary under it; a
picture in the card gets the link too, so it stays the thumbnail of a link to another page,
which the image rules leave out (``content_images``, rule 5) as they did before. A card
counts when

* its link goes to a page *below* this one: same host, its path starting with this page's
  path (its extension and trailing slash left off) and going further — the hub's own
  children. A teaser grid links elsewhere: the blog, news, case studies, customer stories,
  which the ground truths leave out; the home page (path ``/``) is every page's parent and
  counts as no hub;
* it holds a heading (``<h2>``-``<h6>``) and at least :data:`MIN_SUMMARY_WORDS` words outside
  it: a card with a summary, not a linked heading or a thumbnail with a caption;
* it is not in the page's ``<nav>``, ``<header>`` or ``<footer>`` (a mega-menu's cards are
  the site's menu) and not inside another link.

The rewritten card is marked (:data:`HUB_CARD_ATTRIBUTE`): the teaser pruning after the
main content is chosen (``page_noise.drop_teasers``) spares a box holding one, as a hub's
cards sit in boxes its builder names "promo" as often as the blog teasers do.

Source: the WCXB dev pages. Of the heading-and-summary cards on the dev pages of all types,
those linking below their page (a services hub's 18 cards, an HR consulting page's 6, a
shop category's 2) were in the ground truth, missing from our output, 720 words on service
pages; the cards linking elsewhere (blog teasers, case studies, customer stories: 1,958 words
on service pages) are not in it and stay links, as trafilatura treats them.
"""

from __future__ import annotations

import re
from urllib.parse import urljoin, urlsplit

from lxml import etree

__all__ = ["HUB_CARD_ATTRIBUTE", "MIN_SUMMARY_WORDS", "is_hub_card_box", "open_hub_cards"]

#: Marks a card :func:`open_hub_cards` rewrote, for the later pruning to spare it.
HUB_CARD_ATTRIBUTE = "data-hub-card"

#: A card's words outside its heading: its summary of the sub-page.
MIN_SUMMARY_WORDS = 5

_HEADINGS = ("h2", "h3", "h4", "h5", "h6")
_CHROME = frozenset({"nav", "header", "footer", "a"})
_EXTENSION = re.compile(r"\.(?:html?|php|aspx?|jsp)$", re.I)
_WORD = re.compile(r"[^\W_]+")
_HUB_CARDS = etree.XPath(f".//*[@{HUB_CARD_ATTRIBUTE}]")
#: The attributes that belong to the link, not to the card's box.
_LINK_ATTRIBUTES = ("href", "target", "rel", "download", "hreflang", "ping", "referrerpolicy")


def open_hub_cards(body: etree._Element, url: str) -> int:
    """Rewrite (in place) each card under ``body`` that is one link to a page below ``url``
    as a box whose heading carries the link (module docstring); the number rewritten."""
    parent = _hub_path(url)
    if parent is None:
        return 0
    host = _host(url)
    cards: list[etree._Element] = []
    seen: set[etree._Element] = set()
    for heading in body.iter(*_HEADINGS):  # from the headings up: a page has few of them
        a = next(heading.iterancestors("a"), None)
        if a is None or a in seen:
            continue
        seen.add(a)
        if _below(a.get("href"), url, host, parent) and _is_card(a):
            cards.append(a)
    for card in cards:
        _open(card)
    return len(cards)


def is_hub_card_box(el: etree._Element) -> bool:
    """``el`` is a card :func:`open_hub_cards` rewrote, holds one or sits in one: a hub's
    sub-page card is its content, though its boxes' classes call them a "promo" or a "teaser"
    (module docstring)."""
    if el.get(HUB_CARD_ATTRIBUTE) is not None or _HUB_CARDS(el) != []:
        return True
    return any(up.get(HUB_CARD_ATTRIBUTE) is not None for up in el.iterancestors())


def _hub_path(url: str) -> str | None:
    """This page's path as the prefix of its children's ("/services/"), or ``None`` for
    the home page."""
    path = _EXTENSION.sub("", urlsplit(url).path).rstrip("/")
    return path + "/" if path else None


def _host(url: str) -> str:
    return (urlsplit(url).hostname or "").removeprefix("www.")


def _below(href: str | None, url: str, host: str, parent: str) -> bool:
    """``href`` names a page below ``parent`` on this host."""
    if not href or href.startswith("#"):
        return False
    try:
        target = urlsplit(urljoin(url, href.strip()))
    except ValueError:
        return False
    if (
        target.scheme not in ("http", "https")
        or (target.hostname or "").removeprefix("www.") != host
    ):
        return False
    rest = target.path[len(parent) :] if target.path.startswith(parent) else ""
    return bool(rest.strip("/"))


def _is_card(a: etree._Element) -> bool:
    """A heading and a summary inside ``a``, outside the page's menus and other links."""
    heading = next(a.iter(*_HEADINGS), None)
    if heading is None:
        return False
    if any(isinstance(up.tag, str) and up.tag.lower() in _CHROME for up in a.iterancestors()):
        return False
    words = len(_WORD.findall("".join(a.itertext())))
    return words - len(_WORD.findall("".join(heading.itertext()))) >= MIN_SUMMARY_WORDS


def _open(card: etree._Element) -> None:
    """The card's ``<a>`` becomes a ``<div>``; a new link wraps its heading's content."""
    heading = next(card.iter(*_HEADINGS))
    link = etree.Element("a")
    for name in _LINK_ATTRIBUTES:
        value = card.attrib.pop(name, None)
        if value is not None:
            link.set(name, value)
    card.tag = "div"
    card.set(HUB_CARD_ATTRIBUTE, "")
    for img in list(card.iter("img")):  # still the thumbnail of a link (content_images.py)
        thumbnail = etree.Element("a", dict(link.attrib))
        img.addprevious(thumbnail)
        thumbnail.tail, img.tail = img.tail, None
        thumbnail.append(img)
    link.text, heading.text = heading.text, None
    for child in list(heading):
        link.append(child)  # moves it, its tail with it
    heading.append(link)
