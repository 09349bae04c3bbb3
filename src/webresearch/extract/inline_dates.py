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
``<time>`` alone in its own block is restored only as the page's dateline: right after a
kept ``<h1>`` and right before kept text (``<h1>…</h1><p><time>1 December 2026</time></p>``,
review session 16: the only date of the page was lost), also with a date label before it
in the block (:data:`DATE_LABEL`: ``<div class="meta">Published <time>…</time></div>``,
whose "Published" trafilatura dropped with the date: review, session 17), the label kept
with it ("Published Dec 1, 2026"). Anywhere else (a date box beside a
teaser, a listing's dates) it stays out, as trafilatura left it.

Two refinements (review, session 16):

- WordPress themes built on underscores (``_s``) and the Twenty* themes print the date as
  ``<time class="entry-date published">…</time><time class="updated">…</time>`` side by side
  and hide ``.updated`` in their external ``style.css`` (``.updated:not(.published)
  {display: none}``), which the extractor does not read: a ``<time class="updated">`` with a
  ``published`` one beside it (same parent) is not restored, so the line reads "December 1,
  2026", not "December 1, 2026December 3, 2026".
- A restored date in an element of its own that touches a letter or digit in another
  element with no space between (``<span>By Jane Doe</span><span><time>Dec 1, 2026</time>``,
  laid out apart by CSS) gets a space there, so the line does not read "By Jane DoeDec 1,
  2026". Text written right against the ``<time>`` in the same element ("(<time>…</time>),")
  is left as written.

The author's name in the same line is kept the same way (review, session 16): resiliparse,
whose main-content text fills the gaps trafilatura left (:mod:`webresearch.extract.
main_content`, step 4), drops a link marked ``rel="author"`` (the HTML Standard's link type
for "the author of the current article"), so ``<div class="byline">By <a rel="author">Jane
Doe</a> · <time>…</time></div>`` came out as "By · 28 November 2026". The text of a
``rel="author"`` link (through inline elements) is marked kept when its block holds kept
text; a link alone in its block (an author box, a listing's bylines) stays as it was.
A short block (at most :data:`MAX_BYLINE_CHARS` letters and digits) holding kept text whose
date was restored is a byline and is kept whole: ``<p>Posted on <time>2 May 2026</time> by
Ana Ruiz</p>``, whose tail "by Ana Ruiz" alone the alignment kept, read "2 May 2026 by Ana
Ruiz" (review, session 16).
"""

from __future__ import annotations

import re

from lxml import etree

from webresearch.extract.align import Segment

__all__ = ["DATE_LABEL", "MAX_BYLINE_CHARS", "keep_inline_dates"]

#: The words that introduce a page's date in its dateline ("Published", "Last updated on:").
DATE_LABEL = re.compile(
    r"(?:(?:first\s+)?published|posted|(?:last\s+)?(?:updated|modified|reviewed)|date)"
    r"(?:\s+(?:on|at))?\s*:?",
    re.I,
)

#: A block with a restored date and kept text, of at most this many letters and digits, is a
#: byline and is kept whole ("Posted on 2 May 2026 by Ana Ruiz").
MAX_BYLINE_CHARS = 100

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
    dated: list[tuple[int, etree._Element]] = []
    named: list[Segment] = []
    for i, seg in enumerate(segments):
        if not seg.kept:
            time, author = _marks_around(seg.holder)
            if time is not None:
                dated.append((i, time))
            elif author:
                named.append(seg)
    if not dated and not named:
        return 0
    kept_blocks = {_block(seg.holder) for seg in segments if seg.kept}
    added = 0
    for seg in named:  # the author's name in a kept byline (module docstring)
        if _block(seg.holder) in kept_blocks:
            seg.kept = True
            added += len(seg.norm)
    restored: dict[etree._Element, None] = {}
    labelled: set[etree._Element | None] = set()  # datelines with their label (docstring)
    for i, time in dated:
        seg = segments[i]
        inline = _block(time) in kept_blocks
        if not inline and _dateline(segments, i, time):
            inline = True
            labelled.add(_block(time))
        if inline and not _superseded(time):
            seg.kept = True
            added += len(seg.norm)
            restored[time] = None
    for time in restored:
        _space_apart(time)
    lines = [_block(time) for time in restored]
    return added + _whole_bylines(segments, kept_blocks | labelled, lines)


def _whole_bylines(
    segments: list[Segment],
    kept_blocks: set[etree._Element | None],
    dated_blocks: list[etree._Element | None],
) -> int:
    """Mark kept the rest of each short block that held kept text and got its date back (a
    byline, module docstring); the letters and digits added."""
    lines = {block for block in dated_blocks if block is not None and block in kept_blocks}
    if not lines:
        return 0
    sizes: dict[etree._Element, int] = {}
    for seg in segments:
        block = _block(seg.holder)
        if block in lines:
            sizes[block] = sizes.get(block, 0) + len(seg.norm)
    added = 0
    for seg in segments:
        block = _block(seg.holder)
        if not seg.kept and block in lines and sizes[block] <= MAX_BYLINE_CHARS:
            time = _time_around(seg.holder)
            if time is not None and _superseded(time):
                continue  # the hidden "updated" date (module docstring)
            seg.kept = True
            added += len(seg.norm)
    return added


def _dateline(segments: list[Segment], i: int, time: etree._Element) -> bool:
    """Whether ``segments[i]``, in ``time``, is in a block holding only ``time``'s text (and
    a date label before it), right after kept text in an ``<h1>`` and right before kept text
    (module docstring)."""
    block = _block(time)
    lo = hi = i
    while lo > 0 and _block(segments[lo - 1].holder) is block:
        lo -= 1
    while hi + 1 < len(segments) and _block(segments[hi + 1].holder) is block:
        hi += 1
    if lo == 0 or hi + 1 == len(segments):
        return False
    label = " ".join(_raw(s) for s in segments[lo:i] if _time_around(s.holder) is not time)
    if label.strip() and DATE_LABEL.fullmatch(" ".join(label.split())) is None:
        return False
    if any(_time_around(seg.holder) is not time for seg in segments[i : hi + 1]):
        return False
    before, after = segments[lo - 1], segments[hi + 1]
    if not before.kept or not after.kept or before.holder is None:
        return False
    return any(_tag(el) == "h1" for el in (before.holder, *before.holder.iterancestors()))


def _raw(seg: Segment) -> str:
    """The text of ``seg`` as written."""
    return str((seg.owner.tail if seg.tail else seg.owner.text) or "")


def _classes(el: etree._Element) -> set[str]:
    return set(str(el.get("class") or "").lower().split())


def _superseded(time: etree._Element) -> bool:
    """Whether ``time`` is an ``updated`` date printed beside a ``published`` one (module
    docstring: the underscores theme convention, whose stylesheet hides it)."""
    classes = _classes(time)
    if "updated" not in classes or "published" in classes:
        return False
    parent = time.getparent()
    if parent is None:
        return False
    return any(
        _tag(other) == "time" and "published" in _classes(other)
        for other in parent
        if other is not time
    )


def _space_apart(time: etree._Element) -> None:
    """Put a space between ``time`` and a letter or digit it touches in another element of
    its block (module docstring)."""
    text = "".join(time.itertext())
    if not text or (not text[0].isalnum() and not text[-1].isalnum()):
        return
    block = _block(time)
    before = _neighbour(time, "preceding")
    if before is not None and text[0].isalnum() and _apart(before, time, block, -1):
        previous = time.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + " "
        else:
            parent = time.getparent()
            if parent is not None:
                parent.text = (parent.text or "") + " "
    after = _neighbour(time, "following")
    if after is not None and text[-1].isalnum() and _apart(after, time, block, 0):
        time.tail = " " + (time.tail or "")


def _neighbour(time: etree._Element, axis: str) -> etree._ElementUnicodeResult | None:
    """The text node right before (``axis`` ``"preceding"``, a reverse axis: ``[1]`` is the
    nearest) or after ``time``."""
    found = time.xpath(f"{axis}::text()[1]")
    if isinstance(found, list) and found and isinstance(found[0], etree._ElementUnicodeResult):
        return found[0]
    return None


def _apart(
    node: etree._ElementUnicodeResult,
    time: etree._Element,
    block: etree._Element | None,
    end: int,
) -> bool:
    """Whether the text ``node`` touches ``time`` at its character ``end`` with a letter or
    digit, in another element of ``time``'s block (not ``time``'s own tail or the text of
    its parent right before it)."""
    if not node or not node[end].isalnum():
        return False
    owner = node.getparent()
    if owner is None:
        return False
    if node.is_tail:
        if owner is time or owner is time.getprevious():
            return False
        holder = owner.getparent()
    else:
        if owner is time.getparent():
            return False
        holder = owner
    return _block(holder) is block


def _tag(el: etree._Element) -> str:
    return el.tag.lower() if isinstance(el.tag, str) else ""


def _time_around(el: etree._Element | None) -> etree._Element | None:
    """The ``<time>`` that ``el`` is, or sits in through inline elements only; else ``None``."""
    while el is not None and _tag(el) in _INLINE:
        if _tag(el) == "time":
            return el
        el = el.getparent()
    return None


def _marks_around(el: etree._Element | None) -> tuple[etree._Element | None, bool]:
    """``(_time_around(el), whether el is or sits in an <a rel="author">)``: the ``<time>``
    and the author's link that ``el`` is, or sits in through inline elements only, in one
    walk up (read for every text node not kept, most of a page's: two walks cost twice as
    much)."""
    author = False
    while el is not None:
        tag = el.tag
        if tag.__class__ is not str:
            break
        tag = tag.lower()
        if tag not in _INLINE:
            break
        if tag == "time":
            return el, author
        if not author and tag == "a":
            author = "author" in str(el.get("rel") or "").lower().split()
        el = el.getparent()
    return None, author


def _block(el: etree._Element | None) -> etree._Element | None:
    """The nearest ancestor of ``el`` (or ``el``) that is not an inline element."""
    while el is not None and _tag(el) in _INLINE:
        el = el.getparent()
    return el
