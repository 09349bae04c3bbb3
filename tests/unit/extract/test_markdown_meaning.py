"""Markdown that keeps the page's meaning (review 11, fault 10): a heading's trailing ``#``
run, hard line breaks, breaks in table cells."""

from __future__ import annotations

from markdown_it import MarkdownIt

from webresearch.extract.markdown import element_to_markdown
from webresearch.extract.parse import parse_html

URL = "https://example.org/notes/page.html"


def md(body: str) -> str:
    return element_to_markdown(parse_html(f"<html><body>{body}</body></html>"), URL)


def rendered(markdown: str) -> str:
    return str(MarkdownIt("commonmark").enable("table").render(markdown))


def test_a_heading_ending_with_hashes_keeps_them() -> None:
    out = md("<h3>Channels to join ##</h3>")
    assert out == "### Channels to join \\#\\#"
    assert rendered(out) == "<h3>Channels to join ##</h3>\n"


def test_a_hash_inside_a_heading_word_is_left_alone() -> None:
    assert md("<h2>Learn C#</h2>") == "## Learn C#"


def test_a_line_break_in_a_paragraph_is_a_hard_break() -> None:
    out = md("<p>Mill Lane 4<br>Valley Town</p>")
    assert out == "Mill Lane 4\\\nValley Town"
    assert rendered(out) == "<p>Mill Lane 4<br />\nValley Town</p>\n"


def test_breaks_at_a_paragraph_edge_are_dropped_and_two_in_a_row_split_it() -> None:
    assert md("<p><br>Mill Lane<br></p>") == "Mill Lane"
    assert md("<p>Mill Lane<br><br>Valley Town</p>") == "Mill Lane\n\nValley Town"


def test_a_hard_break_keeps_the_next_line_plain_text() -> None:
    out = md("<p>Total<br>- 5 units<br>===</p>")
    assert rendered(out) == "<p>Total<br />\n- 5 units<br />\n===</p>\n"


def test_a_hard_break_in_a_list_item_and_a_quote() -> None:
    assert md("<ul><li>one<br>two</li></ul>") == "- one\\\n  two"
    assert md("<blockquote>one<br>two</blockquote>") == "> one\\\n> two"


def test_a_break_in_a_heading_or_a_link_is_a_space() -> None:
    assert md("<h2>Mill<br>Lane</h2>") == "## Mill Lane"
    assert md("<p><a href='/m'>Mill<br>Lane</a></p>") == "[Mill Lane](https://example.org/m)"


def test_a_break_and_a_paragraph_in_a_table_cell_are_both_br() -> None:
    out = md(
        "<table><tr><th>A</th><th>B</th></tr>"
        "<tr><td>line one<br>line two</td><td>para one<p>para two</p></td></tr></table>"
    )
    assert out.splitlines()[2] == "| line one<br>line two | para one<br>para two |"


def test_an_inline_quote_keeps_its_quotation_marks() -> None:
    out = md("<p>She said <q>plant in <q>early</q> spring</q> twice.</p>")
    assert out == "She said “plant in ‘early’ spring” twice."


def test_adjacent_code_elements_join_one_span() -> None:
    assert md("<p>Run <code>git</code><code>-C</code> now.</p>") == "Run `git-C` now."
    assert md("<p>Run <code>a</code> <code>b</code>.</p>") == "Run `a` `b`."


def test_a_definition_list_puts_terms_and_definitions_on_their_own_lines() -> None:
    out = md("<dl><dt>Loam</dt><dd>Rich soil.</dd><dt>Clay</dt><dd>Heavy.</dd><dd>Wet.</dd></dl>")
    assert out == "**Loam**\n: Rich soil.\n\n**Clay**\n: Heavy.\n: Wet."
    assert "<strong>Loam</strong>\n: Rich soil.</p>" in rendered(out)


def test_a_list_in_a_table_cell_keeps_one_item_a_line() -> None:
    out = md(
        "<table><tr><th>A</th><th>B</th></tr><tr><td>Steps</td><td><p>Do this:</p>"
        "<ul><li>one</li><li>two</li></ul><ol start='3'><li>three</li></ol></td></tr></table>"
    )
    assert out.splitlines()[2] == "| Steps | Do this:<br>- one<br>- two<br>3. three |"
    html = rendered(out)
    assert "<td>Do this:<br>- one<br>- two<br>3. three</td>" in html


def test_a_cell_line_that_only_looks_like_an_item_stays_escaped() -> None:
    out = md(
        "<table><tr><th>A</th><th>B</th></tr><tr><td>x</td><td>ten<br>- not an item</td></tr>"
        "</table>"
    )
    assert out.splitlines()[2] == "| x | ten<br>\\- not an item |"


def test_an_items_second_paragraph_in_a_cell_is_a_break_not_spaces() -> None:
    out = md(
        "<table><tr><th>A</th><th>B</th></tr><tr><td>x</td><td><ul><li><p>para one</p>"
        "<p>more</p></li><li>two</li></ul></td></tr></table>"
    )
    assert out.splitlines()[2] == "| x | - para one<br>more<br>- two |"


def test_a_code_block_in_a_table_cell_is_one_code_span_a_line() -> None:
    out = md(
        "<table><tr><th>A</th><th>B</th></tr><tr><td>x</td>"
        "<td><pre>a foo\n- b | c\nuse `x`</pre></td></tr></table>"
    )
    assert out.splitlines()[2] == "| x | `a foo`<br>`- b \\| c`<br>`` use `x` `` |"
    assert "<code>- b | c</code>" in rendered(out)
