"""Blocks a page's display utility classes hide (extract/utility_classes.py, page_noise.py),
on small pages of our own."""

from __future__ import annotations

import pytest

from webresearch.extract.html import extract_html
from webresearch.extract.utility_classes import hidden_on_desktop, never_shown

URL = "https://harbour.example.org/2024/05/night-cranes.html"

PROSE = "".join(
    f"<p>Paragraph {i} tells how the harbour crane lifts containers from the ship deck onto "
    f"the waiting trucks, and why the night shift checks every lock twice before dawn.</p>"
    for i in range(8)
)


def md(inner: str) -> str:
    html = (
        "<!DOCTYPE html><html><head><title>Harbour cranes at night</title></head><body>"
        "<header><nav><a href='/'>Home</a> <a href='/news'>News</a></nav></header>"
        f"<main><article><h1>Harbour cranes at night</h1>{inner}</article></main>"
        "<footer><p>© 2024 Harbour Weekly</p></footer></body></html>"
    )
    return extract_html(html, URL).markdown


@pytest.mark.parametrize(
    ("classes", "hidden"),
    [
        ("d-none", True),
        ("menu d-none d-lg-flex", False),  # shown from 992 px up
        ("d-none d-xxl-block", True),  # shown only from 1400 px up
        ("d-lg-none", True),  # a phone-only block
        ("d-block d-md-none", True),
        ("hidden", True),
        ("hidden md:block", False),
        ("flex lg:hidden", True),
        ("hidden 2xl:flex", True),
        ("block hidden", False),  # one breakpoint says both: shown
        ("group-hover:hidden hover:block", False),  # state variants are not read
        ("max-lg:hidden", False),
        ("overflow-hidden", False),
        ("hidden-xs", False),
        ("col hidden-lg", True),  # Bootstrap 3: hidden from 1200 px up
        ("hidden-md hidden-sm", False),
        ("vc_hidden-lg vc_hidden-xs", True),  # WPBakery
        ("elementor-hidden-desktop", True),
        ("elementor-hidden-tablet elementor-hidden-mobile", False),
        ("is-hidden-desktop-only", False),  # Bulma: 1024-1215 px
        ("is-hidden-widescreen-only", True),  # Bulma: 1216-1407 px
        ("is-hidden-touch", False),
        ("w-condition-invisible", True),
        ("w-form-done", True),
        ("", False),
    ],
)
def test_display_utilities_on_a_desktop_screen(classes: str, hidden: bool) -> None:
    assert hidden_on_desktop(classes) is hidden


def test_only_webflow_state_classes_are_never_shown() -> None:
    assert never_shown("layout w-condition-invisible")
    assert not never_shown("d-none")


def test_a_copy_of_the_article_left_out_by_the_sites_conditions_is_read_once() -> None:
    # Webflow renders a gated copy of the article and hides it with w-condition-invisible:
    # the same paragraphs twice in the markup, once on the screen.
    out = md(
        "<div class='layout__normal'>" + PROSE + "</div>"
        "<div class='layout__gated w-condition-invisible'>" + PROSE + "</div>"
    )
    assert out.count("Paragraph 3 tells") == 1


def test_blocks_hidden_on_a_desktop_screen_are_dropped() -> None:
    out = md(
        PROSE[:400]
        + "<div class='d-none d-lg-block'><p>Desktop note on crane maintenance.</p></div>"
        + "<div class='d-lg-none'><p>Phone note on crane maintenance.</p></div>"
        + "<div class='lg:hidden'><p>Tap here for the phone menu.</p></div>"
        + "<div class='w-form-done'><p>Thank you! Your submission has been received!</p></div>"
        + PROSE[400:]
    )
    assert "Paragraph 7" in out
    assert "Desktop note" in out
    for text in ("Phone note", "phone menu", "submission has been received"):
        assert text not in out


