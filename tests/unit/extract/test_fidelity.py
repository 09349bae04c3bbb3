"""Markdown fidelity faults found in review, each on a small page of our own (issue 13).

MathML without a TeX annotation, headings inside link cards, forum hosts, images inside
lightbox buttons, and frameset pages (their ``<noframes>`` text, or their frames named).
"""

from __future__ import annotations

import asyncio
import re

import pytest
from markdown_it import MarkdownIt

from webresearch import read_page
from webresearch.extract.appshell import looks_like_app_shell
from webresearch.extract.html import extract_html
from webresearch.extract.markdown import element_to_markdown
from webresearch.extract.page_type import looks_like_forum
from webresearch.extract.parse import parse_html

URL = "https://news.example.org/2024/05/harbour-cranes.html"

PROSE = "".join(
    f"<p>Paragraph {i} tells how the harbour crane lifts containers from the ship deck onto "
    f"the waiting trucks, and why the night shift checks every lock twice before dawn.</p>"
    for i in range(8)
)


def article(inner: str) -> str:
    return (
        "<!DOCTYPE html><html><head><title>Harbour cranes at night</title></head><body>"
        "<header><nav><a href='/'>Home</a> <a href='/news'>News</a></nav></header>"
        f"<main><article><h1>Harbour cranes at night</h1>{inner}</article></main>"
        "<footer><p>© 2024 Harbour Weekly</p></footer></body></html>"
    )


def md(html: str, url: str = URL) -> str:
    return extract_html(html, url).markdown


# --------------------------------------------------------------------------- MathML


def test_mathml_scripts_fractions_and_roots_stay_unambiguous() -> None:
    formula = (
        "<p>The load grows with <math><msup><mi>a</mi><mn>2</mn></msup></math>, each crane "
        "<math><msub><mi>c</mi><mi>i</mi></msub></math> carries "
        "<math><mfrac><mrow><mi>w</mi><mo>+</mo><mn>1</mn></mrow><mn>2</mn></mfrac></math> "
        "tonnes, the sum <math><munderover><mo>∑</mo><mrow><mi>i</mi><mo>=</mo><mn>1</mn>"
        "</mrow><mi>n</mi></munderover><msubsup><mi>x</mi><mi>i</mi><mn>2</mn></msubsup>"
        "</math> and the swing <math><msqrt><mi>L</mi><mo>+</mo><mn>3</mn></msqrt></math> "
        "with <math><msup><mrow><mo>(</mo><mi>a</mi><mo>+</mo><mi>b</mi><mo>)</mo></mrow>"
        "<mrow><mi>n</mi><mo>+</mo><mn>1</mn></mrow></msup></math>.</p>"
    )
    out = md(article(formula + PROSE))
    assert "grows with a^2, each crane c_i carries (w + 1)/2 tonnes" in out
    assert "the sum ∑_{i = 1}^n x_i^2 and the swing √(L + 3)" in out
    assert "with (a + b)^{n + 1}" in out


@pytest.mark.parametrize(
    ("mathml", "text"),
    [
        ("<mfrac><mn>1</mn><mfrac><mn>1</mn><mi>r</mi></mfrac></mfrac>", "1/(1/r)"),
        ("<msup><mfrac><mi>w</mi><mi>h</mi></mfrac><mn>2</mn></msup>", "(w/h)^2"),
        (
            "<mfrac><mn>1</mn><mrow><mo>(</mo><mi>w</mi><mo>+</mo><mn>1</mn><mo>)</mo><mo>(</mo>"
            "<mi>h</mi><mo>+</mo><mn>1</mn><mo>)</mo></mrow></mfrac>",
            "1/((w + 1)(h + 1))",
        ),
        (
            "<msqrt><mo>|</mo><mi>w</mi><mo>|</mo><mo>+</mo><mo>|</mo><mi>h</mi><mo>|</mo></msqrt>",
            "√(|w| + |h|)",
        ),
        ("<msub><mi>w</mi><mo>*</mo></msub> and <msup><mi>w</mi><mo>*</mo></msup>", "w_* and w^*"),
        ("<msup><msup><mi>w</mi><mn>2</mn></msup><mn>3</mn></msup>", "(w^2)^3"),
        ("<msup><mi>w</mi><mrow><mo>−</mo><mn>1</mn></mrow></msup>", "w^{−1}"),
        (
            "<mi>w</mi><mo>=</mo><mfrac><mrow><mo>−</mo><mi>b</mi><mo>+</mo><mi>h</mi></mrow>"
            "<mn>2</mn></mfrac><mo>,</mo><mi>h</mi><mo>=</mo><mo>−</mo><mn>3</mn>",
            "w = (−b + h)/2, h = −3",
        ),
    ],
)
def test_mathml_brackets_and_scripts_leave_one_reading(mathml: str, text: str) -> None:
    mathml = mathml.replace(" and ", "</math> and <math>")
    out = md(article(f"<p>The crane's reach is <math>{mathml}</math> in metres.</p>" + PROSE))
    assert f"The crane's reach is {text} in metres." in out
    assert f"The crane's reach is {text} in metres." in MarkdownIt().render(out)


