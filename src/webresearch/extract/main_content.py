"""Which parts of a page are its main content. Pure functions over lxml trees.

trafilatura decides *what* the main content is; this module maps that decision back onto the
original page, so the markdown is rendered from the original markup (tables with their spans,
code blocks with their language, links and images with their real addresses) instead of
trafilatura's simplified tree:

1. trafilatura extracts from a copy of the parsed page: first its fast pass; only when that
   keeps little (:data:`CONFIDENT_CHARS`, :data:`CONFIDENT_SHARE`) the full pass with its
   readability and jusText second opinions (issue 13: no rescue pass when the first pass is
   confident; the fast pass stands when the full pass left the page's explicit ``<main>``
   for a list beside it: :mod:`webresearch.extract.landmark_pass`); in that copy a
   formula without TeX source is its text (trafilatura itself deletes such MathML:
   :mod:`webresearch.extract.traf_input`; there too a hidden block the hidden verdicts keep
   shows);
2. the text it kept is aligned, in document order, with the text nodes of the page
   (:mod:`webresearch.extract.align`);
3. elements holding no kept text are removed, kept text nodes stay, images trafilatura kept
   stay; blocks that lie inside the article but that trafilatura dropped are rescued
   (:mod:`webresearch.extract.rescue`: code blocks, data tables, headings, a list after a
   lead-in ending with a colon, a grid of link cards under a section heading); a formula
   (``<math>``) between two kept texts stays with them, and one that is not kept goes only
   with the block around it; a ``<time>`` (trafilatura deletes them all) stays when its
   line is kept (:mod:`webresearch.extract.inline_dates`).

4. a second opinion fills gaps (Bevendorff et al., "An Empirical Comparison of Web Content
   Extraction Algorithms", SIGIR 2023: an ensemble of heuristic extractors beats each of
   them): resiliparse's main-content text (lexbor) is aligned the same way, and text it
   keeps *between* trafilatura's first and last kept text is kept too — a price line, spec
   cards or a feature list trafilatura dropped inside the content. Nothing outside
   trafilatura's span is added, so its choice of *where* the content is stands; nor text
   of figures, captions, galleries and slideshows. It runs only when trafilatura left some
   text out inside its span, not on forum threads (it kept the profile cards between
   posts: −0.012 on WCXB dev forum pages), and only when the caller passes the markup (``extract_html`` does not for declared articles, where it gained
   +0.002 for a second parse). Measured on the development parts: WCXB service +0.02,
   listing +0.02, collection +0.02; Zyte unchanged.

   trafilatura's full pass is such an opinion too. Its fast pass, confident by its size,
   sometimes drops whole blocks in the middle of the article (an FAQ of ``<details
   class="expandable">`` answers, a card of text between two sections): when the text
   left out between its first and last kept text is at least as long as what it kept
   (:data:`FILL_GAP_SHARE`) and mostly prose (at least :data:`FILL_PROSE_SHARE` of it in
   text runs of :data:`PROSE_RUN_CHARS` letters or more), the full pass runs and what *it*
   keeps inside that span is kept too, on every page but forum threads — provided what it
   adds is prose by the same measure: on a shop's collection page the full pass fills the
   span with item cards' names and prices (one WCXB dev collection page 0.85 → 0.31
   without that condition). The full pass runs again on 14 of the 756 WCXB dev pages
   (61 without the condition on the holes, with the same result), on no Zyte dev page. WCXB
   dev: article +0.001 (a guide whose FAQ answers were lost 0.49 → 0.91), service +0.004
   (an insurance page 0.59 → 0.96), no page down, the other types and Zyte unchanged.
   Replacing the fast pass by the full pass instead (a higher :data:`CONFIDENT_SHARE`)
   lost more than it gained (WCXB dev 0.858 → 0.856 at 0.25): readability's answer took
   comment threads and whole pages (−0.8 on some pages).

5. on a forum thread whose posts are marked with schema.org microdata, every post body and
   its byline are kept and the profile cards, signatures and buttons around them are not
   (:mod:`webresearch.extract.forum`); when trafilatura's comment section only repeats
   its article (the same posts read twice), the comment section alone is kept.

When the alignment cannot place most of what trafilatura kept (it took text from metadata,
for instance), trafilatura's own tree is rendered instead.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Collection
from dataclasses import dataclass

from lxml import etree

from webresearch.extract.align import Segment, align_segments, normalise, page_segments
from webresearch.extract.card_titles import keep_card_titles
from webresearch.extract.category_head import keep_category_head
from webresearch.extract.dialog_titles import keep_dialog_title
from webresearch.extract.faq_answers import keep_faq_answers
from webresearch.extract.forum import keep_thread, repeats_article
from webresearch.extract.inline_dates import keep_inline_dates
from webresearch.extract.landmark_pass import explicit_landmark, holds_landmark, prefer_fast_pass
from webresearch.extract.product_head import keep_product_head
from webresearch.extract.product_name import product_h1
from webresearch.extract.product_summary import keep_product_summary
from webresearch.extract.quote_figures import keep_quote_figures, keep_quote_sources
from webresearch.extract.rescue import in_boilerplate, rescue_blocks, within
from webresearch.extract.slide_prose import keep_slide_prose
from webresearch.extract.traf_input import trafilatura_input
from webresearch.extract.traf_pass import PassMemo, extraction_pass
from webresearch.extract.traf_tree import trafilatura_tree_to_html
from webresearch.extract.tree import ancestor_where, elements_between, remove_keep_tail
from webresearch.extract.visible_copies import keep_visible_copies
from webresearch.extract.whole_body import keep_whole_body

__all__ = ["MainContent", "find_main_content"]

#: Below this share of trafilatura's text placed on the page, its own tree is rendered.
MIN_ALIGNED_SHARE = 0.6
#: trafilatura's fast pass is trusted when it keeps at least this many letters and digits …
CONFIDENT_CHARS = 500
#: … and this share of the page's text; otherwise the full pass with its second opinions
#: (readability-lxml, jusText) runs. Measured on the development part of both corpora: the
#: same F1 as always running the full pass (±0.001), a quarter less time per page (median).
CONFIDENT_SHARE = 0.1
#: A confident fast pass that left out more text between its first and last kept text than
#: it kept (this share of it) has holes: the full pass fills them (module docstring, step 4).
FILL_GAP_SHARE = 1.0
#: The full pass's filling is taken only when this share of its letters or more …
FILL_PROSE_SHARE = 0.5
#: … lies in text runs (text nodes) of at least this many letters and digits: sentences.
PROSE_RUN_CHARS = 80

_MEDIA_NAME = re.compile(r"caption|gallery|slide|carousel|lightbox|credit|photo|video", re.I)


def _tag(el: etree._Element) -> str:
    return el.tag.lower() if isinstance(el.tag, str) else ""


logging.getLogger("trafilatura").setLevel(logging.CRITICAL)
logging.getLogger("htmldate").setLevel(logging.CRITICAL)


@dataclass(frozen=True, slots=True)
class _Pass:
    """What one trafilatura pass kept: its tree (article, then comments), the text of each
    (normalised), and whether the tree is its last resort, the page's whole text
    (:func:`~webresearch.extract.traf_pass.is_whole_body_dump`)."""

    body: etree._Element | None
    streams: list[str]
    whole_body: bool = False


def _trafilatura(
    doc: etree._Element, fast: bool, comments: bool, memo: PassMemo, url: str = ""
) -> _Pass:
    """trafilatura's pass over ``doc`` (nothing kept: no tree, no texts).

    ``fast`` skips trafilatura's second opinions (readability-lxml, then jusText);
    ``comments`` keeps the comment section (on a forum thread the replies are the content).
    Otherwise trafilatura's default settings are kept. ``memo``: shared by the passes over
    ``doc``, a full pass reuses what the fast pass found (:mod:`webresearch.extract.traf_content`).
    ``url``: the page's address (:func:`~webresearch.extract.traf_pass.extraction_pass`).
    """
    try:
        result = extraction_pass(doc, fast, comments, memo, url)
    except (ValueError, TypeError, RecursionError, etree.LxmlError):
        return _Pass(None, [])
    if result is None:
        return _Pass(None, [])
    body = result.body
    text = _tree_text(body)
    thread = result.comments
    if thread is not None and len(thread):
        comments_text = _tree_text(thread)
        if comments_text and comments_text not in text:
            if text in comments_text:  # the article is part of the comments: keep those
                return _Pass(thread, [comments_text])
            if repeats_article(thread, text):  # one thread read twice: its posts are kept
                return _Pass(thread, [comments_text])
            body.append(thread)
            return _Pass(body, [s for s in (text, comments_text) if s], result.whole_body)
    return _Pass(body, [text] if text else [], result.whole_body)


def _tree_text(tree: etree._Element) -> str:
    """Letters and digits of ``tree``'s text; a tail comes before the children's text (not
    document order: ``itertext()`` would change 6 of 828 dev pages' output)."""
    pieces: list[str] = []
    for el in tree.iter():
        if el.text:
            pieces.append(el.text)
        if el is not tree and el.tail:
            pieces.append(el.tail)
    return normalise(" ".join(pieces))


def _article_images(body: etree._Element, segments: list[Segment]) -> list[etree._Element]:
    """Images between the first and the last kept text, outside navigation and page chrome."""
    kept = [s for s in segments if s.kept]
    if not kept or body.find(".//img") is None:
        return []
    images = []
    for img in elements_between(body, "img", kept[0].owner, kept[-1].owner):
        if in_boilerplate(img, body):
            continue
        if any((img.get(dim) or "").strip() in ("0", "1", "2") for dim in ("width", "height")):
            continue  # tracking pixel
        images.append(img)
    return images


@dataclass(slots=True)
class MainContent:
    """Where the main content of a page is, before anything is removed.

    Attributes:
        kept_chars: letters and digits of the main content.
        page_chars: letters and digits of all the page's text, visible or hidden.
        aligned: ``True`` when the content was placed on the original page (it will be
            rendered from the original markup); ``False`` when trafilatura's own tree is used.
        whole_body: trafilatura found no main content and kept the page's whole text
            (module docstring): the kept text is the page, less what trafilatura's cleaning
            left out (footers, asides, cookie banners).
    """

    kept_chars: int
    page_chars: int
    aligned: bool
    _body: etree._Element
    _segments: list[Segment]
    _traf_body: etree._Element
    whole_body: bool = False

    def root(self) -> etree._Element:
        """The element to render: the page's ``<body>`` pruned in place, or trafilatura's
        tree as HTML. Call once; the page is modified."""
        if not self.aligned:
            return trafilatura_tree_to_html(self._traf_body)
        _prune(self._body, self._segments)
        return self._body

    def prefer_visible_copies(self, hidden: list[etree._Element]) -> int:
        """Keep the visible copy of text kept inside the ``hidden`` blocks about to be
        removed (:mod:`webresearch.extract.visible_copies`); the letters and digits moved.
        Call before :meth:`root`."""
        return keep_visible_copies(self._segments, hidden) if self.aligned else 0

    def holds_landmark(self) -> bool:
        """True when the kept text is the page's explicit ``<main>`` content
        (:func:`~webresearch.extract.landmark_pass.holds_landmark`). Call before :meth:`root`."""
        return self.aligned and holds_landmark(self._segments, explicit_landmark(self._body))


def find_main_content(
    doc: etree._Element,
    comments: bool = False,
    html: str | None = None,
    shown: Collection[etree._Element] = (),
    url: str = "",
) -> MainContent | None:
    """Locate the main content of a parsed page (the page is not modified yet).

    Args:
        doc: the parsed document (``<html>`` element).
        comments: the page's comments are content (a forum thread's replies).
        html: the page's markup as parsed, for the second opinion (module docstring, step
            4); ``None`` or a forum thread (``comments``): trafilatura alone.
        shown: hidden elements of ``doc`` that are content (the hidden verdicts' ``kept``:
            :func:`~webresearch.extract.page_noise.hidden_verdicts`); trafilatura reads
            them as shown (:mod:`webresearch.extract.traf_input`).
        url: the page's address (``""``: unknown): a list of links to other sites under a
            heading is an article's citations (:mod:`webresearch.extract.link_lists`).

    Returns:
        where the main content is, or ``None`` when trafilatura finds none.
    """
    body = doc.find("body")
    if body is None:
        return None
    segments = page_segments(body)
    page_chars = sum(len(s.norm) for s in segments)
    doc = trafilatura_input(doc, shown)  # what trafilatura reads; the page is not changed
    memo = PassMemo()  # the full pass reuses the fast pass's main extraction
    kept = _trafilatura(doc, True, comments, memo, url)
    total = sum(len(k) for k in kept.streams)
    confident = total >= CONFIDENT_CHARS and total >= CONFIDENT_SHARE * page_chars
    if not confident:
        fast = kept
        kept = _trafilatura(doc, False, comments, memo, url)  # not confident: 2nd opinions
        if not comments and prefer_fast_pass(
            segments, fast.streams, kept.streams, explicit_landmark(body)
        ):
            kept = fast  # the full pass left the page's <main> (landmark_pass.py)
        total = sum(len(k) for k in kept.streams)
    traf_body, streams = kept.body, kept.streams
    if traf_body is None or not streams:
        return None
    if kept.whole_body:  # trafilatura's last resort: no choice to align (whole_body.py)
        placed = keep_whole_body(body, segments)
    else:
        placed = align_segments(segments, streams)
    aligned = placed >= MIN_ALIGNED_SHARE * total  # a thread's cards left out do not undo it
    if comments:  # every post of a thread, with its byline (extract/forum.py)
        placed += keep_thread(body, segments)
    if not aligned and placed < MIN_ALIGNED_SHARE * total and not kept.whole_body:
        return MainContent(total, page_chars, False, body, segments, traf_body)
    gap = _gap(segments)
    if (
        confident
        and not comments
        and gap >= FILL_GAP_SHARE * placed
        and _gap(segments, PROSE_RUN_CHARS) >= FILL_PROSE_SHARE * gap
    ):  # holes of prose in the article: the full pass fills them
        full = _trafilatura(doc, False, comments, memo, url)
        placed += _fill_span(segments, full.streams, prose_only=True)
    if html is not None and not comments:
        placed += _fill_from_second_opinion(segments, html)
    if not comments:  # price, rating and options under a product's <h1> (product_head.py)
        h1 = product_h1(body)  # the product's name (product_name.py)
        placed += keep_product_summary(body, segments, h1)  # a head left out whole
        placed += keep_product_head(body, segments, h1)
        placed += keep_category_head(body, segments, h1)  # a listing's name and intro
        placed += keep_quote_figures(body, segments)  # figure > blockquote (quote_figures.py)
        placed += keep_quote_sources(body, segments)  # its <figcaption>: who said it
        placed += keep_slide_prose(segments)  # listicle items set as slides (slide_prose.py)
        placed += keep_faq_answers(segments)  # bare <div> answers under questions (faq_answers.py)
        placed += keep_card_titles(body, segments)  # a product card's name by its price
        placed += keep_dialog_title(segments)  # a modal that is the page: its title
    _keep_formulas(segments)
    placed += keep_inline_dates(segments)  # a <time> in a kept line (inline_dates.py)
    return MainContent(placed, page_chars, True, body, segments, traf_body, kept.whole_body)


def _keep_formulas(segments: list[Segment]) -> None:
    """Keep each ``<math>`` whose text right before and right after (if any) is kept: trafilatura
    deletes MathML without TeX source (``tree_cleaning``), yet the formula is part of the
    sentence around it ("the square of three, written 3^2, is nine")."""
    end = len(segments) - 1
    for i in range(1, end + 1):
        seg = segments[i]
        if seg.kept or seg.tail or not segments[i - 1].kept:
            continue  # (the cheap tests first: the tag is read for few segments)
        if (i == end or segments[i + 1].kept) and _tag(seg.owner).endswith("math"):
            seg.kept = True


def _gap(segments: list[Segment], run: int = 0) -> int:
    """Letters and digits not kept between the first and the last kept segment (only those
    of segments with at least ``run`` of them)."""
    kept = [i for i, s in enumerate(segments) if s.kept]
    if len(kept) < 2:
        return 0
    return sum(
        len(seg.norm)
        for seg in segments[kept[0] : kept[-1]]
        if not seg.kept and len(seg.norm) >= run
    )


def _fill_from_second_opinion(segments: list[Segment], html: str) -> int:
    """Mark kept the segments between the first and last kept one that resiliparse keeps
    (module docstring, step 4); the letters and digits added."""
    kept = [i for i, s in enumerate(segments) if s.kept]
    media: dict[etree._Element, etree._Element | None] = {}
    if len(kept) < 2 or all(
        seg.kept or _in_media(seg, media) for seg in segments[kept[0] : kept[-1]]
    ):
        return 0  # nothing it could fill (_fill_span): no second parse
    text = _resiliparse_text(html)
    if not text:
        return 0
    return _fill_span(segments, [text], prose_only=False)


def _fill_span(segments: list[Segment], streams: list[str], prose_only: bool) -> int:
    """Mark kept the segments another extraction's ``streams`` keep strictly between the
    first and the last kept segment, outside figures, captions and galleries; the letters
    and digits added.

    ``prose_only``: add nothing unless at least :data:`FILL_PROSE_SHARE` of the added
    letters lie in text runs of :data:`PROSE_RUN_CHARS` or more (module docstring, step 4).
    """
    kept = [i for i, s in enumerate(segments) if s.kept]
    if len(kept) < 2 or not streams:
        return 0
    first, last = kept[0], kept[-1]
    before = [s.kept for s in segments]
    for seg in segments:
        seg.kept = False
    align_segments(segments, streams)
    added: list[Segment] = []
    media: dict[etree._Element, etree._Element | None] = {}
    for i, seg in enumerate(segments):
        if before[i]:
            seg.kept = True
        elif seg.kept and (not first < i < last or _in_media(seg, media)):
            seg.kept = False
        elif seg.kept:
            added.append(seg)
    size = sum(len(seg.norm) for seg in added)
    prose = sum(len(seg.norm) for seg in added if len(seg.norm) >= PROSE_RUN_CHARS)
    if prose_only and prose < FILL_PROSE_SHARE * size:
        for seg in added:  # item cards' names and prices, not a section of the article
            seg.kept = False
        return 0
    return size


def _in_media(seg: Segment, memo: dict[etree._Element, etree._Element | None]) -> bool:
    """True when the segment is part of a figure, caption, gallery or slideshow."""
    return ancestor_where(seg.holder, _is_media, memo) is not None


def _is_media(el: etree._Element) -> bool:
    return _tag(el) in ("figure", "figcaption") or bool(
        _MEDIA_NAME.search((el.get("class") or "") + " " + (el.get("id") or ""))
    )


def _resiliparse_text(html: str) -> str:
    """resiliparse's main-content text of ``html``, normalised; empty when it finds none."""
    from resiliparse.extract.html2text import extract_plain_text
    from resiliparse.parse.html import HTMLTree

    try:
        tree = HTMLTree.parse(html)
        text = extract_plain_text(
            tree,
            preserve_formatting=False,  # only letters and digits are aligned
            main_content=True,
            list_bullets=False,  # an ordered list's "1." would be text to place
            alt_texts=False,
            links=False,
        )
        return normalise(text)
    except (ValueError, RuntimeError, MemoryError):
        return ""


def _prune(body: etree._Element, segments: list[Segment]) -> None:
    """Remove from ``body`` everything that holds no kept text, rescued block or kept image."""
    marked: set[etree._Element] = set()

    def mark(el: etree._Element | None) -> None:
        while el is not None and el not in marked:
            marked.add(el)
            el = el.getparent()

    # each text's element, looked up once (the shape of the tree changes only at the end)
    holders = [seg.holder for seg in segments]
    for i, seg in enumerate(segments):  # a formula not kept goes only with its block
        if not seg.kept and not seg.tail and _tag(seg.owner).endswith("math"):
            holders[i] = None
    images = _article_images(body, segments)
    rescued = rescue_blocks(body, segments, holders) + _captions(images)
    for el in rescued:
        marked.update(el.iter())
        mark(el.getparent())
    rescued_set = set(rescued)  # looked up for every text not kept
    for seg, holder in zip(segments, holders, strict=True):
        if seg.kept:
            mark(holder)
    for img in images:
        mark(img)
    for seg, holder in zip(segments, holders, strict=True):  # blank out text not kept
        if seg.kept:
            continue  # (outside rescued blocks)
        if holder is None or holder not in marked or within(holder, rescued_set):
            continue
        if seg.tail:
            seg.owner.tail = " "
        else:
            seg.owner.text = " "
    # Elements holding text or images that were not kept go; the rest (whitespace-only
    # spans in code, separators, line breaks) stays inside kept elements.
    holding: set[etree._Element] = set()
    for node in holders:
        while node is not None and node not in holding:
            holding.add(node)
            node = node.getparent()
    for img in body.iter("img"):
        node = img
        while node is not None and node not in holding:
            holding.add(node)
            node = node.getparent()
    for el in list(body.iter()):
        if el is body or el in marked or el not in holding:
            continue
        parent = el.getparent()
        if parent is None or parent not in marked:
            continue  # removed with an ancestor already
        remove_keep_tail(el)
    for el in body.iter("noscript"):  # kept ones hold main content: render them
        el.tag = "div"


def _captions(images: list[etree._Element]) -> list[etree._Element]:
    """The ``<figcaption>`` of each kept image's ``<figure>`` when the image has no alt text
    of its own: then the caption is what describes it."""
    found: list[etree._Element] = []
    for img in images:
        if len((img.get("alt") or "").split()) >= 2:
            continue
        for ancestor in img.iterancestors():
            if ancestor.tag == "figure":
                found.extend(c for c in ancestor.iter("figcaption") if c not in found)
                break
    return found
