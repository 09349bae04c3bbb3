"""Markdown faults the session-5 reviewers found, each on a small page of our own: formulas
shown twice (KaTeX without ``aria-hidden``, MathJax v2), TeX and prose dollars read as
markdown, link-card lists dropped by content selection, descriptive "Photo 3 …" alts taken
for file names, unescaped frame titles."""

from __future__ import annotations

import re

import pytest
from markdown_it import MarkdownIt

from webresearch.extract import markdown_inline
from webresearch.extract.formulas import show_formulas
from webresearch.extract.html import extract_html
from webresearch.extract.markdown import element_to_markdown
from webresearch.extract.parse import parse_html

URL = "https://ferries.example.org/2025/winter-timetable.html"

PROSE = "".join(
    f"<p>Paragraph {i} explains how the ferry timetable changes in winter, which piers close "
    f"early, and where travellers can wait out of the wind before the boat arrives.</p>"
    for i in range(6)
)


def article(inner: str) -> str:
    return (
        "<!DOCTYPE html><html><head><title>Winter timetable</title></head><body>"
        "<header><nav><ul><li><a href='/'>Home</a></li><li><a href='/routes'>Routes</a></li>"
        "<li><a href='/contact'>Contact</a></li></ul></nav></header>"
        f"<main><article><h1>Winter timetable</h1>{inner}</article></main>"
        "<footer><p>© 2025 Bay Ferries</p></footer></body></html>"
    )


def md(html: str, url: str = URL) -> str:
    return extract_html(html, url).markdown


def plain_render(markdown: str) -> str:
    """What a CommonMark renderer without a math plugin shows (HTML)."""
    return str(MarkdownIt("commonmark").render(markdown))


# --------------------------------------------------------------------------- 1. formulas once


def katex_old(tex: str, mathml: str, glyphs: str, display: bool = False) -> str:
    """KaTeX before 0.10: no ``aria-hidden`` on the glyphs."""
    formula = (
        f"<span class='katex'><span class='katex-mathml'><math><semantics>{mathml}"
        f"<annotation encoding='application/x-tex'>{tex}</annotation></semantics></math>"
        f"</span><span class='katex-html'>{glyphs}</span></span>"
    )
    return f"<span class='katex-display'>{formula}</span>" if display else formula


def test_old_katex_without_aria_hidden_shows_the_formula_once() -> None:
    inline = katex_old(
        "v=d/t",
        "<mrow><mi>v</mi><mo>=</mo><mi>d</mi><mi mathvariant='normal'>/</mi><mi>t</mi></mrow>",
        "<span class='base'><span class='mord mathit'>v</span><span class='mrel'>=</span>"
        "<span class='mord mathit'>d</span><span class='mord'>/</span>"
        "<span class='mord mathit'>t</span></span>",
    )
    display = katex_old(
        "t=\\frac{d}{v}",
        "<mrow><mi>t</mi><mo>=</mo><mfrac><mi>d</mi><mi>v</mi></mfrac></mrow>",
        "<span class='mord mathit'>t</span><span class='mrel'>=</span><span class='mfrac'>"
        "<span class='vlist'><span>v</span><span>\u200b</span><span>d</span></span></span>",
        display=True,
    )
    out = md(article(f"<p>The speed is {inline} on the crossing.</p>{display}{PROSE}"))
    assert "The speed is $v=d/t$ on the crossing." in out
    assert "$$t=\\frac{d}{v}$$" in out
    assert "vd" not in out and "v=d/tv" not in out


def test_a_rendering_that_repeats_the_formula_text_is_dropped_whatever_its_class() -> None:
    formula = (
        "<span class='eq'><span class='sr'><math alttext='a+b'><mi>a</mi><mo>+</mo><mi>b</mi>"
        "</math></span><span class='eq-glyphs'><i>a</i> + <i>b</i></span></span>"
    )
    out = md(article(f"<p>The sum {formula} is the fare.</p>{PROSE}"))
    assert "The sum $a+b$ is the fare." in out


def test_a_table_cell_repeating_a_formula_in_words_stays() -> None:
    root = parse_html(
        "<table><tr><th>Symbol</th><th>Said</th></tr><tr><td><math alttext='v'><mi>v</mi>"
        "</math></td><td>v</td></tr></table>"
    )
    assert show_formulas(root) == 0
    out = element_to_markdown(root, URL)
    assert out.endswith("| $v$ | v |")


