"""Discussion threads: every post is content, without profile cards and buttons (issue 13)."""

from __future__ import annotations

from lxml import html as lxml_html

from webresearch.extract.align import normalise
from webresearch.extract.forum import post_bodies, repeats_article
from webresearch.extract.html import extract_html
from webresearch.extract.parse import parse_html

THREAD_URL = "https://forum.example.org/threads/seasoning-a-cast-iron-pan.4711/"
QA_URL = "https://qa.example.org/questions/1234/why-does-my-sourdough-collapse"
SCHEMA = "https://schema.org/"

POSTS = [
    (
        "marigold",
        "I bought an old cast iron pan at a flea market and the surface is rough and rusty. "
        "How should I strip it and build a new seasoning layer that does not flake off when "
        "I cook eggs? I have read about oven cleaner, vinegar baths and electrolysis tanks.",
    ),
    (
        "ferrous_fan",
        "Soak it in a half and half vinegar bath for an hour, scrub the rust off with steel "
        "wool, dry it on the stove and rub in a very thin film of flaxseed oil before baking "
        "it upside down at high heat for an hour.",
    ),
    (
        "ovenmitt",
        "Thin coats are the secret: wipe the oil off as if you had made a mistake, then bake. "
        "Six rounds gave me a glossy black finish that released fried eggs without trouble.",
    ),
]


def _profile(name: str, n: int) -> str:
    return (
        f"<div class='message-user'><a class='username' href='/members/{n}/'>{name}</a>"
        f"<h5 class='userTitle'>Well-known member</h5>"
        f"<dl><dt>Joined</dt><dd>Mar 14, 2019</dd><dt>Messages</dt><dd>{n}2,345</dd>"
        f"<dt>Reaction score</dt><dd>{n}8,765</dd><dt>Location</dt><dd>Lower Saxony</dd></dl>"
        "</div>"
    )


def _post(i: int, name: str, text: str, kind: str = "Comment") -> str:
    return (
        f"<article class='message' itemscope itemtype='{SCHEMA}{kind}'>"
        f"{_profile(name, i)}"
        f"<div class='message-main'><header><span itemprop='author' itemscope "
        f"itemtype='{SCHEMA}Person'><span itemprop='name'>{name}</span></span> "
        f"<time itemprop='datePublished' datetime='2024-06-0{i + 1}'>Jun {i + 1}, 2024</time>"
        f"</header><div class='bbWrapper' itemprop='text'><p>{text}</p></div>"
        "<aside class='message-signature'>Cooking since the last millennium, "
        "proud owner of sixteen skillets and a dutch oven.</aside>"
        "<footer><a href='#'>Like</a> <a href='#'>Quote</a> <a href='#'>Reply</a> "
        "<a href='#'>Report</a></footer></div></article>"
    )


def _page(body: str, title: str) -> str:
    return (
        f"<!DOCTYPE html><html><head><title>{title}</title></head><body>"
        "<nav><a href='/'>Forums</a> <a href='/whats-new/'>What's new</a> "
        "<a href='/members/'>Members</a></nav>"
        f"<h1>{title}</h1>{body}"
        "<footer>Community platform by Example Software. Terms and rules. Privacy policy.</footer>"
        "</body></html>"
    )


def test_every_post_of_a_thread_is_kept_without_profile_cards_and_buttons() -> None:
    thread = "".join(_post(i, name, text) for i, (name, text) in enumerate(POSTS))
    markdown = extract_html(_page(thread, "Seasoning a cast iron pan"), THREAD_URL).markdown
    for name, text in POSTS:
        assert text[:60] in markdown
        assert name in markdown
    assert "Jun 3, 2024" in markdown
    for chrome in ("Reaction score", "8,765", "Well-known member", "sixteen skillets", "Quote"):
        assert chrome not in markdown


def _answer(i: int, votes: int, text: str, remarks: list[str]) -> str:
    comments = "".join(
        f"<li itemprop='comment' itemscope itemtype='{SCHEMA}Comment'>"
        f"<span itemprop='text'>{remark}</span> – <span itemprop='author' itemscope "
        f"itemtype='{SCHEMA}Person'><span itemprop='name'>critic{i}{j}</span></span></li>"
        for j, remark in enumerate(remarks)
    )
    return (
        f"<div class='answer' itemprop='suggestedAnswer' itemscope itemtype='{SCHEMA}Answer'>"
        f"<div class='votes'><button>Up vote</button><span>{votes}</span>"
        "<button>Down vote</button></div>"
        f"<div class='post-text' itemprop='text'><p>{text}</p></div>"
        f"<div class='post-menu'><a href='#'>Share</a> <a href='#'>Improve this answer</a> "
        f"<a href='#'>Follow</a></div><ul class='comments'>{comments}</ul></div>"
    )


