"""Links of the markdown walk: ``[text](url)`` and a link card's heading. Pure functions.

The address is absolute (:func:`~webresearch.extract.urls.absolute_url`) and written so a
CommonMark renderer resolves it back to itself
(:func:`~webresearch.extract.markdown_inline.link_destination`); the text's unbalanced
brackets are escaped; a link never wraps text holding a link (CommonMark §6.3: links do not
nest).

A link into the page itself that is a footnote's bracketed reference mark (``<a href="#fn-16">
<sup>[16]</sup></a>``: "^[16]", "[16]", "(16)") is written as its text alone (the brackets
say it is a reference; a bare "1" in ``<sup>`` stays a link, "Smith^[1](…#fn1)", not an
exponent: session 12's rule for scripts), and a footnote's way back
to it (``↩``, ``↩︎``, ``⤴``) not at all: the footnote's text is on the page the model reads,
and the page's own address with a fragment, repeated at every reference, tells it nothing (a
permalink mark is dropped for the same reason). WCXB dev: a 39-reference fitness guide
(article) 0.932 → 0.978, a listing 0.313 → 0.330, a documentation page +0.0006; no page of
any type or of Zyte dev down.
"""

from __future__ import annotations

import re

from webresearch.extract.markdown_inline import (
    PERMALINK_MARKS,
    escape_brackets,
    holds_link,
    link_destination,
    one_line,
)
from webresearch.extract.markdown_prose import PROSE_BRACKET
from webresearch.extract.urls import absolute_url

__all__ = ["card_heading", "link_markdown"]

#: A footnote reference's text: a number in brackets, perhaps superscript (``^``).
#: (the page's ``[`` may still be marked: :mod:`.markdown_prose`)
_FOOTNOTE_MARK = re.compile(rf"\^?(?:[\[{PROSE_BRACKET}]\^?\d{{1,4}}\]|\(\d{{1,4}}\))")
#: A footnote's link back to its reference (↩ as text or emoji, ⤴, ↑, ^).
_BACK_MARKS = frozenset({"\u21a9", "\u21a9\ufe0e", "\u21a9\ufe0f", "\u2934", "\u2191", "^"})


def _same_page(raw: str, base_url: str) -> bool:
    return raw.startswith("#") or (bool(raw) and raw.split("#", 1)[0] == base_url)


def link_markdown(href: str | None, text: str, base_url: str, in_heading: bool) -> str:
    """A link's markdown for its ``href`` attribute and its inline ``text`` (edges stripped,
    not empty): ``[text](url)``; ``""`` for a permalink mark (``¶``, ``#``, ``§``) linking
    into the page; ``text`` alone for a heading's link into the page itself (a self-link),
    an address that is no useful target, or text holding a link
    (:func:`~webresearch.extract.markdown_inline.holds_link`)."""
    same_page = _same_page((href or "").strip(), base_url)
    if same_page and (text in PERMALINK_MARKS or text in _BACK_MARKS):
        return ""
    if same_page and _FOOTNOTE_MARK.fullmatch(text):
        return text  # a footnote's reference mark (module docstring)
    target = absolute_url(href, base_url)
    if target is None or (in_heading and same_page) or holds_link(text):
        return text
    text = one_line(text)
    return f"[{escape_brackets(text)}]({link_destination(target)})"


def card_heading(href: str | None, heading: str, base_url: str) -> str:
    """A link card's heading line (``### Title``) with the card's link around its text
    (``### [Title](url)``); as it is when the link goes into the page itself (an FAQ's
    anchor), has no useful target, or the heading holds a link of its own."""
    raw = (href or "").strip()
    marks, _, text = heading.partition(" ")
    target = None if _same_page(raw, base_url) else absolute_url(raw, base_url)
    if not target or holds_link(text):
        return heading
    return f"{marks} [{escape_brackets(text)}]({link_destination(target)})"
