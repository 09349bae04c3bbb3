"""The pure half: magic bytes, header facts, the passthrough rule, sizes, messages."""

from __future__ import annotations

import io
import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from tests.support.image_factory import animated, encode, exif_bytes, photo_like
from webresearch.errors import TooLarge
from webresearch.images.rules import (
    Limits,
    check_header,
    human_bytes,
    passthrough_blockers,
    shrink_size,
    target_size,
)
from webresearch.images.sniff import ImageHeader, exif_orientation, read_header, sniff


@pytest.mark.parametrize(
    ("data", "fmt"),
    [
        (b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", "png"),
        (b"\xff\xd8\xff\xe0", "jpeg"),
        (b"GIF89a..", "gif"),
        (b"GIF87a..", "gif"),
        (b"RIFF\0\0\0\0WEBPVP8 ", "webp"),
        (b"%PDF-1.4", "pdf"),
        (b"II*\0\x08\0\0\0", "tiff"),
        (b"MM\0*\0\0\0\x08", "tiff"),
        (b"BM" + b"\0" * 12 + struct.pack("<I", 40), "bmp"),
        (b"BMW is a car brand, not a bitmap", "text"),
        (b"\0\0\1\0\1\0", "ico"),
        (b"\0\0\0\x1cftypavif\0\0\0\0avifmif1miaf", "avif"),
        (b"\0\0\0\x18ftypmif1\0\0\0\0mif1heic", "heic"),
        (b"\xff\x0a\xfa", "jxl"),
        (b"8BPS\0\1", "psd"),
        (b"  \n<!DOCTYPE html>", "html"),
        (b"<HTML><BODY>", "html"),
        (b"<?xml version='1.0'?>\n<!-- c -->\n<svg>", "svg"),
        (b"<?xml version='1.0'?><rss/>", "xml"),
        (b"\xff\xfe<\0h\0t\0m\0l\0>\0", "html"),
        (b"plain words", "text"),
        (b"", "empty"),
        (b"\x00\x9f\x92\x96 binary", "unknown"),
    ],
)
def test_sniff(data: bytes, fmt: str) -> None:
    assert sniff(data) == fmt


@pytest.mark.parametrize(
    ("mode", "fmt", "params"),
    [
        ("RGB", "PNG", {}),
        ("I;16", "PNG", {}),
        ("1", "PNG", {}),
        ("RGB", "JPEG", {}),
        ("L", "JPEG", {}),
        ("CMYK", "JPEG", {}),
        ("RGB", "WEBP", {}),
        ("RGBA", "WEBP", {"lossless": True}),
        ("RGBA", "WEBP", {"exif": exif_bytes(3)}),
        ("P", "GIF", {}),
    ],
)
def test_header_facts_agree_with_pillow(mode: str, fmt: str, params: dict[str, object]) -> None:
    data = encode(photo_like(123, 45).convert(mode), fmt, **params)
    header = read_header(data)
    im = Image.open(io.BytesIO(data))
    assert (header.width, header.height) == im.size
    assert header.animated is False and header.frames == 1
    if fmt == "JPEG":
        assert header.components == len(im.getbands()) and header.bit_depth == 8
    if mode == "I;16":
        assert header.bit_depth == 16
    if "exif" in params:
        assert header.orientation == 3


@pytest.mark.parametrize("fmt", ["GIF", "PNG", "WEBP"])
def test_header_counts_animation_frames(fmt: str) -> None:
    header = read_header(animated(fmt, 5))
    assert header.animated and header.frames == 5
    assert header.format == ("apng" if fmt == "PNG" else fmt.lower())


@pytest.mark.parametrize("order", ["<", ">"])
@pytest.mark.parametrize("kind", [3, 4])
def test_exif_orientation_in_both_byte_orders(order: str, kind: int) -> None:
    mark = b"II" if order == "<" else b"MM"
    value = (
        struct.pack(order + ("HH" if kind == 3 else "I"), 6, 0)
        if kind == 3
        else struct.pack(order + "I", 6)
    )
    ifd = struct.pack(order + "H", 2) + struct.pack(order + "HHI", 0x010F, 2, 4) + b"abc\0"
    ifd += struct.pack(order + "HHI", 0x0112, kind, 1) + value
    exif = mark + struct.pack(order + "HI", 42, 8) + ifd
    assert exif_orientation(exif) == 6
    assert exif_orientation(b"Exif\0\0" + exif) == 6


@pytest.mark.parametrize(
    "junk", [b"", b"II", b"II*\0\xff\xff\xff\xff", b"MM\0*\0\0\0\x08\0\xff", b"XX*\0"]
)
def test_exif_orientation_of_junk_is_none(junk: bytes) -> None:
    assert exif_orientation(junk) is None


@given(st.binary(max_size=200), st.sampled_from(["png", "jpeg", "gif", "webp", "apng"]))
def test_header_readers_never_raise(data: bytes, fmt: str) -> None:
    read_header(data, fmt)


# --- the passthrough rule --------------------------------------------------------------------------
LIMITS = Limits()
OK = {"format": "png", "width": 1568, "height": 900, "frames": 1, "bit_depth": 8}


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({}, None),
        ({"format": "jpeg", "components": 3}, None),
        ({"format": "jpeg", "components": 1}, None),
        ({"format": "webp", "bit_depth": 8}, None),
        ({"orientation": 1}, None),
        ({"bit_depth": 4}, None),
        ({"width": 1569}, "larger than 1568 px"),
        ({"height": 1569}, "larger than 1568 px"),
        ({"format": "gif"}, "GIF source"),
        ({"format": "apng", "animated": True, "frames": 2}, "animated"),
        ({"format": "webp", "animated": True}, "animated"),
        ({"bit_depth": 16}, "16-bit samples"),
        ({"format": "jpeg", "components": 4}, "CMYK/YCCK colour"),
        ({"format": "jpeg", "components": 3, "bit_depth": 12}, "12-bit samples"),
        ({"orientation": 6}, "EXIF orientation 6"),
        ({"orientation": 0}, "EXIF orientation 0"),
        ({"width": None}, "size not in header"),
    ],
)
def test_passthrough_rule(change: dict[str, object], reason: str | None) -> None:
    header = ImageHeader(**{**OK, **change})  # type: ignore[arg-type]
    blockers = passthrough_blockers(header, 1000, LIMITS)
    assert (reason in blockers) if reason else blockers == []