def test_a_question_and_all_its_answers_are_kept_without_votes_and_remarks() -> None:
    question = (
        "My sourdough rises well overnight in the fridge but collapses as soon as I score it "
        "and put it in the oven. The crumb ends up dense and gummy near the bottom crust."
    )
    answers = [
        "The dough is overproofed: a cold retard of twelve hours on top of a long bulk "
        "ferment exhausts the gluten. Shorten the bulk by an hour and score straight from "
        "the fridge.",
        "Check your starter's strength too; a sluggish starter produces acid faster than "
        "gas, and acid weakens the gluten network so the loaf spreads when it warms.",
    ]
    remark = "Did you try a banneton with rice flour instead?"
    body = (
        f"<div id='question' itemscope itemtype='{SCHEMA}Question'>"
        "<div class='votes'><span>7</span></div>"
        f"<div class='post-text' itemprop='text'><p>{question}</p></div>"
        f"<ul class='comments'><li itemprop='comment' itemscope itemtype='{SCHEMA}Comment'>"
        f"<span itemprop='text'>{remark}</span></li></ul></div>"
        f"<div id='answers'><h2>2 Answers</h2>{_answer(1, 31, answers[0], ['Worked.'])}"
        f"{_answer(2, 4, answers[1], ['I doubt this is the cause here.'])}</div>"
    )
    page = _page(f"<main itemscope itemtype='{SCHEMA}QAPage'>{body}</main>", "Sourdough collapses")
    markdown = extract_html(page, QA_URL).markdown
    assert question[:60] in markdown
    for text in answers:
        assert text[:60] in markdown
    for chrome in (remark, "I doubt this", "Improve this answer", "Up vote", "31"):
        assert chrome not in markdown


def test_post_bodies_need_two_posts_and_skip_remarks_on_qa_posts() -> None:
    one = parse_html(_page(_post(0, *POSTS[0]), "One post"))
    assert post_bodies(one.find("body")) == []
    qa = parse_html(
        f"<div itemscope itemtype='{SCHEMA}Question'><div itemprop='text'>q</div>"
        f"<p itemscope itemtype='{SCHEMA}Comment'><span itemprop='text'>remark</span></p>"
        f"<div itemscope itemtype='{SCHEMA}Answer'><div itemprop='text'>a</div></div></div>"
    )
    bodies = post_bodies(qa.find("body"))
    assert ["".join(b.itertext()) for b in bodies] == ["q", "a"]


def test_post_bodies_are_the_outermost_and_the_body_itself_may_be_one() -> None:
    # only the elements with an itemprop are visited (one XPath): a text property inside a
    # post body is no second post, and the searched element itself counts
    markup = (
        f"<div itemscope itemtype='{SCHEMA}DiscussionForumPosting'>"
        "<div itemprop='articleBody'>first <span itemprop='text'>inner</span></div></div>"
        f"<div itemscope itemtype='{SCHEMA}Comment'><span itemprop='author'>x</span>"
        "<div itemprop='Text'>second</div></div>"
    )
    bodies = post_bodies(parse_html(markup).find("body"))
    assert ["".join(b.itertext()) for b in bodies] == ["first inner", "second"]
    outer = parse_html(f"<div itemscope itemtype='{SCHEMA}Comment'>{markup}</div>")
    scoped = outer.find("body/div/div/div")
    assert scoped is not None and scoped.get("itemprop") == "articleBody"
    assert post_bodies(scoped) == []  # one post alone


def test_comment_microdata_on_an_article_page_is_not_read_as_a_thread() -> None:
    story = (
        "The council approved the new cycle lanes on the river road after a two year "
        "consultation with residents, shop owners and the regional transport authority. "
    ) * 4
    remarks = "".join(
        f"<div itemscope itemtype='{SCHEMA}Comment'><b itemprop='author'>reader{i}</b>"
        f"<p itemprop='text'>Remark number {i} about the lanes and the parking.</p></div>"
        for i in range(3)
    )
    page = _page(f"<article><p>{story}</p></article><section>{remarks}</section>", "Lanes")
    markdown = extract_html(page, "https://news.example.org/2024/06/lanes-approved").markdown
    assert story[:60] in markdown
    assert "Remark number 1" not in markdown


def test_a_comment_section_repeating_the_article_is_recognised() -> None:
    flat = "".join(f"<p>{name} 9 Posted March 5, 2024 {text} 5</p>" for name, text in POSTS)
    article = normalise("".join(lxml_html.fromstring(f"<div>{flat}</div>").itertext()))
    posts = lxml_html.fromstring("<div>" + "".join(f"<p>{t}</p>" for _, t in POSTS) + "</div>")
    assert repeats_article(posts, article)
    other = lxml_html.fromstring(
        "<div><p>" + POSTS[1][1] + "</p><p>A reply the article does not hold: carbon steel "
        "pans season the same way, but they warp on a glass hob when heated empty for long, "
        "so start them on a low flame and give them a few minutes before the oil goes in.</p>"
        "</div>"
    )
    assert not repeats_article(other, article)
    assert not repeats_article(lxml_html.fromstring("<div></div>"), article)
