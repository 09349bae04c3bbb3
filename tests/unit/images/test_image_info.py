"""image_info: header facts without pixels (format, px, bytes, frames, EXIF orientation),
the workspace confinement of view_image, and its gate (a workspace; vision not needed)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from tests.support.image_factory import animated, encode, oriented, png_bomb
from webresearch import RunContext, Settings, Toolkit
from webresearch.errors import UnsupportedContent
from webresearch.images.info import facts_text, image_facts
from webresearch.runtime.journal import MemoryJournal


def test_png_facts() -> None:
    data = encode(Image.new("RGB", (30, 20), (1, 2, 3)), "PNG")
    facts = image_facts(data, len(data))
    assert facts["format"] == "png" and facts["mime"] == "image/png" and facts["viewable"]
    assert (facts["width"], facts["height"]) == (30, 20)
    assert facts["animated"] is False and facts["frames"] == 1 and facts["bit_depth"] == 8
    text = facts_text("a.png", facts)
    assert text.splitlines()[:4] == [
        "path: a.png",
        "format: PNG",
        "size: 30×20 px",
        f"bytes: {len(data)} ({len(data)} bytes)",
    ]
    assert "animation: no" in text


@pytest.mark.parametrize(
    "orientation,turn", [(6, "rotated 90° clockwise"), (8, "rotated 90° counter-clockwise")]
)
def test_exif_orientation_swaps_the_displayed_size(orientation: int, turn: str) -> None:
    data = oriented(60, 40, orientation)  # shown upright as 60×40, stored as 40×60
    facts = image_facts(data, len(data))
    assert facts["orientation"] == orientation
    assert (facts["width"], facts["height"]) == (40, 60)
    assert (facts["displayed_width"], facts["displayed_height"]) == (60, 40)
    assert f"shown 60×40 px (EXIF orientation {orientation}: {turn})" in facts_text("p.jpg", facts)


@pytest.mark.parametrize("fmt,name", [("GIF", "GIF"), ("WEBP", "WebP"), ("PNG", "APNG")])
def test_animations_report_their_frames(fmt: str, name: str) -> None:
    data = animated(fmt, frames=4)
    facts = image_facts(data, len(data))
    assert facts["animated"] is True and facts["format_name"] == name
    text = facts_text("anim", facts)
    if facts["frames"] is not None:
        assert facts["frames"] == 4 and "animation: yes, 4 frames" in text
    assert "view_image shows the first frame" in text


def test_a_gif_read_in_part_reports_at_least_its_frames() -> None:
    data = animated("GIF", frames=4)
    head = data[: len(data) * 2 // 3]
    facts = image_facts(head, len(data))
    assert facts["frames_at_least"] is True
    assert f"at least {facts['frames']} frames" in facts_text("a.gif", facts)


def test_an_image_too_large_to_decode_is_still_described() -> None:
    data = png_bomb(20_000, 20_000)  # 400 Mpx: the pipeline would refuse it, info does not
    facts = image_facts(data, len(data))
    assert (facts["width"], facts["height"]) == (20_000, 20_000)


def test_other_image_formats_are_named_as_not_viewable() -> None:
    data = encode(Image.new("RGB", (8, 8)), "BMP")
    facts = image_facts(data, len(data))
    assert facts["format"] == "bmp" and facts["viewable"] is False and facts["mime"] is None
    text = facts_text("x.bmp", facts)
    assert "format: BMP (view_image cannot show it" in text and "size: unknown" in text


@pytest.mark.parametrize("data", [b"<!doctype html><p>x", b"%PDF-1.7\n", b"", b"plain text\n"])
def test_non_images_are_unsupported_content(data: bytes) -> None:
    with pytest.raises(UnsupportedContent, match="not an image"):
        image_facts(data, len(data))


async def test_the_tool_reads_only_inside_the_workspace_and_needs_no_vision(tmp_path: Path) -> None:
    png = encode(Image.new("RGB", (16, 9), (9, 9, 9)), "PNG")
    (tmp_path / "shots").mkdir()
    (tmp_path / "shots" / "a.png").write_bytes(png)
    big = tmp_path / "big.png"  # over the 5 MiB view cap: still described
    big.write_bytes(png + b"\0" * (6 * 1024 * 1024))
    (tmp_path / "link.png").symlink_to("/etc/hostname")
    settings = Settings.load(environ={}, journal_url="memory://", search_provider="none")
    blind = RunContext(workspace=tmp_path, can_see_images=False, network_access=False)
    async with Toolkit(settings, journal=MemoryJournal()) as toolkit:
        assert [s.name for s in toolkit.tools(blind)] == ["image_info"]
        assert "image_info" not in [s.name for s in toolkit.tools(RunContext())]
        ok = await toolkit.call("image_info", {"path": "/workspace/shots/a.png"}, run=blind)
        assert ok.ok and ok.images == () and "size: 16×9 px" in ok.text
        assert ok.meta["path"] == "/workspace/shots/a.png" and ok.meta["width"] == 16
        large = await toolkit.call("image_info", {"path": "big.png"}, run=blind)
        assert large.ok and f"bytes: {big.stat().st_size}" in large.text
        for path in ("../outside.png", "/etc/passwd", "link.png", "shots"):
            refused = await toolkit.call("image_info", {"path": path}, run=blind)
            assert refused.error is not None and refused.error.code == "invalid_arguments", path
            assert "/etc/hostname" not in refused.text and str(tmp_path) not in refused.text
        journal = toolkit.journal
        assert isinstance(journal, MemoryJournal)
        assert [e.kind for e in journal.events].count("workspace.refused") >= 2