def test_passthrough_needs_the_byte_cap_too() -> None:
    header = ImageHeader(**OK)  # type: ignore[arg-type]
    assert passthrough_blockers(header, 1_572_864, LIMITS) == []
    assert passthrough_blockers(header, 1_572_865, LIMITS) == ["over 1.5 MiB"]


def test_pixel_check_message() -> None:
    with pytest.raises(TooLarge) as caught:
        check_header(ImageHeader("png", 40000, 40000), LIMITS)
    assert caught.value.message == (
        "image too large: 40000×40000 px (1,600 megapixels) is over the 50-megapixel limit"
    )


# --- sizes -------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("size", "target"),
    [
        ((4000, 3000), (1568, 1176)),
        ((2000, 3000), (1045, 1568)),
        ((1568, 1568), (1568, 1568)),
        ((12000, 12000), (1568, 1568)),
        ((100, 50), (100, 50)),
        ((20000, 1), (1568, 1)),
    ],
)
def test_target_size(size: tuple[int, int], target: tuple[int, int]) -> None:
    assert target_size(*size, 1568) == target


@given(st.integers(1, 70000), st.integers(1, 70000), st.integers(16, 4000))
def test_target_size_invariants(width: int, height: int, side: int) -> None:
    w, h = target_size(width, height, side)
    assert 1 <= w <= width and 1 <= h <= height and max(w, h) <= side
    if min(w, h) >= 50:
        assert abs(w / h - width / height) <= 0.01 * width / height


@given(st.integers(1, 5000), st.integers(1, 5000), st.integers(1, 10**8), st.integers(1, 10**7))
def test_shrink_always_makes_progress(width: int, height: int, encoded: int, cap: int) -> None:
    w, h = shrink_size(width, height, encoded, cap)
    assert w <= width and h <= height
    assert (w, h) == (1, 1) or w * h < width * height
    if min(w, h) >= 2:
        # The documented rule: the short side is within 0.5 px of the source's aspect (a
        # relative bound fails on rounding alone: 99×100 → 50×50 is 0.5 px, 1 %, off).
        if width >= height:
            assert abs(h - w * height / width) <= 0.5 + 1e-9
        else:
            assert abs(w - h * width / height) <= 0.5 + 1e-9


def test_shrink_rounds_the_short_side_to_the_nearest_pixel() -> None:
    # Found by the property test: 99×100 halves to 50×50 (49.5 rounds to even), which a
    # 1 % relative bound refused although it is the nearest whole size.
    assert shrink_size(99, 100, 4, 1) == (50, 50)


def test_shrink_keeps_the_source_aspect_not_the_rounded_one() -> None:
    # Found by the property test: 149×2397 → 97×1568 (rounded) → 67×1090 was 1.1 % off.
    w, h = shrink_size(97, 1568, 100_000, 40_000, aspect=(149, 2397))
    assert abs(w / h - 149 / 2397) <= 0.01 * 149 / 2397


def test_shrink_keeps_the_aspect_of_a_wide_strip() -> None:
    # Found by the property test: flooring both sides bent 1186×118 to 673×66 (1.5 %).
    w, h = shrink_size(1186, 118, 100_000, 40_000)
    assert abs(w / h - 1186 / 118) <= 0.01 * 1186 / 118


def test_human_bytes() -> None:
    assert human_bytes(500) == "500 bytes"
    assert human_bytes(2048) == "2 KiB"
    assert human_bytes(5 * 1024 * 1024) == "5 MiB"
    assert human_bytes(1536 * 1024) == "1.5 MiB"
