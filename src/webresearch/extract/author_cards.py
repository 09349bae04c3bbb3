"""An article's author card ("About the author": a photo, the name, two lines of biography):
not the article. Pure functions over an lxml tree.

The card sits at the end of the article, often inside its container, and trafilatura keeps
its prose. The evidence is the card's shape, not its class name: :func:`author_cards` finds

* a link to the author's page — ``rel="author"``, or an address whose path has an
  ``/author/<name>`` or ``/authors/<name>`` part (WordPress and most CMSs);
* the box around it: the link and its ancestors while they hold at most
  :data:`MAX_CARD_WORDS` words, a fifth of the page's text and two images
  (:func:`~webresearch.extract.signup.small_box`), never ``<body>``, ``<main>``,
  ``<article>`` or an element holding the ``<h1>``;
* a biography in the box: a sentence about the linked person, opening with their name
  or first name and a verb ("Ana Ruiz is a …", "Ana has written …", "Ana started …"), of
  at least :data:`MIN_BIO_WORDS` words in the box (a byline "By Ana Ruiz · 5 min read"
  has none and stays);
* only one such card on the page: a page of several (a team page, an anthology's
  contributors) shows people as its content, and they all stay.

Source of the rule: the WCXB dev article pages (author cards after the article: 0039,
0171, 0421, 5468 and others; the ground truth holds one of the cards found, 4603's). A
card's name line and biography alone ("Name" then "Name is a …") were measured and left
out: listicles of companies and people have that shape on more than 100 dev pages.
"""

from __future__ import annotations

import re

from lxml import etree

from webresearch.extract.signup import small_box

__all__ = ["MAX_CARD_WORDS", "MIN_BIO_WORDS", "author_cards"]

#: An author card holds at most this many words …
MAX_CARD_WORDS = 150
#: … and at least this many (a biography, not a byline) …
MIN_BIO_WORDS = 15

_AUTHOR_PATH = re.compile(r"/authors?/[^/?#\s]+", re.IGNORECASE)
_BIO_VERB = re.compile(
    r"\s+(?:is|was|has|had|started|founded|joined|writes|wrote|covers|leads|serves|holds|"
    r"brings|specializes|specialises|loves|explores|helps|works|lives|teaches)\b"
)


def author_cards(root: etree._Element, page_chars: int) -> list[etree._Element]:
    """The author card under ``root`` (module docstring) as a one-element list, or an empty
    list (none, or several cards); nothing is removed (pass it to
    :func:`~webresearch.extract.page_noise.remove_elements`). ``page_chars``: letters and
    digits of the page's text (:func:`~webresearch.extract.align.page_text_size`)."""
    cards: list[etree._Element] = []
    verdicts: dict[etree._Element, bool] = {}
    for link in root.iter("a"):
        if not _links_an_author(link):
            continue
        name = " ".join("".join(link.itertext()).split())
        if len(name.split()) > 5 or not any(ch.isalpha() for ch in name):
            continue
        if any(card is link or card in link.iterancestors() for card in cards):
            continue
        parent = link.getparent()
        card = None if parent is None else small_box(parent, page_chars, MAX_CARD_WORDS, verdicts)
        if card is None or card.find(".//h1") is not None or not _tells_about(card, name):
            continue
        cards = [c for c in cards if card not in c.iterancestors()]
        cards.append(card)
        if len(cards) > 1:
            return []  # several people: the page's content
    return cards


def _links_an_author(link: etree._Element) -> bool:
    if "author" in (link.get("rel") or "").lower().split():
        return True
    return bool(_AUTHOR_PATH.search(link.get("href") or ""))


def _tells_about(card: etree._Element, name: str) -> bool:
    """True when the card holds a biography of ``name`` (module docstring)."""
    text = " ".join(" ".join(card.itertext()).split())
    if len(text.split()) < MIN_BIO_WORDS:
        return False
    for n in {name, name.split()[0]}:
        at = text.find(n)
        while at >= 0:
            if (at == 0 or text[at - 1] == " ") and _BIO_VERB.match(text, at + len(n)):
                return True
            at = text.find(n, at + 1)
    return False