def test_a_mathml_table_keeps_its_rows_and_cells() -> None:
    matrix = (
        "<math><mi>R</mi><mo>=</mo><mtable><mtr><mtd><mn>1</mn></mtd><mtd><mn>0</mn></mtd>"
        "</mtr><mtr><mtd><mn>0</mn></mtd><mtd><mn>1</mn></mtd></mtr></mtable></math>"
    )
    out = md(article(f"<p>The crane turns by {matrix} at rest.</p>" + PROSE))
    assert "The crane turns by R = [1, 0; 0, 1] at rest." in out


def test_mathml_nested_deeper_than_the_limit_is_flattened_not_lost() -> None:
    deep = "<mrow>" * 300 + "<mi>z</mi>" + "</mrow>" * 300
    out = md(article(f"<p>The deep term <math>{deep}</math> stays.</p>" + PROSE))
    assert "The deep term z stays." in out


def wiki_formula(tex: str, inner: str, display: bool = False) -> str:
    """A formula as MediaWiki writes it: MathML hidden for assistive technology, a picture."""
    mode = "display" if display else "inline"
    block = ' display="block"' if display else ""
    return (
        f'<span class="mwe-math-element"><span class="mwe-math-mathml-{mode} '
        f'mwe-math-mathml-a11y" style="display: none;"><math{block} '
        f'alttext="{{\\displaystyle {tex}}}"><semantics><mrow>{inner}</mrow>'
        f'<annotation encoding="application/x-tex">{{\\displaystyle {tex}}}</annotation>'
        f'</semantics></math></span><img src="/render/svg/f{len(tex)}.svg" '
        f'class="mwe-math-fallback-image-{mode}" aria-hidden="true" '
        f'alt="{{\\displaystyle {tex}}}"></span>'
    )


def test_a_wikipedia_formula_comes_out_once_as_its_tex() -> None:
    square = wiki_formula("w^{2}", "<msup><mi>w</mi><mn>2</mn></msup>")
    load = wiki_formula("F=mg", "<mi>F</mi><mo>=</mo><mi>m</mi><mi>g</mi>", display=True)
    body = "".join(
        f"<p>Crane {i} lifts a load growing with {square}, twice a night, and the "
        f"dock clerk writes the figure {square} into the harbour log book.</p>"
        for i in range(4)
    )
    out = md(article(body + f"<p>The load on the hook is</p>{load}<p>at rest.</p>" + PROSE))
    assert out.count("with $w^{2}$, twice a night") == 4
    assert out.count("the figure $w^{2}$ into") == 4
    assert "\n\n$$F=mg$$\n\n" in out
    assert "displaystyle" not in out and "![" not in out and "svg" not in out
    html = MarkdownIt().render(out)
    assert "with $w^{2}$, twice" in html and "$$F=mg$$" in html


def test_an_empty_wikipedia_formula_gives_no_empty_dollars() -> None:
    empty = wiki_formula("", "")
    texless = wiki_formula("", "<mi>k</mi>").replace(
        "{\\displaystyle }</annotation>", "</annotation>"
    )
    block = wiki_formula("", "", display=True)
    out = md(
        article(
            f"<p>The crane hook {empty}swings, and its constant {texless} holds.</p>"
            f"{block}<p>The bare <math alttext='{{\\displaystyle }}'></math> term.</p>" + PROSE
        )
    )
    assert "$" not in out and "displaystyle" not in out
    assert "The crane hook swings, and its constant k holds." in out
    assert "The bare term." in out


