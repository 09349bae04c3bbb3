"""The page's ``<h1>`` in the site's banner heads the content, the site's name never does
(extract/page_chrome.py ``banner_heading``, extract/title.py ``names_site``), on small pages
of our own."""

from __future__ import annotations

from webresearch.extract.html import extract_html
from webresearch.extract.page_chrome import banner_heading
from webresearch.extract.parse import parse_html
from webresearch.extract.title import names_site

URL = "https://www.lakesidegazette.example/news/ferry-fares"
#: A host that does not spell the site's name.
OTHER = "https://lg-news.example/news/ferry-fares"

STORY = (
    "<p>The ferry to the north shore will run every forty minutes from Monday, the harbour "
    "board said, after a winter of complaints about crowded morning sailings.</p>"
    "<p>Fares stay the same until the spring, when the board will review the timetable "
    "again and publish the number of passengers carried on each sailing of the day.</p>"
    "<p>Residents can send their views to the harbour office by the end of the month, by "
    "post or at the counter in the ferry terminal, open every weekday morning.</p>"
)
FIRST = "The ferry to the north shore"


def page(banner_h1: str, title: str, content: str = "main", head: str = "") -> str:
    """A story page: the banner holding ``banner_h1`` and a menu, the story in a ``<main>``,
    an ``<article>`` or plain ``<div>`` blocks (``content``)."""
    opening, closing = {
        "main": ("<main>", "</main>"),
        "article": ("<div class='page'><article>", "</article></div>"),
        "div": ("<div class='page'><div class='story'>", "</div></div>"),
    }[content]
    return (
        f"<html><head><title>{title}</title>{head}</head><body>"
        f"<header class='site-header'>{banner_h1}<nav><a href='/'>Home</a> "
        "<a href='/news'>News</a> <a href='/sport'>Sport</a></nav></header>"
        f"{opening}{STORY}{closing}<footer><p>Copyright 2026</p></footer></body></html>"
    )


def first_line(html: str, url: str = URL) -> str:
    return extract_html(html, url).markdown.split("\n", 1)[0]


def test_a_long_site_name_in_the_banner_is_never_the_heading_of_a_shorter_story() -> None:
    # Review: "The Lakeside Gazette" (longer than the story's own title, so not the lesser
    # part of <title>) was written as "# The Lakeside Gazette" over the story.
    h1 = "<h1>The Lakeside Gazette</h1>"
    title = "Ferry fares rise | The Lakeside Gazette"
    assert first_line(page(h1, title)).startswith(FIRST)  # the host spells it
    assert first_line(page(h1, title), OTHER).startswith(FIRST)  # the title's suffix says it
    declared = "<meta property='og:site_name' content='Lakeside Gazette'>"
    assert first_line(page(h1, "Ferry fares rise", head=declared), OTHER).startswith(FIRST)


def test_a_banner_h1_a_home_link_or_a_logo_names_is_not_the_heading() -> None:
    for h1 in (
        "<a href='/'><h1>Harbour Daily</h1></a>",  # a link home around it
        "<a href='https://lg-news.example/'><h1>Harbour Daily</h1></a>",
        "<div class='site-logo'><h1>Harbour Daily</h1></div>",
        "<h1 class='site-title'>Harbour Daily</h1>",
        "<h1><img src='/img/logo.png' alt=''> Harbour Daily</h1>",
    ):
        assert first_line(page(h1, "Ferry fares rise"), OTHER).startswith(FIRST), h1


def test_the_storys_own_title_in_the_banner_stays_the_heading() -> None:
    h1 = "<h1>Ferry fares rise on the north shore</h1>"
    title = "Ferry fares rise on the north shore | The Lakeside Gazette"
    body = parse_html(page(h1, title)).find("body")
    assert body is not None  # (written, the title line alone says a heading repeating it)
    found = banner_heading(body, OTHER, title="Ferry fares rise on the north shore")
    assert found is not None and found.text == "Ferry fares rise on the north shore"
    assert first_line(page(h1, "The Lakeside Gazette")) == "# Ferry fares rise on the north shore"


