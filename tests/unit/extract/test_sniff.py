"""Content sniffing: bytes win over a lying Content-Type (case 19)."""

from __future__ import annotations

import pytest

from webresearch.extract.sniff import describe_mime, sniff_mime

from .cases import route
from .pdfs import make_pdf

PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + b"\x00" * 20


def test_case_19_routes() -> None:
    assert (
        sniff_mime(route("19-content-type-lies", "/memo.txt").body, "text/plain")
        == "application/pdf"
    )
    blob = route("19-content-type-lies", "/blob")
    assert sniff_mime(blob.body, blob.content_type) == "image/png"
    index = route("19-content-type-lies", "/downloads/")
    assert sniff_mime(index.body, index.content_type) == "text/html"


@pytest.mark.parametrize(
    ("body", "mime"),
    [
        (make_pdf([["x"]]), "application/pdf"),
        (b"\n  %PDF-1.7 rest", "application/pdf"),
        (PNG, "image/png"),
        (b"\xff\xd8\xff\xe0\x00\x10JFIF", "image/jpeg"),
        (b"GIF89a\x01\x00", "image/gif"),
        (b"RIFF\x24\x00\x00\x00WEBPVP8 ", "image/webp"),
        (b"\x00\x00\x00\x1cftypavif\x00\x00", "image/avif"),
        (b"\x00\x00\x00\x18ftypisom\x00\x00", "video/mp4"),
        (
            b"PK\x03\x04\x14\x00\x00\x00word/document.xml",
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        ),
        (b"PK\x03\x04\x14\x00\x00\x00other.txt", "application/zip"),
        (b"\x1f\x8b\x08\x00\x00\x00", "application/gzip"),
        (b"\x7fELF\x02\x01\x01", "application/x-executable"),
        (b"BM\x36\x00\x0c\x00\x00\x00\x00\x00\x36\x00", "image/bmp"),
        (b"ID3\x04\x00\x00\x00\x00", "audio/mpeg"),
        (b"SQLite format 3\x00", "application/vnd.sqlite3"),
    ],
)
@pytest.mark.parametrize(
    "header", [None, "text/plain", "text/html; charset=utf-8", "application/octet-stream"]
)
def test_magic_numbers_win_over_any_header(body: bytes, mime: str, header: str | None) -> None:
    assert sniff_mime(body, header) == mime


@pytest.mark.parametrize(
    "body",
    [
        b"<!DOCTYPE html><html><body>x</body></html>",
        b"\xef\xbb\xbf  <!doctype HTML>",
        b"\n\n<!-- generated --><html lang=en>",
        b"<head><title>t</title></head>",
        b"<BODY>text",
        b"<frameset cols='20%,80%'><frame src='menu.html'></frameset>",
        b"\n<FRAMESET>",
        b'<?xml version="1.0"?>\n<!DOCTYPE html>',
    ],
)
@pytest.mark.parametrize(
    "header",
    [None, "application/octet-stream", "binary/octet-stream", "image/png", "application/pdf"],
)
def test_html_markers_make_generic_or_binary_labels_html(body: bytes, header: str | None) -> None:
    assert sniff_mime(body, header) == "text/html"


def test_text_labels_are_trusted_for_text() -> None:
    html = b"<!DOCTYPE html><html></html>"
    assert sniff_mime(html, "text/plain") == "text/plain"  # like a browser: shown as source
    assert sniff_mime(html, "application/xml") == "application/xml"
    assert sniff_mime(b'{"a": 1}', "application/json; charset=utf-8") == "application/json"
    assert sniff_mime(b"a,b\n1,2", "Text/CSV") == "text/csv"


def test_nul_bytes_make_a_text_body_binary_unless_utf16() -> None:
    assert sniff_mime(b"hello\x00world", "text/plain") == "application/octet-stream"
    assert sniff_mime("hello".encode("utf-16-le"), "text/plain; charset=utf-16le") == "text/plain"
    assert sniff_mime(b"\xff\xfe" + "hi".encode("utf-16-le"), "text/plain") == "text/plain"


def test_missing_or_generic_header_is_guessed_from_the_bytes() -> None:
    assert sniff_mime(b"just words", None) == "text/plain"
    assert sniff_mime(b"just words", "application/octet-stream") == "text/plain"
    assert sniff_mime(b"\x01\x02\x03\x04\x05\x06" * 20, None) == "application/octet-stream"
    assert sniff_mime(b'<?xml version="1.0"?><rss/>', None) == "application/xml"
    assert sniff_mime(b"", None) == "text/plain"


def test_header_type_is_normalised() -> None:
    assert sniff_mime(b"x", "  TEXT/Markdown ; charset=UTF-8") == "text/markdown"


def test_text_that_merely_starts_like_a_signature_is_text() -> None:
    assert sniff_mime(b"BMW cars are fast", "text/plain") == "text/plain"
    assert sniff_mime(b"ID3 tags explained", "text/plain") == "text/plain"
    assert sniff_mime(b"MZ is a country code", "text/plain") == "text/plain"


def test_descriptions() -> None:
    assert describe_mime("image/png") == "a PNG image (image/png)"
    assert describe_mime("application/pdf") == "a PDF document (application/pdf)"
    assert describe_mime("video/mp4") == "a video (video/mp4)"
    assert describe_mime("application/x-foo") == "a binary file (application/x-foo)"


def _random_bytes_without_nul(size: int) -> bytes:
    import random

    rng = random.Random(7)
    return bytes(rng.randrange(1, 256) for _ in range(size))


@pytest.mark.parametrize("label", ["text/html", "text/plain", "text/html; charset=utf-8"])
def test_random_bytes_without_a_nul_labelled_as_text_are_binary(label: str) -> None:
    # about 11% of random bytes are WHATWG binary data bytes; none of them is a NUL here
    body = _random_bytes_without_nul(8192)
    assert b"\x00" not in body
    assert sniff_mime(body, label) == "application/octet-stream"
    assert sniff_mime(body, None) == "application/octet-stream"


def test_a_page_with_a_few_stray_nuls_is_still_read_as_its_label_says() -> None:
    from webresearch.extract.dispatch import convert

    page = (
        b"<html><head><title>Stray\x00bytes</title></head><body><p>Text\x00with a few\x00"
        b"NUL bytes and words enough to be the content of a short page.</p></body></html>"
    )
    assert sniff_mime(page, "text/html") == "text/html"
    converted = convert(page, "text/html", "http://127.0.0.1/p")
    assert "\x00" not in converted.text and "\x00" not in converted.title
    assert "NUL bytes and words enough" in converted.text
    plain = b"A log file\x00 with one stray NUL in it, otherwise ordinary text lines.\n" * 4
    assert sniff_mime(plain, "text/plain") == "text/plain"
    assert "\x00" not in convert(plain, "text/plain", "http://127.0.0.1/log.txt").text


def test_utf16_text_is_not_binary_for_its_nuls() -> None:
    body = "plain text in UTF-16".encode("utf-16-le") * 20
    assert sniff_mime(body, "text/plain; charset=utf-16le") == "text/plain"
