"""fetch_image and view_image through the Toolkit, against a real local server (cases 24, 26,
28, 29 served from their headers.json) and real workspace files."""

from __future__ import annotations

import base64
import dataclasses
import io
import json
import shutil
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from PIL import Image

from tests.conftest import CASES
from tests.support.http_server import LocalServer, Route, load_case
from tests.support.image_factory import (
    assert_upright_picture,
    encode,
    mean,
    noise,
    oriented,
    photo_like,
    upright,
)
from webresearch import RunContext, Settings, Toolkit, ToolResult
from webresearch.images.sniff import MIME_OF, sniff
from webresearch.runtime.journal import MemoryJournal

CAP = 1_572_864

pytestmark = pytest.mark.network


@pytest.fixture
async def toolkit(settings: Settings) -> AsyncIterator[Toolkit]:
    async with Toolkit(settings) as kit:
        yield kit


def _case_server(name: str) -> LocalServer:
    return LocalServer(load_case(CASES / name))


def _image(result: ToolResult) -> Image.Image:
    assert result.ok, result.text
    [block] = result.images
    assert MIME_OF[sniff(block.data)] == block.mime
    assert len(block.data) <= CAP
    im = Image.open(io.BytesIO(block.data))
    im.load()
    return im


# --- the cases -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("path", "size"), [("/small.jpg", (800, 1200)), ("/large.jpg", (1045, 1568))]
)
async def test_case24_fetch_image_applies_exif_orientation(
    toolkit: Toolkit, path: str, size: tuple[int, int]
) -> None:
    with _case_server("24-image-exif-orientation") as srv:
        result = await toolkit.call("fetch_image", {"url": srv.base + path})
    _image(result)
    shown = upright(result.images[0].data)
    assert abs(shown.size[0] - size[0]) <= 1 and abs(shown.size[1] - size[1]) <= 1
    w, h = shown.size
    top, bottom = mean(shown, (0, 0, w, int(h * 0.08))), mean(shown, (0, h - int(h * 0.08), w, h))
    assert top[0] > 150 and top[1] < 80 and top[2] < 80
    assert bottom[2] > 150 and bottom[0] < 80
    assert Image.open(io.BytesIO(result.images[0].data)).getexif().get(0x0112) in (None, 1)
    meta = result.meta["image"]
    assert (meta["width"], meta["height"]) == shown.size
    assert f"{w}×{h} px" in result.text and "EXIF orientation 6 applied" in result.text


@pytest.mark.parametrize("name", ["small.jpg", "large.jpg"])
async def test_case24_view_image_on_the_same_files(
    toolkit: Toolkit, tmp_path: Path, name: str
) -> None:
    shutil.copy(CASES / "24-image-exif-orientation" / name, tmp_path / name)
    run = RunContext(workspace=tmp_path, network_access=False)
    result = await toolkit.call("view_image", {"path": f"/workspace/{name}"}, run=run)
    _image(result)
    shown = upright(result.images[0].data)
    assert shown.size in ((800, 1200), (1045, 1568))
    w, h = shown.size
    assert mean(shown, (0, 0, w, int(h * 0.08)))[0] > 150
    assert result.meta["path"] == f"/workspace/{name}"


@pytest.mark.parametrize("path", ["/anim.webp", "/anim.png", "/anim.gif"])
async def test_case26_animations_become_the_first_frame(toolkit: Toolkit, path: str) -> None:
    with _case_server("26-image-animated-webp") as srv:
        result = await toolkit.call("fetch_image", {"url": srv.base + path})
    im = _image(result)
    assert getattr(im, "n_frames", 1) == 1 and not getattr(im, "is_animated", False)
    data = result.images[0].data
    assert b"acTL" not in data and b"ANIM" not in data and b"ANMF" not in data
    assert im.size == (480, 320) and result.images[0].mime == "image/png"
    left = mean(im.convert("RGB"), (0, 0, 150, 320))
    assert left[0] > 180 and left[1] < 80 and left[2] < 80
    meta = result.meta["image"]
    assert meta["animated"] is True and meta["frames"] == 3 and meta["shown_frame"] == 1
    assert "only the first frame is shown" in result.text


async def test_case28_bomb_is_refused_fast_with_a_clear_message(toolkit: Toolkit) -> None:
    with _case_server("28-image-decompression-bomb") as srv:
        started = time.perf_counter()
        bomb = await toolkit.call("fetch_image", {"url": srv.base + "/bomb.png"})
        elapsed = time.perf_counter() - started
        big = await toolkit.call("fetch_image", {"url": srv.base + "/big.png"})
    assert elapsed < 5
    assert bomb.error is not None and bomb.error.code == "too_large" and not bomb.error.retryable
    assert "40000×40000" in bomb.text
    assert big.error is not None and big.error.code == "too_large" and "12000×12000" in big.text
    for result in (bomb, big):
        assert "Decompression" not in result.text and "Traceback" not in result.text


