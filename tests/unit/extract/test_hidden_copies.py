"""A hidden copy of a block shown right beside it (a code example's raw text for its copy
button) is left out; a hidden panel of its own (a closed tab) stays."""

from __future__ import annotations

from lxml import html as lxml_html

from webresearch.extract.align import page_text_size
from webresearch.extract.hidden_copies import repeats_a_sibling
from webresearch.extract.html import extract_html
from webresearch.extract.page_noise import hidden_blocks
from webresearch.extract.parse import parse_html

PROSE = (
    "<p>A watering schedule is a small text file; the timer reads it every morning and "
    "opens each valve for the minutes written next to the bed's name.</p>"
)
# long enough to be read as a closed panel's prose (collapsed_panels.MIN_COLLAPSED_CHARS)
CODE = "beds:\n" + "".join(
    f"  - name: {bed}\n    minutes: {minutes}\n    valve: north-{bed}\n"
    for bed, minutes in (
        ("tomatoes", 12),
        ("lettuce", 5),
        ("beans", 9),
        ("carrots", 7),
        ("onions", 6),
        ("peppers", 11),
        ("spinach", 4),
        ("squash", 14),
    )
)
# the raw copy first (read by the copy button), then the shown, highlighted one
TWIN_BLOCKS = (
    f"<div class='code-block'><pre hidden>{CODE}</pre>"
    f"<pre class='language-yaml'><code class='language-yaml'>{CODE}</code></pre></div>"
)
TAB = (
    "<div class='tabs'><div class='tab' role='tabpanel'><p>Use the summer schedule from June to August, "
    "when the beds dry out before noon and every valve opens twice a day.</p></div>"
    "<div class='tab' role='tabpanel' hidden><p>Use the winter schedule from December to February, when "
    "the greenhouse beds need water once a week and the outdoor valves stay shut.</p></div>"
    "</div>"
)


def page(block: str) -> str:
    return (
        "<html><head><title>Watering schedule</title></head><body><main>"
        f"<h1>Watering schedule</h1>{PROSE * 2}{block}{PROSE * 2}</main></body></html>"
    )


def test_a_hidden_copy_of_a_shown_code_block_is_left_out() -> None:
    doc = parse_html(page(TWIN_BLOCKS))
    [raw_copy, shown] = doc.iter("pre")
    doomed = hidden_blocks(doc, page_text_size(doc.find("body")))
    # long enough to pass for a closed panel's prose, yet a copy: left out
    assert raw_copy in doomed and shown not in doomed
    markdown = extract_html(page(TWIN_BLOCKS), "https://garden.example/schedule").markdown
    assert markdown.count("valve: north-squash") == 1
    assert "```yaml\nbeds:" in markdown


def test_a_hidden_tab_of_its_own_stays() -> None:
    doc = parse_html(page(TAB))
    assert hidden_blocks(doc, page_text_size(doc.find("body"))) == []
    markdown = extract_html(page(TAB), "https://garden.example/schedule").markdown
    assert "summer schedule" in markdown and "winter schedule" in markdown


def test_a_copy_must_hold_the_same_words() -> None:
    tree = lxml_html.fromstring(
        "<div><p hidden>The tomatoes get twelve minutes of water every single morning.</p>"
        "<p>The tomatoes get twelve minutes of water every single evening.</p></div>"
    )
    hidden = tree[0]
    assert not repeats_a_sibling(hidden, page_text_size(hidden))
    tree[1].text = "The tomatoes get twelve minutes of water every single morning."
    assert repeats_a_sibling(hidden, page_text_size(hidden))
