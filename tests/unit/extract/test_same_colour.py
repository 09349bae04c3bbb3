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
            ".hero{background:#0b3d91}",
        ),
        # white text where the page declares a background (body, a dark scheme): not judged
        (f"<p style='color:#fff'>{INJECTION}</p>", "body{background:#222}"),
        (f"<p style='color:#fff'>{INJECTION}</p>", ":root{color-scheme:dark}"),
        (f"<p class='lead'>{INJECTION}</p>", ".lead{color:#fff}body{background:#101820}"),
        # white text on a block that paints its own background on a plain page: visible
        (f"<p class='w' style='background:#1d2b3a'>{INJECTION}</p>", ".w{color:#fff}"),
        (f"<div style='background:#0b3d91'><p style='color:#fff'>{INJECTION}</p></div>", ""),
        (
            f"<div style='background:url(/sea.jpg)'><p class='w'>{INJECTION}</p></div>",
            ".w{color:#fff}",
        ),
        (
            f"<table><tr><td bgcolor='#000033'><span style='color:white'>{INJECTION}</span>"
            "</td></tr></table>",
            "",
        ),
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


@pytest.mark.parametrize(
    ("hidden", "sheet"),
    [
        (f"<p style='color:#fff'>{INJECTION}</p>", ""),
        (f"<div class='box'><p style='color: white'>{INJECTION}</p></div>", ""),
        (f"<p class='fine'>{INJECTION}</p>", ".fine{color:#ffffff}"),
        (
            f"<section><p class='a fine'>{INJECTION}</p></section>",
            "h1{color:#333}.fine{color:#FFF}",
        ),
        # the legacy <font> colour, HSL and near-white (review n-17)
        (f"<p><font color='white'>{INJECTION}</font></p>", ""),
        (f"<p><font color='#FEFEFE'>{INJECTION}</font></p>", ""),
        (f"<p style='color:hsl(0, 0%, 100%)'>{INJECTION}</p>", ""),
        (f"<p style='color:hsl(210deg 20% 99%)'>{INJECTION}</p>", ""),
        (f"<p style='color:#fefefe'>{INJECTION}</p>", ""),
        (f"<p class='fine'>{INJECTION}</p>", ".fine{color:rgb(248,250,252)}"),
    ],
)
def test_white_text_on_a_page_that_declares_no_background_is_counted(
    hidden: str, sheet: str
) -> None:
    """No background anywhere: the browser's default white canvas is behind the text."""
    result = extract_html(page(hidden, sheet), URL)
    assert "bank password" in result.markdown
    assert result.invisible_chars_kept >= LETTERS


@pytest.mark.parametrize(
    ("shown", "sheet"),
    [
        (f"<p style='color:#f0f0f0'>{INJECTION}</p>", ""),  # pale grey: 1.14:1, still seen
        (f"<p><font color='#eeeeee'>{INJECTION}</font></p>", ""),
        (f"<p style='color:hsl(0, 0%, 90%)'>{INJECTION}</p>", ""),
        (f"<p><font color='white'>{INJECTION}</font></p>", "body{background:#111}"),
        (f"<div bgcolor='#003'><font color='white'>{INJECTION}</font></div>", ""),
        # near-white on a background the page sets is two colours, not the canvas
        (f"<p style='color:#fefefe;background:#f9f9f9'>{INJECTION}</p>", ""),
    ],
)
def test_pale_or_backed_white_text_is_not_counted(shown: str, sheet: str) -> None:
    result = extract_html(page(shown, sheet), URL)
    assert "bank password" in result.markdown
    assert result.invisible_chars_kept == 0


def test_white_text_on_a_page_with_a_linked_stylesheet_is_not_counted() -> None:
    html = page(f"<p style='color:#fff'>{INJECTION}</p>").replace(
        "<style>", "<link rel='stylesheet' href='/site.css'><style>"
    )
    assert extract_html(html, URL).hidden_chars_kept == 0


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


def test_a_comment_before_the_selector_is_not_part_of_it() -> None:
    doc = parse_html(
        "<html><head><style>p{margin:0}/*!sc*/\n.w{color:#fff;background:#fff}"
        "/* .old{color:#000;background:#000} */</style></head><body></body></html>"
    )
    assert same_colour_classes(doc) == frozenset({"w"})
