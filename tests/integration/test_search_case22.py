"""Case 22: SearXNG without the JSON format (403, or HTML instead of JSON) is a configuration
error that names the fix, never "no results" (searxng #3749, open-webui #2797/#2824)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.http_server import LocalServer, load_case
from webresearch import Settings, Toolkit, check_provider

pytestmark = pytest.mark.network

CASE = Path(__file__).resolve().parent.parent / "fixtures" / "cases" / "22-searxng-json-forbidden"


@pytest.fixture
def stub() -> Iterator[LocalServer]:
    with LocalServer(load_case(CASE)) as server:
        yield server


def _settings(base: str, **extra: Any) -> Settings:
    return Settings.load(
        environ={},
        allowed_networks=["127.0.0.0/8"],
        journal_url="memory://",
        search_provider="searxng",
        searxng_url=base,
        **extra,
    )


def _assert_misconfiguration_error(text: str, base: str) -> None:
    assert text.startswith("error[")
    assert "no results" not in text.lower() and "rephrase" not in text
    assert "misconfigured" in text
    assert "Traceback" not in text
    assert "JSONDecodeError" not in text and "Expecting value" not in text
    assert base not in text and "127.0.0.1" not in text


@pytest.mark.parametrize("variant", ["A-403", "B-html"])
async def test_case22_is_a_non_retryable_configuration_error(
    stub: LocalServer, variant: str
) -> None:
    base = stub.base if variant == "A-403" else f"{stub.base}/alt"
    async with Toolkit(_settings(base)) as toolkit:
        result = await toolkit.call("web_search", {"query": "test query"})
    assert result.error is not None
    assert result.error.retryable is False
    assert result.meta["error"]["misconfigured"] is True
    _assert_misconfiguration_error(result.text, stub.base)
    # the fix is named: the json format in search.formats of settings.yml
    assert "`json`" in result.text and "search.formats" in result.text
    if variant == "A-403":
        assert result.error.code == "auth"
        assert "HTTP 403" in result.text
    else:
        assert result.error.code == "protocol"
        assert "HTML page instead of JSON" in result.text
    assert stub.count() == 1
    (request,) = stub.log
    assert "format=json" in request.path and "q=test+query" in request.path


async def test_case22_one_request_per_call_and_one_limiter_unit(stub: LocalServer) -> None:
    async with Toolkit(_settings(stub.base, search_rate_limit=3)) as toolkit:
        results = [await toolkit.call("web_search", {"query": "test query"}) for _ in range(3)]
        fourth = await toolkit.call("web_search", {"query": "test query"})
    assert [r.error.code for r in results if r.error] == ["auth"] * 3
    assert stub.count() == 3  # no retries of a 403
    assert fourth.error is not None and fourth.error.code == "rate_limited"
    assert stub.count() == 3


async def test_case22_health_check_logs_the_fix_for_the_operator(
    stub: LocalServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="webresearch")
    ok, code = await check_provider(_settings(stub.base))
    assert (ok, code) == (False, "auth")
    ok_b, code_b = await check_provider(_settings(f"{stub.base}/alt"))
    assert (ok_b, code_b) == (False, "protocol")
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "search.formats" in logged and "settings.yml" in logged
    assert stub.base not in logged and "127.0.0.1" not in logged
    assert "format=json&q=test" in stub.log[0].path or "q=test&format=json" in stub.log[0].path


async def test_case22_misconfiguration_is_logged_once_per_process(
    stub: LocalServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="webresearch")
    async with Toolkit(_settings(stub.base)) as toolkit:
        for _ in range(3):
            await toolkit.call("web_search", {"query": "test query"})
    lines = [r.getMessage() for r in caplog.records if "search.formats" in r.getMessage()]
    assert len(lines) == 1
    assert stub.base not in lines[0]