@pytest.mark.parametrize("path", ["/heavy.png", "/heavy.webp"])
async def test_case29_heavy_images_fit_the_block_cap(toolkit: Toolkit, path: str) -> None:
    with _case_server("29-image-small-but-heavy") as srv:
        result = await toolkit.call("fetch_image", {"url": srv.base + path})
    im = _image(result)
    assert im.size[0] <= 1000 and im.size[1] <= 700
    meta = result.meta["image"]
    assert meta["mime"] == "image/jpeg" and meta["bytes"] == len(result.images[0].data)
    assert meta["passthrough"] is False and meta["resized"] is (im.size != (1000, 700))


# --- bytes win over Content-Type -----------------------------------------------------------------
async def test_a_real_jpeg_labelled_html_is_an_image(toolkit: Toolkit, server: LocalServer) -> None:
    server.routes["/x"] = Route(
        headers=[("Content-Type", "text/html; charset=utf-8")], body=oriented(300, 200, 1)
    )
    result = await toolkit.call("fetch_image", {"url": server.base + "/x"})
    assert_upright_picture(_image(result).convert("RGB"))
    assert result.meta["declared_content_type"].startswith("text/html")


async def test_an_html_page_labelled_png_says_use_web_fetch(
    toolkit: Toolkit, server: LocalServer
) -> None:
    server.routes["/x.png"] = Route(
        headers=[("Content-Type", "image/png")], body=b"<!doctype html><html><p>hi"
    )
    result = await toolkit.call("fetch_image", {"url": server.base + "/x.png"})
    assert result.error is not None and result.error.code == "unsupported_content"
    assert not result.error.retryable
    assert "not an image" in result.text and "use web_fetch" in result.text


@pytest.mark.parametrize(
    ("body", "name"),
    [
        (b'<svg xmlns="http://www.w3.org/2000/svg" width="9"/>', "SVG"),
        (encode(Image.new("RGB", (8, 8)), "BMP"), "BMP"),
        (encode(Image.new("RGB", (8, 8)), "TIFF"), "TIFF"),
    ],
)
async def test_other_formats_are_named(
    toolkit: Toolkit, server: LocalServer, body: bytes, name: str
) -> None:
    server.routes["/i"] = Route(headers=[("Content-Type", "image/png")], body=body)
    result = await toolkit.call("fetch_image", {"url": server.base + "/i"})
    assert result.error is not None and result.error.code == "unsupported_content"
    assert name in result.text


# --- the fetch path ------------------------------------------------------------------------------
async def test_http_errors_map_like_web_fetch(toolkit: Toolkit, server: LocalServer) -> None:
    server.routes["/gone"] = Route(
        status=404, headers=[("Content-Type", "text/html")], body=b"<html>no"
    )
    server.routes["/busy"] = Route(status=503, headers=[("Retry-After", "7")], body=b"")
    gone = await toolkit.call("fetch_image", {"url": server.base + "/gone"})
    busy = await toolkit.call("fetch_image", {"url": server.base + "/busy"})
    assert gone.error is not None and gone.error.code == "http_status" and not gone.error.retryable
    assert "404" in gone.text
    assert busy.error is not None and busy.error.retryable and "retry after 7 s" in busy.text


async def test_redirects_are_followed_and_reported(toolkit: Toolkit, server: LocalServer) -> None:
    server.routes["/a"] = Route(status=302, headers=[("Location", "/b.png")])
    server.routes["/b.png"] = Route(
        headers=[("Content-Type", "image/png")], body=encode(photo_like(64, 48), "PNG")
    )
    result = await toolkit.call("fetch_image", {"url": server.base + "/a"})
    assert result.ok
    assert result.meta["final_url"] == server.base + "/b.png"
    assert result.meta["redirects"] == [[302, server.base + "/b.png"]]
    assert result.meta["image"]["passthrough"] is True
    accept = server.log[-1].headers["accept"]
    assert "image/webp" in accept and "avif" not in accept


async def test_private_addresses_are_refused_without_a_packet(server: LocalServer) -> None:
    server.routes["/x.png"] = Route(body=encode(photo_like(8, 8), "PNG"))
    async with Toolkit(Settings.load(environ={}, journal_url="memory://")) as kit:
        result = await kit.call("fetch_image", {"url": server.base + "/x.png"})
    assert result.error is not None and result.error.code == "blocked_address"
    assert server.count() == 0


