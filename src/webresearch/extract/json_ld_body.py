"""Which of a page's elements are inert (never text for a reader), sparing the JSON-LD that
holds the article's text. Data only.

:func:`~webresearch.extract.page_noise.drop_inert` removes scripts, styles, inline SVG and
the head's links before the main content is looked for. One script is read by trafilatura
itself: a schema.org ``<script type="application/ld+json">`` with an ``articleBody``.
When trafilatura's main extractor keeps little of a page (less than its
``min_extracted_size``: an article written as text straight into ``<div>``\\ s, between ad
containers), its baseline rescue (trafilatura 2.3.1 ``baseline.baseline``, first source:
embedded JSON, keys ``articleBody``/``reviewBody``) takes the article's text from that
script; with every script removed first, it took only the paragraphs around the ads and
the article lost its middle (WCXB dev: a news article, recall 0.91 → 0.99).

:func:`inert_elements` lists what ``drop_inert`` removes: every script but a JSON-LD one
holding an ``"articleBody"`` key (not ``reviewBody``: a shop's reviews are not its content),
styles, SVG in the body, the head's ``<noscript>`` and ``<link>`` elements. The spared script
is never text of the page: the text walks (:func:`~webresearch.extract.align.text_segments`)
and the markdown conversion skip scripts. (A predicate in the XPath instead cost up to 20 ms
on a page of many scripts; this filter reads only the JSON-LD scripts' text.)

WCXB dev: one article page changes (0.922 → 0.969), no other page of any type, nor of
Zyte's.
"""

from __future__ import annotations

from lxml import etree

__all__ = ["inert_elements"]

_INERT_XPATH = etree.XPath("//script | //style | //body//svg | //head/noscript | //head/link")


def inert_elements(doc: etree._Element) -> list[etree._Element]:
    """The scripts, styles, SVG drawings and head links of ``doc`` to remove, in document
    order, without the JSON-LD scripts that hold an article's text (module docstring)."""
    return [el for el in _INERT_XPATH(doc) if not _holds_article_body(el)]


def _holds_article_body(el: etree._Element) -> bool:
    return (
        el.tag == "script"
        and (el.get("type") or "").strip().lower() == "application/ld+json"
        and '"articleBody"' in (el.text or "")
    )
