"""A directory listing's rules: a table row holding only an ``<hr>`` is no pipe-table row
(extract/markdown_tables.py), an ``<hr>`` in a ``<pre>`` ends its line
(extract/code_blocks.py); review n-17, on pages of our own."""

from __future__ import annotations

from webresearch.extract.html import extract_html

URL = "http://127.0.0.1:8000/maps/"
RULE_ROW = "<tr><th colspan='3'><hr></th></tr>"


def test_a_row_holding_only_a_rule_is_left_out_of_the_table() -> None:
    page = (
        "<html><head><title>Index of /maps</title></head><body><h1>Index of /maps</h1><table>"
        "<tr><th><a href='?C=N'>Name</a></th><th><a href='?C=M'>Last modified</a></th>"
        f"<th><a href='?C=S'>Size</a></th></tr>{RULE_ROW}"
        "<tr><td><a href='coast.png'>coast.png</a></td><td>2026-10-02 09:12</td><td>88K</td></tr>"
        "<tr><td><a href='hills.png'>hills.png</a></td><td>2026-10-03 11:40</td><td>95K</td></tr>"
        f"{RULE_ROW}</table></body></html>"
    )
    markdown = extract_html(page, URL).markdown
    assert "coast.png" in markdown and "hills.png" in markdown
    assert "| --- |" not in markdown
    lines = [line for line in markdown.split("\n") if line.startswith("|")]
    assert lines[1] == "|---|---|---|"
    assert len(lines) == 4  # the header, its rule, two files


def test_a_rule_in_a_pre_ends_its_line() -> None:
    page = (
        "<html><head><title>Index of /maps</title></head><body><h1>Index of /maps</h1>"
        "<pre><a href='?C=N'>Name</a>        <a href='?C=S'>Size</a><hr>"
        "<a href='coast.png'>coast.png</a>   88K\n<a href='hills.png'>hills.png</a>   95K\n"
        "<hr></pre></body></html>"
    )
    markdown = extract_html(page, URL).markdown
    # its lines start with links: lines with their links, not code (pre_links.py)
    assert (
        "[Name](http://127.0.0.1:8000/maps/?C=N) [Size](http://127.0.0.1:8000/maps/?C=S)\\\n"
        "[coast.png](http://127.0.0.1:8000/maps/coast.png) 88K\\\n"
        "[hills.png](http://127.0.0.1:8000/maps/hills.png) 95K"
    ) in markdown
