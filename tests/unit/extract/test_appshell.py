"""App shells (script-driven pages with no static text) are told apart from real pages."""

from __future__ import annotations

from webresearch.extract.appshell import looks_like_app_shell
from webresearch.extract.html import extract_html

from .cases import route


def shell(body: str, head: str = "") -> str:
    return f"<!DOCTYPE html><html><head><title>App</title>{head}</head><body>{body}</body></html>"


def test_react_and_friends_mount_points() -> None:
    for body in (
        '<div id="root"></div><script src="/static/js/main.8f2a.js"></script>',
        '<app-root></app-root><script src="main.js" type="module"></script>',
        '<div id="__next"></div><script id="__NEXT_DATA__" type="application/json">{}</script>',
        "<noscript>You need to enable JavaScript to run this app.</noscript><div id=app></div>",
    ):
        html = shell(body)
        assert looks_like_app_shell(html, extract_html(html, "https://e.org/").markdown)


def test_loading_notice_does_not_count_as_text() -> None:
    html = shell(
        '<div id="root"><p>Loading…</p></div><script src="/a.js"></script><script src="/b.js"></script>'
    )
    assert looks_like_app_shell(html, "Loading…")


def test_pages_with_text_are_not_shells() -> None:
    text = "<p>" + "A real paragraph of server-rendered text. " * 20 + "</p>"
    html = shell('<div id="root">' + text + '</div><script src="/main.js"></script>')
    assert not looks_like_app_shell(html, extract_html(html, "https://e.org/").markdown)


def test_a_small_static_page_without_scripts_is_not_a_shell() -> None:
    html = shell("<p>Gone fishing.</p>")
    assert not looks_like_app_shell(html, "Gone fishing.")


def test_case_06_hidden_ssr_article_is_not_a_shell() -> None:
    html = route("06-hidden-ssr-content", "/").body.decode()
    assert not looks_like_app_shell(html, extract_html(html, "http://127.0.0.1/").markdown)
