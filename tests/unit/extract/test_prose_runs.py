"""A slide's paragraph cut by footnote markers is still one run of prose."""

from __future__ import annotations

from lxml import etree

from webresearch.extract.align import text_segments
from webresearch.extract.html import extract_html
from webresearch.extract.prose_runs import prose_chars

INTRO = (
    "<p>The K9 robot vacuum learns the rooms of a home in its first three runs and then "
    "cleans each one on the schedule its owner sets, from the kitchen after dinner to the "
    "hallway before work.</p>"
    + "".join(
        f"<p>Week {i}: the owner's log shows the robot finished every room on time, returned "
        "to its dock without help, and left the floors free of crumbs, hair and the grit "
        "that comes in on shoes.</p>"
        for i in range(6)
    )
)
#: Three runs of fewer than 80 letters each, split by two <sup> markers: one sentence.
SLIDE = (
    "<div class='feature-slider'><div class='feature-slider__item'>"
    "<h2 class='feature-slider__heading'>Cleans deeper</h2>"
    "<p class='feature-slider__body'>A three-stage cleaning system lifts ten times the dirt "
    "of the first model from deep carpets<sup>1</sup>, while a spinning edge brush sweeps "
    "along the walls and into the corners of a room<sup>2</sup> that a round robot usually "
    "misses, and its large bin holds a whole week of dust.</p></div></div>"
)
OUTRO = (
    "<h2>In the box</h2><p>The robot, its dock, two dust bags, a spare filter and a spare "
    "corner brush, with a mains lead for the dock.</p>"
)


def test_a_feature_slide_cut_by_footnote_markers_is_kept_as_prose() -> None:
    page = (
        "<html><head><title>K9 robot vacuum</title></head><body><main><h1>K9 robot vacuum"
        f"</h1>{INTRO}{SLIDE}{OUTRO}</main></body></html>"
    )
    markdown = extract_html(page, "https://robots.example/k9").markdown
    assert "while a spinning edge brush sweeps along the walls" in markdown
    assert markdown.index("Week 5") < markdown.index("edge brush") < markdown.index("In the box")


def test_runs_are_paragraphs_and_links_are_no_prose() -> None:
    body = etree.fromstring(
        "<body><p>A first part of the sentence<sup>1</sup> and its second part that ends "
        "it.</p><p><a href='/x'>A long link text that runs on and on and on</a> then</p>"
        "<p>Short.</p></body>"
    )
    segments = list(text_segments(body))
    first = sum(len(s.norm) for s in segments[:3])
    assert prose_chars(segments, body, first) == first  # one run across the <sup>
    assert prose_chars(segments, body, first + 1) == 0
    assert prose_chars(segments[3:], body, 1) == len("then") + len("short")
