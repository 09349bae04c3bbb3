"""A markdown window never ends inside a link: ``[text](url`` cut short is a broken link
(its target lost or wrong), so the cut moves before the link when no line break is near."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from webresearch.cli.main import cli
from webresearch.extract.budget import cut_window

LEAD = "Words that come first, before the link, and more words to pad the line; see "
LINK = "[the install guide](https://docs.example.org/guide/install_(full))"
IMAGE_LINK = "[![logo](https://example.org/logo.png)](https://example.org/home)"
#: a link is whole, or absent: no ``[`` or ``](`` left open at the end of the window
_OPEN = re.compile(r"!?\[[^\]]*$|\]\([^)]*$|\]$")


@pytest.mark.parametrize("link", [LINK, IMAGE_LINK])
def test_no_cut_inside_a_link(link: str) -> None:
    text = LEAD + link + " and the words after it."
    for budget in range(len(LEAD) + 1, len(text)):
        window = cut_window(text, 0, budget, markdown=True)
        kept = window.text
        assert len(kept.encode()) <= budget
        whole = link in kept
        assert whole or "[" not in kept, (budget, kept)
        if not whole:
            assert window.end == len(LEAD), budget  # before the link: the next window has it


def test_a_cut_between_text_and_target_moves_before_the_link() -> None:
    text = LEAD + LINK + " after"
    window = cut_window(text, 0, len(LEAD) + LINK.index("](") + 1, markdown=True)
    assert window.text == LEAD


def test_plain_brackets_and_escapes_do_not_move_the_cut() -> None:
    text = "x " * 60 + r"[1] and \[not a link here at all and more words follow here"
    window = cut_window(text, 0, len(text) - 5, markdown=True)
    assert window.end == len(text) - 5
    closed = "x " * 60 + "[done](https://a.org/b) then words and words and words"
    assert cut_window(closed, 0, len(closed) - 4, markdown=True).end == len(closed) - 4


def test_fetch_max_bytes_keeps_links_whole(tmp_path: Path) -> None:
    page = tmp_path / "links.html"
    page.write_text(
        "<html><head><title>Links</title></head><body><article><h1>Links</h1><p>"
        + LEAD
        + '<a href="https://docs.example.org/guide/install">the install guide</a>'
        + " for the details of each option and the defaults.</p></article></body></html>",
        encoding="utf-8",
    )
    for max_bytes in (110, 130, 150, 170):
        result = CliRunner().invoke(
            cli,
            ["fetch", str(page), "--max-bytes", str(max_bytes)],
            env={"WEBRESEARCH_JOURNAL_URL": "memory://"},
        )
        assert result.exit_code == 0, result.stderr
        body = result.stdout.split("[truncated at", 1)[0].rstrip()
        assert _OPEN.search(body) is None, (max_bytes, body[-60:])
