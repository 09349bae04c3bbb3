"""Images made on the fly for the image tests (Pillow), and the checks the cases describe.

Every generator returns encoded bytes; :func:`upright` decodes an output block the way the
cases judge it (EXIF orientation applied, so a passthrough that still carries its tag is
judged as a viewer would).
"""

from __future__ import annotations

import io
import random
import struct
import zlib
from typing import Any

from PIL import Image, ImageOps, ImageStat

#: EXIF orientation → the transpose that shows stored pixels upright (as ImageOps uses).
TRANSPOSE = {
    2: Image.Transpose.FLIP_LEFT_RIGHT,
    3: Image.Transpose.ROTATE_180,
    4: Image.Transpose.FLIP_TOP_BOTTOM,
    5: Image.Transpose.TRANSPOSE,
    6: Image.Transpose.ROTATE_270,
    7: Image.Transpose.TRANSVERSE,
    8: Image.Transpose.ROTATE_90,
}
#: The inverse transposes: what to store so that orientation n shows the upright picture.
INVERSE = {
    **TRANSPOSE,
    6: Image.Transpose.ROTATE_90,
    8: Image.Transpose.ROTATE_270,
}

RED = (220, 20, 20)
BLUE = (20, 20, 220)
GREEN = (20, 200, 20)
WHITE = (255, 255, 255)


def encode(im: Image.Image, fmt: str, **params: Any) -> bytes:
    buf = io.BytesIO()
    im.save(buf, fmt, **params)
    return buf.getvalue()


def exif_bytes(orientation: int) -> bytes:
    exif = Image.Exif()
    exif[0x0112] = orientation
    return exif.tobytes()


