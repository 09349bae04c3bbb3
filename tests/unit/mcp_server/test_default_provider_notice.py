"""The MCP server says, once, when web_search falls back to ddgs because no provider is set
(the line ``webresearch search`` says): before, the server sent its clients' queries to
public search engines without a word on its stderr.

No search leaves this process: ddgs's client is replaced by one that refuses to run and the
provider's own call by a stub; the chosen SearXNG is a stub on 127.0.0.1."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import ddgs
import pytest
from mcp import Client

from tests.support.api_server import ApiServer
from tests.support.search_stubs import SEARXNG, fixture_json
from webresearch import Settings, Toolkit
from webresearch.config.search_notice import DEFAULT_PROVIDER_NOTICE
from webresearch.mcp_server import WebResearchServer
from webresearch.runtime.journal import MemoryJournal

MODES = pytest.mark.parametrize("mode", ["legacy", "auto"])


class NoClient:
    def __init__(self, *args: object, **kwargs: object) -> None:
        raise AssertionError("a test must not reach ddgs's client")


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The queries ddgs was asked (a stub answering two results)."""
    from webresearch.search.ddgs import DdgsProvider

    queries: list[str] = []

    def answer(_self: DdgsProvider, query: str, _kwargs: dict[str, Any]) -> list[dict[str, str]]:
        queries.append(query)
        return [
            {"title": "One", "href": "https://one.test/", "body": "First."},
            {"title": "Two", "href": "https://two.test/", "body": "Second."},
        ]

    monkeypatch.setattr(ddgs, "DDGS", NoClient)
    monkeypatch.setattr(DdgsProvider, "_run", answer)
    return queries


class Said(logging.Handler):
    """The server log's messages, each with how many queries ddgs had been asked then."""

    def __init__(self, asked: list[str]) -> None:
        super().__init__(logging.DEBUG)
        self.asked = asked
        self.lines: list[tuple[int, str, str]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append((len(self.asked), record.levelname, record.getMessage()))


@pytest.fixture
def said(asked: list[str]) -> Iterator[Said]:
    handler = Said(asked)
    logger = logging.getLogger("webresearch.mcp")
    logger.addHandler(handler)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)


def _settings(**values: Any) -> Settings:
    return Settings.load(
        environ={}, allowed_networks=["127.0.0.0/8"], journal_url="memory://", **values
    )


async def _search(settings: Settings, mode: str, *queries: str, tool: str = "web_search") -> None:
    async with Toolkit(settings, journal=MemoryJournal()) as toolkit:
        web = WebResearchServer(toolkit)
        try:
            async with Client(web.server, mode=mode) as client:
                for query in queries:
                    arguments = {"query": query} if tool == "web_search" else {"url": query}
                    result = await client.call_tool(tool, arguments)
                    assert result.is_error is (tool != "web_search"), result
        finally:
            await web.aclose()


@MODES
async def test_the_first_search_with_no_provider_set_says_so_once_before_it_is_sent(
    mode: str, asked: list[str], said: Said
) -> None:
    await _search(_settings(), mode, "tide tables", "moon phases")
    assert asked == ["tide tables", "moon phases"]
    assert said.lines == [(0, "WARNING", DEFAULT_PROVIDER_NOTICE)]


@MODES
async def test_another_tool_first_does_not_use_up_the_notice(
    mode: str, asked: list[str], said: Said
) -> None:
    settings = _settings()
    async with Toolkit(settings, journal=MemoryJournal()) as toolkit:
        web = WebResearchServer(toolkit)
        try:
            async with Client(web.server, mode=mode) as client:
                refused = await client.call_tool("web_fetch", {"url": "http://127.0.0.1:9/"})
                assert said.lines == []
                assert (await client.call_tool("web_search", {"query": "tide"})).is_error is False
        finally:
            await web.aclose()
    assert refused.is_error is True
    assert said.lines == [(0, "WARNING", DEFAULT_PROVIDER_NOTICE)]


async def test_a_chosen_ddgs_gets_no_notice(asked: list[str], said: Said) -> None:
    await _search(_settings(search_provider="ddgs"), "auto", "tide tables")
    assert asked == ["tide tables"]
    assert said.lines == []


async def test_a_searxng_chosen_by_its_url_gets_no_notice(asked: list[str], said: Said) -> None:
    with ApiServer() as api:
        SEARXNG.route(api, fixture_json(SEARXNG.fixture))
        await _search(_settings(searxng_url=api.base), "auto", "tide tables")
        assert len(api.log) == 1
    assert asked == []
    assert said.lines == []
