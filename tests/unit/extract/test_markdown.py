"""The lxml → markdown converter: tables, lists, code, links, images, structure."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from webresearch.extract.markdown import element_to_markdown
from webresearch.extract.parse import parse_html

PAGE = "https://example.org/docs/guide/page.html"


def md(html: str, url: str = PAGE) -> str:
    doc = parse_html(f"<html><body>{html}</body></html>")
    return element_to_markdown(doc.find("body"), url)


def table_rows(markdown: str) -> list[list[str]]:
    """Cells of every pipe-table line (separator line excluded)."""
    rows = []
    for line in markdown.splitlines():
        if line.startswith("|") and not re.fullmatch(r"\|(?:---\|)+", line):
            cells = re.split(r"(?<!\\)\|", line.strip())[1:-1]
            rows.append([c.strip() for c in cells])
    return rows


# --------------------------------------------------------------------------- structure


def test_headings_paragraphs_emphasis_and_breaks() -> None:
    out = md(
        "<h2>Title <em>here</em></h2><p>One <b>bold</b> and <i>it</i>,<br>next line.</p><hr><h6>Small</h6>"
    )
    assert out == "## Title *here*\n\nOne **bold** and *it*,\\\nnext line.\n\n---\n\n###### Small"


def test_whitespace_is_collapsed_outside_code() -> None:
    assert md("<p>  many\n\n   spaces\there  </p><div>\n</div><p>x</p>") == "many spaces here\n\nx"


def test_emphasis_keeps_spaces_outside_the_markers() -> None:
    assert md("<p>a<strong> b </strong>c <em></em>d</p>") == "a **b** c d"


def test_blockquote_nested_paragraphs() -> None:
    assert md("<blockquote><p>one</p><p>two</p></blockquote>") == "> one\n>\n> two"


def test_scripts_styles_forms_and_media_are_not_text() -> None:
    out = md(
        "<p>keep</p><script>var x = 1;</script><style>p{}</style><noscript>enable js</noscript>"
        "<button>Share</button><select><option>One</option></select><iframe>frame</iframe>"
        "<svg><text>chart</text></svg><video>video</video>"
    )
    assert out == "keep"


def test_template_content_is_converted() -> None:
    assert "inside template" in md("<template><p>inside template</p></template>")


def test_line_starts_that_would_become_markup_are_escaped() -> None:
    out = md("<p># not a heading</p><p>1. not a list</p><p>- nor this</p><p>> nor a quote</p>")
    assert out.splitlines()[0] == "\\# not a heading"
    assert "1\\. not a list" in out  # second review: "\\1." showed its backslash
    assert "<p>1. not a list</p>" in MarkdownIt().render(out)
    assert "\\- nor this" in out
    assert "\\> nor a quote" in out


def test_identifiers_are_escaped_only_where_they_would_be_emphasis() -> None:
    # ``__init__`` alone is strong emphasis in CommonMark; ROUTE_UNKNOWN and a*b pair with nothing
    assert md("<p>ROUTE_UNKNOWN and __init__ and a*b</p>") == (
        "ROUTE_UNKNOWN and \\_\\_init\\_\\_ and a*b"
    )


# --------------------------------------------------------------------------- lists


def test_nested_lists_are_indented_under_their_item() -> None:
    out = md(
        "<ol start='3'><li>three<ul><li>a</li><li>b<ol><li>deep</li></ol></li></ul></li>"
        "<li><p>four</p><p>second paragraph</p></li></ol>"
    )
    assert out == ("3. three\n   - a\n   - b\n     1. deep\n4. four\n\n   second paragraph")


def test_definition_list() -> None:
    assert md("<dl><dt>Term</dt><dd>Meaning</dd></dl>") == "**Term**\n: Meaning"


def test_empty_list_items_are_dropped() -> None:
    assert md("<ul><li></li><li>x</li><li> </li></ul>") == "- x"


# --------------------------------------------------------------------------- code


def test_pre_becomes_a_fenced_block_keeping_whitespace_and_decoding_entities() -> None:
    out = md(
        "<pre><code class='language-python'>def f():\n    return a &lt; b &amp;&amp; c\n\n\nx = 1</code></pre>"
    )
    assert out == "```python\ndef f():\n    return a < b && c\n\n\nx = 1\n```"


@pytest.mark.parametrize(
    ("html", "info"),
    [
        ("<pre class='lang-js'>x</pre>", "js"),
        ("<pre><code class='hljs language-rust'>x</code></pre>", "rust"),
        (
            "<div class='highlight-python notranslate'><div class='highlight'><pre>x</pre></div></div>",
            "python",
        ),
        ("<pre data-lang='Go'>x</pre>", "go"),
        ("<pre class='brush: sql;'>x</pre>", "sql"),
        ("<pre class='language-none'>x</pre>", ""),
        ("<pre>x</pre>", ""),
    ],
)
def test_code_block_info_string(html: str, info: str) -> None:
    assert md(html).splitlines()[0] == "```" + info


def test_toolbar_buttons_and_line_numbers_are_not_code() -> None:
    out = md(
        "<div class='code-toolbar'><pre class='language-bash'><code>make all</code>"
        "<button>Copy</button></pre><div class='toolbar'><button>Copy</button></div></div>"
        "<pre><span class='linenos' aria-hidden='true'>1\n2</span><code>a\nb</code></pre>"
    )
    assert out == "```bash\nmake all\n```\n\n```\na\nb\n```"


def test_br_inside_pre_is_a_newline() -> None:
    assert md("<pre>one<br>two<br/>three</pre>") == "```\none\ntwo\nthree\n```"


def test_fence_is_longer_than_backtick_runs_inside() -> None:
    out = md("<pre>```\ninner\n```</pre>")
    assert out.startswith("````\n") and out.endswith("\n````")


def test_inline_code_with_backticks() -> None:
    assert md("<p>run <code>a`b</code> and <kbd>Ctrl</kbd></p>") == "run ``a`b`` and `Ctrl`"


def test_short_one_line_pre_is_kept() -> None:
    assert md("<p>Run:</p><pre>ls</pre>") == "Run:\n\n```\nls\n```"


def test_empty_pre_is_dropped() -> None:
    assert md("<p>a</p><pre> \n </pre><p>b</p>") == "a\n\nb"


# --------------------------------------------------------------------------- tables


def test_table_with_header_row() -> None:
    out = md("<table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr></table>")
    assert out == "| A | B |\n|---|---|\n| 1 | 2 |"


def test_table_without_header_uses_its_first_row() -> None:
    out = md("<table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>")
    assert out == "| a | b |\n|---|---|\n| c | d |"


def test_colspan_and_rowspan_are_padded_so_columns_line_up() -> None:
    out = md(
        "<table><caption>Cap</caption><thead>"
        "<tr><th rowspan=2>Region</th><th colspan=2>Deliveries</th><th colspan=2>Time</th></tr>"
        "<tr><th>H1</th><th>H2</th><th>H1</th><th>H2</th></tr></thead>"
        "<tbody><tr><td>North</td><td>1</td><td>2</td><td>3</td><td>4</td></tr></tbody></table>"
    )
    assert out.startswith("Cap\n\n| Region |")
    rows = table_rows(out)
    assert rows == [
        ["Region", "Deliveries", "", "Time", ""],
        ["", "H1", "H2", "H1", "H2"],
        ["North", "1", "2", "3", "4"],
    ]


def test_rowspan_in_the_middle_of_a_body() -> None:
    rows = table_rows(
        md(
            "<table><tr><th>a</th><th>b</th><th>c</th></tr>"
            "<tr><td>1</td><td rowspan=3>span</td><td>x</td></tr>"
            "<tr><td>2</td><td>y</td></tr><tr><td>3</td><td>z</td></tr></table>"
        )
    )
    assert rows == [["a", "b", "c"], ["1", "span", "x"], ["2", "", "y"], ["3", "", "z"]]


def test_ragged_rows_are_padded() -> None:
    rows = table_rows(
        md("<table><tr><th>a</th><th>b</th><th>c</th></tr><tr><td>1</td></tr></table>")
    )
    assert rows == [["a", "b", "c"], ["1", "", ""]]


def test_cells_escape_pipes_and_join_paragraphs() -> None:
    out = md(
        "<table><tr><th>k</th><th>v</th></tr><tr><td>a|b</td><td><p>one</p><p>two</p></td></tr></table>"
    )
    assert "| a\\|b |" in out
    assert table_rows(out)[1] == ["a\\|b", "one<br>two"]


def test_links_inside_cells() -> None:
    out = md(
        "<table><tr><th>name</th><th>x</th></tr><tr><td><a href='/p'>P</a></td><td>1</td></tr></table>"
    )
    assert "[P](https://example.org/p)" in out


@pytest.mark.parametrize(
    "html",
    [
        "<table><tr><td><p>Layout column</p><p>More text</p></td></tr></table>",
        "<table role='presentation'><tr><td>left</td><td>right</td></tr><tr><td>a</td><td>b</td></tr></table>",
    ],
)
def test_layout_tables_are_unwrapped(html: str) -> None:
    out = md(html)
    assert "|---" not in out
    assert out.strip()


def test_a_data_table_inside_a_layout_table_stays_a_table() -> None:
    out = md(
        "<table><tr><td><table><tr><td>inner</td><td>cell</td></tr><tr><td>x</td><td>y</td></tr>"
        "</table></td><td>side</td></tr></table>"
    )
    assert out == "| inner | cell |\n|---|---|\n| x | y |\n\nside"


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.lists(st.tuples(st.integers(1, 3), st.integers(1, 3)), min_size=1, max_size=4),
        min_size=2,
        max_size=6,
    )
)
def test_every_table_row_has_the_same_number_of_cells(spans: list[list[tuple[int, int]]]) -> None:
    body = "".join(
        "<tr>"
        + "".join(f"<td colspan={c} rowspan={r}>v{i}{j}</td>" for j, (c, r) in enumerate(row))
        + "</tr>"
        for i, row in enumerate(spans)
    )
    out = md(f"<table><tr>{''.join(f'<th>h{k}</th>' for k in range(3))}</tr>{body}</table>")
    rows = table_rows(out)
    if rows:
        assert len({len(r) for r in rows}) == 1
        texts = [c for r in rows for c in r if c.startswith("v")]
        assert len(texts) == sum(len(r) for r in spans)


# --------------------------------------------------------------------------- links and images


@pytest.mark.parametrize(
    ("href", "target"),
    [
        ("../intro/setup.html", "https://example.org/docs/intro/setup.html"),
        ("/static/logo.png", "https://example.org/static/logo.png"),
        ("//cdn.example.net/x.pdf", "https://cdn.example.net/x.pdf"),
        ("?page=2", "https://example.org/docs/guide/page.html?page=2"),
        ("#config", "https://example.org/docs/guide/page.html#config"),
        ("other.html", "https://example.org/docs/guide/other.html"),
        ("  other.html\n", "https://example.org/docs/guide/other.html"),
        ("http://elsewhere.test/a b(c)", "http://elsewhere.test/a%20b%28c%29"),
        ("mailto:support@example.org", "mailto:support@example.org"),
        ("tel:+123", "tel:+123"),
    ],
)
def test_links_are_made_absolute(href: str, target: str) -> None:
    assert md(f"<p><a href='{href}'>link</a></p>") == f"[link]({target})"


@pytest.mark.parametrize(
    "href", ["javascript:void(0)", "JavaScript:alert(1)", "data:text/html,x", "", "vbscript:x"]
)
def test_script_and_data_links_keep_only_their_text(href: str) -> None:
    assert md(f"<p><a href='{href}'>text</a></p>") == "text"


def test_link_without_href_or_text() -> None:
    assert md("<p><a name='x'>anchor</a> <a href='/y'></a>end</p>") == "anchor end"


def test_images_absolute_lazy_and_data_uris() -> None:
    out = md(
        "<p><img src='../img/a.png' alt='A'>"
        "<img src='data:image/gif;base64,R0lGOD' data-src='/lazy.jpg' alt='lazy'>"
        "<img srcset='/small.jpg 1x, /big.jpg 2x' alt='set'>"
        "<img src='data:image/png;base64,AAAA' alt='inline'></p>"
    )
    assert "![A](https://example.org/docs/img/a.png)" in out
    assert "![lazy](https://example.org/lazy.jpg)" in out
    assert "![set](https://example.org/small.jpg)" in out
    assert "data:" not in out


def test_image_inside_link() -> None:
    assert md("<a href='/big.png'><img src='/small.png' alt='pic'></a>") == (
        "[![pic](https://example.org/small.png)](https://example.org/big.png)"
    )


def test_link_text_brackets_are_escaped_when_unbalanced() -> None:
    assert md("<a href='/x'>a ] b</a>") == "[a \\] b](https://example.org/x)"


_HREF = st.one_of(
    st.sampled_from(
        ["", "/", "#", "?", "./", "../", "//host.test/", "javascript:", "mailto:a@b.c", "data:x"]
    ),
    st.text(alphabet="abc/.?#=&-_ ()<>%", max_size=20),
).flatmap(
    lambda prefix: st.text(alphabet="abc/.?#=&-_ ()", max_size=15).map(lambda rest: prefix + rest)
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_HREF, min_size=1, max_size=6))
def test_link_targets_are_never_relative_and_never_in_angle_brackets(hrefs: list[str]) -> None:
    html = "".join(
        f'<p><a href="{h.replace(chr(34), "")}">t{i}</a> <img src="{h.replace(chr(34), "")}" alt=i{i}></p>'
        for i, h in enumerate(hrefs)
    )
    out = md(html)
    for target in re.findall(r"\]\(([^)\s]*)\)", out):
        assert target.startswith(("https://", "http://", "mailto:", "tel:", "ftp://")), target
        assert not target.startswith("<")


# --------------------------------------------------------------------------- robustness


def test_ten_thousand_levels_of_nesting_convert_without_recursion() -> None:
    html = "<div>" * 10_000 + "<p>deep text</p>" + "</div>" * 10_000 + "<p>after</p>"
    out = md(html)
    assert "deep text" in out
    assert "after" in out


def test_whitespace_beyond_ascii_in_an_address_is_percent_encoded() -> None:
    # macOS screenshot names hold a narrow no-break space (U+202F) before "AM": left as
    # written, a reader splitting at whitespace read the address's tail as prose
    name = "Screen Shot 9.57\u202fAM\u00a0copy.png"
    out = md(f"<p>See the chart: <img src='/img/{name}' alt='Costs by room'> and more.</p>")
    assert (
        "![Costs by room](https://example.org/img/Screen%20Shot%209.57%E2%80%AFAM%C2%A0copy.png)"
        in out
    ), out
    assert re.search(r"!\[[^\]]*\]\(\S+\)", out), out


def test_a_footnote_reference_into_the_page_is_its_mark_alone() -> None:
    out = md(
        "<p>Rest two days between sessions.<a class='fn-ref' href='#fn-16'><sup>[16]</sup></a>"
        " Sleep matters too<a href='#fn-17'>(17)</a>; see <a href='https://x.org/s'>[18]</a>.</p>"
        "<ol><li id='fn-16'>A 2019 study of 40 runners. <a href='#ref-16'>↩︎</a></li></ol>"
    )
    assert "sessions.^[16] Sleep matters too(17); see [[18]](https://x.org/s)." in out, out
    assert "#fn-" not in out and "#ref-" not in out and "↩" not in out, out
    assert "1. A 2019 study of 40 runners." in out, out