def test_names_site_tells_the_sites_name_from_the_pages_title() -> None:
    doc = parse_html(page("", "Ferry fares rise - The Lakeside Gazette"))
    assert names_site("The Lakeside Gazette", doc, OTHER, "")  # after the first part
    assert names_site("The Lakeside Gazette", doc, OTHER, "Ferry fares rise")  # outside it
    assert not names_site("Ferry fares rise", doc, OTHER, "")
    assert names_site("Lakeside Gazette", doc, URL, "")  # the host spells it
    assert not names_site("Lakeside Gazette", doc, URL, "Lakeside Gazette")  # a home page's
    declared = parse_html(
        page("", "Ferry fares", head="<meta name='application-name' content='Ferry fares'>")
    )
    assert not names_site("Ferry fares", declared, OTHER, "")  # an app's name is not evidence


def test_a_banner_h1_heads_a_page_without_main_as_it_heads_one_with_it() -> None:
    # Review: the same banner and story gave the heading with <main> only.
    h1 = "<h1>Ferry fares rise on the north shore</h1>"
    for content in ("main", "article", "div"):
        line = first_line(page(h1, "The Lakeside Gazette", content))
        assert line == "# Ferry fares rise on the north shore", (content, line)


def test_a_banner_after_the_text_or_around_it_gives_no_heading_without_main() -> None:
    h1 = "<h1>Ferry fares rise on the north shore</h1>"
    html = page(h1, "The Lakeside Gazette", "div")
    banner = html[html.index("<header") : html.index("</header>") + len("</header>")]
    late = html.replace(banner, "").replace("<footer>", banner + "<footer>")
    body = parse_html(late).find("body")
    assert body is not None and banner_heading(body, URL) is None
    around = html.replace("</header>", "").replace("<footer>", "</header><footer>")
    body = parse_html(around).find("body")
    assert body is not None and banner_heading(body, URL) is None


def test_a_banner_h1_linking_to_the_page_itself_is_its_heading_without_the_link() -> None:
    # Review: <h1><a href="/this-page">Story</a></h1> was dropped as if it were a logo.
    for href in (
        "/news/ferry-fares",
        "/news/ferry-fares/",
        "https://lakesidegazette.example/news/ferry-fares#top",
        URL,
    ):
        h1 = f"<h1><a href='{href}'>Ferry fares rise on the north shore</a></h1>"
        line = first_line(page(h1, "The Lakeside Gazette"))
        assert line == "# Ferry fares rise on the north shore", (href, line)


def test_a_banner_h1_linking_elsewhere_is_not_the_heading() -> None:
    for href in ("/news", "/news/ferry-fares?page=2", "https://other.example/news/ferry-fares"):
        h1 = f"<h1><a href='{href}'>Harbour news today</a></h1>"
        assert first_line(page(h1, "The Lakeside Gazette")).startswith(FIRST), href
    home = "https://lg-news.example/"
    h1 = "<h1><a href='/'>Harbour Daily</a></h1>"
    assert first_line(page(h1, "Ferry fares rise"), home).startswith(FIRST)  # home on home


def test_a_class_only_mentioning_a_brand_does_not_make_the_h1_a_logo() -> None:
    h1 = "<div class='navbar-brand'><h1>Harbour Daily</h1></div>"
    assert first_line(page(h1, "Ferry fares rise"), OTHER).startswith(FIRST)
    h1 = "<div class='story-brand-and-title'><h1>Ferry fares rise on the north shore</h1></div>"
    assert first_line(page(h1, "The Lakeside Gazette")) == "# Ferry fares rise on the north shore"


def test_a_site_name_in_a_role_banner_block_is_not_taken_for_the_pages_title() -> None:
    html = page("<h1>The Lakeside Gazette</h1>", "Ferry fares rise | The Lakeside Gazette")
    html = html.replace("<header class='site-header'>", "<div role='banner'>")
    result = extract_html(html.replace("</header>", "</div>"), OTHER)
    assert result.title != "The Lakeside Gazette" and "Ferry fares rise" in result.title
    assert result.markdown.startswith(FIRST)


def test_a_heading_that_is_a_small_part_of_the_site_name_is_not_the_site_name() -> None:
    """Review r-15: "Opinion" under og:site_name "Daily Opinion Review" is a section's name."""
    doc = parse_html(
        "<html><head><title>Opinion pieces</title>"
        '<meta property="og:site_name" content="Daily Opinion Review"></head><body></body></html>'
    )
    assert not names_site(
        "Opinion", doc, "https://dailyopinionreview.example/opinion", "Opinion pieces"
    )
    assert not names_site("Art", doc, "https://smartphonesdaily.example/art", "Art news")
    assert names_site("Daily Opinion Review", doc, "https://x.example/opinion", "Opinion pieces")
