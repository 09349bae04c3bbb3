"""trafilatura's slowest XPath scans as plain loops. Pure functions over lxml trees.

The expressions of trafilatura 2.3.1's ``xpaths.py`` (:data:`~webresearch.extract.traf_pass.TRAFILATURA_VERSION`) that its main extractor
runs on every page: the five ``BODY_XPATH`` frames, ``OVERALL_DISCARD_XPATH``,
``DISCARD_IMAGE_ELEMENTS`` and ``TEASER_DISCARD_XPATH`` (issue 13: they call back into Python
for every element; :mod:`webresearch.extract.traf_content` runs trafilatura's extractor with
these loops). Each function selects the same elements in the same order as its expression
(``tests/unit/extract/test_traf_content.py``).

XPath details kept: ``re:test`` is Python's ``re.search`` (lxml's EXSLT functions); a
missing attribute is the empty string; ``@id|@class`` is the attribute written first;
``translate(@id, 'CM', 'cm')`` lower-cases only those letters.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from lxml import etree

__all__ = [
    "Alternation",
    "alternation",
    "body_frame_finders",
    "discard_scan",
    "discard_targets",
    "image_caption_targets",
    "teaser_targets",
]

_METACHARACTERS = frozenset("\\^$.|?*+()[]{}")


@dataclass(frozen=True, slots=True)
class Alternation:
    """``re.search(pattern, text)`` as a truth value, faster for a long alternation: its
    literal alternatives are substring tests, the others one smaller regex.

    A top-level alternation matches when one of its alternatives does, so the answer is
    the same; Python's ``re`` tries every alternative at every position of the text
    (``OVERALL_DISCARD_XPATH`` scan over the cleaned trees of every sixth dev page: 25 → 17
    ms a page, loaded machine).

    Attributes:
        pattern: the whole regex, as trafilatura writes it.
        literals: its alternatives without regex syntax.
        rest: the other alternatives, or ``None``.
    """

    pattern: str
    literals: tuple[str, ...]
    rest: re.Pattern[str] | None

    def search(self, text: str) -> bool:
        """True when ``pattern`` matches somewhere in ``text``."""
        for literal in self.literals:
            if literal in text:
                return True
        return self.rest is not None and self.rest.search(text) is not None


def alternation(pattern: str) -> Alternation:
    """``pattern`` split at its top-level ``|`` (outside groups and sets) into an
    :class:`Alternation`."""
    parts: list[str] = []
    depth, start, in_set = 0, 0, False
    for i, char in enumerate(pattern):
        if in_set:
            in_set = char != "]"
        elif char == "[":
            in_set = True
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "|" and depth == 0:
            parts.append(pattern[start:i])
            start = i + 1
    parts.append(pattern[start:])
    literals = tuple(p for p in parts if p and not _METACHARACTERS.intersection(p))
    rest = [p for p in parts if p not in literals]
    return Alternation(pattern, literals, re.compile("|".join(rest)) if rest else None)


# trafilatura.xpaths.BODY_XPATH
_FRAME_TAGS = ("article", "div", "main", "section")
_ARTICLE_ID = alternation(
    "(?:entry|article|art)-content|article__content|article(?:-|__)?body|articleBody|body-text"
)
_ARTICLE_CLASS = alternation(
    "post[-_]text|post-body|post-?entry|post[-_]?content|postContent|post_inner_wrapper"
    "|article-?text|articleText|(?:entry|page|text|article|art)-content|article__content"
    "|article(?:-|__)?body|articleBody|ArticleContent|body-text|article__container"
)
_STORY_ID = alternation("^primary|story-body")
_FULLTEXT = re.compile("fulltext", re.IGNORECASE)
_STORY_CLASS = alternation(
    "^article |post-bodycopy|story-?content|(?:theme|blog|section|single)-content|single-post"
    "|main-column|wpb_text_column|story-body|field-body"
)
_STORY_CLASSES = frozenset({"postarea", "art-postcontent", "text", "cell", "story"})
_MAIN_ID = alternation("content-main|content-body|contentBody")
_MAIN_CLASS = alternation("content[-_]main|content(?:-|__)body")

# trafilatura.xpaths.OVERALL_DISCARD_XPATH, DISCARD_IMAGE_ELEMENTS, TEASER_DISCARD_XPATH
_DISCARD_TAGS = frozenset({"div", "item", "list", "p", "section", "span"})
_BOTH = "^shar|social|viral|newsletter|syndication|tags|sidebar|banner|bread-?crumb|button|author"
_DISCARD_ID = alternation(
    _BOTH + "|^(?:jp-|dpsp-content)|bmdh|footer|Footer|share|Share|nav|Nav|menu|related"
    "|message-container|premium|^ad-"
)
_DISCARD_CLASS = alternation(
    _BOTH + "|^(?:nav|post-nav|ZendeskForm)|subnav|avigation|navbar|navbox|menu|bar| ad |-ad-"
    "|(?:^| )ad-|dfp[Aa]d|outbrain|taboola|criteo|paid-?content|widget|footer|Footer|byline"
    "|Byline|share-|sociable|embedded|embed|tag-list|consent|modal-content|permission|elated"
    "|next-|-stories|most-popular|more-on|meta|rating|attachment|timestamp|user-info"
    "|user-profile|-icon|article-infos|message-container|slide|viewport|overlay|options|expand"
    "|obfuscated|blurred|mol-factbox|yin|zlylin|nfoline"
)
_HIDDEN_ID = alternation("reader-comments|akismet")
_HIDDEN_CLASS = alternation(
    "^hide-|comments-title|nocomments|-reply-|message|akismet|suggest-links|-hide-|hide-print"
    "| hidden| hide|noprint|notloaded"
)


def _first_in(attrs: dict[str, str], first: str, second: str) -> str:
    """The string value of ``@first|@second`` (``attrs``: an element's attributes in the
    order written): the attribute written first, or ``""``."""
    if first not in attrs:
        return attrs.get(second, "")
    if second not in attrs:
        return attrs[first]
    for name in attrs:
        if name in (first, second):
            return attrs[name]
    return ""  # pragma: no cover - one of them is there


def _frame_0(tree: etree._Element) -> etree._Element | None:
    for el in tree.iterdescendants(*_FRAME_TAGS):
        klass, ident = el.get("class"), el.get("id")
        if (
            klass in ("post", "entry")
            or el.get("itemprop") == "articleBody"
            or ident == "articleContent"
            or (ident is not None and _ARTICLE_ID.search(ident))
            or (klass is not None and _ARTICLE_CLASS.search(klass))
        ):
            return el
    return None


def _frame_1(tree: etree._Element) -> etree._Element | None:
    return next(tree.iterdescendants("article"), None)


def _frame_2(tree: etree._Element) -> etree._Element | None:
    for el in tree.iterdescendants(*_FRAME_TAGS):
        klass, ident = el.get("class"), el.get("id")
        if (
            el.get("role") == "article"
            or ident in ("article", "story")
            or klass in _STORY_CLASSES
            or (ident is not None and _STORY_ID.search(ident))
            or (klass is not None and (_FULLTEXT.search(klass) or _STORY_CLASS.search(klass)))
        ):
            return el
    return None


def _frame_3(tree: etree._Element) -> etree._Element | None:
    for el in tree.iterdescendants(*_FRAME_TAGS):
        klass, ident = el.get("class") or "", el.get("id") or ""
        if (
            ident == "content"
            or klass == "content"
            or _MAIN_ID.search(ident)
            or _MAIN_CLASS.search(klass)
            or "main-content" in ident.replace("C", "c").replace("M", "m")
            or "main-content" in klass.replace("C", "c").replace("M", "m")
            or "page-content" in klass.replace("C", "c").replace("P", "p")
        ):
            return el
    return None


def _frame_4(tree: etree._Element) -> etree._Element | None:
    """``(….[starts-with(…, 'main')])[1]|(.//main)[1]``: whichever comes first."""
    for el in tree.iterdescendants("article", "div", "section", "main"):
        if el.tag == "main" or any(
            (el.get(name) or "").startswith("main") for name in ("class", "id", "role")
        ):
            return el
    return None


def body_frame_finders() -> tuple[Callable[[etree._Element], etree._Element | None], ...]:
    """One function per ``BODY_XPATH`` expression: the first element it selects, or ``None``."""
    return (_frame_0, _frame_1, _frame_2, _frame_3, _frame_4)


def discard_targets(tree: etree._Element) -> list[etree._Element]:
    """The elements ``OVERALL_DISCARD_XPATH`` selects (its first expression's in document
    order, then the second's not selected already), as ``prune_unwanted_nodes`` collects them.

    The regex verdicts on each distinct ``class`` and ``id`` value are kept for the call:
    a page repeats its class names.
    """
    return discard_scan(tree)[0]


def discard_scan(
    tree: etree._Element,
) -> tuple[list[etree._Element], list[etree._Element], list[etree._Element]]:
    """:func:`discard_targets`, :func:`image_caption_targets` and :func:`teaser_targets` of
    ``tree`` in one walk (trafilatura prunes the first before it scans for the others: a
    caller keeps those of the others still in the tree after that prune — an element's
    tag and attributes do not change, so the scan over the pruned tree selects just those).
    """
    first: list[etree._Element] = []
    second: list[etree._Element] = []
    captions: list[etree._Element] = []
    teasers: list[etree._Element] = []
    by_class: dict[str, tuple[bool, bool]] = {}  # value -> (first expression, second)
    by_id: dict[str, tuple[bool, bool]] = {}
    for el in tree.iterdescendants(etree.Element):  # .//*
        pairs = el.items()
        if not pairs:
            continue
        attrs = dict(pairs)  # one call instead of seven attribute lookups
        klass, ident, style = attrs.get("class"), attrs.get("id"), attrs.get("style")
        class_hits = id_hits = (False, False)
        if klass is not None:
            class_hits = by_class.get(klass) or by_class.setdefault(
                klass, (_DISCARD_CLASS.search(klass), _HIDDEN_CLASS.search(klass))
            )
        if ident is not None:
            id_hits = by_id.get(ident) or by_id.setdefault(
                ident, (_DISCARD_ID.search(ident), _HIDDEN_ID.search(ident))
            )
        named = _first_in(attrs, "id", "class")
        if el.tag in _DISCARD_TAGS and (klass is not None or ident is not None):
            names = f"{ident or ''} {klass or ''}"  # no word below holds a space
            if "caption" in names:
                captions.append(el)
            if "teaser" in names.replace("T", "t"):
                teasers.append(el)
        if el.tag in _DISCARD_TAGS and (
            class_hits[0]
            or id_hits[0]
            or "cookie" in named
            or "data-lp-replacement-content" in attrs
            or "nav" in (attrs.get("role") or "").replace("N", "n")
            or "MostPopularStories" in (attrs.get("data-component") or "")
        ):
            first.append(el)
        if (
            class_hits[1]
            or id_hits[1]
            or klass == "comments-title"
            or named.startswith("reply-")
            or (style is not None and ("display:none" in style or "display: none" in style))
            or "hidden" in _first_in(attrs, "id", "style")
            or attrs.get("aria-hidden") == "true"
        ):
            second.append(el)
    return list(dict.fromkeys(first + second)), captions, teasers


def image_caption_targets(tree: etree._Element) -> list[etree._Element]:
    """The elements ``DISCARD_IMAGE_ELEMENTS`` selects, in document order."""
    return [
        el
        for el in tree.iterdescendants(etree.Element)  # .//*
        if el.tag in _DISCARD_TAGS
        and ("caption" in (el.get("id") or "") or "caption" in (el.get("class") or ""))
    ]


def teaser_targets(tree: etree._Element) -> list[etree._Element]:
    """The elements ``TEASER_DISCARD_XPATH`` selects, in document order."""
    return [
        el
        for el in tree.iterdescendants(etree.Element)  # .//*
        if el.tag in _DISCARD_TAGS
        and (
            "teaser" in (el.get("id") or "").replace("T", "t")
            or "teaser" in (el.get("class") or "").replace("T", "t")
        )
    ]