def test_mathjax_v2_script_becomes_the_formula_and_its_rendering_is_dropped() -> None:
    inline = (
        "<span class='MathJax_Preview' style='color: inherit;'></span>"
        "<span class='MathJax' id='MathJax-Element-1-Frame' tabindex='0' role='presentation'>"
        "<nobr><span class='math'><span class='mrow'><span class='mi'>v</span>"
        "<span class='mo'>=</span><span class='mi'>d</span><span class='mo'>/</span>"
        "<span class='mi'>t</span></span></span></nobr>"
        "<span class='MJX_Assistive_MathML' role='presentation'><math><mi>v</mi><mo>=</mo>"
        "<mi>d</mi><mo>/</mo><mi>t</mi></math></span></span>"
        "<script type='math/tex' id='MathJax-Element-1'>v=d/t</script>"
    )
    display = (
        "<div class='MathJax_SVG_Display'><span class='MathJax_SVG'><span>t = d v</span></span>"
        "</div><span class='mjx-chtml MJXc-display'><span>t = d v</span></span>"
        "<script type='math/tex; mode=display' id='MathJax-Element-2'>t = \\frac{d}{v}</script>"
    )
    out = md(article(f"<p>The speed is {inline} on the crossing.</p><p>{display}</p>{PROSE}"))
    assert "The speed is $v=d/t$ on the crossing." in out
    assert "$$t = \\frac{d}{v}$$" in out
    assert "t = d v" not in out and "v=d/tv" not in out


def test_a_mathjax_script_not_yet_typeset_still_gives_its_tex() -> None:
    out = md(article(f"<p>Fares grow as <script type='math/tex'>n^2</script> here.</p>{PROSE}"))
    assert "Fares grow as $n^2$ here." in out


# --------------------------------------------------------------------------- 2. dollars


def test_markdown_active_tex_is_rewritten_to_inert_tex() -> None:
    assert markdown_inline.math_source("a*b*c") == "a\\ast b\\ast c"
    assert markdown_inline.math_source("x^*") == "x^\\ast"
    assert markdown_inline.math_source("a\\*b") == "a\\*b"  # TeX's own discretionary times stays
    assert (
        markdown_inline.math_source("\\left(a\\right)_{n}+b_{m}") == "\\left(a\\right)_ {n}+b_{m}"
    )
    assert markdown_inline.math_source("_{i}x") == "_ {i}x"
    assert markdown_inline.math_source("a<b") == "a< b"
    assert markdown_inline.math_source("a < 2") == "a < 2"  # no tag can start there
    assert markdown_inline.math_source("x_i^2") == "x_i^2"
    assert markdown_inline.math_source("\\text{a*b} * c") == "\\text{a*b} \\ast c"
    assert markdown_inline.math_source("\\mbox{x_{1}}") == "\\mbox{x_{1}}"


def test_tex_inside_dollars_reads_as_no_emphasis_without_a_math_renderer() -> None:
    formula = (
        "<math><semantics><mi>x</mi><annotation encoding='application/x-tex'>a*b*c = "
        "(p)_{1}+(q)_{2}</annotation></semantics></math>"
    )
    out = md(article(f"<p>The product {formula} holds.</p>{PROSE}"))
    line = next(line for line in out.split("\n") if line.startswith("The product"))
    assert line == "The product $a\\ast b\\ast c = (p)_ {1}+(q)_ {2}$ holds."
    html = plain_render(line)
    assert "<em>" not in html and "<strong>" not in html


def test_prose_dollars_that_could_pair_are_escaped() -> None:
    out = md(article(f"<p>A day pass costs $5 and a week pass $10 on every boat.</p>{PROSE}"))
    assert "A day pass costs \\$5 and a week pass \\$10 on every boat." in out
    assert plain_render("A day pass costs \\$5 and a week pass \\$10").count("$") == 2


def test_a_prose_dollar_next_to_a_formula_is_escaped_and_a_lone_one_is_not() -> None:
    formula = "<math alttext='n'><mi>n</mi></math>"
    out = md(article(f"<p>Tickets cost $5 for {formula} riders.</p><p>Parking is $3.</p>{PROSE}"))
    assert "Tickets cost \\$5 for $n$ riders." in out
    assert "Parking is $3." in out


def test_dollars_pair_only_inside_one_cell_or_list_item() -> None:
    root = parse_html(
        "<table><tr><th>Plan</th><th>Price</th></tr><tr><td>Basic</td><td>$5</td></tr>"
        "<tr><td>Team</td><td>$9 or $7 yearly</td></tr></table>"
        "<ul><li>Day pass $5</li><li>Week pass $10</li></ul>"
    )
    out = element_to_markdown(root, URL)
    assert "| Basic | $5 |" in out
    assert "| Team | \\$9 or \\$7 yearly |" in out
    assert "- Day pass $5\n- Week pass $10" in out


