"""The capability probe: a page served through our own interception, and its checks. Pure.

When a backend connects, :mod:`.backend` opens :data:`PROBE_URL` in a scratch context. The
request is answered by the interceptor itself (``Fetch.fulfillRequest``), so the probe sends
nothing to the network and, by loading at all, proves that request interception works. The
page draws a red box on white; a backend with real screenshots returns those pixels
(:func:`has_probe_box`, on a screenshot of the small strip :data:`PROBE_CLIP` across the box's
left edge: decoding a whole viewport in Python took 0.4 s), Lightpanda's text-only picture
does not.

The PNG reader is a minimal one (8-bit greyscale/RGB/RGBA, non-interlaced — what browsers
emit for screenshots), enough to read a few pixels without an image library.
"""

from __future__ import annotations

import struct
import zlib

__all__ = [
    "PROBE_BOX",
    "PROBE_CLIP",
    "PROBE_HTML",
    "PROBE_URL",
    "has_probe_box",
    "png_pixel",
    "png_size",
]

#: A name under the reserved ``.invalid`` TLD (RFC 2606): it can never resolve.
PROBE_URL = "http://probe.webresearch.invalid/"
#: (left, top, size) of the red box in CSS px.
PROBE_BOX = (40, 40, 120)
#: The strip of the page the probe screenshots (x, y, width, height in CSS px): white left
#: of the box, then the box.
PROBE_CLIP = (0, 90, 120, 20)

PROBE_HTML = (
    "<!doctype html><html><head><title>webresearch probe</title></head>"
    '<body style="margin:0;background:#ffffff">'
    f'<div id="box" style="position:absolute;left:{PROBE_BOX[0]}px;top:{PROBE_BOX[1]}px;'
    f'width:{PROBE_BOX[2]}px;height:{PROBE_BOX[2]}px;background:#ff0000"></div>'
    "<p style='margin-top:300px'>probe</p></body></html>"
)

_CHANNELS = {0: 1, 2: 3, 6: 4, 4: 2}


def png_size(data: bytes) -> tuple[int, int]:
    """(width, height) in px from a PNG header.

    Raises:
        ValueError: not a PNG.
    """
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        raise ValueError("not a PNG")
    width, height = struct.unpack(">II", data[16:24])
    return int(width), int(height)


def png_pixel(data: bytes, x: int, y: int) -> tuple[int, int, int]:
    """The RGB colour of pixel (x, y) of a PNG.

    Raises:
        ValueError: not a PNG, an unsupported kind (palette, 16-bit, interlaced), or the
            pixel is outside the image.
    """
    width, height = png_size(data)
    bit_depth, color_type, _comp, _filter, interlace = data[24:29]
    if bit_depth != 8 or color_type not in _CHANNELS or interlace:
        raise ValueError("unsupported PNG kind")
    if not (0 <= x < width and 0 <= y < height):
        raise ValueError("pixel outside the image")
    idat = bytearray()
    pos = 8
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind = data[pos + 4 : pos + 8]
        if kind == b"IDAT":
            idat += data[pos + 8 : pos + 8 + length]
        elif kind == b"IEND":
            break
        pos += 12 + length
    bpp = _CHANNELS[color_type]
    stride = width * bpp
    raw = zlib.decompress(bytes(idat))
    prev = bytearray(stride)
    row = bytearray(stride)
    for r in range(y + 1):
        start = r * (stride + 1)
        ftype = raw[start]
        line = raw[start + 1 : start + 1 + stride]
        row = bytearray(stride)
        for i in range(stride):
            a = row[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            row[i] = (line[i] + _predict(ftype, a, b, c)) & 0xFF
        prev = row
    px = row[x * bpp : x * bpp + bpp]
    if bpp in (1, 2):
        return px[0], px[0], px[0]
    return px[0], px[1], px[2]


def _predict(ftype: int, a: int, b: int, c: int) -> int:
    if ftype == 0:
        return 0
    if ftype == 1:
        return a
    if ftype == 2:
        return b
    if ftype == 3:
        return (a + b) // 2
    if ftype == 4:
        p = a + b - c
        pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
        if pa <= pb and pa <= pc:
            return a
        return b if pb <= pc else c
    raise ValueError("bad PNG filter")


def has_probe_box(png: bytes) -> bool:
    """True when a screenshot of :data:`PROBE_CLIP` shows the probe's red box where it was
    drawn, on white.

    Checks a point inside the box (red) and one left of it (white); any decoding problem
    means "not a real rendering".
    """
    left, _top, size = PROBE_BOX
    clip_x, _clip_y, _width, clip_h = PROBE_CLIP
    row = clip_h // 2
    try:
        inside = png_pixel(png, left + size // 2 - clip_x, row)
        outside = png_pixel(png, left // 2 - clip_x, row)
    except (ValueError, zlib.error, struct.error, IndexError):
        return False

    def near(got: tuple[int, int, int], want: tuple[int, int, int]) -> bool:
        return all(abs(g - w) <= 40 for g, w in zip(got, want, strict=True))

    return near(inside, (255, 0, 0)) and near(outside, (255, 255, 255))
