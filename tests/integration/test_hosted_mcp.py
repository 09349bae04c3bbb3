"""The MCP server lists the new tools with titles in the configured language; what the model
sees (names, descriptions, schemas) stays byte for byte the snapshot's whatever the language.
Calls go through the SDK's own in-memory client, in both protocol eras."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import mcp_types as types
import pytest
from mcp import Client

from tests.support.api_server import ApiServer
from tests.support.hosted_stubs import FIRECRAWL_KEY, FirecrawlStub, StubPage
from tests.support.tiny_png import png_bytes
from webresearch import Settings, Toolkit
from webresearch.mcp_server import WebResearchServer
from webresearch.runtime.journal import MemoryJournal
from webresearch.tools.gates import backend_unavailable_reason
from webresearch.tools.titles import TITLES

pytestmark = pytest.mark.network

MODES = pytest.mark.parametrize("mode", ["legacy", "auto"])
#: Why no browser backend can run on this machine (``None``: one can).
BROWSER = backend_unavailable_reason(
    SimpleNamespace(settings=Settings.load(environ={}, journal_url="memory://"))  # type: ignore[arg-type]
)
SNAPSHOT = Path(__file__).parents[1] / "snapshots" / "tool_specs.json"
PAGE_URL = "https://news.example/story"


async def resolver(host: str) -> list[str]:
    return ["93.184.216.34"]


@pytest.fixture
def api() -> Iterator[ApiServer]:
    with ApiServer() as server:
        FirecrawlStub(server, pages={PAGE_URL: StubPage("# Story\n\nText.", title="Story")})
        yield server


def settings_for(base: str, language: str) -> Settings:
    return Settings.load(
        environ={},
        allowed_networks=["127.0.0.0/8"],
        journal_url="memory://",
        search_provider="none",
        screenshot_service="firecrawl",
        firecrawl_base_url=base,
        firecrawl_api_key=FIRECRAWL_KEY,
        tool_titles_language=language,
        robots="ignore",  # the site is a public test address: see test_robots.py
    )


async def listed(base: str, language: str, workspace: Path, mode: str) -> list[types.Tool]:
    toolkit = Toolkit(settings_for(base, language), journal=MemoryJournal(), resolver=resolver)
    web = WebResearchServer(toolkit, workspace=workspace)
    async with toolkit, Client(web.server, mode=mode) as client:
        tools = (await client.list_tools()).tools
    await web.aclose()
    return tools


@MODES
async def test_new_tools_are_listed_with_localized_titles_and_constant_schemas(
    mode: str, api: ApiServer, tmp_path: Path
) -> None:
    snapshot = {s["name"]: s for s in json.loads(SNAPSHOT.read_text(encoding="utf-8"))}
    seen: dict[str, list[dict[str, Any]]] = {}
    for language in ("en", "ru", "zh"):
        tools = await listed(api.base, language, tmp_path, mode)
        names = [t.name for t in tools]
        assert {"page_screenshot", "image_info", "web_fetch"} <= set(names)
        if BROWSER is None:  # a backend can run here: the one-shot tool is listed too
            assert {"browser_open", "browser"} <= set(names)
        for tool in tools:
            assert tool.title == TITLES[language][tool.name]
            assert tool.annotations is not None
            assert tool.annotations.title == TITLES[language][tool.name]
            # The model-facing part is the snapshot's, byte for byte.
            assert {
                "name": tool.name,
                "description": tool.description,
                "input_schema": tool.input_schema,
            } == snapshot[tool.name]
        seen[language] = [
            {"name": t.name, "description": t.description, "schema": t.input_schema} for t in tools
        ]
    assert seen["en"] == seen["ru"] == seen["zh"]
    image_info = next(
        t for t in await listed(api.base, "ru", tmp_path, mode) if t.name == "image_info"
    )
    assert image_info.title == "Сведения об изображении"
    assert image_info.annotations is not None
    assert image_info.annotations.read_only_hint is True
    assert image_info.annotations.open_world_hint is False


@MODES
async def test_image_info_and_page_screenshot_answer_over_mcp(
    mode: str, api: ApiServer, tmp_path: Path
) -> None:
    (tmp_path / "shot.png").write_bytes(png_bytes(30, 20, (10, 20, 30)))
    toolkit = Toolkit(settings_for(api.base, "en"), journal=MemoryJournal(), resolver=resolver)
    web = WebResearchServer(toolkit, workspace=tmp_path)
    async with toolkit, Client(web.server, mode=mode) as client:
        info = await client.call_tool("image_info", {"path": "shot.png"})
        assert info.is_error is False
        assert [c.type for c in info.content] == ["text"]  # facts only, never pixels
        text = info.content[0]
        assert isinstance(text, types.TextContent)
        assert "format: PNG" in text.text and "size: 30×20 px" in text.text
        escape = await client.call_tool("image_info", {"path": "../etc/passwd"})
        assert escape.is_error is True
        shot = await client.call_tool("page_screenshot", {"url": PAGE_URL})
        # the stub page has no screenshot: the text comes instead, never an error
        assert shot.is_error is False
        body = shot.content[0]
        assert isinstance(body, types.TextContent)
        assert body.text.startswith("note: screenshot no longer available")
    await web.aclose()


@MODES
async def test_browser_open_is_listed_with_its_title_in_each_language(
    mode: str, api: ApiServer, tmp_path: Path
) -> None:
    assert BROWSER is None, f"the test setup (scripts/test) installs a browser: {BROWSER}"
    for language, title in (
        ("en", "Open a page in a browser"),
        ("ru", "Открыть страницу в браузере"),
        ("zh", "在浏览器中打开网页"),
    ):
        tools = {t.name: t for t in await listed(api.base, language, tmp_path, mode)}
        tool = tools["browser_open"]
        assert tool.title == title
        assert tool.input_schema == {
            "type": "object",
            "properties": {"url": {"type": "string", "description": "Absolute http(s) URL."}},
            "required": ["url"],
            "additionalProperties": False,
        }
