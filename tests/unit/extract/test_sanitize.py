"""Invisible characters never reach a model through web_fetch's output (Trojan Source,
CVE-2021-42574; ASCII smuggling). The character classes themselves: tests/unit/test_invisible.py."""

from __future__ import annotations

import regex

from webresearch.tools.page_text import format_document
from webresearch.types import PageText

HIDDEN = regex.compile(r"[\p{Bidi_Control}\p{Block=Tags}\u200b]")


def test_web_fetch_output_has_no_bidi_controls_and_counts_what_it_shows() -> None:
    doc: PageText = {
        "url": "https://e.example/",
        "content_type": "text/plain",
        "title": "t\u202eitle",
        "text": "ab\u202ecd" * 10,
        "markdown": False,
    }
    out, meta = format_document(doc, 0, 1000)
    assert not HIDDEN.search(out)
    assert meta["total_bytes"] == len(("abcd" * 10).encode())
    assert meta["hidden_chars_removed"] == 11
    assert "note: 11 invisible characters were removed" in out


def test_a_document_counts_what_its_reader_removed_and_a_clean_one_has_no_note() -> None:
    doc: PageText = {
        "url": "https://e.example/",
        "content_type": "text/plain",
        "title": "title",
        "text": "plain text",
        "markdown": False,
    }
    out, meta = format_document({**doc, "hidden_chars_removed": 32}, 0, 1000)
    assert meta["hidden_chars_removed"] == 32 and "note: 32 invisible" in out
    out, meta = format_document(doc, 0, 1000)
    assert meta["hidden_chars_removed"] == 0 and "note:" not in out


def test_an_internal_dtd_subset_does_not_leak_into_the_text() -> None:
    from webresearch import html_to_markdown

    title, markdown = html_to_markdown(
        '<!DOCTYPE html [<!ENTITY x "y">]><html><head><title>T</title></head><body><p>Hello there.</p></body></html>',
        "https://e.example/",
    )
    assert title == "T" and "]>" not in markdown and "Hello there." in markdown
