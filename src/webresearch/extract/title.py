"""The page's own title, without the site's name. Pure functions.

``<title>`` usually carries the site's name ("Story headline | Site", "Site - Story"). The
page's own title is chosen by agreement of ``<title>`` with ``og:title`` (or
``twitter:title``, the publisher's statement of the page title without the site):

1. the part of ``<title>`` (split at `` | ``, `` - ``, `` – ``, `` — ``, `` :: ``, `` · ``,
   `` » ``) that ``og:title`` also says;
2. else ``<title>`` without the parts naming the site (``og:site_name``, or the host name);
3. else ``<title>`` as it is (a subtitle such as "Köln — Übersicht" is part of it), else
   ``og:title``, else the first ``<h1>``, else the first heading of any level.

A document with none of these (plain text, JSON, a bare page) is named as a browser's tab
names it: by the last segment of its address, else its host (:func:`url_title`).

All texts are whitespace-collapsed.
"""

from __future__ import annotations

import re
from urllib.parse import unquote, urlsplit

from lxml import etree

from webresearch.extract.align import normalise

__all__ = ["document_title", "strip_site_name", "url_title"]

_WS = re.compile(r"\s+")
_HEADINGS = ("h2", "h3", "h4", "h5", "h6")
_SEPARATOR = re.compile(r"\s+(?:\||-|–|—|::|·|»|/)\s+|\s*\|\s*")


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
        headings = (_collapse("".join(h.itertext())) for h in doc.iter(*_HEADINGS))
        return og_title or next((t for t in h1 if t), "") or next((t for t in headings if t), "")
    site = _meta(doc, ("og:site_name", "application-name"))
    return strip_site_name(title, (og_title,), site, urlsplit(url).hostname or "")


def url_title(url: str) -> str:
    """A name for an untitled document, as a browser's tab shows it: the last non-empty
    segment of the address's path, percent-decoded (``notes.txt``), else the host name;
    empty for an address without either. Query and fragment never count (they may hold
    secrets)."""
    parts = urlsplit(url)
    segment = next((s for s in reversed(parts.path.split("/")) if s.strip()), "")
    return _collapse(unquote(segment)) or (parts.hostname or "")


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
