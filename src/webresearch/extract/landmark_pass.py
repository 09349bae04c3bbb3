"""Which of trafilatura's two passes to believe when the page marks its main content.

trafilatura's fast pass is not trusted when it keeps little (``main_content``, step 1): its
full pass then runs, and its second opinions (readability-lxml, jusText) take the longest
block of text on the page. On a job offer — ``<main>`` with a heading and two paragraphs,
a ``<nav>`` of other offers, an ``<aside>`` "Similar jobs" of ten cards — that longest
block is the aside: the offer itself was lost, only the other offers came out (review r-11,
fault 1). The page said where its content is; the fast pass had found it.

Evidence for the fast pass (issue 13: the fallback decides on evidence): the page has one
explicit main landmark (its ``<main>`` or ``role="main"``, else its only ``<article>``),
the fast pass kept at least :data:`MIN_LANDMARK_SHARE` of its text and nothing much
outside it, with at least one sentence (a text run of :data:`PROSE_RUN_CHARS` letters and
digits or more), and the full pass kept less of the landmark and more outside it than in
it: it moved away from the content the page marked, to a block the page put beside it.

The same evidence keeps a short main text from the whole-page fallback
(:func:`holds_landmark`): a small share of the page is expected when the rest is other
offers, and converting the whole page would bring them all back.
"""

from __future__ import annotations

from lxml import etree

from webresearch.extract.align import Segment, align_segments
from webresearch.extract.page_type import main_landmark

__all__ = [
    "MIN_LANDMARK_SHARE",
    "PROSE_RUN_CHARS",
    "explicit_landmark",
    "holds_landmark",
    "prefer_fast_pass",
]

#: The kept text covers at least this share of the landmark's letters and digits …
MIN_LANDMARK_SHARE = 0.5
#: … and at most this share of the kept text lies outside it.
MAX_OUTSIDE_SHARE = 0.1
#: A sentence: a text run of at least this many letters and digits.
PROSE_RUN_CHARS = 80


def explicit_landmark(body: etree._Element) -> etree._Element | None:
    """The page's ``<main>`` or ``role="main"`` element, else its only ``<article>``;
    ``None`` when it has neither (or several articles: a listing of cards)."""
    found = main_landmark(body)
    if found is not None:
        return found
    articles = body.findall(".//article")
    return articles[0] if len(articles) == 1 else None


def _inside(segments: list[Segment], landmark: etree._Element) -> list[bool]:
    """For each segment, whether its text lies inside ``landmark``."""
    within = set(landmark.iter())
    return [seg.holder in within for seg in segments]


def holds_landmark(segments: list[Segment], landmark: etree._Element | None) -> bool:
    """True when the kept segments are the landmark's content: at least
    :data:`MIN_LANDMARK_SHARE` of its letters and digits, at most
    :data:`MAX_OUTSIDE_SHARE` of theirs outside it, one kept sentence inside it."""
    if landmark is None:
        return False
    inside = _inside(segments, landmark)
    total = sum(len(s.norm) for s, i in zip(segments, inside, strict=True) if i)
    kept_in = sum(len(s.norm) for s, i in zip(segments, inside, strict=True) if i and s.kept)
    kept_out = sum(len(s.norm) for s, i in zip(segments, inside, strict=True) if s.kept and not i)
    sentence = any(
        s.kept and i and len(s.norm) >= PROSE_RUN_CHARS
        for s, i in zip(segments, inside, strict=True)
    )
    return (
        sentence
        and total > 0
        and kept_in >= MIN_LANDMARK_SHARE * total
        and kept_out <= MAX_OUTSIDE_SHARE * (kept_in + kept_out)
    )


def prefer_fast_pass(
    segments: list[Segment], fast: list[str], full: list[str], landmark: etree._Element | None
) -> bool:
    """True when the fast pass's ``fast`` texts are to be kept rather than the full pass's
    ``full`` (module docstring). The segments' ``kept`` flags are all ``False`` after.

    Args:
        segments: the page's text nodes (:func:`~webresearch.extract.align.text_segments`).
        fast, full: the two passes' kept texts (normalised).
        landmark: :func:`explicit_landmark` of the page.
    """
    if landmark is None or not fast or not full:
        return False
    align_segments(segments, fast)
    fast_holds = holds_landmark(segments, landmark)
    fast_in = _kept_inside(segments, landmark)[0]
    for seg in segments:
        seg.kept = False
    if not fast_holds:
        return False
    align_segments(segments, full)
    full_in, full_out = _kept_inside(segments, landmark)
    for seg in segments:
        seg.kept = False
    return full_in < fast_in and full_out > full_in


def _kept_inside(segments: list[Segment], landmark: etree._Element) -> tuple[int, int]:
    """Letters and digits kept inside and outside ``landmark``."""
    inside = _inside(segments, landmark)
    kept_in = sum(len(s.norm) for s, i in zip(segments, inside, strict=True) if s.kept and i)
    kept_out = sum(len(s.norm) for s, i in zip(segments, inside, strict=True) if s.kept and not i)
    return kept_in, kept_out