def test_dollars_in_code_stay_as_written() -> None:
    root = parse_html("<p>Run <code>echo $HOME $PATH</code> and pay $5 or $6.</p>")
    assert element_to_markdown(root, URL) == "Run `echo $HOME $PATH` and pay \\$5 or \\$6."


# --------------------------------------------------------------------------- 3. card lists


def route_cards(count: int = 5) -> str:
    shores = ["north", "south", "east", "west", "inner", "outer"]
    return (
        "<ul class='route-cards'>"
        + "".join(
            f"<li><a href='/routes/{i}'><h3>The {shores[i]} shore loop</h3>"
            f"<p>{20 + 7 * i} minutes, {i + 2} stops.</p></a></li>"
            for i in range(count)
        )
        + "</ul>"
    )


def test_a_list_of_link_cards_inside_the_article_is_kept() -> None:
    out = md(article(PROSE[: len(PROSE) // 2] + "<h2>Routes</h2>" + route_cards() + PROSE))
    assert "### [The south shore loop](https://ferries.example.org/routes/1)" in out
    assert "27 minutes, 3 stops." in out
    assert out.count("shore loop") == 5


def test_a_menu_inside_the_article_stays_out() -> None:
    menu = (
        "<ul class='subnav'>"
        + "".join(
            f"<li><a href='/{w.lower()}'>{w}</a></li>" for w in ("Timetable", "Fares", "Piers")
        )
        + "</ul>"
    )
    out = md(article(PROSE[: len(PROSE) // 2] + menu + PROSE[len(PROSE) // 2 :]))
    assert "[Fares]" not in out


# --------------------------------------------------------------------------- 4. photo alts


@pytest.mark.parametrize(
    "alt",
    [
        "Photo 3 of the bridge at dusk, seen from the river",
        "Image 12: the ferry leaving the north pier",
    ],
)
def test_a_descriptive_alt_starting_like_a_file_name_is_kept(alt: str) -> None:
    image = f"<p><img src='/media/ferry-at-pier-7.jpg' alt='{alt}'></p>"
    out = md(article(PROSE[:400] + image + PROSE[400:]))
    assert "https://ferries.example.org/media/ferry-at-pier-7.jpg" in out


@pytest.mark.parametrize(
    "alt",
    [
        "Photo 3",
        "IMG_1234",
        "DSC01234.jpg",
        "img 0042",
        "north-pier-dusk_03",
        "Photo-12",
        "Img (3)_11zon",
    ],
)
def test_a_file_name_alt_is_still_dropped(alt: str) -> None:
    image = f"<p><img src='/media/ferry-at-pier-7.jpg' alt='{alt}'></p>"
    out = md(article(PROSE[:400] + image + PROSE[400:]))
    assert "ferry-at-pier-7.jpg" not in out


# --------------------------------------------------------------------------- 5. frame titles


def test_frame_titles_are_plain_text_in_markdown() -> None:
    html = (
        "<html><head><title>Ferries</title></head><frameset cols='20%,80%'>"
        "<frame src='menu.html' title='*Menu* [1]'><frame src='main.html' name='_main_`x`'>"
        "</frameset></html>"
    )
    out = md(html)
    assert "- [\\*Menu\\* \\[1\\]](https://ferries.example.org/2025/menu.html)" in out
    rendered = plain_render(out)
    assert "<em>" not in rendered and "<code>" not in rendered
    assert ">*Menu* [1]</a>" in rendered
    assert ">_main_`x`</a>" in rendered


def test_an_image_alt_is_plain_text_in_markdown() -> None:
    root = parse_html("<p><img src='/i/ferry.jpg' alt='The *fast* ferry [2] at `pier`'></p>")
    out = element_to_markdown(root, URL)
    assert (
        out
        == "![The \\*fast\\* ferry \\[2\\] at \\`pier\\`](https://ferries.example.org/i/ferry.jpg)"
    )
    assert 'alt="The *fast* ferry [2] at `pier`"' in plain_render(out)


def test_escape_inline_text_leaves_nothing_active() -> None:
    text = "*a* _b_ `c` [d](e) <f> \\g ~~h~~ &amp; $1 $2 ![i](j)"
    rendered = plain_render(markdown_inline.escape_inline_text(text))
    assert re.sub(r"</?p>|\n", "", rendered) == (
        "*a* _b_ `c` [d](e) &lt;f&gt; \\g ~~h~~ &amp;amp; $1 $2 ![i](j)"
    )
