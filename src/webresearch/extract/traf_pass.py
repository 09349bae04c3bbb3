"""One trafilatura extraction pass over an already parsed page, faster. Pure functions.

``trafilatura.bare_extraction`` on a tree runs ``trafilatura_sequence`` on a copy of it. A
tenth of our time per page went to three whole-tree scans of that sequence: two prunes of
the raw tree (infinite-scroll and share-button containers, comment sections) and the page
text measure of its recall escalation (``html2txt``). Each is an XPath whose
``re:test(@id, …)``/``re:test(@class, …)`` calls back into Python for every element of the
page. :func:`extraction_pass` runs the same sequence with those three scans as plain loops
over the elements (the same elements, in document order, removed the same way); every other
step is trafilatura's own function, called in trafilatura's order. Two copies of the page
are skipped: the raw tree when the prunes remove nothing (the sequence only reads it after
them), and the cleaned tree that only the second opinions (``fast=False``) and forum
threads read. Measured on half of the WCXB development pages (CPU time, same run): our
median 85 → 77 ms a page, 1.08 → 0.96 × trafilatura's. Later (session 8): one loop for the
raw-tree prunes' check, an upper bound before the page text measure, the second round of
link-density deletions only after a first one deleted something
(:mod:`webresearch.extract.traf_content`): the fast pass 48.9 → 41.5 ms a page on the 72
Zyte development pages (loaded machine, old and new interleaved in one process).

Its tree cleaning is :func:`~webresearch.extract.traf_clean.clean_tree` (trafilatura's
``tree_cleaning`` with one walk for its deletions, the same tree). The sequence is copied from
trafilatura |TRAFILATURA_VERSION| (``core.trafilatura_sequence``
and the parts of ``core.bare_extraction`` that apply to a tree without metadata, language or
deduplication options). With any other trafilatura version :func:`extraction_pass` calls
``bare_extraction`` itself; ``tests/unit/extract/test_traf_pass.py`` checks that both give
the same trees.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from copy import copy, deepcopy
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from lxml import etree

from webresearch.extract.caseless import CaselessPattern
from webresearch.extract.traf_clean import clean_tree
from webresearch.extract.traf_content import PassMemo, extract_and_compare, recall_retry
from webresearch.extract.tree import held_copy

if TYPE_CHECKING:
    from trafilatura.settings import Extractor

__all__ = [
    "TRAFILATURA_VERSION",
    "PassMemo",
    "TrafilaturaResult",
    "basic_cleaning_targets",
    "comment_section_targets",
    "extraction_pass",
    "is_whole_body_dump",
    "page_text_bound",
    "page_text_length",
    "raw_prune_targets",
]

#: The trafilatura release whose extraction sequence this module repeats.
TRAFILATURA_VERSION = "2.3.1"

# trafilatura.xpaths.RAW_TREE_PRUNE_XPATH: infinite-scroll containers (without an <h1>, or
# a Zox News "mvp-post-add" box), then Elementor's share buttons.
_RAW_TAGS = ("div", "section", "aside")
_APPENDED = re.compile(r"mvp-post-add-(?:box|wrap)|infinite-?scroll")
_MVP = re.compile(r"mvp-post-add-(?:box|wrap)")
_SHARE_BUTTONS = "elementor-share-buttons"
# trafilatura.xpaths.REMOVE_COMMENTS_AND_LISTS_XPATH (_COMMENTS_ID, _COMMENTS_CLASS)
_COMMENT_TAGS = ("div", "list", "section", "details", "ol", "ul")
_COMMENTS_ID = "[Cc]omment(?!ary)|comol"
_COMMENT_ID = re.compile(f"^(?:{_COMMENTS_ID}|disqus_thread|dsq-comments)")
_COMMENT_LIST_ID = re.compile(f"^(?:{_COMMENTS_ID})")
_COMMENT_CLASS = re.compile("^[Cc]omment(?!ary)|(?:article|post)-comments")
_PRUNE_TAGS = ("div", "section", "aside", "list", "details", "ol", "ul")
_PRUNE_WORDS = (
    "omment", "scroll", "mvp-post-add-", "elementor-share-buttons", "comol", "disqus_thread"
)  # fmt: skip
# trafilatura.settings.BASIC_CLEAN_XPATH (_COOKIE_CONSENT_RE, matched case-insensitively)
_CLEANED_TAGS = frozenset({"aside", "fencedframe", "footer", "script", "style", "svg", "template"})
_COOKIE_CONSENT = CaselessPattern(
    "cookie[-_]?(?:banner|bar|consent|law|notice|policy|description)|notice[-_]{0,2}cookie"
    "|consent[-_]?(?:banner|manager|sdk)|borlabs|cookiebot|cmplz|onetrust|moove[-_]?gdpr"
)


@dataclass(frozen=True, slots=True)
class TrafilaturaResult:
    """What trafilatura kept of a page (its XML: ``p``, ``head``, ``list``/``item``, ``hi``…).

    Attributes:
        body: the main content's tree (a ``<body>`` element).
        comments: the comment section's tree (an empty ``<body>`` without comments).
        whole_body: ``body`` is trafilatura's last resort (:func:`is_whole_body_dump`): the
            text of the whole page, found no main content in it.
    """

    body: etree._Element
    comments: etree._Element
    whole_body: bool = False


def is_whole_body_dump(body: etree._Element) -> bool:
    """Whether ``body`` (a tree trafilatura kept) is its baseline's last resort: one ``<p>``
    holding the text of the page's whole ``<body>`` (navigation, banner, every control's
    label), one text run a line (``baseline.baseline``, "default strategy").

    trafilatura falls back on its baseline when its extraction keeps fewer than
    ``min_extracted_size`` (250) characters; the baseline's other sources (JSON-LD bodies,
    ``<article>``s, paragraphs, a product's description) write each text whitespace-collapsed
    (``trim``, ``block_text``): only the whole body's text, its runs joined with newlines,
    holds one. It is no decision about the content: the whole page, less than a reader sees
    of it (no headings, no links, no item separated from the next).
    """
    if len(body) != 1:
        return False
    only = body[0]
    return only.tag == "p" and not len(only) and "\n" in (only.text or "")


def extraction_pass(
    doc: etree._Element,
    fast: bool,
    comments: bool,
    memo: PassMemo | None = None,
    url: str = "",
) -> TrafilaturaResult | None:
    """``trafilatura.bare_extraction(doc, fast=fast, include_comments=comments,
    output_format="txt")``, default settings otherwise, as trees.

    Args:
        doc: the parsed page (an ``lxml.html`` ``<html>`` element); it is not modified.
        fast: skip trafilatura's second opinions (readability-lxml, jusText).
        comments: extract the comment section too.
        memo: shared by the passes over one page (the same ``doc`` and ``comments``): a
            later pass reuses what an earlier one found that ``fast`` does not change
            (:class:`~webresearch.extract.traf_content.PassMemo`); unused with ``comments``.
        url: the page's address (``""``: unknown), trafilatura's ``url``: it reads it for
            nothing but the lists of citations its link density test keeps
            (:mod:`webresearch.extract.link_lists`; links are not converted, images not kept).

    Returns:
        the kept trees, or ``None`` when trafilatura keeps nothing.

    Raises:
        whatever trafilatura raises besides ``ValueError`` and ``TypeError`` (which mean
        "nothing kept", as in ``bare_extraction``).
    """
    import trafilatura

    if trafilatura.__version__ != TRAFILATURA_VERSION:
        result = trafilatura.bare_extraction(
            doc, url=url or None, include_comments=comments, fast=fast, output_format="txt"
        )
        body = getattr(result, "body", None)  # a Document (a dict only with as_dict=True)
        if body is None:
            return None
        thread = getattr(result, "commentsbody", None)
        thread = etree.Element("body") if thread is None else thread
        return TrafilaturaResult(body, thread, is_whole_body_dump(body))
    options = copy(_extractor(fast, comments))  # a copy: the settings are never shared
    options.url = url or None
    try:
        body, text, thread, thread_text, dump = _sequence(doc, options, memo)
    except (TypeError, ValueError):
        return None
    if len(text) < options.min_output_size and len(thread_text) < options.min_output_comm_size:
        return None
    return TrafilaturaResult(body, thread, dump)


@cache
def _extractor(fast: bool, comments: bool) -> Extractor:
    """trafilatura's default settings for a pass, made once: ``Extractor()`` reads nine
    values from its ``ConfigParser`` and formats today's date (0.7 ms on a loaded machine,
    once or twice a page); a copy takes 0.06 ms. Nothing of the pass reads the date (it is
    for metadata extraction)."""
    from trafilatura.settings import Extractor

    return Extractor(output_format="txt", fast=fast, comments=comments)


def _prune_candidates(tree: etree._Element) -> list[etree._Element]:
    """The descendants the raw-tree prunes could select, in document order: one loop for
    both scans (instead of three), and a substring test before any regex. Every match of
    :data:`_APPENDED`, :data:`_SHARE_BUTTONS`, :data:`_COMMENT_ID` or
    :data:`_COMMENT_CLASS` holds one of :data:`_PRUNE_WORDS` (``infinite-?scroll`` holds
    ``scroll``, ``dsq-comments`` and ``[Cc]omment`` hold ``omment``). On 222 development
    pages the check that nothing is pruned took 1.0 instead of 2.0 ms (loaded machine)."""
    found = []
    for el in tree.iterdescendants(*_PRUNE_TAGS):
        names = f"{el.get('id') or ''} {el.get('class') or ''}"
        for word in _PRUNE_WORDS:
            if word in names:
                found.append(el)
                break
    return found


def _appended(el: etree._Element) -> bool:
    """The first expression of ``RAW_TREE_PRUNE_XPATH`` selects ``el`` (if of its tags)."""
    return _either(_APPENDED, el) and (el.find(".//h1") is None or _either(_MVP, el))


def raw_prune_targets(tree: etree._Element) -> Iterator[list[etree._Element]]:
    """The elements ``RAW_TREE_PRUNE_XPATH`` selects, one list per expression, in document
    order; remove each list's elements before asking for the next list."""
    yield [el for el in _prune_candidates(tree) if el.tag in _RAW_TAGS and _appended(el)]
    yield [
        el
        for el in _prune_candidates(tree)
        if el.tag in _RAW_TAGS and _SHARE_BUTTONS in (el.get("class") or "")
    ]


