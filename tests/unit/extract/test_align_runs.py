"""Runs of short text nodes that resynchronise a lost alignment cursor."""

from __future__ import annotations

from webresearch.extract.align_runs import PageRuns

_NORMS = ["filterandsort", "huggiehoops", "75", "studearring", "65", "doublehoop", "85"]
_KEPT = "spend125get20off" + "".join(_NORMS[1:])


def runs(norms: list[str]) -> PageRuns:
    return PageRuns(norms, long_chars=24, short_chars=12)


def test_a_run_found_once_further_on_gives_its_place_and_end() -> None:
    # "filterandsort" is not in the kept text; the run from the first card is
    assert runs(_NORMS).resync(1, len(_NORMS), _KEPT, 0, len(_KEPT)) == (16, 4)


def test_no_run_past_the_stop_of_the_stretch() -> None:
    assert runs(_NORMS).resync(1, len(_NORMS), _KEPT, 0, 30) is None


def test_a_run_stops_at_the_end_of_the_stretch() -> None:
    assert runs(_NORMS).resync(1, 3, _KEPT, 0, len(_KEPT)) is None  # 13 letters only


def test_a_long_segment_is_no_part_of_a_run() -> None:
    norms = ["huggiehoops", "thelongestsegmentofthepage", "studearring"]
    kept = "".join(norms)
    assert runs(norms).resync(0, 3, kept, 0, len(kept)) is None


def test_a_run_that_is_twice_on_the_page_is_not_used() -> None:
    norms = _NORMS + _NORMS[1:5]
    assert runs(norms).resync(1, len(norms), _KEPT, 0, len(_KEPT)) is None


class _Counted(str):
    """A segment's text that counts how often its length is asked (the work per segment)."""

    asked = 0

    def __len__(self) -> int:
        _Counted.asked += 1
        return super().__len__()


def test_the_work_of_many_failed_resyncs_grows_linearly_with_the_segments() -> None:
    # short text, no anchor; the last segment is kept first, so every run jumps over it:
    # each call used to look at every later segment (cubic on a grid of ~4,000 names)
    n = 300
    norms: list[str] = [_Counted(f"q{i:05d}xyzabc{i % 7}") for i in range(n)]
    kept = "junkjunk" + norms[-1] + "".join(norms[:-1])
    page = runs(norms)
    _Counted.asked = 0
    assert all(page.resync(k, n, kept, 0, len(kept)) is None for k in range(n - 2))
    assert _Counted.asked <= 10 * n  # was ~n * n / 2


def test_a_lone_short_later_segment_does_not_stop_the_run() -> None:
    # "Menu" on its own is anywhere; only a join of short segments counts
    norms = ["teapots", "24eur", "cups", "6eur", "kettles", "31eur", "menu"]
    kept = "menu" + "".join(norms[:6])
    assert runs(norms).resync(0, len(norms), kept, 0, len(kept)) == (4, 5)
