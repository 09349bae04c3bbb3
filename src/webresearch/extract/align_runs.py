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

from bisect import bisect_left
from collections.abc import Sequence

__all__ = ["RUN_SEGMENTS", "SCAN_LIMIT", "PageRuns"]

#: At most this many consecutive short segments make a run.
RUN_SEGMENTS = 6

#: A resync looks at most this many occurrences of later text in the kept text it jumps
#: over, and gives up beyond: the cost of a call is bounded whatever the page.
SCAN_LIMIT = 256


class PageRuns:
    """Runs of a page's text nodes, to resynchronise a cursor in the kept text.

    Args:
        norms: the text (normalised) of the segments not placed yet, in document order.
        long_chars: a run is at least this long (letters and digits); a segment this long
            is no part of one (it is placed on its own).
        short_chars: a later segment at least this long must not be in the kept text a run
            jumps over.
    """

    __slots__ = ("_joined", "_kept", "_long", "_norms", "_occurrences", "_short")

    def __init__(self, norms: Sequence[str], long_chars: int, short_chars: int) -> None:
        self._norms = norms
        self._long = long_chars
        self._short = short_chars
        self._joined: str | None = None  # all of the page's text, built on first use
        self._kept: str | None = None  # the kept text ``_occurrences`` is of
        self._occurrences: list[tuple[int, int, list[int]]] = []

    def resync(self, k: int, last: int, kept: str, start: int, stop: int) -> tuple[int, int] | None:
        """``(position in kept, end)`` of the run ``norms[k:end]`` that continues ``kept``
        after ``start``, or ``None``.

        The run is at most :data:`RUN_SEGMENTS` segments of ``norms[k:last]`` (the segments
        of the current stretch), at least two, joined to ``long_chars`` or more; it is found
        exactly once in ``kept`` (inside ``[start, stop)``) and exactly once in the page's
        text — unless a later segment of the stretch is in the kept text jumped over: that
        text is on the page further down, and the run was moved by the extractor (a later
        segment ``short_chars`` long or more: :meth:`_keys`).

        Cost: the occurrences of the keys in ``kept`` are listed once per ``kept``; a call
        looks at most :data:`SCAN_LIMIT` of them and gives the resync up beyond (``None``).
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
        if found == -1 or self._passes_later(kept, start, found, end, last):
            return None
        if kept.count(joined) != 1:
            return None
        if self._joined is None:
            self._joined = "".join(norms)
        if self._joined.count(joined) != 1:
            return None
        return found, end

    def _passes_later(self, kept: str, start: int, found: int, end: int, last: int) -> bool:
        """Whether ``kept[start:found]`` holds the key of a segment of ``norms[end:last]``
        (or more than :data:`SCAN_LIMIT` key occurrences to look at)."""
        if self._kept is not kept:
            self._kept = kept
            self._occurrences = _occurrences(self._keys(), kept)
        occurrences = self._occurrences
        i = bisect_left(occurrences, (start,))
        for looked, (pos, stop, owners) in enumerate(occurrences[i : i + SCAN_LIMIT + 1]):
            if pos >= found:
                return False
            if looked == SCAN_LIMIT:
                return True  # too many to look at: no resync
            if stop <= found:
                j = bisect_left(owners, end)
                if j < len(owners) and owners[j] < last:
                    return True
        return False

    def _keys(self) -> dict[str, list[int]]:
        """Key text → the indexes (increasing) of the segments it is the key of: every
        segment ``short_chars`` long or more. (Short later segments are not looked for: a
        join of them blocked the one resync WCXB dev collection page 4396 gains by, a
        footer menu's "Earrings Necklaces" also kept from the header; review r-18b M1 left.)
        """
        keys: dict[str, list[int]] = {}
        for j, norm in enumerate(self._norms):
            if len(norm) >= self._short:
                keys.setdefault(norm, []).append(j)
        return keys


def _occurrences(keys: dict[str, list[int]], kept: str) -> list[tuple[int, int, list[int]]]:
    """``(position, end, segment indexes)`` of every occurrence of a key in ``kept``, by
    position."""
    found: list[tuple[int, int, list[int]]] = []
    for key, owners in keys.items():
        pos = kept.find(key)
        while pos != -1:
            found.append((pos, pos + len(key), owners))
            pos = kept.find(key, pos + 1)
    found.sort(key=lambda item: (item[0], item[1]))
    return found
