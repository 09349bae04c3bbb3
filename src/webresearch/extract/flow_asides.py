"""Boxes set as ``<aside>`` in the flow of an article's text. Pure functions over lxml trees.

trafilatura deletes every ``<aside>`` before it looks for the content (``tree_cleaning``:
``MANUALLY_CLEANED``), and most asides inside an ``<article>`` are the site's: related
stories, a sidebar's widgets, a newsletter form, a table of contents, the author's card, a
forum post's signature (WCXB dev half A: 131 asides of three words or more in an
``<article>`` or ``<main>``, nearly all such). Some are the article's own: a box of facts
between two paragraphs ("Not all vegetarians are the same." on a health institute's page,
whose ground truth keeps it), an event's date, place and registration link (review n-18:
the box was lost).

:func:`asides_in_flow` finds the asides that read as part of the text: inside an
``<article>``, right after a block of prose (a paragraph, list or quotation of at least
:data:`PROSE_WORDS` words) and right before another one or a heading, with at least
:data:`MIN_WORDS` words, less than half of its text in links (a "Related story" box is its
headline's link) and no form control (a sign-up box). On half A these rules keep the two
content boxes and leave out the one other aside between paragraphs (a related story).
Measured (webresearch, before → after): WCXB dev article half A +0.0002 (the health page
+0.047), half B, the other types and Zyte unchanged.

Shape is not enough (review r-18a): a newsletter's "Enjoying this article? Subscribe", a
"Support local journalism… Donate now" box, an app's "Get breaking news alerts… App Store"
and a pull quote also sit between two paragraphs. So a box is kept only with evidence of
facts — a ``<time>``, ``<address>``, ``<dl>`` or ``<table>``, a date or an hour in its text
(:data:`DATE`), or a box of prose of at least :data:`FACT_WORDS` words (the health page's
"Not all vegetarians are the same." box) — and without a call to action: no word of
:data:`CALL_TO_ACTION` in its text, links or class and id names, and no link to an app
store. A box of which half the words or more repeat the article's text in runs of
:data:`QUOTE_RUN` words is a pull quote, left out (its text would be read twice).
Comments and processing instructions between a box and its paragraphs are skipped. On the
corpus these conditions change nothing: both content boxes of half A are still kept.
:mod:`webresearch.extract.traf_input` hands them to trafilatura as ``<div>`` elements marked
:data:`BOX_ATTR`, which its link density test keeps whole (a box's "Register" link is most
of its last paragraph, and a short box with links goes whole:
:mod:`webresearch.extract.link_lists`).
"""

from __future__ import annotations

import re

from lxml import etree

__all__ = [
    "BOX_ATTR",
    "CALL_TO_ACTION",
    "DATE",
    "FACT_WORDS",
    "MIN_WORDS",
    "PROSE_WORDS",
    "QUOTE_RUN",
    "asides_in_flow",
]

#: The attribute marking such a box in trafilatura's view of the page: its link density
#: test keeps the box and its paragraphs (:mod:`webresearch.extract.link_lists`).
BOX_ATTR = "data-wr-box"

#: The fewest words of a block of prose around the box.
PROSE_WORDS = 5
#: The fewest words of a box kept.
MIN_WORDS = 5

#: The fewest words of a box of prose kept without a date or a table (the facts box).
FACT_WORDS = 30
#: The words of a run shared with the article's text that make a box a pull quote.
QUOTE_RUN = 5

#: A date or an hour in English: "14 May", "May 14", "Tuesday", "2026-05-14", "7 pm",
#: "19:30".
DATE = re.compile(
    r"\b(?:(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\b"
    r"|\d{1,2}(?:st|nd|rd|th)?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)"
    r"|(?:mon|tues|wednes|thurs|fri|satur|sun)day"
    r"|\d{4}-\d{2}-\d{2}|\d{1,2}(?::\d{2})?\s*[ap]\.?m\b|\d{1,2}:\d{2})",
    re.IGNORECASE,
)
#: Words of a call to action in a box's text, its links' addresses or its class and id
#: names: subscribing, donating, joining, installing an app, an advertisement.
CALL_TO_ACTION = re.compile(
    r"subscri|newsletter|sign[ -]?up|donat|\bsupport (?:our|us|independent|local)"
    r"|membership|become a member|app store|google play|\bapps?\b|advert|sponsor|promo"
    r"|\bcta\b|\bads?\b|pull-?quote|inbox|presented by|paid (?:post|content|partner)"
    r"|in partnership with|brought to you by|affiliate",
    re.IGNORECASE,
)
_APP_STORES = ("apps.apple.com", "itunes.apple.com", "play.google.com")
_EVIDENCE_TAGS = ("time", "address", "dl", "table")
_WORD = re.compile(r"\w+")

