"""UTF-8 decoded once more as Latin-1 or Windows-1252 is put right (extract/mojibake.py), on
small pages of our own."""

from __future__ import annotations

import pytest

from webresearch.extract.html import extract_html
from webresearch.extract.mojibake import repair_mojibake

URL = "https://ferries.example.org/notes/winter-timetable"

TEXT = (
    "The ferry’s winter timetable starts in November — two crossings a day, not six. "
    "Café Öresund on the quay stays open… “until the last boat”, the owner says. "
    "Tickets cost 12 € at the kiosk; a season pass costs 140 €. 🚢"
)


def misread(text: str, codec: str) -> str:
    """``text``'s UTF-8 bytes read as ``codec``, each byte that codec leaves undefined as
    the C1 control of that number (as the WHATWG windows-1252 decoder does)."""
    chars = []
    for byte in text.encode("utf-8"):
        try:
            chars.append(bytes([byte]).decode(codec))
        except UnicodeDecodeError:
            chars.append(chr(byte))
    return "".join(chars)


def page(text: str) -> str:
    return (
        "<!DOCTYPE html><html><head><title>Winter timetable</title></head><body>"
        f"<main><article><h1>Winter timetable</h1><p>{text}</p><p>{text}</p></article>"
        "</main></body></html>"
    )


@pytest.mark.parametrize("codec", ["latin-1", "cp1252"])
def test_double_decoded_utf8_is_put_right(codec: str) -> None:
    garbled = misread(TEXT, codec)
    assert "ferry’s" not in garbled
    out = extract_html(page(garbled), URL).markdown
    assert "The ferry’s winter timetable starts in November — two crossings" in out, out
    assert "Café Öresund" in out and "“until the last boat”" in out and "12 €" in out, out


def test_text_in_its_own_encoding_stays_as_written() -> None:
    assert repair_mojibake(page(TEXT)) == page(TEXT)
    # Latin letters that could look like the start of a sequence, without the evidence
    latin = "Ã la carte: the menu of Â«Chez Ôtaniâ» costs 20 € — and â€ once is no proof."
    assert repair_mojibake(latin) == latin


def test_windows_1252_punctuation_read_as_controls_is_put_right_with_the_rest() -> None:
    """A page whose UTF-8 was read as Latin-1 (the evidence) and whose older paragraphs hold
    Windows-1252 punctuation read as C1 controls (``shouldn\\x92t``): ftfy puts both right."""
    garbled = misread(TEXT, "latin-1") + " I just don\x92t trust it\x85"
    out = extract_html(page(garbled), URL).markdown
    assert "I just don’t trust it…" in out, out
    assert "\x92" not in out and "\x85" not in out
