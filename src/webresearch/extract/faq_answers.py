"""FAQ answers written straight into a ``<div>`` under their question: kept with the
article. Pure functions over aligned segments.

trafilatura reads text from ``<p>``, headings, lists, quotes and tables; a ``<div>`` whose
text is written straight into it, without a ``<p>``, is read only when the article frame
holds little paragraph text (trafilatura 2.3.1 ``main_extractor._extract``: ``div`` joins
the tags it reads below ``min_extracted_size``). An FAQ set as ``<h3>Q: Is …?</h3><div
class="answer"><strong>A:</strong> Yes, …</div>`` inside an article of ``<p>`` paragraphs
then keeps every question and loses every answer (WCXB dev: a coffee-maker guide's FAQ,
0.965 → 0.993 with this rule; trafilatura keeps them only with ``include_formatting``,
whose other effects lost more than they gained).

:func:`keep_faq_answers` marks kept the text of such a block when

* it lies inside the article: strictly between the first and the last text trafilatura
  kept, and trafilatura kept none of it;
* it is a ``<div>`` holding only text and phrasing markup (links, emphasis, line breaks):
  a paragraph in all but name, not a box of blocks;
* the element right before it is a heading (``h2``–``h6``) that asks a question (its text
  ends with ``?``, ``？``, ``؟`` or the Greek ``;``): an answer under its question. Without
  this condition (any bare ``<div>`` inside the article) 21 WCXB dev article pages
  changed, net −0.31: author biographies, comment bodies, calls to action; under any
  heading, a shop's "about us" box and a "download our guide" box came in (product −0.06, article −0.01);
* it is not inside a link (a teaser card) and holds prose: at least
  :data:`MIN_ANSWER_CHARS` letters and digits, of which at least :data:`MIN_PROSE_SHARE`
  lie in text runs of :data:`PROSE_RUN_CHARS` or more outside links;
* its text does not repeat kept text.

An FAQ that ends the article lies after the last kept text, and trafilatura then drops its
questions too (a heading with no text after it is not kept). :func:`keep_faq_answers`
therefore also marks kept a *trailing FAQ*: the run of question headings, each followed by
an answer that passes the tests above, right after the last kept text and inside the same
``<article>`` element, with at most one other heading (``<h2>FAQ</h2>``) before a question.
The run stops at the first text that is not such a heading or answer; only complete
question-and-answer pairs are kept (review 10: six paragraphs, then three questions with
``<div>`` answers, then ``</article>``: all twelve lines were lost). WCXB dev: one article
page changes, its closing FAQ of eight questions back (0.870 → 0.947); no other page of
any type, nor of Zyte's.
"""

from __future__ import annotations

from lxml import etree

from webresearch.extract.align import Segment, kept_span

__all__ = ["MIN_ANSWER_CHARS", "MIN_PROSE_SHARE", "PROSE_RUN_CHARS", "keep_faq_answers"]

#: Letters and digits an answer needs to be kept (two sentences).
MIN_ANSWER_CHARS = 150
#: Share of an answer's letters and digits that must lie in long text runs outside links …
MIN_PROSE_SHARE = 0.6
#: … of at least this many letters and digits (a sentence).
PROSE_RUN_CHARS = 80

#: Phrasing content (HTML Standard, "phrasing content") that may sit in a paragraph.
_INLINE = frozenset(
    {
        "a", "abbr", "b", "bdi", "bdo", "br", "cite", "code", "data", "del", "dfn", "em",
        "font", "i", "img", "ins", "kbd", "mark", "q", "s", "samp", "small", "span",
        "strong", "sub", "sup", "time", "u", "var", "wbr",
    }
)  # fmt: skip
_HEADINGS = frozenset({"h2", "h3", "h4", "h5", "h6"})
#: What ends a question: ``?``, the full-width ``？`` (Chinese, Japanese), the Arabic ``؟``
#: and the Greek question mark (U+037E, drawn as ``;``).
_QUESTION_MARKS = ("?", "\uff1f", "\u061f", "\u037e")


def keep_faq_answers(segments: list[Segment]) -> int:
    """Mark kept the bare-``<div>`` answers under question headings inside the article
    (module docstring).

    Args:
        segments: the page's text nodes in document order, the kept ones marked by the
            alignment.

    Returns:
        the letters and digits added (0 when there is no such answer).
    """
    first, last = kept_span(segments)
    said: str | None = None
    added = 0
    for i in range(max(first, 0), last):
        # only where a kept text is followed by a left-out one (cost: a few places a page)
        if not segments[i].kept or segments[i + 1].kept:
            continue
        block = _answer_block(segments[i])
        if block is None:
            continue
        inside = range(i + 1, i + 1)
        while inside.stop < last and _below(segments[inside.stop].holder, block):
            inside = range(i + 1, inside.stop + 1)
        if not inside or any(segments[j].kept for j in inside):
            continue  # trafilatura kept some of it: its own choice stands
        size = sum(len(segments[j].norm) for j in inside)
        if size < MIN_ANSWER_CHARS or _in_link(block):
            continue
        prose = sum(
            len(segments[j].norm)
            for j in inside
            if len(segments[j].norm) >= PROSE_RUN_CHARS and not _linked_below(segments[j], block)
        )
        if prose < MIN_PROSE_SHARE * size:
            continue
        if said is None:
            said = "".join(seg.norm for seg in segments[first : last + 1] if seg.kept)
        if "".join(segments[j].norm for j in inside) in said:
            continue
        for j in inside:
            segments[j].kept = True
            added += len(segments[j].norm)
    return added + _keep_trailing_faq(segments, last if last >= 0 else first)


