"""A 4000×3000 JPEG photo (upright, and with EXIF orientation 6) meets every invariant the
naive Pillow path (``thumbnail((1568, 1568))`` + ``save()``) breaks: upright, long side
1568 px, within the 1.5 MiB block cap.

Its speed against the naive path (issue 5: under 2×) is measured by ``bench/images.py``,
which runs both in the same process run and prints the ratio (BENCHMARKS.md), not by a
timed test on a shared machine.
"""

from __future__ import annotations

import functools
import io

import pytest
from PIL import Image

from tests.support.image_factory import encode, exif_bytes, photo_like
from webresearch.images.prepare import prepare_image


def naive(data: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(data))
    im.thumbnail((1568, 1568))
    return im


@functools.cache
def _photo() -> Image.Image:
    return photo_like(4000, 3000)


@pytest.mark.parametrize("orientation", [1, 6])
def test_a_4000x3000_jpeg_is_upright_and_within_the_limits(orientation: int) -> None:
    data = encode(_photo(), "JPEG", quality=90, exif=exif_bytes(orientation))
    out = prepare_image(data)
    expected = (1568, 1176) if orientation == 1 else (1176, 1568)
    assert (out.meta["width"], out.meta["height"]) == expected
    assert len(out.data) <= 1_572_864
    with Image.open(io.BytesIO(out.data)) as shown:
        assert shown.size == expected
        assert shown.getexif().get(0x0112, 1) == 1  # no rotation left for a viewer to apply
    # The naive path keeps the stored (sideways) orientation: the fault this guards.
    assert naive(data).size == (1568, 1176)
