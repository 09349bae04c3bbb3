"""The page's own table of contents, left out of the content. Pure functions.

A list or navigation block (``<ul>``, ``<ol>``, ``<nav>``) of at least
:data:`MIN_TOC_LINKS` links, almost all (:data:`MIN_TOC_ANCHOR_SHARE`) to distinct anchors
of this page that exist, and little text besides its links, repeats the headings that follow
(issue 13: "a page's own table of contents dropped when its headings follow"). It goes
with its container when that holds only a "Contents" title besides (:data:`TOC_HEADING`).

An anchor of this page is ``href="#section"`` with an element ``id="section"`` (or an
``<a name="section">``, the older way of marking a target that HTML still follows) — or, on a
page declaring an article (the caller passes its address then), the page's own address
with that fragment: table-of-contents plugins (WordPress's "Page scroll
to id", a CMS writing absolute links) print ``href="https://site/post/#section"``, and the
page may have been fetched with a query the links do not carry (``?srsltid=…``, a
campaign's tags). Such a link counts when it names the page's host and path (the query
aside) and a fragment that is an ``id`` on the page: a link to another page sharing this
path is not made. WCXB dev pages holding such a list (main cefb306): 11 article pages, 4
documentation, 2 service, 2 forum; with "#" links alone they came out as lists of links
above the article ("1. [Tiny House Cooking is Tricky](https://…/#cooking)"). Only on
declared articles: a service page's list of its offers, each linking to its section, is
the page's overview (WCXB dev service 0025: the ground truth keeps it).

The words of a list are counted with its items apart: joined without a space, an API
reference's outline ("`source` string", "`destination` string", each argument linking to
its own section) read as link text alone and went (WCXB dev documentation 0686 −0.010 in a
first version). WCXB dev (webresearch alone, against main cefb306): article 4563 +0.017 (its
"Pros / Cons" list of links above the article), product 0612 +0.002; the other pages, types
and Zyte dev unchanged.

A block with no list (``<div>``) counts too when its bare links sit under its own title
that says "Table of contents" and nothing else (a child element matching
:data:`TOC_HEADING`): utility-class sites print ``<p>Table of contents</p><a href="#why">01
Why…</a>…`` beside the byline. WCXB dev (against main d0fb484 with block_ends.py): article
4416 +0.007 (half A), no other page of either half moved; Zyte dev unchanged. The title's
words are not counted as the entries' text (review n-18: one-word entries under "Table of
contents" fell below :data:`MIN_TOC_LINK_WORDS`).

A list whose items are themselves the targets of the page's links is its notes, each item
linking back to its mark in the text: it stays (review r-15).

A link whose fragment names no element counts too when its text is the text of a heading
of the page that has no ``id``: table-of-contents plugins that number the headings from a
script (Kadence's "Table of Contents" block, a Next.js site's "Jump to" list) serve
``href="#1-professional-planners"`` links and headings without ``id``s, the script adding
them on load. A heading that has an ``id`` other than the fragment is not the link's
target (the fragments-naming-nothing case above stays). With the ``<a name>`` targets,
WCXB dev (webresearch alone, against main 096fedb): article 0319 +0.024 (its "In this
article" list came out above the article), 1405 −0.002 and 1821 −0.001 (the ground truth
keeps those lists' words: the issue asks for the list to go when its headings follow);
the other types and Zyte dev unchanged. Only headings outside the list count: a team
list whose every link wraps its member's name as a heading (``<a href="#member-0"><h3>Jane
Doe</h3></a>``, each opening a biography by script) would otherwise match itself (review
r16).
"""

from __future__ import annotations

import re
from urllib.parse import urljoin, urlsplit

from lxml import etree

from webresearch.extract.align import normalise
from webresearch.extract.tree import remove_keep_tail

__all__ = ["MIN_TOC_ANCHOR_SHARE", "MIN_TOC_LINKS", "TOC_HEADING", "drop_page_toc"]