def _keep_trailing_faq(segments: list[Segment], last: int) -> int:
    """Mark kept the question-and-answer pairs right after the last kept text ``last``
    inside its ``<article>`` (module docstring); the letters and digits added."""
    if last < 0 or last + 1 >= len(segments):
        return 0
    holder = segments[last].holder
    article = None if holder is None else next(holder.iterancestors("article"), None)
    if article is None:
        return 0
    said: str | None = None
    added = 0
    i = last + 1
    titled = False  # one heading that is not a question may open the run
    while i < len(segments):
        heading = _heading(segments[i].holder)
        if heading is None or not _inside(heading, article):
            break
        title = "".join(heading.itertext())
        end = i + 1
        while end < len(segments) and _heading(segments[end].holder) is heading:
            end += 1
        block = _answer_block(segments[end - 1])
        if block is None:
            if titled or any(mark in title for mark in _QUESTION_MARKS):
                break
            titled = True
            i = end
            continue
        inside = range(end, end)
        while inside.stop < len(segments) and _below(segments[inside.stop].holder, block):
            inside = range(end, inside.stop + 1)
        if said is None:
            said = "".join(seg.norm for seg in segments[: last + 1] if seg.kept)
        if not _answers(segments, inside, block, said):
            break
        for j in range(last + 1 if titled else i, inside.stop):
            segments[j].kept = True
            added += len(segments[j].norm)
        last, i, titled = inside.stop - 1, inside.stop, False
    return added


def _answers(segments: list[Segment], inside: range, block: etree._Element, said: str) -> bool:
    """Whether the left-out segments ``inside`` (the text of ``block``) are an answer: prose
    of :data:`MIN_ANSWER_CHARS` or more, outside a link, not a repeat of ``said``."""
    if not inside or any(segments[j].kept for j in inside) or _in_link(block):
        return False
    size = sum(len(segments[j].norm) for j in inside)
    prose = sum(
        len(segments[j].norm)
        for j in inside
        if len(segments[j].norm) >= PROSE_RUN_CHARS and not _linked_below(segments[j], block)
    )
    return (
        size >= MIN_ANSWER_CHARS
        and prose >= MIN_PROSE_SHARE * size
        and "".join(segments[j].norm for j in inside) not in said
    )


def _heading(el: etree._Element | None) -> etree._Element | None:
    """The ``h2``–``h6`` heading holding ``el`` through phrasing markup, or ``None``."""
    while el is not None and el.tag in _INLINE:
        el = el.getparent()
    return el if el is not None and el.tag in _HEADINGS else None


def _inside(el: etree._Element, ancestor: etree._Element) -> bool:
    return any(a is ancestor for a in el.iterancestors())


def _answer_block(seg: Segment) -> etree._Element | None:
    """The bare ``<div>`` right after the question heading that holds ``seg``, or ``None``."""
    heading = seg.holder
    while heading is not None and heading.tag in _INLINE:
        heading = heading.getparent()
    if heading is None or heading.tag not in _HEADINGS:
        return None
    block = heading.getnext()
    while block is not None and not isinstance(block.tag, str):
        block = block.getnext()  # a comment or processing instruction
    if block is None or block.tag != "div" or not _bare(block):
        return None
    if not "".join(heading.itertext()).strip().endswith(_QUESTION_MARKS):
        return None
    return block


def _below(el: etree._Element | None, block: etree._Element) -> bool:
    """Whether ``el`` is ``block`` or lies inside it (``block`` holds only phrasing)."""
    while el is not None:
        if el is block:
            return True
        if el.tag not in _INLINE:
            return False
        el = el.getparent()
    return False


def _bare(block: etree._Element) -> bool:
    """Whether ``block`` holds only text and phrasing markup."""
    return all(el.tag in _INLINE for el in block.iterdescendants(etree.Element))


def _in_link(block: etree._Element) -> bool:
    return any(el.tag == "a" for el in block.iterancestors())


def _linked_below(seg: Segment, stop: etree._Element) -> bool:
    """Whether the text lies inside an ``<a>`` below ``stop``."""
    el = seg.holder
    while el is not None and el is not stop:
        if el.tag == "a":
            return True
        el = el.getparent()
    return False
