"""trafilatura's main extractor with loops for its XPath scans (extract/traf_content.py,
extract/traf_scans.py) selects what trafilatura's XPaths select."""

from __future__ import annotations

import itertools
import re
from copy import deepcopy

import pytest
from hypothesis import given
from hypothesis import strategies as st
from lxml import etree
from lxml import html as lxml_html
from trafilatura import main_extractor
from trafilatura.settings import Extractor
from trafilatura.xpaths import (
    BODY_XPATH,
    DISCARD_IMAGE_ELEMENTS,
    OVERALL_DISCARD_XPATH,
    TEASER_DISCARD_XPATH,
)

from webresearch.extract.traf_content import extract_content, wild_text_candidates
from webresearch.extract.traf_scans import (
    alternation,
    body_frame_finders,
    discard_scan,
    discard_targets,
    image_caption_targets,
    teaser_targets,
)

# attribute values around every alternative of the expressions (and near misses)
VALUES = [
    "post", "entry", "post x", "articleContent", "article-content", "art-content",
    "article__content", "articlebody", "article__body", "articleBody", "body-text",
    "post_text", "post-body", "postentry", "postcontent", "post_content", "postContent",
    "post_inner_wrapper", "articletext", "articleText", "page-content", "ArticleContent",
    "article__container", "primary-col", "x primary", "story-body", "article x", "article",
    "x article ", "story", "text", "cell", "postarea", "art-postcontent", "FullText",
    "ſulltext", "post-bodycopy", "storycontent", "blog-content", "single-post", "main-column",
    "wpb_text_column", "field-body", "content", "content-main", "content_main", "contentBody",
    "content__body", "Main-Content", "MAIN-CONTENT", "x-main-content", "Page-Content",
    "PAGE-CONTENT", "main", "mainbar", "x main", "share-box", "Share", "social", "viral",
    "newsletter", "syndication", "tags", "sidebar", "banner", "breadcrumb", "bread-crumb",
    "button", "author", "jp-relatedposts", "dpsp-content-x", "bmdh", "footer", "Footer",
    "nav", "Nav", "menu", "related", "message-container", "premium", "ad-slot", "x ad-slot",
    "x ad y", "x-ad-y", "dfpAd", "outbrain", "taboola", "criteo", "paidcontent", "widget",
    "byline", "Byline", "embedded", "tag-list", "consent", "modal-content", "permission",
    "related-links", "next-story", "top-stories", "most-popular", "more-on", "meta",
    "rating", "attachment", "timestamp", "user-info", "user-profile", "x-icon",
    "article-infos", "slide", "viewport", "overlay", "options", "expand", "obfuscated",
    "blurred", "mol-factbox", "yin", "zlylin", "nfoline", "subnav", "post-nav",
    "ZendeskForm", "navbar", "navbox", "avigation", "cookie-bar", "Cookie", "comments-title",
    "reply-1", "x reply-1", "hidden", "is-hidden", "x hidden", "reader-comments", "akismet",
    "hide-me", "x-hide-y", "hide-print", "x hide", "noprint", "notloaded", "nocomments",
    "x-reply-y", "message", "suggest-links", "caption", "figcaption", "Teaser", "teaser-box",
    "TEASER", "plain", "",
]  # fmt: skip
TAGS = ["div", "span", "p", "section", "article", "main", "item", "list", "aside", "li"]
OTHER_ATTRIBUTES = [
    ' role="navigation"', ' role="Navigation"', ' role="main"', ' role="article"',
    ' data-lp-replacement-content=""', ' data-component="MostPopularStories"',
    ' style="display:none"', ' style="display: none"', ' style="visibility: hidden"',
    ' aria-hidden="true"', ' itemprop="articleBody"',
]  # fmt: skip


FRAME_SHAPES = ['<{t} class="{v}">', '<{t} id="{v}">', '<{t} id="{v}" class="x">',
                '<{t} class="x" id="{v}">', '<{t} class="{v}" id="x">', '<{t} role="{v}">']  # fmt: skip
SHAPES = [*FRAME_SHAPES, '<{t} style="{v}" id="x">', '<{t} id="x" style="{v}">']


def _elements(tags: list[str] = TAGS, shapes: list[str] = SHAPES) -> list[str]:
    """One element per tag, value and attribute order (id first, class first, id/style)."""
    found = [
        shape.format(t=tag, v=value) + f"text {i}</{tag}>"
        for i, (tag, value, shape) in enumerate(itertools.product(tags, VALUES, shapes))
    ]
    found += [f"<{tag}{attr}>other</{tag}>" for tag in tags for attr in OTHER_ATTRIBUTES]
    return found


def _tree(inner: str) -> etree._Element:
    return lxml_html.fromstring(f"<html><body><div>{inner}</div></body></html>")


def test_the_pruning_scans_select_what_the_xpaths_select() -> None:
    tree = _tree("".join(_elements()))
    expected = list(
        dict.fromkeys(el for expression in OVERALL_DISCARD_XPATH for el in expression(tree))
    )
    assert len(expected) > 1000
    assert discard_targets(tree) == expected
    assert image_caption_targets(tree) == DISCARD_IMAGE_ELEMENTS[0](tree)
    assert teaser_targets(tree) == TEASER_DISCARD_XPATH[0](tree)
    # one walk for the three
    assert discard_scan(tree) == (expected, image_caption_targets(tree), teaser_targets(tree))


