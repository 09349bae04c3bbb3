"""Deeply nested markup costs time linear in its size (extract/nesting.py)."""

from __future__ import annotations

import time

from lxml import etree

from webresearch.extract.html import html_to_markdown
from webresearch.extract.nesting import flatten_deep_tree, unwrap_deep_tables
from webresearch.extract.parse import parse_html

URL = "http://127.0.0.1/page"
LEVELS = 1000
#: how many times the time of a flat page of the same size a nested one may take; before
#: the fix, 1,000 nested tables took over 100 times as long (30 s and more).
RATIO = 15


def _page(body: str) -> str:
    return f"<html><head><title>t</title></head><body>{body}</body></html>"


def _seconds(html: str) -> float:
    start = time.perf_counter()
    html_to_markdown(html, URL)
    return time.perf_counter() - start


def _ratio(nested: str, flat: str) -> float:
    html_to_markdown(_page("<p>warm up the lazy imports</p>"), URL)
    # the best of two runs each: a busy machine slows one run, rarely both
    flat_time = min(_seconds(flat) for _ in range(2))
    return min(_seconds(nested) for _ in range(2)) / max(flat_time, 0.02)


def test_a_thousand_nested_tables_cost_about_as_much_as_flat_ones() -> None:
    nested = _page("<table><tr><td>" * LEVELS + "cell" + "</td></tr></table>" * LEVELS)
    flat = _page("<table><tr><td>cell</td></tr></table>" * LEVELS)
    assert _ratio(nested, flat) < RATIO


def test_tables_nested_in_lists_and_quotes_cost_about_as_much_as_flat_ones() -> None:
    level = (
        "<div><ul><li><blockquote><table><tr><td>",
        "</td></tr></table></blockquote></li></ul></div>",
    )
    nested = _page(level[0] * LEVELS + "cell" + level[1] * LEVELS)
    flat = _page((level[0] + "cell" + level[1]) * LEVELS)
    assert _ratio(nested, flat) < RATIO


def test_two_thousand_nested_blocks_cost_about_as_much_as_flat_ones() -> None:
    nested = _page("<div>" * 2000 + "cell" + "</div>" * 2000)
    flat = _page("<div>cell</div>" * 2000)
    assert _ratio(nested, flat) < RATIO


def test_tables_deeper_than_the_limit_become_blocks_with_their_text() -> None:
    doc = parse_html(_page("<table><tr><td>" * 9 + "<b>deep</b> cell" + "</td></tr></table>" * 9))
    tables = list(doc.iter("table"))
    assert len(tables) == 6  # the tables with fewer than six tables above them
    assert "deep cell" in "".join(doc.itertext())


def test_shallow_tables_are_left_alone() -> None:
    markup = "<table><tr><td>" * 5 + "x" + "</td></tr></table>" * 5
    doc = parse_html(_page(markup))
    assert unwrap_deep_tables(doc) == 0
    assert len(list(doc.iter("table"))) == 5


def test_a_deep_tree_keeps_its_text_and_drops_deep_scripts() -> None:
    root = etree.fromstring(
        "<div>" + "<div>" * 5 + "a<p>b<script>var x</script>c</p>d" + "</div>" * 5 + "</div>"
    )
    assert flatten_deep_tree(root, max_depth=3) == 1
    assert "".join(root.itertext()) == "abcd"
    assert max(len(list(e.iterancestors())) for e in root.iter()) == 3


def test_seven_nested_tables_are_counted_past_the_quick_check() -> None:
    # the walk is skipped when there are at most `max_depth` tables: seven nested ones
    # (one more than the limit) still have their innermost one rewritten
    root = etree.fromstring(
        "<div>" + "<table><tr><td>" * 7 + "x" + "</td></tr></table>" * 7 + "</div>"
    )
    assert unwrap_deep_tables(root, max_depth=6) == 1
    assert len(list(root.iter("table"))) == 6


def test_a_comment_at_the_depth_limit_is_flattened_too() -> None:
    # `len` counts a comment child: the quick depth check sees it as the walk does
    root = etree.fromstring("<div>" + "<div>" * 3 + "a<!-- c -->b" + "</div>" * 3 + "</div>")
    assert flatten_deep_tree(root, max_depth=3) == 1
    assert "".join(root.itertext()) == "ab"
    shallow = etree.fromstring("<div>" + "<div>" * 3 + "a b" + "</div>" * 3 + "</div>")
    assert flatten_deep_tree(shallow, max_depth=3) == 0
