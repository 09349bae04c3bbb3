"""Placing an extractor's kept text back on the page it came from. Pure functions.

An extractor such as trafilatura returns its own simplified tree; to render the original
markup instead, every text node of the page (a :class:`Segment`) is marked kept or not by
aligning the page's text, in document order, with the extractor's text. Both sides are
reduced to lower-case letters and digits (:func:`normalise`), so whitespace, punctuation
and inline markup differences do not matter.

The alignment (:func:`align_segments`) first fixes *anchors* — long segments that occur
once on the page and once in the kept text, in increasing order — then fills the stretches
between anchors: backwards from each anchor (text right before an anchor belongs to it),
then forwards greedily, short segments only where they continue the kept text exactly,
longer ones a little further on, long ones anywhere (an extractor sometimes moves a block).
Repeated text ("Meal 1", a menu item repeating a heading) is thus placed at the right copy.

A text with no anchor at all (a grid of short card names and prices) has nothing to line up
again after text the page walk does not see (a ``<button>``'s label, which trafilatura
keeps): there a run of consecutive short segments found once in the kept text and once on
the page resynchronises the cursor (:mod:`webresearch.extract.align_runs`; issue 13).
"""

from __future__ import annotations

import bisect
import sys
from collections.abc import Iterator
from dataclasses import dataclass

from lxml import etree

from webresearch.extract.align_runs import PageRuns
from webresearch.extract.formulas import formula_tex
from webresearch.extract.markdown import SKIPPED_TAGS
from webresearch.extract.text_count import (
    ASCII_LOWER,
    ASCII_NON_WORD,
    letter_count,
    letters_digits,
    serialized_size,
)

__all__ = [
    "LONG_SEGMENT_CHARS",
    "SHORT_SEGMENT_CHARS",
    "Segment",
    "align_segments",
    "kept_span",
    "letters_digits",
    "normalise",
    "page_segments",
    "page_text_size",
    "text_segments",
    "text_size_exceeds",
]

#: A short text node must continue exactly where the previous kept text ended.
SHORT_SEGMENT_CHARS = 12
#: A longer one may be found a little further on — at most its own length or this many
#: characters later (text trafilatura kept that the page walk did not see).
WINDOW_SLACK_CHARS = 64
#: A long one is searched anywhere in the kept text.
LONG_SEGMENT_CHARS = 24
#: How many following segments may show that a skip ahead in the kept text is wrong.
LOOKAHEAD_SEGMENTS = 4
#: Above this many segments × kept characters, anchors are not searched (cost bound).
ANCHOR_BUDGET = 200_000_000

#: Elements whose text is never page text. ``<noscript>`` is text here: some sites serve
#: their content to crawlers in it (Discourse forums), and extractors may keep it.
_NOT_TEXT = SKIPPED_TAGS - {"noscript"}
#: :func:`_text_size` without a limit (more letters and digits than any page holds).
_NO_LIMIT = sys.maxsize
# A ``<math>`` is one text node here, its TeX source or else its text (as trafilatura reads
# it: ``htmlprocessing.recover_math``), aligned with the text around it, so the formula and
# the text after it (its tail) stay together.


@dataclass(slots=True)
class Segment:
    """One text node of a page.

    Attributes:
        owner: the element whose ``.text`` (or, when ``tail``, ``.tail``) this is.
        tail: the text follows ``owner`` (it belongs to ``owner``'s parent).
        norm: the text's letters and digits, lower-cased (never empty).
        kept: set by :func:`align_segments` when the text is part of the kept content.
    """

    owner: etree._Element
    tail: bool
    norm: str
    kept: bool = False

    @property
    def holder(self) -> etree._Element | None:
        """The element the text is in: ``owner`` for its text, ``owner``'s parent for its
        tail (``None`` for the tail of a detached element)."""
        return self.owner.getparent() if self.tail else self.owner


def kept_span(segments: list[Segment]) -> tuple[int, int]:
    """``(first, last)``: the indexes of the first and the last kept segment, ``(-1, -1)``
    when none is kept (``first == last`` when one is). Rules that add text only between
    the extractor's first and last kept text (slide prose, FAQ answers) read it."""
    first = next((i for i, seg in enumerate(segments) if seg.kept), -1)
    if first < 0:
        return -1, -1
    last = next(i for i in range(len(segments) - 1, first - 1, -1) if segments[i].kept)
    return first, last


def normalise(text: str) -> str:
    """Letters and digits of ``text``, lower-cased (the alignment alphabet)."""
    return letters_digits(text).lower()


