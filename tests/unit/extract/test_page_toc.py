"""The page's own table of contents left out (extract/page_toc.py), on small pages of our
own: links written as ``#section`` or as the page's own address with that fragment."""

from __future__ import annotations

import pytest

from webresearch.extract.html import extract_html
from webresearch.extract.page_toc import drop_page_toc
from webresearch.extract.parse import parse_html

URL = "https://quayside.example.net/journal/winter-moorings/"

SECTIONS = ("chain", "buoy", "shackles")


def section_text(name: str) -> str:
    return "".join(
        f"<p>The {name} {i}: a winter mooring needs a heavier riser chain than a summer one, "
        f"because the gales that come in from the west pull the buoy sideways for days.</p>"
        for i in range(3)
    )


ARTICLE = "<meta property='og:type' content='article'>"


def page(href: str, head: str = ARTICLE) -> str:
    toc = "".join(
        f"<li><a href='{href.format(name)}'>Checking the {name} in winter</a></li>"
        for name in SECTIONS
    )
    body = "".join(
        f"<h2 id='{name}'>Checking the {name} in winter</h2>{section_text(name)}"
        for name in SECTIONS
    )
    return (
        f"<!DOCTYPE html><html><head><title>Winter moorings</title>{head}</head><body>"
        "<header><nav><a href='/'>Home</a> <a href='/journal'>Journal</a></nav></header>"
        f"<main><article><h1>Winter moorings</h1><p>What to check before the gales.</p>"
        f"<p>Jump to a section:</p><ol class='lwptoc'>{toc}</ol>{body}</article></main>"
        "<footer><p>© 2024 Quayside Journal</p></footer></body></html>"
    )


@pytest.mark.parametrize(
    "href",
    [
        "#{}",
        URL + "#{}",  # the page's own address, as a scroll-to plugin writes it
        "/journal/winter-moorings/#{}",
        "/journal/winter-moorings#{}",
    ],
)
def test_a_table_of_contents_linking_this_pages_headings_is_dropped(href: str) -> None:
    # fetched with a campaign's query the links do not carry
    out = extract_html(page(href), URL + "?srsltid=AbC123").markdown
    assert "## Checking the buoy in winter" in out and "heavier riser chain" in out
    assert out.count("Checking the buoy in winter") == 1
    assert "](" not in out


def test_links_to_another_pages_sections_are_not_a_table_of_contents() -> None:
    doc = parse_html(page("https://quayside.example.net/journal/summer-moorings/#{}"))
    assert drop_page_toc(doc, URL) == 0
    assert len(doc.xpath("//ol[@class='lwptoc']")) == 1


def test_fragments_naming_no_element_of_the_page_are_not_a_table_of_contents() -> None:
    doc = parse_html(page(URL + "#{}-notes"))
    assert drop_page_toc(doc, URL) == 0


def test_on_a_page_not_declaring_an_article_only_hash_links_make_a_table_of_contents() -> None:
    # a service page's list of offers, each linking to its section, is its overview
    out = extract_html(page(URL + "#{}", head=""), URL).markdown
    assert "[Checking the buoy in winter](" in out


def test_a_list_of_terms_all_linking_to_one_section_stays() -> None:
    terms = "".join(
        f"<li><a href='#arguments'><code>{name}</code></a> string</li>"
        for name in ("host", "port", "user", "timeout")
    )
    doc = parse_html(
        f"<html><body><ul class='args'>{terms}</ul><h2 id='arguments'>Arguments</h2>"
        "<p>Each argument is a string.</p></body></html>"
    )
    assert drop_page_toc(doc, URL) == 0


