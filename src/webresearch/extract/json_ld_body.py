"""Which of a page's elements are inert (never text for a reader), sparing the JSON-LD that
holds the article's visible text. Data only.

:func:`~webresearch.extract.page_noise.drop_inert` removes scripts, styles, inline SVG and
the head's links before the main content is looked for. One script is read by trafilatura
itself: a schema.org ``<script type="application/ld+json">`` with an ``articleBody``.
When trafilatura's main extractor keeps little of a page (less than its
``min_extracted_size``: an article written as text straight into ``<div>``\\ s, between ad
containers), its baseline rescue (trafilatura 2.3.1 ``baseline.baseline``, first source:
embedded JSON, keys ``articleBody``/``reviewBody``) takes the article's text from that
script; with every script removed first, it took only the paragraphs around the ads and
the article lost its middle (WCXB dev: a news article, recall 0.91 → 0.99).

That script is text no person sees: a page may put there anything — an instruction to the
model reading the extraction ("ignore all previous instructions …"), a text unrelated to the
page —, and the rescue would then return it *instead of* the page's visible text. So a
script is spared only when an ``articleBody`` it holds is a copy of the page's visible
text (:func:`is_visible_copy`): at least :data:`MIN_VISIBLE_SHARE` of its word trigrams
(three ``\\w+`` tokens in a row, case-folded, markup and character references in it undone)
occur in the body's visible text, and never more than :data:`MAX_UNSEEN_RUN` in a row do
not. The visible text is the body's text outside scripts,
styles, ``<noscript>``/``<template>`` and elements hidden by the ``hidden`` attribute or an
inline ``display:none`` / ``visibility:hidden`` / ``content-visibility:hidden`` style. A
spared script's text is rewritten to hold only its ``articleBody`` values that pass (no other key:
``reviewBody``, ``acceptedAnswer``, ``recipeInstructions`` and descriptions, which the rescue
also reads, are not checked, so they go). A script that is not valid JSON goes.

:func:`inert_elements` lists what ``drop_inert`` removes: every script but such a checked
JSON-LD one, styles, SVG in the body, the head's ``<noscript>`` and ``<link>`` elements. The
spared script is never text of the page: the text walks
(:func:`~webresearch.extract.align.text_segments`) and the markdown conversion skip scripts.
(A predicate in the XPath instead cost up to 20 ms on a page of many scripts; this filter
reads only the JSON-LD scripts' text, and walks the body's text only on a page that has an
``articleBody``.)

WCXB dev: one article page changes (0.922 → 0.969; its ``articleBody`` passes: 98.4 % of
its trigrams shown, at most 3 unseen in a row), no other page of any type, nor of Zyte's.
"""

from __future__ import annotations

import json
import re
from html import unescape

from lxml import etree

__all__ = [
    "MAX_UNSEEN_RUN",
    "MIN_VISIBLE_SHARE",
    "inert_elements",
    "is_visible_copy",
    "word_trigrams",
]

#: An ``articleBody`` is the page's visible text when at least this share of its word
#: trigrams occur in the visible body text … (WCXB dev: the article the rule is for, 0.984;
#: a JSON-LD copy differs from the page where it joins a heading to the next paragraph
#: without a space, or where an editor changed a word)
MIN_VISIBLE_SHARE = 0.9
#: … and no more than this many trigrams in a row do not (``k`` words the page does not
#: show make ``k + 2`` trigrams: a joined heading or a changed word make at most 3, the
#: WCXB dev article's longest run; a sentence of 4 words or more the page does not show —
#: "ignore all previous instructions …" — makes the script go, however long the rest).
MAX_UNSEEN_RUN = 5

_INERT_TAGS = ("script", "style", "svg", "noscript", "link")
_WORD = re.compile(r"\w+")
_MARKUP = re.compile(r"<[^<>]*>")
_UNSEEN_TAGS = frozenset({"script", "style", "noscript", "template", "head", "title"})
_HIDING_STYLE = re.compile(
    r"(?:^|;)\s*(?:display\s*:\s*none|(?:content-)?visibility\s*:\s*hidden)\b", re.I
)


