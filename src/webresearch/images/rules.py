"""The image decisions of SPEC §1.3 as pure functions over header facts and numbers.

Nothing here decodes or encodes: the caps (source bytes, pixels), the passthrough rule, the
displayed size under an EXIF orientation, the downscale target and the encode ladder's
steps are values in, values out, so they are tested without images.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..config import (
    DEFAULT_IMAGE_MAX_OUTPUT_BYTES,
    DEFAULT_IMAGE_MAX_PIXELS,
    DEFAULT_IMAGE_MAX_SIDE_PX,
    DEFAULT_IMAGE_SOURCE_CAP_BYTES,
)
from ..errors import TooLarge, UnsupportedContent
from ..wording import count
from .sniff import DECODABLE, FORMAT_NAMES, ImageHeader

__all__ = [
    "JPEG_QUALITIES",
    "PASSTHROUGH_FORMATS",
    "Limits",
    "check_header",
    "check_source_size",
    "displayed_size",
    "human_bytes",
    "passthrough_blockers",
    "prefers_png",
    "shrink_size",
    "target_size",
    "unsupported",
]

#: JPEG quality ladder (SPEC §1.3: 85 → 70 → 55 → 40, then smaller dimensions).
JPEG_QUALITIES = (85, 70, 55, 40)
#: Formats that may be passed through byte for byte (SPEC §1.3).
PASSTHROUGH_FORMATS = frozenset({"png", "jpeg", "webp"})
#: Each "smaller dimensions" step keeps at most this share of the side (and at least half),
#: so the ladder always ends (a 1×1 JPEG fits any cap).
_SHRINK_MAX = 0.9
_SHRINK_MIN = 0.5


@dataclass(frozen=True, slots=True)
class Limits:
    """The numbers of the pipeline (defaults: SPEC §1.3 via :mod:`webresearch.config`).

    Attributes:
        max_source_bytes: largest input (bytes).
        max_pixels: largest width × height (px) decoded.
        max_side_px: long side (px) of the output.
        max_output_bytes: largest output (bytes).
    """

    max_source_bytes: int = DEFAULT_IMAGE_SOURCE_CAP_BYTES
    max_pixels: int = DEFAULT_IMAGE_MAX_PIXELS
    max_side_px: int = DEFAULT_IMAGE_MAX_SIDE_PX
    max_output_bytes: int = DEFAULT_IMAGE_MAX_OUTPUT_BYTES


def human_bytes(n: int) -> str:
    """``n`` bytes as ``"812 KiB"`` / ``"6.2 MiB"`` (binary units)."""
    if n < 1024:
        return count(n, "byte")
    if n < 1024 * 1024:
        return f"{n / 1024:.0f} KiB"
    return f"{n / (1024 * 1024):.1f}".removesuffix(".0") + " MiB"


def check_source_size(n_bytes: int, limits: Limits) -> None:
    """Refuse a source larger than the cap.

    Raises:
        TooLarge: ``n_bytes`` > ``limits.max_source_bytes``.
    """
    if n_bytes > limits.max_source_bytes:
        raise TooLarge(
            f"the image is {human_bytes(n_bytes)}, over the {human_bytes(limits.max_source_bytes)} "
            "image size cap",
            hint="use a smaller version of the image (a thumbnail or preview URL)",
            source_bytes=n_bytes,
            cap_bytes=limits.max_source_bytes,
        )


def unsupported(fmt: str) -> UnsupportedContent:
    """The error for content of format ``fmt`` that is not a decodable image."""
    if fmt in ("html", "xml", "text"):
        what = {"html": "an HTML page", "xml": "an XML document", "text": "text"}[fmt]
        return UnsupportedContent(
            f"not an image (the content is {what}) — use web_fetch",
            hint="use web_fetch to read it",
            format=fmt,
        )
    if fmt == "empty":
        return UnsupportedContent("not an image (the content is empty)", format=fmt)
    if fmt == "unknown":
        return UnsupportedContent(
            "not an image in a known format (supported: PNG, JPEG, WebP, GIF)",
            hint="find a PNG, JPEG, WebP or GIF version of the image",
            format=fmt,
        )
    name = FORMAT_NAMES.get(fmt, fmt)
    hint = "find a PNG, JPEG, WebP or GIF version of the image"
    if fmt == "svg":
        hint = "read the SVG source with web_fetch, or find a PNG/JPEG version"
    elif fmt == "pdf":
        hint = "read the PDF's text with web_fetch"
    return UnsupportedContent(
        f"{name} images are not supported (supported: PNG, JPEG, WebP, GIF)",
        hint=hint,
        format=fmt,
    )


def check_header(header: ImageHeader, limits: Limits) -> None:
    """Refuse what must not be decoded: other formats, and too many pixels.

    Args:
        header: facts from :func:`~webresearch.images.sniff.read_header`.
        limits: the pipeline's numbers.

    Raises:
        UnsupportedContent: the format is not PNG, JPEG, WebP or GIF (names the format;
            HTML says to use web_fetch).
        TooLarge: width × height exceeds ``limits.max_pixels``.
    """
    if header.format not in DECODABLE:
        raise unsupported(header.format)
    if header.width is not None and header.height is not None:
        check_pixels(header.width, header.height, limits)


def check_pixels(width: int, height: int, limits: Limits) -> None:
    """Refuse ``width`` × ``height`` over the pixel limit (a decompression bomb).

    Raises:
        TooLarge: with the dimensions and the limit in the message.
    """
    pixels = width * height
    if pixels > limits.max_pixels:
        mpx = pixels / 1e6
        shown = f"{mpx:,.0f}" if mpx >= 100 else f"{mpx:.1f}"
        raise TooLarge(
            f"image too large: {width}×{height} px ({shown} megapixels) is over the "
            f"{limits.max_pixels / 1e6:g}-megapixel limit",
            hint="use a smaller version of the image (a thumbnail or preview URL)",
            width=width,
            height=height,
            pixels=pixels,
            max_pixels=limits.max_pixels,
        )


def displayed_size(width: int, height: int, orientation: int | None) -> tuple[int, int]:
    """Size as a viewer shows it: EXIF orientations 5–8 swap width and height."""
    if orientation in (5, 6, 7, 8):
        return height, width
    return width, height


def passthrough_blockers(header: ImageHeader, n_bytes: int, limits: Limits) -> list[str]:
    """Why ``header``'s image may not be passed through byte for byte (empty: it may).

    SPEC §1.3: only PNG, JPEG or WebP; long side ≤ ``max_side_px``; ≤ ``max_output_bytes``;
    not animated; 8-bit (PNG bit depth ≤ 8, JPEG precision 8); JPEG with 1 or 3 components
    (not CMYK/YCCK); no EXIF rotation (Orientation absent or 1). A fact the header does not
    state blocks passthrough (the image is then re-encoded, which is always safe).

    Returns:
        short reasons, e.g. ``["larger than 1568 px", "EXIF orientation 6"]``.
    """
    out: list[str] = []
    if header.format not in PASSTHROUGH_FORMATS:
        out.append(f"{FORMAT_NAMES.get(header.format, header.format)} source")
    if header.animated:
        out.append("animated")
    if header.width is None or header.height is None:
        out.append("size not in header")
    elif max(header.width, header.height) > limits.max_side_px:
        out.append(f"larger than {limits.max_side_px} px")
    if n_bytes > limits.max_output_bytes:
        out.append(f"over {human_bytes(limits.max_output_bytes)}")
    if header.format in ("png", "jpeg"):
        if header.bit_depth is None:
            out.append("bit depth not in header")
        elif header.bit_depth > 8 or (header.format == "jpeg" and header.bit_depth != 8):
            out.append(f"{header.bit_depth}-bit samples")
    if header.format == "jpeg" and header.components not in (1, 3):
        out.append("CMYK/YCCK colour" if header.components == 4 else "unusual colour components")
    if header.orientation not in (None, 1):
        out.append(f"EXIF orientation {header.orientation}")
    return out


def prefers_png(header: ImageHeader) -> bool:
    """PNG first for PNG/APNG/GIF sources and animated WebP (first frames stay lossless)."""
    return header.format in ("png", "apng", "gif") or header.animated


def target_size(width: int, height: int, max_side_px: int) -> tuple[int, int]:
    """Size after downscaling so the long side is at most ``max_side_px`` (never upscales).

    The aspect ratio is kept up to rounding; each side is at least 1 px.
    """
    long_side = max(width, height)
    if long_side <= max_side_px:
        return width, height
    scale = max_side_px / long_side
    if width >= height:
        return max_side_px, max(1, round(height * scale))
    return max(1, round(width * scale)), max_side_px


def shrink_size(
    width: int,
    height: int,
    encoded_bytes: int,
    max_bytes: int,
    aspect: tuple[int, int] | None = None,
) -> tuple[int, int]:
    """The next, smaller size when JPEG quality 40 is still over ``max_bytes``.

    Encoded size grows roughly with the pixel count, so the long side is scaled by
    ``sqrt(max_bytes / encoded_bytes)`` with a margin, clamped to [0.5, 0.9] so every step
    makes progress. The short side follows by rounding from ``aspect`` — the source's
    (width, height), default the current size — not by flooring each side on its own and not
    from an already rounded size, so the aspect ratio stays within 0.5 px of the source's
    (flooring bent a 1186×118 image by 1.5 %; re-rounding a rounded 97×1568 bent a
    149×2397 one by 1.1 %). Each side stays at least 1 px.
    """
    aspect_w, aspect_h = aspect or (width, height)
    factor = math.sqrt(max_bytes / max(encoded_bytes, 1)) * 0.95
    factor = min(_SHRINK_MAX, max(_SHRINK_MIN, factor))
    if width >= height:
        new_w = max(1, math.floor(width * factor))
        return new_w, max(1, min(height, round(aspect_h * new_w / aspect_w)))
    new_h = max(1, math.floor(height * factor))
    return max(1, min(width, round(aspect_w * new_h / aspect_h))), new_h
