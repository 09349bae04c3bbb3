"""One short "author · date" line per post of a thread (issue 13). Pure functions.

A post's container shows who wrote it and when in several places: a profile card (the
name, a user title, "Posts: 1,231", "Joined: Mar 2019", "Messages", "Reaction score"), a
byline ("by gardener1 » Mon Jun 01, 2026 10:01 am"), a ``<time>``. A reader needs the
name and the date once; the card's details are chrome. Outside the post body, in document
order:

* the author (:func:`author_of`) is the name of a schema.org ``author``; else the text of
  a link to a member's page (``/members/…``, ``/u/…``, ``memberlist.php?…``, ``/@name``);
  else the name in a "by NAME » DATE" line; else an element whose class names a user name
  or an author; else the term of the profile card's ``<dl>`` — a name of at most
  :data:`MAX_NAME_WORDS` words, outside quotations (a quoted post names its own author);
* the date (:func:`date_of`) is the first ``<time>``'s text (its ``datetime`` when it has
  none); else the date of the "by NAME » DATE" line; else a schema.org ``datePublished``;
  else a short element whose text is a date and no "Joined"/"Registered" label (the
  card's membership date is not the post's).

:func:`write_byline` puts the line right before the post body, as a paragraph marked
:data:`BYLINE_ATTR` (first in the body when the body is a table cell or a list item).
"""

from __future__ import annotations

import re

from lxml import etree

__all__ = [
    "BYLINE_ATTR",
    "MAX_NAME_WORDS",
    "author_of",
    "date_of",
    "is_dateline",
    "is_profile_link",
    "name_holder",
    "write_byline",
]

#: The attribute marking the byline paragraph :func:`write_byline` adds.
BYLINE_ATTR = "data-wr-byline"
#: A poster's name has at most this many words …
MAX_NAME_WORDS = 4
#: … and at most this many characters.
MAX_NAME_CHARS = 40
#: A date shown alone is at most this long …
MAX_DATE_CHARS = 48
#: … and a line holding one with a name ("by NAME » DATE") at most this long.
MAX_DATELINE_CHARS = 80

_PROFILE_HREF = re.compile(
    r"(?:^|/)(?:u|user|users|member|members|profile|profiles|people|memberlist\.php)(?:[/?.]|$)"
    r"|[?&](?:u|user|userid|memberid|showuser)=|/@[\w.-]+/?$",
    re.IGNORECASE,
)
_NAME_CLASS = re.compile(r"user-?name|author|poster|member-?name|display-?name", re.IGNORECASE)
_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
_DATE = re.compile(
    rf"\b{_MONTH}\s+\d{{1,2}}\b|\b\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH}|\b{_MONTH},?\s+\d{{4}}\b"
    r"|\b\d{1,4}[-/.]\d{1,2}[-/.]\d{2,4}\b|\b\d+\s*(?:min(?:ute)?s?|h(?:ours?|rs?)?|days?|"
    r"weeks?|months?|years?|mo|y|d|w)\s+ago\b|\b(?:yesterday|today)\b",
    re.IGNORECASE,
)
_BY_LINE = re.compile(
    r"^\s*(?:posted\s+)?by\s+(?P<name>[^»|·,\n]{1,40}?)\s*(?:»|\||·|,|-|–|\bon\b)\s*(?P<date>.+?)\s*$",
    re.IGNORECASE | re.DOTALL,
)
_LABEL = re.compile(
    r"\b(?:joined|registered|member since|last (?:seen|active|visit)|posts|messages)\b",
    re.IGNORECASE,
)
#: "Founded: Dec 11, 2021", "Location: …": a card's labelled line, never the post's date.
_LABELLED = re.compile(r"^[^\d:]{2,24}:\s*\S")
_CELL_TAGS = frozenset({"td", "th", "li", "dd", "dt", "tr", "tbody", "table"})


def is_profile_link(href: str) -> bool:
    """True for the address of a member's page (``/members/…``, ``/u/…``, ``/@name``)."""
    return bool(_PROFILE_HREF.search(href))


def is_dateline(text: str) -> bool:
    """True for a short line holding a date (at most :data:`MAX_DATELINE_CHARS` characters):
    a byline or a timestamp, not a sentence."""
    return len(text) <= MAX_DATELINE_CHARS and bool(_DATE.search(text))


