"""The real image tools behind the MCP server (in process, the SDK's own client): a case-24
photo reaches the client as one upright ``ImageContent`` plus the metadata text."""

from __future__ import annotations

import base64
import io
import shutil
from pathlib import Path

import mcp
import mcp_types as types
import pytest
from PIL import Image

from tests.conftest import CASES
from tests.support.http_server import LocalServer, load_case
from tests.support.image_factory import mean
from webresearch import Settings, Toolkit
from webresearch.mcp_server import WebResearchServer
from webresearch.runtime.journal import MemoryJournal

CASE24 = CASES / "24-image-exif-orientation"


def _upright_block(result: object) -> Image.Image:
    content = result.content  # type: ignore[attr-defined]
    assert isinstance(content[0], types.TextContent)
    images = [c for c in content if isinstance(c, types.ImageContent)]
    assert len(images) == 1 and images[0].mime_type == "image/jpeg"
    im = Image.open(io.BytesIO(base64.b64decode(images[0].data)))
    im.load()
    return im


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_fetch_and_view_image_over_mcp(mode: str, settings: Settings, tmp_path: Path) -> None:
    shutil.copy(CASE24 / "large.jpg", tmp_path / "large.jpg")
    toolkit = Toolkit(settings, journal=MemoryJournal())
    web = WebResearchServer(toolkit, workspace=tmp_path)
    with LocalServer(load_case(CASE24)) as srv:
        async with toolkit, mcp.Client(web.server, mode=mode) as client:
            names = [t.name for t in (await client.list_tools()).tools]
            assert "fetch_image" in names and "view_image" in names
            fetched = await client.call_tool("fetch_image", {"url": srv.base + "/large.jpg"})
            viewed = await client.call_tool("view_image", {"path": "large.jpg"})
        await web.aclose()
    for result in (fetched, viewed):
        assert result.is_error is False
        im = _upright_block(result)
        assert im.size == (1045, 1568)
        assert mean(im.convert("RGB"), (0, 0, 1045, 120))[0] > 150  # red band on top
        text = result.content[0]
        assert isinstance(text, types.TextContent)
        assert "1045×1568 px" in text.text
