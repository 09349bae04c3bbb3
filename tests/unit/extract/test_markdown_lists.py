"""Ordered-list numbering of the markdown walk: ``<ol reversed>`` counts down (review 11,
fault 6)."""

from __future__ import annotations

from webresearch.extract.markdown import element_to_markdown
from webresearch.extract.parse import parse_html

URL = "https://example.org/lists/page.html"


def md(body: str) -> str:
    return element_to_markdown(parse_html(f"<html><body>{body}</body></html>"), URL)


def test_a_reversed_list_counts_down_from_its_number_of_items() -> None:
    out = md("<ol reversed><li>Oak</li><li>Ash</li><li>Elm</li></ol>")
    assert out == "3. Oak\n2. Ash\n1. Elm"


def test_a_reversed_list_counts_down_from_its_start() -> None:
    assert md("<ol reversed start='10'><li>ten</li><li>nine</li></ol>") == "10. ten\n9. nine"


def test_a_reversed_list_never_goes_below_zero() -> None:
    assert md("<ol reversed start='1'><li>a</li><li>b</li><li>c</li></ol>") == "1. a\n0. b\n0. c"


def test_a_reversed_list_with_a_nested_list_counts_only_its_own_items() -> None:
    out = md("<ol reversed><li>Oak<ul><li>leaf</li></ul></li><li>Ash</li></ol>")
    assert out == "2. Oak\n   - leaf\n1. Ash"


def test_an_item_value_restarts_the_count_down() -> None:
    out = md("<ol reversed><li value='7'>seven</li><li>six</li></ol>")
    assert out == "7. seven\n6. six"
