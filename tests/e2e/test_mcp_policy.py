"""Run policy set on the MCP server holds for its clients (issue 16): the fetch scope and a
session's budget (``--fetch-scope``, ``--budget``, ``mcp_fetch_scope``, ``mcp_budget``), and
the client is told the rules in force in the server's ``instructions``."""

from __future__ import annotations

import sys
from typing import Any

import anyio
import mcp_types as types
import pytest
from click.testing import CliRunner
from mcp import Client, StdioServerParameters

from tests.support.http_server import LocalServer
from webresearch import ConfigurationError, Settings, Toolkit, ToolResult
from webresearch.cli.main import cli
from webresearch.mcp_server import WebResearchServer
from webresearch.runtime.journal import MemoryJournal
from webresearch.tools import web_fetch
from webresearch.tools.base import CallContext, ToolEntry
from webresearch.tools.services import Services
from webresearch.tools.web_search import WEB_SEARCH
from webresearch.types import JSONObject

from .conftest import EXCHANGE_TIMEOUT_S, PAGE_SENTENCE

MODES = pytest.mark.parametrize("mode", ["legacy", "auto"])
PRICE = 0.02


def paid_search(page_url: str) -> Any:
    """web_search that costs PRICE and "finds" ``page_url`` (the scope's source)."""

    def build(services: Services) -> ToolEntry[JSONObject]:
        async def run(arguments: dict[str, Any], ctx: CallContext) -> ToolResult:
            await ctx.reserve(ctx.price, "search-service")
            ctx.spent(ctx.price, "search-service")
            await ctx.record_search_results([page_url])
            return ToolResult(text=f"1. {page_url}")

        return ToolEntry(spec=WEB_SEARCH, run=run, price=PRICE)

    return build


def text_of(result: types.CallToolResult) -> str:
    first = result.content[0]
    assert isinstance(first, types.TextContent)
    return first.text


@MODES
async def test_scope_and_budget_of_the_server_hold_for_a_client(
    mode: str, settings: Settings, page_server: LocalServer
) -> None:
    page, other = f"{page_server.base}/page", f"{page_server.base}/other"
    toolkit = Toolkit(
        settings, journal=MemoryJournal(), builders=[paid_search(page), web_fetch.build]
    )
    async with toolkit:
        web = WebResearchServer(toolkit, fetch_scope="search_results", budget=0.05)
        async with Client(web.server, mode=mode) as client:
            assert client.instructions == web.instructions
            assert "Only URLs from your latest web_search results" in web.instructions

            before = await client.call_tool("web_fetch", {"url": page})
            assert text_of(before).startswith("error[scope_denied]: ")
            assert page_server.count("/page") == 0  # refused before any request

            assert (await client.call_tool("web_search", {"query": "fox"})).is_error is False
            found = await client.call_tool("web_fetch", {"url": page})
            assert found.is_error is False and PAGE_SENTENCE in text_of(found)
            elsewhere = await client.call_tool("web_fetch", {"url": other})
            assert text_of(elsewhere).startswith("error[scope_denied]: ")

            # 0.05 pays for two searches of 0.02; the third is over the session's budget.
            assert (await client.call_tool("web_search", {"query": "again"})).is_error is False
            over = await client.call_tool("web_search", {"query": "once more"})
            assert text_of(over).startswith("error[budget_exceeded]: ")
        await web.aclose()
    assert page_server.count("/other") == 0


def test_user_links_is_refused_for_an_mcp_server(settings: Settings) -> None:
    # An MCP server never sees the person's messages: every URL would be refused.
    with pytest.raises(ConfigurationError, match="never sees"):
        WebResearchServer(Toolkit(settings, journal=MemoryJournal()), fetch_scope="user_links")
    result = CliRunner().invoke(
        cli, ["mcp", "--fetch-scope", "user_links"], env={"WEBRESEARCH_JOURNAL_URL": "memory://"}
    )
    assert result.exit_code == 2 and "user_links" in result.stderr


async def test_the_command_line_scope_reaches_a_stdio_client(
    page_server: LocalServer, child_env: dict[str, str]
) -> None:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "webresearch", "mcp", "--fetch-scope", "search_results", "--budget", "1"],
        env=child_env,
    )
    with anyio.fail_after(EXCHANGE_TIMEOUT_S):
        async with Client(params, mode="legacy") as client:
            assert client.instructions is not None
            assert "latest web_search results" in client.instructions
            refused = await client.call_tool("web_fetch", {"url": f"{page_server.base}/page"})
    assert text_of(refused).startswith("error[scope_denied]: ")
    assert page_server.count("/page") == 0
