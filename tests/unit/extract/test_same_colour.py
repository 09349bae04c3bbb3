"""Text painted in the colour of its own background (white on white) is kept and counted
as hidden text kept, like text faded to nothing (extract/same_colour.py, review n-14 #5),
on pages of our own."""

from __future__ import annotations

import pytest

from webresearch.extract.html import extract_html
from webresearch.extract.parse import parse_html
from webresearch.extract.same_colour import same_colour_classes

from .test_offscreen_text import INJECTION, URL, page

LETTERS = sum(c.isalnum() for c in INJECTION)


@pytest.mark.parametrize(
    ("hidden", "sheet"),
    [
        (f"<p style='color:#fff;background:#fff'>{INJECTION}</p>", ""),
        (f"<p style='color: #FFFFFF; background-color: white'>{INJECTION}</p>", ""),
        (f"<p style='background:rgb(250, 250, 250);color:#fafafa !important'>{INJECTION}</p>", ""),
        (f"<p class='fine-print'>{INJECTION}</p>", ".fine-print{color:#fff;background:#fff}"),
        (
            f"<p class='a b'>{INJECTION}</p>",
            "@media screen{.b,.c{background-color:#eee;color:#eeeeee}}",
        ),
        (
            f"<div style='background:#fff'><div><p style='color:#fff'>{INJECTION}</p></div></div>",
            "",
        ),
    ],
)
def test_text_in_the_colour_of_its_background_is_kept_and_counted(hidden: str, sheet: str) -> None:
    result = extract_html(page(hidden, sheet), URL)
    assert "bank password" in result.markdown
    assert result.hidden_chars_kept >= LETTERS


@pytest.mark.parametrize(
    ("shown", "sheet"),
    [
        (f"<p style='color:#fff;background:#000'>{INJECTION}</p>", ""),
        (f"<p style='color:#fff;background:#fff url(/sea.jpg)'>{INJECTION}</p>", ""),  # a picture
        (f"<p style='color:rgba(255,255,255,0.5);background:#fff'>{INJECTION}</p>", ""),
        (f"<p class='btn'>{INJECTION}</p>", ".btn:hover{color:#fff;background:#fff}"),  # a state
        (f"<p class='x'>{INJECTION}</p>", "main .x{color:#fff;background:#fff}"),  # not one class
        # a class between the two could paint another background (a dark banner)
        (
            f"<div style='background:#fff'><div class='hero'><p style='color:#fff'>{INJECTION}"
            "</p></div></div>",
            "",
        ),
        (f"<p style='color:#fff'>{INJECTION}</p>", ""),  # no background said
        # a picture set apart from the colour, on the block around the text (review r-15)
        (
            "<section style='background-color:#ffffff;background-image:url(/hero.jpg)'>"
            f"<p style='color:#fff'>{INJECTION}</p></section>",
            "",
        ),
        (
            f"<p style='color:#fff;background-color:#fff;background-image:url(/a.jpg)'>{INJECTION}</p>",
            "",
        ),
    ],
)
def test_other_colours_are_not_counted(shown: str, sheet: str) -> None:
    result = extract_html(page(shown, sheet), URL)
    assert "bank password" in result.markdown
    assert result.hidden_chars_kept == 0


def test_same_colour_classes_reads_only_rules_of_one_class() -> None:
    sheet = (
        ".w{color:white;background:#FFF}"
        ".k { background: black; color: #000 }"
        ".menu .item{color:#fff;background:#fff}"
        ".b:hover{color:#fff;background:#fff}"
        ".g{color:#fff;background:linear-gradient(#fff,#000)}"
        ".t{color:transparent;background:transparent}"
    )
    doc = parse_html(f"<html><head><style>{sheet}</style></head><body></body></html>")
    assert same_colour_classes(doc) == frozenset({"w", "k"})