def test_a_block_written_once_per_screen_size_is_read_once() -> None:
    # A page builder writes the prose once per screen size, each copy hidden in the other
    # ranges of widths (WPBakery's vc_hidden-*, Bootstrap 3's hidden-*, Elementor's and
    # Bulma's): a desktop reader sees the first copy only.
    # (the desktop line comes first: a short line after the article is article_end's)
    out = md(
        "<div class='elementor-hidden-mobile'><p>Desktop crane schedule.</p></div>"
        "<div class='vc_hidden-md vc_hidden-sm vc_hidden-xs'>" + PROSE + "</div>"
        "<div class='vc_hidden-lg vc_hidden-sm vc_hidden-xs'>" + PROSE + "</div>"
        "<div class='hidden-lg'><p>Phone and tablet crane schedule.</p></div>"
        "<div class='elementor-hidden-desktop'><p>Swipe for more cranes.</p></div>"
    )
    assert out.count("Paragraph 3 tells") == 1
    assert "Desktop crane schedule" in out
    assert "Phone and tablet" not in out
    assert "Swipe for more" not in out


def test_a_closed_accordion_panel_hidden_by_a_class_stays() -> None:
    answer = (
        "The night shift checks every twist lock on the spreader, then the boom brakes, "
        "then the cable drums, and it writes each reading into the log that the morning "
        "shift signs before the first container is lifted from the deck."
    )
    out = md(
        PROSE + "<h2>Questions</h2><div class='faq'><button>What does the shift check?</button>"
        f"<div class='hidden'><p>{answer}</p></div></div>"
    )
    assert "writes each reading into the log" in out


def test_a_bare_hidden_class_is_tailwinds_only_on_a_tailwind_page() -> None:
    # A site without Tailwind names a block "hidden" for its own script (a forum's first post
    # preloaded for quoting): it is not Tailwind's display:none there.
    post = (
        "<div class='hidden'><p>The original poster asks which crane fits a small quay.</p></div>"
    )
    assert "which crane fits" in md(PROSE + post)
    assert "which crane fits" not in md(PROSE + "<div class='md:flex'></div>" + post)


def test_a_shops_blocks_hidden_by_classes_stay() -> None:
    # A shop's scripts show what its classes hide (a stock notice once a size is chosen).
    shop = (
        "<!DOCTYPE html><html><head><title>Harbour crane model</title>"
        "<script type='application/ld+json'>"
        '{"@context": "https://schema.org", "@type": "Product", "name": "Harbour crane model"}'
        "</script></head><body><main><h1>Harbour crane model</h1>"
        + PROSE
        + "<div class='d-none'><p>Only a few left in this size.</p></div></main></body></html>"
    )
    assert "Only a few left" in extract_html(shop, URL).markdown


def test_a_short_tab_panel_hidden_by_a_class_stays() -> None:
    # Newcomer review: on a Tailwind page, the closed tab of a short "macOS / Windows"
    # install section (role="tabpanel", class "hidden") was left out with the menus.
    tabs = (
        "<h2>Install</h2><div class='md:flex' role='tablist'>"
        "<button role='tab'>Linux</button><button role='tab'>Windows</button></div>"
        "<div role='tabpanel'><p>Run the crane simulator installer script.</p></div>"
        "<div role='tabpanel' class='hidden'><p>Open the crane simulator setup file.</p></div>"
    )
    out = md(PROSE + tabs)
    assert "Run the crane simulator installer script." in out
    assert "Open the crane simulator setup file." in out


LANGUAGES = [
    "Basque", "Catalan", "Danish", "Estonian", "Finnish", "Galician", "Icelandic", "Latvian",
    "Maltese", "Norwegian", "Slovenian", "Welsh",
]  # fmt: skip


def _picker(opening: str, closing: str) -> str:
    links = "".join(
        f"<a href='/cranes?lang={name[:2].lower()}' role='menuitemradio'>{name}</a>"
        for name in LANGUAGES
    )
    return f"{opening}<span>Language</span>{links}{closing}"


@pytest.mark.parametrize(
    ("opening", "closing"),
    [
        ("<details><summary>Language: any</summary><details-menu>", "</details-menu></details>"),
        ("<div role='menu'>", "</div>"),
        ("<ul class='dropdown-menu'>", "</ul>"),
        ("<div role='listbox presentation'>", "</div>"),
        ("<div class='modal fade' role='dialog' aria-hidden='true'>", "</div>"),
    ],
)
def test_a_popup_menu_of_links_is_not_content(opening: str, closing: str) -> None:
    half = PROSE.count("</p>") // 2
    paragraphs = PROSE.split("</p>")
    before = "</p>".join(paragraphs[:half]) + "</p>"
    after = "</p>".join(paragraphs[half:])
    out = md(before + _picker(opening, closing) + after)
    assert "Paragraph 0 tells" in out and "Paragraph 7 tells" in out
    assert not any(name in out for name in LANGUAGES)