def test_an_outline_of_arguments_with_their_types_stays() -> None:
    # each argument links to its own section, its type is written beside the link: a
    # reference's outline, not a list of links (words of adjacent items are counted apart)
    items = "".join(
        f"<li><a href='#{name}'><code>{name}</code></a> string</li>"
        for name in ("host", "port", "user", "timeout")
    )
    sections = "".join(f"<h3 id='{name}'>{name}</h3><p>A string.</p>" for name in ("host",))
    doc = parse_html(
        "<html><body><ul class='outline'>"
        f"{items}</ul>{sections}<h3 id='port'>port</h3><h3 id='user'>user</h3>"
        "<h3 id='timeout'>timeout</h3></body></html>"
    )
    assert drop_page_toc(doc, URL) == 0


def test_a_list_of_notes_linking_back_to_their_marks_is_no_table_of_contents() -> None:
    """Review r-15: each note links back to its mark; the marks link to the notes."""
    prose = (
        "<p>Winter fares on the lake ferries rose twice in ten years, and both rises followed "
        "a hard winter that closed the northern landing for weeks.</p>"
    )
    marks = "".join(f'<sup id="r{i}"><a href="#n{i}">{i}</a></sup> text' for i in (1, 2, 3))
    notes = "".join(
        f'<li id="n{i}"><a href="#r{i}">Harbour Board, Annual Report {2010 + i}</a></li>'
        for i in (1, 2, 3)
    )
    html = (
        "<html><head><title>Ferry fares</title></head><body><main><article><h1>Ferry fares</h1>"
        f"{prose}<p>Fares{marks}.</p><ol>{notes}</ol></article></main></body></html>"
    )
    out = extract_html(html, "https://lake.example/essays/fares").markdown
    assert "Annual Report 2013" in out


def scripted_page(head: str = ARTICLE) -> str:
    """The headings get their ids from a script on load: the served markup has none."""
    page_html = page("#{}-in-winter", head)
    for name in SECTIONS:
        page_html = page_html.replace(f"<h2 id='{name}'>", "<h2>")
    return page_html


def test_a_table_of_contents_to_headings_a_script_names_is_dropped() -> None:
    out = extract_html(scripted_page(), URL).markdown
    assert "## Checking the buoy in winter" in out and "heavier riser chain" in out
    assert out.count("Checking the buoy in winter") == 1
    assert "](" not in out


def test_fragment_links_whose_text_is_no_heading_are_not_a_table_of_contents() -> None:
    doc = parse_html(scripted_page().replace("<h2>Checking the", "<h2>Looking at the"))
    assert drop_page_toc(doc, URL) == 0


def test_a_list_whose_links_wrap_their_own_headings_is_no_table_of_contents() -> None:
    """Review r16: a crew list, each name a heading inside a link that opens a biography by
    script (``#skipper-0``, no such id): the headings are the items, not sections."""
    crew = "".join(
        f"<li><a href='#skipper-{i}' class='open-bio'><h3>Skipper {name}</h3></a></li>"
        for i, name in enumerate(("Ana Silva", "Piet de Vries", "Mara Kovac"))
    )
    html = page("#{}").replace(
        "<p>Jump to a section:</p>", f"<h2>Our skippers</h2><ul class='crew'>{crew}</ul>"
    )
    doc = parse_html(html)
    assert drop_page_toc(doc, URL) == 1  # the real table of contents only
    assert "Skipper Piet de Vries" in "".join(doc.itertext())


def test_a_table_of_contents_to_named_anchors_is_dropped() -> None:
    # <a name="chain"></a> before each heading: the older way of marking a link's target
    named = page("#{}")
    for name in SECTIONS:
        named = named.replace(f"<h2 id='{name}'>", f"<a name='{name}'></a><h2>").replace(
            f"'#{name}'>Checking the {name} in winter", f"'#{name}'>Our {name} checks"
        )
    out = extract_html(named, URL).markdown
    assert "## Checking the buoy in winter" in out and "heavier riser chain" in out
    assert "Our buoy checks" not in out


