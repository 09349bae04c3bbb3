"""A paywall's prompt box inside an article ("This article is exclusive to subscribers —
Unlock this article … Already have an account? Log in", a plan picker): never the article.
Pure functions over an lxml tree.

A news site cuts a premium article after a few paragraphs and prints its subscription
offer where the rest would be; trafilatura keeps the offer's headings and lines. The
evidence is the markup the paywall vendors and publishers give the box, not its words
alone: :func:`paywall_boxes` finds the elements

* whose ``class`` or ``id`` names a paywall or a subscriber gate (:data:`_GATE`: "paywall",
  "regwall", "piano-inline" / "tp-container" (Piano's templates), "restricted-content",
  "subscriber-only", "subscription-wall", "premium-wall", "meter-wall", "offer-wall"…);
* whose text asks the reader to subscribe or sign in (:data:`_PROMPT`: subscribe,
  subscriber, subscription, "log in", "sign in", unlock, "already have an account",
  member…): a class alone is not enough;
* that hold no paragraph of prose of more than :data:`MAX_PROMPT_PARAGRAPH_WORDS` words, at
  most :data:`MAX_BOX_WORDS` words and less than a fifth of the page's text, never
  ``<body>``, ``<main>``, ``<article>`` or an element with the ``<h1>``: a prompt is
  short lines and buttons;
* that are not the premium text itself: schema.org's paywall markup
  (``"isAccessibleForFree": false`` with ``"hasPart": {"cssSelector": ".paywall"}``,
  Google's structured data for subscription content) names the element that holds the
  article's paid part, often with the same class words; an element with a class the
  page's JSON-LD names in a ``cssSelector``, or inside one, always stays.

Outermost only (a prompt's own "paywall-cta" link inside the box is the same box). Removed
after pruning, like the sign-up boxes (:mod:`.signup`). Source of the rule: WCXB dev
article 0221 (half A: a news site's "This article is exclusive to … subscribers", "Unlock
this article — plus …", "Already have an account? Log in" in a ``restricted-content-breaker``
box with ``data-…-paywall-cta`` links; the ground truth lists those lines as not content).
With the ad-slot labels (:data:`~webresearch.extract.markdown_tidy.UI_LABEL`, same
change), WCXB dev article half A 0221 +0.031 and 5111 +0.002, half B one page up, none
down on either; other types and Zyte unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from operator import itemgetter

from lxml import etree

from webresearch.extract.align import page_text_size
from webresearch.extract.scan_index import PageAttributes

__all__ = [
    "MAX_BOX_SHARE",
    "MAX_BOX_WORDS",
    "MAX_PROMPT_PARAGRAPH_WORDS",
    "may_hold_paywall",
    "paywall_boxes",
    "premium_classes",
]

#: A paywall prompt box holds at most this many words (headings, plan cards, buttons) …
MAX_BOX_WORDS = 300
#: … and no paragraph of more than this many words (premium text is prose).
MAX_PROMPT_PARAGRAPH_WORDS = 40
#: … and less than this share of the page's letters and digits.
MAX_BOX_SHARE = 0.2

#: Class or id words of a paywall or subscriber gate.
_GATE = re.compile(
    r"pay-?wall|reg-?wall|\bpiano-(?:inline|container|offer|template|wrapper|modal|meter)"
    r"|\btp-(?:container|modal|iframe)|restricted-content"
    r"|subscri(?:ber|ption|be)s?-?(?:only|wall|gate|prompt|required)"
    r"|(?:premium|meter(?:ed)?|offer|login|registration)-?(?:wall|gate)\b",
    re.IGNORECASE,
)
#: Words of a prompt to subscribe or sign in.
#: Every match of :data:`_GATE` holds one of these (lower case).
_GATE_WORDS = ("wall", "gate", "piano-", "tp-", "restricted-content", "subscri")
_PROMPT = re.compile(
    r"\bsubscri(?:be|ber|bers|ption)\b|\blog ?in\b|\bsign ?in\b|\bunlock\b"
    r"|already have an account|\bmembers?(?:hip)?\b|\bregister\b",
    re.IGNORECASE,
)
#: A class named in a JSON-LD ``cssSelector`` (".paywall", "div.premium-content").
_SELECTOR = re.compile(r'"cssSelector"\s*:\s*(?:\[\s*)?"([^"]*)"')
_CLASS_IN_SELECTOR = re.compile(r"\.([\w-]+)")
_NEVER = frozenset({"html", "body", "main", "article"})
_PARAGRAPHS = ("p", "li", "blockquote")


def may_hold_paywall(attributes: PageAttributes) -> bool:
    """Whether any element of the page read into ``attributes``
    (:func:`~webresearch.extract.scan_index.read_attributes`) has a ``class`` or ``id``
    naming a paywall or subscriber gate: :func:`paywall_boxes` finds nothing on a page
    without one. The test reads the page's class and id values joined (in C), not every
    element: most pages have no paywall, and walking each of their elements cost ~5% of an
    extraction (session 18). No pattern of the test spans a line break, so the joined text
    matches exactly when one element's value does."""
    classes = attributes.classes
    if classes is None:
        classes = "\n".join(filter(None, (row[1] for row in attributes.rows)))
    ids = "\n".join(filter(None, map(itemgetter(2), attributes.rows)))  # in C
    marks = f"{classes}\n{ids}"
    lowered = marks.lower()
    if not any(word in lowered for word in _GATE_WORDS):
        return False  # a substring search: the pattern's alternation at every offset of a
        # page's 50 kB of class names cost 2.6 ms a page
    return _GATE.search(marks) is not None


