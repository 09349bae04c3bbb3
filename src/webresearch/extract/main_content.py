"""Which parts of a page are its main content. Pure functions over lxml trees.

trafilatura decides *what* the main content is; this module maps that decision back onto the
original page, so the markdown is rendered from the original markup (tables with their spans,
code blocks with their language, links and images with their real addresses) instead of
trafilatura's simplified tree:

1. trafilatura extracts from a copy of the parsed page;
2. the text it kept is aligned, in document order, with the text nodes of the page
   (letters and digits only, so whitespace and punctuation differences do not matter);
3. elements holding no kept text are removed, kept text nodes stay, images trafilatura kept
   stay; code blocks and data tables that lie inside the article but that trafilatura
   dropped (a ``code-toolbar`` or ``widget`` class, a very short ``<pre>``) are rescued.

When the alignment cannot place most of what trafilatura kept (it took text from metadata,
for instance), trafilatura's own tree is rendered instead.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from copy import deepcopy
from dataclasses import dataclass

from lxml import etree
from lxml import html as lxml_html

from webresearch.extract.markdown import SKIPPED_TAGS

__all__ = ["MainContent", "find_main_content", "normalise", "page_text_size", "text_segments"]

#: A short text node must continue exactly where the previous kept text ended.
SHORT_SEGMENT_CHARS = 12
#: A longer one may be found a little further on — at most its own length or this many
#: characters later (text trafilatura kept that the page walk did not see).
WINDOW_SLACK_CHARS = 64
#: A long one is searched anywhere in the kept text.
LONG_SEGMENT_CHARS = 24
#: A data table with at least this share of its text kept is kept whole.
PARTIAL_TABLE_SHARE = 0.3
#: How many following segments may show that a skip ahead in the kept text is wrong.
LOOKAHEAD_SEGMENTS = 4
#: Below this share of trafilatura's text placed on the page, its own tree is rendered.
MIN_ALIGNED_SHARE = 0.6

_NON_WORD = re.compile(r"[\W_]+")
#: Elements whose text is never page text. ``<noscript>`` is text here: some sites serve
#: their content to crawlers in it (Discourse forums), and trafilatura may keep it.
_NOT_TEXT = SKIPPED_TAGS - {"noscript"}
_HEADING_TAGS = ("h1", "h2", "h3", "h4", "h5", "h6")
_BOILERPLATE_TAGS = frozenset({"nav", "aside", "footer", "header", "form", "menu"})
_BOILERPLATE_ROLES = frozenset({"navigation", "banner", "contentinfo", "search", "complementary"})

logging.getLogger("trafilatura").setLevel(logging.CRITICAL)
logging.getLogger("htmldate").setLevel(logging.CRITICAL)


@dataclass(slots=True)
class _Segment:
    owner: etree._Element  # the element whose .text (or, for a tail, .tail) this is
    tail: bool
    norm: str
    kept: bool = False


def normalise(text: str) -> str:
    """Letters and digits of ``text``, lower-cased (the alignment alphabet)."""
    return _NON_WORD.sub("", text).lower()


def _tag(el: etree._Element) -> str:
    return el.tag.lower() if isinstance(el.tag, str) else ""


def text_segments(body: etree._Element) -> Iterator[_Segment]:
    """Every text node under ``body`` in document order, skipping scripts, styles and alike."""
    walker = etree.iterwalk(body, events=("start", "end"))
    for event, el in walker:
        tag = _tag(el)
        if event == "start":
            if not tag or tag in _NOT_TEXT:
                walker.skip_subtree()
                continue
            if el.text:
                norm = normalise(el.text)
                if norm:
                    yield _Segment(el, False, norm)
        elif el is not body and el.tail:
            norm = normalise(el.tail)
            if norm:
                yield _Segment(el, True, norm)


def page_text_size(body: etree._Element) -> int:
    """Letters and digits of all text under ``body``, visible or hidden (not scripts)."""
    return sum(len(s.norm) for s in text_segments(body))


def _trafilatura(doc: etree._Element) -> tuple[etree._Element | None, list[str]]:
    """trafilatura's tree (article, then comments) and the text of each, or ``(None, [])``.

    trafilatura's default settings are kept on purpose: they are what its benchmark scores
    measure. Comments count as content (on a forum thread they are the content).
    """
    import trafilatura

    try:
        result = trafilatura.bare_extraction(doc, include_comments=False)
    except (ValueError, TypeError, RecursionError, etree.LxmlError):
        return None, []
    body = getattr(result, "body", None)
    if result is None or body is None:
        return None, []
    text = _tree_text(body)
    comments = getattr(result, "commentsbody", None)
    if comments is not None and len(comments):
        comments_text = _tree_text(comments)
        if comments_text and comments_text not in text:
            if text in comments_text:  # the article is part of the comments: keep those
                return comments, [comments_text]
            body.append(comments)
            return body, [s for s in (text, comments_text) if s]
    return body, [text] if text else []


def _tree_text(tree: etree._Element) -> str:
    pieces: list[str] = []
    for el in tree.iter():
        if el.text:
            pieces.append(el.text)
        if el is not tree and el.tail:
            pieces.append(el.tail)
    return normalise(" ".join(pieces))


def _align(segments: list[_Segment], streams: list[str]) -> int:
    """Mark the segments that trafilatura kept; return the letters and digits placed.

    Each of trafilatura's texts (article, then comments) is aligned on its own with the
    segments not placed yet (:func:`_align_stream`).
    """
    return sum(_align_stream(segments, kept) for kept in streams)


def _align_stream(segments: list[_Segment], kept: str) -> int:
    """Align page text segments, in document order, with one of trafilatura's texts.

    Anchors come first: long segments that occur exactly once on the page and once in
    ``kept``, in increasing order (the longest increasing run of them). Between two anchors
    the other segments are matched greedily, each only inside the stretch of ``kept``
    between the anchors, so repeated text ("Meal 1", "Eat every 2–3 hours") is placed at the
    right repetition. A long segment found nowhere in its stretch but somewhere else is
    kept too (trafilatura sometimes moves a block), without moving the cursor.
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
    segments: list[_Segment],
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
    segments: list[_Segment], free: list[int], k: int, stop: int, kept: str, start: int
) -> bool:
    """True when one of the next few segments continues ``kept`` exactly at ``start``."""
    for j in free[k : k + LOOKAHEAD_SEGMENTS]:
        if j >= stop:
            break
        if kept.startswith(segments[j].norm, start):
            return True
    return False


