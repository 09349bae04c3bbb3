"""The C-level counts of text_count.py give what the Python walks give (they replace them)."""

from __future__ import annotations

import pytest
from lxml import etree

from webresearch.extract import align, forum_posts
from webresearch.extract.align import page_segments, page_text_size, text_segments
from webresearch.extract.forum_posts import thread_posts
from webresearch.extract.parse import parse_html
from webresearch.extract.text_count import letter_count, serialized_size

_PAGES = [
    "<p>Hello, <b>world</b>! 42</p><script>var x = 1;</script>tail",
    "<div>a<button>Press <i>me</i></button>b<svg><title>Icon</title><path d='M0'/></svg>c</div>",
    "<p>İstanbul — “quoted” café</p><select><option>One</option><option>Two</option></select>",
    "<p>x<math alttext='a^2'><mi>a</mi><mn>2</mn></math>y</p><p><math><mi>b</mi></math></p>",
    "<div><input value=v>after input<meta content=m>after meta<!-- a comment -->after it</div>",
    "<div>outer<button>in <svg><title>nested</title></svg> button</button>out</div>",
]


def _walk_size(el: etree._Element) -> int:
    return align._text_size(el, align._NO_LIMIT)


@pytest.mark.parametrize("markup", _PAGES)
def test_page_text_size_is_what_the_walk_counts(markup: str) -> None:
    body = parse_html(f"<html><body>{markup}</body></html>").find("body")
    assert body is not None
    comment = etree.Comment(" inserted ")
    comment.tail = "tail of a comment"  # the walk never reads it
    body.append(comment)
    for el in body.iter(etree.Element):
        assert page_text_size(el) == _walk_size(el), etree.tostring(el)


@pytest.mark.parametrize("markup", _PAGES)
def test_page_segments_are_the_text_segments(markup: str) -> None:
    body = parse_html(f"<html><body>{markup}</body></html>").find("body")
    assert body is not None
    old = [(s.owner, s.tail, s.norm) for s in text_segments(body)]
    assert [(s.owner, s.tail, s.norm) for s in page_segments(body)] == old


def test_letter_count_counts_letters_and_digits_lower_cased_or_not() -> None:
    assert letter_count("a-b_c 1.2") == 5
    assert letter_count("İx “y”") == 3
    assert letter_count("İx “y”", lower=True) == 4  # "İ" lower-cased is two characters


def test_serialized_size_leaves_out_comment_tails_and_skipped_content() -> None:
    div = etree.fromstring("<div>ab<!-- zz -->cd<s>ef<b>gh</b></s>ij</div>")
    assert serialized_size(div) == 8  # "cd" follows the comment: not counted
    assert serialized_size(div, frozenset({"s"})) == 4  # ab, ij: the <s> and its content go
    assert serialized_size(div, frozenset({"s"}), lambda el: 3) == 7


def test_an_entity_reference_is_not_counted_from_serialized_text() -> None:
    div = etree.Element("div")
    div.text = "ab"
    div.append(etree.Entity("nbsp"))
    assert serialized_size(div) is None


def test_the_thread_search_finds_the_same_posts_with_and_without_the_heavy_chain(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    said = "This is what member {} wrote about the garden. "
    posts = "".join(
        f"<div class='post'><div class='card'><a href='/u/{n}'>user{n}</a>"
        f"<span>Mon Jun 0{n}, 2026 10:0{n} am</span></div>"
        f"<div class='body'>{said.format(n) * 3}</div></div>"
        for n in range(1, 6)
    )
    page = f"<html><body><nav>Home Forum</nav><main><div id='t'>{posts}</div></main></body></html>"
    body = parse_html(page).find("body")
    assert body is not None
    found = [(p.unit, p.body) for p in thread_posts(body, 0.6)]
    monkeypatch.setattr(forum_posts, "_heavy_chain", lambda body, share: None)
    assert [(p.unit, p.body) for p in thread_posts(body, 0.6)] == found
    assert len(found) == 5
