"""A code block's language label ("css" above a ```css block) is left out; other labels stay."""

from __future__ import annotations

from lxml import html as lxml_html

from webresearch.extract.code_labels import code_labels
from webresearch.extract.html import extract_html

INTRO = (
    "<p>Garden beds are drawn as a grid of boxes; each box gets a border and a soft shadow "
    "so the planner can tell the raised beds from the paths between them at a glance.</p>"
)
OUTRO = (
    "<p>With the style in place, the planner draws every bed the same way, and a new bed "
    "needs nothing more than one more box in the grid of the garden page.</p>"
)
# MDN's form: the header holds the language name, the <pre> follows it
HEADER_LABEL = (
    "<div class='code-example'><div class='example-header'><span class='language-name'>"
    "css</span></div><pre class='brush: css notranslate'><code>.bed {\n  border: 1px solid;"
    "\n}</code></pre></div>"
)
# VitePress's form: a copy button, then the label, then the block
SPAN_LABEL = (
    "<div class='language-js'><button title='Copy Code' class='copy'></button>"
    "<span class='lang'>js</span><pre class='shiki'><code>plant('tomato', 3)</code></pre>"
    "</div>"
)
# a file name above a block is information the fence does not hold
FILE_LABEL = (
    "<div class='code-example'><div class='title'>beds.css</div>"
    "<pre class='language-css'><code>.path { color: grey; }</code></pre></div>"
)


def page(block: str) -> str:
    return (
        "<html><head><title>Styling the beds</title></head><body><main>"
        f"<h1>Styling the beds</h1>{INTRO * 2}{block}{OUTRO * 2}</main></body></html>"
    )


def test_a_language_name_header_above_its_block_is_left_out() -> None:
    markdown = extract_html(page(HEADER_LABEL), "https://garden.example/beds").markdown
    assert "```css\n.bed {" in markdown
    assert "\ncss\n" not in markdown
    assert "the raised beds" in markdown and "one more box" in markdown


def test_a_label_after_a_copy_button_is_left_out() -> None:
    markdown = extract_html(page(SPAN_LABEL), "https://garden.example/beds").markdown
    assert "```js\nplant('tomato', 3)" in markdown
    assert "\njs\n" not in markdown


def test_a_file_name_over_a_block_is_kept() -> None:
    markdown = extract_html(page(FILE_LABEL), "https://garden.example/beds").markdown
    assert "beds.css" in markdown
    assert "```css\n.path" in markdown


def test_only_labels_equal_to_the_blocks_language_are_found() -> None:
    doc = lxml_html.fromstring(
        f"<div>{HEADER_LABEL}{FILE_LABEL}<p>js</p><pre>no language here</pre></div>"
    )
    found = code_labels(doc)
    assert ["".join(el.itertext()) for el in found] == ["css"]
    assert found[0].get("class") == "example-header"


def test_a_paragraph_naming_the_language_in_the_texts_flow_is_kept() -> None:
    """Review of session 10: a paragraph whose text is the block's language, among the
    article's paragraphs (no box of the block's own), is prose, not a label."""
    block = (
        "<p>The planner's script is short; it is written in</p><p>js</p>"
        "<pre><code class='language-js'>plant('bean', 4)</code></pre>"
    )
    markdown = extract_html(page(block), "https://garden.example/beds").markdown
    assert "written in\n\njs\n\n```js\nplant('bean', 4)" in markdown
    doc = lxml_html.fromstring(f"<div>{INTRO}<p>js</p><pre class='language-js'>x()</pre></div>")
    assert code_labels(doc) == []


def test_a_line_number_gutter_beside_a_code_box_is_left_out() -> None:
    gutter = "".join(f"<div class='h-5 px-2'>{n}</div>" for n in range(1, 8))
    viewer = (
        f"<div class='flex'><div class='w-8 font-mono'>{gutter}</div>"
        "<div class='overflow-auto'><pre><code>bed = Bed(width=2)\nbed.plant('tomato')"
        "</code></pre></div></div>"
    )
    steps = "<table><tr><th>1</th><th>2</th><th>3</th></tr><tr><td>dig</td><td>sow</td>"
    steps += "<td>water</td></tr></table>"
    page = (
        "<html><head><title>Beds</title></head><body><article><h1>Beds</h1>"
        f"{INTRO}{viewer}{OUTRO}{steps}{INTRO}</article></body></html>"
    )
    out = extract_html(page, "https://garden.example.com/beds").markdown
    assert "bed.plant('tomato')" in out, out
    assert "5" not in out.replace("bed", ""), out  # no "1 2 3 4 5 6 7" paragraph
    assert "| 1 | 2 | 3 |" in out, out  # a table's numbered header stays
