"""What a body really is: content sniffing over a lying Content-Type. Pure functions.

Bytes win over the header where the header can lie harmfully (SPEC §1.1, cases 19 and 38):

* magic numbers of binary formats (PDF, images, archives, executables, media, fonts…) win
  over any header;
* a body whose header is missing, generic (``application/octet-stream``, ``*/*``…) or names
  a binary type (``image/png``…) is judged by its bytes alone, with :func:`text_kind`:
  HTML markers (``<!DOCTYPE html``, ``<html``, ``<head``, ``<body``, ``<frameset`` and the
  WHATWG list, after a BOM, whitespace and comments) make it HTML, ``<svg`` SVG, ``<?xml`` XML, text
  with binary data bytes (NUL included, UTF-16 aside) in at most 1% of it plain text; only bytes that
  are none of these keep the binary label. So text served as ``image/png`` is text;
* a "text" body is binary (``application/octet-stream``) when more than 5% of its first
  KiB are binary data bytes (WHATWG MIME Sniffing §3: 0x00–0x08, 0x0B, 0x0E–0x1A,
  0x1C–0x1F), unless it is UTF-16 (a BOM, or a UTF-16 charset in the header). A share,
  not any NUL: random bytes without a NUL (about 11% such bytes) are refused, and a page a
  browser shows with a few stray NULs (the parser drops them) is read;
* otherwise the header's type is kept (lower-cased, parameters dropped).

:func:`text_kind` is the one rule web_fetch and fetch_image share
(:func:`webresearch.images.sniff.sniff` uses it for everything that is not an image it
knows): a body one tool sends to the other is one the other reads, so an agent never loops
between them.
"""

from __future__ import annotations

import re
from typing import Literal

__all__ = [
    "LABELLED_TEXT_BINARY_SHARE",
    "SNIFF_BYTES",
    "UNLABELLED_TEXT_BINARY_SHARE",
    "TextKind",
    "binary_share",
    "describe_mime",
    "is_html_mime",
    "label_note",
    "sniff_mime",
    "text_kind",
]

#: What a body is as text (see :func:`text_kind`).
TextKind = Literal["html", "svg", "xml", "text"]

#: How much of the body is looked at for binary data bytes and markers.
SNIFF_BYTES = 1024

#: Share of binary data bytes in the first KiB above which a body *labelled* as text is
#: binary. Random bytes hold about 27/255 ≈ 10.6% (100 ± 10 in a KiB); text in any
#: ASCII-compatible encoding none (ISO-2022 uses ESC, not a binary data byte).
LABELLED_TEXT_BINARY_SHARE = 0.05
#: The same share for a body with no label or a binary one: there the bytes alone decide.
UNLABELLED_TEXT_BINARY_SHARE = 0.01

