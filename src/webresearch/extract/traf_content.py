"""trafilatura's main extractor without its slowest XPath scans. Pure functions over lxml trees.

trafilatura's main extractor (``main_extractor.extract_content``) looks for the article
frame with the five ``BODY_XPATH`` expressions and prunes it with ``OVERALL_DISCARD_XPATH``
(twice, over the frame), ``DISCARD_IMAGE_ELEMENTS`` and ``TEASER_DISCARD_XPATH``; the wild
text recovery prunes the whole page the same way. Most of these XPaths call
``re:test(@id, …)``/``re:test(@class, …)`` — a call back into Python for every element — and
they were a third of our time per page (issue 13, measured on every third WCXB + Zyte
development page: 105 of 433 ms a page in ``_extract`` and ``prune_unwanted_nodes``).

:func:`extract_and_compare` and :func:`recall_retry` run trafilatura's own
``core._extract_and_compare`` and ``core._recall_retry`` with those scans as plain loops
over the elements: the same elements, in the same order, are selected (the first one for a
frame), so trafilatura's trees are the same; every other step is trafilatura's own
function, called in trafilatura's order. The code is copied from trafilatura
:data:`~webresearch.extract.traf_pass.TRAFILATURA_VERSION` (``main_extractor._extract``,
``extract_content``, ``prune_unwanted_sections``, ``recover_wild_text``, and the
``core`` helpers above), the expressions from its ``xpaths.py``;
``tests/unit/extract/test_traf_content.py`` checks each scan against its XPath, and
:mod:`webresearch.extract.traf_pass` uses this module only with that version.

The loops are in :mod:`webresearch.extract.traf_scans`; the link density deletions, each text
read once, in :mod:`webresearch.extract.traf_links`, and the tree cleaning, one walk for its
deletions, in :mod:`webresearch.extract.traf_clean` (session 17: the same trees, faster).

A page's second pass (trafilatura's full pass after its fast one: the fast pass kept little,
or left holes, :mod:`webresearch.extract.main_content`) reads the same tree with the same
settings but ``fast``, and ``fast`` changes only the second opinions and, in the balanced
focus, what the wild text recovery prunes (``keep_teasers``): the main extractor's answer
is the same, unless that recovery ran on a tree with teasers.
A :class:`PassMemo` carries the first pass's answers (the main extractor's, the recall
retry's, the baseline's, the page text measures) to the second one, which then only adds
its second opinions.

Licence: the copied functions are trafilatura's (© Adrien Barbaresi and contributors,
Apache License 2.0, https://github.com/adbar/trafilatura), changed here as described above.
"""

from __future__ import annotations

from collections.abc import Callable
from copy import copy, deepcopy
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from lxml import etree

from webresearch.extract.link_lists import site_of
from webresearch.extract.traf_clean import clean_tree
from webresearch.extract.traf_links import delete_by_link_density, linking_elements
from webresearch.extract.traf_scans import (
    body_frame_finders,
    discard_scan,
    teaser_targets,
)
from webresearch.extract.tree import held_copy

if TYPE_CHECKING:
    from trafilatura.settings import Extractor

__all__ = [
    "PassMemo",
    "extract_and_compare",
    "extract_content",
    "recall_retry",
    "wild_text_candidates",
]


@dataclass(slots=True)
class PassMemo:
    """What one page's trafilatura passes without comments share (module docstring): each
    is the same for a fast and a full pass over the same page. Trees are stored and handed
    out as copies (a pass's caller may change the tree it gets).

    Attributes:
        tree: the raw tree after trafilatura's prunes, and ``forum``: whether the page is a
            forum thread (``core._forum_thread_page``); ``None`` until a pass ran.
        extracted: the main extractor's tree and text by focus (``balanced``: unless its wild
            text recovery ran on a tree with teasers, which ``fast`` keeps; ``recall``: the
            recall retry's).
        baseline: ``baseline.baseline`` of ``tree``.
        bound: :func:`~webresearch.extract.traf_pass.page_text_bound` of ``tree``, and
            ``length``: ``page_text_length``.
    """

    tree: etree._Element | None = None
    forum: bool = False
    extracted: dict[str, tuple[etree._Element, str]] = field(default_factory=dict)
    baseline: tuple[etree._Element, str, int] | None = None
    bound: int | None = None
    length: int | None = None


def _prune_nodes(tree: etree._Element, targets: list[etree._Element]) -> None:
    """``htmlprocessing.prune_unwanted_nodes`` without a backup: each target deleted."""
    from trafilatura.xml import delete_element

    for el in targets:
        delete_element(el)  # the tail text is preserved


