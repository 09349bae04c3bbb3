"""Placeholder text a template left on the page ("Lorem ipsum dolor sit amet…"): never content.
Pure functions over lxml trees.

Page builders fill a block they were never given text for with the printers' Lorem ipsum;
a marketing page's unused speaker cards or agenda tabs keep it in the markup (often hidden,
sometimes not), and the extractor read it as a closed panel's prose (a WCXB dev article:
250 words of Lorem ipsum after a 140-word invitation). :func:`placeholder_blocks` finds the
blocks whose text is that filler:

* a block element (a paragraph, list item, heading, table cell, a ``<div>`` of text…)
  whose text holds "lorem ipsum" (any case);
* at least :data:`MIN_FILLER_SHARE` of its words (letters only, digits left out: "Lorem
  ipsum 1") are words of the standard Lorem ipsum passage (:data:`FILLER_WORDS`): a
  sentence *about* the filler ("Designers use lorem ipsum as placeholder text") stays;
* not on a page whose title or ``<h1>`` names it (a page about Lorem ipsum quotes it).

WCXB dev: article 0285 0.43 → 0.86; no other dev page of any type, nor of Zyte dev, holds
the filler in our output.
"""

from __future__ import annotations

import re

from lxml import etree

__all__ = ["FILLER_WORDS", "MIN_FILLER_SHARE", "placeholder_blocks"]

#: The words of the standard Lorem ipsum passage (Cicero, de Finibus, as printers cut it).
FILLER_WORDS = frozenset(
    [
        "lorem",
        "ipsum",
        "dolor",
        "sit",
        "amet",
        "consectetur",
        "consectetuer",
        "adipiscing",
        "adipisicing",
        "elit",
        "sed",
        "do",
        "eiusmod",
        "tempor",
        "incididunt",
        "ut",
        "labore",
        "et",
        "dolore",
        "magna",
        "aliqua",
        "enim",
        "ad",
        "minim",
        "veniam",
        "quis",
        "nostrud",
        "exercitation",
        "ullamco",
        "laboris",
        "nisi",
        "aliquip",
        "ex",
        "ea",
        "commodo",
        "consequat",
        "duis",
        "aute",
        "irure",
        "in",
        "reprehenderit",
        "voluptate",
        "velit",
        "esse",
        "cillum",
        "eu",
        "fugiat",
        "nulla",
        "pariatur",
        "excepteur",
        "sint",
        "occaecat",
        "cupidatat",
        "non",
        "proident",
        "sunt",
        "culpa",
        "qui",
        "officia",
        "deserunt",
        "mollit",
        "anim",
        "id",
        "est",
        "laborum",
        "integer",
        "nec",
        "odio",
        "praesent",
        "libero",
        "sapien",
        "vestibulum",
        "vel",
        "nunc",
        "quam",
        "aenean",
        "mauris",
        "donec",
        "pellentesque",
        "ac",
        "at",
        "vitae",
        "nam",
        "tellus",
        "morbi",
        "leo",
        "curabitur",
        "eget",
        "sem",
    ]
)
#: A placeholder block's words are at least this share filler words.
MIN_FILLER_SHARE = 0.6

_BLOCKS = frozenset(
    {
        "p", "li", "dt", "dd", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6",
        "blockquote", "figcaption", "div", "section", "article", "aside",
    }
)  # fmt: skip
_WORD = re.compile(r"[^\W\d_]+")
_FILLER = re.compile(r"lorem\s+ipsum", re.IGNORECASE)
# how the filler is written (a page's markup may spell it in any case: searched without case
# only when one of these is there)
_SPELLINGS = ("orem ipsum", "orem Ipsum", "OREM IPSUM")


def placeholder_blocks(doc: etree._Element, markup: str | None = None) -> list[etree._Element]:
    """The outermost placeholder blocks under the body of ``doc`` (module docstring), in
    document order; nothing is removed yet. ``markup``: the served page, when ``doc`` was
    parsed from it — three substring searches then skip the pages without the filler (most
    of them); without it the body's text is searched."""
    body = doc.find("body")
    if body is None:
        return []
    if markup is not None:
        if not any(spelling in markup for spelling in _SPELLINGS):
            return []
    elif not _FILLER.search(etree.tostring(body, method="text", encoding="unicode")):
        return []
    heading = " ".join(
        "".join(el.itertext()) for el in (doc.find(".//title"), doc.find(".//h1")) if el is not None
    )
    if _FILLER.search(heading):
        return []
    found: list[etree._Element] = []
    for el in body.iter(etree.Element):
        own = (el.text or "") + "".join(child.tail or "" for child in el)  # its own text nodes
        if not _FILLER.search(own):
            continue
        block = next((b for b in _self_and_ancestors(el) if b.tag in _BLOCKS), None)
        if block is None or block is body or block in found:
            continue
        if any(a in found for a in block.iterancestors()):
            continue
        words = _WORD.findall("".join(block.itertext()).lower())
        if words and sum(w in FILLER_WORDS for w in words) >= MIN_FILLER_SHARE * len(words):
            found.append(block)
    return found


def _self_and_ancestors(el: etree._Element) -> list[etree._Element]:
    return [el, *el.iterancestors()]