# (offset, signature, mime) — checked in order.
_MAGIC: tuple[tuple[int, bytes, str], ...] = (
    (0, b"%PDF-", "application/pdf"),
    (0, b"\x89PNG\r\n\x1a\n", "image/png"),
    (0, b"\xff\xd8\xff", "image/jpeg"),
    (0, b"GIF87a", "image/gif"),
    (0, b"GIF89a", "image/gif"),
    (0, b"\x00\x00\x01\x00", "image/x-icon"),
    (0, b"II*\x00", "image/tiff"),
    (0, b"MM\x00*", "image/tiff"),
    (0, b"\x00\x00\x00\x0cjP  \r\n\x87\n", "image/jp2"),
    (0, b"\xff\x0a", "image/jxl"),
    (0, b"8BPS\x00\x01", "image/vnd.adobe.photoshop"),
    (0, b"PK\x03\x04", "application/zip"),
    (0, b"PK\x05\x06", "application/zip"),
    (0, b"\x1f\x8b", "application/gzip"),
    (4, b"1AY&SY", "application/x-bzip2"),
    (0, b"\xfd7zXZ\x00", "application/x-xz"),
    (0, b"7z\xbc\xaf\x27\x1c", "application/x-7z-compressed"),
    (0, b"Rar!\x1a\x07", "application/vnd.rar"),
    (0, b"\x28\xb5\x2f\xfd", "application/zstd"),
    (257, b"ustar", "application/x-tar"),
    (0, b"\x7fELF", "application/x-executable"),
    (0, b"\xca\xfe\xba\xbe", "application/java-vm"),
    (0, b"\xcf\xfa\xed\xfe", "application/x-mach-binary"),
    (0, b"\xce\xfa\xed\xfe", "application/x-mach-binary"),
    (0, b"\x00asm", "application/wasm"),
    (0, b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "application/x-ole-storage"),
    (0, b"SQLite format 3\x00", "application/vnd.sqlite3"),
    (0, b"OggS\x00", "audio/ogg"),
    (0, b"fLaC\x00", "audio/flac"),
    (0, b"ID3\x02\x00", "audio/mpeg"),
    (0, b"ID3\x03\x00", "audio/mpeg"),
    (0, b"ID3\x04\x00", "audio/mpeg"),
    (0, b"MThd\x00\x00\x00\x06", "audio/midi"),
    (0, b"\x1a\x45\xdf\xa3", "video/webm"),
    (0, b"wOFF", "font/woff"),
    (0, b"wOF2", "font/woff2"),
    (0, b"OTTO\x00", "font/otf"),
    (0, b"\x00\x01\x00\x00\x00", "font/ttf"),
)
_RIFF = {b"WEBP": "image/webp", b"WAVE": "audio/wav", b"AVI ": "video/x-msvideo"}
_FTYP = {
    b"avif": "image/avif",
    b"avis": "image/avif",
    b"heic": "image/heic",
    b"heix": "image/heic",
    b"mif1": "image/heif",
    b"qt  ": "video/quicktime",
    b"M4A ": "audio/mp4",
}
_ZIP_KINDS = (
    (b"mimetypeapplication/epub+zip", "application/epub+zip"),
    (b"mimetypeapplication/vnd.oasis.opendocument.text", "application/vnd.oasis.opendocument.text"),
    (
        b"mimetypeapplication/vnd.oasis.opendocument.spreadsheet",
        "application/vnd.oasis.opendocument.spreadsheet",
    ),
    (b"word/", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
    (b"xl/", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
    (b"ppt/", "application/vnd.openxmlformats-officedocument.presentationml.presentation"),
)

#: An HTML document's first tag; a frameset page may open with its ``<frameset>`` (HTML 4.01
#: §16.2: it takes the body's place), which the WHATWG list does not name.
_HTML_START = re.compile(rb"<(?:!doctype\s+html|html|head|body|frameset)(?:[\s>/]|$)", re.I)
#: WHATWG MIME Sniffing §7.1: tags that make an unlabelled resource HTML (then space or >).
_HTML_TAGS = re.compile(
    rb"<(?:script|iframe|h1|div|font|table|a|style|title|b|br|p|!--|meta|link)(?:[\s>/]|$)",
    re.I,
)
_SVG_START = re.compile(rb"<(?:svg|!doctype\s+svg)(?:[\s>/]|$)", re.I)
_SKIP = re.compile(rb"(?:\s+|<!--.*?-->|<\?xml[^>]*\?>)*", re.S)
_GENERIC = frozenset(
    {"", "application/octet-stream", "application/unknown", "unknown/unknown", "*/*", "binary/octet-stream",
     "application/x-download", "application/force-download", "application/binary"}
)  # fmt: skip
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")

_DESCRIPTIONS = {
    "application/pdf": "a PDF document",
    "image/png": "a PNG image",
    "image/jpeg": "a JPEG image",
    "image/gif": "a GIF image",
    "image/webp": "a WebP image",
    "image/avif": "an AVIF image",
    "image/heic": "a HEIC image",
    "image/heif": "a HEIF image",
    "image/tiff": "a TIFF image",
    "image/bmp": "a BMP image",
    "image/x-icon": "an icon image",
    "image/svg+xml": "an SVG image",
    "application/zip": "a ZIP archive",
    "application/gzip": "a gzip archive",
    "application/x-bzip2": "a bzip2 archive",
    "application/x-xz": "an xz archive",
    "application/x-7z-compressed": "a 7-Zip archive",
    "application/vnd.rar": "a RAR archive",
    "application/x-tar": "a tar archive",
    "application/zstd": "a zstd archive",
    "application/x-executable": "an executable program",
    "application/x-msdownload": "a Windows program",
    "application/octet-stream": "binary data",
    "application/wasm": "a WebAssembly module",
    "application/epub+zip": "an EPUB e-book",
    "application/x-ole-storage": "an old Microsoft Office file",
    "application/vnd.sqlite3": "an SQLite database",
}


def _magic(head: bytes) -> str | None:
    for offset, signature, mime in _MAGIC:
        if head.startswith(signature, offset):
            if mime == "application/zip":
                return next((kind for marker, kind in _ZIP_KINDS if marker in head[:2048]), mime)
            return mime
    if head.startswith(b"RIFF") and head[8:12] in _RIFF:
        return _RIFF[head[8:12]]
    if head[4:8] == b"ftyp":
        brand = head[8:12]
        return _FTYP.get(brand, "video/mp4")
    if head.startswith(b"BM") and len(head) > 10 and head[6:10] == b"\x00\x00\x00\x00":
        return "image/bmp"
    if head.startswith(b"MZ") and b"\x00" in head[:SNIFF_BYTES]:
        return "application/x-msdownload"
    return None


def _header_mime(content_type: str | None) -> str:
    return (content_type or "").split(";", 1)[0].strip().lower()


def _utf16_declared(content_type: str | None) -> bool:
    return bool(content_type) and "utf-16" in (content_type or "").lower().replace("_", "-")


def is_html_mime(mime: str) -> bool:
    """True for the MIME types converted as HTML (``text/html``, XHTML)."""
    return mime in ("text/html", "application/xhtml+xml", "application/vnd.wap.xhtml+xml")


def _textual(mime: str) -> bool:
    return (
        mime.startswith("text/")
        or mime.endswith(("+xml", "+json", "/xml", "/json"))
        or mime in ("application/javascript", "application/ecmascript", "application/x-javascript")
    )


def _without_bom(head: bytes) -> tuple[bytes, bool]:
    """(the bytes after a BOM, UTF-16 code units narrowed to bytes; whether it was UTF-16)."""
    if head.startswith(b"\xef\xbb\xbf"):
        return head[3:], False
    if head.startswith(_UTF16_BOMS):
        return head[2:].replace(b"\x00", b""), True
    return head, False


def text_kind(body: bytes, *, utf16: bool = False) -> TextKind | None:
    """What a body is as text, judged by its bytes alone; ``None`` when it is binary.

    The one rule web_fetch and fetch_image share (module docstring): no magic number of a
    binary format (leading whitespace allowed); then ``html`` (HTML start or one of the
    WHATWG tags, after a BOM, whitespace, comments and an XML declaration), ``svg``,
    ``xml`` (``<?xml``), else ``text`` when binary data bytes (:func:`binary_share`, NUL
    bytes counted unless UTF-16) are at most 1% of the first KiB.

    Args:
        body: the body, or at least its first 4 KiB.
        utf16: the header declares a UTF-16 charset (NUL bytes are then expected).
    """
    head = body[: SNIFF_BYTES * 4]
    if _magic(head.lstrip(b"\t\n\r ") if head[:1].isspace() else head) is not None:
        return None
    text, bom16 = _without_bom(head)
    match = _SKIP.match(text)
    start = text[match.end() if match else 0 :]
    if _HTML_START.match(start) or _HTML_TAGS.match(start):
        return "html"
    if _SVG_START.match(start) or (text.lstrip().startswith(b"<?xml") and b"<svg" in text.lower()):
        return "svg"
    if text.lstrip().startswith(b"<?xml"):
        return "html" if re.search(rb"<html[\s>]", text, re.I) else "xml"
    sample = text[:SNIFF_BYTES] if bom16 else head[:SNIFF_BYTES]
    if utf16 or bom16:
        sample = sample.replace(b"\x00", b"")
    return None if binary_share(sample) > UNLABELLED_TEXT_BINARY_SHARE else "text"


#: The MIME type web_fetch reads each text kind as, when the header does not say.
_KIND_MIME: dict[TextKind, str] = {
    "html": "text/html",
    "svg": "image/svg+xml",
    "xml": "application/xml",
    "text": "text/plain",
}


def sniff_mime(body: bytes, content_type: str | None) -> str:
    """The effective MIME type of a body.

    Args:
        body: the (decompressed) body bytes; only the first :data:`SNIFF_BYTES` (plus a
            little more for archive kinds) are looked at.
        content_type: the HTTP ``Content-Type`` value, or ``None`` when absent.

    Returns:
        a lower-case MIME type without parameters, e.g. ``"application/pdf"`` for PDF bytes
        labelled ``text/plain``, ``"text/html"`` for an HTML page labelled
        ``application/octet-stream``, ``"application/octet-stream"`` for a "text" body whose
        first KiB is more than 5% binary data bytes (:func:`binary_share`), else the header's type (``"application/octet-stream"`` when there is none
        and the body is binary, ``"text/plain"`` when it is text).
    """
    head = body[: SNIFF_BYTES * 4]
    declared = _header_mime(content_type)
    magic = _magic(head.lstrip(b"\t\n\r ") if head[:1].isspace() else head)
    if magic is not None:
        return magic
    utf16 = head.startswith(_UTF16_BOMS) or _utf16_declared(content_type)
    if declared in _GENERIC or not _textual(declared):
        # No label, or a binary one without the bytes of its format: the bytes decide,
        # by the rule fetch_image uses too (text labelled image/png is text, case 38).
        kind = text_kind(head, utf16=utf16)
        if kind is None:
            return "application/octet-stream" if declared in _GENERIC else declared
        return _KIND_MIME[kind]
    if not utf16 and binary_share(head[:SNIFF_BYTES]) > LABELLED_TEXT_BINARY_SHARE:
        return "application/octet-stream"
    return declared


_BINARY_DATA_BYTES = bytes([*range(0x00, 0x09), 0x0B, *range(0x0E, 0x1B), *range(0x1C, 0x20)])


def binary_share(sample: bytes) -> float:
    """The share (0.0–1.0) of ``sample``'s bytes that are *binary data bytes* as the WHATWG
    MIME Sniffing Standard (§3, "Terminology") defines them: 0x00–0x08, 0x0B, 0x0E–0x1A,
    0x1C–0x1F — control bytes other than tab, line feed, form feed, carriage return and
    escape. 0.0 for an empty sample."""
    if not sample:
        return 0.0
    return (len(sample) - len(sample.translate(None, _BINARY_DATA_BYTES))) / len(sample)


def describe_mime(mime: str) -> str:
    """A short human name for a MIME type, e.g. ``"a PNG image (image/png)"``."""
    name = _DESCRIPTIONS.get(mime)
    if name is None:
        kind = mime.split("/", 1)[0]
        name = {"image": "an image", "audio": "audio", "video": "a video", "font": "a font"}.get(
            kind, "a binary file"
        )
    return f"{name} ({mime})"


def label_note(content_type: str | None, mime: str) -> str | None:
    """What to tell the model when the server's label and the bytes disagree, or ``None``.

    Args:
        content_type: the ``Content-Type`` as sent.
        mime: the effective type (:func:`sniff_mime`).

    Returns:
        e.g. ``"the server labelled this image/png, but the bytes are text/plain"`` when a
        specific label (not a generic one such as ``application/octet-stream``) names
        another type than the bytes (HTML and XHTML count as one).
    """
    declared = _header_mime(content_type)
    if declared in _GENERIC or declared == mime or (is_html_mime(declared) and is_html_mime(mime)):
        return None
    return f"the server labelled this {declared}, but the bytes are {mime}"