def test_a_formula_without_tex_stays_in_its_sentence() -> None:
    square = wiki_formula("w^{2}", "<msup><mi>w</mi><mn>2</mn></msup>")
    square = re.sub(r' alttext="[^"]*"|<annotation.*?</annotation>', "", square)
    body = "".join(
        f"<p>Crane {i} lifts a load growing with {square} twice a night, and the dock "
        f"clerk writes every figure into the harbour log book before the shift ends.</p>"
        for i in range(4)
    )
    out = md(article(f"<div class='mw-parser-output'>{body}</div>" + PROSE))
    assert out.count("growing with w^2 twice a night") == 4


def test_a_formula_trafilatura_left_out_stays_with_its_block() -> None:
    items = (
        "<ul><li><a href='/w'><math><mi>w</mi></math>.</a></li>"
        "<li><em><math><mi>h</mi></math></em> and the jib</li></ul>"
    )
    out = md(article(items + PROSE))
    assert "- [w.](https://news.example.org/w)" in out
    assert "- *h* and the jib" in out


def test_a_katex_formula_drops_its_glyphs_for_the_eye() -> None:
    katex = (
        "<span class='katex'><span class='katex-mathml'><math><semantics><msup><mi>t</mi>"
        "<mn>3</mn></msup><annotation encoding='application/x-tex'>t^3</annotation>"
        "</semantics></math></span><span class='katex-html' aria-hidden='true'><span>t</span>"
        "<span>3</span></span></span>"
    )
    out = md(article(f"<p>The cable wears with {katex} over the years.</p>" + PROSE))
    assert "The cable wears with $t^3$ over the years." in out


@pytest.mark.parametrize(
    "formula",
    [
        "<span class='sr-only'><math alttext='q+r'><mi>q</mi></math></span>"
        "<span aria-hidden='true'>q+r</span>",
        "<span class='d-none'><math alttext='q+r'><mi>q</mi></math></span>"
        "<img alt='q+r' src='/render/q.png'>",
    ],
)
def test_a_formula_hidden_by_a_class_is_kept_and_its_rendering_left_out(formula: str) -> None:
    out = md(article(f"<p>The jib holds {formula} tonnes at full reach.</p>" + PROSE))
    assert "The jib holds $q+r$ tonnes at full reach." in out


def test_the_text_after_a_formula_stays() -> None:
    star = "<math><msup><mi>x</mi><mn>2</mn></msup></math>"
    body = (
        f"<p>Cranes: {star} versus {star} at the end.</p>"
        "<p>See <a href='/m'>the <math><mi>M</mi></math> matrix</a> and more text.</p>"
    )
    out = md(article(body))
    assert "Cranes: x^2 versus x^2 at the end." in out
    assert "See [the M matrix](https://news.example.org/m) and more text." in out
    out = md(article(body + PROSE))
    assert "Cranes: x^2 versus x^2 at the end." in out


def test_dollars_in_ordinary_text_are_no_formula() -> None:
    # two prose dollars could pair into a formula for a dollar-math renderer: escaped
    out = md(article("<p>A lift costs $5 by day and $8 by night, <math><mi>n</mi></math> times.</p>" + PROSE))
    assert "A lift costs \\$5 by day and \\$8 by night, n times." in out
    out = md(article("<p>A lift costs $5 by day, <math><mi>n</mi></math> times.</p>" + PROSE))
    assert "A lift costs $5 by day, n times." in out


# --------------------------------------------------------------------------- link cards


def guide_cards(count: int = 6) -> str:
    cards = "".join(
        f"<div class='card'><a href='/guides/{i}'><h3>Crane guide number {i} for operators"
        f"</h3><p>How the night shift checks lock {i} twice before dawn and logs it.</p></a>"
        "</div>"
        for i in range(count)
    )
    return (
        "<!DOCTYPE html><html><head><title>Crane guides</title></head><body>"
        "<header><nav><a href='/'>Home</a></nav></header><main><h1>Crane guides</h1>"
        "<p>Every guide the harbour crew wrote about operating the cranes safely at night.</p>"
        f"{cards}</main><footer>© 2024</footer></body></html>"
    )


def test_a_heading_inside_a_link_card_holds_the_link() -> None:
    out = md(guide_cards(), "https://harbour.example.org/guides/")
    assert "[###" not in out
    assert (
        "### [Crane guide number 2 for operators](https://harbour.example.org/guides/2)\n\n"
        "How the night shift checks lock 2 twice before dawn and logs it." in out
    )
    tokens = MarkdownIt("commonmark").parse(out)
    headings = [t for i, t in enumerate(tokens[1:], 1) if tokens[i - 1].type == "heading_open"]
    assert len(headings) == 6
    assert all(
        child.type == "link_open" for h in headings for child in (h.children or [])[:1]
    )


