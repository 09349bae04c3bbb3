"""Issue 21 item 7: empty but degraded. A SearXNG answer with no results and some
``unresponsive_engines`` (SearXNG's documented JSON) is an ok "no results" naming the
engines that did not answer; only when no engine answered is it an ``upstream`` error.

Which engines a search asks comes from the instance's ``GET /config`` (enabled engines of
the ``general`` category; with a time range, those that support one), served here by a
local fake SearXNG in its documented shape.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.api_server import ApiServer, json_response
from tests.support.search_stubs import EMPTY_ANSWERS, SEARXNG
from webresearch import Toolkit

pytestmark = pytest.mark.network

#: ``GET /config`` of the fake instance (searx/webapp.py ``config()``; fields we do not use
#: are kept so the shape is the real one).
CONFIG: dict[str, Any] = {
    "categories": ["general", "science"],
    "engines": [
        {
            "name": "google",
            "categories": ["general", "web"],
            "shortcut": "go",
            "enabled": True,
            "paging": True,
            "language_support": True,
            "safesearch": True,
            "time_range_support": True,
            "timeout": 3.0,
        },
        {
            "name": "bing",
            "categories": ["general", "web"],
            "shortcut": "bi",
            "enabled": True,
            "paging": True,
            "language_support": True,
            "safesearch": True,
            "time_range_support": True,
            "timeout": 3.0,
        },
        {
            "name": "wikipedia",
            "categories": ["general"],
            "shortcut": "wp",
            "enabled": True,
            "paging": False,
            "language_support": True,
            "safesearch": False,
            "time_range_support": False,
            "timeout": 3.0,
        },
        {"name": "duckduckgo", "categories": ["general"], "enabled": False},
        {"name": "arxiv", "categories": ["science"], "enabled": True},
    ],
    "instance_name": "SearXNG",
    "version": "2025.1.1",
}


def _empty_with(*failed: tuple[str, str]) -> dict[str, Any]:
    return {**EMPTY_ANSWERS["searxng"], "unresponsive_engines": [list(f) for f in failed]}


@pytest.fixture
def api() -> Iterator[ApiServer]:
    with ApiServer() as server:
        server.routes[("GET", "/config")] = json_response(CONFIG)
        yield server


async def test_some_engines_answered_nothing_found_is_ok_and_names_the_failed(
    api: ApiServer,
) -> None:
    SEARXNG.route(api, _empty_with(("google", "timeout"), ("bing", "Suspended: CAPTCHA")))
    async with Toolkit(SEARXNG.settings(api.base)) as toolkit:
        result = await toolkit.call("web_search", {"query": "obscure thing"})
        again = await toolkit.call("web_search", {"query": "obscure thing"})
    assert result.ok, result.text
    assert result.text.splitlines() == [
        'no results for "obscure thing" — rephrase the query (other or fewer words, '
        "no quotes or operators)",
        "note: engines that did not answer: google (timeout), bing (Suspended: CAPTCHA); "
        "retrying later may find results",
    ]
    assert result.meta["degraded"] is True
    assert result.meta["unresponsive_engines"] == ["google", "bing"]
    assert again.meta["cached"] is False  # a degraded answer is never cached
    assert api.count("/config") == 1  # the engine list is kept, not asked each time


async def test_every_asked_engine_failed_is_an_upstream_error(api: ApiServer) -> None:
    SEARXNG.route(
        api, _empty_with(("google", "timeout"), ("bing", "timeout"), ("wikipedia", "HTTP error"))
    )
    async with Toolkit(SEARXNG.settings(api.base)) as toolkit:
        result = await toolkit.call("web_search", {"query": "q"})
    assert result.error is not None
    assert result.error.code == "upstream" and result.error.retryable
    assert "none of its engines answered (google, bing, wikipedia)" in result.text
    assert "rephrase" not in result.text and "no results" not in result.text


async def test_engines_a_time_range_skips_do_not_count_as_answering(api: ApiServer) -> None:
    """wikipedia has no time range support: with freshness it is not asked, so google and
    bing failing is every engine; without freshness wikipedia answered (nothing)."""
    SEARXNG.route(api, _empty_with(("google", "timeout"), ("bing", "timeout")))
    async with Toolkit(SEARXNG.settings(api.base)) as toolkit:
        recent = await toolkit.call("web_search", {"query": "q", "freshness": "day"})
        any_age = await toolkit.call("web_search", {"query": "q"})
    assert recent.error is not None and recent.error.code == "upstream"
    assert any_age.ok and "no results" in any_age.text


async def test_without_the_engine_list_the_answer_stays_no_results(api: ApiServer) -> None:
    del api.routes[("GET", "/config")]  # an old instance or a proxy passing /search only
    SEARXNG.route(api, _empty_with(("google", "timeout")))
    async with Toolkit(SEARXNG.settings(api.base)) as toolkit:
        result = await toolkit.call("web_search", {"query": "q"})
    assert result.ok and "google (timeout)" in result.text and "no results" in result.text


async def test_a_failed_engine_with_results_is_only_a_note(api: ApiServer) -> None:
    SEARXNG.route(
        api,
        {
            **_empty_with(("google", "timeout")),
            "results": [{"url": "https://example.org/", "title": "Found", "engines": ["bing"]}],
        },
    )
    async with Toolkit(SEARXNG.settings(api.base)) as toolkit:
        result = await toolkit.call("web_search", {"query": "q"})
    assert result.ok and "1. [Found](https://example.org/)" in result.text
    assert result.text.endswith(
        "note: engines that did not answer: google (timeout); results may be incomplete"
    )
    assert api.count("/config") == 0  # asked only when nothing came back
