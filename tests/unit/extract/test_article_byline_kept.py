"""An article's byline and date line stay in its text (new-user review n-15: a research agent
needs when and by whom a page was written; the markdown is where it reads them)."""

from __future__ import annotations

from webresearch.extract.html import extract_html

PROSE = "".join(
    f"<p>Paragraph {i}: for the first time in forty years a family of otters has been seen "
    f"on the lower river, feeding at dusk below the old mill weir.</p>"
    for i in range(6)
)


def test_a_byline_and_a_date_line_under_the_title_stay() -> None:
    html = (
        "<html><head><title>Otters return to the river</title></head><body><main><article>"
        "<h1>Otters return to the river</h1><p>By Jane Doe</p><p>30 November 2026</p>"
        f"{PROSE}</article></main></body></html>"
    )
    out = extract_html(html, "https://river.example/news/otters").markdown
    assert "By Jane Doe" in out
    assert "30 November 2026" in out
    assert "Paragraph 5" in out
