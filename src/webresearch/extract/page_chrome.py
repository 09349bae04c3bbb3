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

The page's heading may sit in that banner, before the content trafilatura picked
(``<header><h1>Story</h1><nav>…</nav></header><main>…</main>``, or an ``<article>`` or
plain blocks in place of ``<main>``): :func:`banner_heading` finds it — the page's own
title, never the site's name or logo — and :func:`restore_heading` puts it back above the
kept content.
"""

from __future__ import annotations

import re
from urllib.parse import urljoin, urlsplit

from lxml import etree

from webresearch.extract.align import normalise, page_text_size
from webresearch.extract.assistive_text import ASSISTIVE_CLASS
from webresearch.extract.page_type import MIN_LANDMARK_CHARS, main_landmark
from webresearch.extract.title import names_site
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
#: A class, id or image address naming a site's logo, on the ``<h1>``, in it or around it
#: below the banner: "logo", "site-title", "site-name", "navbar-brand", "site-branding" (a
#: word ending in "brand": not "product-brand-and-title").
_LOGO = re.compile(r"logo|site[-_]?(?:title|name)|(?:^|[-_])brand(?:ing)?$", re.I)
_NOT_TEXT = frozenset({"script", "style", "noscript", "template"})
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
    of the page's text — unless it lies beside a ``<main>`` landmark of at least
    :data:`~webresearch.extract.page_type.MIN_LANDMARK_CHARS` letters and digits
    (:func:`_beside`). WCXB dev: one collection page's whole-page conversion kept a footer of
    link columns and hidden dialogs holding 81% of the page's text beside its ``<main>``
    (0.49 → 1.0); no other page changed (both halves, Zyte).
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
    landmark = main_landmark(body)
    for el in doomed:
        parent = el.getparent()
        if parent is None:
            continue
        if page_text_size(el) > MAX_CHROME_SHARE * page_chars and not _beside(el, landmark):
            continue  # this "chrome" holds the page's text (an article in an <aside>)
        remove_keep_tail(el)


def _beside(el: etree._Element, landmark: etree._Element | None) -> bool:
    """True when ``el`` lies outside the page's ``<main>`` ``landmark`` (not in it, not
    around it) and that landmark holds at least :data:`MIN_LANDMARK_CHARS` letters and
    digits: the page says where its content is, and a footer longer than it is still the
    footer (its hidden dialogs and link columns)."""
    if landmark is None or landmark is el:
        return False
    if any(a is el for a in landmark.iterancestors()):
        return False
    if any(a is landmark for a in el.iterancestors()):
        return False
    return page_text_size(landmark) >= MIN_LANDMARK_CHARS


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
    kept = -1  # the kept text, counted before anything is removed (not at all without chrome)
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
        if kept < 0:  # nothing removed yet: the whole kept text
            kept = page_text_size(root)
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
    body: etree._Element, url: str, away: frozenset[str] = frozenset(), title: str = ""
) -> etree._Element | None:
    """The page's heading when it sits in the site's banner before its content: a copy of
    the ``<h1>``'s text, without its tail or links; ``None`` when there is none such.

    The ``<h1>`` must be the page's only one, inside a ``<header>`` or ``role="banner"``
    element outside any ``<article>`` and ``<main>`` that comes before the page's content
    (:func:`_leads_content`), and hold no more than :data:`MAX_BANNER_HEADING_CHARS`
    letters and digits. A link in it or around it must go to the page itself (the story's
    permalink: review, ``<h1><a href="/this-page">`` was dropped): one going elsewhere, home
    above all, makes it the site's logo, and so does a class or an image in or around it
    naming one (:data:`_LOGO`). Nor may it be the site's name by what the page says of it
    (:func:`~webresearch.extract.title.names_site`, with ``title`` the page's own title:
    review, "The Lakeside Gazette" headed the page "Ferry fares rise | The Lakeside
    Gazette"). Nor may it, an element inside it or one around it up to the banner look
    hidden in any way (:func:`_may_be_hidden`; ``away``: the classes the page's ``<style>``
    moves off the screen): a hidden ``<h1>`` written first would be hidden text the note
    does not count. Call before the page is pruned (the banner goes with it).
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
    if banner is None or _in_content(banner):
        return None
    inside = [h1, *h1.iterdescendants()]
    above = _up_to(h1, banner)
    links = [el for el in (*inside, *above) if _tag(el) == "a"]
    if any(not _to_page(a.get("href") or "", url) for a in links):
        return None  # a logo linking home, a section's name linking to it
    if any(_LOGO.search(n) for el in (*inside, *above[:-1]) for n in _naming(el)):
        return None  # the banner itself may be the "masthead"; what is in it names a logo
    if any(_may_be_hidden(el, away) for el in (*inside, *above)):
        return None
    said = normalise("".join(h1.itertext()))
    if not said or len(said) > MAX_BANNER_HEADING_CHARS or not _leads_content(body, banner):
        return None
    text = " ".join("".join(h1.itertext()).split())
    if names_site(text, body.getroottree().getroot(), url, title):
        return None
    copy = etree.Element("h1")
    copy.text = text
    return copy


def _to_page(href: str, url: str) -> bool:
    """Whether ``href`` goes to the page at ``url`` itself (its address or path; the
    fragment aside, a query only if the page's own), not to the site's root."""
    href = href.strip()
    if not href or href.startswith("#"):
        return False
    page = urlsplit(url)
    target = urlsplit(urljoin(url, href))
    path = target.path.rstrip("/")
    return (
        bool(path)
        and path == page.path.rstrip("/")
        and target.netloc.lower().removeprefix("www.") == page.netloc.lower().removeprefix("www.")
        and target.query in ("", page.query)
    )


def _naming(el: etree._Element) -> list[str]:
    """What names ``el``: its classes and id, and an image's address and text."""
    names = [*(el.get("class") or "").split(), el.get("id") or ""]
    if _tag(el) == "img":
        names += [el.get("src") or "", el.get("alt") or ""]
    return names


def _leads_content(body: etree._Element, banner: etree._Element) -> bool:
    """Whether ``banner`` comes before the page's content, beside it: before the page's
    ``<main>`` (``role="main"``), else its first ``<article>`` outside the banner, and not
    around it; on a page with neither, before most of the page's text, holding less of it
    than follows (review: the same banner was left out on a page without ``<main>``)."""
    content = main_landmark(body)
    if content is None:
        content = next(
            (a for a in body.iter("article") if not any(b is banner for b in a.iterancestors())),
            None,
        )
    if content is not None:
        if any(a is banner for a in content.iterancestors()):
            return False  # a banner wrapping it (not beside it)
        for el in body.iter():  # the banner must come first
            if el is banner:
                return True
            if el is content:
                return False
        return False
    before = _text_before(body, banner)
    inside = page_text_size(banner)
    after = page_text_size(body) - before - inside
    return after > before and after > inside


def _text_before(body: etree._Element, el: etree._Element) -> int:
    """Letters and digits of the page's text before ``el`` (scripts and styles aside)."""
    ancestors = set(el.iterancestors())
    size = 0
    walker = etree.iterwalk(body, events=("start",))
    for _, node in walker:
        if node is el:
            break
        if node not in ancestors:
            size += len(normalise(node.tail or ""))
        if _tag(node) in _NOT_TEXT:
            walker.skip_subtree()
        elif _tag(node):
            size += len(normalise(node.text or ""))
    return size


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


def restore_heading(root: etree._Element, heading: etree._Element) -> bool:
    """Put ``heading`` (from :func:`banner_heading`) first in the kept content ``root``
    unless it already holds an ``<h1>``; whether it was put there."""
    if next(root.iter("h1"), None) is not None:
        return False
    heading.tail = root.text
    root.text = None
    root.insert(0, heading)
    return True
