"""Bytes → text: which character encoding a document is in, and decoding it. Pure functions.

SPEC §1.1 order, as the HTML standard does it: a byte order mark wins, then the ``charset``
parameter of the HTTP ``Content-Type``, then (HTML only) a ``<meta charset>`` or
``<meta http-equiv="Content-Type">`` found by the standard's *prescan* of the first 1024 bytes,
then statistical detection (:mod:`webresearch.extract.charset_detect`), then UTF-8.

Labels follow the WHATWG Encoding Standard (``webencodings.lookup``): ``iso-8859-1``,
``latin1`` and ``ascii`` mean windows-1252, ``gb2312`` means GBK, and so on. Each WHATWG
encoding is decoded with the Python codec that matches it (:data:`PYTHON_CODECS`: the GBK
decoder is really GB18030, Big5 includes HKSCS, EUC-KR is Windows-949, Shift_JIS is
Windows-31J). A label Python cannot decode (``replacement``, an unknown name), or a declared
encoding the bytes clearly are not in, falls through to the next step. Decoding errors become
U+FFFD only as a last resort.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass
from typing import Literal

import webencodings

from webresearch.extract.charset_detect import detect_encoding

__all__ = [
    "PRESCAN_LIMIT_BYTES",
    "PYTHON_CODECS",
    "Decoded",
    "EncodingSource",
    "charset_from_content_type",
    "decode_document",
    "decode_with",
    "prescan_meta_charset",
    "whatwg_encoding",
]

EncodingSource = Literal["bom", "header", "meta", "detected", "default"]

#: How many bytes the ``<meta>`` prescan looks at (the HTML standard's 1024).
PRESCAN_LIMIT_BYTES = 1024

#: A declared encoding is kept when at most this share of its non-ASCII bytes fail to decode
#: (a stray byte in a footer); more than that means the label is wrong.
TOLERATED_ERROR_SHARE = 0.01

#: WHATWG encoding name → Python codec that decodes it as the standard does.
PYTHON_CODECS: dict[str, str] = {
    "utf-8": "utf-8",
    "utf-16be": "utf-16-be",
    "utf-16le": "utf-16-le",
    "gbk": "gb18030",  # the WHATWG GBK decoder is the GB18030 decoder
    "gb18030": "gb18030",
    "big5": "big5hkscs",
    "shift_jis": "cp932",
    "euc-jp": "euc_jp",
    "iso-2022-jp": "iso2022_jp",
    "euc-kr": "cp949",
    "ibm866": "cp866",
    "koi8-r": "koi8_r",
    "koi8-u": "koi8_u",
    "macintosh": "mac_roman",
    "x-mac-cyrillic": "mac_cyrillic",
    "windows-874": "cp874",
    "iso-8859-8-i": "iso8859_8",
}

#: Encodings with one byte per character: bytes their Python codec leaves undefined are
#: C1 controls in the WHATWG tables, never a decoding error.
_SINGLE_BYTE_PREFIXES = ("windows-", "iso-8859-", "koi8-", "ibm866", "macintosh", "x-mac-")

_BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_BE, "utf-16be"),
    (codecs.BOM_UTF16_LE, "utf-16le"),
)

_CHARSET_PARAM = re.compile(r"""charset\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s;,"']+))""", re.I)
_SURROGATE_ESCAPES = re.compile("[\udc80-\udcff]")


@dataclass(frozen=True, slots=True)
class Decoded:
    """A decoded document.

    Attributes:
        text: the document text, without a byte order mark.
        encoding: WHATWG name of the encoding used (e.g. ``"windows-1251"``, ``"utf-8"``).
        source: where the encoding came from: ``bom``, ``header`` (Content-Type charset),
            ``meta`` (HTML prescan), ``detected`` (statistics) or ``default`` (UTF-8, nothing
            else applied).
    """

    text: str
    encoding: str
    source: EncodingSource


def whatwg_encoding(label: str | None) -> str | None:
    """The WHATWG encoding name for a label, or ``None`` when we cannot decode it.

    ``None`` for an unknown label and for ``replacement`` (labels such as ``iso-2022-kr`` that
    the standard deliberately refuses). ``x-user-defined`` maps to windows-1252: its
    private-use code points carry no meaning a model could read.
    """
    if not label:
        return None
    found = webencodings.lookup(label)
    if found is None or found.name == "replacement":
        return None
    if found.name == "x-user-defined":
        return "windows-1252"
    name = str(found.name)
    try:
        codecs.lookup(PYTHON_CODECS.get(name, name))
    except LookupError:
        return None
    return name


def charset_from_content_type(content_type: str | None) -> str | None:
    """The raw ``charset`` parameter of a Content-Type value (unvalidated), or ``None``."""
    if not content_type or ";" not in content_type:
        return None
    match = _CHARSET_PARAM.search(content_type.split(";", 1)[1])
    if match is None:
        return None
    value = next(g for g in match.groups() if g is not None).strip()
    return value or None