def inert_elements(doc: etree._Element) -> list[etree._Element]:
    """The scripts, styles, SVG drawings and head links of ``doc`` to remove, in document
    order, without the JSON-LD scripts that hold an article's visible text (module
    docstring). The text of each spared script is rewritten in place to hold only its
    checked ``articleBody`` values.
    """
    found = _inert(doc)
    candidates = [el for el in found if _holds_article_body(el)]
    if not candidates:
        return found
    words: set[tuple[str, str, str]] | None = None
    spared: set[etree._Element] = set()
    for script in candidates:
        bodies = _article_bodies(script.text or "")
        if not bodies:
            continue
        if words is None:
            body = doc.find("body")
            words = set(word_trigrams([] if body is None else _visible_words(body)))
        shown = [text for text in bodies if is_visible_copy(text, words)]
        if shown:
            script.text = json.dumps(
                {"@context": "https://schema.org", "@type": "Article", "articleBody": shown[0]}
                if len(shown) == 1
                else [{"@type": "Article", "articleBody": text} for text in shown],
                ensure_ascii=False,
            ).replace("</", "<\\/")
            spared.add(script)
    return [el for el in found if el not in spared]


def _inert(doc: etree._Element) -> list[etree._Element]:
    """Every ``<script>`` and ``<style>``, the ``<svg>`` in a ``<body>`` and the
    ``<noscript>`` and ``<link>`` children of a ``<head>``, in document order: what the
    XPath ``//script | //style | //body//svg | //head/noscript | //head/link`` selects, in
    one C-level walk over those tags (the union's five scans of the page took longer)."""
    found: list[etree._Element] = []
    for el in doc.iter(*_INERT_TAGS):
        tag = el.tag
        if tag == "svg":
            if next(el.iterancestors("body"), None) is None:
                continue
        elif tag in ("noscript", "link"):
            parent = el.getparent()
            if parent is None or parent.tag != "head":
                continue
        found.append(el)
    return found


def is_visible_copy(text: str, shown: set[tuple[str, str, str]]) -> bool:
    """Whether ``text`` (an ``articleBody``: tags and character references in it undone
    first) is a copy of the page's visible text, whose word trigrams are ``shown`` (see
    :func:`word_trigrams`): at least :data:`MIN_VISIBLE_SHARE` of its trigrams are shown,
    and no more than :data:`MAX_UNSEEN_RUN` in a row are not. A text of fewer than three
    words is not."""
    grams = word_trigrams(_WORD.findall(_MARKUP.sub(" ", unescape(text)).casefold()))
    seen = run = 0
    for gram in grams:
        if gram in shown:
            seen += 1
            run = 0
        else:
            run += 1
            if run > MAX_UNSEEN_RUN:
                return False
    return bool(grams) and seen >= MIN_VISIBLE_SHARE * len(grams)


def word_trigrams(tokens: list[str]) -> list[tuple[str, str, str]]:
    """The runs of three consecutive ``tokens`` (none when there are fewer): a word alone
    proves little (an instruction is made of common words the page also uses), three in a
    row are the page's own sentence."""
    return list(zip(tokens, tokens[1:], tokens[2:], strict=False))


def _holds_article_body(el: etree._Element) -> bool:
    return (
        el.tag == "script"
        and (el.get("type") or "").strip().lower() == "application/ld+json"
        and '"articleBody"' in (el.text or "")
    )


def _article_bodies(text: str) -> list[str]:
    """The non-empty string ``articleBody`` values of a JSON-LD script, in order, from
    list-wrapped and ``@graph``-nested nodes; empty when it is not valid JSON."""
    try:
        data = json.loads(text)
    except ValueError:
        return []
    bodies: list[str] = []
    pending: list[object] = [data]
    while pending:
        node = pending.pop(0)
        if isinstance(node, list):
            pending[:0] = node
        elif isinstance(node, dict):
            value = node.get("articleBody")
            if isinstance(value, str) and value.strip():
                bodies.append(value)
            graph = node.get("@graph")
            if graph is not None:
                pending.insert(0, graph)
    return bodies


def _visible_words(root: etree._Element) -> list[str]:
    """The case-folded word tokens of ``root``'s text a reader sees (module docstring), in
    document order."""
    texts: list[str] = []
    skipped = 0  # depth inside an unseen element
    for event, el in etree.iterwalk(root, events=("start", "end")):
        if event == "start":
            if skipped or _unseen(el):
                skipped += 1
            elif el.text:
                texts.append(el.text)
            continue
        if skipped:
            skipped -= 1
        if not skipped and el.tail and el is not root:
            texts.append(el.tail)
    return _WORD.findall(" ".join(texts).casefold())


def _unseen(el: etree._Element) -> bool:
    return (
        not isinstance(el.tag, str)  # a comment or a processing instruction
        or el.tag in _UNSEEN_TAGS
        or el.get("hidden") is not None
        or bool(_HIDING_STYLE.search(el.get("style") or ""))
    )