def paywall_boxes(
    root: etree._Element, page_chars: int, premium: frozenset[str]
) -> list[etree._Element]:
    """The paywall prompt boxes under ``root`` (module docstring), outermost only, in
    document order; nothing is removed (pass them to
    :func:`~webresearch.extract.page_noise.remove_elements`). ``page_chars``: letters and
    digits of the page's text (:func:`~webresearch.extract.align.page_text_size`);
    ``premium``: the classes of the paid part (:func:`premium_classes`)."""
    found: list[etree._Element] = []
    for el in root.iter():
        if not isinstance(el.tag, str) or el.tag in _NEVER:
            continue
        marks = f"{el.get('class') or ''} {el.get('id') or ''}"
        if not _GATE.search(marks):
            continue
        if found and any(a is found[-1] for a in el.iterancestors()):
            continue  # inside a box already found
        if _is_premium(el, premium) or not _is_prompt(el, page_chars):
            continue
        found.append(el)
    return found


def premium_classes(scripts: Iterable[etree._Element]) -> frozenset[str]:
    """The classes the page's JSON-LD names in a ``cssSelector`` (the paid part), read from
    the page's ``<script>`` elements before they are dropped; empty when none."""
    names: set[str] = set()
    for script in scripts:
        if "ld+json" not in (script.get("type") or "").lower() or not script.text:
            continue
        for selector in _SELECTOR.findall(script.text):
            names.update(_CLASS_IN_SELECTOR.findall(selector))
    return frozenset(names)


def _is_premium(el: etree._Element, premium: frozenset[str]) -> bool:
    """Whether ``el`` or an ancestor or a descendant has a class the JSON-LD names."""
    if not premium:
        return False
    for node in (el, *el.iterancestors(), *el.iterdescendants()):
        if isinstance(node.tag, str) and premium.intersection((node.get("class") or "").split()):
            return True
    return False


def _is_prompt(el: etree._Element, page_chars: int) -> bool:
    """Whether ``el`` is short, asks to subscribe or sign in, and holds no prose."""
    if el.find(".//h1") is not None:
        return False
    text = " ".join(el.itertext())
    if len(text.split()) > MAX_BOX_WORDS or not _PROMPT.search(text):
        return False
    if page_text_size(el) >= MAX_BOX_SHARE * page_chars:
        return False
    return all(
        len(" ".join(p.itertext()).split()) <= MAX_PROMPT_PARAGRAPH_WORDS
        for p in el.iter(*_PARAGRAPHS)
    )
