"""Reciprocal rank fusion, URL identity and result dates (issue 18 §2): pure functions."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from webresearch.search.base import EngineFailure, Infobox, SearchResponse, SearchResult
from webresearch.search.dates import normalize_date, normalize_engines
from webresearch.search.fusion import RRF_K, fuse, rrf_scores
from webresearch.search.normalize import dedupe_key, normalize_response


def _response(*urls: str, engine: str = "") -> SearchResponse:
    return SearchResponse(
        results=tuple(SearchResult(f"T {u}", u, f"s {u}", engine=engine) for u in urls),
        raw_count=len(urls),
    )


A = "https://a.example/one"
B = "https://b.example/two"
C = "https://c.example/three"
D = "https://d.example/four"


def test_rrf_ranks_a_hand_computed_example() -> None:
    """searxng: A B C; brave: C A D. With k = 60:
    A = 1/61 + 1/62 = 0.032522; C = 1/63 + 1/61 = 0.032266; B = 1/62 = 0.016129;
    D = 1/63 = 0.015873 → A, C, B, D."""
    scored = rrf_scores([("searxng", _response(A, B, C)), ("brave", _response(C, A, D))])
    assert [r.url for r, _ in scored] == [A, C, B, D]
    assert [round(s, 6) for _, s in scored] == [0.032522, 0.032266, 0.016129, 0.015873]
    assert scored[0][1] == pytest.approx(1 / 61 + 1 / 62)
    assert [r.providers for r, _ in scored] == [
        ("searxng", "brave"),
        ("searxng", "brave"),
        ("searxng",),
        ("brave",),
    ]
    assert RRF_K == 60


def test_equal_scores_follow_best_rank_then_the_operators_order() -> None:
    scored = rrf_scores([("first", _response(B, A)), ("second", _response(A, B, C))])
    # A: 1/62 + 1/61, B: 1/61 + 1/62 — equal; best rank 1 for both; A's is in "second"
    # (index 1), B's in "first" (index 0) → B before A.
    assert [r.url for r, _ in scored] == [B, A, C]
    alone = rrf_scores([("x", _response(C)), ("y", _response(D))])
    assert [r.url for r, _ in alone] == [C, D]


def test_the_same_page_under_other_spellings_is_one_result() -> None:
    other = "http://A.EXAMPLE:80/one/?utm_source=news&fbclid=abc#section"
    fused = fuse([("searxng", _response(A, B)), ("brave", _response(other, C))], max_results=10)
    assert [r.url for r in fused.results] == [A, B, C]  # the best-ranked spelling is shown
    assert fused.results[0].providers == ("searxng", "brave")
    keys = [dedupe_key(r.url) for r in fused.results]
    assert len(keys) == len(set(keys))


def test_fused_results_keep_the_best_occurrence_and_join_the_rest() -> None:
    first = SearchResponse(
        results=(SearchResult("Second-best title", A, "x", engine="bing"),), raw_count=1
    )
    second = SearchResponse(
        results=(SearchResult("Best title", A, "y", published="2024-05-01", engine="google"),),
        raw_count=1,
    )
    # equal rank (1) in both: the operator's order decides which occurrence is shown
    (merged,) = fuse([("searxng", first), ("brave", second)], max_results=5).results
    assert (merged.title, merged.snippet) == ("Second-best title", "x")
    assert merged.published == "2024-05-01"  # the first date any provider gave
    assert merged.engine == "bing, google"
    assert merged.providers == ("searxng", "brave")


def test_fusion_joins_answers_and_failed_engines_and_cuts_to_max_results() -> None:
    one = SearchResponse(
        results=_response(A, B).results,
        answers=("42",),
        unresponsive_engines=(EngineFailure("google", "timeout"),),
        raw_count=2,
    )
    two = SearchResponse(results=_response(C, D).results, answers=("42", "forty-two"), raw_count=2)
    one = replace(
        one, infoboxes=(Infobox("Python (language)", "A language", "https://w.example/Py"),)
    )
    two = replace(two, infoboxes=(Infobox("Python", "Also a language", "http://W.example/Py/"),))
    fused = fuse([("searxng", one), ("brave", two)], max_results=3)
    assert fused.infoboxes == one.infoboxes  # one box per source page
    assert len(fused.results) == 3
    assert fused.answers == ("42", "forty-two")
    assert fused.unresponsive_engines == (EngineFailure("google", "timeout"),)
    assert fused.raw_count == 4


urls = st.lists(
    st.sampled_from([A, B, C, D, A + "/", "http://a.example/one?utm_medium=x", B + "#f"]),
    max_size=6,
)


@given(st.lists(urls, min_size=1, max_size=4), st.integers(1, 20))
def test_fusion_never_repeats_a_page(lists: list[list[str]], max_results: int) -> None:
    answers = [(f"p{i}", normalize_response(_response(*found))) for i, found in enumerate(lists)]
    fused = fuse(answers, max_results)
    keys = [dedupe_key(r.url) for r in fused.results]
    assert len(keys) == len(set(keys))
    assert len(fused.results) <= max_results
    scores = [s for _, s in rrf_scores(answers)]
    assert scores == sorted(scores, reverse=True)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("https://example.com/a", "HTTP://EXAMPLE.com:80/a/"),
        ("https://example.com/a?b=2&a=1", "https://example.com/a?a=1&b=2"),
        ("https://example.com/a", "https://example.com/a?utm_source=x&utm_campaign=y"),
        ("https://example.com/a?id=3", "https://example.com/a?gclid=1&id=3&fbclid=2&msclkid=4"),
        ("https://example.com/", "https://example.com"),
        ("https://example.com/a", "https://example.com/a#top"),
    ],
)
def test_urls_of_one_page_have_one_identity(one: str, other: str) -> None:
    assert dedupe_key(one) == dedupe_key(other)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("https://example.com/a", "https://example.com/A"),  # paths are case-sensitive
        ("https://example.com/a?id=1", "https://example.com/a?id=2"),
        ("https://example.com/a", "https://www.example.com/a"),
        ("https://example.com:8443/a", "https://example.com/a"),
    ],
)
def test_urls_of_different_pages_stay_apart(one: str, other: str) -> None:
    assert dedupe_key(one) != dedupe_key(other)


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("2024-01-15T10:04:15", "2024-01-15"),  # SearXNG publishedDate, Brave page_age
        ("2024-06-20T00:00:00.000Z", "2024-06-20"),  # Exa
        ("Mon, 15 Jan 2024 10:00:00 GMT", "2024-01-15"),  # Tavily (RFC 2822)
        ("June 20, 2024", "2024-06-20"),  # Brave age
        ("20 Jun 2024", "2024-06-20"),
        ("2024-01-15", "2024-01-15"),
        ("3 days ago", "3 days ago"),  # not a date: kept as the provider wrote it
        ("0001-01-01T00:00:00", ""),  # a placeholder
        ("  ", ""),
    ],
)
def test_dates_have_one_form(raw: str, shown: str) -> None:
    assert normalize_date(raw) == shown


def test_engines_have_one_form() -> None:
    assert normalize_engines("Google, bing ,google,, DuckDuckGo") == "google, bing, duckduckgo"
    assert normalize_engines("") == ""