def comment_section_targets(tree: etree._Element) -> list[etree._Element]:
    """The elements ``REMOVE_COMMENTS_AND_LISTS_XPATH`` selects, in document order: comment
    sections, and ``<ol>``/``<ul>`` lists that are one (not by a Disqus id alone)."""
    return _comment_sections(_prune_candidates(tree))


def _comment_sections(candidates: list[etree._Element]) -> list[etree._Element]:
    found = []
    for el in candidates:
        if el.tag not in _COMMENT_TAGS:
            continue
        ident, klass = el.get("id") or "", el.get("class") or ""
        by_class = _COMMENT_CLASS.search(klass) is not None
        if not by_class and _COMMENT_ID.search(ident) is None:
            continue
        if el.tag in ("ol", "ul") and not by_class and _COMMENT_LIST_ID.search(ident) is None:
            continue
        found.append(el)
    return found


def basic_cleaning_targets(body: etree._Element) -> list[etree._Element]:
    """The elements ``BASIC_CLEAN_XPATH`` selects under ``body``, in document order: asides,
    footers, scripts, styles, SVG, templates, ``<div>``s whose class (or id, whichever
    comes first) says footer, and cookie banners."""
    found = []
    for el in body.iterdescendants():
        tag = el.tag
        if not isinstance(tag, str):
            continue
        if tag in _CLEANED_TAGS:
            found.append(el)
            continue
        klass, ident = el.get("class"), el.get("id")
        if klass is None and ident is None:
            continue
        if (
            (tag == "div" and "footer" in _first_class_or_id(el))
            or (klass is not None and _COOKIE_CONSENT.search(klass))
            or (ident is not None and _COOKIE_CONSENT.search(ident))
        ):
            found.append(el)
    return found


