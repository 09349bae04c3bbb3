"""The page's own title, without the site's name. Pure functions.

``<title>`` usually carries the site's name ("Story headline | Site", "Site - Story"). The
page's own title is chosen by agreement of ``<title>`` with ``og:title`` (or
``twitter:title``, the publisher's statement of the page title without the site):

1. the part of ``<title>`` (split at `` | ``, `` - ``, `` – ``, `` — ``, `` :: ``, `` · ``,
   `` » ``) that ``og:title`` also says; else the part the page's own heading says — its
   first ``<h1>`` outside the page header, navigation and links, or its JSON-LD
   ``headline`` or the ``name`` of what it declares (a product, a job, an event; not the
   site's organisation) — provided that part is at least half as long as what it drops: a
   site's name is rarely twice as long as the page's ("Harvest festival returns - Valley
   News" under the heading "Harvest festival returns"), and a logo set as ``<h1>`` must
   not win; a dash-separated tail is cut only when the page's body names it too (a logo's
   alt text, a footer): otherwise it may be a subtitle ("Grüße aus Köln — Übersicht");
   the heading never overrides an ``og:title`` (they disagree: nothing is cut);
2. else ``<title>`` without the parts naming the site (``og:site_name``, or the host name);
3. else ``<title>`` as it is (a subtitle such as "Köln — Übersicht" is part of it), else
   ``og:title``, else the first ``<h1>``, else the heading of the highest level the page
   uses when it is the only one of that level: several ``<h2>``s side by side are a
   listing's items or an article's sections, none of them names the page (a shop's grid
   without ``<title>`` and ``<h1>`` was titled by its first card's name, and that card's
   heading then dropped from the content as a repeat of the title: review, session 15);
   a heading over readers' comments, replies or related posts ("Comments", "3 Replies",
   "Related posts": :data:`~webresearch.extract.closing_sections.COMMENTS_HEADING`,
   :data:`~webresearch.extract.article_extras.TEASER_HEADING`) names a section after the
   page's content, never the page (review r-15 L7: a page without ``<title>`` and ``<h1>``
   was titled "Comments" by its trailing ``<h2>``).

A page with none of these is named as a browser's tab names it: by the last segment of its
address, else its host (:func:`url_title`). Other documents (plain text, JSON) are not
named so: they have no title (``extract.dispatch.Converted.title``).

All texts are whitespace-collapsed.
"""

from __future__ import annotations

import json
import re
from urllib.parse import unquote, urlsplit

from lxml import etree

from webresearch.extract.align import normalise
from webresearch.extract.article_extras import TEASER_HEADING
from webresearch.extract.closing_sections import COMMENTS_HEADING

__all__ = ["document_title", "names_site", "strip_site_name", "url_title"]

_WS = re.compile(r"\s+")
_HEADINGS = ("h2", "h3", "h4", "h5", "h6")
#: Where a site's logo or menu sits: an ``<h1>`` there is not the page's heading.
_CHROME = frozenset({"header", "nav", "footer", "a", "aside"})
_CHROME_ROLES = frozenset({"banner", "navigation", "contentinfo"})
#: JSON-LD types naming the site or a person, not the page.
_SITE_TYPES = frozenset(
    {"organization", "website", "breadcrumblist", "person", "brand", "corporation", "webpage"}
)
_SEPARATOR = re.compile(r"\s+(?:\||-|–|—|::|·|»|/)\s+|\s*\|\s*")
_LEADING_THE = re.compile(r"^\s*the\s+", re.I)
#: Replies under a post ("Replies", "3 replies", "No replies", "Replies (4)"), beside
#: COMMENTS_HEADING; not the word "Reply" alone, nor "No Reply" (a letters page, a film).
_REPLIES = re.compile(
    r"\W*(?:(?:\d+|one)\s+repl(?:y|ies)|(?:no\s+)?replies)(?:\s*\(\d+\))?\W*", re.I
)
#: A COMMENTS_HEADING that may name a page: the word alone ("Comment", an opinion section).
_ONE_COMMENT = re.compile(r"\W*(?:no\s+)?comment\W*", re.I)


def document_title(doc: etree._Element, url: str = "") -> str:
    """The page's own title (module docstring); empty when the page has none.

    Args:
        doc: the parsed document (``<html>``).
        url: the page URL; its host name helps recognise the site's name.
    """
    title = _title_element(doc)
    og_title = _meta(doc, ("og:title", "twitter:title"))
    if not title:
        h1 = (_collapse("".join(h.itertext())) for h in doc.iter("h1"))
        return og_title or next((t for t in h1 if t), "") or _lone_top_heading(doc)
    site = _meta(doc, ("og:site_name", "application-name"))
    host = urlsplit(url).hostname or ""
    if og_title:  # the publisher's statement; a heading never overrides it
        return strip_site_name(title, (og_title,), site, host)
    return _by_heading(title, _page_headings(doc), doc) or strip_site_name(title, (), site, host)


