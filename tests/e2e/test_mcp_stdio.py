"""A real MCP client session with ``python -m webresearch mcp`` over stdio (as README says)."""

from __future__ import annotations

import sys
from pathlib import Path

import anyio
import mcp_types as types
import pytest
from mcp import Client, StdioServerParameters

from tests.support.http_server import LocalServer

from .conftest import EXCHANGE_TIMEOUT_S, PAGE_SENTENCE

pytestmark = pytest.mark.network


def text_of(result: types.CallToolResult) -> str:
    first = result.content[0]
    assert isinstance(first, types.TextContent)
    return first.text


#: The console script README tells clients to run, next to this interpreter.
SCRIPT = Path(sys.executable).with_name("webresearch")


@pytest.mark.parametrize(
    ("mode", "command"),
    [
        ("auto", [sys.executable, "-m", "webresearch", "mcp"]),  # 2026-07-28
        ("legacy", [str(SCRIPT), "mcp"]),  # the 2025-11-25 handshake; README's command
    ],
)
async def test_stdio_client_lists_tools_and_reads_a_local_page(
    mode: str, command: list[str], page_server: LocalServer, child_env: dict[str, str]
) -> None:
    assert Path(command[0]).exists(), "the console script is installed by pip install -e ."
    params = StdioServerParameters(command=command[0], args=command[1:], env=child_env)
    with anyio.fail_after(EXCHANGE_TIMEOUT_S):
        async with Client(params, mode=mode) as client:
            assert client.server_info is not None
            assert client.server_info.name == "webresearch"
            assert client.server_info.version

            listed = await client.list_tools()
            # Every registered tool is listed (fetch_image, the browser where installed …);
            # this test reads a page with web_fetch.
            assert "web_fetch" in [t.name for t in listed.tools]
            tool = next(t for t in listed.tools if t.name == "web_fetch")
            assert tool.title == "Read a web page"
            assert tool.annotations is not None
            assert tool.annotations.read_only_hint is True
            assert tool.annotations.destructive_hint is False
            assert tool.annotations.idempotent_hint is True
            assert tool.annotations.open_world_hint is True

            page = await client.call_tool("web_fetch", {"url": f"{page_server.base}/page"})
            assert page.is_error is False
            text = text_of(page)
            assert f"url: {page_server.base}/page" in text
            assert PAGE_SENTENCE in text

            # Tool failures are results the model reads, with the stable code: never a
            # protocol error.
            missing = await client.call_tool("web_fetch", {"url": f"{page_server.base}/gone"})
            assert missing.is_error is True
            assert text_of(missing).startswith("error[http_status]: ")
            blocked = await client.call_tool("web_fetch", {"url": "http://10.20.30.40/admin"})
            assert blocked.is_error is True
            assert text_of(blocked).startswith("error[blocked_address]: ")
            bad = await client.call_tool("web_fetch", {"url": 42})
            assert bad.is_error is True
            assert text_of(bad).startswith("error[invalid_arguments]: ")
    # The blocked address never saw a packet; the page server saw exactly its two requests.
    assert page_server.count("/page") == 1
    assert page_server.count("/gone") == 1
