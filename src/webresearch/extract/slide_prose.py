"""Prose set in "slide" blocks inside an article: kept with it. Pure functions over aligned
segments.

trafilatura deletes, before it looks for the article, every ``div``, ``section``, ``span``
or ``p`` whose class names a slide (``slide`` is one of its "UI meta" class tokens,
``xpaths.OVERALL_DISCARD_XPATH``): meant for image carousels, it also takes the items of
listicles that a site marks up as slides — Hearst's "listicle slides" (``<section
id="slide-1"><div class="listicle-slides">`` holding each item's heading, photo and its
paragraphs of review). A "best services" article then keeps its introduction and loses
every item it introduces (WCXB dev: recall 0.25 on such a page, for every extractor).

:func:`keep_slide_prose` marks kept the text of a block whose class or id names a slide
(the nearest such ancestor of a text) when

* it lies inside the article: strictly between the first and the last text trafilatura
  kept (a carousel of "more stories" after the article stays out);
* trafilatura kept (almost) none of it, at most :data:`MAX_KEPT_SHARE` (otherwise its
  own choice stands);
* it holds prose: at least :data:`MIN_SLIDE_CHARS` letters and digits, of which at least
  :data:`MIN_PROSE_SHARE` lie in text runs of :data:`PROSE_RUN_CHARS` or more outside
  links, a run being a paragraph's text (a ``<sup>`` footnote marker does not cut it:
  :func:`~webresearch.extract.prose_runs.prose_chars`) — sentences, not a gallery's short
  captions or a teaser carousel's linked headlines;
* its text does not repeat kept text, nor an earlier slide kept here (a carousel's cloned
  copy of a slide);
* neither it nor a block around it names a testimonial, a review or a quote — a quote
  card set beside a feature of a service page is not its content (one WCXB dev service
  page 0.89 → 0.64 without this condition) — unless the slide sits in a carousel (a block
  whose class names a slider, a carousel or a Swiper, Slick or Glide track: the slide
  itself or a block around it): a section of customers' words ("What our clients say"
  over a slider of quotes and names) is read as the page's content. WCXB dev service
  0.8103 → 0.8160 (3 pages up, +0.08 to +0.24; none down); one article page −0.015 (a
  course's testimonial slider under a blog post, which its ground truth leaves out), the
  other types and Zyte dev unchanged.

WCXB dev (webresearch alone, 756 pages): 8 pages change, none down — the listicle 0.39 →
0.96 (article +0.0014), a shop's collection of product sections set as slides 0.56 →
0.99, a product page's feature slides 0.73 → 0.86, two service pages +0.14 and +0.06; a
slide that is an image's long caption now comes out as its caption (one article, −0.0001).
"""

from __future__ import annotations

import re

from lxml import etree

from webresearch.extract.align import Segment, kept_span
from webresearch.extract.prose_runs import prose_chars
from webresearch.extract.tree import ancestor_where

__all__ = [
    "MAX_KEPT_SHARE",
    "MIN_PROSE_SHARE",
    "MIN_SLIDE_CHARS",
    "PROSE_RUN_CHARS",
    "keep_slide_prose",
]

#: A slide of which trafilatura kept more than this share is left to its choice (a short
#: label such as the item's number may be placed on a kept text by the alignment).
MAX_KEPT_SHARE = 0.1
#: Letters and digits a slide needs to be kept (two or three sentences).
MIN_SLIDE_CHARS = 200
#: Share of a slide's letters and digits that must lie in long text runs outside links …
MIN_PROSE_SHARE = 0.6
#: … of at least this many letters and digits (a sentence).
PROSE_RUN_CHARS = 80

#: Customers' words in a carousel: a shop's or a service's quotes, not an article's items.
_TESTIMONIAL = re.compile(r"testimonial|review|quote", re.I)
#: A class token naming a carousel (the block sliding its slides), not one slide of it:
#: "google-slider", "carousel-inner", Swiper's "swiper" / "swiper-wrapper", Slick's
#: "slick-track", Glide's "glide__track"; never "swiper-slide" or "slick-slide" alone.
_CAROUSEL_TOKEN = re.compile(
    r".*(?:slider|carousel).*|(?:.*-)?swiper(?:-wrapper|-container)?|slick-(?:list|track|slider)"
    r"|glide(?:r|__track|__slides)?.*|splide(?:__track|__list)?",
    re.I,
)


def keep_slide_prose(segments: list[Segment]) -> int:
    """Mark kept the prose of slide blocks inside the article (module docstring).

    Args:
        segments: the page's text nodes in document order, the kept ones marked by the
            alignment.

    Returns:
        the letters and digits added (0 when there is no such slide).
    """
    first, last = kept_span(segments)
    if first < 0 or last < 0:
        return 0
    memo: dict[etree._Element, etree._Element | None] = {}
    slides: dict[etree._Element, list[int]] = {}
    for i in range(first + 1, last):  # only texts left out are looked up (cost)
        if not segments[i].kept:
            slide = ancestor_where(segments[i].holder, _names_slide, memo)
            if slide is not None:
                slides.setdefault(slide, []).append(i)
    said: str | None = None
    copies: set[str] = set()
    added = 0
    for slide, left_out in slides.items():
        # a block's texts are consecutive: every text between two of its own is its own
        inside = range(left_out[0], left_out[-1] + 1)
        size = sum(len(segments[i].norm) for i in inside)
        if size - sum(len(segments[i].norm) for i in left_out) > MAX_KEPT_SHARE * size:
            continue  # trafilatura's own choice stands
        if size < MIN_SLIDE_CHARS:
            continue
        prose = prose_chars([segments[i] for i in left_out], slide, PROSE_RUN_CHARS)
        if prose < MIN_PROSE_SHARE * size:
            continue
        if said is None:
            said = "".join(seg.norm for seg in segments[first : last + 1] if seg.kept)
        text = "".join(segments[i].norm for i in inside)
        if text in said or text in copies:
            continue  # a carousel's copy of a slide kept elsewhere
        if _names_testimonial(slide) and not _in_carousel(slide):
            continue  # a quote card beside a feature, not a section of quotes
        copies.add(text)
        for i in left_out:
            segments[i].kept = True
            added += len(segments[i].norm)
    return added


def _names_slide(el: etree._Element) -> bool:
    """Whether the class or id of ``el`` holds "slide" (any case)."""
    name = el.get("class")
    if name is not None and "slide" in name.lower():
        return True
    name = el.get("id")
    return name is not None and "slide" in name.lower()


def _names_testimonial(slide: etree._Element) -> bool:
    """Whether the slide or a block around it names a testimonial, a review or a quote."""
    for el in (slide, *slide.iterancestors()):
        if isinstance(el.tag, str) and _TESTIMONIAL.search(
            (el.get("class") or "") + " " + (el.get("id") or "")
        ):
            return True
    return False


def _in_carousel(slide: etree._Element) -> bool:
    """Whether the slide or a block around it is a carousel (:data:`_CAROUSEL_TOKEN`)."""
    for el in (slide, *slide.iterancestors()):
        if isinstance(el.tag, str) and any(
            _CAROUSEL_TOKEN.fullmatch(token) for token in (el.get("class") or "").split()
        ):
            return True
    return False
