"""Bidirectional override controls never reach a model (Trojan Source, CVE-2021-42574)."""

from __future__ import annotations

from webresearch.extract.sanitize import BIDI_CONTROLS, strip_bidi_controls
from webresearch.tools.page_text import format_document
from webresearch.types import PageText


def test_override_and_isolate_controls_are_removed_rtl_text_is_kept() -> None:
    text = "safe \u202eevil\u202c text \u2066x\u2069 שלום \u200f"
    out = strip_bidi_controls(text)
    assert not any(c in out for c in BIDI_CONTROLS)
    assert "שלום \u200f" in out


def test_web_fetch_output_has_no_bidi_controls_and_counts_what_it_shows() -> None:
    doc: PageText = {
        "url": "https://e.example/",
        "content_type": "text/plain",
        "title": "t\u202eitle",
        "text": "ab\u202ecd" * 10,
        "markdown": False,
    }
    out, meta = format_document(doc, 0, 1000)
    assert not any(c in out for c in BIDI_CONTROLS)
    assert meta["total_bytes"] == len(("abcd" * 10).encode())


def test_an_internal_dtd_subset_does_not_leak_into_the_text() -> None:
    from webresearch import html_to_markdown

    title, markdown = html_to_markdown(
        '<!DOCTYPE html [<!ENTITY x "y">]><html><head><title>T</title></head><body><p>Hello there.</p></body></html>',
        "https://e.example/",
    )
    assert title == "T" and "]>" not in markdown and "Hello there." in markdown
