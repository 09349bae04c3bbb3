"""An article's byline and date line stay in its text (new-user review n-15: a research agent
needs when and by whom a page was written; the markdown is where it reads them)."""

from __future__ import annotations

from webresearch.extract.align import page_segments
from webresearch.extract.html import extract_html
from webresearch.extract.inline_dates import keep_inline_dates
from webresearch.extract.parse import parse_html

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


def test_the_date_of_a_byline_written_in_a_time_element_stays() -> None:
    # trafilatura deletes every <time>: the line kept without its date read "By Jane Doe ·"
    html = (
        "<html><head><title>Otters return to the river</title></head><body><main><article>"
        "<h1>Otters return to the river</h1>"
        '<p>By Jane Doe · <time datetime="2026-12-01">Dec 1, 2026</time></p>'
        f"{PROSE}</article></main></body></html>"
    )
    out = extract_html(html, "https://river.example/news/otters").markdown
    assert "By Jane Doe · Dec 1, 2026" in out


def test_a_date_in_a_span_of_its_own_inside_the_byline_stays() -> None:
    html = (
        "<html><head><title>Otters return to the river</title></head><body><main><article>"
        "<h1>Otters return to the river</h1>"
        '<div class="meta"><span class="author">By Jane Doe</span> '
        '<span class="date">updated <time><b>1 Dec</b> 2026</time></span></div>'
        f"{PROSE}</article></main></body></html>"
    )
    out = extract_html(html, "https://river.example/news/otters").markdown
    assert "updated **1 Dec** 2026" in out or "updated 1 Dec 2026" in out


def test_a_date_whose_block_holds_no_kept_text_is_not_added() -> None:
    body = parse_html(
        "<html><body><p>Kept line <time>Dec 1</time></p>"
        "<div><time>Nov 2</time></div><p>Other <em><time>Oct 3</time></em></p></body></html>"
    ).find("body")
    assert body is not None
    segments = page_segments(body)
    for seg in segments:
        seg.kept = seg.norm in ("keptline", "other")
    assert keep_inline_dates(segments) == len("dec1") + len("oct3")
    assert [s.norm for s in segments if s.kept] == ["keptline", "dec1", "other", "oct3"]


def _byline(meta: str) -> str:
    html = (
        "<html><head><title>Otters return to the river</title></head><body><main><article>"
        f"<h1>Otters return to the river</h1>{meta}{PROSE}</article></main></body></html>"
    )
    return extract_html(html, "https://river.example/news/otters").markdown.split("Paragraph 0")[0]


def test_the_updated_date_beside_the_published_one_is_left_out() -> None:
    # underscores and the Twenty* themes print both and hide .updated in style.css
    head = _byline(
        "<p>By <a href='/author/jane'>Jane Doe</a> · <a href='/otters' rel='bookmark'>"
        "<time class='entry-date published' datetime='2026-12-01'>December 1, 2026</time>"
        "<time class='updated' datetime='2026-12-03'>December 3, 2026</time></a></p>"
    )
    assert "December 1, 2026" in head and "December 3" not in head


def test_an_updated_date_alone_stays() -> None:
    head = _byline("<p>By Jane Doe, revised <time class='updated'>December 3, 2026</time></p>")
    assert "revised December 3, 2026" in head


def test_a_restored_date_is_not_glued_to_the_text_beside_it() -> None:
    head = _byline(
        "<div class='meta'><span>By Jane Doe</span><span><time datetime='2026-12-01'>"
        "Dec 1, 2026</time></span><span><time datetime='2026-12-01T09:00'>9:00</time></span></div>"
    )
    assert "Jane Doe Dec 1, 2026 9:00" in " ".join(head.split())


def test_a_date_written_against_punctuation_keeps_it() -> None:
    head = _byline("<p>Posted (<time>Dec 1, 2026</time>), by Jane Doe</p>")
    assert "Posted (Dec 1, 2026), by Jane Doe" in head


def test_a_dateline_of_its_own_under_the_title_stays() -> None:
    # trafilatura deletes every <time>: a paragraph holding only one lost it (session 16)
    html = (
        "<html><head><title>Otters return to the river</title></head><body><main><article>"
        "<h1>Otters return to the river</h1><p><time datetime='2026-12-01'>1 December 2026"
        f"</time></p>{PROSE}</article></main></body></html>"
    )
    out = extract_html(html, "https://river.example/news/otters").markdown
    assert out.startswith("1 December 2026\n\nParagraph 0")


def test_a_date_box_of_its_own_elsewhere_is_not_added() -> None:
    body = parse_html(
        "<html><body><h1>Title</h1><p><time>Dec 1</time></p><p>Kept line</p>"
        "<p>Other</p><div><time>Nov 2</time></div><p>Last</p></body></html>"
    ).find("body")
    assert body is not None
    segments = page_segments(body)
    for seg in segments:
        seg.kept = seg.norm in ("title", "keptline", "other", "last")
    assert keep_inline_dates(segments) == len("dec1")
