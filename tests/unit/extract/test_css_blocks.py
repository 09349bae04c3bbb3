"""css_blocks: the cheap scan finds what a plain brace scan and tinycss2 find."""

from __future__ import annotations

import tinycss2
from lxml import html

from webresearch.extract.css_blocks import display_rules, screen_sheets
from webresearch.extract.page_sheets import declarations, read_sheets


def _rules(*sheets: str, chars: int = 10_000) -> list[tuple[str, str, tuple[str, ...], bool, bool]]:
    styles = "".join(f"<style>{css}</style>" for css in sheets)
    doc = html.fromstring(f"<html><head>{styles}</head><body><p>x</p></body></html>")
    return [
        (r.prelude, r.block, r.context, r.hides, r.shows)
        for sheet, limit in screen_sheets(read_sheets(doc.iter("style")), chars)
        for r in display_rules(sheet, limit)
    ]


def test_flat_rules_in_a_run_are_read_with_their_context() -> None:
    css = (
        "p{color:red}.a{display:none}.b,.c{visibility:visible}"
        "@media screen{.d{x:1}.e{display:none !important}}}.f{display:none}"
        "[data-x=display:none]{color:red}.g{color:blue"
    )
    assert _rules(css) == [
        (".a", "display:none", (), True, False),
        (".b,.c", "visibility:visible", (), False, True),
        (".e", "display:none !important", ("@media screen",), True, False),
        (".f", "display:none", (), True, False),
    ]


def test_a_nested_rule_is_not_read_but_its_parent_is() -> None:
    css = ".a{display:none;.b{display:none}}@media print{.c{display:none}}"
    assert [(r[0], r[2]) for r in _rules(css)] == [(".a", ()), (".c", ("@media print",))]


def test_comments_are_not_read_and_each_sheet_is_its_own() -> None:
    first = "/* .x{display:none} */ .a /* b */ {display:/* x */none} .open{"
    second = ".c{DISPLAY: NONE}"
    assert [(r[0], r[3]) for r in _rules(first, second)] == [(".a", True), (".c", True)]


def test_the_sheets_are_read_up_to_the_bound() -> None:
    first = ".a{display:none}"
    # the bound falls inside the second sheet's second rule: that rule is not read
    assert [r[0] for r in _rules(first, ".b{display:none}.c{display:none}", chars=35)] == [
        ".a",
        ".b",
    ]


def test_plain_blocks_read_as_tinycss2_reads_them() -> None:
    blocks = [
        "foo; display : NONE ! important;visibility:collapse",
        "display x; display:none;:x;display:",
        "display:none ! ! important",
        "display:none !importantx",
        "--v: a;display:block!IMPORTANT",
        "display:none;content:'a;b'",
    ]
    for block in blocks:
        expected = [
            (n.lower_name, tinycss2.serialize(n.value).strip().lower(), n.important)
            for n in tinycss2.parse_blocks_contents(block, skip_comments=True, skip_whitespace=True)
            if n.type == "declaration"
        ]
        assert declarations(block) == expected, block