def _prune_guarded(tree: etree._Element, matches: list[etree._Element]) -> None:
    """``prune_unwanted_nodes(…, with_backup=True)``: nothing pruned when it would remove
    all but a seventh of the text."""
    from trafilatura.xml import delete_element

    selected = dict.fromkeys(matches)
    outer = [el for el in selected if not any(a in selected for a in el.iterancestors())]
    old_len = len(tree.text_content())
    if old_len - sum(len(el.text_content()) for el in outer) > old_len / 7:
        for el in outer:
            delete_element(el)


def _still_in(tree: etree._Element, elements: list[etree._Element]) -> list[etree._Element]:
    """The ``elements`` (descendants of ``tree`` once) not deleted with an ancestor since."""
    found = []
    for el in elements:
        node = el.getparent()
        while node is not None and node is not tree:
            node = node.getparent()
        if node is tree:
            found.append(el)
    return found


def _prune_sections(
    tree: etree._Element, potential_tags: set[str], options: Extractor, keep_teasers: bool = False
) -> etree._Element:
    """``main_extractor.prune_unwanted_sections``."""
    from trafilatura.htmlprocessing import link_density_test_tables, prune_unwanted_nodes
    from trafilatura.xml import delete_element
    from trafilatura.xpaths import PRECISION_DISCARD_XPATH

    favor_precision = options.focus == "precision"
    discarded, captions, teasers = discard_scan(tree)  # one walk for the three scans
    _prune_guarded(tree, discarded)
    if "graphic" not in potential_tags:
        _prune_nodes(tree, _still_in(tree, captions))
    if options.focus != "recall":
        if not keep_teasers:
            _prune_nodes(tree, _still_in(tree, teasers))
        if favor_precision:
            tree = prune_unwanted_nodes(tree, PRECISION_DISCARD_XPATH)
    linking = linking_elements(tree)  # a superset of them after deletions (traf_links.py)
    site = site_of(options.url or "")  # lists of citations stay (link_lists.py)
    for _ in range(2):  # a second round only when the first deleted something
        deleted = delete_by_link_density(tree, "div", True, favor_precision, linking, site)
        deleted |= delete_by_link_density(tree, "list", False, favor_precision, linking, site)
        deleted |= delete_by_link_density(tree, "p", False, favor_precision, linking, site)
        if not deleted:
            break
    if "table" in potential_tags or favor_precision:
        tables = [el for el in tree.iter("table") if link_density_test_tables(el) is True]
        for el in tables:
            delete_element(el, keep_tail=False)
    if favor_precision:
        while len(tree) > 0 and (tree[-1].tag == "head"):
            delete_element(tree[-1], keep_tail=False)
        delete_by_link_density(tree, "head", False, True, linking)
        delete_by_link_density(tree, "quote", False, True, linking)
    etree.strip_tags(tree, "span", *(() if "ref" in potential_tags else ("ref",)))
    return tree


def _extract(tree: etree._Element, options: Extractor) -> tuple[etree._Element, str, set[str]]:
    """``main_extractor._extract``."""
    from trafilatura.htmlprocessing import process_node
    from trafilatura.main_extractor import NOT_AT_THE_END, REBUILT_BLOCKS, handle_textelem
    from trafilatura.settings import INLINE_FORMATTABLE, TAG_CATALOG
    from trafilatura.utils import text_chars_test
    from trafilatura.xml import delete_element

    potential_tags = set(TAG_CATALOG)
    if options.tables is True:
        potential_tags.update(["table", "td", "th", "tr"])
    if options.images is True:
        potential_tags.add("graphic")
    if options.links is True:
        potential_tags.add("ref")
    result_body = etree.Element("body")
    for find_frame in body_frame_finders():
        subtree = find_frame(tree)
        if subtree is None:
            continue
        subtree = _prune_sections(subtree, potential_tags, options)
        if len(subtree) == 0:
            continue
        ptest = subtree.xpath("//p//text()")
        factor = 1 if options.focus == "precision" else 3
        if not ptest or len("".join(ptest)) < options.min_extracted_size * factor:
            potential_tags.add("div")
        subelems = subtree.xpath(".//*")
        tags = {e.tag for e in subelems}
        if tags == {"lb"} or (
            subtree.tag == "div" and "div" in potential_tags and tags <= INLINE_FORMATTABLE | {"lb"}
        ):
            subelems = [subtree]
        lead, start = None, len(result_body)
        if subelems != [subtree] and text_chars_test(subtree.text):
            lead = etree.Element("p")
            lead.text = subtree.text
            lead = process_node(lead, options)
        for elem in subelems:
            if elem.getroottree().getroot() is result_body:
                continue
            tag, tail = elem.tag, elem.tail
            processed_elem = handle_textelem(elem, potential_tags, options)
            if processed_elem is not None:
                result_body.append(processed_elem)
                if elem.getroottree().getroot() is not result_body:
                    elem.tag = "done"
            if (
                tag in REBUILT_BLOCKS
                and text_chars_test(tail)
                and (processed_elem is None or processed_elem.tail is None)
            ):
                tail_elem = etree.Element("p")
                tail_elem.text = tail
                if process_node(tail_elem, options) is not None:
                    result_body.append(tail_elem)
        while len(result_body) > 0 and (result_body[-1].tag in NOT_AT_THE_END):
            delete_element(result_body[-1], keep_tail=False)
        if sum(e.tag != "graphic" for e in result_body) > 1:
            if lead is not None:
                result_body.insert(start, lead)
            break
    temp_text = " ".join(result_body.itertext()).strip()
    return result_body, temp_text, potential_tags


