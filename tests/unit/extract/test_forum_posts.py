"""Threads found by their posts' structure: one "author · date" line per post, no profile
cards (issue 13, review r-11 fault 3)."""

from __future__ import annotations

from webresearch.extract.forum_bylines import author_of, date_of
from webresearch.extract.forum_posts import thread_posts
from webresearch.extract.html import extract_html
from webresearch.extract.parse import parse_html

PAGE_URL = "http://127.0.0.1:8000/pond.html"  # says nothing of a thread

REPLIES = [
    "Frogspawn in a small pond is no reason to worry: the tadpoles eat the algae and the "
    "newts that hatch later keep the mosquito larvae down all summer long.",
    "Leave a shallow edge with pebbles so the froglets can climb out in June, and do not "
    "add fish to a pond this small or the spawn will be eaten within days.",
    "A pump is not needed for wildlife; rainwater topping up the pond is better than tap "
    "water, which carries the nutrients that feed blanket weed.",
]


def _phpbb(i: int, text: str) -> str:
    return (
        f"<div class='entry' id='e{i}'><div class='sidecard'><img src='/a/{i}.png' alt='pic'>"
        f"<dl><dt>pondkeeper{i}</dt><dd>Posts: 4{i}7</dd><dd>Joined: Apr 2018</dd>"
        f"<dd>Location: Fenland</dd></dl></div><div class='main'>"
        f"<p class='byline'>by pondkeeper{i} » Tue Mar 0{i + 1}, 2026 8:1{i} pm</p>"
        f"<div class='words'>{text}</div></div></div>"
    )


def _xenforo(i: int, text: str) -> str:
    return (
        f"<article class='msg'><div class='msg-user'><a class='who' href='/members/{i}/'>"
        f"newt{i}</a><div class='title'>Well-known member</div><dl><dt>Messages</dt>"
        f"<dd>3{i}1</dd><dt>Reaction score</dt><dd>9{i}</dd></dl></div>"
        f"<div class='msg-main'><time datetime='2026-04-0{i + 1}T09:00:00Z'>Apr {i + 1}, "
        f"2026</time><div class='msg-text'>{text}</div></div>"
        "<footer><a href='#'>Like</a> <a href='#'>Reply</a></footer></article>"
    )


def _page(posts: str) -> str:
    return (
        "<html><head><title>Frogspawn in a new pond - Pond Talk</title></head><body>"
        "<nav><a href='/'>Index</a> &gt; <a href='/ponds'>Ponds</a></nav>"
        f"<div class='list'>{posts}</div></body></html>"
    )


def test_every_post_of_a_phpbb_style_thread_has_its_byline_and_no_card() -> None:
    page = _page("".join(_phpbb(i, text) for i, text in enumerate(REPLIES)))
    markdown = extract_html(page, PAGE_URL).markdown
    for i, text in enumerate(REPLIES):
        assert text[:70] in markdown
        assert f"pondkeeper{i} · Tue Mar 0{i + 1}, 2026 8:1{i} pm" in markdown
    for chrome in ("Posts:", "Joined", "Location", "Fenland", "by pondkeeper", "»"):
        assert chrome not in markdown


def test_every_post_of_a_xenforo_style_thread_keeps_its_time_and_drops_the_card() -> None:
    page = _page("".join(_xenforo(i, text) for i, text in enumerate(REPLIES)))
    markdown = extract_html(page, PAGE_URL).markdown
    for i, text in enumerate(REPLIES):
        assert text[:70] in markdown
        assert f"newt{i} · Apr {i + 1}, 2026" in markdown
    for chrome in ("Well-known member", "Messages", "Reaction score", "391"):
        assert chrome not in markdown


def test_a_comment_section_under_an_article_is_not_a_thread() -> None:
    story = (
        "The parish council agreed to dig a wildlife pond on the green after a long "
        "consultation with the school, the anglers and the county ecologist. "
    ) * 6
    comments = "".join(
        f"<li class='comment'><a href='/users/{i}'>reader{i}</a> <span>Mar {i + 1}, 2026</span>"
        f"<p>Comment number {i}: a fine idea, but who will clear the leaves each autumn "
        "and keep the children safe near the water?</p></li>"
        for i in range(3)
    )
    page = (
        "<html><head><title>Pond for the green</title></head><body><article><h1>Pond for "
        f"the green</h1><p>{story}</p></article><ol class='comments'>{comments}</ol>"
        "</body></html>"
    )
    markdown = extract_html(page, "http://127.0.0.1:8000/news/pond-for-the-green").markdown
    assert story[:60] in markdown
    assert "Comment number 1" not in markdown
    assert "reader1 ·" not in markdown


def test_posts_bodies_and_bylines_are_found_by_structure() -> None:
    body = parse_html(_page("".join(_phpbb(i, t) for i, t in enumerate(REPLIES)))).find("body")
    posts = thread_posts(body)
    assert [p.body.get("class") for p in posts] == ["words"] * 3
    assert author_of(posts[1].unit, posts[1].body) == "pondkeeper1"
    assert date_of(posts[1].unit, posts[1].body) == "Tue Mar 02, 2026 8:11 pm"


def test_a_cards_membership_date_is_not_the_posts_date() -> None:
    unit = parse_html(
        "<div><div><a href='/members/7/'>heron</a><dl><dd>Joined: Jan 3, 2019</dd>"
        "<dd>Founded: Feb 4, 2011</dd></dl></div><span>May 5, 2026</span>"
        "<div class='t'>A heron took all the goldfish in one morning, net the pond.</div></div>"
    ).find("body/div")
    text = unit.find("div[@class='t']")
    assert author_of(unit, text) == "heron"
    assert date_of(unit, text) == "May 5, 2026"


def test_a_front_page_of_signed_stories_is_a_listing_not_a_thread() -> None:
    stories = "".join(
        f"<article class='story'><h2><a href='/story/{i}/pond-news'>Pond story {i}</a></h2>"
        f"<div class='details'>Posted by <a href='/~editor{i}'>editor{i}</a> on Mar "
        f"{i + 1}, 2026</div><div class='intro'><p>{text}</p></div></article>"
        for i, text in enumerate(REPLIES)
    )
    page = f"<html><head><title>Pond news</title></head><body>{stories}</body></html>"
    body = parse_html(page).find("body")
    assert len(thread_posts(body)) == 3  # signed, dated, but each under its own title
    markdown = extract_html(page, PAGE_URL).markdown
    for i in range(3):
        assert f"Pond story {i}" in markdown
        assert f"editor{i} ·" not in markdown


def test_containers_too_small_for_a_body_and_a_name_are_no_posts() -> None:
    # each paragraph holds one link and nothing else: no room for a body beside a byline,
    # so the group is left before its text is read; a thread with two-element posts is found
    page = "".join(
        f"<p><a href='/members/user{i}'>user{i}</a></p>" for i in range(6)
    )  # links to members' pages, yet no post bodies
    body = parse_html(f"<html><body><div>{page}</div></body></html>").find("body")
    assert thread_posts(body, 0.6) == []
    posts = "".join(
        f"<div class='post'><a href='/members/user{i}'>user{i}</a>"
        f"<p>Reply number {i} says the ferry to the island runs late every single day.</p></div>"
        for i in range(3)
    )
    body = parse_html(f"<html><body><div>{posts}</div></body></html>").find("body")
    assert [post.body.tag for post in thread_posts(body, 0.6)] == ["p", "p", "p"]