#: A table of contents has at least this many in-page links …
MIN_TOC_LINKS = 3
#: … at least this share of its links point at anchors of the page, and this share of
#: those at distinct ones (a table of contents names each section once; a documentation
#: page's list of arguments all linking to one "#arguments" section is content) …
MIN_TOC_ANCHOR_SHARE = 0.8
#: … and at least this share of its words are link text.
MIN_TOC_LINK_WORDS = 0.7
#: The title a table of contents' container may hold besides the list.
TOC_HEADING = re.compile(
    r"\W*(?:table of contents|contents|on this page|in this (?:article|page|section)|"
    r"jump to|page contents|sections?)\W*",
    re.I,
)


def drop_page_toc(doc: etree._Element, url: str = "", base: str = "") -> int:
    """Remove the page's own tables of contents (module docstring) in place.

    Args:
        doc: the parsed page.
        url: the page's address (links to it with a fragment are in-page links); empty:
            only ``#section`` links are.
        base: what relative links resolve against (``<base href>``); empty: ``url``.

    Returns:
        how many were removed.
    """
    links = [a for a in doc.iter("a") if "#" in (a.get("href") or "")]
    if sum(1 for a in links if next(a.iterancestors("body"), None) is not None) < MIN_TOC_LINKS:
        return 0  # fewer such links in the body than a table of contents has
    lists = _holding_fragment_links(doc, links)
    if not lists:
        return 0
    # what a fragment can name: an element's id, or an old-style <a name> (HTML's
    # "indicated part of the document")
    ids = {value for value in doc.xpath("//body//@id | //body//a/@name")}
    page = _page_key(url) if url else None
    unnamed = _unnamed_headings(doc)
    removed = 0
    for el in lists:
        if el.getparent() is None or not _is_toc(el, ids, base or url, page, unnamed):
            continue
        remove_keep_tail(_toc_block(el))
        removed += 1
    return removed


def _holding_fragment_links(
    doc: etree._Element, links: list[etree._Element]
) -> list[etree._Element]:
    """The lists and navigation blocks of ``doc`` (and the blocks whose bare links sit under
    their own "Table of contents" title, :func:`_titled_contents`) holding at least :data:`MIN_TOC_LINKS` of
    ``links`` (its links with a fragment, ``#``), in document order: only those can be a
    table of contents (its anchors, at least :data:`MIN_TOC_ANCHOR_SHARE` of at least
    :data:`MIN_TOC_LINKS` links, each have one). Counted from the links up (a page has few
    such links), instead of reading the links of every list."""
    counts: dict[etree._Element, int] = {}
    titled: dict[etree._Element, bool] = {}  # a block of bare links under its own title
    for link in links:
        for up in link.iterancestors("ul", "ol", "nav"):
            counts[up] = counts.get(up, 0) + 1
        parent = link.getparent()
        if parent is not None and parent.tag not in ("ul", "ol", "nav", "li"):
            if parent not in titled:
                titled[parent] = _titled_contents(parent)
            if titled[parent]:
                counts[parent] = counts.get(parent, 0) + 1
    held = {el for el, n in counts.items() if n >= MIN_TOC_LINKS}
    if not held:
        return []
    tags = ("ul", "ol", "nav") if all(el.tag in ("ul", "ol", "nav") for el in held) else ()
    return [el for el in doc.iter(*tags) if el in held]


def _titled_contents(block: etree._Element) -> bool:
    """True when one of ``block``'s children, not a link, says "Table of contents" (or
    another :data:`TOC_HEADING`) and nothing else: the block's bare links are its entries
    (``<div><p>Table of contents</p><a href="#why">01 Why…</a>…</div>``, no list)."""
    for child in block:
        if isinstance(child.tag, str) and child.tag != "a":
            text = " ".join("".join(child.itertext()).split())
            if text and TOC_HEADING.fullmatch(text):
                return True
    return False


def _page_key(url: str) -> tuple[str, str]:
    """A page's host and path, without a trailing slash: what names it beside its query."""
    parts = urlsplit(url)
    return parts.netloc.lower(), parts.path.rstrip("/")


_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")


