"""An image whose alt text says it is not content, or only repeats the page's title, is
dropped (content_images rules 3 and 5); a described photo of the same article stays."""

from __future__ import annotations

from webresearch.extract.html import extract_html

URL = "https://news.example.org/2024/05/harbour-cranes"
TITLE = "How the harbour cranes are rebuilt"

PROSE = (
    "<p>The harbour's four cranes are taken apart every twenty years, their booms lowered "
    "onto barges and towed to the yard upriver, where each joint is opened and checked.</p>"
    "<p>Welders replace the worn pins and bushings first; the cables follow, then the "
    "cabins, whose windows are reglazed before the cranes go back to the quay.</p>"
    "<p>The work takes a winter. Ships are loaded by the two mobile cranes meanwhile, "
    "which is slower but keeps the harbour open for the spring season.</p>"
)


def page(images: str) -> str:
    return (
        f"<!DOCTYPE html><html><head><title>{TITLE} | Harbour News</title>"
        f"<meta property='og:title' content='{TITLE}'></head><body>"
        "<header><nav><a href='/'>Home</a> <a href='/news'>News</a></nav></header>"
        f"<main><article><h1>{TITLE}</h1>{images}{PROSE}"
        "<p><img src='/img/boom-on-barge.jpg' alt='A crane boom lying on a barge beside "
        "the yard at dawn' width='800' height='500'></p>"
        f"{PROSE}</article></main>"
        "<footer><p>© 2024 Harbour News</p></footer></body></html>"
    )


def kept(images: str) -> str:
    return extract_html(page(images), URL).markdown


def test_an_alt_text_naming_a_headshot_logo_or_icon_is_dropped() -> None:
    out = kept(
        "<p><img src='/img/jane.jpg' alt='Headshot of Jane Doe' width='300' height='300'></p>"
        "<p><img src='/img/port-authority.png' alt='Port Authority logo'></p>"
        "<p><img src='/img/anchor.png' alt='Icon of an anchor in a blue circle'></p>"
        "<p><img src='/img/cta-guide.png' alt='CTA to download the full harbour guide'></p>"
        "<p><img src='/img/hero.jpg' alt='Harbour News image'></p>"
    )
    assert "A crane boom lying on a barge" in out, out
    for alt in ("Headshot", "Port Authority logo", "Icon of", "CTA to", "Harbour News image"):
        assert alt not in out, out


def test_an_alt_text_repeating_the_title_is_dropped() -> None:
    out = kept(
        f"<p><img src='/img/hero.jpg' alt='{TITLE} featured image'></p>"
        "<p><img src='/img/hero-2.jpg' alt='harbour cranes are rebuilt'></p>"
    )
    assert "A crane boom lying on a barge" in out, out
    assert "![" in out and out.count("![") == 1, out


def test_a_photo_described_in_its_own_words_stays() -> None:
    out = kept(
        "<p><img src='/img/cabin.jpg' alt='A welder in the crane cabin, replacing a window "
        "frame'></p><p><img src='/img/quay-wall.jpg' alt='Harbour workers painting the "
        "port logo on the quay wall'></p>"
    )
    assert "A welder in the crane cabin" in out, out
    assert "painting the port logo" in out, out


def test_an_alt_text_repeating_the_heading_over_it_is_dropped() -> None:
    out = kept(
        "<h2>Mobile crane MK-88, the relief unit</h2>"
        "<div class='wp-block-image'><img src='/img/mk88.jpg' alt='MK-88 relief crane'></div>"
        "<p>Figure 2.</p><div><img src='/img/f2.png' alt='Figure 2'></div>"
        "<p>It lifts forty tonnes at twenty metres and drives to the quay on its own axles.</p>"
    )
    assert "Mobile crane MK-88" in out and "It lifts forty tonnes" in out, out
    assert "![MK-88" not in out and "![Figure" not in out, out
    assert "A crane boom lying on a barge" in out, out  # described in its own words


def test_an_alt_text_repeating_a_heading_several_wrappers_away_is_dropped() -> None:
    # a review's product chart: the title in its own wrapper, the photo four wrappers down
    # in a caption-less lightbox figure beside its button (image_neighbours.py)
    out = kept(
        "<div class='chart'><div class='chart-item'><div class='title-wrap'>"
        "<h2>Quay Cam 3 – Best camera for the pier</h2></div>"
        "<div class='pros-cons'><div class='image-outer'><div class='image-inner'>"
        "<figure class='lightbox'><img src='/img/quay-cam-3.jpg' "
        "alt='Quay Cam 3 - Best camera for the pier'><button type='button'></button>"
        "</figure></div></div><div class='pros'><h3>Pros</h3><ul><li>Sharp at night</li>"
        "<li>Salt-proof housing</li></ul></div></div></div></div>"
    )
    assert "Quay Cam 3 – Best camera for the pier" in out and "Salt-proof" in out, out
    assert "![Quay Cam" not in out, out
    assert "A crane boom lying on a barge" in out, out  # described in its own words


def test_an_alt_text_with_words_of_its_own_beside_a_heading_stays() -> None:
    out = kept(
        "<div class='item'><div class='title-wrap'><h2>Quay Cam 3</h2></div>"
        "<div class='image-outer'><div class='image-inner'><figure class='lightbox'>"
        "<img src='/img/quay-cam-3.jpg' alt='Quay Cam 3 bolted to a lamp post on the pier'>"
        "</figure></div></div></div>"
    )
    assert "![Quay Cam 3 bolted to a lamp post on the pier]" in out, out


def test_a_chart_whose_words_are_spread_over_the_paragraphs_around_it_stays() -> None:
    """Review r16: every word of the alt text is somewhere in the long paragraphs beside
    the image, but neither holds it as a phrase nor is a heading or caption."""
    out = kept(
        "<p>Each crane lifts containers for the east quay and the west quay; the cranes "
        "on the east side are older and lift less, so the west quay takes the heavy "
        "boxes while the east quay handles the empty ones in the winter months.</p>"
        "<div class='wp-block-image'><div class='inner'><figure class='lightbox'>"
        "<img src='/img/lifts.png' alt='Crane lifts on the east and west quay'></figure>"
        "</div></div>"
        "<p>Over a year the west cranes lift about twice as many tonnes as those in the "
        "east, and the harbour plans to move one crane across when the rebuilding ends, "
        "once the new quay wall on the west side has been finished.</p>"
    )
    assert "![Crane lifts on the east and west quay]" in out, out


def test_an_alt_text_quoted_as_a_phrase_of_the_paragraph_beside_it_is_dropped() -> None:
    out = kept(
        "<p>The chart below shows crane lifts on the east and west quay over the last "
        "ten years, when the older cranes on the east side were first rebuilt.</p>"
        "<div class='wp-block-image'><div class='inner'><figure class='lightbox'>"
        "<img src='/img/lifts.png' alt='Crane lifts on the east and west quay'></figure>"
        "</div></div>"
    )
    assert "![Crane lifts" not in out, out
