"""The image preparation pipeline's public API (SPEC §1.3), shared by fetch_image,
view_image and browser screenshots.

    prepared = prepare_image(data)          # bytes of any supported image
    block = to_block(prepared)              # an ImageBlock for a ToolResult

Order: source cap → magic bytes (never Content-Type or extension) → pixel count from the
header, before any decode, against our own limit (never Pillow's process-wide
``MAX_IMAGE_PIXELS``, which is left untouched) → the passthrough rule (byte for byte when
it holds, after one verifying decode) → otherwise decode, normalise, downscale, orient and
encode within the output cap (:mod:`webresearch.images.pipeline`).

Pillow is imported only when an image is actually decoded, so importing this module works
without it (the image tools then report themselves unavailable).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from ..config import (
    DEFAULT_IMAGE_MAX_OUTPUT_BYTES,
    DEFAULT_IMAGE_MAX_PIXELS,
    DEFAULT_IMAGE_MAX_SIDE_PX,
    DEFAULT_IMAGE_SOURCE_CAP_BYTES,
)
from ..errors import InvalidArguments
from ..types import ImageBlock
from .region import Region, zoom_for
from .rules import Limits, check_header, check_source_size, displayed_size, passthrough_blockers
from .sniff import MIME_OF, read_header, sniff

__all__ = [
    "SHA256_PREFIX_CHARS",
    "PreparedImage",
    "describe",
    "prepare_image",
    "prepare_region",
    "prepare_tiles",
    "to_block",
]

#: Hex characters of the output's sha256 kept in the metadata.
SHA256_PREFIX_CHARS = 12


@dataclass(frozen=True, slots=True)
class PreparedImage:
    """An image ready for a vision model.

    Attributes:
        data: PNG, JPEG or WebP bytes (≤ the output cap, long side ≤ the side limit).
        mime: ``image/png``, ``image/jpeg`` or ``image/webp``, always matching ``data``.
        meta: JSON-friendly facts, never bytes: ``mime``, ``width``/``height`` (px, as
            displayed), ``resized``, ``bytes``, ``sha256_prefix`` (first 12 hex chars of the sha256),
            ``source_format``, ``source_width``/``source_height`` (px, as displayed),
            ``source_bytes``, ``passthrough``, ``animated``, ``frames``, and when they apply
            ``shown_frame``, ``orientation_applied``, ``quality``, ``color``, ``icc``,
            ``bit_depth``, ``alpha_flattened``, ``shrunk_to_fit``, ``reencoded_because``.
    """

    data: bytes
    mime: str
    meta: dict[str, Any]


def prepare_image(
    data: bytes,
    *,
    max_source_bytes: int = DEFAULT_IMAGE_SOURCE_CAP_BYTES,
    max_pixels: int = DEFAULT_IMAGE_MAX_PIXELS,
    max_side_px: int = DEFAULT_IMAGE_MAX_SIDE_PX,
    max_output_bytes: int = DEFAULT_IMAGE_MAX_OUTPUT_BYTES,
) -> PreparedImage:
    """Turn image bytes into a block a vision model sees as a viewer would.

    CPU-bound (tens of milliseconds for a photo): async callers run it in the CPU worker pool.

    Args:
        data: the image file's bytes.
        max_source_bytes: largest accepted input (bytes; default 5 MiB).
        max_pixels: largest width × height (px) decoded, read from the header first
            (default 50 Mpx).
        max_side_px: long side of the output (px; default 1568).
        max_output_bytes: largest output (bytes; default 1.5 MiB).

    Returns:
        the prepared image; passthrough (``meta["passthrough"]``) returns ``data`` itself.

    Raises:
        TooLarge: ``data`` is over ``max_source_bytes``, or the image has more than
            ``max_pixels`` pixels (the message gives the numbers).
        UnsupportedContent: not a PNG, JPEG, WebP or GIF (the message names the detected
            format; HTML and other text say "not an image — use web_fetch"), or the image
            is corrupt.
    """
    limits = Limits(max_source_bytes, max_pixels, max_side_px, max_output_bytes)
    check_source_size(len(data), limits)
    header = read_header(data, sniff(data))
    check_header(header, limits)
    blockers = passthrough_blockers(header, len(data), limits)

    from . import pipeline  # Pillow is imported here, on first use

    meta: dict[str, Any] = {}
    if not blockers:
        pipeline.verify_decodes(data, header, limits)
        fmt = header.format
        out = data
        assert header.width is not None and header.height is not None  # no blocker said so
        width, height = header.width, header.height
    else:
        encoded = pipeline.decode_and_encode(data, header, limits)
        fmt, out, width, height = encoded.fmt, encoded.data, encoded.width, encoded.height
        meta.update(encoded.notes)
    mime = MIME_OF[fmt]
    source_w, source_h = displayed_size(header.width or 0, header.height or 0, header.orientation)
    frames = header.frames if header.frames is not None else None
    facts: dict[str, Any] = {
        "mime": mime,
        "width": width,
        "height": height,
        "resized": (width, height) != (source_w, source_h),
        "bytes": len(out),
        "sha256_prefix": hashlib.sha256(out).hexdigest()[:SHA256_PREFIX_CHARS],
        "source_format": header.format,
        "source_width": source_w,
        "source_height": source_h,
        "source_bytes": len(data),
        "passthrough": not blockers,
        "animated": header.animated,
        "frames": frames,
    }
    if header.animated:
        facts["shown_frame"] = 1
    if blockers:
        facts["reencoded_because"] = blockers
    facts.update(meta)
    return PreparedImage(out, mime, facts)


def prepare_tiles(
    data: bytes,
    *,
    viewport_px: tuple[int, int] = (1280, 800),
    max_tiles: int = 4,
    max_source_bytes: int = DEFAULT_IMAGE_SOURCE_CAP_BYTES,
    max_pixels: int = DEFAULT_IMAGE_MAX_PIXELS,
    max_side_px: int = DEFAULT_IMAGE_MAX_SIDE_PX,
    max_output_bytes: int = DEFAULT_IMAGE_MAX_OUTPUT_BYTES,
) -> tuple[list[PreparedImage], int, int]:
    """A full-page screenshot as a few viewport-shaped tiles, never one squashed sliver
    (SPEC §1.4: a very long page is "a few viewport-width tiles, each through the image
    pipeline").

    An image no taller than 1.5 viewports (in the viewport's aspect at the image's width)
    is prepared whole.

    Args:
        data: the screenshot's bytes.
        viewport_px: (width, height) whose aspect each tile keeps (px).
        max_tiles: most tiles (the rest of the page is left out; see the return value).
        max_source_bytes, max_pixels, max_side_px, max_output_bytes: as
            :func:`prepare_image`.

    Returns:
        (prepared tiles top to bottom, the image's height in px, the height covered in px).

    Raises:
        TooLarge, UnsupportedContent: as :func:`prepare_image`.
    """
    limits = Limits(max_source_bytes, max_pixels, max_side_px, max_output_bytes)
    check_source_size(len(data), limits)
    header = read_header(data, sniff(data))
    check_header(header, limits)
    shape = {
        "max_source_bytes": max_source_bytes,
        "max_pixels": max_pixels,
        "max_side_px": max_side_px,
        "max_output_bytes": max_output_bytes,
    }
    width, height = displayed_size(header.width or 0, header.height or 0, header.orientation)
    tile_height = max(1, round(width * viewport_px[1] / viewport_px[0])) if width else 0
    if not tile_height or height <= tile_height * 1.5 or header.orientation not in (None, 1):
        return [prepare_image(data, **shape)], height, height
    from . import pipeline  # Pillow is imported here, on first use

    pieces = pipeline.crop_rows(
        data, header, limits, tile_height_px=tile_height, max_tiles=max_tiles
    )
    tiles = [prepare_image(piece, **shape) for piece in pieces]
    return tiles, height, min(height, tile_height * len(pieces))


def prepare_region(
    data: bytes,
    region: Region,
    *,
    max_source_bytes: int = DEFAULT_IMAGE_SOURCE_CAP_BYTES,
    max_pixels: int = DEFAULT_IMAGE_MAX_PIXELS,
    max_side_px: int = DEFAULT_IMAGE_MAX_SIDE_PX,
    max_output_bytes: int = DEFAULT_IMAGE_MAX_OUTPUT_BYTES,
) -> PreparedImage:
    """One region of an image, enlarged so its long side fills up to ``max_side_px`` (at
    most :data:`~.region.MAX_ZOOM` times): zooming in to read small print.

    Args:
        data: the image file's bytes.
        region: x, y, width, height in px of the image as displayed (after its EXIF
            orientation); cut to the image when it reaches past an edge.
        max_source_bytes, max_pixels, max_side_px, max_output_bytes: as
            :func:`prepare_image`.

    Returns:
        the prepared region; its ``meta`` describes the source image (``source_*``) and adds
        ``clip`` (the region shown, ``X,Y,W,H``) and ``zoom``.

    Raises:
        InvalidArguments: the region lies wholly outside the image.
        TooLarge, UnsupportedContent: as :func:`prepare_image`.
    """
    limits = Limits(max_source_bytes, max_pixels, max_side_px, max_output_bytes)
    check_source_size(len(data), limits)
    header = read_header(data, sniff(data))
    check_header(header, limits)
    width, height = displayed_size(header.width or 0, header.height or 0, header.orientation)
    cut = region.within(width, height)
    if cut is None:
        raise InvalidArguments(
            f"clip {region} lies outside the image ({width}×{height} px)",
            hint="image_info gives the image's size; give x,y,w,h inside it",
        )
    zoom = round(zoom_for(cut, (max_side_px, max_side_px)), 2)
    from . import pipeline  # Pillow is imported here, on first use

    box = (cut.x, cut.y, cut.width, cut.height)
    piece = pipeline.crop_region(data, header, limits, box=box, zoom=zoom)
    prepared = prepare_image(
        piece,
        max_source_bytes=max(max_source_bytes, len(piece)),
        max_pixels=max_pixels,
        max_side_px=max_side_px,
        max_output_bytes=max_output_bytes,
    )
    meta = {
        **prepared.meta,
        "resized": True,
        "passthrough": False,
        "source_format": header.format,
        "source_width": width,
        "source_height": height,
        "source_bytes": len(data),
        "animated": header.animated,
        "frames": header.frames,
        "clip": str(cut),
        "zoom": zoom,
    }
    if header.orientation not in (None, 1):
        meta["orientation_applied"] = header.orientation
    return PreparedImage(prepared.data, prepared.mime, meta)


def to_block(prepared: PreparedImage) -> ImageBlock:
    """The :class:`~webresearch.types.ImageBlock` of a prepared image (metadata copied)."""
    return ImageBlock(prepared.data, prepared.mime, dict(prepared.meta))


def describe(meta: dict[str, Any]) -> str:
    """One line for a model: what it is looking at, e.g.
    ``image/jpeg 1045×1568 px, 312 KiB (source jpeg 2000×3000, resized, EXIF orientation 6 applied)``.
    """
    from .rules import human_bytes

    parts = [f"source {meta['source_format']} {meta['source_width']}×{meta['source_height']}"]
    if meta.get("passthrough"):
        parts.append("unchanged")
    elif meta.get("resized"):
        parts.append("resized")
    else:
        parts.append("re-encoded")
    if meta.get("animated"):
        frames = meta.get("frames")
        parts.append(
            f"animated ({frames} frames): only the first frame is shown"
            if frames
            else "animated: only the first frame is shown"
        )
    if meta.get("orientation_applied"):
        parts.append(f"EXIF orientation {meta['orientation_applied']} applied")
    if meta.get("clip"):
        parts.append(f"region {meta['clip']} enlarged {meta['zoom']:g}×")
    return (
        f"{meta['mime']} {meta['width']}×{meta['height']} px, {human_bytes(meta['bytes'])} "
        f"({', '.join(parts)})"
    )