def test_a_link_card_into_the_page_itself_is_a_plain_heading() -> None:
    page = "https://harbour.example.org/faq"
    root = parse_html(
        f"<div><a href='{page}#q1'><h4>Do cranes work at night?</h4><p>Yes, in two shifts."
        "</p></a><a href='#q2'><h4>Who checks the locks?</h4></a></div>"
    )
    assert element_to_markdown(root, page) == (
        "#### Do cranes work at night?\n\nYes, in two shifts.\n\n#### Who checks the locks?"
    )


def test_a_link_card_whose_heading_holds_a_link_is_not_wrapped_again() -> None:
    root = parse_html(
        "<div><a href='/cards/boom'><h3><a href='/manual/boom'>Boom inspection</a></h3><p>Every"
        " week.</p></a><a href='/cards/lock'><span><a href='/manual/lock'>Lock checks</a> twice"
        "</span></a><a href='/cards/deck'><h3><img src='/i/deck.png' alt='Deck'> Deck plan</h3>"
        "</a></div>"
    )
    out = element_to_markdown(root, "https://harbour.example.org/")
    assert out == (
        "### [Boom inspection](https://harbour.example.org/manual/boom)\n\nEvery week.\n\n"
        "[Lock checks](https://harbour.example.org/manual/lock) twice\n\n"
        "### [![Deck](https://harbour.example.org/i/deck.png) Deck plan]"
        "(https://harbour.example.org/cards/deck)"
    )


def test_a_link_card_in_a_table_cell_is_one_valid_link() -> None:
    root = parse_html(
        "<table><tr><th>Task</th><th>When</th></tr><tr><td><a href='/cards/boom'>"
        "<h3>Boom inspection</h3><p>Every week.</p></a></td><td>Monday</td></tr></table>"
    )
    out = element_to_markdown(root, "https://harbour.example.org/")
    cell = "[**Boom inspection** Every week.](https://harbour.example.org/cards/boom)"
    assert out.splitlines()[2] == f"| {cell} | Monday |"
    assert MarkdownIt("commonmark").render(cell) == (  # valid: emphasis inside one link
        '<p><a href="https://harbour.example.org/cards/boom"><strong>Boom inspection</strong>'
        " Every week.</a></p>\n"
    )
    # a one-cell table is unwrapped (a layout table): the card is written as outside one
    root = parse_html(
        "<table><tr><td><a href='/cards/boom'><h3>Boom inspection</h3><p>Every week.</p></a>"
        "</td></tr></table>"
    )
    assert element_to_markdown(root, "https://harbour.example.org/") == (
        "### [Boom inspection](https://harbour.example.org/cards/boom)\n\nEvery week."
    )


def test_a_link_without_a_heading_stays_one_link() -> None:
    root = parse_html("<div><a href='/a'><div>Boom repair</div><p>After the storm.</p></a></div>")
    assert element_to_markdown(root, "https://harbour.example.org/") == (
        "[Boom repair After the storm.](https://harbour.example.org/a)"
    )


# --------------------------------------------------------------------------- forum hosts


@pytest.mark.parametrize(
    ("url", "forum"),
    [
        ("https://dashboard.cranes.example/status/today", False),
        ("https://keyboard.example.com/layouts/harbour", False),
        ("https://www.keyboardcranes.example/a", False),
        ("https://motherboard.example.net/2024/crane-chips", False),
        ("https://www.boardgames.example/best-of-2024", False),
        ("https://board.cranes.example/night-shift", True),
        ("https://boards.cranes.example/night-shift", True),
        ("https://forum.cranes.example/night-shift", True),
        ("https://forums.cranes.example/night-shift", True),
        ("https://harbour-forum.example/night-shift", True),
        ("https://www.craneforums.example/night-shift", True),
        ("https://cranecommunity.example/night-shift", True),
        ("https://community.cranes.example/night-shift", True),
        ("https://discuss.cranes.example/night-shift", True),
        ("https://bbs.cranes.example/night-shift", True),
        ("https://www.cranes.example/forum/night-shift", True),
        ("https://www.cranes.example/threads/night-shift.12/", True),
    ],
)
def test_forum_hosts_name_the_forum_in_a_whole_label(url: str, forum: bool) -> None:
    doc = parse_html("<html><body><p>Night shift notes.</p></body></html>")
    assert looks_like_forum(doc, url, frozenset()) is forum


# --------------------------------------------------------------------------- lightbox buttons


