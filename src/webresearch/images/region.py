"""A rectangle of a picture to look at closely: ``X,Y,W,H`` in pixels (the browser's
``screenshot`` clip in CSS px of the page, view_image's clip in px of the image as displayed).

Pure: parsing, clamping to the picture, and the zoom that makes a small region large enough
for a vision model to read its small print.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import InvalidArguments

__all__ = ["MAX_ZOOM", "REGION_FORM", "Region", "parse_region", "zoom_for"]

#: How a region is written (the hint of every parse error).
REGION_FORM = "X,Y,W,H in px, e.g. 0,0,640,400"
#: Most a region is enlarged (beyond that, pixels only get bigger, not sharper).
MAX_ZOOM = 4.0

#: Four whole numbers, each maybe with a sign (``-0`` is 0; a negative one is refused).
_REGION = re.compile(
    r"^\s*([-+]?\d{1,6})\s*,\s*([-+]?\d{1,6})\s*,\s*([-+]?\d{1,6})\s*,\s*([-+]?\d{1,6})\s*$"
)
#: The names of a region's four numbers, in order.
_PARTS = ("X", "Y", "W", "H")


@dataclass(frozen=True, slots=True)
class Region:
    """A rectangle: left, top, width and height in px (width and height ≥ 1)."""

    x: int
    y: int
    width: int
    height: int

    def __str__(self) -> str:
        return f"{self.x},{self.y},{self.width},{self.height}"

    def within(self, width: int, height: int) -> Region | None:
        """This region cut to a ``width`` × ``height`` picture, or ``None`` when it lies
        wholly outside it."""
        right, bottom = min(self.x + self.width, width), min(self.y + self.height, height)
        if self.x >= right or self.y >= bottom:
            return None
        return Region(self.x, self.y, right - self.x, bottom - self.y)


def parse_region(text: str, name: str = "clip") -> Region:
    """``"X,Y,W,H"`` → :class:`Region`.

    ``-0`` is 0 (a sign on 0 changes nothing; it was called a negative value).

    Raises:
        InvalidArguments: not four whole numbers, a negative one, or a width or height
            of 0 (the message names which number is wrong, the hint the form).
    """
    match = _REGION.match(text)
    if match is None:
        raise InvalidArguments(f"{name}: {text[:40]!r} is not a region", hint=f"give {REGION_FORM}")
    values = [int(g) for g in match.groups()]
    x, y, width, height = values
    negative = [f"{part} is {v}" for part, v in zip(_PARTS, values, strict=True) if v < 0]
    if negative:
        raise InvalidArguments(
            f"{name}: {text[:40]!r} has a negative value ({', '.join(negative)}): X and Y are "
            "0 or more (the picture's top-left corner is 0,0), W and H at least 1",
            hint=f"give {REGION_FORM}",
        )
    if not width or not height:
        empty = "W and H are" if not width and not height else ("W is" if not width else "H is")
        raise InvalidArguments(
            f"{name}: {text[:40]!r} is no area ({empty} 0): the width and height are at least 1 px",
            hint=f"give {REGION_FORM}",
        )
    return Region(x, y, width, height)


def zoom_for(region: Region, box: tuple[int, int]) -> float:
    """How much to enlarge ``region`` so it fills ``box`` (width, height in px): at least 1
    (never shrunk here), at most :data:`MAX_ZOOM`."""
    return max(1.0, min(MAX_ZOOM, box[0] / region.width, box[1] / region.height))