def decode_with(body: bytes, encoding: str) -> tuple[str, int]:
    """Decode ``body`` as the WHATWG ``encoding``; undecodable bytes become U+FFFD.

    An incomplete multi-byte sequence at the very end (a body cut by the download cap) is
    dropped rather than counted. Bytes a single-byte table leaves undefined become the C1
    control of the same value, as in the WHATWG tables.

    Args:
        body: the bytes (no BOM).
        encoding: a WHATWG encoding name (as returned by :func:`whatwg_encoding`).

    Returns:
        ``(text, errors)``: the text and how many bytes or sequences did not decode.

    Raises:
        LookupError: Python has no codec for ``encoding``.
    """
    codec = PYTHON_CODECS.get(encoding, encoding)
    decoder = codecs.getincrementaldecoder(codec)(errors="strict")
    try:
        return decoder.decode(body, final=False), 0
    except UnicodeDecodeError:
        pass
    try:
        decoder = codecs.getincrementaldecoder(codec)(errors="surrogateescape")
        text = decoder.decode(body, final=False)
    except UnicodeDecodeError:  # UTF-16 errors can cover ASCII bytes: no escape possible
        text = body.decode(codec, errors="replace")
        return text, max(1, text.count("\ufffd"))
    errors = len(_SURROGATE_ESCAPES.findall(text))
    if encoding.startswith(_SINGLE_BYTE_PREFIXES):
        return _SURROGATE_ESCAPES.sub(lambda m: chr(ord(m.group()) - 0xDC00), text), 0
    return _SURROGATE_ESCAPES.sub("\ufffd", text), errors


def _acceptable(body: bytes, errors: int, text: str = "", encoding: str = "") -> bool:
    """Few enough errors that the declared encoding is right and the bytes slightly broken.

    For UTF-8 the decoded characters also count as evidence: text in another encoding
    almost never forms valid multi-byte UTF-8 sequences, so a short page whose accented
    words all decode, beside one stray byte, is UTF-8 (browsers keep the declared UTF-8
    and show one U+FFFD) even where that byte is more than :data:`TOLERATED_ERROR_SHARE`
    of its non-ASCII bytes.
    """
    if errors == 0:
        return True
    non_ascii = len(body) - len(body.translate(None, bytes(range(0x80, 0x100))))
    if errors <= TOLERATED_ERROR_SHARE * non_ascii:
        return True
    if encoding != "utf-8":
        return False
    decoded = sum(1 for ch in text if ch > "\x7f") - text.count("\ufffd")
    return decoded >= 4 * errors


def decode_document(body: bytes, content_type: str | None, *, html: bool) -> Decoded:
    """Decode a downloaded document following the SPEC §1.1 order.

    Args:
        body: the (decompressed) body bytes.
        content_type: the HTTP ``Content-Type`` header value, or ``None`` when absent.
        html: the body is HTML (enables the ``<meta>`` prescan of the first 1024 bytes).

    Returns:
        the text (BOM stripped), the WHATWG name of the encoding and where it came from.
        Never raises: a body no declared encoding fits is detected, and a last-resort decode
        replaces undecodable bytes with U+FFFD.
    """
    for bom, bom_encoding in _BOMS:
        if body.startswith(bom):
            text, _ = decode_with(body[len(bom) :], bom_encoding)
            return Decoded(text, bom_encoding, "bom")

    fallback: tuple[str, str, EncodingSource] | None = None
    declared: list[tuple[str | None, EncodingSource]] = [
        (whatwg_encoding(charset_from_content_type(content_type)), "header"),
    ]
    if html:
        declared.append((prescan_meta_charset(body), "meta"))
    for label, source in declared:
        if label is None:
            continue
        text, errors = decode_with(body, label)
        if _acceptable(body, errors, text, label):
            return Decoded(text, label, source)
        if fallback is None:
            fallback = (text, label, source)

    guess = detect_encoding(body)
    if guess is not None:
        text, errors = decode_with(body, guess)
        if fallback is None or _acceptable(body, errors):
            return Decoded(text, guess, "detected")
    if fallback is not None:
        return Decoded(*fallback)
    text, _ = decode_with(body, "utf-8")
    return Decoded(text, "utf-8", "default")


# --------------------------------------------------------------------------- prescan

_WS = b"\t\n\x0c\r "
_ALPHA = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


