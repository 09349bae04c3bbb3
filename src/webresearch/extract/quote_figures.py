"""Quotations set as figures inside an article: kept with it. Pure functions over aligned
segments.

The HTML Standard's ``figure`` element lists a quotation among a figure's uses: a
``<blockquote>`` inside a ``<figure>``, its source in the ``<figcaption>`` ("the figure
element", the example of a quotation with its attribution). Articles set the words of the
people they interview that way (an interview's quotes with their portraits; WordPress's
"Pullquote" and testimonial blocks are ``figure > blockquote``). trafilatura's fast pass
drops the figure whole, quote included, as it drops the figures of images: on a WCXB dev
article of expert quotes every quote was lost (24 of them, all in the ground truth).

:func:`keep_quote_figures` marks kept the text of such a ``<blockquote>`` when

* it lies inside the article: between the first and the last text trafilatura kept (a
  quote in a footer, after the article, stays out);
* trafilatura kept none of it (otherwise its own choice stands);
* it has at least :data:`MIN_QUOTE_CHARS` letters and digits (a sentence, not a label);
* its text does not repeat kept text: a *pull quote* that repeats a sentence of the
  article would be read twice.

Only the quotation is kept by that rule: the caption (a name, a job title, a portrait's alt
text) is left to the rest of the pipeline.

:func:`keep_quote_sources` then keeps the **source** of a quotation the content holds: the
``<figcaption>`` of a ``figure > blockquote`` whose quotation has kept text (by trafilatura
or by the rule above), when trafilatura kept none of the caption and it is short — at most
:data:`MAX_SOURCE_CHARS` letters and digits, a name and a title ("Eduardo Rocha, Co-Founder
and CEO, Yuool"), not a paragraph — and holds no link. trafilatura drops a figure's caption
with the figure's other furniture, so a service page's customer quotes came out without
who said them; a quote without its speaker tells a reader less than the page does. WCXB
dev: service +0.0001 (two pages up, by up to +0.007), article +0.00001 (one page +0.005),
no page down; the other types and Zyte dev unchanged.
"""

from __future__ import annotations

from lxml import etree

from webresearch.extract.align import Segment

__all__ = ["MAX_SOURCE_CHARS", "MIN_QUOTE_CHARS", "keep_quote_figures", "keep_quote_sources"]

#: Letters and digits a quotation needs to be kept (about six words).
MIN_QUOTE_CHARS = 30

#: A quotation's source holds at most this many letters and digits (a name and a title).
MAX_SOURCE_CHARS = 120

#: How many ancestors of a ``<blockquote>`` are looked at for its ``<figure>``.
_MAX_FIGURE_DEPTH = 4


def keep_quote_figures(body: etree._Element, segments: list[Segment]) -> int:
    """Mark kept the quotations set as figures inside the article (module docstring).

    Args:
        body: the page's ``<body>``; ``segments``: its text nodes in document order, the
            kept ones marked by the alignment.

    Returns:
        the letters and digits added (0 when there is no such quotation).
    """
    quotes = [bq for bq in body.iter("blockquote") if _in_figure(bq)]
    if not quotes:
        return 0
    kept = [i for i, s in enumerate(segments) if s.kept]
    if len(kept) < 2:
        return 0
    first, last = kept[0], kept[-1]
    position: dict[etree._Element, list[int]] = {}
    for i in range(first + 1, last):
        holder = segments[i].holder
        if holder is not None:
            position.setdefault(holder, []).append(i)
    said: str | None = None
    added = 0
    for bq in quotes:
        inside = sorted(i for el in bq.iter() for i in position.get(el, ()))
        if not inside or any(segments[i].kept for i in inside):
            continue
        text = "".join(segments[i].norm for i in inside)
        if len(text) < MIN_QUOTE_CHARS:
            continue
        if said is None:
            said = "".join(segments[i].norm for i in kept)
        if text in said:
            continue  # a pull quote: the article says it already
        for i in inside:
            segments[i].kept = True
        added += len(text)
    return added


def _in_figure(el: etree._Element) -> bool:
    """``el`` lies inside a ``<figure>`` (within :data:`_MAX_FIGURE_DEPTH` levels)."""
    parent = el.getparent()
    for _ in range(_MAX_FIGURE_DEPTH):
        if parent is None:
            return False
        if parent.tag == "figure":
            return True
        parent = parent.getparent()
    return False


def keep_quote_sources(body: etree._Element, segments: list[Segment]) -> int:
    """Mark kept the ``<figcaption>`` of each quotation figure whose quotation is kept
    (module docstring); the letters and digits added."""
    figures = [
        fig
        for fig in body.iter("figure")
        if fig.find(".//blockquote") is not None and fig.find(".//figcaption") is not None
    ]
    if not figures:
        return 0
    position: dict[etree._Element, list[int]] = {}
    for i, seg in enumerate(segments):
        holder = seg.holder
        if holder is not None:
            position.setdefault(holder, []).append(i)
    added = 0
    for fig in figures:
        quote = [
            i for bq in fig.iter("blockquote") for el in bq.iter() for i in position.get(el, ())
        ]
        if not any(segments[i].kept for i in quote):
            continue
        for caption in fig.iter("figcaption"):
            inside = [i for el in caption.iter() for i in position.get(el, ())]
            size = sum(len(segments[i].norm) for i in inside)
            if (
                not inside
                or size > MAX_SOURCE_CHARS
                or any(segments[i].kept for i in inside)
                or next(caption.iter("a"), None) is not None
            ):
                continue
            for i in inside:
                segments[i].kept = True
            added += size
    return added
