"""The items of a flex or grid container are written apart when the markup joins them
(extract/flex_items.py, review, session 17), on pages of our own; text inside one run of
inline elements stays as it is."""

from __future__ import annotations

import pytest

from webresearch.extract.html import extract_html

URL = "https://kettles.example.org/steel-kettle"
LEAD = (
    "<p>This steel kettle boils a litre of water in under four minutes on gas, induction or "
    "an electric ring, and its handle stays cool to the touch.</p>"
)
AFTER = (
    "<p>The lid lifts with one finger and the spout pours without dripping, so the kitchen "
    "counter stays dry after every cup of tea.</p>"
)
ROW = (
    "<span class='price'>€129.00</span><span class='stars'>★★★★☆</span>"
    "<span class='count'>(214)</span>"
)


def shop_page(row: str, sheet: str = "") -> str:
    return (
        f"<html><head><title>Steel kettle</title><style>{sheet}</style></head><body><main>"
        f"<h1>Steel kettle</h1>{LEAD}{row}{AFTER}</main></body></html>"
    )


@pytest.mark.parametrize(
    ("row", "sheet"),
    [
        (f"<div style='display: flex; gap: 8px'>{ROW}</div>", ""),
        (f"<div class='meta'>{ROW}</div>", ".meta{display:flex;gap:.5rem}"),
        (f"<div class='card-meta'>{ROW}</div>", ".card .card-meta { display: inline-grid }"),
        (f"<div class='d-flex align-items-center'>{ROW}</div>", ""),  # Bootstrap
        (f"<div class='flex items-center gap-2'>{ROW}</div>", ""),  # Tailwind
    ],
)
def test_flex_items_joined_in_the_markup_are_written_apart(row: str, sheet: str) -> None:
    markdown = extract_html(shop_page(row, sheet), URL).markdown
    assert "€129.00 ★★★★☆ (214)" in markdown


@pytest.mark.parametrize(
    ("row", "expected"),
    [
        ("<p>A <b>H</b><i>ello</i> word in one paragraph of the page.</p>", "**H***ello* word"),
        (f"<p class='meta'>{ROW}</p>", "€129.00★★★★☆(214)"),  # no flex container
        # a heading animated letter by letter: one flex item a letter, the word stays whole
        (
            "<div style='display:flex'><span>K</span><span>e</span><span>t</span><span>t</span>"
            "<span>l</span><span>e</span></div>",
            "Kettle",
        ),
        ("<div class='meta'><span>€129.00</span> <span>★★★★☆</span></div>", "€129.00 ★★★★☆"),
    ],
)
def test_inline_runs_and_other_rows_stay_as_written(row: str, expected: str) -> None:
    sheet = ".meta:hover{display:flex}"  # a state, not the page as shown
    markdown = extract_html(shop_page(row, sheet), URL).markdown
    assert expected in markdown


def test_comments_in_the_sheet_are_not_read_as_rules() -> None:
    # a comment with a colon before the selector (styled-components writes
    # `/* sc-component-id: … */`) hid the rule; a rule commented out was read
    shown = extract_html(
        shop_page(
            f"<div class='meta'>{ROW}</div>", "/* sc-component-id: x */\n.meta{display:flex}"
        ),
        URL,
    ).markdown
    assert "€129.00 ★★★★☆ (214)" in shown
    joined = extract_html(
        shop_page(f"<div class='meta'>{ROW}</div>", "/* .meta{display:flex} */ .meta{color:red}"),
        URL,
    ).markdown
    assert "€129.00★★★★☆(214)" in joined
