"""The faster trafilatura pass (extract/traf_pass.py) gives trafilatura's own answers."""

from __future__ import annotations

from copy import copy

import pytest
import trafilatura
from lxml import etree
from trafilatura.baseline import html2txt
from trafilatura.metadata import Document
from trafilatura.settings import BASIC_CLEAN_XPATH
from trafilatura.xml import delete_element
from trafilatura.xpaths import RAW_TREE_PRUNE_XPATH, REMOVE_COMMENTS_AND_LISTS_XPATH

from webresearch.extract import traf_pass
from webresearch.extract.parse import parse_html
from webresearch.extract.traf_pass import (
    PassMemo,
    basic_cleaning_targets,
    comment_section_targets,
    extraction_pass,
    page_text_bound,
    page_text_length,
    raw_prune_targets,
)

STORY = "".join(
    f"<p>Paragraph {i} of the harbour story tells how the ferry crews rebuilt the old pier "
    f"after the winter storms, plank by plank, with timber from the hills.</p>"
    for i in range(8)
)

# class and id names around every rule of the three scans, in both attribute orders
NAMES = """
<div id="infinite-scroll">Next story <span>more</span></div>
<section class="wrap infiniteScroll"><h1>Appended</h1><p>text</p></section>
<section class="infinitescroll"><h1>Appended</h1><p>kept: has its heading</p></section>
<aside class="mvp-post-add-box"><h1>Another</h1><p>gone anyway</p></aside>
<div class="elementor-share-buttons x">share</div>
<div id="comments"><p>a reader comment</p></div>
<div id="commentary"><p>an analysis, not comments</p></div>
<div class="Comment-body"><p>Nice!</p></div>
<section class="post-comments"><p>c</p></section>
<details id="comol"><summary>s</summary></details>
<ul id="disqus_thread"><li>a Disqus id alone keeps a list</li></ul>
<ul id="comment-list"><li>a comment list</li></ul>
<ol class="commentlist"><li>by class</li></ol>
<div id="dsq-comments"><p>d</p></div>
<div class="x" id="page-footer">class first: not a footer div</div>
<div id="page-footer" class="x">id first: a footer div</div>
<div class="site-footer">footer</div>
<span class="Cookie-Banner">We use cookies</span>
<p id="CybotCookiebotDialog">consent</p>
<div class="ſtyle cookie_notice">long s</div>
<div class="\u212aelvin notice-cookie">Kelvin sign</div>
<aside>aside</aside><footer>page footer</footer><template>t</template>
<svg><text>chart</text></svg><script>var x = 1</script><style>p {}</style>
<fencedframe>ad</fencedframe>
"""


def page(body: str, head: str = "") -> str:
    return (
        f"<!DOCTYPE html><html><head><title>Harbour</title>{head}</head><body>{body}</body></html>"
    )


def test_the_scans_select_what_trafilaturas_xpaths_select() -> None:
    tree = parse_html(page(f"<main>{NAMES}{STORY}</main>"))
    for expression, targets in zip(RAW_TREE_PRUNE_XPATH, raw_prune_targets(tree), strict=True):
        assert targets == expression(tree)
        assert targets  # every rule fires on this page
        for el in targets:
            delete_element(el)
    assert comment_section_targets(tree) == REMOVE_COMMENTS_AND_LISTS_XPATH[0](tree)
    body = tree.find("body")
    assert body is not None
    assert basic_cleaning_targets(body) == BASIC_CLEAN_XPATH(body)
    assert page_text_length(tree) == len(html2txt(tree))
    assert page_text_bound(tree) >= page_text_length(tree)


def _trafilatura(doc: etree._Element, fast: bool, comments: bool) -> tuple[bytes, bytes] | None:
    result = trafilatura.bare_extraction(
        doc, include_comments=comments, fast=fast, output_format="txt"
    )
    if not isinstance(result, Document):
        return None
    return etree.tostring(result.body), etree.tostring(result.commentsbody)


def _ours(doc: etree._Element, fast: bool, comments: bool) -> tuple[bytes, bytes] | None:
    result = extraction_pass(doc, fast, comments)
    if result is None:
        return None
    return etree.tostring(result.body), etree.tostring(result.comments)


FORUM_LD = (
    '<script type="application/ld+json">{"@type": "DiscussionForumPosting", '
    '"headline": "Pier"}</script>'
)
POSTS = "".join(
    f"<div class='comment'><p>Post {i}: the pier looks solid again and the ferry "
    f"timetable is back to normal for the summer season.</p></div>"
    for i in range(4)
)
PAGES = {
    "article": page(f"<nav><a href='/'>Home</a></nav><article><h1>Pier</h1>{STORY}</article>"),
    "article with comments": page(
        f"<article>{STORY}</article><div id='comments'>{POSTS}</div>{NAMES}"
    ),
    # the posts come first: trafilatura reads them again from its cleaned tree
    "forum thread": page(
        f"<div id='comments'>{POSTS}</div><div class='thread'>{STORY[:400]}</div>", FORUM_LD
    ),
    # little kept of a page that is mostly a menu: the recall escalation measures the page
    "short note, long menu": page(
        "<article><p>A short note on the pier, with little more to say than that it reopens "
        "on Monday after the winter works and that the ferry runs again.</p></article><nav><ul>"
        + "".join(f"<li><a href='/s{i}'>Story {i} about the harbour</a></li>" for i in range(80))
        + "</ul></nav>"
    ),
    # little kept: the wild text recovery reads the converted tree again (quote, list, ref)
    "short article": page(
        "<article><h2>Pier</h2><p>The pier reopens on <a href='/m'>Monday</a>, says "
        "<b>the mayor</b>.</p><ul><li>Ferry at nine</li><li>Bus at ten</li></ul></article>"
        "<div><p>Harbour notes: the ferry runs again from the <a href='/q'>north quay</a>."
        "</p><blockquote>Works are done, the mayor says.</blockquote><h3>Tides</h3></div>"
    ),
    # the same with a teaser: the fast pass's wild text recovery keeps it, the full one not
    "short note with a teaser": page(
        "<article><p>A short note on the pier, with little more to say than that it reopens "
        "on Monday after the winter works.</p><div class='teaser'><p>Read also: the ferry "
        "runs again from the north quay, every morning at nine.</p></div></article>"
    ),
    "nothing": page("<div><a href='/'>Home</a></div>"),
    "empty": page(""),
}