def test_a_menu_of_tabs_and_a_dialog_of_prose_stay() -> None:
    tabs = (
        "<ul role='menu'><li role='menuitem'><h3>Crane inspection</h3></li>"
        "<li role='menuitem'><h3>Lock maintenance</h3></li>"
        "<li role='menuitem'><h3>Night shift rota</h3></li></ul>"
    )
    guide = (
        "<div role='dialog'><h2>Safety guide</h2><p>Every crane operator wears a harness above "
        "the second deck, and the <a href='/rules'>harbour rules</a> ask for two lookouts on "
        "foggy nights.</p></div>"
    )
    out = md(PROSE[: len(PROSE) // 2] + tabs + guide + PROSE[len(PROSE) // 2 :])
    assert "Lock maintenance" in out
    assert "two lookouts on foggy nights" in out


def test_a_menu_of_links_with_a_line_under_each_is_not_content() -> None:
    """A section menu (a mega-menu panel): each link has a short description; the menu
    role says it is navigation, its links say where it leads."""
    entries = [
        ("Tide tables", "water at each berth"),
        ("Pilot service", "for the larger ships"),
        ("Berth booking", "reserve a quay slot"),
        ("Crane hire", "by the hour or day"),
    ]
    items = "".join(
        f"<li><a href='/{a.split()[0].lower()}'>{a}</a><p>{b}</p></li>" for a, b in entries
    )
    for menu in (f"<ul role='menu'>{items}</ul>", f"<ul class='dropdown-menu show'>{items}</ul>"):
        out = md(PROSE[: len(PROSE) // 2] + menu + PROSE[len(PROSE) // 2 :])
        assert "Paragraph 0 tells" in out and "Paragraph 7 tells" in out
        assert "Pilot service" not in out and "quay slot" not in out


@pytest.mark.parametrize(
    "panel_class",
    ["dropdown-panel", "dropdown-content", "dropdown-container", "vector-dropdown-content"],
)
def test_the_panel_a_dropdown_opens_is_not_content(panel_class: str) -> None:
    """A book's chapter list (or a wiki's language list) in the panel a "Chapters ▾" button
    opens, inside the content column: links a click shows, not the page's text."""
    chapters = "".join(
        f"<li>{n}.{m} <a href='/manual/ch{n}-{m}'>Crane chapter {n} part {m}</a></li>"
        for n in range(1, 4)
        for m in range(1, 4)
    )
    panel = (
        "<a class='dropdown-trigger' href='#'>Chapters ▾</a>"
        f"<div class='{panel_class}' id='chapters'><ol class='book-toc'>{chapters}</ol></div>"
    )
    out = md(panel + PROSE)
    assert "Paragraph 0 tells" in out and "Paragraph 7 tells" in out
    assert "Crane chapter" not in out


def test_a_dropdown_panel_of_prose_stays() -> None:
    """A panel of text with a link or two (a "show details" box) is content a click shows."""
    box = (
        "<div class='dropdown-content'><p>The crane's boom reaches forty metres; see the "
        "<a href='/specs'>specification sheet</a> and the <a href='/load'>load chart</a> for "
        "the weights it lifts at each radius, and the <a href='/wind'>wind limits</a> for the "
        "gusts that stop work on the quay.</p></div>"
    )
    out = md(PROSE + box)
    assert "boom reaches forty metres" in out


@pytest.mark.parametrize(
    "panel_class",
    ["dropdown-panel", "dropdown-content", "dropdown-container", "vector-dropdown-content"],
)
def test_popup_menus_finds_the_panel_a_dropdown_opens(panel_class: str) -> None:
    from lxml import html as lxml_html

    from webresearch.extract.page_noise import popup_menus

    links = "".join(f"<li><a href='/manual/ch{n}'>Crane chapter {n}</a></li>" for n in range(5))
    body = lxml_html.fromstring(
        f"<body><p>Intro</p><div class='nav {panel_class}'><ol>{links}</ol></div>"
        "<div class='dropdown-list'><ol>" + links + "</ol></div></body>"
    )
    assert [el.get("class") for el in popup_menus(body)] == [f"nav {panel_class}"]