def _tag(el: etree._Element) -> str:
    return el.tag.lower() if isinstance(el.tag, str) else ""


def text_segments(body: etree._Element) -> Iterator[Segment]:
    """Every text node under ``body`` in document order, skipping scripts, styles and alike."""
    for el, tail, norm in _text_nodes(body):
        yield Segment(el, tail, norm.lower())


def page_segments(body: etree._Element) -> list[Segment]:
    """``list(text_segments(body))``, built in one loop (no generators: read on every
    page, a segment per text node)."""
    segments: list[Segment] = []
    append = segments.append
    walker = etree.iterwalk(body, events=("start", "end"))
    for event, el in walker:
        if event == "start":
            tag = el.tag
            if tag.__class__ is not str or tag.lower() in _NOT_TEXT:
                walker.skip_subtree()
                if tag.__class__ is str and tag.lower().rpartition("}")[2] == "math":
                    norm = letters_digits(formula_tex(el) or "".join(el.itertext()))
                    if norm:
                        append(Segment(el, False, norm.lower()))
                continue
            text = el.text
            tail = False
        elif el is not body:
            text = el.tail
            tail = True
        else:
            continue
        if text and not text.isspace():
            if text.isascii():  # letters_digits and lower() in one translate
                norm = text.encode().translate(ASCII_LOWER, ASCII_NON_WORD).decode()
            else:
                norm = letters_digits(text).lower()
            if norm:
                append(Segment(el, tail, norm))
    return segments


def page_text_size(body: etree._Element) -> int:
    """Letters and digits of all text under ``body``, visible or hidden (not scripts)."""
    tag = body.tag
    if tag.__class__ is str and tag.lower() not in _NOT_TEXT:
        size = serialized_size(body, _NOT_TEXT, _math_size, lower=True)
        if size is not None:
            return size
    return _text_size(body, _NO_LIMIT)


def text_size_exceeds(body: etree._Element, limit: int) -> bool:
    """``page_text_size(body) > limit``, the walk stopping as soon as it is (a large
    ancestor of a small block need not be counted to the end)."""
    return _text_size(body, limit) > limit


def _text_size(body: etree._Element, limit: int) -> int:
    """:func:`page_text_size`, or any count above ``limit`` once the walk has passed it.

    The walk of :func:`_text_nodes`, summing in place (no generator: this is read thousands
    of times per page, on the page and its parts). lower() may change the length (İ):
    sizes are those of the segments' text; an ASCII text's length does not change."""
    total = 0
    walker = etree.iterwalk(body, events=("start", "end"))
    for event, el in walker:
        if event == "start":
            tag = el.tag
            if tag.__class__ is not str or tag.lower() in _NOT_TEXT:
                walker.skip_subtree()
                if tag.__class__ is str and tag.lower().rpartition("}")[2] == "math":
                    total += len(letters_digits(formula_tex(el) or "".join(el.itertext())).lower())
                continue
            text = el.text
        elif el is not body:
            text = el.tail
        else:
            continue
        if text and not text.isspace():
            if text.isascii():
                total += len(text.encode().translate(None, ASCII_NON_WORD))
            else:
                total += letter_count(text, lower=True)
            if total > limit:
                return total
    return total


def _math_size(el: etree._Element) -> int:
    """What a skipped element counts: a ``<math>`` its TeX source, else its text; others 0."""
    if str(el.tag).lower() != "math":
        return 0
    return len(letters_digits(formula_tex(el) or "".join(el.itertext())).lower())


def _text_nodes(body: etree._Element) -> Iterator[tuple[etree._Element, bool, str]]:
    """(owner, is tail, letters and digits) of each text node holding any, in document order."""
    walker = etree.iterwalk(body, events=("start", "end"))
    for event, el in walker:
        if event == "start":
            tag = el.tag
            if tag.__class__ is not str or tag.lower() in _NOT_TEXT:
                walker.skip_subtree()
                if tag.__class__ is str and tag.lower().rpartition("}")[2] == "math":
                    norm = letters_digits(formula_tex(el) or "".join(el.itertext()))
                    if norm:
                        yield el, False, norm
                continue
            text = el.text
            tail = False
        elif el is not body:
            text = el.tail
            tail = True
        else:
            continue
        if text and not text.isspace():  # indentation: most text nodes of a page
            norm = letters_digits(text)
            if norm:
                yield el, tail, norm