def _lone_top_heading(doc: etree._Element) -> str:
    """The text of the page's only non-empty heading of the highest level it uses
    (``<h2>``–``<h6>``); empty when that level has several (module docstring, rule 3)."""
    for level in _HEADINGS:
        texts = [t for h in doc.iter(level) if (t := _collapse("".join(h.itertext())))]
        if texts:
            return texts[0] if len(texts) == 1 and not _closing_heading(texts[0]) else ""
    return ""


def _closing_heading(text: str) -> bool:
    """Whether ``text`` heads readers' comments, replies or related posts (rule 3): their
    plural or section forms ("Comments", "3 Comments", "Replies", "Leave a reply"), not a
    word that may name a page ("Reply", "No Reply", "Comment")."""
    if _ONE_COMMENT.fullmatch(text):
        return False
    return any(p.fullmatch(text) for p in (COMMENTS_HEADING, _REPLIES, TEASER_HEADING))


def _by_heading(title: str, headings: list[str], doc: etree._Element) -> str:
    """The part of ``title`` one of ``headings`` says, at least half as long as the parts
    it drops, and dropping a dash-separated tail only when the page names it elsewhere
    (rule 1); empty when none does."""
    parts = [p for p in _SEPARATOR.split(title) if p.strip()]
    if len(parts) < 2:
        return ""
    for heading in headings:
        wanted = normalise(heading)
        if not wanted or wanted == normalise(title):
            continue
        for i in range(len(parts)):
            for j in range(len(parts), i, -1):
                if j - i < len(parts) and normalise(" ".join(parts[i:j])) == wanted:
                    dropped = sum(len(normalise(p)) for p in parts[:i] + parts[j:])
                    kept = _rejoin(title, parts[i], parts[j - 1])
                    if 2 * len(wanted) >= dropped and _tail_is_site(title, kept, doc):
                        return kept
    return ""


def _tail_is_site(title: str, kept: str, doc: etree._Element) -> bool:
    """Whether what follows ``kept`` in ``title`` may be cut: nothing, a part after `` | ``
    (or ``::``, ``·``, ``»``), or a dash-separated part the page's body also says (its
    logo, header or footer: "Valley News"). A dash-separated subtitle the page does not
    repeat is part of the title ("Grüße aus Köln — Übersicht" under "Grüße aus Köln")."""
    end = title.find(kept) + len(kept)
    tail = title[end:] if end >= len(kept) else ""
    if not tail.strip() or tail.lstrip()[:1] in ("|", ":", "·", "»"):
        return True
    name = normalise(_SEPARATOR.sub(" ", tail, count=1))
    body = doc.find("body")
    if not name or body is None:
        return False
    texts = [t for h in body.iter("h1") for t in h.itertext()]
    said = normalise(" ".join(body.itertext())).replace(normalise(" ".join(texts)), "", 1)
    alts = normalise(" ".join(img.get("alt") or "" for img in body.iter("img")))
    return name in said or name in alts


def _page_headings(doc: etree._Element) -> list[str]:
    """The page's statements of its own title: its first ``<h1>`` outside the page header,
    navigation, footer (the elements or their ARIA roles: a ``<div role="banner">``'s
    site name was taken for the page's title) and links, then its JSON-LD ``headline`` and
    declared ``name``s."""
    found: list[str] = []
    for h1 in doc.iter("h1"):
        if not any(_is_chrome(a) for a in h1.iterancestors()) and h1.find(".//a") is None:
            found.append(_collapse("".join(h1.itertext())))
            break
    for script in doc.iter("script"):
        if (script.get("type") or "").strip().lower() == "application/ld+json":
            try:
                _ld_names(json.loads(script.text or ""), found, 0)
            except (ValueError, RecursionError):
                continue
    return [t for t in found if t]


def _is_chrome(el: etree._Element) -> bool:
    """Whether ``el`` is where a site's logo or menu sits: :data:`_CHROME`, or its ARIA
    role (``role="banner"``, ``"navigation"``, ``"contentinfo"``: the same landmarks)."""
    if not isinstance(el.tag, str):
        return False
    return el.tag in _CHROME or (el.get("role") or "").lower() in _CHROME_ROLES


def _ld_names(data: object, found: list[str], depth: int) -> None:
    """Append to ``found`` the ``headline`` and the ``name`` of each JSON-LD object (in
    ``@graph``, lists, nesting) whose ``@type`` is not the site's (an organisation, the
    website, a breadcrumb, a person or a brand)."""
    if depth > 4:
        return
    if isinstance(data, list):
        for item in data[:50]:
            _ld_names(item, found, depth + 1)
        return
    if not isinstance(data, dict):
        return
    kind = data.get("@type")
    kinds = {k.lower() for k in (kind if isinstance(kind, list) else [kind]) if isinstance(k, str)}
    for key in ("headline", "name"):
        value = data.get(key)
        if isinstance(value, str) and (key == "headline" or not kinds & _SITE_TYPES):
            found.append(_collapse(value))
    graph = data.get("@graph")
    if graph is not None:
        _ld_names(graph, found, depth + 1)


