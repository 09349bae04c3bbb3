"""Scrolling tickers (marquees) read once. Pure functions over an lxml tree.

A ticker that scrolls a call to action across the screen ("Book now ✱ Book now ✱ …",
"Secure your spot — enrol now" on a course page, "Lifetime guarantee" on a shop's banner)
repeats the same short item as sibling elements, many copies in a row, so that the
animation loops without a gap. A reader sees one phrase sliding by; the markup holds it
dozens or hundreds of times (one WCXB service page: 650 copies, three quarters of the words
extracted). :func:`collapse_marquees` keeps the first copy of every run of at least
:data:`MIN_COPIES` consecutive sibling elements with the same tag and the same short text
(at most :data:`MAX_ITEM_WORDS` words) and removes the others.

Five copies, not four: a list of four "Yes" answers or a poem's refrain four times is the
page's own repetition (a fresh reviewer's pages); the dev pages' tickers run 5 to 100
copies, while runs of exactly four are mixed ("Follow" buttons, "Sold out" labels).
Table rows and cells are never collapsed (a column of "Yes" or "PDF" values is data, and
the ground truth keeps it), nor are runs with text between the copies (a sentence that
mentions the phrase again). Source of the rule: the WCXB dev pages whose output repeats a
phrase of up to six words at least four times in a row (service 0717 and 0117, product 2981
and 3022 are tickers; the others are table cells). Of the 57 runs on the whole of the dev
pages (the rule reads only the chosen content), the words of the removed copies are in the
ground truth at most once or twice ("Lifetime guarantee", "Free to play", "Follow": the kept
copy has them). WCXB dev: service 0.805 → 0.807 (0717 0.19 → 0.33), collection +0.001,
product +0.0002, the other types and Zyte dev unchanged (6 pages change; 0117 −0.001).
"""

from __future__ import annotations

from lxml import etree

from webresearch.extract.align import normalise
from webresearch.extract.tree import remove_keep_tail

__all__ = ["MAX_ITEM_WORDS", "MIN_COPIES", "collapse_marquees"]

#: A ticker repeats its item at least this many times in a row …
MIN_COPIES = 5
#: … and the item has at most this many words.
MAX_ITEM_WORDS = 6

_TABLE_TAGS = frozenset({"table", "thead", "tbody", "tfoot", "tr", "td", "th", "colgroup", "col"})


def collapse_marquees(root: etree._Element) -> int:
    """Keep one copy of each ticker's item under ``root`` (module docstring), in place.

    Returns:
        the number of copies removed (0 when there is no ticker).
    """
    removed = 0
    for parent in list(root.iter(etree.Element)):  # (comments skipped in C)
        if parent.tag in _TABLE_TAGS or len(parent) < MIN_COPIES:
            continue
        for run in _runs(parent):
            for copy in run[1:]:
                remove_keep_tail(copy)
            removed += len(run) - 1
    return removed


def _runs(parent: etree._Element) -> list[list[etree._Element]]:
    """The runs of :data:`MIN_COPIES` or more consecutive children of ``parent`` with the same
    tag and the same short, non-empty text and nothing but white space between them."""
    runs: list[list[etree._Element]] = []
    for span in _same_tag_spans(parent):
        runs += _runs_in(span)
    return runs


def _same_tag_spans(parent: etree._Element) -> list[list[etree._Element]]:
    """Spans of :data:`MIN_COPIES` or more consecutive children with one tag and white space
    between them: the only places a run can be (reading texts is the costly part)."""
    spans: list[list[etree._Element]] = []
    span: list[etree._Element] = []
    for child in parent:
        if span and child.tag == span[-1].tag and not (span[-1].tail or "").strip():
            span.append(child)
            continue
        if len(span) >= MIN_COPIES:
            spans.append(span)
        span = [child]
    if len(span) >= MIN_COPIES:
        spans.append(span)
    return spans


def _runs_in(children: list[etree._Element]) -> list[list[etree._Element]]:
    runs: list[list[etree._Element]] = []
    run: list[etree._Element] = []
    key: tuple[str, str] | None = None
    for child in children:
        this = _item_key(child)
        if this is not None and this == key and not (run[-1].tail or "").strip():
            run.append(child)
            continue
        if len(run) >= MIN_COPIES:
            runs.append(run)
        run, key = ([child], this) if this is not None else ([], None)
    if len(run) >= MIN_COPIES:
        runs.append(run)
    return runs


def _item_key(el: etree._Element) -> tuple[str, str] | None:
    """``(tag, text)`` of a possible ticker item, or ``None`` (a table part, no text, a long
    text)."""
    if not isinstance(el.tag, str) or el.tag in _TABLE_TAGS:
        return None
    words = "".join(el.itertext()).split()
    if len(words) > MAX_ITEM_WORDS:
        return None
    text = " ".join(words)
    if not normalise(text):
        return None
    return el.tag, text
