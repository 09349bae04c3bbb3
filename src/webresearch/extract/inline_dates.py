"""Dates written inside kept sentences: kept with them. Pure functions over aligned segments.

trafilatura deletes every ``<time>`` element before it extracts (``MANUALLY_CLEANED`` in
``trafilatura.settings``, applied by ``htmlprocessing.tree_cleaning``), so the text of a
``<time>`` is never in what it kept and the alignment leaves it out. A news byline
``<p>By Jane Doe · <time datetime="2026-12-01">Dec 1, 2026</time></p>`` came out as
"By Jane Doe ·" (review, session 15): the line that tells a reader by whom *and when* the
page was written lost its date.

The HTML Standard's ``time`` element is phrasing content ("the time element"): it sits
inside a sentence or a line like any other inline element. :func:`keep_inline_dates` marks
kept the text of a ``<time>`` when the block it sits in (its nearest ancestor that is not an
inline element) holds text trafilatura kept: the date is part of a line that stays. A
``<time>`` alone in its own block (a date box beside a teaser) is left to trafilatura's
choice, as before.
"""

from __future__ import annotations

from lxml import etree

from webresearch.extract.align import Segment

__all__ = ["keep_inline_dates"]

#: Phrasing elements (HTML Standard, "phrasing content") a date and its line sit in.
_INLINE = frozenset(
    {"a", "abbr", "b", "bdi", "bdo", "big", "cite", "data", "del", "dfn", "em", "font", "i",
     "ins", "kbd", "label", "mark", "nobr", "q", "s", "samp", "small", "span", "strike",
     "strong", "sub", "sup", "time", "tt", "u", "var"}
)  # fmt: skip


def keep_inline_dates(segments: list[Segment]) -> int:
    """Mark kept the text of each ``<time>`` whose block holds kept text (module docstring).

    Args:
        segments: the page's text nodes in document order, the kept ones marked.

    Returns:
        the letters and digits added (0 when no such date).
    """
    dated: list[tuple[Segment, etree._Element]] = []
    for seg in segments:
        if not seg.kept:
            time = _time_around(seg.holder)
            if time is not None:
                dated.append((seg, time))
    if not dated:
        return 0
    kept_blocks = {_block(seg.holder) for seg in segments if seg.kept}
    added = 0
    for seg, time in dated:
        if _block(time) in kept_blocks:
            seg.kept = True
            added += len(seg.norm)
    return added


def _tag(el: etree._Element) -> str:
    return el.tag.lower() if isinstance(el.tag, str) else ""


def _time_around(el: etree._Element | None) -> etree._Element | None:
    """The ``<time>`` that ``el`` is, or sits in through inline elements only; else ``None``."""
    while el is not None and _tag(el) in _INLINE:
        if _tag(el) == "time":
            return el
        el = el.getparent()
    return None


def _block(el: etree._Element | None) -> etree._Element | None:
    """The nearest ancestor of ``el`` (or ``el``) that is not an inline element."""
    while el is not None and _tag(el) in _INLINE:
        el = el.getparent()
    return el