def url_title(url: str) -> str:
    """A name for an untitled document, as a browser's tab shows it: the last non-empty
    segment of the address's path, percent-decoded (``notes.txt``), else the host name;
    empty for an address without either. Query and fragment never count (they may hold
    secrets). Empty for an address that does not split (``http://[bad/x``: ``urlsplit``
    raises ``ValueError``), so an untitled page at such an address is still converted.
    Empty for an address of another scheme without a host (``about:blank``, ``data:``):
    what follows its colon is no file's name (the browser's header said ``title:`` empty
    for ``about:blank`` and its ``content`` said ``title: blank``: review)."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
    except ValueError:
        return ""
    if not host and parts.scheme not in ("", "file"):
        return ""
    segment = next((s for s in reversed(parts.path.split("/")) if s.strip()), "")
    return _collapse(unquote(segment)) or host


def strip_site_name(title: str, witnesses: tuple[str, ...], site: str, host: str) -> str:
    """``title`` without the site's name around it (rules 1–3 of the module docstring).

    Args:
        title: the ``<title>`` text, collapsed.
        witnesses: the publisher's other statements of the page's title (``og:title``).
        site: the site's declared name (``og:site_name``), or empty.
        host: the page's host name, or empty.
    """
    parts = [p for p in _SEPARATOR.split(title) if p.strip()]
    if len(parts) < 2:
        return title
    for witness in witnesses:
        wanted = normalise(witness)
        if not wanted:
            continue
        if normalise(title) == wanted:
            return title
        for i in range(len(parts)):  # the longest run of parts that a witness says
            for j in range(len(parts), i, -1):
                if j - i < len(parts) and normalise(" ".join(parts[i:j])) == wanted:
                    return _rejoin(title, parts[i], parts[j - 1])
    names = {normalise(site)} if site else set()
    if host:
        names.update(normalise(label) for label in host.split(".") if len(label) > 3)
        names.add(normalise(host.removeprefix("www.")))
    names.discard("")
    kept = [p for p in parts if not _names_site(normalise(p), names)]
    if kept and len(kept) < len(parts):
        return _rejoin(title, kept[0], kept[-1])
    return title


def _names_site(part: str, names: set[str]) -> bool:
    return any(part == name or (name in part and len(part) <= len(name) + 4) for name in names)


def names_site(text: str, doc: etree._Element, url: str, own: str) -> bool:
    """Whether ``text``, a heading set in the site's banner, is the site's name rather than
    the page's own title ``own`` (:func:`document_title`).

    It is not when it is ``own``. It is when, a leading "The" aside, it is the site's
    declared name (``og:site_name``; not ``application-name``, which a news portal set to
    the story's title) or at least half of it, or half of one of the page's host name's labels ("The Lakeside
    Gazette" on ``www.lakesidegazette.example``); or when it is a part of ``<title>`` (split
    as :func:`strip_site_name` splits it) outside ``own`` — or, when ``own`` is the whole
    ``<title>`` (nothing told the site's part), a part after the first: a title names the
    page first and its site last ("Ferry fares rise | The Lakeside Gazette", however long
    the site's name). Review: the banner's "The Lakeside Gazette" was written as the
    heading of the page "Ferry fares rise".
    """
    said = normalise(text)
    bare = normalise(_LEADING_THE.sub("", text))
    page = normalise(own)
    if not said or not bare or said == page:
        return False  # the page's own title (a home page's may be its site's name too)
    site = normalise(_meta(doc, ("og:site_name",)))
    if site and _most_of(bare, site):
        return True
    if any(_most_of(bare, normalise(label)) for label in (urlsplit(url).hostname or "").split(".")):
        return True
    title = _title_element(doc)
    parts = [normalise(p) for p in _SEPARATOR.split(title) if p.strip()]
    if len(parts) < 2 or said not in parts:
        return False
    if page and page != normalise(title):  # the site's part is known: outside the page's
        return said not in page
    return parts.index(said) > 0


def _most_of(part: str, name: str) -> bool:
    """Whether ``part`` is in ``name`` and at least half of it: "Opinion" is not the site
    "Daily Opinion Review", "art" not the host ``smartphonesdaily`` (review r-15)."""
    return bool(name) and part in name and 2 * len(part) >= len(name)


def _rejoin(title: str, first: str, last: str) -> str:
    """The stretch of ``title`` from part ``first`` to part ``last`` (separators inside kept)."""
    start = title.find(first)
    end = title.rfind(last)
    if start == -1 or end == -1 or end < start:
        return first
    return title[start : end + len(last)].strip()


def _title_element(doc: etree._Element) -> str:
    for title in doc.iter("title"):
        if any(isinstance(a.tag, str) and a.tag in ("svg", "math") for a in title.iterancestors()):
            continue
        return _collapse("".join(title.itertext()))
    return ""


def _meta(doc: etree._Element, names: tuple[str, ...]) -> str:
    for meta in doc.iter("meta"):
        if (meta.get("property") or meta.get("name") or "").lower() in names:
            text = _collapse(meta.get("content") or "")
            if text:
                return text
    return ""


def _collapse(text: str) -> str:
    return _WS.sub(" ", text).strip()
