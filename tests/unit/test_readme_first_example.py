"""README "What you get": the first example shows what web_fetch prints for a page whose
``<h1>`` repeats its title — the heading left out (review n-15: the example showed
"# Example Domain" under "title: Example Domain", which the extraction drops)."""

from __future__ import annotations

from pathlib import Path

from webresearch.extract.html import extract_html

ROOT = Path(__file__).resolve().parents[2]
SECTION = (ROOT / "README.md").read_text(encoding="utf-8").split("## What you get", 1)[1]
EXAMPLE = SECTION.split("```\n", 2)[1]

#: A page shaped as example.org's, written for this test.
PAGE = (
    "<!doctype html><html><head><title>Example Domain</title></head><body><div>"
    "<h1>Example Domain</h1><p>This domain is for use in illustrative examples in documents."
    "</p><p><a href='https://www.iana.org/domains/example'>More information...</a></p>"
    "</div></body></html>"
)


def test_the_first_example_shows_the_text_under_the_title_as_extracted() -> None:
    head, _, body = EXAMPLE.partition("\n\n")
    assert "title: Example Domain" in head.splitlines()
    shown = body.splitlines()[0].rstrip("…").strip()
    out = extract_html(PAGE, "https://example.org/")
    assert out.title == "Example Domain"
    assert out.markdown.splitlines()[0].startswith(shown)
    assert "# Example Domain" not in out.markdown
