"""A hidden block that repeats a visible sibling is a second copy, never content. Pure functions.

A hidden block of prose a control opens is kept: a click on a tab or an accordion shows it
(:func:`~webresearch.extract.page_noise.hidden_blocks`). Some pages hide a *copy* of a block
they show right beside it: Red Hat's documentation puts each code example twice in its
``<rh-code-block>`` — a ``<pre hidden>`` holding the raw text its copy button reads, then
the highlighted ``<pre>`` a reader sees —, and a layout may keep a second, hidden rendering
of a banner next to the shown one. Kept, the example came out twice, one fence after the
other. No click shows the copy as a block of its own: while it is hidden its twin is on
screen with the same words.

:func:`repeats_a_sibling` tells such a copy: a hidden element with at least
:data:`MIN_COPY_CHARS` letters and digits whose letters and digits are those of one of its
visible element siblings (same parent, not hidden by markup), in the same order. It is
asked only about the hidden blocks that would otherwise be kept as collapsed content (a
few a page at most), so it costs nothing on most pages.

WCXB dev (session 10): documentation +0.084 (a Red Hat guide 0.885 → 0.969: its playbook
example came out twice), listing +0.081 (two university-ranking pages, 0.351 → 0.411 and
0.320 → 0.342: their hidden second copy of the intro paragraph); the other types and Zyte
dev unchanged.
"""

from __future__ import annotations

import re

from lxml import etree

from webresearch.extract.align import normalise

__all__ = ["MIN_COPY_CHARS", "repeats_a_sibling"]

#: The fewest letters and digits a hidden copy holds (a short label may repeat by chance).
MIN_COPY_CHARS = 40

_HIDING_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.I)


def _hidden_by_markup(el: etree._Element) -> bool:
    return el.get("hidden") is not None or bool(_HIDING_STYLE.search(el.get("style") or ""))


def repeats_a_sibling(el: etree._Element, chars: int) -> bool:
    """True when the hidden ``el`` (``chars``: its letters and digits) repeats the text of
    a visible sibling (module docstring).

    Args:
        el: a hidden element of a parsed page.
        chars: ``el``'s letters and digits
            (:func:`~webresearch.extract.align.page_text_size`).
    """
    parent = el.getparent()
    if chars < MIN_COPY_CHARS or parent is None:
        return False
    text = normalise("".join(el.itertext()))
    for sibling in parent.iterchildren(etree.Element):
        if sibling is not el and not _hidden_by_markup(sibling) and _reads(sibling, text):
            return True
    return False


def _reads(el: etree._Element, text: str) -> bool:
    """Whether ``el``'s letters and digits are ``text``; reads no further than a
    difference (a long sibling costs no more than ``text``)."""
    at = 0
    for piece in el.itertext():
        norm = normalise(piece)
        if not norm:
            continue
        if text[at : at + len(norm)] != norm:
            return False
        at += len(norm)
    return at == len(text)
