"""The fast paths of extraction give the same answers as the plain ones."""

from __future__ import annotations

import re

import pytest

from webresearch.extract.align import normalise, page_text_size, text_segments
from webresearch.extract.caseless import CaselessPattern
from webresearch.extract.parse import parse_html

_WORDS = "related|promo|icon|\\bads?\\b|edit-?section"


@pytest.mark.parametrize(
    "text",
    [
        "Related-Posts",
        "card PROMO",
        "nav-Icon-large",
        "top ADS banner",
        "Edit-Section",
        "nothing here",
        "ſomething promo",  # long s: non-ASCII text takes the re.IGNORECASE path
        "relaſted",
        "Kelvin \u212a icon",
        "",
    ],
)
def test_caseless_pattern_matches_as_ignorecase(text: str) -> None:
    reference = re.compile(_WORDS, re.I)
    pattern = CaselessPattern(_WORDS)
    assert (pattern.search(text) is None) == (reference.search(text) is None)
    assert (pattern.fullmatch(text) is None) == (reference.fullmatch(text) is None)


def test_caseless_pattern_refuses_upper_case_literals() -> None:
    with pytest.raises(ValueError, match="lower case"):
        CaselessPattern("Logo|icon")
    CaselessPattern(r"\bads?\b|\W+")  # escapes are fine


@pytest.mark.parametrize(
    ("html", "kept"),
    [
        ("<p>a\x00b\x1fc\ufffed\uffffe</p>", "abcde"),
        ("<p>caf\u00e9 \x0b ok</p>", "caf\u00e9  ok"),
        ("<p>plain \u00e9t\u00e9 text</p>", "plain \u00e9t\u00e9 text"),
    ],
)
def test_parse_drops_control_characters(html: str, kept: str) -> None:
    doc = parse_html(html)
    assert doc.findtext(".//p") == kept


def test_normalise_and_sizes_agree_with_segments() -> None:
    doc = parse_html(
        "<body><div>\n  <p>One, two\u00a0three!</p>\n  <script>var x</script>tail \u0130x"
        "<select><option>no</option></select>  </div></body>"
    )
    body = doc.find("body")
    assert body is not None
    segments = list(text_segments(body))
    assert [s.norm for s in segments] == ["onetwothree", "tail" + "\u0130x".lower()]
    assert page_text_size(body) == sum(len(s.norm) for s in segments)
    assert normalise(" A\tb_c\u2003D-9 ") == "abcd9"
