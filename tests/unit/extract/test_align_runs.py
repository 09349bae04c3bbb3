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
