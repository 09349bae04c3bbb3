"""Scrolling tickers (marquees) read once. Pure functions over an lxml tree.

A ticker that scrolls a call to action across the screen ("Book now ✱ Book now ✱ …",
"Secure your spot — enrol now" on a course page, "Lifetime guarantee" on a shop's banner)
repeats the same short item as sibling elements, many copies in a row, so that the
animation loops without a gap. A reader sees one phrase sliding by; the markup holds it
dozens or hundreds of times (one WCXB service page: 650 copies, three quarters of the words
extracted). :func:`collapse_marquees` keeps the first copy of every run of at least
:data:`MIN_COPIES` consecutive sibling elements with the same tag and the same short text
(at most :data:`MAX_ITEM_WORDS` words) and removes the others.

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
MIN_COPIES = 4
#: … and the item has at most this many words.
MAX_ITEM_WORDS = 6

_TABLE_TAGS = frozenset({"table", "thead", "tbody", "tfoot", "tr", "td", "th", "colgroup", "col"})


def collapse_marquees(root: etree._Element) -> int:
    """Keep one copy of each ticker's item under ``root`` (module docstring), in place.

    Returns:
        the number of copies removed (0 when there is no ticker).
    """
    removed = 0
    for parent in list(root.iter()):
        if not isinstance(parent.tag, str) or parent.tag in _TABLE_TAGS or len(parent) < MIN_COPIES:
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
    run: list[etree._Element] = []
    key: tuple[str, str] | None = None
    for child in parent:
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
    text = " ".join("".join(el.itertext()).split())
    if not normalise(text) or len(text.split()) > MAX_ITEM_WORDS:
        return None
    return el.tag, text
