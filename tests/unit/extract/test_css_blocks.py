"""css_blocks: the cheap scan finds what a plain brace scan and tinycss2 find."""

from __future__ import annotations

import tinycss2

from webresearch.extract.css_blocks import declarations, rule_blocks


def test_flat_rules_in_a_run_are_read_with_their_context() -> None:
    css = (
        "p{color:red}.a{display:none}.b,.c{visibility:visible}"
        "@media screen{.d{x:1}.e{display:none !important}}}.f{display:none}"
        "[data-x=display:none]{color:red}.g{color:blue"
    )
    found = [(r.prelude, r.block, r.context, r.hides, r.shows) for r in rule_blocks(css)]
    assert found == [
        (".a", "display:none", (), True, False),
        (".b,.c", "visibility:visible", (), False, True),
        (".e", "display:none !important", ("@media screen",), True, False),
        (".f", "display:none", (), True, False),
    ]


def test_a_nested_rule_is_not_read_but_its_parent_is() -> None:
    css = ".a{display:none;.b{display:none}}@media print{.c{display:none}}"
    found = [(r.prelude, r.context) for r in rule_blocks(css)]
    assert found == [(".a", ()), (".c", ("@media print",))]


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