def _either(pattern: re.Pattern[str], el: etree._Element) -> bool:
    """``re:test(@id, pattern) or re:test(@class, pattern)``."""
    return bool(pattern.search(el.get("id") or "") or pattern.search(el.get("class") or ""))


def _first_class_or_id(el: etree._Element) -> str:
    """The string value of the node set ``@class|@id``: the one written first."""
    for name, value in el.attrib.items():
        if name in ("class", "id"):
            return str(value)
    return ""


def _remove(elements: Iterable[etree._Element]) -> None:
    from trafilatura.xml import delete_element

    for el in elements:
        delete_element(el)


def page_text_length(tree: etree._Element) -> int:
    """``len(trafilatura.baseline.html2txt(tree))``: the length of the page's text without
    asides, footers, scripts and cookie banners, whitespace-collapsed. ``html2txt`` copies
    the whole page and reads its ``<body>`` only: the ``<body>`` alone is copied."""
    from trafilatura.baseline import _spaced_text

    body = tree.find(".//body")
    page = copy(tree if body is None else body)
    _remove(basic_cleaning_targets(page))
    return len(_spaced_text(page))


def page_text_bound(tree: etree._Element) -> int:
    """An upper bound of :func:`page_text_length`, without copying or scanning the page.

    ``html2txt`` pads the text and the tail of every block element with a space, deletes
    elements (keeping their tails), drops some characters (``remove_control_characters``)
    and collapses whitespace: only the padding adds characters, at most two per block
    element, and the deleted scripts and styles (childless: their text is all they hold)
    take their text with them. So the text of the ``<body>``, minus that of its childless
    scripts and styles, plus two per block element, is never less. trafilatura measures
    the page only to see whether its extraction is under a fifth of it: on 33 of the 51
    pages of 222 development pages where it was measured and the answer was no, this
    bound already says no.

    The whitespace collapse is counted too (session 16): deleting characters never
    lengthens a text's collapsed form (no word is split, runs of spaces only merge), and
    each padding space lengthens it by one at most; so the collapsed length of the whole
    ``<body>`` text plus two per block element is a bound as well, and the smaller of the
    two is taken: indentation is much of a page's raw text.
    """
    from trafilatura.baseline import _BLOCK_ELEMS

    body = tree.find(".//body")
    if body is None:
        body = tree
    text = etree.tostring(body, method="text", encoding="unicode", with_tail=False)
    scripts = sum(len(el.text or "") for el in body.iter("script", "style") if not len(el))
    padding = 2 * sum(1 for _ in body.iter(*_BLOCK_ELEMS))
    words = text.split()
    collapsed = sum(map(len, words)) + max(len(words) - 1, 0)
    return min(len(text) - scripts, collapsed) + padding


