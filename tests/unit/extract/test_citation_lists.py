"""An article's list of citations is content (extract/link_lists.py, review n-18).

trafilatura's link density test deletes a list whose text is all links. A "Sources" or
"Further reading" list under its heading is all links too, and losing it left the heading or
a "Sources:" label alone. Such a list — introduced by a heading or a paragraph, every link
to another site — stays; a site's own related posts, popular posts, tag clouds and menus,
and rows of share or follow buttons, still go. Pages of our own.
"""

from __future__ import annotations

import pytest

from webresearch.extract.html import extract_html
from webresearch.extract.link_lists import same_site, site_of

URL = "https://board.example/news/dam-repair"
ARTICLE = (
    "<html><head><title>Dam</title></head><body><header><nav><a href='/'>Home</a> "
    "<a href='/news'>News</a> <a href='/about'>About</a></nav></header><main><article>"
    "<h1>The dam repair</h1>"
    "<p>The water board agreed on Monday to repair the old dam above the village before the "
    "spring floods, after two years of reports about cracks in its northern wall.</p>"
    "<p>The work will close the footpath over the dam for six weeks; the ferry will run "
    "every half hour while it is closed, paid for by the board.</p>"
    "<p>The board meets again in April to choose a contractor for the work.</p>"
    "{inside}</article>{after}</main><footer><p>© Water board</p></footer></body></html>"
)
CITATIONS = (
    "<li><a href='https://river.example.org/reports/2023'>River authority report, 2023</a></li>"
    "<li><a href='https://news.example.com/dam-cracks'>Local news: cracks found in the dam"
    "</a></li><li><a href='https://www.safety.example.gov/dams'>National dam safety guidance"
    "</a></li><li><a href='https://archive.example.net/1952/dam'>The dam's building, 1952"
    "</a></li>"
)


def md(inside: str, after: str = "") -> str:
    return extract_html(ARTICLE.format(inside=inside, after=after), URL).markdown


@pytest.mark.parametrize(
    "introducer",
    [
        "<h2>Sources</h2>",
        "<h3>Further reading</h3>",
        "<p><strong>Sources:</strong></p>",
        "<p>The reports the board relied on:</p>",
    ],
)
def test_a_list_of_links_to_other_sites_under_its_heading_stays(introducer: str) -> None:
    out = md(f"{introducer}<ul>{CITATIONS}</ul>")
    assert "[River authority report, 2023](https://river.example.org/reports/2023)" in out
    assert "[The dam's building, 1952](https://archive.example.net/1952/dam)" in out
    label = introducer.split(">")[-2].split("<")[0]
    assert out.index(label) < out.index("River authority report")  # not alone any more


def test_a_sources_block_around_its_heading_and_list_stays() -> None:
    out = md(f"<div class='sources'><h2>References</h2><ol>{CITATIONS}</ol></div>")
    assert "## References" in out
    assert "1. [River authority report, 2023]" in out


def _list(head: str, hrefs: list[str]) -> str:
    items = "".join(
        f"<li><a href='{href}'>A story about the river number {i}</a></li>"
        for i, href in enumerate(hrefs)
    )
    return f"{head}<ul>{items}</ul>"


@pytest.mark.parametrize(
    "links",
    [
        # a site's related posts, relative or absolute, on its own host or a subdomain
        _list("<h2>Related posts</h2>", ["/news/ferry", "/news/floods", "/news/bridge"]),
        _list(
            "<h2>Popular</h2>",
            [
                "https://board.example/news/ferry",
                "https://www.board.example/news/floods",
                "https://blog.board.example/bridge",
            ],
        ),
        # a tag cloud
        "<p>Tags:</p><ul><li><a href='/tag/dams'>dams</a></li><li><a href='/tag/floods'>"
        "floods</a></li><li><a href='/tag/ferry'>ferry</a></li></ul>",
        # share and follow buttons link social networks
        "<h3>Share this</h3><ul><li><a href='https://www.facebook.com/sharer.php?u=x'>"
        "Facebook</a></li><li><a href='https://twitter.com/intent/tweet?url=x'>Twitter</a>"
        "</li><li><a href='https://www.linkedin.com/shareArticle?url=x'>LinkedIn</a></li>"
        "<li><a href='mailto:?body=x'>E-mail</a></li></ul>",
        "<p>Follow us</p><ul><li><a href='https://instagram.com/board'>Instagram</a></li>"
        "<li><a href='https://www.youtube.com/@board'>YouTube</a></li>"
        "<li><a href='https://elsewhere.example.org/board'>Elsewhere</a></li></ul>",
        # a poll's answers: one page
        "<p>Rate this article:</p><ul><li><a href='https://poll.example.org/vote?a=good'>Good"
        "</a></li><li><a href='https://poll.example.org/vote?a=bad'>Bad</a></li></ul>",
    ],
)
def test_link_lists_that_are_not_citations_still_go(links: str) -> None:
    for place in ("inside", "after"):
        out = md(links) if place == "inside" else md("", links)
        assert "The board meets again in April" in out
        for word in ("story about the river", "dams", "Facebook", "Instagram", "Good"):
            assert word not in out, (place, word)


def test_a_list_of_other_sites_without_a_heading_still_goes() -> None:
    # a widget's box of links with nothing introducing it (a blogroll, partners' logos)
    box = _list("", [f"https://site{i}.example.org/" for i in range(4)])
    out = md(f"<div class='partners'>{box}</div>")
    assert "story about the river" not in out