def _unnamed_headings(doc: etree._Element) -> tuple[tuple[etree._Element, str], ...]:
    """The page's headings that have no ``id``, each with its normalised text (module
    docstring)."""
    pairs = ((h, normalise("".join(h.itertext()))) for h in doc.iter(*_HEADINGS) if not h.get("id"))
    return tuple((h, text) for h, text in pairs if text)


def _anchor(
    link: etree._Element,
    ids: set[str],
    base: str,
    page: tuple[str, str] | None,
    unnamed: frozenset[str] = frozenset(),
) -> bool:
    """True when ``link``'s address (resolved against ``base``) points at an element of
    this page, or at a heading whose ``id`` a script adds (module docstring)."""
    href = (link.get("href") or "").strip()
    if "#" not in href:
        return False
    target, _, fragment = href.partition("#")
    if fragment not in ids and not (fragment and normalise("".join(link.itertext())) in unnamed):
        return False
    if not target:
        return True
    if page is None:
        return False
    try:
        return _page_key(urljoin(base, target)) == page
    except ValueError:  # a malformed address ("http://[bad")
        return False


def _is_toc(
    el: etree._Element,
    ids: set[str],
    base: str,
    page: tuple[str, str] | None,
    unnamed: tuple[tuple[etree._Element, str], ...] = (),
) -> bool:
    links = list(el.iter("a"))
    if len(links) < MIN_TOC_LINKS:
        return False
    # a heading inside the list (a team list's <a href="#member-0"><h3>Name</h3></a>) is
    # the item itself, not the section a contents entry points at (review r16)
    inside = set(el.iter(*_HEADINGS))
    outside = frozenset(text for h, text in unnamed if h not in inside)
    anchors = [
        (a.get("href") or "").strip().partition("#")[2]
        for a in links
        if _anchor(a, ids, base, page, outside)
    ]
    if len(anchors) < MIN_TOC_ANCHOR_SHARE * len(links):
        return False
    if len(set(anchors)) < MIN_TOC_ANCHOR_SHARE * len(anchors):
        return False  # each item links to the same few places: a list of terms, not sections
    # the words of adjacent items apart ("source string" + "destination string" is not
    # "source stringdestination string")
    # a block's own "Table of contents" title is no entry (review n-18: three one-word
    # entries under a three-word title were taken for prose)
    text = len(" ".join(el.itertext()).split()) - _title_words(el)
    link_words = sum(len(" ".join(a.itertext()).split()) for a in links)
    return link_words >= MIN_TOC_LINK_WORDS * text and not _is_notes(el)


def _title_words(block: etree._Element) -> int:
    """The words of ``block``'s children, not links, that say "Table of contents" (or
    another :data:`TOC_HEADING`) and nothing else: its title (:func:`_titled_contents`)."""
    words = 0
    for child in block:
        if isinstance(child.tag, str) and child.tag != "a":
            text = " ".join("".join(child.itertext()).split())
            if text and TOC_HEADING.fullmatch(text):
                words += len(text.split())
    return words


def _is_notes(el: etree._Element) -> bool:
    """True when most of the list's items are themselves the targets of in-page links: a
    list of footnotes whose items link back to their marks in the text, not a table of
    contents (whose items are never linked to; review r-15)."""
    items = [li for li in el.iter("li")]
    if not items:
        return False
    targets = {
        href[1:]
        for href in el.getroottree().xpath("//body//a/@href")
        if isinstance(href, str) and href.startswith("#")
    }
    noted = sum(1 for li in items if any(n.get("id") in targets for n in li.iter()))
    return noted >= MIN_TOC_ANCHOR_SHARE * len(items)


def _toc_block(el: etree._Element) -> etree._Element:
    """The list itself, or its container when that holds only a "Contents" title besides."""
    parent = el.getparent()
    if parent is None or parent.tag in ("body", "main", "article"):
        return el
    rest = "".join(parent.itertext()).replace("".join(el.itertext()), "")
    if not rest.strip() or TOC_HEADING.fullmatch(rest.strip()):
        return parent
    return el