def _pruned(
    doc: etree._Element, comments: bool, held: list[etree._Element] | None = None
) -> etree._Element:
    """A copy of ``doc`` pruned as trafilatura prunes the raw tree (without its comment
    sections when ``comments``), or ``doc`` itself when nothing is pruned: after the prunes
    the sequence only reads this tree (each step that changes it takes its own copy).
    ``held``: gets the copy's elements (:func:`~webresearch.extract.tree.held_copy`)."""
    candidates = _prune_candidates(doc)
    raw = any(
        el.tag in _RAW_TAGS and (_appended(el) or _SHARE_BUTTONS in (el.get("class") or ""))
        for el in candidates
    )
    if not raw and not (comments and _comment_sections(candidates)):
        return doc
    tree = copy(doc) if held is None else held_copy(doc, held)
    for targets in raw_prune_targets(tree):
        _remove(targets)
    if comments:
        _remove(comment_section_targets(tree))
    return tree


def _measured(tree: etree._Element, memo: PassMemo | None, bound: bool) -> int:
    """:func:`page_text_bound` (``bound``) or :func:`page_text_length` of ``tree``, read
    from ``memo`` when a pass over the page measured it."""
    if memo is None:
        return page_text_bound(tree) if bound else page_text_length(tree)
    if bound:
        if memo.bound is None:
            memo.bound = page_text_bound(tree)
        return memo.bound
    if memo.length is None:
        memo.length = page_text_length(tree)
    return memo.length


