"""Zooming into a workspace image (issue 15, fault 8): view_image's ``clip`` shows one region
of the image as displayed, enlarged so small print can be read."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from tests.support.image_factory import encode, mean, oriented
from webresearch import InvalidArguments, RunContext, Settings, Toolkit
from webresearch.images.prepare import prepare_region
from webresearch.images.region import MAX_ZOOM, Region, parse_region, zoom_for
from webresearch.runtime.journal import MemoryJournal


def test_regions_parse_and_cut_to_the_picture() -> None:
    assert parse_region(" 1, 2 ,3,4 ") == Region(1, 2, 3, 4)
    assert str(Region(1, 2, 3, 4)) == "1,2,3,4"
    assert Region(90, 0, 50, 50).within(100, 40) == Region(90, 0, 10, 40)
    assert Region(100, 0, 5, 5).within(100, 40) is None
    for bad in ("", "1,2,3", "1,2,3,4,5", "1.5,2,3,4", "1,2,0,4", "x"):
        with pytest.raises(InvalidArguments):
            parse_region(bad)


def test_zoom_fills_the_box_between_1_and_the_maximum() -> None:
    assert zoom_for(Region(0, 0, 320, 100), (1280, 800)) == MAX_ZOOM
    assert zoom_for(Region(0, 0, 640, 400), (1280, 800)) == 2.0
    assert zoom_for(Region(0, 0, 2000, 100), (1280, 800)) == 1.0  # never shrunk here


def _quadrants() -> bytes:
    """400×300: red top-left, green top-right, blue bottom-left, white bottom-right."""
    im = Image.new("RGB", (400, 300), (255, 255, 255))
    im.paste((255, 0, 0), (0, 0, 200, 150))
    im.paste((0, 255, 0), (200, 0, 400, 150))
    im.paste((0, 0, 255), (0, 150, 200, 300))
    return encode(im, "PNG")


def test_a_region_is_cut_and_enlarged() -> None:
    prepared = prepare_region(_quadrants(), Region(200, 0, 100, 50), max_side_px=1568)
    im = Image.open(io.BytesIO(prepared.data)).convert("RGB")
    assert im.size == (400, 200)  # 4× (the most), not the source's 400×300
    assert mean(im, (0, 0, 400, 200))[1] > 250  # only the green quadrant
    meta = prepared.meta
    assert (meta["clip"], meta["zoom"]) == ("200,0,100,50", 4.0)
    assert (meta["source_width"], meta["source_height"], meta["source_format"]) == (400, 300, "png")


def test_a_region_is_in_the_pixels_of_the_image_as_displayed() -> None:
    # Stored sideways with EXIF orientation 6: the region names the upright picture's
    # pixels, whose top band is red (tests.support.image_factory.upright_picture).
    data = oriented(300, 200, 6)
    prepared = prepare_region(data, Region(0, 0, 300, 10))
    im = Image.open(io.BytesIO(prepared.data)).convert("RGB")
    red = mean(im, (0, 0, im.width, im.height))
    assert red[0] > 150 and red[1] < 90, red
    assert prepared.meta["orientation_applied"] == 6


def test_a_region_outside_the_image_says_its_size() -> None:
    with pytest.raises(InvalidArguments, match=r"outside the image \(400×300 px\)"):
        prepare_region(_quadrants(), Region(400, 0, 10, 10))


async def test_view_image_zooms_into_a_workspace_file(tmp_path: Path) -> None:
    (tmp_path / "shot.png").write_bytes(_quadrants())
    run = RunContext(workspace=tmp_path, network_access=False)
    settings = Settings.load(environ={}, journal_url="memory://")
    async with Toolkit(settings, journal=MemoryJournal()) as toolkit:
        whole = await toolkit.call("view_image", {"path": "shot.png"}, run=run)
        part = await toolkit.call(
            "view_image", {"path": "shot.png", "clip": "0,150,200,150"}, run=run
        )
        bad = await toolkit.call("view_image", {"path": "shot.png", "clip": "0,0,0,5"}, run=run)
    assert whole.ok and "region" not in whole.text
    assert part.ok, part.text
    assert "region 0,150,200,150 enlarged" in part.text
    im = Image.open(io.BytesIO(part.images[0].data)).convert("RGB")
    assert mean(im, (0, 0, im.width, im.height))[2] > 250  # the blue quadrant only
    assert bad.error is not None and bad.error.code == "invalid_arguments"


def test_the_image_command_zooms_too(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from webresearch.cli.main import cli

    (tmp_path / "shot.png").write_bytes(_quadrants())
    out = tmp_path / "zoom.png"
    env = {"WEBRESEARCH_JOURNAL_URL": "memory://"}
    args = ["image", str(tmp_path / "shot.png"), "--clip", "200,0,100,50", "-o", str(out)]
    result = CliRunner().invoke(cli, args, env=env)
    assert result.exit_code == 0, result.output
    assert "region 200,0,100,50 enlarged 4×" in result.stdout
    with Image.open(out) as zoomed:
        assert zoomed.size == (400, 200)
    url = CliRunner().invoke(cli, ["image", "https://example.org/a.png", "--clip", "0,0,5,5"])
    assert url.exit_code == 2 and "--clip is for a workspace file" in url.stderr


def test_a_negative_value_is_named_as_the_cause() -> None:
    """Before: ``clip: '-10,-10,5000,5000' is not a region`` without saying why."""
    for text in ("-10,-10,5000,5000", "0,0,-5,10", " 1, -2 ,3,4 "):
        with pytest.raises(InvalidArguments) as bad:
            parse_region(text)
        assert "negative value" in bad.value.message, text
        assert "X and Y are 0 or more" in bad.value.message
    with pytest.raises(InvalidArguments) as bad:
        parse_region("-1.5,2,3,4")  # not whole numbers: the plain wording
    assert bad.value.message.endswith("is not a region")


@pytest.mark.parametrize(
    ("text", "result"),
    [
        ("-0,0,10,10", Region(0, 0, 10, 10)),
        ("0,-0,5,5", Region(0, 0, 5, 5)),
        ("+1,2,3,4", Region(1, 2, 3, 4)),
    ],
)
def test_a_sign_on_a_number_that_is_not_negative_changes_nothing(text: str, result: Region) -> None:
    """Before (fresh review, session 9): ``-0,0,10,10`` was refused as having ``a negative
    value`` — -0 is 0."""
    assert parse_region(text) == result


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("-5,0,10,10", "clip: '-5,0,10,10' has a negative value (X is -5): X and Y are 0 or more"),
        ("0,-1,-2,10", "has a negative value (Y is -1, W is -2): "),
        (
            "0,0,-0,10",
            "clip: '0,0,-0,10' is no area (W is 0): the width and height are at least 1 px",
        ),
        ("0,0,3,0", "is no area (H is 0)"),
        ("0,0,0,0", "is no area (W and H are 0)"),
    ],
)
def test_the_message_names_the_wrong_number_and_the_hint_the_form(text: str, words: str) -> None:
    """Before: a width of 0 said only ``the width and height must be at least 1 px``, with
    no next step; a negative value did not say which."""
    with pytest.raises(InvalidArguments) as bad:
        parse_region(text)
    assert words in bad.value.message
    assert bad.value.hint == "give X,Y,W,H in px, e.g. 0,0,640,400"
