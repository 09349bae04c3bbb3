"""Cookie consent banners: never a page's content. Pure functions over an lxml tree.

A consent banner ("We use cookies to … By clicking “Accept” you agree …", a consent
manager's "We value your privacy" dialog) sits in the page's markup, often inside or next to
the content column, and trafilatura or the second opinion keeps it as a paragraph.
:func:`consent_banners` finds the outermost elements that

* carry a consent banner's name in their class, id or ``data-testid`` (:data:`_BANNER_NAME`: ``cookie-banner``,
  ``cookie-bar``, ``cookie-consent``, ``cookiepreferences_popup``, ``consent-banner``, a
  ``gdpr`` banner (``gdpr-banner``, ``gdpr-notice``; not a bare ``gdpr-…`` section), the
  consent managers Quantcast ``qc-cmp``, OneTrust, Cookiebot, Cookie
  Consent's ``cc-window``, CookieYes' ``cli-cookie``);
* mention cookies and offer a choice in a control — a button, a link or an input whose
  text is accept, agree, allow, reject, decline, manage, settings, preferences, "got it",
  "OK" (prose that says "accept" is not a control: a page explaining the cookie law, a
  recipe's ``cookie-notice-tips`` stay);
* hold fewer than :data:`MAX_BANNER_WORDS` words (a banner, not a page section) and no
  ``<h1>`` (a page's own title is never in a banner: a shop's ``cookie-consent-wrapper``
  may wrap the whole page).

A page's section *about* cookies (``<section id="cookies">`` of a web framework's manual)
does not carry a banner's name and stays. Source of the rule: on the WCXB dev pages, the
elements so named hold about 500 words of our output and none of the ground truth (7 pages:
article, forum, product, collection, service). A banner named only by its test hook
(``data-testid="consent-banner"``, a React shop) went on 2 WCXB dev product pages (+0.015 each,
no other page changes).
"""

from __future__ import annotations

import re
from itertools import chain
from operator import itemgetter

from lxml import etree

from webresearch.extract.scan_index import PageAttributes, read_attributes

__all__ = ["MAX_BANNER_WORDS", "consent_banners"]

#: A consent banner has fewer words than this.
MAX_BANNER_WORDS = 400

_BANNER_NAME = re.compile(
    r"cookie[-_]?(?:banner|bar|consent|notice|popup|law|preferences|message|notification|wall)"
    r"|consent[-_]?(?:banner|bar|manager|popup|modal|notice)"
    r"|gdpr[-_]?(?:banner|bar|consent|notice|popup|modal|message|notification|wall|overlay)"
    r"|qc-cmp|onetrust|cookiebot|cc-window|cli-cookie",
    re.IGNORECASE,
)
_COOKIE = re.compile(r"cookie", re.IGNORECASE)
_CHOICE = re.compile(
    r"\b(?:accept|agree|allow|reject|decline|got it|ok|okay|dismiss|manage|settings|preferences)\b",
    re.IGNORECASE,
)
#: Words one of which a banner's lower-cased class or id holds: a cheap filter before
#: :data:`_BANNER_NAME` (an XPath ``translate()`` over every element cost 19 ms a page).
_NAME_WORD_LIST = ("cookie", "consent", "gdpr", "qc-cmp", "onetrust", "cc-window")
_NAME_WORDS = re.compile("|".join(_NAME_WORD_LIST))
_CONTROLS = etree.XPath(
    ".//button|.//a|.//input|.//*[@role='button' or contains(@class, 'btn') or contains(@class, 'button')]"
)
#: A consent manager's own name: its banner needs no control left (a forum's buttons may be
#: gone before this runs), a choice in its text is enough.
_VENDOR = re.compile(r"qc-cmp|onetrust|cookiebot|cc-window|cli-cookie", re.IGNORECASE)
_NEVER = frozenset({"html", "body", "main", "article"})
_NAMES = itemgetter(1, 2, 6)  # an AttributeRow's class, id and data-testid


def consent_banners(
    root: etree._Element, attributes: PageAttributes | None = None
) -> list[etree._Element]:
    """The cookie consent banners under ``root`` (module docstring), outermost only, in
    document order; nothing is removed (pass them to
    :func:`~webresearch.extract.page_noise.remove_elements`). ``attributes``: ``root``'s
    attributes read once for several scans (:mod:`~webresearch.extract.scan_index`); read
    from the tree when ``None``."""
    found: list[etree._Element] = []
    chosen: set[etree._Element] = set()
    if attributes is None or not attributes.describes(root):
        attributes = read_attributes(root)
    # each row's class, id and data-testid, those it has (no name word spans two of them)
    names = "\n".join(filter(None, chain.from_iterable(map(_NAMES, attributes.rows))))
    lowered = names.lower()
    # no element named so (most pages): one search a word (str.find's fast scan; the
    # pattern's alternation tries each position in turn, 2.5x as long), not one per element
    if not any(word in lowered for word in _NAME_WORD_LIST):
        return []
    for el, klass, ident, _, _, _, testid in attributes.rows:
        name = f"{klass or ''} {ident or ''} {testid or ''}"
        if name == "  " or not _NAME_WORDS.search(name.lower()) or not _BANNER_NAME.search(name):
            continue
        if not isinstance(el.tag, str) or el.tag in _NEVER or el.find(".//h1") is not None:
            continue
        if any(a in chosen for a in el.iterancestors()):
            continue
        text = " ".join("".join(el.itertext()).split())
        if not _COOKIE.search(text):
            continue
        if not (_offers_choice(el) or (_VENDOR.search(name) and _CHOICE.search(text))):
            continue
        if len(text.split()) >= MAX_BANNER_WORDS:
            continue
        found.append(el)
        chosen.add(el)
    return found


def _offers_choice(banner: etree._Element) -> bool:
    """True when a control inside ``banner`` (button, link, input, ``role="button"``, a
    ``btn``/``button`` class) is
    labelled with a choice (:data:`_CHOICE`)."""
    for control in _CONTROLS(banner):
        label = control.get("value") or control.get("aria-label") or ""
        if _CHOICE.search(" ".join(control.itertext()) + " " + label):
            return True
    return False
