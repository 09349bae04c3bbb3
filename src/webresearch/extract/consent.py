"""Cookie consent banners: never a page's content. Pure functions over an lxml tree.

A consent banner ("We use cookies to … By clicking “Accept” you agree …", a consent
manager's "We value your privacy" dialog) sits in the page's markup, often inside or next to
the content column, and trafilatura or the second opinion keeps it as a paragraph.
:func:`consent_banners` finds the outermost elements that

* carry a consent banner's name in their class or id (:data:`_BANNER_NAME`: ``cookie-banner``,
  ``cookie-bar``, ``cookie-consent``, ``cookiepreferences_popup``, ``consent-banner``, a
  ``gdpr`` banner, the consent managers Quantcast ``qc-cmp``, OneTrust, Cookiebot, Cookie
  Consent's ``cc-window``, CookieYes' ``cli-cookie``);
* mention cookies and offer a choice (accept, agree, allow, reject, decline, manage,
  settings, preferences, "got it", "OK");
* hold fewer than :data:`MAX_BANNER_WORDS` words (a banner, not a page section) and no
  ``<h1>`` (a page's own title is never in a banner: a shop's ``cookie-consent-wrapper``
  may wrap the whole page).

A page's section *about* cookies (``<section id="cookies">`` of a web framework's manual)
does not carry a banner's name and stays. Source of the rule: on the WCXB dev pages, the
elements so named hold about 500 words of our output and none of the ground truth (7 pages:
article, forum, product, collection, service).
"""

from __future__ import annotations

import re

from lxml import etree

__all__ = ["MAX_BANNER_WORDS", "consent_banners"]

#: A consent banner has fewer words than this.
MAX_BANNER_WORDS = 400

_BANNER_NAME = re.compile(
    r"cookie[-_]?(?:banner|bar|consent|notice|popup|law|preferences|message|notification|wall)"
    r"|consent[-_]?(?:banner|bar|manager|popup|modal|notice)"
    r"|gdpr|qc-cmp|onetrust|cookiebot|cc-window|cli-cookie",
    re.IGNORECASE,
)
_COOKIE = re.compile(r"cookie", re.IGNORECASE)
_CHOICE = re.compile(
    r"\b(?:accept|agree|allow|reject|decline|got it|ok|okay|dismiss|manage|settings|preferences)\b",
    re.IGNORECASE,
)
_CANDIDATES = etree.XPath(
    ".//*[contains(translate(@class, 'COKIEGDPRNST', 'cokiegdprnst'), 'cookie')"
    " or contains(translate(@id, 'COKIEGDPRNST', 'cokiegdprnst'), 'cookie')"
    " or contains(translate(@class, 'COKIEGDPRNST', 'cokiegdprnst'), 'consent')"
    " or contains(translate(@id, 'COKIEGDPRNST', 'cokiegdprnst'), 'consent')"
    " or contains(translate(@class, 'COKIEGDPRNST', 'cokiegdprnst'), 'gdpr')"
    " or contains(translate(@id, 'COKIEGDPRNST', 'cokiegdprnst'), 'gdpr')"
    " or contains(@class, 'qc-cmp') or contains(@id, 'qc-cmp')"
    " or contains(translate(@class, 'OT', 'ot'), 'onetrust')"
    " or contains(translate(@id, 'OT', 'ot'), 'onetrust')"
    " or contains(@class, 'cc-window')]"
)
_NEVER = frozenset({"html", "body", "main", "article"})


def consent_banners(root: etree._Element) -> list[etree._Element]:
    """The cookie consent banners under ``root`` (module docstring), outermost only, in
    document order; nothing is removed (pass them to
    :func:`~webresearch.extract.page_noise.remove_elements`)."""
    found: list[etree._Element] = []
    chosen: set[etree._Element] = set()
    for el in _CANDIDATES(root):
        if not isinstance(el.tag, str) or el.tag in _NEVER or el.find(".//h1") is not None:
            continue
        if any(a in chosen for a in el.iterancestors()):
            continue
        name = f"{el.get('class') or ''} {el.get('id') or ''}"
        if not _BANNER_NAME.search(name):
            continue
        text = " ".join("".join(el.itertext()).split())
        if not _COOKIE.search(text) or not _CHOICE.search(text):
            continue
        if len(text.split()) >= MAX_BANNER_WORDS:
            continue
        found.append(el)
        chosen.add(el)
    return found
