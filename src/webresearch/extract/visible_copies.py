"""Kept text that lies in a hidden block, moved to the visible copy of it nearby. Pure
functions over the aligned segments of a page.

Pages marked with schema.org microdata repeat an item's name in a hidden element for the
machines (``<span hidden itemprop="name">Gallery</span>`` inside the item's ``Place``) next
to the visible one a reader sees (a heading linking to the gallery). trafilatura reads
both, drops the heading (a link alone) and keeps the hidden copy; the alignment
(:mod:`webresearch.extract.align`) marks that copy kept, and the hidden block goes with the
page's hidden blocks (:func:`webresearch.extract.page_noise.hidden_blocks`): the name is
lost although trafilatura kept it. :func:`keep_visible_copies` keeps the visible copy
instead — the same text (letters and digits) in a text node that is not hidden and was
not kept, under an ancestor at most :data:`MAX_COPY_LEVELS` levels above the hidden block
(the item both copies describe). Only a hidden block that is a microdata property (it or
the element holding the text carries ``itemprop``) is read so: a copy written for machines.
Read for every hidden block, the rule also moved responsive duplicates of interface labels
onto the page (tab names, "Filters", a sign-in prompt, a "view all" button: WCXB dev
service −0.001, listing and product pages slightly lower), which the ground truths leave
out; with the condition it changes one WCXB dev listing page (0.86 → 0.97), nothing on
Zyte dev. With no visible copy nothing changes: the hidden-content
decisions of :mod:`~webresearch.extract.page_noise` (an app shell's hidden content, a
closed tab) stand, and the blocks they keep are never passed here.
"""

from __future__ import annotations

from lxml import etree

from webresearch.extract.align import Segment
from webresearch.extract.tree import ancestor_where

__all__ = ["MAX_COPY_LEVELS", "keep_visible_copies"]

#: The visible copy lies under the hidden block's parent, grandparent or great-grandparent
#: (a schema.org item: the hidden ``name`` in a ``Place`` paragraph, the heading beside it).
MAX_COPY_LEVELS = 3

_PAGE_TAGS = frozenset({"body", "html"})


def _tag(el: etree._Element) -> str:
    return el.tag.lower() if isinstance(el.tag, str) else ""


def _microdata(root: etree._Element, holder: etree._Element | None) -> bool:
    """True when the hidden block ``root`` or the text's element is a microdata property."""
    return root.get("itemprop") is not None or (
        holder is not None and holder.get("itemprop") is not None
    )


def keep_visible_copies(
    segments: list[Segment],
    hidden: list[etree._Element],
    levels: int = MAX_COPY_LEVELS,
) -> int:
    """Move the ``kept`` mark of segments inside hidden microdata properties to an identical
    visible segment nearby (module docstring), in place.

    Args:
        segments: the page's text nodes in document order, aligned (``kept`` set).
        hidden: the hidden blocks that will be removed (outermost elements).
        levels: how many ancestors of a hidden block are searched for the visible copy.

    Returns:
        the letters and digits moved (0 when nothing moved).
    """
    if not hidden or not any(seg.kept for seg in segments):
        return 0
    blocks = set(hidden)
    holders = [seg.holder for seg in segments]
    memo: dict[etree._Element, etree._Element | None] = {}

    def hidden_root(el: etree._Element | None) -> etree._Element | None:
        """The hidden block holding ``el``, or ``None``."""
        return ancestor_where(el, blocks.__contains__, memo)

    index: dict[etree._Element, list[int]] = {}
    for i, holder in enumerate(holders):
        if holder is not None:
            index.setdefault(holder, []).append(i)
    visible_under: dict[etree._Element, dict[str, list[int]]] = {}

    def copies(ancestor: etree._Element) -> dict[str, list[int]]:
        """Visible segments under ``ancestor`` by their text (computed once)."""
        if ancestor not in visible_under:
            found: dict[str, list[int]] = {}
            for sub in ancestor.iter():
                for j in index.get(sub, ()):
                    if hidden_root(holders[j]) is None:
                        found.setdefault(segments[j].norm, []).append(j)
            visible_under[ancestor] = found
        return visible_under[ancestor]

    moved = 0
    for i, seg in enumerate(segments):
        if not seg.kept:
            continue
        root = hidden_root(holders[i])
        if root is None or not _microdata(root, holders[i]):
            continue
        ancestor = root.getparent()
        for _ in range(levels):
            if ancestor is None or _tag(ancestor) in _PAGE_TAGS:
                break
            free = [j for j in copies(ancestor).get(seg.norm, ()) if not segments[j].kept]
            if free:
                nearest = min(free, key=lambda j: abs(j - i))
                segments[nearest].kept = True
                seg.kept = False
                moved += len(seg.norm)
                break
            ancestor = ancestor.getparent()
    return moved