def test_the_page_host_and_its_subdomains_are_one_site() -> None:
    assert site_of("https://www.Board.example/x") == "board.example"
    assert site_of("/relative") == "" and site_of("mailto:a@b.example") == ""
    assert same_site("blog.board.example", "board.example")
    assert same_site("board.example", "news.board.example")
    assert not same_site("river.example.org", "board.example")
    assert not same_site("notboard.example", "board.example")


SISTERS = [f"https://sister{i}.example.org/story-{i}" for i in range(3)]


@pytest.mark.parametrize(
    "head",
    [
        "<h2>Related posts</h2>",
        "<h3>You may also like</h3>",
        "<p><strong>More from our network:</strong></p>",
    ],
)
def test_teasers_linking_sister_sites_still_go(head: str) -> None:
    # the list stays through the link density test; the teaser sections are dropped later
    # (article_extras.py), and after the article's end the tail goes (article_end.py)
    for out in (md(_list(head, SISTERS)), md("", _list(head, SISTERS))):
        assert "The board meets again in April" in out
        assert "story about the river" not in out


def test_a_menu_of_other_sites_still_goes() -> None:
    items = "".join(
        f"<li><a href='{u}'>Sister site number {i}</a></li>" for i, u in enumerate(SISTERS)
    )
    out = md(f"<nav><h3>Our sites</h3><ul>{items}</ul></nav>")
    assert "Sister site" not in out and "Our sites" not in out


# review r-18a: sponsored and partner lists at an article's end are not citations
COMPANIES = [f"https://company{i}.example.com/" for i in range(3)]


@pytest.mark.parametrize(
    "block",
    [
        "<div class='sponsored'>" + _list("<h3>Around the web</h3>", COMPANIES) + "</div>",
        _list("<h3>Our sponsors</h3>", COMPANIES),
        _list("<h3>Our partners</h3>", COMPANIES),
        # marked sponsored, whatever its heading says
        "<div class='sponsored-links'>" + _list("<h3>Resources</h3>", COMPANIES) + "</div>",
        _list("<h3>Sources</h3>", COMPANIES).replace("<a ", "<a rel='sponsored' "),
    ],
)
def test_sponsored_and_partner_lists_still_go(block: str) -> None:
    out = md(block)
    assert "The board meets again in April" in out
    assert "story about the river" not in out


@pytest.mark.parametrize(
    "head", ["<h2>Bibliography</h2>", "<h2>External links</h2>", "<h2>Einzelnachweise</h2>"]
)
def test_lists_named_as_citations_stay(head: str) -> None:
    assert "story about the river number 2" in md(_list(head, COMPANIES))


def test_hosts_are_compared_normalised() -> None:
    # IDNA, a trailing dot, upper case and a port are one host (review r-18a L2)
    assert site_of("https://bücher.example/a") == site_of("https://xn--bcher-kva.example/b")
    assert site_of("https://Board.Example.:8443/x") == "board.example"
    assert same_site(
        site_of("https://news.bücher.example/"), site_of("https://xn--bcher-kva.example/")
    )


def test_a_list_of_the_sites_own_pages_under_an_idn_host_goes() -> None:
    links = _list(
        "<h2>Further reading</h2>", [f"https://xn--bcher-kva.example/news/{i}" for i in range(3)]
    )
    out = extract_html(ARTICLE.format(inside=links, after=""), "https://bücher.example/n").markdown
    assert "story about the river" not in out


# review n-18 H4: under a label naming citations, a few of the site's own pages, a video or
# one page linked twice do not make the list a menu; at the article's end it went whole
CITED = [
    "https://river.example.org/reports/2023",
    "https://news.example.com/dam-cracks",
    "https://www.safety.example.gov/dams",
]


@pytest.mark.parametrize(
    "odd",
    [
        "https://www.youtube.com/watch?v=abc",  # the engineer's interview
        "/news/2022/dam-survey",  # the site's own earlier report
        "https://board.example/news/2022/dam-survey",
        CITED[0],  # a report and its annex on one page
    ],
)
@pytest.mark.parametrize("head", ["<h2>References</h2>", "<h3>Further reading</h3>"])
def test_a_citation_list_with_an_odd_link_stays_at_the_end(head: str, odd: str) -> None:
    out = md(_list(head, [*CITED, odd]))  # the last block of the article
    assert "story about the river number 3" in out and "story about the river number 0" in out


def test_a_short_further_reading_list_linking_one_page_twice_stays() -> None:
    out = md(_list("<h3>Further reading</h3>", [CITED[0], CITED[0], CITED[1]]))
    assert "### Further reading" in out and "story about the river number 1" in out


@pytest.mark.parametrize(
    "odd",
    [
        "https://www.facebook.com/sharer.php?u=x",
        "https://twitter.com/intent/tweet?url=x",
        "https://board.example/news/dam-repair?share=linkedin",
        "mailto:?body=x",
    ],
)
def test_a_citation_list_with_a_share_link_still_goes(odd: str) -> None:
    assert "story about the river" not in md(_list("<h2>Sources</h2>", [*CITED, odd]))


def test_a_citation_labelled_list_of_mostly_own_pages_still_goes() -> None:
    # and "See also", "Resources", "External links" keep the strict test: a site's menu
    links = _list("<h2>References</h2>", ["/news/a", "/news/b", "/news/c", CITED[0]])
    assert "story about the river" not in md(links)
    for head in ("<h2>See also</h2>", "<h2>Resources</h2>"):
        assert "story about the river" not in md(_list(head, [*CITED, "/news/a"]))