def upright_picture(width: int, height: int) -> Image.Image:
    """An asymmetric picture: red top band, blue bottom band, green left half between."""
    im = Image.new("RGB", (width, height), WHITE)
    band = max(1, height // 10)
    im.paste(RED, (0, 0, width, band))
    im.paste(BLUE, (0, height - band, width, height))
    im.paste(GREEN, (0, band, width // 2, height - band))
    return im


def oriented(width: int, height: int, orientation: int, fmt: str = "JPEG", **params: Any) -> bytes:
    """Bytes whose stored pixels, shown with EXIF ``orientation``, are the upright picture."""
    im = upright_picture(width, height)
    stored = im.transpose(INVERSE[orientation]) if orientation in INVERSE else im
    if fmt == "JPEG":
        params.setdefault("quality", 92)
    return encode(stored, fmt, exif=exif_bytes(orientation), **params)


def upright(data: bytes) -> Image.Image:
    """Decode ``data`` and apply its EXIF orientation (as the cases judge an output)."""
    im = Image.open(io.BytesIO(data))
    im.load()
    return ImageOps.exif_transpose(im).convert("RGB")


def mean(im: Image.Image, box: tuple[int, int, int, int]) -> tuple[float, ...]:
    """Per-band mean of ``box`` (left, top, right, bottom) in px."""
    return tuple(ImageStat.Stat(im.crop(box)).mean)


def assert_upright_picture(im: Image.Image) -> None:
    """``im`` shows :func:`upright_picture`: red top, blue bottom, green on the left."""
    w, h = im.size
    top = mean(im, (0, 0, w, max(1, int(h * 0.08))))
    bottom = mean(im, (0, h - max(1, int(h * 0.08)), w, h))
    left = mean(im, (0, int(h * 0.3), max(1, int(w * 0.4)), int(h * 0.7)))
    right = mean(im, (int(w * 0.6), int(h * 0.3), w, int(h * 0.7)))
    assert top[0] > 150 and top[1] < 80 and top[2] < 80, f"top is not red: {top}"
    assert bottom[2] > 150 and bottom[0] < 80, f"bottom is not blue: {bottom}"
    assert left[1] > 150 and left[0] < 80, f"left is not green: {left}"
    assert min(right) > 200, f"right is not white: {right}"


def noise(width: int, height: int, mode: str = "RGB", seed: int = 1) -> Image.Image:
    """Random noise (incompressible: a heavy image for its size)."""
    rng = random.Random(seed)
    bands = len(mode) if mode in ("RGB", "RGBA", "LA", "L", "CMYK") else 1
    return Image.frombytes(mode, (width, height), rng.randbytes(width * height * bands))


def photo_like(width: int, height: int, seed: int = 1) -> Image.Image:
    """A smooth gradient with mild noise: compresses like a photograph."""
    base = Image.linear_gradient("L").resize((width, height))
    g = Image.radial_gradient("L").resize((width, height))
    grain = Image.effect_noise((width, height), 24)
    rgb = Image.merge("RGB", (base, g, Image.blend(base, grain, 0.3)))
    return rgb


def animated(fmt: str, frames: int = 3, size: tuple[int, int] = (120, 80)) -> bytes:
    """A ``frames``-frame animation: frame 1 red, then green, then blue …"""
    colours = [RED, GREEN, BLUE, WHITE]
    ims = [Image.new("RGB", size, colours[i % len(colours)]) for i in range(frames)]
    return encode(ims[0], fmt, save_all=True, append_images=ims[1:], duration=100, loop=0)


def png_chunk(ctype: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + ctype + data + struct.pack(">I", zlib.crc32(ctype + data))


def png_bomb(width: int, height: int) -> bytes:
    """A 1-bit grey PNG of ``width`` × ``height`` all-zero pixels, deflated (tiny file)."""
    row = b"\x00" * (1 + (width + 7) // 8)
    comp = zlib.compressobj(9)
    parts = [comp.compress(row) for _ in range(min(height, 1))]
    # Compress the rows in large blocks (fast): zero rows deflate to almost nothing.
    block = row * 1024
    for _ in range(height // 1024):
        parts.append(comp.compress(block))
    parts.append(comp.flush())
    ihdr = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + png_chunk(b"IHDR", ihdr)
        + png_chunk(b"IDAT", b"".join(parts))
        + png_chunk(b"IEND", b"")
    )


def jpeg_with_size(width: int, height: int) -> bytes:
    """A real small JPEG whose frame header (SOF0) is patched to claim ``width`` × ``height``."""
    data = bytearray(encode(Image.new("RGB", (16, 16), RED), "JPEG"))
    pos = data.index(b"\xff\xc0")
    struct.pack_into(">HH", data, pos + 5, height, width)
    return bytes(data)


def gif_with_size(width: int, height: int, *, frame_only: bool = False) -> bytes:
    """A small GIF whose logical screen (or only its first frame) claims ``width`` × ``height``."""
    data = bytearray(encode(Image.new("P", (16, 16), 0), "GIF"))
    if frame_only:
        pos = data.index(b"\x2c", 13)
        struct.pack_into("<HH", data, pos + 5, width, height)
    else:
        struct.pack_into("<HH", data, 6, width, height)
    return bytes(data)


def webp_with_size(width: int, height: int, kind: str) -> bytes:
    """A small WebP (``VP8X`` extended or ``VP8L`` lossless) patched to claim a size."""
    if kind == "VP8X":
        data = bytearray(
            encode(
                Image.new("RGBA", (16, 16), (1, 2, 3, 128)),
                "WEBP",
                lossless=True,
                exif=exif_bytes(1),
            )
        )
        assert data[12:16] == b"VP8X"
        data[24:27] = (width - 1).to_bytes(3, "little")
        data[27:30] = (height - 1).to_bytes(3, "little")
        return bytes(data)
    data = bytearray(encode(Image.new("RGB", (16, 16), RED), "WEBP", lossless=True))
    assert data[12:16] == b"VP8L"
    bits = int.from_bytes(data[21:25], "little")
    bits = (bits & ~((1 << 28) - 1)) | (width - 1) | ((height - 1) << 14)
    data[21:25] = bits.to_bytes(4, "little")
    return bytes(data)