def wild_text_candidates(tree: etree._Element, recall: bool) -> list[etree._Element]:
    """The elements trafilatura's ``recover_wild_text`` looks at, in document order: its
    XPath ``.//code|.//p|.//quote|.//table|.//div[contains(@class, 'w3-code')]`` (with
    ``|.//div|.//lb|.//list`` in recall mode) as one walk. libxml2 merges the node sets of
    a union with a duplicate check per node, quadratic in their size: on a 2 MB page of
    paragraphs the XPath alone took seconds, the walk takes milliseconds."""
    tags = (
        ("code", "p", "quote", "table", "div", "lb", "list")
        if recall
        else ("code", "p", "quote", "table", "div")
    )
    found: list[etree._Element] = []
    for el in tree.iter(*tags):
        if el is tree:
            continue  # ``.//``: descendants only
        if el.tag == "div" and not recall and "w3-code" not in (el.get("class") or ""):
            continue
        found.append(el)
    return found


def _recover_wild_text(
    tree: etree._Element,
    result_body: etree._Element,
    options: Extractor,
    potential_tags: set[str],
    consumed: set[etree._Element],
) -> etree._Element:
    """``main_extractor.recover_wild_text``."""
    from trafilatura.main_extractor import _elem_text, handle_textelem
    from trafilatura.settings import DEDUPE_SCAN_CAP, MIN_DUPLICATE_LENGTH
    from trafilatura.utils import text_chars_test, trim

    potential_tags = set(potential_tags)
    recall = options.focus == "recall"
    if recall:
        potential_tags.update(["div", "lb"])
    search_tree = _prune_sections(tree, potential_tags, options, keep_teasers=options.fast)
    subelems = wild_text_candidates(search_tree, recall)
    elem_texts = [_elem_text(el) for el in result_body]
    existing = "\n".join(filter(None, elem_texts))
    existing_elems = set(elem_texts)
    handled: set[etree._Element] = set()
    for subelem in subelems:
        if (consumed and subelem in consumed) or any(a in handled for a in subelem.iterancestors()):
            continue
        processed = handle_textelem(subelem, potential_tags, options)
        if processed is None:
            continue
        if processed is subelem:
            handled.add(subelem)
        text = _elem_text(processed)
        images = {img.get("src") for img in processed.iter("graphic")}
        if not text and images and images <= {g.get("src") for g in result_body.iter("graphic")}:
            continue
        under_cap = len(existing) <= DEDUPE_SCAN_CAP
        fragment = trim(text + (processed.tail or "")) if text_chars_test(processed.tail) else ""
        if text and (
            text in existing_elems
            or (
                under_cap
                and (
                    (len(text) > MIN_DUPLICATE_LENGTH and text in existing)
                    or (fragment and fragment in existing)
                )
            )
        ):
            continue
        result_body.append(processed)
        if under_cap:
            existing += "\n" + (fragment or text)
        existing_elems.add(text)
    return result_body


