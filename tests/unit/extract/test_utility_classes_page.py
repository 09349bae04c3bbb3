"""Whether a page uses Tailwind's breakpoint classes (extract/utility_classes.py), on small
pages of our own."""

from __future__ import annotations

from webresearch.extract.parse import parse_html
from webresearch.extract.utility_classes import uses_tailwind


def test_a_breakpoint_class_deep_in_the_body_makes_a_tailwind_page() -> None:
    doc = parse_html(
        "<html><body><main><div><section><p class='text-sm lg:flex'>Hi</p></section>"
        "</div></main></body></html>"
    )
    assert uses_tailwind(doc)


def test_class_names_without_a_breakpoint_prefix_are_no_tailwind_page() -> None:
    doc = parse_html(
        "<html><head><title class='md:x'>t</title></head><body class='md:block'>"
        "<p class='smile hidden'>Hi</p><div class='xl'>x</div></body></html>"
    )
    assert not uses_tailwind(doc)  # the body's own class and the head's are not read