def test_lists_holding_fewer_fragment_links_than_a_table_of_contents_are_not_read() -> None:
    # three "#" links on the page, but no list holds three of them: nothing to test
    html = (
        "<html><body><h2 id='a'>A</h2><h2 id='b'>B</h2><h2 id='c'>C</h2>"
        "<ul><li><a href='#a'>A</a></li><li><a href='#b'>B</a></li></ul>"
        "<p><a href='#c'>C</a></p></body></html>"
    )
    doc = parse_html(html)
    assert drop_page_toc(doc) == 0
    assert len(doc.xpath("//ul")) == 1


def test_a_list_holding_three_fragment_links_nested_deep_is_still_read() -> None:
    # the links sit in an inner list: the outer one holds them too and is tested
    html = (
        "<html><body><h2 id='a'>A</h2><h2 id='b'>B</h2><h2 id='c'>C</h2>"
        "<nav><ul><li><a href='#a'>A</a></li><li><a href='#b'>B</a></li>"
        "<li><a href='#c'>C</a></li></ul></nav></body></html>"
    )
    doc = parse_html(html)
    assert drop_page_toc(doc) >= 1
    assert not doc.xpath("//a")


def titled_block_page(title: str, extra: str = "") -> str:
    """An article whose contents are bare links under a title in a ``<div>`` (no list)."""
    toc = "".join(
        f"<a class='toc-link' href='#{name}'>0{i + 1} Checking the {name} in winter</a>"
        for i, name in enumerate(SECTIONS)
    )
    body = "".join(
        f"<h2 id='{name}'>Checking the {name} in winter</h2>{section_text(name)}"
        for name in SECTIONS
    )
    return (
        f"<!DOCTYPE html><html><head><title>Winter moorings</title>{ARTICLE}</head><body>"
        "<main><article><h1>Winter moorings</h1><div class='meta'><p>8 min read</p>"
        f"<p>Dec 08, 2023</p></div><div class='flex'><p class='label'>{title}</p>{toc}</div>"
        f"<p>What to check before the gales.</p>{body}{extra}</article></main></body></html>"
    )


def test_bare_links_under_a_table_of_contents_title_go() -> None:
    markdown = extract_html(titled_block_page("Table of contents"), URL).markdown
    assert "01 Checking" not in markdown and "Table of contents" not in markdown
    assert "## Checking the buoy in winter" in markdown
    assert "What to check before the gales." in markdown


def test_bare_links_under_another_title_stay() -> None:
    markdown = extract_html(titled_block_page("Our winter checklist"), URL).markdown
    assert "01 Checking the chain in winter" in markdown


def test_a_titled_block_of_links_to_other_pages_stays() -> None:
    sources = (
        "<div class='sources'><p>Contents</p>"
        + "".join(
            f"<a href='https://harbour.example.org/guide/{name}#part-2'>Harbour guide: {name}</a>"
            for name in SECTIONS
        )
        + "</div>"
    )
    doc = parse_html(titled_block_page("Table of contents", sources))
    assert drop_page_toc(doc, URL) == 1  # the contents only
    assert len(doc.xpath("//div[@class='sources']/a")) == 3


def test_short_bare_links_under_a_table_of_contents_title_go_with_it() -> None:
    # one-word entries under a three-word title: the title's words counted as the
    # entries' prose kept the links, and a later pass dropped the title (review n-18 M7)
    toc = "<br>".join(f"<a href='#{name}'>{name.title()}</a>" for name in SECTIONS)
    body = "".join(f"<h2 id='{name}'>{name.title()}</h2>{section_text(name)}" for name in SECTIONS)
    html = (
        # no declared article: the links are read by their fragments alone
        "<!DOCTYPE html><html><head><title>Winter moorings</title></head><body>"
        "<main><article><h1>Winter moorings</h1><p>What to check before the gales.</p>"
        f"<div class='toc'><p><strong>Table of contents</strong></p>{toc}</div>{body}"
        "</article></main></body></html>"
    )
    markdown = extract_html(html, URL).markdown
    assert "Table of contents" not in markdown
    assert "[Chain]" not in markdown and "[Buoy]" not in markdown
    assert "## Chain" in markdown and "What to check before the gales." in markdown
