"""Cookie and consent banners: never a page's content. Pure functions over lxml trees.

A page asks for consent to its cookies in a banner or dialog its scripts show over the
content ("We use cookies and other technologies…", a consent manager's list of partners
and purposes). Such a banner is not hidden in the markup, and an extractor — trafilatura,
or the second opinion filling its gaps — may take it for text: on a WCXB dev product page
it was 125 of 185 words out, on a forum thread 1,500 words of partners' purposes.

A banner (:func:`consent_banners`) is an element whose class or id names one — a consent,
cookie or GDPR word joined to a banner word (``cookie-banner``, ``gdpr-banner--slideup``,
``cookieConsent``, ``cookie_notification``) or a consent manager's own name (OneTrust,
Cookiebot, Complianz, TrustArc, Didomi, Quantcast, Sourcepoint) — whose text says
"cookie" or "consent", holds no ``<h1>`` (the page's own title is never in one) and less
than :data:`MAX_BANNER_SHARE` of the page's letters and digits. A page *about* cookies
(a recipe's ``cookie-card``) is not named so: the banner word is needed.

Measured on the WCXB development part (756 pages): 5 such blocks in the outputs before
(about 1,750 words, none of them in the ground truth); one more candidate, a shop's
``cmp-container`` (a "component" prefix) holding the page's ``<h1>``, is not one. They are
removed with the hidden blocks, after the main content is chosen (removed before, the
choice changed on two product pages: −0.13, −0.06). WCXB dev (webresearch alone): product
0.6652 → 0.6665 (an eBay item 0.22 → 0.29), collection +0.0002, article +0.00001, forum
+0.0001; one service page −0.005 (its banner's common words had matched the truth).
"""

from __future__ import annotations

import re

from lxml import etree

from webresearch.extract.align import page_text_size

__all__ = ["MAX_BANNER_SHARE", "consent_banners"]

#: A banner holds less than this share of the page's letters and digits.
MAX_BANNER_SHARE = 0.5

_BANNER_NAME = re.compile(
    r"(?:cookies?|consent|gdpr|privacy)[-_]?(?:banner|notice|consent|bar|popup|modal|dialog|"
    r"law|overlay|wall|message|alert|prompt|container|wrapper|info|sdk|notification|box)"
    r"(?:[-_]+[\w-]*)?|"
    r"onetrust[\w-]*|cybotcookiebot\w*|cookie-?law[\w-]*|cmplz[\w-]*|cc[-_](?:window|banner)|"
    r"truste[-_][\w-]*|didomi[\w-]*|qc-cmp\w*|sp_message\w*",
    re.I,
)
_SAYS_CONSENT = re.compile(r"cookie|consent", re.I)


def consent_banners(root: etree._Element) -> list[etree._Element]:
    """The cookie and consent banners under ``root`` (module docstring), outermost first.

    Returns:
        the elements to remove; none is an ancestor of another.
    """
    found: list[etree._Element] = []
    total = 0
    for el in root.iter():
        if not isinstance(el.tag, str) or el.tag in ("html", "body"):
            continue
        names = [*(el.get("class") or "").split(), el.get("id") or ""]
        if not any(name and _BANNER_NAME.fullmatch(name) for name in names):
            continue
        if any(a in found for a in el.iterancestors()):
            continue
        if el.find(".//h1") is not None or not _SAYS_CONSENT.search(" ".join(el.itertext())):
            continue
        total = total or page_text_size(root)
        if page_text_size(el) >= MAX_BANNER_SHARE * total:
            continue
        found.append(el)
    return found
