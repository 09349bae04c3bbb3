"""A page's own navigation, banner and footer: not its content. Pure functions over lxml.

Two passes:

* :func:`remove_page_chrome`, for the whole-page conversion and a listing's ``<main>``:
  navigation, page header and footer, sidebars and consent banners go;
* :func:`drop_kept_chrome`, for the main content trafilatura chose: when its pick is the
  page's body with the site's menu in it (a chart, a schedule or a catalogue laid out as
  one long page), the site's ``<nav>`` menus, ``role="banner"`` header, page footer and
  sidebar of links it kept go (see the function). Source: WCXB dev, where such chrome led
  trafilatura's pick on listings (a supplier catalogue's whole mega-menu, 0.70 → 1.0) and
  other types: 61 pages up, 5 down (at most −0.052: a breadcrumb the ground truth
  holds as the page's name); Zyte dev unchanged.

The page's heading may sit in that banner, beside the ``<main>`` trafilatura picked
(``<header><h1>Story</h1><nav>…</nav></header><main>…</main>``): :func:`banner_heading`
finds it and :func:`restore_heading` puts it back above the kept content.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from lxml import etree

from webresearch.extract.align import normalise, page_text_size
from webresearch.extract.assistive_text import ASSISTIVE_CLASS
from webresearch.extract.page_type import main_landmark
from webresearch.extract.tree import remove_keep_tail

__all__ = [
    "MAX_BANNER_HEADING_CHARS",
    "MAX_CHROME_SHARE",
    "MAX_KEPT_CHROME_SHARE",
    "MIN_SIDEBAR_LINK_SHARE",
    "banner_heading",
    "drop_kept_chrome",
    "remove_page_chrome",
    "restore_heading",
]

#: A navigation, header, footer or sidebar holding more than this share of the page's text
#: is kept by the whole-page conversion: it is where the content is.
MAX_CHROME_SHARE = 0.3
#: Kept chrome holding more than this share of the kept text stays: it is the content.
MAX_KEPT_CHROME_SHARE = 0.5
#: A banner ``<h1>`` longer than this (letters and digits) is not a heading.
MAX_BANNER_HEADING_CHARS = 200
#: A declaration that may hide a box or its text (any of them: the heading is then left as
#: the banner was, out; review r-14: a screen-reader-only ``<h1>`` became the page heading).
_HIDING_STYLE = re.compile(
    r"display|visibility|opacity|clip|position|indent|font-size|color|transform|"
    r"height|width|overflow|filter|scale",
    re.I,
)
_HIDING_CLASS = re.compile(r"hidden|hide|invisible|off-?screen|sr-|clip", re.I)
#: An ``<aside>`` outside the article is a sidebar when this share of its text is links.
MIN_SIDEBAR_LINK_SHARE = 0.5

_PAGE_CHROME_TAGS = ("nav", "header", "footer", "aside", "menu")
_PAGE_CHROME_ROLES = frozenset({"navigation", "banner", "contentinfo", "search", "menubar"})
_KEPT_CHROME_ROLES = frozenset({"navigation", "banner", "contentinfo", "menubar"})
_CONSENT = re.compile(r"cookie|consent|gdpr|newsletter-popup|modal-backdrop", re.I)


def _tag(el: etree._Element) -> str:
    return el.tag.lower() if isinstance(el.tag, str) else ""


def _in_content(el: etree._Element) -> bool:
    return any(_tag(a) in ("article", "main") for a in el.iterancestors())


def _in_page(el: etree._Element) -> bool:
    """True when ``el`` has links and all go to places on the page (``#care``): a menu of
    the page's own sections."""
    hrefs = [(a.get("href") or "").strip() for a in el.iter("a")]
    return bool(hrefs) and all(h.startswith("#") and len(h) > 1 for h in hrefs)


def remove_page_chrome(body: etree._Element) -> None:
    """Remove navigation, page header/footer, sidebars and consent banners, in place.

    A ``<header>`` or ``<footer>`` inside an ``<article>`` or ``<main>`` is part of the
    content and stays, and so does any of them holding more than :data:`MAX_CHROME_SHARE`
    of the page's text.
    """
    doomed: list[etree._Element] = []
    for el in body.iter():
        tag = _tag(el)
        if not tag:
            continue
        role = (el.get("role") or "").lower()
        if tag in _PAGE_CHROME_TAGS or role in _PAGE_CHROME_ROLES:
            if tag in ("header", "footer") and _in_content(el):
                continue
            doomed.append(el)
        elif (
            _CONSENT.search((el.get("id") or "") + " " + (el.get("class") or ""))
            and len(normalise("".join(el.itertext()))) < 2000
        ):
            doomed.append(el)
    page_chars = page_text_size(body)
    for el in doomed:
        parent = el.getparent()
        if parent is None:
            continue
        if page_text_size(el) > MAX_CHROME_SHARE * page_chars:
            continue  # this "chrome" holds the page's text (an article in an <aside>)
        remove_keep_tail(el)


def drop_kept_chrome(root: etree._Element) -> int:
    """Remove the site's menus, banner and footer from the pruned main content ``root``.

    Goes: a ``<nav>`` or ``role="navigation"``/``"menubar"`` element, a ``role="banner"``
    or ``"contentinfo"`` one, a ``<header>`` or ``<footer>`` outside any ``<article>``
    and ``<main>``, and an ``<aside>`` outside them whose text is at least
    :data:`MIN_SIDEBAR_LINK_SHARE` link text (a sidebar of links) — unless it holds only
    links to places on the page (a menu of its own sections) or more than
    :data:`MAX_KEPT_CHROME_SHARE` of the kept text (then it is the content). One holding an
    ``<h1>`` (the page's own heading) stays, but the chrome inside it goes (review: a
    ``<header role="banner"><h1>City Library</h1><nav>…</nav></header>`` kept its whole link
    bar beside the heading).

    Returns:
        the letters and digits removed.
    """
    kept = page_text_size(root)
    removed = 0
    pending = _outer_chrome(root)
    while pending:
        el = pending.pop()
        if el.getparent() is None or _in_page(el):
            continue
        if next(el.iter("h1"), None) is not None:
            pending.extend(_outer_chrome(el, el))  # the heading stays; its menus go
            continue
        size = page_text_size(el)
        if size > MAX_KEPT_CHROME_SHARE * kept:
            continue
        removed += size
        remove_keep_tail(el)
    return removed


def _outer_chrome(
    root: etree._Element, within: etree._Element | None = None
) -> list[etree._Element]:
    """The outermost chrome elements under ``root`` (:func:`drop_kept_chrome`'s list), in
    document order; ``within``: a chrome element holding the ``<h1>``, itself not listed."""
    doomed: list[etree._Element] = []
    walker = etree.iterwalk(root, events=("start",))
    for _, el in walker:
        tag = _tag(el)
        if not tag or el is within:
            continue
        role = (el.get("role") or "").lower()
        if tag in ("header", "footer") and role not in _KEPT_CHROME_ROLES and _in_content(el):
            continue
        if tag == "aside" and not _in_content(el) and _linked_share(el) >= MIN_SIDEBAR_LINK_SHARE:
            doomed.append(el)  # a sidebar of links ("Trending", "Related")
            walker.skip_subtree()
        elif tag in ("nav", "header", "footer") or role in _KEPT_CHROME_ROLES:
            doomed.append(el)  # outermost only: what is inside goes with it
            walker.skip_subtree()
    return doomed


def _linked_share(el: etree._Element) -> float:
    """The share of ``el``'s letters and digits that are link text (1.0 when it has none)."""
    total = len(normalise("".join(el.itertext())))
    linked = sum(len(normalise("".join(a.itertext()))) for a in el.iter("a"))
    return linked / total if total else 1.0


def banner_heading(
    body: etree._Element, url: str, away: frozenset[str] = frozenset()
) -> etree._Element | None:
    """The page's heading when it sits in the site's banner beside its ``<main>``: a copy
    of the ``<h1>``, without its tail; ``None`` when there is none such.

    The ``<h1>`` must be the page's only one, inside a ``<header>`` or ``role="banner"``
    element outside any ``<article>`` and ``<main>`` that comes before the page's
    ``<main>`` (or ``role="main"``), hold no link (a logo linking home) and no more than
    :data:`MAX_BANNER_HEADING_CHARS` letters and digits; and it must not be the site's
    name: ``og:site_name``, what the page's ``<title>`` holds as its lesser part ("Lakeside
    Gazette" in "Ferry timetable changes - Lakeside Gazette": no more than the rest), or
    what the page's address ``url`` spells (``lakesidegazette.example``). Nor may it, an element
    inside it or one around it up to the banner look hidden in any way (:func:`_may_be_hidden`;
    ``away``: the classes the page's ``<style>`` moves off the screen): a hidden ``<h1>``
    written first would be hidden text the note does not count.
    Call before the page is pruned (the banner goes with it).
    """
    h1s = list(body.iter("h1"))  # the cheap tests first: this runs on every page
    if len(h1s) != 1:
        return None
    h1 = h1s[0]
    banner = next(
        (
            a
            for a in h1.iterancestors()
            if _tag(a) == "header" or (a.get("role") or "").lower() == "banner"
        ),
        None,
    )
    if banner is None or _in_content(banner) or h1.find(".//a") is not None:
        return None
    around = [h1, *h1.iterdescendants(), *_up_to(h1, banner)]
    if any(_may_be_hidden(el, away) for el in around):
        return None
    main = main_landmark(body)
    if main is None or any(a is banner for a in main.iterancestors()):
        return None  # no <main>, or a banner wrapping it (not beside it)
    for el in body.iter():  # the banner must come first
        if el is banner:
            break
        if el is main:
            return None
    said = normalise("".join(h1.itertext()))
    if not said or len(said) > MAX_BANNER_HEADING_CHARS:
        return None
    root = body.getroottree()
    site = normalise(" ".join(m.get("content") or "" for m in root.iter("meta") if _site(m)))
    if said == site:
        return None
    wanted = normalise(root.findtext(".//title") or "")
    if said != wanted and said in wanted and len(said) <= len(wanted) - len(said):
        return None  # the site's name, as the title says it beside the page's
    if said in normalise(urlsplit(url).hostname or ""):
        return None  # the site's name, as its address says it (lakesidegazette.example)
    copy = etree.Element("h1")
    copy.text = " ".join("".join(h1.itertext()).split())
    return copy


def _up_to(el: etree._Element, top: etree._Element) -> list[etree._Element]:
    """The ancestors of ``el`` up to and including ``top``."""
    found = []
    for a in el.iterancestors():
        found.append(a)
        if a is top:
            break
    return found


def _may_be_hidden(el: etree._Element, away: frozenset[str]) -> bool:
    """Whether ``el`` may be hidden: ``hidden``/``aria-hidden``, a style declaration that
    can hide (:data:`_HIDING_STYLE`), a screen-reader-only class, a class named for hiding or
    one of ``away`` (the page's off-screen classes). Errs towards hidden."""
    if el.get("hidden") is not None or (el.get("aria-hidden") or "").lower() == "true":
        return True
    if _HIDING_STYLE.search(el.get("style") or ""):
        return True
    classes = (el.get("class") or "").split()
    return any(
        c in away or ASSISTIVE_CLASS.fullmatch(c) or _HIDING_CLASS.search(c) for c in classes
    )


def _site(meta: etree._Element) -> bool:
    return (meta.get("property") or meta.get("name") or "").lower() == "og:site_name"


def restore_heading(root: etree._Element, heading: etree._Element) -> bool:
    """Put ``heading`` (from :func:`banner_heading`) first in the kept content ``root``
    unless it already holds an ``<h1>``; whether it was put there."""
    if next(root.iter("h1"), None) is not None:
        return False
    heading.tail = root.text
    root.text = None
    root.insert(0, heading)
    return True