async def test_images_over_the_source_cap_are_refused(
    toolkit: Toolkit, server: LocalServer
) -> None:
    server.routes["/huge.png"] = Route(
        headers=[("Content-Type", "image/png")], body=b"\x89PNG" + b"\0" * (6 * 1024 * 1024)
    )
    result = await toolkit.call("fetch_image", {"url": server.base + "/huge.png"})
    assert result.error is not None and result.error.code == "too_large"
    assert "5 MiB image size cap" in result.text


async def test_scope_applies(toolkit: Toolkit, server: LocalServer) -> None:
    run = RunContext(fetch_scope="search_results")
    result = await toolkit.call("fetch_image", {"url": server.base + "/x.png"}, run=run)
    assert result.error is not None and result.error.code == "scope_denied"
    assert server.count() == 0


async def test_repeated_fetches_come_from_the_cache(toolkit: Toolkit, server: LocalServer) -> None:
    server.routes["/c.jpg"] = Route(body=oriented(1800, 1200, 6))
    first = await toolkit.call("fetch_image", {"url": server.base + "/c.jpg"})
    second = await toolkit.call("fetch_image", {"url": server.base + "/c.jpg"})
    assert server.count("/c.jpg") == 1
    assert first.meta["cached"] is False and second.meta["cached"] is True
    assert second.images[0].data == first.images[0].data
    assert second.images[0].meta == first.images[0].meta


# --- gates, journal, availability ----------------------------------------------------------------
async def test_gates(toolkit: Toolkit, tmp_path: Path) -> None:
    def names(run: RunContext) -> set[str]:
        return {s.name for s in toolkit.tools(run)}

    assert {"fetch_image"} <= names(RunContext())
    assert "view_image" not in names(RunContext())
    assert "view_image" in names(RunContext(workspace=tmp_path))
    assert "fetch_image" not in names(RunContext(network_access=False, workspace=tmp_path))
    blind = names(RunContext(workspace=tmp_path, can_see_images=False))
    assert "fetch_image" not in blind and "view_image" not in blind
    refused = await toolkit.call("view_image", {"path": "a.png"}, run=RunContext())
    assert refused.error is not None and refused.error.code == "tool_unavailable"


async def test_the_journal_holds_metadata_only(
    settings: Settings, server: LocalServer, tmp_path: Path
) -> None:
    journal = MemoryJournal()
    body = encode(noise(300, 200), "PNG")
    server.routes["/n.png"] = Route(body=body)
    (tmp_path / "n.png").write_bytes(body)
    async with Toolkit(settings, journal=journal) as kit:
        fetched = await kit.call("fetch_image", {"url": server.base + "/n.png"})
        viewed = await kit.call("view_image", {"path": "n.png"}, run=RunContext(workspace=tmp_path))
    dumped = json.dumps([dataclasses.asdict(e) for e in journal.events], default=str)
    for result in (fetched, viewed):
        data = result.images[0].data
        assert base64.b64encode(data)[:64].decode() not in dumped
        assert base64.b64encode(data)[-64:].decode() not in dumped
    completed = [e for e in journal.events if e.kind == "tool.completed"]
    assert [e.details["images"][0]["sha256_prefix"] for e in completed] == [
        fetched.meta["image"]["sha256_prefix"],
        viewed.meta["image"]["sha256_prefix"],
    ]
    assert len(dumped) < 20_000


async def test_view_image_refusals_are_journaled_without_host_paths(
    settings: Settings, tmp_path: Path
) -> None:
    journal = MemoryJournal()
    async with Toolkit(settings, journal=journal) as kit:
        result = await kit.call(
            "view_image", {"path": "../../etc/passwd"}, run=RunContext(workspace=tmp_path)
        )
    assert result.error is not None and result.error.code == "invalid_arguments"
    assert str(tmp_path) not in result.text
    assert "workspace.refused" in [e.kind for e in journal.events]
    assert str(tmp_path) not in json.dumps(
        [dataclasses.asdict(e) for e in journal.events], default=str
    )


async def test_without_pillow_the_image_tools_are_unavailable_not_broken(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "PIL", None)
    async with Toolkit(settings) as kit:
        assert "Pillow" in kit.unavailable["fetch_image"]
        assert "Pillow" in kit.unavailable["view_image"]
        assert "web_fetch" in {s.name for s in kit.tools()}


def test_importing_the_library_does_not_import_pillow() -> None:
    code = "import sys, webresearch; webresearch.Toolkit; print('PIL' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
