"""A quoted reply is kept as a markdown quote, with the post that quotes it — also on a page
known as a thread by its address whose posts carry no microdata (phpBB): there trafilatura's
comment reading dropped posts, quotes with them, so the posts are found by structure too."""

from __future__ import annotations

import pytest

from webresearch.extract.html import extract_html

REPLIES = [
    "Frogspawn in a small pond is no reason to worry: the tadpoles eat the algae and the "
    "newts that hatch later keep the mosquito larvae down all summer long.",
    "Leave a shallow edge with pebbles so the froglets can climb out in June, and do not "
    "add fish to a pond this small or the spawn will be eaten within days.",
    "A pump is not needed for wildlife; rainwater topping up the pond is better than tap "
    "water, which carries the nutrients that feed blanket weed.",
]
QUOTED = "Tap water feeds the blanket weed in a week, rainwater never does."


def _post(i: int, text: str, quote: bool) -> str:
    quoted = (
        f"<blockquote><div><cite>frog{i - 1} wrote: <a href='#p{i}'>↑</a></cite>{QUOTED}"
        "</div></blockquote>"
        if quote
        else ""
    )
    return (
        f"<div id='p{i}' class='post bg2'><div class='inner'><dl class='postprofile'><dt>"
        f"<a class='username' href='/u{i}'>frog{i}</a></dt><dd class='profile-rank'>Member</dd>"
        f"<dd><strong>Posts:</strong> 12{i}</dd><dd><strong>Joined:</strong> Mon Apr 01, 2019"
        f"</dd></dl><div class='postbody'><h3><a href='#p{i}'>Re: Frogspawn</a></h3>"
        f"<p class='author'>by <a class='username'>frog{i}</a> » Tue Mar 0{i + 1}, 2026 "
        f"8:1{i} pm</p><div class='content'>{quoted}{text}</div></div></div></div>"
    )


@pytest.mark.parametrize(
    "url",
    [
        "https://pondtalk.example.org/viewtopic.php?t=42",  # a thread by its address
        "https://pondtalk.example.org/ponds/frogspawn.html",  # by its posts alone
    ],
)
@pytest.mark.parametrize("quoting", [1, 2])
def test_a_quoted_reply_is_kept_as_a_quote_with_its_post(url: str, quoting: int) -> None:
    posts = "".join(_post(i, text, i == quoting) for i, text in enumerate(REPLIES))
    page = (
        "<html><head><title>Frogspawn - Pond Talk</title></head><body><div id='wrap'>"
        f"<h2 class='topic-title'>Frogspawn in a new pond</h2>{posts}</div></body></html>"
    )
    markdown = extract_html(page, url).markdown
    for text in REPLIES:
        assert text[:70] in markdown
    assert f"> frog{quoting - 1} wrote:" in markdown
    assert QUOTED in markdown.split(f"> frog{quoting - 1} wrote:", 1)[1].split("\n\n", 1)[0]
    assert markdown.index(QUOTED) < markdown.index(REPLIES[quoting][:70])
    for chrome in ("Posts:", "Joined:", "Member"):
        assert chrome not in markdown
