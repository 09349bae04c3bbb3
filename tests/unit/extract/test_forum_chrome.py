"""Forum signatures: a member's profile text under each post is not the post (issue 13)."""

from __future__ import annotations

import pytest

import webresearch.extract.html as html_module
from webresearch.extract.forum_chrome import drop_controls, drop_signatures
from webresearch.extract.html import extract_html
from webresearch.extract.parse import parse_html

THREAD_URL = "https://boards.example.org/viewtopic.php?f=3&t=981"

POSTS = [
    (
        "tidewatcher",
        "Our allotment pond turns green every July although it gets shade after noon. Would "
        "a small pump with a reed bed filter keep the algae down, or should I add more "
        "oxygenating plants such as hornwort and water starwort first?",
    ),
    (
        "reedbed_rita",
        "Plants first: cover about a third of the surface with lilies, add a bunch of hornwort "
        "per square metre and stop topping up with tap water, the nitrates feed the algae. A "
        "reed bed helps later, once the plants have settled in for a season.",
    ),
    (
        "tidewatcher",
        "Thank you, I will plant the lilies this weekend, collect rain water in the butt by "
        "the shed and report back at the end of the summer with photographs of the pond.",
    ),
]
SIGNATURES = {
    "tidewatcher": "Three ponds, two frogs and a heron problem since the spring of 2019",
    "reedbed_rita": "Member of the county water gardening club and proud owner of a koi",
}


def thread_page(signature_class: str = "signature") -> str:
    posts = "".join(
        f"<div class='post'><div class='author'>{who}</div><div class='content'>"
        f"<p>{text}</p></div><div class='{signature_class}'>{SIGNATURES[who]}</div></div>"
        for who, text in POSTS
    )
    return (
        "<html><head><title>Green pond water</title></head><body><header><nav>"
        "<a href='/'>Boards</a></nav></header><main><h1>Green pond water</h1>"
        f"{posts}</main><footer>Powered by a board</footer></body></html>"
    )


def test_signatures_under_forum_posts_are_dropped_and_the_posts_stay() -> None:
    for klass in ("signature", "message-signature", "signaturecontainer", "sig_text"):
        out = extract_html(thread_page(klass), THREAD_URL).markdown
        for _, text in POSTS:
            assert text[:60] in out
        for signature in SIGNATURES.values():
            assert signature not in out, klass


def test_only_exact_signature_classes_count_and_a_huge_one_stays() -> None:
    body = parse_html(thread_page("post-signature")).find("body")
    assert body is not None
    assert drop_signatures(body) == 0  # Stack Exchange's asker card, not a signature
    body = parse_html(
        "<html><body><div class='signature'>" + "A whole article. " * 50 + "</div>"
        "<p>Short.</p></body></html>"
    ).find("body")
    assert body is not None
    assert drop_signatures(body) == 0
    assert "A whole article." in "".join(body.itertext())


def test_a_signature_class_outside_a_forum_is_left_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # trafilatura keeps only the first post of this page: its signature is then a short line
    # after the article's container, which article_end.py leaves out for that reason alone
    # (test_article_end.py); this test is about the forum gate of the signature rule
    monkeypatch.setattr(html_module, "drop_after_article", lambda root: 0)
    out = extract_html(thread_page(), "https://docs.example.org/api/pond").markdown
    assert SIGNATURES["tidewatcher"] in out  # e.g. a function's signature in documentation


def test_buttons_in_a_forum_thread_are_dropped() -> None:
    quote = (
        "<blockquote><div class='quote-text'>Would a small pump with a reed bed filter keep "
        "the algae down?</div><div class='quote-more'><a role='button' tabindex='0'>Click to "
        "expand...</a></div></blockquote>"
    )
    posts = "".join(
        f"<article itemscope itemtype='https://schema.org/Comment'><span itemprop='author' "
        f"itemscope itemtype='https://schema.org/Person'><span itemprop='name'>{who}</span>"
        f"</span><div itemprop='text'>{quote if n else ''}<p>{text}</p></div></article>"
        for n, (who, text) in enumerate(POSTS)
    )
    page = (
        "<html><head><title>Green pond water</title></head><body><h1>Green pond water</h1>"
        f"{posts}</body></html>"
    )
    out = extract_html(page, THREAD_URL).markdown
    assert "Click to expand" not in out
    assert "reed bed filter keep the algae down" in out
    for _, text in POSTS:
        assert text[:60] in out


def test_a_long_button_stays() -> None:
    body = parse_html(
        "<html><body><p>Intro.</p><div role='button'>Open the full list of pond plants we "
        "sell this spring</div><button>Go</button></body></html>"
    ).find("body")
    assert body is not None
    assert drop_controls(body) == 1
    assert "Open the full list" in "".join(body.itertext())


def test_a_function_signature_on_a_docs_page_with_a_thread_like_address_stays() -> None:
    # ExDoc marks each function's heading class="signature"; /topics/ reads as a thread.
    functions = "".join(
        f"<section><h2 class='signature'>{name}(enumerable, fun)</h2><p>{doc}</p></section>"
        for name, doc in (
            ("map", "Returns a list where each element is the result of invoking fun."),
            ("filter", "Filters the enumerable, returning only the elements fun keeps."),
            ("reduce", "Invokes fun for each element with the accumulator, returning it."),
        )
    )
    html = f"<html><head><title>Enum</title></head><body><main><h1>Enum</h1>{functions}</main></body></html>"
    out = extract_html(html, "https://docs.example.org/topics/enum.html").markdown
    for name in ("map(enumerable, fun)", "filter(enumerable, fun)", "reduce(enumerable, fun)"):
        assert name in out


def test_buttons_holding_content_stay_in_a_forum_post() -> None:
    post = (
        "<p>Reboot it from the shell, this worked for me after the update broke the web UI "
        "on both of my routers last week:</p>"
        "<div role='button' class='copy'><pre><code>ssh admin@router.lan reboot</code></pre></div>"
        "<p>Get the firmware: <a role='button' class='btn' href='/files/fw-2.3.bin'>"
        "Download firmware 2.3</a> and flash it from the recovery page.</p>"
        "<p><button>Quote</button> <button>Reply</button></p>"
    )
    html = (
        "<html><head><title>Router reset</title></head><body><main><h1>Router reset</h1>"
        f"<div class='post'><div class='author'>tidewatcher</div><div class='content'>{post}"
        "</div></div></main></body></html>"
    )
    out = extract_html(html, THREAD_URL).markdown
    assert "ssh admin@router.lan reboot" in out
    assert "Download firmware 2.3" in out
    assert "Quote" not in out and "Reply" not in out