def _later_twin_fits(
    segments: list[_Segment], free: list[int], k: int, stop: int, kept: str, after: int
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


#: Above this many segments × kept characters, anchors are not searched (cost bound).
_ANCHOR_BUDGET = 200_000_000


def _anchors(segments: list[_Segment], free: list[int], kept: str) -> list[tuple[int, int, int]]:
    """(segment index, position in ``kept``, length) of unique long segments, increasing."""
    long_free = [i for i in free if len(segments[i].norm) >= LONG_SEGMENT_CHARS]
    if not long_free or len(long_free) * len(kept) > _ANCHOR_BUDGET:
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
    import bisect

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


def _article_images(body: etree._Element, segments: list[_Segment]) -> list[etree._Element]:
    """Images between the first and the last kept text, outside navigation and page chrome."""
    kept = [s for s in segments if s.kept]
    if not kept:
        return []
    order = {el: i for i, el in enumerate(body.iter())}
    first = order.get(kept[0].owner, 0)
    last = order.get(kept[-1].owner, 0)
    images = []
    for img in body.iter("img"):
        if not first < order.get(img, -1) < last or _in_boilerplate(img, body):
            continue
        if any((img.get(dim) or "").strip() in ("0", "1", "2") for dim in ("width", "height")):
            continue  # tracking pixel
        images.append(img)
    return images


def _in_boilerplate(el: etree._Element, stop: etree._Element) -> bool:
    node: etree._Element | None = el
    while node is not None and node is not stop:
        if (
            _tag(node) in _BOILERPLATE_TAGS
            or (node.get("role") or "").lower() in _BOILERPLATE_ROLES
        ):
            return True
        node = node.getparent()
    return False


def _is_data_table(table: etree._Element) -> bool:
    """A table worth rescuing: several rows and columns, no nested table, not mostly links."""
    if table.find(".//table") is not None:
        return False
    rows = table.findall(".//tr")
    if (
        len(rows) < 2
        or max((len(r.findall("td")) + len(r.findall("th")) for r in rows), default=0) < 2
    ):
        return False
    text = normalise(table.text_content())
    links = sum(len(normalise(a.text_content())) for a in table.iter("a"))
    return bool(text) and links < 0.5 * len(text)


@dataclass(slots=True)
class MainContent:
    """Where the main content of a page is, before anything is removed.

    Attributes:
        kept_chars: letters and digits of the main content.
        page_chars: letters and digits of all the page's text, visible or hidden.
        aligned: ``True`` when the content was placed on the original page (it will be
            rendered from the original markup); ``False`` when trafilatura's own tree is used.
    """

    kept_chars: int
    page_chars: int
    aligned: bool
    _body: etree._Element
    _segments: list[_Segment]
    _traf_body: etree._Element

    def root(self) -> etree._Element:
        """The element to render: the page's ``<body>`` pruned in place, or trafilatura's
        tree as HTML. Call once; the page is modified."""
        if not self.aligned:
            return trafilatura_tree_to_html(self._traf_body)
        _prune(self._body, self._segments)
        return self._body


def find_main_content(doc: etree._Element) -> MainContent | None:
    """Locate the main content of a parsed page (the page is not modified yet).

    Args:
        doc: the parsed document (``<html>`` element).

    Returns:
        where the main content is, or ``None`` when trafilatura finds none.
    """
    body = doc.find("body")
    if body is None:
        return None
    traf_body, streams = _trafilatura(doc)
    if traf_body is None or not streams:
        return None
    total = sum(len(k) for k in streams)
    segments = list(text_segments(body))
    page_chars = sum(len(s.norm) for s in segments)
    placed = _align(segments, streams)
    if placed < MIN_ALIGNED_SHARE * total:
        return MainContent(total, page_chars, False, body, segments, traf_body)
    return MainContent(placed, page_chars, True, body, segments, traf_body)


def _prune(body: etree._Element, segments: list[_Segment]) -> None:
    """Remove from ``body`` everything that holds no kept text, rescued block or kept image."""
    marked: set[etree._Element] = set()

    def mark(el: etree._Element | None) -> None:
        while el is not None and el not in marked:
            marked.add(el)
            el = el.getparent()

    rescued = _rescue_blocks(body, segments)
    for el in rescued:
        marked.update(el.iter())
        mark(el.getparent())
    for seg in segments:
        if seg.kept:
            mark(seg.owner.getparent() if seg.tail else seg.owner)
    for img in _article_images(body, segments):
        mark(img)
    for seg in segments:  # blank out text that was not kept (outside rescued blocks)
        if seg.kept:
            continue
        holder = seg.owner.getparent() if seg.tail else seg.owner
        if holder is None or holder not in marked or _within(holder, rescued):
            continue
        if seg.tail:
            seg.owner.tail = " "
        else:
            seg.owner.text = " "
    # Elements holding text or images that were not kept go; the rest (whitespace-only
    # spans in code, separators, line breaks) stays inside kept elements.
    holding: set[etree._Element] = set()
    for seg in segments:
        node: etree._Element | None = seg.owner.getparent() if seg.tail else seg.owner
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
        _drop_keep_tail(el)
    for el in body.iter("noscript"):  # kept ones hold main content: render them
        el.tag = "div"


def _rescue_blocks(body: etree._Element, segments: list[_Segment]) -> list[etree._Element]:
    """Code blocks, data tables and headings between the first and last kept text that
    trafilatura dropped (a heading only when the text right after it was kept)."""
    kept = [i for i, s in enumerate(segments) if s.kept]
    if not kept:
        return []
    first, last = kept[0], kept[-1]
    index: dict[etree._Element, list[int]] = {}
    for i, seg in enumerate(segments):
        holder = seg.owner.getparent() if seg.tail else seg.owner
        if holder is not None:
            index.setdefault(holder, []).append(i)
    rescued: list[etree._Element] = []
    for el in body.iter("pre", "table", *_HEADING_TAGS):
        if _within(el, rescued):
            continue
        inner = [i for sub in el.iter() for i in index.get(sub, ())]
        tag = _tag(el)
        kept_inner = sum(1 for i in inner if segments[i].kept)
        if tag == "table" and kept_inner and kept_inner < len(inner) and _is_data_table(el):
            if kept_inner >= PARTIAL_TABLE_SHARE * len(inner) and not _in_boilerplate(el, body):
                rescued.append(el)  # a data table is kept whole, never row by row
            continue
        if not inner or min(inner) <= first or max(inner) >= last:
            continue
        if kept_inner or _in_boilerplate(el, body):
            continue
        if tag == "table" and not _is_data_table(el):
            continue
        if tag in _HEADING_TAGS and not segments[max(inner) + 1].kept:
            continue  # a heading is rescued only when the text it introduces was kept
        rescued.append(el)
    return rescued


def _drop_keep_tail(el: etree._Element) -> None:
    """Remove ``el`` and its subtree but keep the text that follows it."""
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


def _within(el: etree._Element, blocks: list[etree._Element]) -> bool:
    """True when ``el`` is one of ``blocks`` or inside one of them."""
    if not blocks:
        return False
    node: etree._Element | None = el
    while node is not None:
        if node in blocks:
            return True
        node = node.getparent()
    return False


# --------------------------------------------------------------------------- trafilatura tree

_RENAME = {
    "item": "li",
    "quote": "blockquote",
    "row": "tr",
    "lb": "br",
    "graphic": "img",
    "ref": "a",
    "doc": "div",
    "body": "div",
    "comments": "div",
    "main": "div",
}
_HI = {"#b": "b", "#i": "i", "#u": "u", "#t": "code", "#sub": "sub", "#sup": "sup"}


def trafilatura_tree_to_html(tree: etree._Element) -> etree._Element:
    """trafilatura's XML body (``head``, ``list``/``item``, ``hi``, ``ref``…) → plain HTML."""
    root = deepcopy(tree)
    for el in root.iter():
        tag = _tag(el)
        if tag == "head":
            rend = el.get("rend") or "h2"
            el.tag = rend if re.fullmatch(r"h[1-6]", rend) else "h2"
        elif tag == "list":
            el.tag = "ol" if (el.get("rend") or "") == "ol" else "ul"
        elif tag == "cell":
            el.tag = "th" if el.get("role") == "head" else "td"
        elif tag == "hi":
            el.tag = _HI.get(el.get("rend") or "", "span")
        elif tag == "code":
            el.tag = "pre" if "\n" in (el.text or "") else "code"
        elif tag == "ref":
            el.tag = "a"
            if el.get("target"):
                el.set("href", el.get("target") or "")
        elif tag in _RENAME:
            el.tag = _RENAME[tag]
    wrapper = lxml_html.Element("div")
    wrapper.append(root)
    return wrapper
