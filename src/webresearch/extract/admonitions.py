"""A documentation admonition's title ("Note", "Warning", "Tip") made bold, on a line of its
own. Pure functions over lxml trees.

Documentation generators set a callout's title apart from its body by style alone: Sphinx
and MkDocs write ``<p class="admonition-title">Note</p>`` (Sphinx's HTML writer, MkDocs'
``admonition`` extension of Python-Markdown), Docusaurus ``<div
class="admonitionHeading_Gu2k">`` (a CSS module's hashed class; ``theme-admonition`` markup
of Docusaurus 2 and 3), GitHub's rendered markdown alerts ``<p
class="markdown-alert-title">``. Written as plain text, the title reads as one more word
before the body ("Note Run the installer …"), or a line a reader cannot tell from prose
(review, session 17). :func:`bold_admonition_titles` wraps each title's content in
``<strong>`` (written ``**Note**``), and makes an inline title (a ``<span>``) a paragraph so
that it stands on its own line. MkDocs Material's collapsible admonition, ``<details
class="tip"><summary>See also</summary>…`` (:data:`COLLAPSIBLE_TYPES`), gets the class token
``admonition`` too, so that its links are kept as the ``<div>`` form's are
(:mod:`webresearch.extract.link_lists`; review n-18: a "See also" box of four links went
whole), and its summary is made bold.
"""

from __future__ import annotations

import re

from lxml import etree

from webresearch.extract.scan_index import AttributeRow

__all__ = ["bold_admonition_titles"]

#: The title classes (module docstring); a CSS module's class ends with a hash after "_".
_TITLE_CLASS = re.compile(
    r"(?:^|\s)(?:admonition-title|admonition-heading|markdown-alert-title|admonitionHeading_\w+)"
    r"(?:\s|$)"
)
#: Class tokens of a collapsible admonition, ``<details>`` with a ``<summary>`` title:
#: ``admonition``, and the types of MkDocs Material's ``pymdownx.details`` ("Admonitions"
#: in its reference) and Python-Markdown's ``seealso``.
COLLAPSIBLE_TYPES = frozenset(
    {
        "admonition", "note", "abstract", "summary", "tldr", "info", "todo", "tip", "hint",
        "important", "success", "check", "done", "question", "help", "faq", "warning",
        "caution", "attention", "failure", "fail", "missing", "danger", "error", "bug",
        "example", "quote", "cite", "seealso",
    }
)  # fmt: skip
#: Elements a title may be written in that do not end a line.
_INLINE = frozenset({"span", "strong", "b", "em", "i", "label"})
#: The longest title made bold (letters and digits): a title is a word or a short phrase.
MAX_TITLE_CHARS = 80


def bold_admonition_titles(rows: list[AttributeRow]) -> None:
    """Make bold, in place, every admonition title among ``rows`` (the page's attribute
    rows: :func:`~webresearch.extract.scan_index.read_attributes`) — module docstring."""
    for row in rows:
        klass = row[1]
        if not klass:
            continue
        el = row[0]
        if el.tag == "details":
            _mark_collapsible(el, klass)
            continue
        if "dmonition" not in klass and "alert-title" not in klass:
            continue  # a substring test first: most classes are no title
        if _TITLE_CLASS.search(klass) is not None:
            _bold(el)


def _mark_collapsible(details: etree._Element, klass: str) -> None:
    """A collapsible admonition (``<details class="tip"><summary>See also</summary>``):
    class token ``admonition`` added, so that it is kept as the ``<div>`` form is
    (:func:`webresearch.extract.link_lists.is_content_box`), and its summary made bold."""
    tokens = klass.split()
    if not any(token in COLLAPSIBLE_TYPES for token in tokens):
        return
    summary = details[0] if len(details) else None
    if summary is None or summary.tag != "summary":
        return
    if "admonition" not in tokens:
        details.set("class", f"{klass} admonition")
    _bold(summary)


def _bold(el: etree._Element) -> None:
    """Wrap the title ``el``'s content in ``<strong>`` (module docstring)."""
    text = "".join(el.itertext()).strip()
    if not text or sum(c.isalnum() for c in text) > MAX_TITLE_CHARS:
        return
    if el.find(".//strong") is not None or el.find(".//b") is not None:
        return  # already bold
    strong = etree.SubElement(el, "strong")
    strong.text, el.text = el.text, None
    for child in list(el)[:-1]:
        strong.append(child)  # the text after a child moves with it
    if el.tag in _INLINE:
        el.tag = "p"