def prescan_meta_charset(body: bytes, limit: int = PRESCAN_LIMIT_BYTES) -> str | None:
    """The encoding a ``<meta>`` declares in the first ``limit`` bytes (HTML standard prescan).

    Follows "prescan a byte stream to determine its encoding": comments and other tags are
    skipped with their attributes (so a ``charset`` inside a comment or a ``<script>``-free
    attribute value is not mistaken for a declaration); ``<meta charset>`` and
    ``<meta http-equiv="content-type" content="…charset=…">`` count; a UTF-16 declaration
    means UTF-8 and ``x-user-defined`` means windows-1252.

    Returns:
        the WHATWG encoding name, or ``None`` when nothing usable is declared.
    """
    data = body[:limit]
    pos, end = 0, len(data)
    while pos < end:
        if data.startswith(b"<!--", pos):
            close = data.find(b"-->", pos + 2)
            if close == -1:
                return None
            pos = close + 3
        elif (
            data[pos : pos + 5].lower() == b"<meta"
            and pos + 5 < end
            and data[pos + 5] in b"\t\n\x0c\r /"
        ):
            pos, found = _meta_tag(data, pos + 5)
            if found is not None:
                return found
        elif data[pos : pos + 1] == b"<" and (
            (pos + 1 < end and data[pos + 1] in _ALPHA)
            or (data[pos + 1 : pos + 2] == b"/" and pos + 2 < end and data[pos + 2] in _ALPHA)
        ):
            while pos < end and data[pos] not in b"\t\n\x0c\r >":
                pos += 1
            while True:
                pos, attr = _attribute(data, pos)
                if attr is None:
                    break
            pos += 1
        elif data.startswith((b"<!", b"</", b"<?"), pos):
            close = data.find(b">", pos)
            if close == -1:
                return None
            pos = close + 1
        else:
            pos += 1
    return None


def _meta_tag(data: bytes, pos: int) -> tuple[int, str | None]:
    """Read the attributes of one ``<meta>``; return the position after it and its encoding."""
    seen: set[bytes] = set()
    got_pragma = False
    need_pragma: bool | None = None
    charset: bytes | None = None
    while True:
        pos, attr = _attribute(data, pos)
        if attr is None:
            break
        name, value = attr
        if name in seen:
            continue
        seen.add(name)
        if name == b"http-equiv":
            got_pragma = got_pragma or value == b"content-type"
        elif name == b"content" and charset is None:
            found = _charset_in_content(value)
            if found is not None:
                charset, need_pragma = found, True
        elif name == b"charset":
            charset, need_pragma = value, False
    if need_pragma is None or charset is None or (need_pragma and not got_pragma):
        return pos + 1, None
    name_found = whatwg_encoding(charset.decode("ascii", errors="replace"))
    if name_found is None:
        return pos + 1, None
    if name_found in ("utf-16be", "utf-16le"):
        name_found = "utf-8"
    return pos + 1, name_found


def _attribute(data: bytes, pos: int) -> tuple[int, tuple[bytes, bytes] | None]:
    """The HTML standard's "get an attribute" on bytes; ``None`` at ``>`` or the end."""
    end = len(data)
    while pos < end and data[pos] in _WS + b"/":
        pos += 1
    if pos >= end or data[pos] == 0x3E:  # ">"
        return pos, None
    name = bytearray()
    value = bytearray()
    while True:
        if pos >= end:
            return pos, None
        c = data[pos]
        if c == 0x3D and name:  # "="
            pos += 1
            break
        if c in _WS:
            while pos < end and data[pos] in _WS:
                pos += 1
            if pos >= end:
                return pos, None
            if data[pos] != 0x3D:
                return pos, (bytes(name), b"")
            pos += 1
            break
        if c in b"/>":
            return pos, (bytes(name), b"")
        name.append(c + 0x20 if 0x41 <= c <= 0x5A else c)
        pos += 1
    while pos < end and data[pos] in _WS:
        pos += 1
    if pos >= end:
        return pos, None
    c = data[pos]
    if c in b"\"'":
        quote = c
        pos += 1
        while pos < end and data[pos] != quote:
            b = data[pos]
            value.append(b + 0x20 if 0x41 <= b <= 0x5A else b)
            pos += 1
        if pos >= end:
            return pos, None
        return pos + 1, (bytes(name), bytes(value))
    if c == 0x3E:
        return pos, (bytes(name), b"")
    while pos < end and data[pos] not in _WS + b">":
        b = data[pos]
        value.append(b + 0x20 if 0x41 <= b <= 0x5A else b)
        pos += 1
    if pos >= end:
        return pos, None
    return pos, (bytes(name), bytes(value))


def _charset_in_content(value: bytes) -> bytes | None:
    """The standard's "extract a character encoding from a meta element" on a content value."""
    pos = 0
    while True:
        found = value.find(b"charset", pos)
        if found == -1:
            return None
        pos = found + 7
        while pos < len(value) and value[pos] in _WS:
            pos += 1
        if pos < len(value) and value[pos] == 0x3D:
            break
    pos += 1
    while pos < len(value) and value[pos] in _WS:
        pos += 1
    if pos >= len(value):
        return None
    if value[pos] in b"\"'":
        close = value.find(value[pos : pos + 1], pos + 1)
        return value[pos + 1 : close] if close != -1 else None
    stop = pos
    while stop < len(value) and value[stop] not in _WS + b";":
        stop += 1
    return value[pos:stop]
