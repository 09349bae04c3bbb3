"""Settings of the image tools and screenshots (SPEC §1.3)."""

from __future__ import annotations

from pydantic import Field

from .defaults import (
    DEFAULT_IMAGE_CACHE_SIZE,
    DEFAULT_IMAGE_MAX_OUTPUT_BYTES,
    DEFAULT_IMAGE_MAX_PIXELS,
    DEFAULT_IMAGE_MAX_SIDE_PX,
    DEFAULT_IMAGE_SOURCE_CAP_BYTES,
)
from .section import Section

__all__ = ["ImageSettings"]


class ImageSettings(Section):
    """fetch_image, view_image and screenshots: the image pipeline's limits."""

    image_max_source_bytes: int = Field(
        DEFAULT_IMAGE_SOURCE_CAP_BYTES,
        ge=1024,
        description="Largest image (bytes, as downloaded or read) the pipeline accepts.",
    )
    image_max_pixels: int = Field(
        DEFAULT_IMAGE_MAX_PIXELS,
        ge=1,
        description="Largest width × height (px, read from the header before decoding).",
    )
    image_max_side_px: int = Field(
        DEFAULT_IMAGE_MAX_SIDE_PX, ge=16, description="Long side (px) of images shown to a model."
    )
    image_max_output_bytes: int = Field(
        DEFAULT_IMAGE_MAX_OUTPUT_BYTES,
        ge=16 * 1024,
        description="Largest image block (bytes) sent to a model.",
    )
    image_cache_size: int = Field(
        DEFAULT_IMAGE_CACHE_SIZE,
        ge=0,
        description="Prepared images fetch_image keeps (entries, LRU; lifetime fetch_cache_ttl_s).",
    )