def test_an_image_inside_a_lightbox_button_is_kept_as_outside_it() -> None:
    later = PROSE.replace("Paragraph", "Section")
    figure = (
        "<figure><button class='lightbox-trigger' aria-label='Enlarge'><img "
        "src='/img/crane-boom.png' alt='Diagram of the crane boom and its counterweight'>"
        "<span>Enlarge</span></button><figcaption>Drawn by the harbour crew.</figcaption>"
        "</figure>"
    )
    out = md(article(PROSE + figure + later))
    assert (
        "![Diagram of the crane boom and its counterweight]"
        "(https://news.example.org/img/crane-boom.png)" in out
    )
    assert "Enlarge" not in out  # the button's label is still not text


def test_a_pickers_swatch_buttons_are_not_content_images() -> None:
    later = PROSE.replace("Paragraph", "Section")
    swatches = "".join(
        f"<div><button type='button' title='{name}'><img src='/img/jacket-{i}.jpg' "
        f"alt='{name} jacket colour' width='{size}' height='{size}'></button></div>"
        for i, (name, size) in enumerate([("Harbour red", 50), ("Deck blue", 80)])
    )
    named = (
        "<div><button class='variant-swatch'><img src='/img/jacket-green.jpg' "
        "alt='Crane green jacket colour'></button></div>"
    )
    icons = (
        "<div><button><img src='/img/pause-video.svg' alt='Pause the harbour video'></button>"
        "<button><img src='/img/zone.png' alt='Detection zone icon in black'></button></div>"
    )
    out = md(article(PROSE + swatches + named + icons + later))
    assert "harbour video" not in out and "Detection zone" not in out
    assert "Paragraph 7 tells" in out and "Section 0 tells" in out
    assert "jacket" not in out


def test_flags_and_images_in_language_buttons_are_not_content_images() -> None:
    later = PROSE.replace("Paragraph", "Section")
    pickers = (
        "<div><button type='button'><img src='/static/flags/nl.png' alt='Nederlandse versie "
        "van de site'> NL</button><button><img src='/img/flag-pt.png' alt='Versão portuguesa"
        "'></button><button><img src='/img/uk.png' alt='United Kingdom flag'> English</button>"
        "<button class='lang-switch'><img src='/img/nl-harbour.jpg' alt='Rotterdam harbour "
        "view'> Dutch</button><button aria-label='Choose your language'><img "
        "src='/img/globe-map.jpg' alt='Globe with the harbour marked'></button></div>"
    )
    kept = (
        "<figure><button class='lightbox-trigger'><img src='/img/authority.jpg' alt='The flag "
        "of the harbour authority over the crane'></button></figure>"
    )
    out = md(article(PROSE + pickers + kept + later))
    for gone in ("nl.png", "flag-pt", "uk.png", "nl-harbour", "globe-map"):
        assert gone not in out
    assert "![The flag of the harbour authority over the crane](" in out
    assert "Paragraph 7 tells" in out and "Section 0 tells" in out


def test_a_photo_whose_alt_mentions_a_flag_stays_a_content_image() -> None:
    later = PROSE.replace("Paragraph", "Section")
    photos = (
        "<button class='lightbox'><img src='/p/1.jpg' alt='A man waving a rainbow flag' "
        "width='800' height='600'></button><p><img src='/p/2.jpg' alt='Crane driver "
        "holding the harbour flag' width='800' height='600'></p>"
    )
    picker = (
        "<div><button class='locale'><img src='/img/de.png' alt='German flag'> DE</button>"
        "<button><img src='/img/fr.png' alt='Flag of France'></button></div>"
    )
    out = md(article(PROSE + photos + picker + later))
    assert "![A man waving a rainbow flag](https://news.example.org/p/1.jpg)" in out
    assert "![Crane driver holding the harbour flag](https://news.example.org/p/2.jpg)" in out
    assert "de.png" not in out and "fr.png" not in out
    assert "Paragraph 7 tells" in out and "Section 0 tells" in out


def test_a_button_renders_its_usable_images_not_its_label() -> None:
    root = parse_html(
        "<p>Before.</p><button class='next'><img src='/i/arrow.png' alt='Next slide'>"
        "</button><button><img src='data:image/gif;base64,R0lGOD' alt='Open the gallery'>"
        "Open</button><p>After.</p>"
    )
    assert element_to_markdown(root, "https://harbour.example.org/") == (
        "Before.\n\n![Next slide](https://harbour.example.org/i/arrow.png)\n\nAfter."
    )