def extract_content(
    cleaned_tree: etree._Element,
    options: Extractor,
    rebuild: Callable[[], etree._Element] | None = None,
    memo: PassMemo | None = None,
) -> tuple[etree._Element, str]:
    """``main_extractor.extract_content``: the main content of a cleaned, converted tree
    (which it changes) as trafilatura's XML, and its text.

    trafilatura copies the tree before extracting, for its wild text recovery, which runs
    on few pages (2 of 82 passes over the Zyte development pages): ``rebuild``, when given,
    makes that tree again (the same steps on the same input give the same tree), and the
    copy is taken only then. ``memo``: the answer is stored there for the page's next pass
    (:class:`PassMemo`), unless ``fast`` could change it: the wild text recovery in the
    balanced focus, on a tree with teasers (``TEASER_DISCARD_XPATH``), which the fast
    setting keeps.
    """
    from trafilatura.main_extractor import _elem_text
    from trafilatura.settings import MIN_DUPLICATE_LENGTH
    from trafilatura.utils import SPACING_PROTECTED, text_chars_test
    from trafilatura.xml import delete_element

    if rebuild is None:
        copied = deepcopy(cleaned_tree)

        def rebuild() -> etree._Element:
            return copied

    order = list(cleaned_tree.iter())
    result_body, temp_text, potential_tags = _extract(cleaned_tree, options)
    # the answer holds for a pass with the other ``fast`` setting (module docstring) unless
    # the wild text recovery runs in the balanced focus on a tree with teasers: ``fast``
    # keeps them there (``keep_teasers``), and its prunes only remove elements
    storable = memo is not None
    if len(result_body) == 0 or len(temp_text) < options.min_extracted_size:
        backup_tree = rebuild()
        if storable and options.focus != "recall":
            storable = not teaser_targets(backup_tree)
        consumed = {
            twin for elem, twin in zip(order, backup_tree.iter(), strict=True) if elem.tag == "done"
        }
        result_body = _recover_wild_text(
            backup_tree, result_body, options, potential_tags, consumed
        )
        temp_text = " ".join(result_body.itertext()).strip()
    previous = None
    for el in list(result_body):
        current = _elem_text(el)
        if current and current == previous and len(current) > MIN_DUPLICATE_LENGTH:
            delete_element(el, keep_tail=False)
        else:
            previous = current
    etree.strip_elements(result_body, "done")
    etree.strip_tags(result_body, "div")
    for linebreak in result_body.iter("lb"):
        if (
            linebreak.tail
            and not text_chars_test(linebreak.tail)
            and not any(anc.tag in SPACING_PROTECTED for anc in linebreak.iterancestors())
        ):
            linebreak.tail = None
    if memo is not None and storable:
        memo.extracted[options.focus] = (deepcopy(result_body), temp_text)
    return result_body, temp_text


def extract_and_compare(
    cleaned_tree: etree._Element | None,
    cleaned_tree_backup: etree._Element | None,
    tree: etree._Element,
    options: Extractor,
    rebuild: Callable[[], etree._Element] | None = None,
    memo: PassMemo | None = None,
) -> tuple[etree._Element, str]:
    """``core._extract_and_compare``: the main extractor, then (unless ``options.fast``)
    trafilatura's comparison with readability-lxml and jusText.

    Args:
        cleaned_tree: the cleaned, converted tree; ``None`` when ``memo`` holds the main
            extractor's answer for ``options.focus`` (:class:`PassMemo`).
        cleaned_tree_backup: the cleaned tree before its conversion (for jusText; ``None``
            when ``options.fast``).
        rebuild: makes ``cleaned_tree`` again, as it is now (see :func:`extract_content`).
        memo: what the page's passes share.

    Returns:
        the kept tree (trafilatura's XML) and its text.
    """
    from trafilatura.external import compare_extraction

    known = memo.extracted.get(options.focus) if memo is not None else None
    if known is not None:
        postbody, temp_text = deepcopy(known[0]), known[1]
    else:
        assert cleaned_tree is not None  # given whenever the memo lacks it
        postbody, temp_text = extract_content(cleaned_tree, options, rebuild, memo)
    if not options.fast:
        assert cleaned_tree_backup is not None  # taken for the full pass
        postbody, temp_text = compare_extraction(
            cleaned_tree_backup, copy(tree), postbody, temp_text, options
        )
    return postbody, temp_text


def recall_retry(
    esc_tree: etree._Element, r_options: Extractor, url: str | None, memo: PassMemo | None = None
) -> tuple[etree._Element, str]:
    """``core._recall_retry``: the main extractor again, on a fresh cleaned copy of
    ``esc_tree``, with ``r_options`` (trafilatura's recall focus). The copy of the cleaned
    tree before its conversion is taken only for the second opinions (``fast=False``), the
    only readers of it.

    With the recall answer in ``memo`` (:class:`PassMemo`; ``esc_tree`` is then the page's
    pruned tree) no tree is cleaned unless the second opinions read it: they are skipped
    for a recall text over ten times ``min_extracted_size`` (``compare_extraction``'s first
    test)."""
    from trafilatura.htmlprocessing import convert_tags

    held: list[etree._Element] = []  # the copies' elements, held for the retry (tree.held_copy)

    def rebuild() -> etree._Element:
        return convert_tags(clean_tree(held_copy(esc_tree, held), r_options), r_options, url)

    known = memo.extracted.get(r_options.focus) if memo is not None else None
    if known is not None:
        if r_options.fast or len(known[1]) > r_options.min_extracted_size * 10:
            return deepcopy(known[0]), known[1]  # what extract_and_compare would give
        backup = clean_tree(held_copy(esc_tree, held), r_options)
        return extract_and_compare(None, backup, esc_tree, r_options, None, memo)
    cleaned = clean_tree(held_copy(esc_tree, held), r_options)
    backup = cleaned if r_options.fast else held_copy(cleaned, held)
    cleaned = convert_tags(cleaned, r_options, url)
    return extract_and_compare(cleaned, backup, esc_tree, r_options, rebuild, memo)
