"""Where a lost alignment cursor meets the kept text again: runs of short segments. Pure.

:func:`webresearch.extract.align.align_segments` places short text nodes only where they
continue the kept text exactly. When the kept text holds text the page walk does not see (a
``<button>``'s label: trafilatura keeps it, the walk skips the element) and no text node is
long enough to be found past it (a grid of short card names and prices), no short node lines
up again and the whole page counts as unaligned (issue 13, a WCXB dev collection page at
F1 0.19). A run of a few consecutive short nodes, joined, is long enough to be found once.

Only texts without any anchor are resynchronised this way: WCXB dev half A, that page
0.19 → 0.70 and no other page moves, half B and Zyte unchanged. Runs in every stretch
between anchors too placed text trafilatura or the second opinion kept but the reference
does not (a shop owner's card, "Previous thread", a header's links): seven half-A pages down
(−0.016 at worst; one up), half B forum −0.0005.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["RUN_SEGMENTS", "PageRuns"]

#: At most this many consecutive short segments make a run.
RUN_SEGMENTS = 6


class PageRuns:
    """Runs of a page's text nodes, to resynchronise a cursor in the kept text.

    Args:
        norms: the text (normalised) of the segments not placed yet, in document order.
        long_chars: a run is at least this long (letters and digits); a segment this long
            is no part of one (it is placed on its own).
        short_chars: a later segment at least this long must not be in the kept text a run
            jumps over.
    """

    __slots__ = ("_joined", "_long", "_norms", "_short")

    def __init__(self, norms: Sequence[str], long_chars: int, short_chars: int) -> None:
        self._norms = norms
        self._long = long_chars
        self._short = short_chars
        self._joined: str | None = None  # all of the page's text, built on first use

    def resync(self, k: int, last: int, kept: str, start: int, stop: int) -> tuple[int, int] | None:
        """``(position in kept, end)`` of the run ``norms[k:end]`` that continues ``kept``
        after ``start``, or ``None``.

        The run is at most :data:`RUN_SEGMENTS` segments of ``norms[k:last]`` (the segments
        of the current stretch), at least two, joined to ``long_chars`` or more; it is found
        exactly once in ``kept`` (inside ``[start, stop)``) and exactly once in the page's
        text — unless a later segment of the stretch, ``short_chars`` long or more, is in
        the kept text jumped over: that text is on the page further down, and the run was
        moved by the extractor.
        """
        norms = self._norms
        joined = ""
        end = k
        while end < last and end - k < RUN_SEGMENTS:
            if len(norms[end]) >= self._long:
                return None  # a long segment is placed on its own
            joined += norms[end]
            end += 1
            if len(joined) >= self._long:
                break
        if len(joined) < self._long or end - k < 2:
            return None
        found = kept.find(joined, start, stop)
        if found == -1 or kept.count(joined) != 1:
            return None
        if self._joined is None:
            self._joined = "".join(norms)
        if self._joined.count(joined) != 1:
            return None
        passed = kept[start:found]
        for norm in norms[end:last]:
            if len(norm) >= self._short and norm in passed:
                return None
        return found, end