def test_an_icon_inside_a_button_is_still_noise() -> None:
    later = PROSE.replace("Paragraph", "Section")
    button = "<p><button class='next'><img src='/i/arrow-right.png' alt='Next slide'></button></p>"
    assert "arrow-right" not in md(article(PROSE + button + later))


# --------------------------------------------------------------------------- framesets


FRAMES = "<frameset cols='20%,80%'><frame src='menu.html' name='menu'><frame src='crane.html'>"


def frameset_page(noframes: str = "", scripts: str = "") -> str:
    return (
        f"<html><head><title>Harbour crane manual</title>{scripts}</head>"
        f"{FRAMES}{noframes}</frameset></html>"
    )


def test_a_frameset_page_is_read_through_its_noframes_content() -> None:
    noframes = f"<noframes><body><h2>Operating the crane</h2>{PROSE}</body></noframes>"
    result = extract_html(frameset_page(noframes), URL)
    assert "Paragraph 0 tells how the harbour crane" in result.markdown
    assert "Paragraph 7 tells how the harbour crane" in result.markdown
    assert "<p>" not in result.markdown and "&lt;" not in result.markdown


def test_a_frameset_page_without_noframes_names_its_frames() -> None:
    scripts = "<script src='/a.js'></script><script src='/b.js'></script>"
    html = frameset_page(scripts=scripts)
    result = extract_html(html, URL)
    assert result.markdown == (
        "This page is a frameset: its content is in the pages its frames show.\n\n"
        "- [menu](https://news.example.org/2024/05/menu.html)\n"
        "- [crane.html](https://news.example.org/2024/05/crane.html)"
    )
    assert not looks_like_app_shell(html, result.markdown)
    shown = asyncio.run(read_page(html.encode(), URL)).text
    assert "JavaScript" not in shown
    assert "https://news.example.org/2024/05/crane.html" in shown


def test_boilerplate_noframes_is_followed_by_the_frames_links() -> None:
    noframes = "<noframes>Sorry, this manual needs a browser that shows frames.</noframes>"
    out = md(frameset_page(noframes))
    assert out == (
        "Sorry, this manual needs a browser that shows frames.\n\n"
        "This page is a frameset: its content is in the pages its frames show.\n\n"
        "- [menu](https://news.example.org/2024/05/menu.html)\n"
        "- [crane.html](https://news.example.org/2024/05/crane.html)"
    )


def test_noframes_linking_every_frame_gets_no_frame_list() -> None:
    noframes = (
        "<noframes><p>Read the <a href='menu.html'>crane manual's contents</a> or go straight "
        "to <a href='crane.html#top'>the crane chapter</a>, which tells how the night shift "
        "checks every lock twice before dawn.</p></noframes>"
    )
    out = md(frameset_page(noframes))
    assert "[crane manual's contents](https://news.example.org/2024/05/menu.html)" in out
    assert "frameset" not in out


def test_a_page_with_text_and_a_stray_frameset_is_no_frameset_page() -> None:
    html = article(PROSE + "<frameset><frame src='ad.html'></frameset>")
    assert "Paragraph 7 tells" in md(html)
    assert "frameset" not in md(html)


def test_a_local_file_opening_with_its_frameset_is_read_as_html() -> None:
    html = FRAMES + "</frameset>"
    shown = asyncio.run(read_page(html.encode(), URL)).text
    assert "- [menu](https://news.example.org/2024/05/menu.html)" in shown
    assert "<frame" not in shown


def test_a_local_frameset_file_lists_its_frames_as_written() -> None:
    """A file read without a base URL: its frames resolve to file:// (not linked)."""
    frames = (
        "<frameset cols='*,*'><frame src='menu.html'><frame src='deck plan.html'>"
        "<frame src='javascript:void(0)'><frame src='//cdn.example.org/ad.html'>"
    )
    noframes = "<noframes><p>Your browser does not support frames.</p></noframes>"
    listed = "- [menu.html](menu.html)\n- [deck plan.html](deck%20plan.html)"
    for base in ("file:///home/ann/manual/index.html", ""):
        out = extract_html(f"<html>{frames}{noframes}</frameset></html>", base).markdown
        assert out.startswith("Your browser does not support frames.\n\n")
        assert out.endswith(listed)
        bare = extract_html(f"<html>{frames}</frameset></html>", base).markdown
        assert bare.endswith(listed) and "javascript" not in bare and "cdn" not in bare
