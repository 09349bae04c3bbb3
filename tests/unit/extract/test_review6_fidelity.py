"""Fidelity faults a fresh reviewer found (review 6), each on a small page of our own: a
formula inside a link, headings left empty by our removals, link cards around images and
tables, and the links of a frameset page."""

from __future__ import annotations

from webresearch.extract.html import extract_html

URL = "https://notes.example.org/vectors/length.html"


def _mi(name: str) -> str:
    return f"<math><mi>{name}</mi></math>"


def _vector_article(tail: str) -> str:
    """An article with several plain MathML formulas (no TeX source), then ``tail``."""
    return (
        "<html><head><title>Vector length</title></head><body><article>"
        "<h1>Vector length</h1>"
        f"<p>The length of a vector {_mi('v')} is the square root of the sum of the squares "
        "of its components, measured in the units of the space it lives in.</p>"
        "<p>Scaling: <math><mrow><mo>|</mo><mi>c</mi><mi>v</mi><mo>|</mo></mrow><mo>=</mo>"
        "<mrow><mo>|</mo><mi>c</mi><mo>|</mo></mrow><mrow><mo>|</mo><mi>v</mi><mo>|</mo>"
        "</mrow></math> holds for every real number and every vector of the plane.</p>"
        "<p>Triangle: <math><mrow><mo>|</mo><mi>u</mi><mo>+</mo><mi>v</mi><mo>|</mo></mrow>"
        "<mo>≤</mo><mrow><mo>|</mo><mi>u</mi><mo>|</mo></mrow><mo>+</mo><mrow><mo>|</mo>"
        "<mi>v</mi><mo>|</mo></mrow></math> and the equality holds for parallel ones.</p>"
        f"<p>Unit: <math><mfrac><mi>v</mi><mrow><mo>|</mo><mi>v</mi><mo>|</mo></mrow></mfrac>"
        "</math> has length one and keeps the direction of the vector it came from.</p>"
        f"{tail}</article></body></html>"
    )


def test_a_formula_inside_a_link_keeps_its_list_and_its_text() -> None:
    page = _vector_article(
        f"<ul><li><a href='/glossary/norm'>{_mi('v')}</a>.</li>"
        "<li>the unit vector points the same way</li></ul>"
    )
    markdown = extract_html(page, URL).markdown
    assert "- [v](https://notes.example.org/glossary/norm).\n" in markdown
    assert "- the unit vector points the same way" in markdown


def test_punctuation_after_an_element_ending_with_a_formula_follows_it() -> None:
    page = _vector_article(
        f"<p>See <a href='/glossary/norm'>the norm {_mi('n')}</a>, then <b>{_mi('w')}</b>; "
        "both are defined in the glossary of this site for every reader.</p>"
    )
    markdown = extract_html(page, URL).markdown
    assert "See [the norm n](https://notes.example.org/glossary/norm), then **w**; both" in (
        markdown
    )


FRAMESET = (
    "<html><head><title>Harbour charts</title></head><frameset cols='25%,75%'>"
    "<frame src='karten/straße.html' name='streets'><frame src='deck plan.html' name='plan'>"
    "</frameset></html>"
)


def test_a_frame_address_is_encoded_alike_with_and_without_a_base() -> None:
    local = extract_html(FRAMESET, "file:///home/ana/charts/index.html").markdown
    served = extract_html(FRAMESET, "https://charts.example.org/index.html").markdown
    assert "- [streets](karten/straße.html)" in local
    assert "- [streets](https://charts.example.org/karten/straße.html)" in served
    assert "- [plan](deck%20plan.html)" in local
    assert "- [plan](https://charts.example.org/deck%20plan.html)" in served


def _release_page(under_heading: str) -> str:
    return (
        "<html><head><title>Atlas 3.1</title></head><body><main><article><h1>Atlas 3.1</h1>"
        "<p>Atlas 3.1 draws tiles twice as fast and reads the new chart format; every user "
        "of the 3.x series should upgrade before the old format is retired.</p>"
        f"<h2>Get it</h2>{under_heading}"
        "<h2>What changed</h2><p>The tile cache is shared between windows, and the chart "
        "reader checks each file's checksum before it draws anything at all.</p>"
        "</article></main></body></html>"
    )


def test_a_heading_whose_only_content_was_a_dropped_menu_goes_with_it() -> None:
    menu = (
        "<div class='dropdown'><button class='dropdown-toggle'>Pick a system</button>"
        "<div class='dropdown-menu'><a href='/get/atlas.deb'>Debian package (12 MB)</a>"
        "<a href='/get/atlas.dmg'>Disk image for macOS (15 MB)</a>"
        "<a href='/get/atlas.msi'>Installer for Windows (14 MB)</a></div></div>"
    )
    markdown = extract_html(_release_page(menu), URL).markdown
    assert "Debian package" not in markdown
    assert "Get it" not in markdown
    assert "## What changed\n\nThe tile cache" in markdown


def test_a_heading_with_other_content_beside_the_menu_stays() -> None:
    menu = (
        "<p>Pick the package for your system from the list of downloads below.</p>"
        "<ul role='menu'><li><a href='/get/atlas.deb'>Debian package (12 MB)</a></li>"
        "<li><a href='/get/atlas.dmg'>Disk image for macOS (15 MB)</a></li></ul>"
    )
    markdown = extract_html(_release_page(menu), URL).markdown
    assert "## Get it\n\nPick the package for your system" in markdown