def align_segments(segments: list[Segment], streams: list[str]) -> int:
    """Mark the segments whose text is in ``streams``; return the letters and digits placed.

    Args:
        segments: the page's text nodes in document order (:func:`text_segments`); their
            ``kept`` flag is set in place.
        streams: the kept texts (normalised), e.g. an article and its comments; each is
            aligned on its own with the segments not placed yet.

    Returns:
        how many letters and digits of ``streams`` were placed on the page.
    """
    return sum(_align_stream(segments, kept) for kept in streams)


def _align_stream(segments: list[Segment], kept: str) -> int:
    """Align page text segments, in document order, with one of trafilatura's texts.

    Anchors come first: long segments that occur exactly once on the page and once in
    ``kept``, in increasing order (the longest increasing run of them). Between two anchors
    the other segments are matched greedily, each only inside the stretch of ``kept``
    between the anchors, so repeated text ("Meal 1", "Eat every 2–3 hours") is placed at the
    right repetition. A long segment found nowhere in its stretch but somewhere else is
    kept too (trafilatura sometimes moves a block), without moving the cursor. When there
    is no anchor, a short segment not found may start a run that resynchronises the cursor
    (:class:`~webresearch.extract.align_runs.PageRuns`).
    """
    free = [i for i, seg in enumerate(segments) if not seg.kept]
    anchors = _anchors(segments, free, kept)
    claimed = bytearray(len(kept))  # 1 where a character of ``kept`` is placed already
    for _, pos, n in anchors:
        claimed[pos : pos + n] = b"\x01" * n
    placed = 0
    start = 0
    k = 0
    skipped: list[int] = []  # segments passed over since the cursor last moved
    runs = None  # short text only (no anchor, within the cost bound): runs resynchronise
    if not anchors and len(free) * len(kept) <= ANCHOR_BUDGET:
        runs = PageRuns([segments[i].norm for i in free], LONG_SEGMENT_CHARS, SHORT_SEGMENT_CHARS)
    for seg_index, pos, n in [*anchors, (len(segments), len(kept), 0)]:
        # Text right before an anchor belongs to it: fill backwards from the anchor first,
        # so a menu item repeating a heading does not take the heading's place.
        end = k
        while end < len(free) and free[end] < seg_index:
            end += 1
        stop = pos
        while end > k and seg_index < len(segments):
            seg = segments[free[end - 1]]
            begin = stop - len(seg.norm)
            if begin < start or not kept.startswith(seg.norm, begin):
                break
            seg.kept = True
            claimed[begin:stop] = b"\x01" * len(seg.norm)
            placed += len(seg.norm)
            stop = begin
            end -= 1
        bound = free[end] if end < len(free) else len(segments)  # first segment not ours
        while k < end:
            seg = segments[free[k]]
            k += 1
            m = len(seg.norm)
            found = _find_near(seg.norm, kept, start, stop)
            if found > start and _next_continues(segments, free, k, bound, kept, start):
                found = -1  # what follows on the page continues the kept text right here
            elif found == start and _later_twin_fits(segments, free, k, bound, kept, start + m):
                found = -1  # the same text comes again just below, where it fits better
            if found != -1:
                placed += _backfill(segments, skipped, kept, claimed, start, found)
                start = found + m
            elif m >= LONG_SEGMENT_CHARS:
                found = _unclaimed(seg.norm, kept, claimed)  # moved by trafilatura
            elif runs is not None:  # short text only: a run found once further on
                run = runs.resync(k - 1, end, kept, start, stop)
                if run is not None:
                    run_at, run_end = run
                    placed += _backfill(segments, skipped, kept, claimed, start, run_at)
                    for j in free[k - 1 : run_end]:
                        segments[j].kept = True
                        m = len(segments[j].norm)
                        claimed[run_at : run_at + m] = b"\x01" * m
                        placed += m
                        run_at += m
                    start = run_at
                    k = run_end
                    continue
            if found == -1:
                skipped.append(free[k - 1])
                continue
            seg.kept = True
            placed += m
            claimed[found : found + m] = b"\x01" * m
        while k < len(free) and free[k] < seg_index:  # filled backwards above
            k += 1
        if seg_index < len(segments):
            placed += _backfill(segments, skipped, kept, claimed, start, stop)
            segments[seg_index].kept = True
            placed += n
            start = pos + n
            k += 1
    return placed


