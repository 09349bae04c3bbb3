"""Documentation widgets are not content (extract/page_widgets.py), on small pages of our own."""

from __future__ import annotations

import pytest
from lxml import html as lxml_html

from webresearch.extract.html import extract_html
from webresearch.extract.page_widgets import page_widgets

URL = "https://docs.tidepool.example.org/guide/anchors"

PROSE = "".join(
    f"<p>Step {i}: a tide pool anchor is set below the low-water line, its chain checked for "
    f"wear at every spring tide and its shackle greased before the autumn storms.</p>"
    for i in range(6)
)


def md(inner: str, after: str = "") -> str:
    """The markdown of a guide page with ``inner`` between its paragraphs, ``after`` below."""
    html = (
        "<!DOCTYPE html><html><head><title>Anchors</title></head><body>"
        "<header><nav><a href='/'>Home</a> <a href='/guide'>Guide</a></nav></header>"
        f"<main><article><h1>Setting anchors</h1>{PROSE}{inner}{PROSE}</article>{after}</main>"
        "<footer><p>Tidepool docs</p></footer></body></html>"
    )
    return extract_html(html, URL).markdown


@pytest.mark.parametrize(
    "widget",
    [
        "<div class='feedback'><p>Was this page's content helpful?</p>"
        "<div><button title='Yes'><span>thumb_up</span></button>"
        "<button title='No'><span>thumb_down</span></button></div></div>",
        "<div><p>Is this page helpful?</p><button>Yes</button><button>No</button></div>",
    ],
)
def test_a_feedback_widget_is_not_content(widget: str) -> None:
    out = md(widget)
    assert "Step 5" in out
    assert "helpful" not in out


def test_a_question_about_help_in_the_text_stays() -> None:
    question = (
        "<h2>Questions</h2><p>Was this anchor helpful during the storm of 2019? Keepers "
        "reported that the chain held although the shackle bent.</p>"
        "<button>Show the log</button>"
    )
    assert "Was this anchor helpful" in md(question)


def test_source_and_issue_links_are_not_content() -> None:
    meta = (
        "<p id='page-links'><span>Unless stated otherwise, this guide reflects Tidepool 4.2. "
        "Page last updated on 2025-11-26. </span><a href='https://git.example.org/src/anchors.md'>"
        "View source</a> or <a href='https://git.example.org/issues/new'>report an issue</a>.</p>"
    )
    out = md(meta)
    assert "Step 5" in out
    assert "View source" not in out
    assert "Unless stated otherwise" not in out


def test_a_sentence_with_another_link_beside_an_issue_link_stays() -> None:
    prose = (
        "<p>Read the <a href='/guide/chains'>chain guide</a> first, and "
        "<a href='https://git.example.org/issues/new'>report an issue</a> when a step fails.</p>"
    )
    assert "report an issue" in md(prose)


def test_a_lite_video_embeds_play_link_is_not_content() -> None:
    video = (
        "<lite-youtube videoid='abc'><a href='https://www.youtube.com/watch/abc'>Watch on "
        'YouTube in a new tab: "Anchor knots - tidepool tip of the week"</a></lite-youtube>'
    )
    out = md(video)
    assert "Step 5" in out
    assert "Watch on YouTube" not in out


def test_a_pager_card_to_the_next_lesson_is_not_content() -> None:
    pager = (
        "<a href='/guide/buoys'><p>next lesson</p><h2>Mooring buoys</h2>"
        "<p>Choose a buoy that floats the chain's weight at high water.</p>"
        "<span>Go to next lesson</span></a>"
    )
    out = md(pager)
    assert "Step 5" in out
    assert "Mooring buoys" not in out


@pytest.mark.parametrize(
    ("html", "pager"),
    [
        ("<a href='/guide/chains'>« Previous</a>", True),
        ("<a href='/guide/buoys'>Next: Mooring buoys</a>", True),
        ("<a href='/guide/buoys'>Next page →</a>", True),
        ("<a href='/guide/steps'>Next steps for new keepers</a>", False),
        ("<a href='https://nextjs.example.org/'>Next.js guide</a>", False),
        ("<a href='#next'>Next</a>", False),
        ("Continue on the <a href='?page=2'>next page</a>, or read on.", False),
        ("<a href='/guide/buoys'>Next page</a> to the buoys", False),
        ("<a href='/guide/previous-tides'>Previous tides of the bay were higher</a>", False),
    ],
)
def test_pager_links(html: str, pager: bool) -> None:
    body = lxml_html.fromstring(f"<html><body><div>{html}</div></body></html>").find("body")
    assert body is not None
    assert bool(page_widgets(body)) is pager


@pytest.mark.parametrize(
    "paragraph",
    [
        "<p><a href='/e'>Edit this page</a> and add a footer to the layout.</p>",
        "<p><a href='/docs/edit'>Edit this page</a> in your editor: the tutorial page lives "
        "in <code>docs/start.md</code>.</p>",
        "<p>When you are done, <a href='/issues'>report an issue</a> if anything broke.</p>",
    ],
)
def test_a_sentence_that_starts_with_a_source_link_stays(paragraph: str) -> None:
    # fresh review: a tutorial's "Edit this page and add a footer." was dropped whole
    body = lxml_html.fromstring(f"<html><body><article>{paragraph}</article></body></html>").find(
        "body"
    )
    assert body is not None
    assert page_widgets(body) == []
