"""How much of a block's text is prose: runs of letters and digits per paragraph. Pure
functions over aligned segments.

A page's text nodes are split wherever inline markup starts or ends: a footnote marker
(``suction<sup>1</sup>, an edge brush…``), an emphasised word or an abbreviation cuts one
sentence into two or three nodes. A test of "is this a sentence" applied to each node then
fails on the paragraphs that carry such markup — a product page's feature slide whose
paragraph had a ``<sup>1</sup>`` measured two runs of 55 and 150 letters instead of one
of 205 (WCXB dev: its slide was not kept as prose, while trafilatura's other pass kept
it). :func:`prose_chars` measures a run as the texts of one block: the nearest ancestor
that is no inline element (:data:`INLINE`).
"""

from __future__ import annotations

from lxml import etree

from webresearch.extract.align import Segment

__all__ = ["INLINE", "prose_chars"]

#: Phrasing elements (HTML "phrasing content" that does not start a line): their text is
#: part of the paragraph around them.
INLINE = frozenset(
    {
        "a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "dfn", "em", "i", "kbd",
        "mark", "q", "s", "samp", "small", "span", "strong", "sub", "sup", "time", "u", "var",
    }
)  # fmt: skip


def prose_chars(texts: list[Segment], stop: etree._Element, run_chars: int) -> int:
    """The letters and digits of ``texts`` that lie in runs of at least ``run_chars``
    outside links.

    Args:
        texts: text nodes below ``stop``, in document order.
        stop: the block measured (a link or inline element above it is not looked at).
        run_chars: the length, in letters and digits, of the shortest run that counts
            (a sentence).

    Returns:
        the sum of the runs' lengths; a run is the texts, outside ``<a>``, whose nearest
        non-inline ancestor (or ``stop``) is the same element.
    """
    runs: dict[etree._Element, int] = {}
    for seg in texts:
        block = _block(seg, stop)
        if block is not None:
            runs[block] = runs.get(block, 0) + len(seg.norm)
    return sum(n for n in runs.values() if n >= run_chars)


def _block(seg: Segment, stop: etree._Element) -> etree._Element | None:
    """The text's paragraph below ``stop``, or ``None`` for a text inside a link."""
    el = seg.holder
    block: etree._Element | None = None
    while el is not None and el is not stop:
        tag = el.tag if isinstance(el.tag, str) else ""
        if tag == "a":
            return None
        if block is None and tag not in INLINE:
            block = el
        el = el.getparent()
    return block if block is not None else stop
