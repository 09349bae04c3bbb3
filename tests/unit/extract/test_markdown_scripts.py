"""``<sup>`` / ``<sub>`` stay unambiguous: braced when the bare form could be read another way
(review 11, fault 2), the same in prose, inline code and ``<pre>`` blocks."""

from __future__ import annotations

import pytest

from webresearch.extract.markdown import element_to_markdown
from webresearch.extract.parse import parse_html

URL = "https://example.org/notes/page.html"


def md(body: str) -> str:
    return element_to_markdown(parse_html(f"<html><body>{body}</body></html>"), URL)


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        ("<p>Pump 10<sup>6</sup>5 litres.</p>", "Pump 10^{6}5 litres."),
        ("<p>Area x<sup>2</sup>y here.</p>", "Area x^{2}y here."),
        ("<p>Area x<sup>2y</sup> here.</p>", "Area x^{2y} here."),
        ("<p>Grows as 10<sup>n+1</sup>.</p>", "Grows as 10^{n+1}."),
        ("<p>Gap of 10<sup>-6</sup>m wide.</p>", "Gap of 10^{-6}m wide."),
        ("<p>Sum a<sub>i</sub>b<sub>j</sub> now.</p>", "Sum a_{i}b_j now."),
        ("<p>Tower a<sup>b</sup><sup>c</sup> now.</p>", "Tower a^{b}^{c} now."),
        ("<p>Energy E<sub>k</sub><sup>2</sup> now.</p>", "Energy E_{k}^{2} now."),
        ("<p>Gas CO<sub>2</sub>e per year.</p>", "Gas CO_{2}e per year."),
        (
            "<p>Link <a href='/n'>note<sup>3</sup></a>x.</p>",
            "Link [note^{3}](https://example.org/n)x.",
        ),
    ],
)
def test_a_script_followed_by_a_letter_or_digit_or_of_several_tokens_is_braced(
    html: str, expected: str
) -> None:
    assert md(html) == expected


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        ("<p>It makes 10<sup>6</sup> joules.</p>", "It makes 10^6 joules."),
        ("<p>About 5 m<sup>2</sup>.</p>", "About 5 m^2."),
        ("<p>Up to 2<sup>31</sup>&minus;1 rows.</p>", "Up to 2^31−1 rows."),
        ("<p>The 1<sup>st</sup> place.</p>", "The 1^st place."),
        ("<p>Brand<sup>®</sup> bench.</p>", "Brand® bench."),
        (
            "<p>Smith<sup><a href='#fn1'>1</a></sup> wrote.</p>",
            "Smith^[1](https://example.org/notes/page.html#fn1) wrote.",
        ),
    ],
)
def test_a_one_token_script_before_a_space_or_punctuation_stays_bare(
    html: str, expected: str
) -> None:
    assert md(html) == expected


def test_scripts_in_a_pre_block_keep_their_meaning() -> None:
    out = md("<pre>E = mc<sup>2</sup> and H<sub>2</sub>O and 10<sup>n+1</sup></pre>")
    assert out == "```\nE = mc^2 and H_{2}O and 10^{n+1}\n```"


def test_scripts_in_inline_code_follow_the_same_rule() -> None:
    assert md("<p>Try <code>x<sup>2</sup>y</code> now.</p>") == "Try `x^{2}y` now."