def _sequence(
    doc: etree._Element, options: Extractor, memo: PassMemo | None = None
) -> tuple[etree._Element, str, etree._Element, str, bool]:
    """``trafilatura.core.trafilatura_sequence(copy(doc), options)`` (module docstring);
    ``doc`` is not modified. The last item: the body kept is the baseline's whole-body
    text (:func:`is_whole_body_dump`). ``memo``: what an earlier pass over ``doc`` found
    (:class:`~webresearch.extract.traf_content.PassMemo`); not read or filled with
    comments (they change the tree before the main extractor) or another focus."""
    from trafilatura.baseline import baseline
    from trafilatura.core import (
        ESCALATION_ACCEPT_RATIO,
        ESCALATION_JUSTEXT_RATIO,
        ESCALATION_MAX_LENGTH,
        ESCALATION_PAGE_SHARE,
        _forum_thread_page,
    )
    from trafilatura.external import justext_rescue
    from trafilatura.htmlprocessing import convert_tags, prune_unwanted_nodes
    from trafilatura.main_extractor import _elem_text, extract_comments
    from trafilatura.xpaths import REMOVE_COMMENTS_AND_LISTS_XPATH, REMOVE_COMMENTS_XPATH

    url = options.url
    held: list[etree._Element] = []  # its copies' elements, held for the pass (tree.held_copy)
    if options.comments or options.focus != "balanced":
        memo = None
    if memo is not None and memo.tree is not None:
        is_forum, tree = memo.forum, memo.tree  # read-only below: each change takes a copy
    else:
        is_forum = _forum_thread_page(doc)
        prune_comments = not options.comments and (options.focus == "precision" or not is_forum)
        tree = _pruned(doc, prune_comments, held)
        if memo is not None:
            memo.forum, memo.tree = is_forum, tree
    cleaned_tree: etree._Element | None
    if memo is not None and options.focus in memo.extracted:
        # the main extractor's answer is known: only the second opinions read a tree
        cleaned_tree = None
        cleaned_tree_backup = None if options.fast else clean_tree(held_copy(tree, held), options)
    else:
        cleaned_tree = clean_tree(held_copy(tree, held), options)
        # the cleaned tree before conversion: read by the second opinions and on forum
        # threads (trafilatura copies it always; unread, it is the cleaned tree itself here)
        backup_needed = not options.fast or (options.comments and is_forum)
        cleaned_tree_backup = held_copy(cleaned_tree, held) if backup_needed else cleaned_tree
        cleaned_tree = convert_tags(cleaned_tree, options, url)

    commentsbody, temp_comments = etree.Element("body"), ""
    forum_posts = None
    dump = False
    if options.comments and cleaned_tree is not None:  # (no memo with comments)
        commentsbody, temp_comments, cleaned_tree = extract_comments(cleaned_tree, options)
        if temp_comments and is_forum:
            forum_posts = commentsbody
            commentsbody, temp_comments = etree.Element("body"), ""
            cleaned_tree = convert_tags(held_copy(cleaned_tree_backup, held), options, url)
    if options.focus == "precision" and not is_forum and cleaned_tree is not None:
        cleaned_tree = prune_unwanted_nodes(cleaned_tree, REMOVE_COMMENTS_XPATH)

    def rebuild() -> etree._Element:  # the converted tree again, when nothing else changed it
        return convert_tags(clean_tree(held_copy(tree, held), options), options, url)

    unchanged = not options.comments and options.focus != "precision"
    postbody, temp_text = extract_and_compare(
        cleaned_tree, cleaned_tree_backup, tree, options, rebuild if unchanged else None, memo
    )

    if len(temp_text) < options.min_extracted_size and options.focus != "precision":
        if memo is None:
            b_body, b_text, b_len = baseline(tree)
        else:
            if memo.baseline is None:
                b_body, b_text, b_len = baseline(tree)
                memo.baseline = (deepcopy(b_body), b_text, b_len)
            b_body, b_text, b_len = memo.baseline
            b_body = deepcopy(b_body)
        if b_len > len(temp_text):
            postbody, temp_text = b_body, b_text
            forum_posts = None
            dump = is_whole_body_dump(b_body)

    if (
        options.focus == "balanced"
        and 0 < len(temp_text) < ESCALATION_MAX_LENGTH
        and len(temp_text) < ESCALATION_PAGE_SHARE * _measured(tree, memo, bound=True)
        and len(temp_text) < ESCALATION_PAGE_SHARE * _measured(tree, memo, bound=False)
    ):
        r_options = copy(options)
        r_options.focus = "recall"
        esc_tree = (
            tree
            if is_forum or not options.comments
            else prune_unwanted_nodes(
                copy(tree),
                REMOVE_COMMENTS_AND_LISTS_XPATH if temp_comments else REMOVE_COMMENTS_XPATH,
            )
        )
        r_text = ""
        try:
            r_body, r_text = recall_retry(esc_tree, r_options, url, memo)
        except Exception:  # pragma: no cover - as trafilatura: a failed retry is no retry
            r_text = ""
        j_text = ""
        if not options.fast:
            try:
                j_body, j_text = justext_rescue(copy(esc_tree), options)
            except Exception:  # pragma: no cover - as trafilatura
                j_text = ""
        len_text, r_len, j_len = len(temp_text), len(r_text), len(j_text)
        if j_len > r_len and j_len > ESCALATION_JUSTEXT_RATIO * len_text:
            postbody, temp_text, forum_posts, dump = j_body, j_text, None, False
        elif r_len >= options.min_extracted_size and r_len > ESCALATION_ACCEPT_RATIO * len_text:
            postbody, temp_text, forum_posts, dump = r_body, r_text, None, False

    if forum_posts is not None:
        existing = "\n".join(filter(None, (_elem_text(el) for el in postbody)))
        salvaged = [el for el in forum_posts if (t := _elem_text(el)) and t not in existing]
        if salvaged:
            postbody.extend(salvaged)
            temp_text = " ".join(postbody.itertext()).strip()

    return postbody, temp_text, commentsbody, temp_comments, dump
