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


ABOUT = (
    "<html><head><title>Seeing â€œ in the shop feed</title></head><body><main><article>"
    "<h1>Seeing â€œ in the shop feed</h1>"
    "<p>Our feed showed â€œ and â€” where the editor typed a quote and a dash.</p>"
    "<p>The dash — is three bytes, so a reader on Windows-1252 shows â€” instead.</p>"
    "<pre><code>print('—'.encode('utf-8').decode('cp1252'))  # â€”</code></pre>"
    "</article></main></body></html>"
)


def test_page_that_quotes_the_garbage_beside_the_real_characters_stays_as_written() -> None:
    """Review r16: a page about mojibake writes ``—`` and ``â€”`` in one sentence."""
    assert repair_mojibake(ABOUT) == ABOUT
    out = extract_html(ABOUT, URL)
    assert "Our feed showed â€œ and â€” where" in out.markdown, out.markdown
    assert "# â€”" in out.markdown and out.title == "Seeing â€œ in the shop feed"


def test_code_is_never_repaired_and_two_sources_are_repaired_apart() -> None:
    garbled = misread(TEXT, "cp1252")
    code = "<pre><code>sample = 'â€™ and â€œ'</code></pre>"
    html = (
        "<html><head><title>Winter – timetable</title></head><body><main><article>"
        f"<h1>Winter – timetable</h1><p>{garbled}</p>{code}<p>{garbled}</p>"
        "</article></main></body></html>"
    )
    repaired = repair_mojibake(html)
    assert code in repaired and "<h1>Winter – timetable</h1>" in repaired
    assert f"<p>{TEXT}</p>" in repaired, repaired
