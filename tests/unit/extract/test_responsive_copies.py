"""A block a page's own style sheet hides at a desktop width (a site builder's copy for phones
or tablets) is left out; a class hidden outside any media query, or by a print or
orientation query, stays."""

from __future__ import annotations

from webresearch.extract.html import extract_html
from webresearch.extract.parse import parse_html
from webresearch.extract.responsive_copies import desktop_hidden_classes, responsive_copies

SHEET = """
.variant { display: block }
@media (min-width: 1200px) { .hide-desk { display: none !important } }
@media (min-width: 810px) and (max-width: 1199px) { .hide-tab { display: none !important } }
@media screen and (width < 810px) { .hide-phone, .other { display: none } }
@media print { .no-print { display: none } }
@media (orientation: portrait) { .portrait-off { display: none } }
.js-closed { display: none }
@media (min-width: 1000px) { .shown-later { display: none } }
@media (min-width: 1100px) { .shown-later { display: flex } }
"""
TEXT = (
    "<p>Roses are pruned in late winter, when the buds swell but before the leaves open; "
    "cut a few millimetres above an outward-facing bud.</p>"
    "<p>Take out dead, damaged and crossing canes first, then shorten what is left by about "
    "a third of its length.</p>"
)


def page(body: str) -> str:
    return (
        f"<html><head><title>Pruning roses</title><style>{SHEET}</style></head><body><main>"
        f"<article><h1>Pruning roses in winter</h1>{body}</article></main></body></html>"
    )


def test_classes_hidden_at_desktop_width_inside_width_queries_only() -> None:
    doc = parse_html(page(""))
    assert desktop_hidden_classes(doc) == frozenset({"hide-desk"})


def test_phone_and_tablet_copies_of_a_block_come_out_once() -> None:
    copies = (
        f"<div class='variant hide-tab hide-phone'>{TEXT}</div>"
        f"<div class='variant hide-desk hide-phone'>{TEXT}</div>"
        f"<div class='variant hide-desk hide-tab'>{TEXT}</div>"
    )
    markdown = extract_html(page(copies), "http://127.0.0.1/roses").markdown
    assert markdown.count("Roses are pruned in late winter") == 1
    assert markdown.count("shorten what is left") == 1


def test_blocks_hidden_otherwise_are_left_to_the_other_rules() -> None:
    blocks = (
        f"{TEXT}<p class='no-print'>Sealing large cuts is not needed; clean, sharp tools "
        "matter more than any wound paint.</p><p class='portrait-off shown-later'>Feed the "
        "plants with compost in early spring, once the soil has warmed.</p>"
    )
    markdown = extract_html(page(blocks), "http://127.0.0.1/roses").markdown
    assert "Sealing large cuts" in markdown
    assert "Feed the plants" in markdown


def test_copies_holding_most_of_the_page_are_kept() -> None:
    doc = parse_html(page(f"<div class='hide-desk'>{TEXT}{TEXT}</div><p>Short note.</p>"))
    assert responsive_copies(doc, desktop_hidden_classes(doc)) == []


def test_a_comment_left_open_hides_nothing() -> None:
    # CSS Syntax Level 3 §4.3.2: a comment runs to the end of the sheet when never closed;
    # the rule inside it is no rule (it was read when only closed comments were removed)
    doc = parse_html(
        "<html><head><style>@media (min-width: 1200px) { .desk-off { display: none } }"
        "/* @media (min-width: 1200px) { .old-off { display: none } }</style></head>"
        "<body><p class='desk-off old-off'>x</p></body></html>"
    )
    assert desktop_hidden_classes(doc) == frozenset({"desk-off"})
