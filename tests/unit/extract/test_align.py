"""Aligning an extractor's kept text with the page's text nodes."""

from __future__ import annotations

import re

import pytest

from webresearch.extract.align import (
    Segment,
    align_segments,
    letters_digits,
    normalise,
    page_text_size,
    text_segments,
    text_size_exceeds,
)
from webresearch.extract.parse import parse_html


def segments(body: str) -> list[Segment]:
    return list(text_segments(parse_html(f"<html><body>{body}</body></html>").find("body")))


_SIZED = (
    "<div><p>Øre <b>İstanbul</b> tail</p><!-- a comment --><script>var x = 1;</script>"
    "after <button>Go</button> end <math><mi>x</mi><mo>+</mo><mn>12</mn></math> more</div>"
)


def test_page_text_size_is_the_sum_of_the_segments() -> None:
    body = parse_html(f"<html><body>{_SIZED}</body></html>").find("body")
    assert page_text_size(body) == sum(len(s.norm) for s in text_segments(body))
    assert page_text_size(body) == len("oreistanbultailafterendx12more") + 1  # İ lower-cased


@pytest.mark.parametrize("limit", [0, 5, 30, 31, 32, 1000])
def test_text_size_exceeds_says_whether_the_size_is_above_a_limit(limit: int) -> None:
    body = parse_html(f"<html><body>{_SIZED}</body></html>").find("body")
    assert text_size_exceeds(body, limit) is (page_text_size(body) > limit)


def kept(segs: list[Segment]) -> list[str]:
    return [s.norm for s in segs if s.kept]


def test_text_segments_skip_scripts_and_keep_tails() -> None:
    segs = segments("<p>One <b>two</b> three</p><script>no</script><noscript>four</noscript>")
    assert [(s.norm, s.tail) for s in segs] == [
        ("one", False),
        ("two", False),
        ("three", True),
        ("four", False),
    ]


def test_contiguous_text_is_kept_and_the_rest_is_not() -> None:
    segs = segments(
        "<nav>Home News</nav><p>The gateway routes <a>each request</a> to a pool.</p><footer>Legal</footer>"
    )
    placed = align_segments(segs, [normalise("The gateway routes each request to a pool.")])
    assert kept(segs) == ["thegatewayroutes", "eachrequest", "toapool"]
    assert placed == len("thegatewayrouteseachrequesttoapool")


def test_a_menu_item_repeating_a_heading_loses_to_the_heading() -> None:
    body = (
        "<ul><li>Chairs</li><li>Mesh Style Chairs</li><li>Stools</li></ul>"
        "<h1>Mesh Style Chairs</h1><p>The ergonomic mesh office chairs in this category include many designs.</p>"
    )
    segs = segments(body)
    align_segments(
        segs,
        [
            normalise(
                "Mesh Style Chairs The ergonomic mesh office chairs in this category include many designs."
            )
        ],
    )
    assert [s.owner.tag for s in segs if s.kept] == ["h1", "p"]


def test_repeated_text_is_placed_at_the_right_copy() -> None:
    meal = "<h3>Meal {n}</h3><p>Eat every 2–3 hours</p><p>{food} with a glass of water, prepared the evening before.</p>"
    body = "".join(
        meal.format(n=n, food=food)
        for n, food in ((1, "Oatmeal and berries"), (2, "Chicken salad"), (3, "Salmon and rice"))
    )
    segs = segments(body)
    text = "Meal 2 Eat every 2–3 hours Chicken salad with a glass of water, prepared the evening before."
    align_segments(segs, [normalise(text)])
    assert kept(segs) == [
        "meal2",
        "eatevery23hours",
        normalise("Chicken salad with a glass of water, prepared the evening before."),
    ]


def test_a_block_moved_by_the_extractor_is_still_kept() -> None:
    segs = segments(
        "<p>First paragraph of the article body text.</p><p>Second paragraph of the article body text.</p>"
    )
    align_segments(
        segs,
        [
            normalise(
                "Second paragraph of the article body text. First paragraph of the article body text."
            )
        ],
    )
    assert all(s.kept for s in segs)


def test_each_stream_is_aligned_on_its_own() -> None:
    segs = segments(
        "<div class=comments><p>A reply that comes first on the page.</p></div><article><p>The article text.</p></article>"
    )
    align_segments(
        segs, [normalise("The article text."), normalise("A reply that comes first on the page.")]
    )
    assert all(s.kept for s in segs)


@pytest.mark.parametrize(
    "text",
    [
        "Pier 7_news, (2024)!",
        "".join(chr(c) for c in range(128)),
        "caf\u00e9 \u2019quoted\u2019 \u0130stanbul \u00b2 \u0663",
        "  \t\n ",
        "",
    ],
)
def test_letters_and_digits_are_what_the_pattern_leaves(text: str) -> None:
    assert letters_digits(text) == re.sub(r"[\W_]+", "", text)
    assert normalise(text) == re.sub(r"[\W_]+", "", text).lower()