_PROSE_TAGS = frozenset({"p", "ul", "ol", "blockquote"})
_HEADINGS = frozenset({"h2", "h3", "h4", "h5", "h6"})
_CONTROLS = ("form", "input", "select", "textarea")


def asides_in_flow(doc: etree._Element) -> list[etree._Element]:
    """The ``<aside>`` elements of ``doc`` that are part of an article's text (module
    docstring), in document order; none of them inside another."""
    found: list[etree._Element] = []
    for aside in doc.iter("aside"):
        if not any(outer in found for outer in aside.iterancestors("aside")) and _in_flow(aside):
            found.append(aside)
    return found


def _in_flow(aside: etree._Element) -> bool:
    article = next(aside.iterancestors("article"), None)
    if article is None:
        return False
    before, after = _sibling(aside, -1), _sibling(aside, 1)
    if not _prose(before) or after is None:
        return False
    if not (_prose(after) or after.tag in _HEADINGS):
        return False
    if next(aside.iter(*_CONTROLS), None) is not None:
        return False
    text = " ".join("".join(aside.itertext()).split())
    if len(text.split()) < MIN_WORDS:
        return False
    linked = sum(len(" ".join("".join(a.itertext()).split())) for a in aside.iter("a"))
    if linked * 2 >= len(text) or _calls_to_action(aside, text):
        return False
    if not _has_facts(aside, text):
        return False
    return not _repeats(aside, article, text)


def _sibling(el: etree._Element, step: int) -> etree._Element | None:
    """The element before (``step`` −1) or after (+1) ``el``, comments and processing
    instructions skipped."""
    node = el.getprevious() if step < 0 else el.getnext()
    while node is not None and not isinstance(node.tag, str):
        node = node.getprevious() if step < 0 else node.getnext()
    return node


def _calls_to_action(aside: etree._Element, text: str) -> bool:
    if CALL_TO_ACTION.search(text):
        return True
    for node in aside.iter():
        if not isinstance(node.tag, str):
            continue
        names = f"{node.get('class') or ''} {node.get('id') or ''} {node.get('href') or ''}"
        if CALL_TO_ACTION.search(names) or any(store in names for store in _APP_STORES):
            return True
    return False


def _has_facts(aside: etree._Element, text: str) -> bool:
    if next(aside.iter(*_EVIDENCE_TAGS), None) is not None or DATE.search(text):
        return True
    linked = sum(len("".join(a.itertext()).split()) for a in aside.iter("a"))
    return len(text.split()) - linked >= FACT_WORDS


def _repeats(aside: etree._Element, article: etree._Element, text: str) -> bool:
    """Whether half the words of ``aside`` or more are in runs of :data:`QUOTE_RUN` words
    found in the rest of ``article``'s text (a pull quote)."""
    words = _WORD.findall(text.lower())
    if len(words) < QUOTE_RUN:
        return False
    inside = set(aside.iter())  # the elements, not their id(): a freed proxy's id is reused
    rest: list[str] = []
    for node in article.iter():
        if node in inside or not isinstance(node.tag, str):
            continue
        rest.extend(_WORD.findall((node.text or "").lower()))
        if node.tail:
            rest.extend(_WORD.findall(node.tail.lower()))
    runs = {tuple(rest[i : i + QUOTE_RUN]) for i in range(len(rest) - QUOTE_RUN + 1)}
    covered: set[int] = set()
    for i in range(len(words) - QUOTE_RUN + 1):
        if tuple(words[i : i + QUOTE_RUN]) in runs:
            covered.update(range(i, i + QUOTE_RUN))
    return len(covered) * 2 >= len(words)


def _prose(el: etree._Element | None) -> bool:
    if el is None or el.tag not in _PROSE_TAGS:
        return False
    return len("".join(el.itertext()).split()) >= PROSE_WORDS
