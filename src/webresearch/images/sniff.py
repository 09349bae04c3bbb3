"""What image bytes are, from their magic bytes and headers (pure: no Pillow, no I/O).

The format is decided by the bytes, never by a Content-Type or a file extension (SPEC §1.3).
:func:`sniff` names the decodable formats (``png``, ``apng``, ``jpeg``, ``webp``, ``gif``) and,
so that a refusal can say what it refused, the common others (``svg``, ``bmp``, ``tiff``,
``heic``, ``avif``, ``ico``, ``pdf``, ``html``, ``text`` …); what is not an image is judged
by the sniffing rule web_fetch uses (:func:`webresearch.extract.sniff.text_kind`).

:func:`read_header` then reads, from the headers only, the facts the pipeline decides with
before any pixel is decoded: stored width and height (px), animation and frame count, bits
per sample, JPEG component count and the EXIF orientation. Every reader is bounds-checked
and gives up (``None`` fields) rather than raising on a malformed header; Pillow then has
the last word.

Sources: PNG (ISO/IEC 15948, APNG ``acTL``, ``eXIf``), JPEG (ITU T.81 markers, Adobe APP14,
Exif APP1), GIF89a (logical screen and image descriptors), WebP RIFF container (``VP8 ``,
``VP8L``, ``VP8X`` flags: 0x02 animation, 0x08 EXIF), TIFF 6.0 IFD layout for EXIF, the
WHATWG MIME Sniffing standard for HTML.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from ..extract.sniff import text_kind

__all__ = [
    "DECODABLE",
    "FORMAT_NAMES",
    "MIME_OF",
    "ImageHeader",
    "exif_orientation",
    "read_header",
    "sniff",
    "without_jpeg_exif",
]

#: Formats the pipeline decodes (SPEC §1.3: PNG, JPEG, WebP, GIF; APNG is PNG with ``acTL``).
DECODABLE = frozenset({"png", "apng", "jpeg", "webp", "gif"})

#: Human names used in messages.
FORMAT_NAMES = {
    "png": "PNG",
    "apng": "APNG",
    "jpeg": "JPEG",
    "webp": "WebP",
    "gif": "GIF",
    "svg": "SVG",
    "bmp": "BMP",
    "tiff": "TIFF",
    "heic": "HEIC/HEIF",
    "avif": "AVIF",
    "ico": "ICO",
    "pdf": "PDF",
    "jxl": "JPEG XL",
    "jp2": "JPEG 2000",
    "psd": "Photoshop (PSD)",
    "html": "HTML",
    "xml": "XML",
    "text": "text",
    "empty": "empty",
    "unknown": "unknown",
}

#: MIME type of each format an image block may carry.
MIME_OF = {"png": "image/png", "jpeg": "image/jpeg", "webp": "image/webp"}

_PNG_SIG = b"\x89PNG\r\n\x1a\n"
_HEIF_BRANDS = {b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"hevm", b"hevs", b"mif1"}
_AVIF_BRANDS = {b"avif", b"avis"}
#: Most PNG chunks / GIF sub-blocks a header reader walks before giving up (bounds the work
#: on adversarial files; a 5 MiB source has far fewer in practice).
_MAX_STEPS = 200_000


def sniff(data: bytes) -> str:
    """The format of ``data`` from its magic bytes.

    Args:
        data: the whole resource, or at least its first 1 KiB.

    Returns:
        one of the keys of :data:`FORMAT_NAMES`: a decodable format, a named other format,
        ``html`` / ``xml`` / ``text`` for text, ``empty`` or ``unknown``.
    """
    if not data:
        return "empty"
    if data.startswith(_PNG_SIG):
        return "apng" if _png_has_actl(data) else "png"
    if data.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "gif"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    if data.startswith(b"%PDF-"):
        return "pdf"
    if data[:4] in (b"II*\x00", b"MM\x00*", b"II+\x00", b"MM\x00+"):
        return "tiff"
    if data[:2] == b"BM" and len(data) >= 18:
        dib = struct.unpack_from("<I", data, 14)[0]
        if dib in (12, 16, 40, 52, 56, 64, 108, 124):
            return "bmp"
    if (
        data[:4] in (b"\x00\x00\x01\x00", b"\x00\x00\x02\x00")
        and len(data) >= 6
        and data[4:6] != b"\0\0"
    ):
        return "ico"
    if data[4:8] == b"ftyp" and len(data) >= 12:
        box_end = min(len(data), int.from_bytes(data[:4], "big"))
        brands = {data[8:12]} | {data[i : i + 4] for i in range(16, box_end - 3, 4)}
        if brands & _AVIF_BRANDS:
            return "avif"
        if brands & _HEIF_BRANDS:
            return "heic"
    if data.startswith(b"\xff\x0a") or data.startswith(b"\x00\x00\x00\x0cJXL \r\n\x87\n"):
        return "jxl"
    if data.startswith(b"\x00\x00\x00\x0cjP  \r\n\x87\n") or data.startswith(b"\xff\x4f\xff\x51"):
        return "jp2"
    if data.startswith(b"8BPS"):
        return "psd"
    return _sniff_text(data)


def _sniff_text(data: bytes) -> str:
    """What a body that is no image format named above is: by the rule web_fetch uses too
    (:func:`webresearch.extract.sniff.text_kind`), so a body fetch_image sends to web_fetch
    is one web_fetch reads."""
    kind = text_kind(data)
    return "unknown" if kind is None else kind


@dataclass(frozen=True, slots=True)
class ImageHeader:
    """Facts read from an image's headers, before any decode.

    Attributes:
        format: the :func:`sniff` result.
        width: stored width in px (for GIF the first frame's extent included), or ``None``
            when the header does not say.
        height: stored height in px, or ``None``.
        animated: the container says there is more than one frame (GIF image descriptors,
            WebP VP8X animation flag, APNG ``acTL`` with more than one frame).
        frames: frame count when known (1 for stills), else ``None``.
        bit_depth: bits per sample (PNG IHDR, JPEG SOF precision; WebP/GIF: 8), or ``None``.
        components: JPEG colour components (1 grey, 3 YCbCr/RGB, 4 CMYK/YCCK), else ``None``.
        orientation: the EXIF Orientation tag (1–8) when present, else ``None``.
    """

    format: str
    width: int | None = None
    height: int | None = None
    animated: bool = False
    frames: int | None = None
    bit_depth: int | None = None
    components: int | None = None
    orientation: int | None = None

    @property
    def pixels(self) -> int | None:
        """width × height (px), or ``None`` when either is unknown."""
        if self.width is None or self.height is None:
            return None
        return self.width * self.height


def read_header(data: bytes, fmt: str | None = None) -> ImageHeader:
    """Read the header facts of ``data``.

    Args:
        data: the whole image file.
        fmt: the :func:`sniff` result when already known.

    Returns:
        the facts; unknown ones are ``None``. Never raises on malformed input.
    """
    fmt = fmt or sniff(data)
    try:
        if fmt in ("png", "apng"):
            return _png(data, fmt)
        if fmt == "jpeg":
            return _jpeg(data)
        if fmt == "gif":
            return _gif(data)
        if fmt == "webp":
            return _webp(data)
    except (struct.error, IndexError, ValueError):
        pass
    return ImageHeader(fmt)


def _png_chunks(data: bytes) -> list[tuple[bytes, int, int]]:
    """``(type, data offset, length)`` of each PNG chunk, in order (bounded walk)."""
    out: list[tuple[bytes, int, int]] = []
    pos = 8
    n = len(data)
    while pos + 8 <= n and len(out) < _MAX_STEPS:
        length, ctype = struct.unpack_from(">I4s", data, pos)
        out.append((ctype, pos + 8, length))
        if ctype == b"IEND":
            break
        pos += 12 + length
    return out


def _png_has_actl(data: bytes) -> bool:
    # acTL must precede the first IDAT (APNG spec), so the walk stops there.
    pos = 8
    for _ in range(_MAX_STEPS):
        if pos + 8 > len(data):
            return False
        length, ctype = struct.unpack_from(">I4s", data, pos)
        if ctype == b"acTL":
            return True
        if ctype in (b"IDAT", b"IEND"):
            return False
        pos += 12 + length
    return False


def _png(data: bytes, fmt: str) -> ImageHeader:
    if data[12:16] != b"IHDR":
        return ImageHeader(fmt)
    width, height, depth = struct.unpack_from(">IIB", data, 16)
    frames = 1
    orientation = None
    for ctype, start, length in _png_chunks(data):
        if ctype == b"acTL" and length >= 8:
            frames = struct.unpack_from(">I", data, start)[0]
        elif ctype == b"eXIf" and orientation is None:
            orientation = exif_orientation(data[start : start + length])
    return ImageHeader(
        fmt,
        width,
        height,
        animated=frames > 1,
        frames=frames,
        bit_depth=depth,
        orientation=orientation,
    )


#: SOF markers (ITU T.81 B.1.1.3): C0–CF except DHT (C4), JPG (C8) and DAC (CC).
_SOF = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}


def _jpeg(data: bytes) -> ImageHeader:
    pos = 2
    n = len(data)
    width = height = depth = comps = None
    orientation = None
    while pos + 4 <= n:
        if data[pos] != 0xFF:
            pos += 1  # tolerate garbage between segments, as decoders do
            continue
        marker = data[pos + 1]
        if marker == 0xFF:
            pos += 1  # fill byte
            continue
        if marker in (0x01, 0xD8) or 0xD0 <= marker <= 0xD7:
            pos += 2
            continue
        if marker in (0xD9, 0xDA):  # EOI, SOS: the frame header comes before
            break
        length = struct.unpack_from(">H", data, pos + 2)[0]
        seg = pos + 4
        if marker in _SOF and width is None and length >= 8:
            depth, height, width, comps = struct.unpack_from(">BHHB", data, seg)
        elif marker == 0xE1 and orientation is None and data[seg : seg + 6] == b"Exif\x00\x00":
            orientation = exif_orientation(data[seg + 6 : pos + 2 + length])
        pos += 2 + length
    return ImageHeader(
        "jpeg",
        width,
        height,
        frames=1,
        bit_depth=depth,
        components=comps,
        orientation=orientation,
    )


def without_jpeg_exif(data: bytes) -> bytes:
    """``data`` with its APP1 segments (EXIF, XMP) removed, everything else byte for byte.

    The pipeline reads the orientation itself (:func:`read_header`) and never writes EXIF,
    so the decoder does not need it; Pillow parses EXIF while opening a JPEG and warns on
    the corrupt EXIF common in the wild (a ``UserWarning``, an exception under ``-W error``).

    The walk skips garbage between segments as Pillow's own parser does, so every APP1
    Pillow would read is removed.

    Returns:
        the stripped bytes, or ``data`` itself when there is no APP1 segment or a segment
        length is impossible (then the decoder judges the file as it is).
    """
    pos = 2
    n = len(data)
    keep: list[bytes] = [data[:2]]
    start = 2
    dropped = False
    while pos + 4 <= n:
        if data[pos] != 0xFF:
            pos += 1  # garbage between segments: decoders skip it, so must this walk
            continue
        marker = data[pos + 1]
        if marker == 0xFF:
            pos += 1
            continue
        if marker in (0x01, 0xD8) or 0xD0 <= marker <= 0xD7:
            pos += 2
            continue
        if marker in (0xD9, 0xDA):
            break
        length = struct.unpack_from(">H", data, pos + 2)[0]
        if length < 2:
            return data
        if marker == 0xE1:
            keep.append(data[start:pos])
            start = pos + 2 + length
            dropped = True
        pos += 2 + length
    if not dropped:
        return data
    keep.append(data[start:])
    return b"".join(keep)


def _gif(data: bytes) -> ImageHeader:
    width, height, flags = struct.unpack_from("<HHB", data, 6)
    pos = 13
    if flags & 0x80:
        pos += 3 << ((flags & 7) + 1)
    frames = 0
    n = len(data)
    steps = 0
    while pos < n and steps < _MAX_STEPS:
        block = data[pos]
        if block == 0x3B:  # trailer
            break
        if block == 0x21:  # extension: label, then sub-blocks
            pos += 2
        elif block == 0x2C:  # image descriptor
            left, top, w, h, iflags = struct.unpack_from("<HHHHB", data, pos + 1)
            if frames == 0:  # Pillow grows the canvas to the first frame's extent
                width, height = max(width, left + w), max(height, top + h)
            frames += 1
            pos += 10
            if iflags & 0x80:
                pos += 3 << ((iflags & 7) + 1)
            pos += 1  # LZW minimum code size
        else:
            break  # not a GIF block: stop counting
        while pos < n and steps < _MAX_STEPS:  # sub-blocks up to the terminator
            size = data[pos]
            pos += 1 + size
            steps += 1
            if size == 0:
                break
    complete = steps < _MAX_STEPS
    return ImageHeader(
        "gif",
        width,
        height,
        animated=frames > 1,
        frames=max(frames, 1) if complete else None,
        bit_depth=8,
    )


def _webp(data: bytes) -> ImageHeader:
    pos = 12
    n = len(data)
    width = height = None
    animated = False
    frames = 0
    orientation = None
    for _ in range(_MAX_STEPS):
        if pos + 8 > n:
            break
        fourcc, size = struct.unpack_from("<4sI", data, pos)
        start = pos + 8
        if fourcc == b"VP8X" and width is None:
            flags = data[start]
            animated = bool(flags & 0x02)
            width = int.from_bytes(data[start + 4 : start + 7], "little") + 1
            height = int.from_bytes(data[start + 7 : start + 10], "little") + 1
        elif fourcc == b"VP8 " and width is None:
            if data[start + 3 : start + 6] == b"\x9d\x01\x2a":
                w, h = struct.unpack_from("<HH", data, start + 6)
                width, height = w & 0x3FFF, h & 0x3FFF
        elif fourcc == b"VP8L" and width is None:
            if data[start] == 0x2F:
                bits = int.from_bytes(data[start + 1 : start + 5], "little")
                width, height = (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
        elif fourcc == b"ANMF":
            frames += 1
        elif fourcc == b"EXIF" and orientation is None:
            orientation = exif_orientation(data[start : start + size])
        pos = start + size + (size & 1)
    return ImageHeader(
        "webp",
        width,
        height,
        animated=animated,
        frames=(frames or None) if animated else 1,
        bit_depth=8,
        orientation=orientation,
    )


def exif_orientation(exif: bytes) -> int | None:
    """The Orientation tag (0x0112) of IFD0 in a TIFF-structured EXIF block.

    Args:
        exif: the block, with or without a leading ``Exif\\0\\0``.

    Returns:
        the tag's value (1–8 when valid; other values as found), or ``None`` when absent
        or unreadable.
    """
    if exif.startswith(b"Exif\x00\x00"):
        exif = exif[6:]
    try:
        if exif[:2] == b"II":
            order = "<"
        elif exif[:2] == b"MM":
            order = ">"
        else:
            return None
        if struct.unpack_from(order + "H", exif, 2)[0] != 42:
            return None
        ifd = struct.unpack_from(order + "I", exif, 4)[0]
        count = struct.unpack_from(order + "H", exif, ifd)[0]
        for i in range(min(count, 1024)):
            entry = ifd + 2 + 12 * i
            tag, kind = struct.unpack_from(order + "HH", exif, entry)
            if tag == 0x0112:
                if kind == 3:  # SHORT
                    return int(struct.unpack_from(order + "H", exif, entry + 8)[0])
                if kind == 4:  # LONG (seen in the wild)
                    return int(struct.unpack_from(order + "I", exif, entry + 8)[0])
                return None
    except struct.error:
        return None
    return None
