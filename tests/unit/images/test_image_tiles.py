"""A tall screenshot becomes viewport-shaped tiles (never one squashed sliver, SPEC §1.4)."""

from __future__ import annotations

from PIL import Image

from tests.support.image_factory import encode
from webresearch.images.prepare import prepare_tiles


def tall(width: int, height: int) -> bytes:
    im = Image.new("RGB", (width, height), (255, 255, 255))
    for top in range(0, height, 800):  # a band per viewport, to tell tiles apart
        im.paste((top // 800 * 40 % 255, 0, 0), (0, top, width, min(height, top + 10)))
    return encode(im, "PNG")


def test_a_long_page_is_cut_into_at_most_four_viewport_tiles() -> None:
    tiles, height, covered = prepare_tiles(tall(1280, 4000), viewport_px=(1280, 800), max_tiles=4)
    assert height == 4000 and covered == 3200
    assert [(t.meta["width"], t.meta["height"]) for t in tiles] == [(1280, 800)] * 4
    assert len({t.meta["sha256_prefix"] for t in tiles}) == 4


def test_the_last_tile_may_be_shorter() -> None:
    tiles, height, covered = prepare_tiles(tall(1280, 2000), viewport_px=(1280, 800), max_tiles=4)
    assert [t.meta["height"] for t in tiles] == [800, 800, 400]
    assert covered == height == 2000


def test_a_page_no_taller_than_one_and_a_half_viewports_stays_whole() -> None:
    tiles, height, covered = prepare_tiles(tall(1280, 1100), viewport_px=(1280, 800), max_tiles=4)
    assert len(tiles) == 1 and (tiles[0].meta["width"], tiles[0].meta["height"]) == (1280, 1100)
    assert covered == height == 1100
