"""image_info's facts: what an image is, from its header alone (pure: no Pillow, no I/O).

The facts come from :func:`webresearch.images.sniff.read_header` (magic bytes, then the
format's own header: PNG IHDR/acTL/eXIf, JPEG SOF/APP1, GIF screen and image descriptors,
WebP VP8/VP8L/VP8X). Nothing is decoded, so this works for images the pipeline would refuse
(too many pixels, unsupported formats) and never sends pixels anywhere.

EXIF orientation meanings: EXIF 2.32 §4.6.4 (the table Pillow's ``exif_transpose`` uses).
"""

from __future__ import annotations

from typing import Any

from ..errors import UnsupportedContent
from .rules import displayed_size, human_bytes
from .sniff import DECODABLE, FORMAT_NAMES, MIME_OF, ImageHeader, read_header, sniff

__all__ = ["NOT_IMAGES", "ORIENTATIONS", "facts_text", "image_facts"]

#: What a viewer does to show the stored pixels upright, per EXIF orientation value.
ORIENTATIONS = {
    1: "upright as stored",
    2: "mirrored left-right",
    3: "rotated 180°",
    4: "mirrored top-bottom",
    5: "mirrored along the main diagonal (transposed)",
    6: "rotated 90° clockwise",
    7: "mirrored along the anti-diagonal (transversed)",
    8: "rotated 90° counter-clockwise",
}
#: MIME types of the formats the image tools show (APNG is PNG with an animation chunk).
_MIME = {**MIME_OF, "apng": "image/png", "gif": "image/gif"}
#: Sniffed kinds that are not images at all.
NOT_IMAGES = frozenset({"html", "xml", "text", "pdf", "empty", "unknown"})


def image_facts(head: bytes, size_bytes: int) -> dict[str, Any]:
    """The facts of an image whose first bytes are ``head``.

    Args:
        head: the file's first bytes (the whole file when it is small).
        size_bytes: the file's full size in bytes.

    Returns:
        JSON-friendly facts: ``format`` (sniffed key), ``format_name``, ``mime`` (for the
        formats the image tools show, else ``None``), ``viewable`` (view_image can show it),
        ``bytes``, ``width``/``height`` (px as stored, ``None`` when the header does not
        say), ``displayed_width``/``displayed_height`` (px after the EXIF orientation),
        ``animated``, ``frames`` (``None`` when unknown), ``frames_at_least`` (the count
        covers only the part of the file read), ``bit_depth``, ``components``,
        ``orientation`` (1–8 or ``None``).

    Raises:
        UnsupportedContent: the bytes are not an image at all (HTML, text, PDF, empty …).
    """
    kind = sniff(head)
    name = FORMAT_NAMES.get(kind, kind)
    if kind in NOT_IMAGES:
        raise UnsupportedContent(
            f"the file is not an image (it looks like {name})",
            hint="image_info describes PNG, JPEG, WebP and GIF files (and names other image formats)",
            format=kind,
        )
    header: ImageHeader = read_header(head, kind)
    displayed: tuple[int | None, int | None] = (header.width, header.height)
    if header.width is not None and header.height is not None:
        displayed = displayed_size(header.width, header.height, header.orientation)
    partial = len(head) < size_bytes
    return {
        "format": kind,
        "format_name": name,
        "mime": _MIME.get(kind),
        "viewable": kind in DECODABLE,
        "bytes": size_bytes,
        "width": header.width,
        "height": header.height,
        "displayed_width": displayed[0],
        "displayed_height": displayed[1],
        "animated": header.animated,
        "frames": header.frames,
        "frames_at_least": bool(partial and kind == "gif" and header.frames is not None),
        "bit_depth": header.bit_depth,
        "components": header.components,
        "orientation": header.orientation,
    }


def facts_text(path: str, facts: dict[str, Any]) -> str:
    """The model-facing lines of :func:`image_facts` (lean: only what is known)."""
    lines = [f"path: {path}"]
    name = facts["format_name"]
    if not facts["viewable"]:
        name += " (view_image cannot show it: PNG, JPEG, WebP and GIF only)"
    lines.append(f"format: {name}")
    width, height = facts["width"], facts["height"]
    if width is not None and height is not None:
        size = f"{width}×{height} px"
        orientation = facts["orientation"]
        if orientation not in (None, 1):
            size += (
                f" as stored; shown {facts['displayed_width']}×{facts['displayed_height']} px "
                f"(EXIF orientation {orientation}: {ORIENTATIONS.get(orientation, 'unknown')})"
            )
        lines.append(f"size: {size}")
    else:
        lines.append("size: unknown (the header does not say)")
    lines.append(f"bytes: {facts['bytes']} ({human_bytes(facts['bytes'])})")
    frames = facts["frames"]
    if facts["animated"]:
        count = (
            ""
            if frames is None
            else f"{'at least ' if facts['frames_at_least'] else ''}{frames} frames"
        )
        lines.append(
            f"animation: yes{', ' + count if count else ''}; view_image shows the first frame"
        )
    elif frames is not None or facts["viewable"]:
        lines.append("animation: no")
    if facts["orientation"] in (None, 1) and facts["viewable"]:
        lines.append(
            "exif orientation: none"
            if facts["orientation"] is None
            else "exif orientation: 1 (upright)"
        )
    if facts["bit_depth"] is not None:
        lines.append(f"bit depth: {facts['bit_depth']}")
    return "\n".join(lines)
