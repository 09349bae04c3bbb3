"""HTML → title and markdown: main content, fallbacks, titles, hostile markup."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from webresearch.extract import html as html_module
from webresearch.extract.html import document_title, extract_html, html_to_markdown
from webresearch.extract.parse import flatten_deep_markup, parse_html

URL = "https://example.org/blog/post.html"

ARTICLE = "".join(
    f"<p>Paragraph {i} of the article explains how the gateway routes each request to a worker "
    f"pool, and why the envelope format stays stable across releases.</p>"
    for i in range(8)
)


def page(body: str, title: str = "Routing notes", head: str = "") -> str:
    return (
        f"<!DOCTYPE html><html><head><title>{title}</title>{head}</head><body>{body}</body></html>"
    )


def chrome(body: str) -> str:
    return (
        "<header><nav><a href='/'>Home</a> <a href='/blog'>Blog</a> <a href='/about'>About us</a></nav></header>"
        f"<main><article><h1>Routing notes</h1>{body}</article></main>"
        "<aside><h3>Popular</h3><ul><li><a href='/a'>Another post about cooking</a></li>"
        "<li><a href='/b'>Yet another post</a></li></ul></aside>"
        "<footer><p>© 2024 Example Inc. All rights reserved.</p><a href='/privacy'>Privacy</a></footer>"
    )


# --------------------------------------------------------------------------- main content


def test_main_content_drops_navigation_and_footer() -> None:
    result = extract_html(page(chrome(ARTICLE)), URL)
    assert result.extractor == "main-content"
    assert result.fallback is None
    assert "Paragraph 0 of the article" in result.markdown
    assert "Paragraph 7 of the article" in result.markdown
    for noise in ("About us", "All rights reserved", "Another post about cooking"):
        assert noise not in result.markdown


def test_html_to_markdown_is_the_title_and_the_markdown() -> None:
    title, markdown = html_to_markdown(page(chrome(ARTICLE)), URL)
    result = extract_html(page(chrome(ARTICLE)), URL)
    assert (title, markdown) == (result.title, result.markdown)


def test_a_first_heading_repeating_the_title_is_dropped_other_headings_stay() -> None:
    result = extract_html(page(chrome("<h2>Details</h2>" + ARTICLE)), URL)
    assert not result.markdown.startswith("# Routing notes")
    assert "## Details" in result.markdown


def test_article_structure_is_kept() -> None:
    body = (
        ARTICLE[:400] + "<h2>Steps</h2><ol><li>Install the gateway package on every host</li>"
        "<li>Write the routing table</li></ol>"
        "<pre><code class='language-yaml'>routes:\n  - key: a\n    pool: one</code></pre>"
        "<table><tr><th>Key</th><th>Pool</th></tr><tr><td>a</td><td>one</td></tr>"
        "<tr><td>b</td><td>two</td></tr></table>" + ARTICLE[400:]
    )
    markdown = extract_html(page(chrome(body)), URL).markdown
    assert "## Steps" in markdown
    assert "1. Install the gateway package on every host" in markdown
    assert "```yaml\nroutes:\n  - key: a\n    pool: one\n```" in markdown
    assert "| Key | Pool |\n|---|---|\n| a | one |\n| b | two |" in markdown


def test_code_and_data_tables_dropped_by_the_extractor_are_rescued() -> None:
    body = (
        ARTICLE[:600] + "<div class='code-toolbar widget'><pre><code>gateway --check</code></pre>"
        "<div class='toolbar'><button>Copy</button></div></div>"
        + ARTICLE[600:900]
        + "<div class='table-wrap widget sidebar'><table><tr><th>Pool</th><th>Hosts</th></tr>"
        "<tr><td>one</td><td>3</td></tr><tr><td>two</td><td>5</td></tr></table></div>"
        + ARTICLE[900:]
    )
    markdown = extract_html(page(chrome(body)), URL).markdown
    assert "```\ngateway --check\n```" in markdown
    assert "| Pool | Hosts |" in markdown
    assert "Copy" not in markdown


def test_template_content_counts_as_content() -> None:
    result = extract_html(page(f"<template id='t'><article>{ARTICLE}</article></template>"), URL)
    assert "Paragraph 3 of the article" in result.markdown


def test_links_in_the_article_are_absolute() -> None:
    body = (
        ARTICLE[:300]
        + "<p>See <a href='../docs/setup.html'>the setup guide</a> first.</p>"
        + ARTICLE[300:]
    )
    markdown = extract_html(page(chrome(body)), URL).markdown
    assert "[the setup guide](https://example.org/docs/setup.html)" in markdown


# --------------------------------------------------------------------------- fallbacks


def test_no_main_content_converts_the_whole_page_without_chrome(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(
        html_module, "find_main_content", lambda doc, comments, html, shown, url: None
    )
    result = extract_html(
        page("<nav><a href='/x'>Menu</a></nav><div><b>Open</b> 9–5</div><footer>Foot</footer>"), URL
    )
    assert result.extractor == "whole-page"
    assert result.fallback == "no main content found"
    assert "**Open** 9–5" in result.markdown
    assert "Menu" not in result.markdown and "Foot" not in result.markdown


def test_main_content_keeping_too_little_falls_back_to_the_whole_page() -> None:
    shell = (
        "<div id='shell'><article><h1>Spec</h1><p>Loading the latest version of this document, "
        "please wait a moment while the application starts.</p></article></div>"
    )
    result = extract_html(page(shell + f"<aside>{ARTICLE * 5}</aside>", title="Spec"), URL)
    assert result.extractor == "whole-page"
    assert result.fallback is not None and re.fullmatch(
        r"main content kept \d+% of the page text", result.fallback
    )
    assert "Paragraph 7 of the article" in result.markdown


def test_empty_and_textless_pages() -> None:
    assert extract_html("", URL).markdown == ""
    assert (
        extract_html("<html><body><script>x()</script></body></html>", URL).extractor
        == "plain-text"
    )
    result = extract_html("just some text, no markup at all", URL)
    assert result.markdown == "just some text, no markup at all"


# --------------------------------------------------------------------------- title


@pytest.mark.parametrize(
    ("html", "title"),
    [
        (
            "<html><head><title>\n  Spaced \t title </title></head><body></body></html>",
            "Spaced title",
        ),
        (
            "<html><head><meta property='og:title' content='From OG'></head><body><h1>H</h1></body></html>",
            "From OG",
        ),
        (
            "<html><body><svg><title>icon</title></svg><h1>First <b>heading</b></h1></body></html>",
            "First heading",
        ),
        ("<html><head><title></title></head><body><p>x</p></body></html>", ""),
        (
            "<html><body><nav>Menu</nav><h2>Release <i>notes</i></h2><p>x</p></body></html>",
            "Release notes",
        ),
    ],
)
def test_document_title(html: str, title: str) -> None:
    assert document_title(parse_html(html)) == title


# --------------------------------------------------------------------------- hostile markup


def test_ten_thousand_levels_of_nesting_still_produce_text() -> None:
    html = page(
        "<div>" * 10_000
        + "<p>deep text inside the nesting</p>"
        + "</div>" * 10_000
        + "<p>text after it</p>"
    )
    markdown = extract_html(html, URL).markdown
    assert "deep text inside the nesting" in markdown
    assert "text after it" in markdown


def test_flattening_keeps_text_and_shallow_structure() -> None:
    flat = flatten_deep_markup("<div>" * 5 + "<b>x</b>y" + "</div>" * 5, max_depth=2)
    assert flat.count("<div>") == 2 and flat.count("</div>") == 2
    assert "xy" in flat


def test_a_megabyte_single_line_page_produces_text() -> None:
    words = " ".join(f"word{i % 97}" for i in range(150_000))
    html = "<html><body><p>" + words + "</p>" + "<span>x</span>" * 20_000 + "</body></html>"
    assert len(html) > 1_000_000 and "\n" not in html
    markdown = extract_html(html, URL).markdown
    assert markdown.startswith("word0 word1 word2")
    assert len(markdown) > 900_000


def test_xml_declaration_and_nul_characters_are_tolerated() -> None:
    html = '<?xml version="1.0" encoding="utf-8"?>' + page(
        ARTICLE.replace("gateway", "gate\x00way")
    )
    assert "Paragraph 1 of the article" in extract_html(html, URL).markdown


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from(
                [
                    "<div>",
                    "</div>",
                    "<p>",
                    "</p>",
                    "<table>",
                    "<tr>",
                    "<td>",
                    "<pre>",
                    "</pre>",
                    "<ul>",
                    "<li>",
                    "<a href='../x'>",
                    "</a>",
                    "<br>",
                    "<!--",
                    "-->",
                    "<script>",
                    "</script>",
                    "<template>",
                    "<img src='/i.png'>",
                    "&amp;",
                    "&lt;",
                    "<h1>",
                    "</h1>",
                    "<base href='/b/'>",
                ]
            ),
            st.text(max_size=30),
        ),
        max_size=60,
    )
)
def test_any_markup_converts_without_error_and_links_are_absolute(parts: list[str]) -> None:
    title, markdown = html_to_markdown("".join(parts), URL)
    assert isinstance(title, str) and isinstance(markdown, str)
    for target in re.findall(r"\]\(([^)\s]*)\)", markdown):
        assert target.startswith(("https://", "http://", "mailto:", "tel:", "ftp://")), target