def test_each_frame_finder_finds_what_its_xpath_finds() -> None:
    found = 0
    for element in _elements(["div", "section", "article", "main"], FRAME_SHAPES):
        tree = _tree(f"<div>lead</div>{element}<main>m</main><article>a</article>")
        for finder, expression in zip(body_frame_finders(), BODY_XPATH, strict=True):
            frame = finder(tree)
            assert frame is next(iter(expression(tree)), None), (element, expression.path)
            found += frame is not None and frame.text != "m" and frame.text != "a"
    assert found > 500


STORY = "".join(
    f"<p>Paragraph {i} of the harbour story tells how the ferry crews rebuilt the old pier "
    f"after the winter storms, plank by plank, with timber from the hills.</p>"
    for i in range(6)
)
PAGES = [
    f"<div class='article-body'><div class='share-box'>Share</div>{STORY}"
    "<div class='teaser'>Read next</div><div class='caption'>Photo</div></div>",
    f"<section class='story'>{STORY}<span style='display:none'>hidden</span></section>",
    # the guard: a frame whose discarded parts hold nearly all its text keeps them
    f"<main><div class='meta'>{STORY}</div></main>",
    # short: the wild text recovery runs
    "<div class='content'><p>A short note on the pier reopening on Monday.</p></div>"
    "<p>More text outside the frame about the ferry timetable.</p>",
    "<div>nothing but a <a href='/'>link</a></div>",
    # captions and teasers inside discarded blocks, a teaser inside a caption: each pruned
    # once, from the tree as the prune before left it
    f"<div class='article-body'>{STORY}<div class='sidebar'><div class='caption'>In the "
    "sidebar</div><p class='Teaser'>t</p></div><div id='photo-caption'><span class='teaser'>"
    "Next</span> Photo: the pier</div><section class='teaser-list'>More</section></div>",
    # link density (the converted tree's <ref>): the paragraph goes in the first round, the
    # list of two short links left then goes in the second round only
    f"<div class='article-body'>{STORY}<list><p><ref target='/a'>The ferry timetable</ref> now"
    "</p><item>Pier news and more notes <ref target='/h'>Home</ref> <ref target='/n'>News"
    "</ref></item></list><div><ref target='/'>Home</ref></div></div>",
]


@pytest.mark.parametrize("markup", PAGES)
@pytest.mark.parametrize("focus", ["balanced", "recall", "precision"])
def test_the_extractor_gives_trafilaturas_tree(markup: str, focus: str) -> None:
    options = Extractor(output_format="txt", fast=True)
    options.focus = focus
    tree = lxml_html.fromstring(f"<html><body>{markup}</body></html>")
    ours_body, ours_text = extract_content(deepcopy(tree), options)
    body, text = main_extractor.extract_content(deepcopy(tree), options)
    assert (etree.tostring(ours_body), ours_text) == (etree.tostring(body), text)


# every regex of the expressions this module repeats, as trafilatura writes it
PATTERNS = [
    found
    for expression in [*BODY_XPATH, *OVERALL_DISCARD_XPATH]
    for found in re.findall(r"re:test\(@[\w|@]+, '([^']+)'\)", expression.path)
]


def test_the_patterns_are_trafilaturas() -> None:
    assert len(PATTERNS) == 12
    assert "^hide-|comments-title" in PATTERNS[-1]


@pytest.mark.parametrize("pattern", PATTERNS)
def test_an_alternation_matches_as_its_regex(pattern: str) -> None:
    split = alternation(pattern)
    for value in VALUES + [f"x {v}" for v in VALUES] + [f"{v}-y" for v in VALUES]:
        assert split.search(value) == bool(re.search(pattern, value)), value


@given(st.text(alphabet="abcdeghilmnoprstuvwy -_ACFNPBZ", max_size=30))
def test_an_alternation_matches_as_its_regex_on_any_text(text: str) -> None:
    for pattern in PATTERNS:
        assert alternation(pattern).search(text) == bool(re.search(pattern, text))


WILD_TEXT_XPATH = ".//code|.//p|.//quote|.//table|.//div[contains(@class, 'w3-code')]"


@pytest.mark.parametrize("recall", [False, True])
def test_the_wild_text_candidates_are_what_the_xpath_selects(recall: bool) -> None:
    """trafilatura's ``recover_wild_text`` union XPath, as one walk (libxml2's union merge
    was quadratic in the number of paragraphs: seconds on a 2 MB page)."""
    tree = etree.fromstring(
        "<div><p>a<code>b</code></p><div class='x w3-codes'><p>c</p></div>"
        "<table><p>d</p></table><quote><p>e</p><lb/></quote><div class='w3-code'>f</div>"
        "<list><item><div>g</div></item></list><!-- c --><p/></div>"
    )
    expression = WILD_TEXT_XPATH + ("|.//div|.//lb|.//list" if recall else "")
    expected = tree.xpath(expression)
    assert len(expected) >= 9
    assert wild_text_candidates(tree, recall) == expected
    assert tree not in wild_text_candidates(tree, recall=True)  # descendants only
