"""Documentation pages keep every API item (newcomer review of issue 13's rustdoc rule).

``tests/fixtures/pages/rustdoc-option.html`` is a page of our own in rustdoc's markup (a
generator meta, ``rightside`` version spans, an "Expand description" toggle). A rule that
removed those widgets before extraction lost whole variants and the implementations: the
page's items must all come out.
"""

from __future__ import annotations

from pathlib import Path

from webresearch.extract.html import extract_html

PAGE = Path(__file__).parents[2] / "fixtures" / "pages" / "rustdoc-option.html"


def test_every_item_of_a_rustdoc_page_is_kept() -> None:
    html = PAGE.read_text(encoding="utf-8")
    markdown = extract_html(html, "https://doc.rust-lang.org/std/option/enum.Option.html").markdown
    for text in ("None", "No value.", "Some(T)", "Implementations", "is_some"):
        assert text in markdown, text
