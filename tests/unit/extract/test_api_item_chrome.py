"""Source links and release notes beside API items, and rustdoc's hidden "Expand
description" label, are left out; a source link written in a sentence stays."""

from __future__ import annotations

from lxml import html as lxml_html

from webresearch.extract.api_item_chrome import api_item_chrome
from webresearch.extract.html import extract_html

URL = "https://docs.example/seedbox/struct.Tray.html"

INTRO = (
    "<p>A tray holds the seedlings of one bed until they are planted out; it knows how many "
    "cells it has and which of them are already sown with a seed.</p>"
)


def method(name: str, since: str, doc: str) -> str:
    """One item as rustdoc writes it: the note before the heading, the doc after it."""
    return (
        f"<details class='toggle method-toggle' open><summary><section id='method.{name}' "
        f"class='method'><span class='rightside'><span class='since' title='Stable since "
        f"{since}'>{since}</span> · <a class='src' href='../src/seedbox/tray.rs.html#10'>"
        f"Source</a></span><h4 class='code-header'>pub fn {name}(&amp;self) -&gt; usize</h4>"
        f"</section></summary><div class='docblock'><p>{doc}</p></div></details>"
    )


RUSTDOC = (
    "<html><head><title>Tray in seedbox</title></head><body><main><section id='main-content'>"
    "<div class='main-heading'><h1>Struct <span class='struct'>Tray</span></h1>"
    "<span class='sub-heading'><span class='since'>0.3.0</span> · "
    "<a class='src' href='../src/seedbox/tray.rs.html#1-80'>Source</a> </span></div>"
    "<details class='toggle top-doc' open><summary class='hideme'><span>Expand description"
    f"</span></summary><div class='docblock'>{INTRO * 2}</div></details>"
    "<h2 id='implementations'>Implementations</h2>"
    + method("cells", "0.3.0", "Returns how many cells the tray has, sown or not, counted once.")
    + method("sown", "0.4.1", "Returns how many cells of the tray already hold a seed today.")
    + method("empty", "0.5.0", "Returns how many cells are still waiting for their seed to go in.")
    + "</section></main></body></html>"
)

SPHINX = (
    "<html><head><title>seedbox.tray</title></head><body><div role='main'>"
    "<h1>seedbox.tray</h1>" + INTRO * 2 + "<dl class='py function'><dt class='sig sig-object py'>"
    "<span class='sig-name descname'>count_cells</span>(<em>tray</em>)"
    "<a class='reference internal' href='../_modules/seedbox/tray.html#count_cells'>"
    "<span class='viewcode-link'><span class='pre'>[source]</span></span></a></dt>"
    "<dd><p>Count the cells of a tray, the sown and the empty ones together.</p></dd></dl>"
    "</div></body></html>"
)


def test_rustdoc_source_links_and_release_notes_are_left_out() -> None:
    markdown = extract_html(RUSTDOC, URL).markdown
    assert "Source" not in markdown
    assert "0.3.0" not in markdown and "0.4.1" not in markdown and "0.5.0" not in markdown
    assert "Expand description" not in markdown
    # the items themselves stay: their headings and their descriptions
    assert "pub fn sown(&self) -> usize" in markdown
    assert "already hold a seed today" in markdown
    assert "still waiting for their seed" in markdown
    assert "which of them are already sown" in markdown


def test_a_sphinx_viewcode_link_is_left_out() -> None:
    markdown = extract_html(SPHINX, "https://docs.example/seedbox/tray.html").markdown
    assert "[source]" not in markdown and "_modules" not in markdown
    assert "count_cells" in markdown
    assert "the sown and the empty ones together" in markdown


def test_a_source_link_in_a_sentence_stays() -> None:
    page = (
        "<html><body><main><h1>Trays</h1>" + INTRO * 2 + "<p>The counting is simple; read "
        "the <a href='https://code.example/seedbox/tray.rs'>source</a> of the tray module "
        "to see how the cells are walked.</p></main></body></html>"
    )
    markdown = extract_html(page, "https://docs.example/trays").markdown
    assert "[source](https://code.example/seedbox/tray.rs)" in markdown


def test_a_long_note_keeps_its_text_and_loses_only_the_link() -> None:
    note = (
        "<div><span class='rightside'>Added when trays learnt to count their own cells, "
        "long before the seed catalogue existed · <a class='src' href='/src/t.rs'>Source"
        "</a></span><h4>pub fn cells</h4></div>"
    )
    tree = lxml_html.fromstring(note)
    [found] = api_item_chrome(tree)
    assert found.tag == "a"


def test_a_collapsed_descriptions_label_stays() -> None:
    # closed: the reader sees the label and clicks it to read the description
    closed = (
        "<div><details class='toggle top-doc'><summary class='hideme'><span>Expand "
        "description</span></summary><p>The tray.</p></details></div>"
    )
    assert api_item_chrome(lxml_html.fromstring(closed)) == []
