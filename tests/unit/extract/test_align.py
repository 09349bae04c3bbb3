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


_GRID = (
    "<div class=cards>"
    "<div><h2>Huggie Hoops</h2><p>$75</p></div><div><h2>Stud Earring</h2><p>$65</p></div>"
    "<div><h2>Double Hoop</h2><p>$85</p></div><div><h2>Bold Studs</h2><p>$50</p></div>"
    "</div>"
)
_GRID_TEXT = "Huggie Hoops $75 Stud Earring $65 Double Hoop $85 Bold Studs $50"


def test_a_grid_of_short_text_lines_up_after_a_buttons_label() -> None:
    # trafilatura keeps a <button>'s label, the page walk skips it: no short segment
    # continues the kept text where it starts, none is long enough to be found past it
    segs = segments(f"<nav><a>Shop</a></nav><button>Filter and sort</button>{_GRID}")
    placed = align_segments(segs, [normalise(f"Filter and sort {_GRID_TEXT}")])
    assert [s.owner.tag for s in segs if s.kept] == ["h2", "p"] * 4
    assert placed == len(normalise(_GRID_TEXT))


def test_a_run_of_short_text_repeated_on_the_page_does_not_move_the_cursor() -> None:
    # the top menu comes again in the footer: which copy trafilatura kept is unknown
    menu = "<ul><li>Shipping</li><li>Returns</li><li>Contact us</li><li>Privacy</li></ul>"
    segs = segments(f"<nav>{menu}</nav><button>Menu</button>{_GRID}<footer>{menu}</footer>")
    align_segments(segs, [normalise(f"Menu {_GRID_TEXT} Shipping Returns Contact us Privacy")])
    assert [s.owner.tag for s in segs if s.kept][:8] == ["h2", "p"] * 4
    assert not any(s.kept for s in segs[:4])  # the top menu


def test_a_run_found_twice_in_the_kept_text_does_not_move_the_cursor() -> None:
    segs = segments(f"<button>Sort</button>{_GRID}")
    align_segments(segs, [normalise(f"Sort {_GRID_TEXT} {_GRID_TEXT}")])
    assert not any(s.kept for s in segs)


def test_an_aligned_page_with_a_menu_keeps_only_its_article() -> None:
    # ordinary page: short menu links that occur once in the kept text far from where
    # the cursor is must not be placed there when the article lines up by itself
    segs = segments(
        "<nav><a>Solar panels</a><a>Heat pumps</a><a>Home batteries</a></nav>"
        "<h1>Choosing a heat pump</h1>"
        "<p>An air-source heat pump moves heat from the outside air into the house.</p>"
        "<p>See also: <a>Solar panels</a> <a>Heat pumps</a> <a>Home batteries</a></p>"
    )
    text = (
        "Choosing a heat pump An air-source heat pump moves heat from the outside air into"
        " the house. See also: Solar panels Heat pumps Home batteries"
    )
    align_segments(segs, [normalise(text)])
    assert [s.owner.tag for s in segs if s.kept] == ["h1", "p", "p", "a", "a", "a"]


def test_a_run_moved_above_text_still_on_the_page_does_not_take_the_cursor_past_it() -> None:
    # the kept text puts "Free gift wrapping" first; the page has it after the grid: the
    # grid's run, found further on, must not make the cursor jump over it
    segs = segments(f"{_GRID}<p>Free gift wrapping</p>")
    align_segments(segs, [normalise(f"Free gift wrapping {_GRID_TEXT}")])
    assert kept(segs) == ["freegiftwrapping"]