def _outside(unit: etree._Element, body: etree._Element) -> list[etree._Element]:
    """Elements of ``unit`` outside ``body``, not holding it and outside quotations, in
    document order."""
    skip = {body, *body.iterdescendants(), *body.iterancestors()}
    found = []
    for el in unit.iter():
        if not isinstance(el.tag, str) or el in skip:
            continue
        if el.tag == "blockquote" or any(a.tag == "blockquote" for a in el.iterancestors()):
            continue
        found.append(el)
    return found


def _text(el: etree._Element) -> str:
    return " ".join("".join(el.itertext()).split())


def _a_name(text: str) -> str:
    """``text`` when it can be a poster's name (short, no date in it), else an empty string."""
    if not text or len(text) > MAX_NAME_CHARS or len(text.split()) > MAX_NAME_WORDS:
        return ""
    if _DATE.search(text):
        return ""
    return text if any(ch.isalnum() for ch in text) else ""


def name_holder(unit: etree._Element) -> etree._Element | None:
    """The element naming the poster in a post's profile card: the first link to a member's
    page with a short text, else the first element whose class names a user name or an
    author (module docstring); ``None`` when there is none."""
    for el in unit.iter():
        if not isinstance(el.tag, str):
            continue
        if el.tag == "a" and _PROFILE_HREF.search(el.get("href") or "") and _a_name(_text(el)):
            return el
    for el in unit.iter():
        if (
            isinstance(el.tag, str)
            and _NAME_CLASS.search(el.get("class") or "")
            and _a_name(_text(el))
        ):
            return el
    return None


def author_of(unit: etree._Element, body: etree._Element) -> str:
    """The name of the post's author (module docstring), or an empty string."""
    elements = _outside(unit, body)
    for el in elements:  # schema.org microdata
        if "author" in (el.get("itemprop") or "").lower().split():
            names = [n for n in el.iter() if "name" in (n.get("itemprop") or "").split()]
            name = _a_name(_text(names[0] if names else el))
            if name:
                return name
    for el in elements:  # a link to the member's page
        if el.tag == "a" and _PROFILE_HREF.search(el.get("href") or ""):
            name = _a_name(_text(el))
            if name:
                return name
    for el in elements:  # "by NAME » DATE"
        match = _BY_LINE.match(_text(el))
        if match and _DATE.search(match["date"]):
            return match["name"]
    for el in elements:
        if _NAME_CLASS.search(el.get("class") or ""):
            name = _a_name(_text(el))
            if name:
                return name
    for el in elements:
        if el.tag == "dt" and el.getparent() is not None and el.getparent().tag == "dl":
            return _a_name(_text(el))
    return ""


def date_of(unit: etree._Element, body: etree._Element) -> str:
    """The date the post was written (module docstring), or an empty string."""
    elements = _outside(unit, body)
    for el in elements:
        if el.tag == "time":
            text = _text(el) or (el.get("datetime") or "").strip()
            if text and not _labelled(el):
                return text
    for el in elements:
        match = _BY_LINE.match(_text(el))
        if match and _DATE.search(match["date"]):
            return match["date"]
    for el in elements:
        props = (el.get("itemprop") or "").lower().split()
        if "datepublished" in props or "datecreated" in props:
            text = (el.get("content") or "").strip() or _text(el)
            if text:
                return text
    for el in elements:
        text = _text(el)
        if (
            text
            and len(text) <= MAX_DATE_CHARS
            and _DATE.search(text)
            and not _LABEL.search(text)
            and not _LABELLED.match(text)
        ):
            return text
    return ""


def _labelled(el: etree._Element) -> bool:
    """True when the text right before ``el`` is a card's label ("Joined:")."""
    prev = el.getprevious()
    parent = el.getparent()
    if prev is not None:
        before = _text(prev) + " " + (prev.tail or "")
    else:
        before = parent.text or "" if parent is not None else ""
    return bool(_LABEL.search(before[-30:]))


def write_byline(unit: etree._Element, body: etree._Element) -> etree._Element | None:
    """Add the post's "author · date" paragraph before ``body`` (inside it when ``body`` is
    a table cell or a list item), marked :data:`BYLINE_ATTR`; ``None`` when the post names
    neither."""
    parts = [part for part in (author_of(unit, body), date_of(unit, body)) if part]
    if not parts:
        return None
    line = etree.Element("p", {BYLINE_ATTR: ""})
    line.text = " · ".join(parts)
    if body.tag in _CELL_TAGS:
        line.tail = body.text
        body.text = None
        body.insert(0, line)
    else:
        body.addprevious(line)
        line.tail = None
    return line
