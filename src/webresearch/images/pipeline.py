"""Decoding and re-encoding with Pillow: the only module that imports it.

Called by :func:`webresearch.images.prepare.prepare_image` after the pure checks (format,
source bytes, pixel count from the header) have passed. Steps, each a small function:

1. open with the one Pillow plugin the magic bytes named (Pillow never guesses a format),
   re-check the pixel count Pillow reports (still before any decode);
2. JPEG: ``draft()`` lets libjpeg decode at 1/2, 1/4 or 1/8 scale when the image is at
   least twice the target in each direction (DCT scaling; what ``Image.thumbnail`` does);
3. decode the first frame only;
4. normalise the mode to L, LA, RGB or RGBA: 16-bit samples scaled (÷257, not clamped),
   palettes expanded, CMYK/YCCK and any embedded ICC profile converted to sRGB with
   LittleCMS (Pillow's plain conversion when no profile or no LittleCMS);
5. downscale to the long-side limit: ``reduce()`` by whole factors while the rest stays
   ≥ 3× (box filter, fast), then bicubic (Catmull-Rom, a = -0.5) — Pillow's
   ``reducing_gap=3.0``, documented as indistinguishable from a full bicubic resize;
6. apply the EXIF orientation (transpose) — after the downscale, on fewer pixels;
7. encode: PNG first for PNG/GIF/animated sources if it fits, else transparency flattened
   onto white and JPEG at quality 85 → 70 → 55 → 40, then smaller dimensions until the
   output fits. No metadata is written (no EXIF, so no orientation to apply twice; no ICC:
   the pixels are sRGB).

Foreign exceptions are translated here (Pillow's DecompressionBombError → TooLarge,
decoder failures → UnsupportedContent naming the format).
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from PIL import GifImagePlugin, Image, ImageFile, JpegImagePlugin, PngImagePlugin, WebPImagePlugin

try:  # LittleCMS support is optional in Pillow builds; without it colours convert plainly.
    from PIL import ImageCms
except ImportError:  # pragma: no cover - every Pillow wheel ships it
    ImageCms = None  # type: ignore[assignment]

from ..errors import TooLarge, UnsupportedContent
from .rules import (
    JPEG_QUALITIES,
    Limits,
    check_pixels,
    displayed_size,
    prefers_png,
    shrink_size,
    target_size,
)
from .sniff import FORMAT_NAMES, ImageHeader, without_jpeg_exif

__all__ = ["Encoded", "crop_region", "crop_rows", "decode_and_encode", "verify_decodes"]


#: The Pillow image class for each sniffed format. Opening through the class (not
#: ``Image.open``) means Pillow never guesses a format, and our pixel limit is the only one
#: at open: ``Image.open`` would also apply the process-wide ``MAX_IMAGE_PIXELS`` (warning
#: above 89.5 Mpx, refusing above 179 Mpx), which other code may change.
_PLUGIN: dict[str, type[ImageFile.ImageFile]] = {
    "png": PngImagePlugin.PngImageFile,
    "apng": PngImagePlugin.PngImageFile,
    "jpeg": JpegImagePlugin.JpegImageFile,
    "webp": WebPImagePlugin.WebPImageFile,
    "gif": GifImagePlugin.GifImageFile,
}
#: EXIF orientation → the transpose that shows the image upright (EXIF 2.32 §4.6.4, the
#: table ``PIL.ImageOps.exif_transpose`` uses).
_TRANSPOSE = {
    2: Image.Transpose.FLIP_LEFT_RIGHT,
    3: Image.Transpose.ROTATE_180,
    4: Image.Transpose.FLIP_TOP_BOTTOM,
    5: Image.Transpose.TRANSPOSE,
    6: Image.Transpose.ROTATE_270,
    7: Image.Transpose.TRANSVERSE,
    8: Image.Transpose.ROTATE_90,
}
#: ``reduce()`` is used while the remaining bicubic step is at least this factor.
_REDUCING_GAP = 3.0
#: PNG zlib levels: the fast one first (image tokens depend on pixels, not bytes; level 1
#: encodes a 1568-px photo-like frame ~5× faster than level 6); the default level only when
#: the fast result is within :data:`_PNG_RETRY_RATIO` of the cap (it saves ~15 % there).
_PNG_FAST_LEVEL = 1
_PNG_SMALL_LEVEL = 6
_PNG_RETRY_RATIO = 1.25
#: Errors Pillow raises for corrupt or unsupported data.
#: What Pillow raises on damaged input. ``Warning`` too: Pillow WARNS about damage it works
#: around ("Invalid APNG, will use default PNG image", "malformed MPO file"); where the
#: host turns warnings into errors (``-W error``) that exception means the same damage.
#: The warning filters themselves are never touched: they are process-wide, and changing
#: them from a decode thread would drop filters other threads install meanwhile.
_DECODE_ERRORS = (OSError, SyntaxError, ValueError, EOFError, IndexError, Warning)


@dataclass(slots=True)
class Encoded:
    """The pipeline's output.

    Attributes:
        data: encoded bytes.
        fmt: ``png`` or ``jpeg``.
        width: output width (px, upright).
        height: output height (px, upright).
        notes: what was done, for the metadata (JSON-friendly values).
    """

    data: bytes
    fmt: str
    width: int
    height: int
    notes: dict[str, Any] = field(default_factory=dict)


def _open(data: bytes, header: ImageHeader, limits: Limits) -> ImageFile.ImageFile:
    name = FORMAT_NAMES[header.format]
    if header.format == "jpeg":
        data = without_jpeg_exif(data)  # orientation already read; see the function
    try:
        im = _PLUGIN[header.format](io.BytesIO(data))
    except Image.DecompressionBombError:
        raise _too_many_pixels(header) from None
    except _DECODE_ERRORS:
        raise _corrupt(name) from None
    check_pixels(im.size[0], im.size[1], limits)
    return im


def _too_many_pixels(header: ImageHeader) -> TooLarge:
    size = f"{header.width}×{header.height} px" if header.width else "its size"
    return TooLarge(
        f"image too large: {size} is over this process's image decoder limit",
        hint="use a smaller version of the image (a thumbnail or preview URL)",
    )


def _corrupt(name: str) -> UnsupportedContent:
    return UnsupportedContent(
        f"the {name} image is corrupt, truncated or uses a variant that cannot be decoded",
        hint="try another copy or format of the image",
        format=name.lower(),
    )


def verify_decodes(data: bytes, header: ImageHeader, limits: Limits) -> None:
    """Decode a passthrough candidate once, so broken bytes are never passed through.

    Raises:
        UnsupportedContent: Pillow cannot decode the image (corrupt or truncated).
        TooLarge: Pillow reports more pixels than the limit.
    """
    im = _open(data, header, limits)
    with im:
        try:
            im.load()
        except Image.DecompressionBombError:
            raise _too_many_pixels(header) from None
        except _DECODE_ERRORS:
            raise _corrupt(FORMAT_NAMES[header.format]) from None


def decode_and_encode(data: bytes, header: ImageHeader, limits: Limits) -> Encoded:
    """Decode the first frame of ``data``, make it model-ready and encode it.

    Args:
        data: the source bytes (already checked: decodable format, size, pixel count).
        header: the facts read from its header.
        limits: the pipeline's numbers.

    Returns:
        PNG or JPEG bytes of at most ``limits.max_output_bytes``, long side at most
        ``limits.max_side_px``, upright, 8-bit sRGB, without metadata.

    Raises:
        UnsupportedContent: the bytes cannot be decoded.
        TooLarge: Pillow reports more pixels than the limit.
    """
    notes: dict[str, Any] = {}
    im = _open(data, header, limits)
    # Everything happens while the file is open: the decoded frame is used in place (no
    # copy of a 12-Mpx photo), and closing the file frees it.
    with im:
        width, height = im.size
        target = target_size(width, height, limits.max_side_px)
        if header.format == "jpeg" and target != (width, height):
            # DCT-domain downscale only while the rest of the way is ≥ 2× (Image.thumbnail's
            # reducing_gap): keeps bicubic quality, skips most of the decode work.
            im.draft(None, (target[0] * 2, target[1] * 2))
        try:
            im.seek(0)
            im.load()
            keep_palette = target == (width, height) and prefers_png(header)
            frame = _working_mode(im, notes, keep_palette=keep_palette)
        except Image.DecompressionBombError:
            raise _too_many_pixels(header) from None
        except _DECODE_ERRORS:
            raise _corrupt(FORMAT_NAMES[header.format]) from None
        if frame.size != target:
            frame = frame.resize(target, Image.Resampling.BICUBIC, reducing_gap=_REDUCING_GAP)
        # Colour conversion after the downscale: on ≤ 1568-px frames, not 12-Mpx ones.
        icc = im.info.get("icc_profile")
        if frame.mode == "CMYK":
            notes["color"] = "CMYK→sRGB"
            frame = _to_srgb(frame, icc, notes)
        elif icc and frame.mode in ("RGB", "RGBA"):
            frame = _to_srgb(frame, icc, notes)
        transpose = _TRANSPOSE.get(header.orientation or 1)
        if transpose is not None:
            frame = frame.transpose(transpose)
            notes["orientation_applied"] = header.orientation
        # Never write the source's EXIF/ICC/text chunks; a palette's transparent index stays.
        transparency = frame.info.get("transparency") if frame.mode in ("P", "L", "1") else None
        frame.info = {} if transparency is None else {"transparency": transparency}
        return _encode(frame, header, limits, notes)


def _working_mode(im: Image.Image, notes: dict[str, Any], *, keep_palette: bool) -> Image.Image:
    """The decoded frame as L, LA, RGB, RGBA or CMYK (or ``im`` itself when it already is);
    CMYK and ICC profiles are converted to sRGB after the downscale, by the caller.

    With ``keep_palette`` (no resize, PNG output preferred), palette and 1-bit frames stay
    as they are: a palette PNG is lossless, smaller and faster to encode.
    """
    mode = im.mode
    if mode in ("I;16", "I;16B", "I;16L", "I;16N", "I"):
        # 16-bit grey: scale 0..65535 to 0..255 (convert("L") would clamp at 255).
        notes["bit_depth"] = "16→8"
        return im.convert("I").point(lambda v: v * (1 / 257)).convert("L")
    if mode in ("F", "1") and not (keep_palette and mode == "1"):
        return im.convert("L")
    if mode == "P" and keep_palette and "icc_profile" not in im.info:
        return im
    if mode in ("P", "PA"):
        has_alpha = mode == "PA" or "transparency" in im.info
        return im.convert("RGBA" if has_alpha else "RGB")
    if mode == "La":
        return im.convert("LA")
    if mode == "RGBa":
        return im.convert("RGBA")
    if mode in ("L", "LA", "1"):
        if "transparency" in im.info and mode == "L":
            return im.convert("LA")
        return im
    if mode == "RGB" and "transparency" in im.info:
        return im.convert("RGBA")
    if mode in ("RGB", "RGBA", "CMYK"):
        return im
    return im.convert("RGB")  # YCbCr, LAB, HSV, RGBX …


def _to_srgb(im: Image.Image, icc: bytes | None, notes: dict[str, Any]) -> Image.Image:
    """Convert RGB(A)/CMYK pixels to sRGB through the embedded ICC profile when there is one."""
    out_mode = "RGBA" if im.mode == "RGBA" else "RGB"
    if icc and ImageCms is not None:
        try:
            source = ImageCms.ImageCmsProfile(io.BytesIO(icc))
            srgb = ImageCms.createProfile("sRGB")
            converted = ImageCms.profileToProfile(im, source, srgb, outputMode=out_mode)
            if converted is not None:
                notes["icc"] = "converted to sRGB"
                return converted
        except (ImportError, OSError, ValueError, TypeError, ImageCms.PyCMSError):
            notes["icc"] = "ignored (unreadable profile)"
    return im.convert(out_mode) if im.mode != out_mode else im


def _drop_opaque_alpha(im: Image.Image) -> Image.Image:
    if im.mode in ("RGBA", "LA"):
        low, _high = im.getchannel("A").getextrema()
        if low == 255:
            return im.convert("RGB" if im.mode == "RGBA" else "L")
    return im


def _flatten(im: Image.Image, notes: dict[str, Any]) -> Image.Image:
    """Composite transparency onto white (JPEG has no alpha); palettes become RGB/L."""
    if im.mode == "P":
        im = im.convert("RGBA" if "transparency" in im.info else "RGB")
    elif im.mode == "1":
        im = im.convert("L")
    im = _drop_opaque_alpha(im)
    if im.mode not in ("RGBA", "LA"):
        return im
    notes["alpha_flattened"] = "white"
    base_mode = "RGB" if im.mode == "RGBA" else "L"
    white = Image.new(base_mode, im.size, (255, 255, 255) if base_mode == "RGB" else 255)
    white.paste(im.convert(base_mode), mask=im.getchannel("A"))
    return white


def _png_bytes(im: Image.Image, level: int) -> bytes:
    buf = io.BytesIO()
    im.save(buf, "PNG", compress_level=level)
    return buf.getvalue()


def _jpeg_bytes(im: Image.Image, quality: int) -> bytes:
    buf = io.BytesIO()
    im.save(buf, "JPEG", quality=quality)
    return buf.getvalue()


def _encode(
    frame: Image.Image, header: ImageHeader, limits: Limits, notes: dict[str, Any]
) -> Encoded:
    cap = limits.max_output_bytes
    if prefers_png(header):
        frame = _drop_opaque_alpha(frame)
        png = _png_bytes(frame, _PNG_FAST_LEVEL)
        if cap < len(png) <= cap * _PNG_RETRY_RATIO:
            png = _png_bytes(frame, _PNG_SMALL_LEVEL)
        if len(png) <= cap:
            return Encoded(png, "png", frame.width, frame.height, notes)
        notes["png_bytes_over_cap"] = len(png)
    flat = _flatten(frame, notes)
    jpeg = b""
    for quality in JPEG_QUALITIES:
        jpeg = _jpeg_bytes(flat, quality)
        if len(jpeg) <= cap:
            notes["quality"] = quality
            return Encoded(jpeg, "jpeg", flat.width, flat.height, notes)
    quality = JPEG_QUALITIES[-1]
    notes["quality"] = quality
    aspect = (frame.width, frame.height)
    if header.width and header.height:  # the source's aspect, upright
        aspect = displayed_size(header.width, header.height, header.orientation)
    while True:
        size = shrink_size(flat.width, flat.height, len(jpeg), cap, aspect)
        if size == flat.size:  # 1×1 already: cannot happen with caps ≥ 16 KiB
            raise UnsupportedContent("the image cannot be encoded within the size cap")
        flat = flat.resize(size, Image.Resampling.BICUBIC)
        jpeg = _jpeg_bytes(flat, quality)
        notes["shrunk_to_fit"] = True
        if len(jpeg) <= cap:
            return Encoded(jpeg, "jpeg", flat.width, flat.height, notes)


@contextlib.contextmanager
def _first_frame(data: bytes, header: ImageHeader, limits: Limits) -> Iterator[Image.Image]:
    """The first frame, decoded, in L/LA/RGB/RGBA (CMYK made sRGB), valid inside the block
    (it may be the open file's own pixels: no copy of a large picture)."""
    im = _open(data, header, limits)
    with im:
        try:
            im.seek(0)
            im.load()
            frame = _working_mode(im, {}, keep_palette=False)
        except Image.DecompressionBombError:
            raise _too_many_pixels(header) from None
        except _DECODE_ERRORS:
            raise _corrupt(FORMAT_NAMES[header.format]) from None
        if frame.mode == "CMYK":  # PNG has no CMYK
            frame = _to_srgb(frame, im.info.get("icc_profile"), {})
        yield frame


def crop_rows(
    data: bytes, header: ImageHeader, limits: Limits, *, tile_height_px: int, max_tiles: int
) -> list[bytes]:
    """Cut a tall image into full-width tiles, top to bottom (a full-page screenshot).

    Args:
        data: the source bytes (already checked: decodable format, size, pixel count).
        header: the facts read from its header.
        limits: the pipeline's numbers.
        tile_height_px: height of each tile in source pixels (the last one may be shorter).
        max_tiles: most tiles returned; the rest of the page is left out.

    Returns:
        lossless PNG bytes per tile (each then goes through the whole pipeline).

    Raises:
        UnsupportedContent: the bytes cannot be decoded.
        TooLarge: Pillow reports more pixels than the limit.
    """
    with _first_frame(data, header, limits) as frame:
        width, height = frame.size
        tiles: list[bytes] = []
        for top in range(0, height, max(1, tile_height_px)):
            if len(tiles) >= max_tiles:
                break
            box = (0, top, width, min(height, top + tile_height_px))
            tiles.append(_png_bytes(frame.crop(box), _PNG_FAST_LEVEL))
        return tiles


def crop_region(
    data: bytes,
    header: ImageHeader,
    limits: Limits,
    *,
    box: tuple[int, int, int, int],
    zoom: float,
) -> bytes:
    """A region of the image as displayed (EXIF orientation applied), enlarged ``zoom``
    times with bicubic resampling: what a model needs to read small print.

    Args:
        data: the source bytes (already checked: decodable format, size, pixel count).
        header: the facts read from its header.
        limits: the pipeline's numbers.
        box: (x, y, width, height) inside the displayed image (px).
        zoom: the enlargement (≥ 1).

    Returns:
        lossless PNG bytes of the region (then prepared by the whole pipeline).

    Raises:
        UnsupportedContent: the bytes cannot be decoded.
        TooLarge: Pillow reports more pixels than the limit.
    """
    with _first_frame(data, header, limits) as frame:
        transpose = _TRANSPOSE.get(header.orientation or 1)
        if transpose is not None:
            frame = frame.transpose(transpose)
        x, y, width, height = box
        piece = frame.crop((x, y, x + width, y + height))
        if zoom > 1:
            size = (max(1, round(width * zoom)), max(1, round(height * zoom)))
            piece = piece.resize(size, Image.Resampling.BICUBIC)
        return _png_bytes(piece, _PNG_FAST_LEVEL)
