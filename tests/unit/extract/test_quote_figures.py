"""A quotation set as a figure (figure > blockquote) inside an article is kept with it."""

from __future__ import annotations

from lxml import etree

from webresearch.extract.align import page_segments
from webresearch.extract.html import extract_html
from webresearch.extract.quote_figures import keep_quote_sources

PARAGRAPH = (
    "<p>Beekeepers in the valley have moved their hives twice this spring, chasing the "
    "late blossom of the orchards up the slopes as the frost lifted week by week.</p>"
)
QUOTE = (
    "<figure class='interview-quote'><div class='portrait'><img src='/p/marta.jpg' alt=''>"
    "</div><div class='body'><blockquote><p>We read the weather like a ledger now; every "
    "cold night costs us a week of honey.</p></blockquote><figcaption>Marta Lind, keeper "
    "of forty hives</figcaption></div></figure>"
)
FOOTER_QUOTE = (
    "<footer><figure><blockquote><p>Bees do not read calendars, and neither should the "
    "people who keep them, says our editor.</p></blockquote></figure></footer>"
)


def page(article: str, after: str = "") -> str:
    return (
        "<html><head><title>Hives on the move</title></head><body>"
        "<nav><a href='/'>Home</a> <a href='/news'>News</a></nav>"
        f"<article><h1>Hives on the move</h1>{article}</article>{after}</body></html>"
    )


def test_a_quote_figure_between_paragraphs_is_kept() -> None:
    article = PARAGRAPH * 3 + QUOTE + PARAGRAPH.replace("spring", "summer") * 3
    markdown = extract_html(page(article), "https://bees.example/hives").markdown
    assert "> We read the weather like a ledger now" in markdown
    assert "the late blossom" in markdown


def test_a_pull_quote_repeating_the_article_is_not_read_twice() -> None:
    sentence = "Every cold night costs the keepers a whole week of honey this year."
    pull = QUOTE.replace(
        "We read the weather like a ledger now; every cold night costs us a week of honey.",
        sentence,
    )
    article = PARAGRAPH * 2 + f"<p>{sentence}</p>" + pull + PARAGRAPH * 2
    markdown = extract_html(page(article), "https://bees.example/hives").markdown
    assert markdown.count("costs the keepers a whole week") == 1


def test_a_quote_figure_after_the_article_stays_out() -> None:
    article = PARAGRAPH * 4
    markdown = extract_html(page(article, FOOTER_QUOTE), "https://bees.example/hives").markdown
    assert "Bees do not read calendars" not in markdown


def test_the_source_of_a_kept_quote_figure_is_kept_with_it() -> None:
    """trafilatura keeps the quotation and drops its caption of ``<span>``s: who said it."""
    quote = (
        "<section class='module'><figure class='highlight-quote'><blockquote><p>We read the "
        "weather like a ledger now; every cold night costs us a week of honey.</p>"
        "</blockquote><figcaption><span class='quote-source'>Marta Lind,</span>"
        "<span class='quote-sub-source'> keeper of forty hives</span></figcaption></figure>"
        "</section>"
    )
    article = PARAGRAPH * 3 + quote + PARAGRAPH.replace("spring", "summer") * 3
    markdown = extract_html(page(article), "https://bees.example/hives").markdown
    assert "> We read the weather like a ledger now" in markdown
    assert "Marta Lind, keeper of forty hives" in markdown


def test_only_a_short_caption_without_links_is_a_quote_source() -> None:
    short = "<figcaption>Marta Lind, keeper of forty hives</figcaption>"
    long = (
        "<figcaption>Marta Lind has kept bees in the valley for thirty years, and before "
        "that she worked the orchards of her parents, who planted the first apple trees "
        "in the valley.</figcaption>"
    )
    linked = "<figcaption><a href='/m'>Marta Lind</a></figcaption>"
    for caption, kept in ((short, True), (long, False), (linked, False)):
        body = etree.fromstring(
            "<body><figure><blockquote><p>Every cold night costs us a week of honey, "
            f"and we count them.</p></blockquote>{caption}</figure></body>"
        )
        segments = page_segments(body)
        segments[0].kept = True  # the quotation
        assert (keep_quote_sources(body, segments) > 0) is kept
        assert all(seg.kept for seg in segments) is kept
