"""Every output on the in-repo corpus sample is valid markdown (markdown-it-py parses it and
no code fence runs unclosed to the end of the page)."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from webresearch.extract.html import extract_html

SAMPLE = Path(__file__).resolve().parents[2] / "fixtures" / "corpus-sample"
PAGES = sorted(SAMPLE.glob("*/*.html.gz"))


def unclosed_fences(markdown: str) -> list[int]:
    """Line numbers of code fences that markdown-it closes only at the end of the text."""
    lines = markdown.split("\n")
    bad = []
    for token in MarkdownIt("commonmark").enable("table").parse(markdown):
        if token.type == "fence" and token.map is not None:
            end = token.map[1]
            # the closing line without the markers of a blockquote holding the fence
            last = re.sub(r"^(?:\s*>)*\s*", "", lines[end - 1]) if 0 < end <= len(lines) else ""
            if end - token.map[0] < 2 or not last.startswith(token.markup):
                bad.append(token.map[0] + 1)
    return bad


def test_the_sample_is_there() -> None:
    assert len(PAGES) >= 16


@pytest.mark.parametrize("path", PAGES, ids=lambda p: f"{p.parent.name}/{p.name[:12]}")
def test_corpus_sample_output_is_valid_markdown(path: Path) -> None:
    html = gzip.decompress(path.read_bytes()).decode("utf-8", errors="replace")
    markdown = extract_html(html, "https://example.org/page").markdown
    assert markdown.strip()
    assert unclosed_fences(markdown) == []


def test_an_unclosed_fence_is_detected() -> None:
    assert unclosed_fences("text\n\n```python\nx = 1\n") == [3]
    assert unclosed_fences("```\nx = 1\n```") == []


def test_a_fence_inside_a_blockquote_is_closed_by_its_quoted_fence() -> None:
    quoted = "> Try this:\n>\n> ```\n> dtparam=act_led_trigger=none\n> ```\n>\n> Thanks\n"
    assert unclosed_fences(quoted) == []
    assert unclosed_fences("> ```\n> no end\n\nafter the quote\n") == [1]
