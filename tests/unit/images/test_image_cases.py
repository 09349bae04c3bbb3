"""Cases 24, 26, 28 and 29 at the pipeline level (the MUST items of each expect.md)."""

from __future__ import annotations

import io
import time

import pytest
from PIL import Image

from tests.support.image_factory import assert_upright_picture, mean, upright
from webresearch.errors import TooLarge
from webresearch.images.prepare import prepare_image
from webresearch.images.sniff import MIME_OF, sniff

CAP = 1_572_864


def _mime_matches(data: bytes, mime: str) -> bool:
    return MIME_OF.get(sniff(data)) == mime


# --- 24: EXIF orientation ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("name", "size"),
    [("24/small.jpg", (800, 1200)), ("24/large.jpg", (1045, 1568))],
)
def test_case24_exif_orientation_is_applied(
    case_bytes: dict[str, bytes], name: str, size: tuple[int, int]
) -> None:
    out = prepare_image(case_bytes[name])
    shown = upright(out.data)
    assert abs(shown.size[0] - size[0]) <= 1 and abs(shown.size[1] - size[1]) <= 1
    w, h = shown.size
    top = mean(shown, (0, 0, w, int(h * 0.08)))
    bottom = mean(shown, (0, h - int(h * 0.08), w, h))
    assert top[0] > 150 and top[1] < 80 and top[2] < 80
    assert bottom[2] > 150 and bottom[0] < 80
    if not out.meta["passthrough"]:
        assert Image.open(io.BytesIO(out.data)).getexif().get(0x0112) in (None, 1)
    assert len(out.data) <= CAP
    # SHOULD: the metadata gives the displayed size.
    assert (out.meta["width"], out.meta["height"]) == shown.size
    assert out.meta["orientation_applied"] == 6


# --- 26: animations --------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["26/anim.webp", "26/anim.png", "26/anim.gif"])
def test_case26_animation_becomes_its_first_frame(case_bytes: dict[str, bytes], name: str) -> None:
    out = prepare_image(case_bytes[name])
    im = Image.open(io.BytesIO(out.data))
    assert getattr(im, "n_frames", 1) == 1
    assert getattr(im, "is_animated", False) is False
    assert b"acTL" not in out.data and b"ANIM" not in out.data and b"ANMF" not in out.data
    assert im.size == (480, 320)
    assert _mime_matches(out.data, out.meta["mime"])
    assert out.mime == "image/png"  # GIF → PNG (and the other animations too: lossless)
    left = mean(im.convert("RGB"), (0, 0, 150, 320))
    assert left[0] > 180 and left[1] < 80 and left[2] < 80
    assert out.meta["animated"] is True
    assert out.meta["frames"] == 3
    assert out.meta["shown_frame"] == 1


# --- 28: pixel bombs -------------------------------------------------------------------------
def test_case28_bomb_is_refused_quickly_with_the_dimensions(case_bytes: dict[str, bytes]) -> None:
    started = time.perf_counter()
    with pytest.raises(TooLarge) as caught:
        prepare_image(case_bytes["28/bomb.png"])
    assert time.perf_counter() - started < 5
    err = caught.value
    assert "40000×40000" in err.message
    assert not err.retryable
    assert "Decompression" not in err.to_text()
    assert err.details["pixels"] == 1_600_000_000


def test_case28_big_png_is_refused_as_too_many_pixels_by_default(
    case_bytes: dict[str, bytes],
) -> None:
    with pytest.raises(TooLarge) as caught:
        prepare_image(case_bytes["28/big.png"])
    assert "12000×12000" in caught.value.message
    assert "megapixel limit" in caught.value.message


def test_pillow_global_limit_is_never_touched(case_bytes: dict[str, bytes]) -> None:
    before = Image.MAX_IMAGE_PIXELS
    with pytest.raises(TooLarge):
        prepare_image(case_bytes["28/bomb.png"])
    prepare_image(case_bytes["24/large.jpg"])
    assert before == Image.MAX_IMAGE_PIXELS


def test_our_limit_holds_even_when_other_code_lowered_pillows(
    case_bytes: dict[str, bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Another library in the process sets Pillow's global limit very low: our pipeline
    # opens through the format's class, so only the product's own limit applies.
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", 1000)
    out = prepare_image(case_bytes["24/large.jpg"])
    assert out.meta["width"] == 1045


def test_a_raised_limit_lets_big_png_through_correctly(case_bytes: dict[str, bytes]) -> None:
    # The operator may raise image_max_pixels; Pillow's own warning threshold (89.5 Mpx)
    # must not then turn into a DecompressionBombWarning (warnings are errors here).
    out = prepare_image(case_bytes["28/big.png"], max_pixels=150_000_000)
    im = Image.open(io.BytesIO(out.data)).convert("L")
    assert im.size == (1568, 1568)
    assert len(out.data) <= CAP
    w, h = im.size
    assert mean(im, (0, 0, int(w * 0.05), h))[0] < 40
    assert mean(im, (w - int(w * 0.05), 0, w, h))[0] > 215


# --- 29: small but heavy ---------------------------------------------------------------------
@pytest.mark.parametrize("name", ["29/heavy.png", "29/heavy.webp"])
def test_case29_heavy_images_fit_the_cap(case_bytes: dict[str, bytes], name: str) -> None:
    source = case_bytes[name]
    out = prepare_image(source)
    assert len(out.data) <= CAP
    im = Image.open(io.BytesIO(out.data))
    im.load()
    assert im.size[0] <= 1000 and im.size[1] <= 700
    assert _mime_matches(out.data, out.meta["mime"])
    assert out.mime == "image/jpeg"
    assert out.meta["passthrough"] is False
    assert out.meta["resized"] is (im.size != (1000, 700))
    assert out.meta["bytes"] == len(out.data)


def test_upright_picture_helper_detects_a_sideways_image() -> None:
    # The checks above are only as good as the helper: a sideways image must fail it.
    from tests.support.image_factory import upright_picture

    assert_upright_picture(upright_picture(200, 300))
    with pytest.raises(AssertionError):
        assert_upright_picture(upright_picture(200, 300).transpose(Image.Transpose.ROTATE_90))