@pytest.mark.parametrize("name", sorted(PAGES))
@pytest.mark.parametrize(
    ("fast", "comments"), [(True, False), (True, True), (False, False), (False, True)]
)
def test_the_pass_gives_trafilaturas_trees(name: str, fast: bool, comments: bool) -> None:
    doc = parse_html(PAGES[name])
    before = etree.tostring(doc)
    assert _ours(doc, fast, comments) == _trafilatura(doc, fast, comments)
    assert etree.tostring(doc) == before  # the page is left as it was


def _with_memo(doc: etree._Element, fast: bool, memo: PassMemo) -> tuple[bytes, bytes] | None:
    result = extraction_pass(doc, fast, False, memo)
    if result is None:
        return None
    return etree.tostring(result.body), etree.tostring(result.comments)


@pytest.mark.parametrize("name", sorted(PAGES))
def test_a_full_pass_after_the_fast_one_reuses_its_answers_and_gives_trafilaturas(
    name: str,
) -> None:
    doc = parse_html(PAGES[name])
    memo = PassMemo()
    assert _with_memo(doc, True, memo) == _trafilatura(doc, True, False)
    # the full pass reads the memo: the same trees as trafilatura's full pass
    assert _with_memo(doc, False, memo) == _trafilatura(doc, False, False)
    assert _with_memo(doc, False, memo) == _trafilatura(doc, False, False)  # and again


def test_the_memo_keeps_only_what_the_fast_setting_does_not_change() -> None:
    memo = PassMemo()
    extraction_pass(parse_html(PAGES["article"]), True, False, memo)
    assert "balanced" in memo.extracted  # the full pass skips the main extractor
    # little kept: the wild text recovery ran, on a tree without teasers (then ``fast``
    # changes nothing) …
    memo = PassMemo()
    extraction_pass(parse_html(PAGES["short note, long menu"]), True, False, memo)
    assert "balanced" in memo.extracted and "recall" in memo.extracted
    assert memo.length is not None  # the page was measured once
    # … or with a teaser, which the fast pass keeps and the full pass prunes
    doc = parse_html(PAGES["short note with a teaser"])
    memo = PassMemo()
    fast = _with_memo(doc, True, memo)
    assert "balanced" not in memo.extracted
    assert fast is not None and b"Read also" in fast[0]
    assert _with_memo(doc, False, memo) == _trafilatura(doc, False, False)
    # comments change the tree before the main extractor: no memo
    memo = PassMemo()
    extraction_pass(parse_html(PAGES["article with comments"]), True, True, memo)
    assert memo.tree is None and not memo.extracted


@pytest.mark.parametrize("name", sorted(PAGES))
def test_the_page_text_bound_is_never_below_the_page_text_length(name: str) -> None:
    doc = parse_html(PAGES[name])
    assert page_text_bound(doc) >= page_text_length(doc) == len(html2txt(doc))
    # padded blocks, deleted scripts, styles and tails: the bound stays above
    tight = parse_html(page("<p></p>" * 50 + "<p>a<script>var x</script>b</p><style>q</style>"))
    assert page_text_bound(tight) >= page_text_length(tight) == len(html2txt(tight))


def test_the_page_text_bound_counts_the_whitespace_collapse() -> None:
    # indented markup: most of the raw text is whitespace that html2txt collapses
    indent = "\n" + " " * 40
    body = "".join(
        f"<div>{indent}<span>{indent}word {i}{indent}</span>{indent}</div>" for i in range(40)
    )
    doc = parse_html(page(body))
    raw = etree.tostring(doc.find("body"), method="text", encoding="unicode", with_tail=False)
    assert page_text_length(doc) == len(html2txt(doc)) <= page_text_bound(doc) < len(raw) / 4
    # words glued by a deleted script and padded blocks: still a bound
    glued = parse_html(page("a<script>x</script>b<p>c</p>d<aside>e</aside>f" * 20))
    assert page_text_bound(glued) >= page_text_length(glued) == len(html2txt(glued))


def test_another_trafilatura_version_takes_bare_extraction(monkeypatch: pytest.MonkeyPatch) -> None:
    doc = parse_html(PAGES["article with comments"])
    expected = _trafilatura(copy(doc), True, True)
    monkeypatch.setattr(traf_pass, "TRAFILATURA_VERSION", "0.0")
    assert _ours(doc, True, True) == expected
    assert _ours(parse_html(PAGES["empty"]), True, False) is None
