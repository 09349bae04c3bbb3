"""The first heading repeating the page's title goes even when a rule or a copy of it hides
it (extract/markdown_tidy.py, tidy_below_title), on small pages of our own."""

from __future__ import annotations

import pytest

from webresearch.extract import markdown_tidy
from webresearch.extract.html import extract_html
from webresearch.extract.markdown_tidy import tidy_below_title

URL = "https://www.millpond.example.org/notes/pond-liners"
TITLE = "Choosing a Pond Liner"

PROSE = "".join(
    f"<p>Liner {i}: a butyl sheet lasts thirty years under water and stretches over stones "
    f"without tearing, where a PVC sheet of the same size lasts ten and cracks in frost.</p>"
    for i in range(4)
)


def page(head: str) -> str:
    return (
        f"<!DOCTYPE html><html><head><title>{TITLE}</title>"
        "<meta property='og:type' content='article'></head><body>"
        f"<main><article>{head}{PROSE}<h2>Measuring</h2>{PROSE}</article></main></body></html>"
    )


def test_a_title_heading_under_a_rule_goes() -> None:
    markdown = extract_html(page(f"<hr><h1>{TITLE}</h1>"), URL).markdown
    assert TITLE not in markdown
    assert markdown.startswith("Liner 0:")
    assert "## Measuring" in markdown


def test_a_title_heading_printed_twice_goes_twice() -> None:
    markdown = "# Choosing a Pond Liner\n\n# Choosing a Pond Liner\n\nLiner 0: butyl lasts.\n"
    assert tidy_below_title(markdown, TITLE, True) == "Liner 0: butyl lasts.\n"


def test_a_section_heading_below_the_dropped_title_stays() -> None:
    markdown = "# Choosing a Pond Liner\n\n## Choosing a Pond Liner\n\nLiner 0: butyl lasts.\n"
    out = tidy_below_title(markdown, TITLE, True)
    assert out == "## Choosing a Pond Liner\n\nLiner 0: butyl lasts.\n"


def test_another_first_heading_stays() -> None:
    markdown = "---\n\n# Pond Liners Compared\n\nLiner 0: butyl lasts.\n"
    assert (
        tidy_below_title(markdown, TITLE, True)
        == "# Pond Liners Compared\n\nLiner 0: butyl lasts.\n"
    )


def test_a_title_heading_printed_twice_on_a_page_goes() -> None:
    markdown = extract_html(page(f"<h1>{TITLE}</h1><h1>{TITLE}</h1>"), URL).markdown
    assert TITLE not in markdown
    assert markdown.startswith("Liner 0:")


def test_the_month_table_cannot_be_changed() -> None:
    # review r-18a: no module-level mutable state (the month lookup was a dict)
    with pytest.raises(TypeError):
        markdown_tidy._MONTHS["foo"] = 13  # type: ignore[index]
    assert markdown_tidy._MONTHS["sep"] == 9