def _backfill(
    segments: list[Segment],
    skipped: list[int],
    kept: str,
    claimed: bytearray,
    floor: int,
    pos: int,
) -> int:
    """Place skipped segments that end exactly where the cursor jumps to, right to left.

    When the cursor jumps ahead to ``pos`` (a long segment found a little further on), the
    short segments just before it on the page often fill the gap exactly ("pub fn" and
    "is_ok" before the rest of a signature). Clears ``skipped``; returns the chars placed.
    """
    placed = 0
    end = pos
    for i in reversed(skipped):
        norm = segments[i].norm
        begin = end - len(norm)
        if begin < floor or not kept.startswith(norm, begin) or any(claimed[begin:end]):
            break
        segments[i].kept = True
        claimed[begin:end] = b"\x01" * len(norm)
        placed += len(norm)
        end = begin
    skipped.clear()
    return placed


def _next_continues(
    segments: list[Segment], free: list[int], k: int, stop: int, kept: str, start: int
) -> bool:
    """True when one of the next few segments continues ``kept`` exactly at ``start``."""
    for j in free[k : k + LOOKAHEAD_SEGMENTS]:
        if j >= stop:
            break
        if kept.startswith(segments[j].norm, start):
            return True
    return False


def _later_twin_fits(
    segments: list[Segment], free: list[int], k: int, stop: int, kept: str, after: int
) -> bool:
    """True when the segment just placed (``free[k - 1]``) should rather be a later copy.

    A breadcrumb repeating the heading below it matches the kept text as well as the
    heading does; the copy whose next segment continues the kept text is the right one.
    """
    norm = segments[free[k - 1]].norm
    window = [j for j in free[k : k + LOOKAHEAD_SEGMENTS + 1] if j < stop]
    if not window or kept.startswith(segments[window[0]].norm, after):
        return False  # the page goes on exactly as the kept text does
    for n, j in enumerate(window[:-1]):
        if segments[j].norm == norm and kept.startswith(segments[window[n + 1]].norm, after):
            return True
    return False


def _unclaimed(norm: str, kept: str, claimed: bytearray) -> int:
    """An occurrence of ``norm`` in ``kept`` none of whose characters is placed yet."""
    pos = kept.find(norm)
    while pos != -1:
        if not any(claimed[pos : pos + len(norm)]):
            return pos
        pos = kept.find(norm, pos + 1)
    return -1


def _find_near(norm: str, kept: str, start: int, stop: int) -> int:
    """Where ``norm`` continues ``kept`` at ``start`` (short text), or a little later (longer
    text), or anywhere before ``stop`` (long text); -1 when it does not."""
    n = len(norm)
    if kept.startswith(norm, start) and start + n <= stop:
        return start
    if n < SHORT_SEGMENT_CHARS:
        return -1
    found = kept.find(norm, start, min(stop, start + n + min(n, WINDOW_SLACK_CHARS)))
    if found == -1 and n >= LONG_SEGMENT_CHARS:
        found = kept.find(norm, start, stop)
    return found


def _anchors(segments: list[Segment], free: list[int], kept: str) -> list[tuple[int, int, int]]:
    """(segment index, position in ``kept``, length) of unique long segments, increasing."""
    long_free = [i for i in free if len(segments[i].norm) >= LONG_SEGMENT_CHARS]
    if not long_free or len(long_free) * len(kept) > ANCHOR_BUDGET:
        return []
    counts: dict[str, int] = {}
    for i in long_free:
        counts[segments[i].norm] = counts.get(segments[i].norm, 0) + 1
    candidates: list[tuple[int, int, int]] = []
    for i in long_free:
        norm = segments[i].norm
        if counts[norm] != 1:
            continue
        pos = kept.find(norm)
        if pos != -1 and kept.find(norm, pos + 1) == -1:
            candidates.append((i, pos, len(norm)))
    return _increasing(candidates)


def _increasing(candidates: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """The longest run of candidates whose positions increase (patience sorting)."""
    tails: list[int] = []  # tails[j]: index in candidates of the end of the best run of j+1
    tail_pos: list[int] = []
    previous: list[int] = [-1] * len(candidates)
    for ci, (_, pos, _n) in enumerate(candidates):
        j = bisect.bisect_left(tail_pos, pos)
        if j > 0:
            prev_ci = tails[j - 1]
            if candidates[prev_ci][1] + candidates[prev_ci][2] > pos:  # overlapping
                continue
            previous[ci] = prev_ci
        if j == len(tails):
            tails.append(ci)
            tail_pos.append(pos)
        else:
            tails[j] = ci
            tail_pos[j] = pos
    run: list[tuple[int, int, int]] = []
    ci = tails[-1] if tails else -1
    while ci != -1:
        run.append(candidates[ci])
        ci = previous[ci]
    return run[::-1]
