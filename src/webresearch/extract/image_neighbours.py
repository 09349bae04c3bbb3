"""An image whose alt text only repeats the text next to it in reading order. Pure functions.

Rule 5 of :mod:`webresearch.extract.content_images` reads the blocks beside the image's
own block: it climbs at most four levels and stops at a ``<figure>``. Templates put more
wrappers than that between an image and the heading it illustrates: a review's product
chart writes ``<h2>Harbour Cam 2 – Best outdoor camera</h2>`` in a title wrapper and the
photo, whose alt text is that title again, in an image wrapper, an outer wrapper and a
lightbox ``<figure>`` without a caption beside a button. A reader sees the heading, then
an image saying the same words (issue 13: "images whose alt text only repeats nearby
text").

Here the text right before and right after the image in reading order is found: the
nearest text in document order on each side — a sibling's text, or the text between the
image's wrappers and their siblings — climbing at most :data:`MAX_LEVELS` levels, not past
``<body>``, ``<main>`` or ``<article>``; a caption-less ``<figure>`` is one more wrapper
(an image with a ``<figcaption>`` is judged by its caption before this rule is asked).
The image repeats its neighbours when every word of its alt text is in the short ones
(under :data:`MAX_SHORT_CHARS` characters: a heading or a caption), or when one neighbour
holds the alt text as a phrase (its words in a row). Words scattered over a paragraph do
not make a caption: a chart "Rainfall in the north and south harbour towns" beside two
paragraphs about the north and south harbour towns' rainfall says something of its own
(review r16; WCXB dev, against main e15e3b5 with the r16 mojibake and page_toc fixes:
article −0.00004, 9 pages down by at most 0.003 — alt texts near their words kept, e.g.
0417, 0357 — service 0704 +0.003, documentation 5446 −0.002, the rest unchanged). Text longer than :data:`MAX_NEIGHBOUR_CHARS` characters is prose of its own,
not the image's heading or caption, and is not read.

WCXB dev (webresearch alone, against main 096fedb): article 0.9578 → 0.9579, 14 pages up
(a review's chart of products 4603 +0.008, 4640 +0.005, 4052 +0.004), none down;
documentation 5446 +0.004; service 0704 −0.003 (an "Audit and track citations" picture
over the heading of that name: the ground truth keeps its words); the other types and
Zyte dev unchanged.
"""

from __future__ import annotations

import re

from lxml import etree

__all__ = ["MAX_LEVELS", "MAX_NEIGHBOUR_CHARS", "MAX_SHORT_CHARS", "repeats_reading_neighbours"]

#: How many levels up from the image its neighbours are looked for.
MAX_LEVELS = 8
#: Text beside an image longer than this many characters is not its heading or caption.
MAX_NEIGHBOUR_CHARS = 1000
#: Text beside an image shorter than this many characters may be its heading or caption:
#: its words count one by one.
MAX_SHORT_CHARS = 150
_STOP = frozenset({"body", "main", "article", "html"})
_WORD = re.compile(r"[^\W_]+")


def repeats_reading_neighbours(img: etree._Element, alt: str) -> bool:
    """True when every word of ``alt`` is in the short text right before or right after
    ``img`` in reading order, or ``alt`` is a phrase of one of them (module docstring)."""
    phrase = [w.lower() for w in _WORD.findall(alt)]
    if not phrase:
        return False
    near: set[str] = set()
    for before in (True, False):
        text = _neighbour_text(img, before)
        if len(text) > MAX_NEIGHBOUR_CHARS:
            continue
        words = [w.lower() for w in _WORD.findall(text)]
        if _holds_phrase(words, phrase):
            return True
        if len(text) < MAX_SHORT_CHARS:
            near.update(words)
    return set(phrase) <= near


def _holds_phrase(words: list[str], phrase: list[str]) -> bool:
    """Whether ``phrase`` occurs in ``words`` as a run of consecutive words."""
    size = len(phrase)
    return any(words[i : i + size] == phrase for i in range(len(words) - size + 1))


def _neighbour_text(img: etree._Element, before: bool) -> str:
    """The nearest text on that side of ``img`` in document order, else ``""``."""
    node = img
    for _ in range(MAX_LEVELS):
        text = _beside(node, before)
        if text:
            return text
        parent = node.getparent()
        if parent is None or not isinstance(parent.tag, str) or parent.tag in _STOP:
            return ""
        if before and (parent.text or "").strip():
            return parent.text or ""
        node = parent
    return ""


def _beside(node: etree._Element, before: bool) -> str:
    """The text next to ``node`` among its siblings: the text between them (tails) or
    the nearest sibling holding text."""
    if not before and (node.tail or "").strip():
        return node.tail or ""
    sibling = node.getprevious() if before else node.getnext()
    while sibling is not None:
        if before and (sibling.tail or "").strip():
            return sibling.tail or ""
        if isinstance(sibling.tag, str):
            text = " ".join("".join(sibling.itertext()).split())
            if text:
                return text
        if not before and (sibling.tail or "").strip():
            return sibling.tail or ""
        sibling = sibling.getprevious() if before else sibling.getnext()
    return ""
