"""Small edits of lxml trees shared by the extraction passes. Pure functions."""

from __future__ import annotations

from lxml import etree

__all__ = ["remove_keep_tail"]


def remove_keep_tail(el: etree._Element) -> None:
    """Remove ``el`` and its subtree but keep the text that follows it (its tail).

    The tail joins the previous sibling's tail, or the parent's text; an element already
    out of the tree is left alone.
    """
    parent = el.getparent()
    if parent is None:
        return
    tail = el.tail or ""
    previous = el.getprevious()
    if previous is not None:
        previous.tail = (previous.tail or "") + tail
    else:
        parent.text = (parent.text or "") + tail
    parent.remove(el)
