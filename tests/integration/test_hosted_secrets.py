"""Planted hosted-service secrets (Firecrawl and Jina keys, a proxy token, the services'
local addresses) never appear in any output, metadata, exception text, journal event or log
line — on every success and error path of the page readers, the screenshot service and the
Firecrawl search provider, including services that echo everything back."""

from __future__ import annotations

import json
import logging
from dataclasses import asdict
from typing import Any

import pytest

from tests.support.api_server import ApiRequest, ApiResponse, ApiServer, json_response, raw_response
from tests.support.hosted_stubs import FIRECRAWL_KEY, JINA_KEY, PROXY_TOKEN
from webresearch import RunContext, Settings, Toolkit
from webresearch.runtime.journal import MemoryJournal

pytestmark = pytest.mark.network

SECRETS = (FIRECRAWL_KEY, JINA_KEY, PROXY_TOKEN)
PAGE_URL = "https://news.example/story"


async def resolver(host: str) -> list[str]:
    return ["93.184.216.34"]


def _dump(value: Any) -> str:
    return json.dumps(value, default=str, ensure_ascii=False)


def _answers(base: str) -> list[tuple[str, Any]]:
    """Every path, each answer reflecting all secrets and the service's own address."""
    leak = " ".join(SECRETS) + f" {base}/v2/scrape http://10.0.0.5/admin"

    def echo(request: ApiRequest) -> ApiResponse:
        headers = " ".join(f"{k}={v}" for k, v in request.headers.items())
        text = f"# Echo\n\n{leak}\n\n{headers}"
        page = {
            "markdown": text,
            "screenshot": f"{base}/shot.png?key={FIRECRAWL_KEY}",
            "metadata": {
                "title": f"title {leak}",
                "sourceURL": PAGE_URL,
                "url": f"{PAGE_URL}?api_key={FIRECRAWL_KEY}",
                "statusCode": 200,
                "contentType": "text/html",
            },
        }
        web = [{"url": f"https://example.org/?q={JINA_KEY}", "title": leak, "description": leak}]
        return json_response(
            {
                "success": True,
                "data": {**page, "web": web, "title": leak, "content": text, "url": PAGE_URL},
                "code": 200,
                "status": 20000,
            }
        )

    return [
        ("ok-echo", echo),
        ("400-echo", json_response({"success": False, "error": f"Invalid URL {leak}"}, 400)),
        ("401-echo", json_response({"success": False, "error": f"bad key {leak}"}, 401)),
        ("402", json_response({"success": False, "error": "Payment Required"}, 402)),
        ("422-echo", json_response({"readableMessage": leak, "message": leak, "code": 422}, 422)),
        ("429", json_response({"error": leak}, 429, [("Retry-After", "3")])),
        ("500-echo", raw_response(f"<pre>Traceback: {leak}</pre>", 500)),
        ("html", raw_response(f"<html>{leak}</html>", 200)),
        ("garbage", raw_response(f"{leak} \x00\xff", 200, "application/json")),
        ("redirect", ApiResponse(302, [("Location", f"http://10.0.0.5/?k={FIRECRAWL_KEY}")])),
        ("stall", None),
    ]


def _settings(base: str) -> Settings:
    return Settings.load(
        environ={},
        allowed_networks=["127.0.0.0/8"],
        journal_url="memory://",
        search_provider="firecrawl",
        firecrawl_api_key=FIRECRAWL_KEY,
        firecrawl_base_url=base,
        firecrawl_headers={"X-Proxy-Token": PROXY_TOKEN},
        jina_api_key=JINA_KEY,
        jina_base_url=base,
        screenshot_service="firecrawl",
        firecrawl_credit_price=0.1,
        reader_timeout_s=0.3,
        search_timeout_s=0.3,
        screenshot_download_timeout_s=0.3,
        robots="ignore",  # the site is a public test address: see test_robots.py
    )


CALLS = [
    ("firecrawl", "web_fetch", {"url": PAGE_URL}, RunContext),
    ("jina", "web_fetch", {"url": PAGE_URL}, RunContext),
    ("firecrawl", "page_screenshot", {"url": PAGE_URL}, RunContext),
    ("firecrawl", "page_screenshot", {"url": PAGE_URL}, lambda: RunContext(can_see_images=False)),
    ("firecrawl", "web_search", {"query": "q"}, RunContext),
]


def _route_all(api: ApiServer, answer: Any) -> None:
    route = api.stalled(30) if answer is None else answer
    api.routes[("POST", "/v2/scrape")] = route
    api.routes[("POST", "/v2/search")] = route
    api.routes[("GET", "/" + PAGE_URL)] = route


@pytest.mark.parametrize("reader,tool,arguments,make_run", CALLS)
async def test_no_secret_or_service_address_anywhere(
    reader: str,
    tool: str,
    arguments: dict[str, Any],
    make_run: Any,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    seen: list[str] = []
    errors: list[str] = []  # error texts: never an internal address, even a page's own
    with ApiServer() as api:
        settings = _settings(api.base).replace(reader=reader)
        async with Toolkit(settings, journal=MemoryJournal(), resolver=resolver) as toolkit:
            for name, answer in _answers(api.base):
                _route_all(api, answer)
                # a fresh URL per path, so no answer is served from the cache
                args = {**arguments}
                if "url" in args:
                    args["url"] = f"{PAGE_URL}/{name}"
                    api.routes[("GET", "/" + args["url"])] = api.routes[("GET", "/" + PAGE_URL)]
                else:
                    args["query"] = f"q {name}"
                result = await toolkit.call(tool, args, run=make_run())
                seen += [result.text, _dump(result.to_dict())]
                if result.error is not None:
                    seen += [str(result.error), repr(result.error), result.error.to_text()]
                    errors += [result.text, _dump(result.error.to_dict())]
            journal = toolkit.journal
            assert isinstance(journal, MemoryJournal)
            seen += [_dump(asdict(e)) for e in journal.events]
        base = api.base
        assert api.requests()  # the services were really called
    with ApiServer() as closed:
        gone = closed.base
    async with Toolkit(
        _settings(gone).replace(reader=reader), journal=MemoryJournal(), resolver=resolver
    ) as toolkit:
        result = await toolkit.call(tool, arguments, run=make_run())
        assert result.error is not None and result.error.code == "network", result.text
        seen += [result.text, _dump(result.to_dict()), str(result.error)]
        journal = toolkit.journal
        assert isinstance(journal, MemoryJournal)
        seen += [_dump(asdict(e)) for e in journal.events]
    logs = [f"{r.getMessage()} {r.exc_text or ''}" for r in caplog.records]
    everything = "\n".join(seen + logs)
    assert "error[" in everything  # the capture worked
    for secret in SECRETS:
        assert secret not in everything, secret
    # The services' addresses: in no output, event, error or operator-level log line
    # (httpcore2's opt-in DEBUG connection traces name the host they connect to). A page's
    # own text may mention any address; an error message never does.
    operator_logs = [
        f"{r.getMessage()} {r.exc_text or ''}"
        for r in caplog.records
        if r.levelno >= logging.INFO or r.name.startswith("webresearch")
    ]
    shown = "\n".join(seen + operator_logs)
    for address in (base, gone):
        assert address not in shown, address
    assert errors and not any("10.0.0.5" in e or "127.0.0.1" in e for e in errors)


async def test_public_settings_never_show_hosted_secrets() -> None:
    settings = Settings.load(
        environ={
            "WEBRESEARCH_FIRECRAWL_API_KEY": FIRECRAWL_KEY,
            "WEBRESEARCH_FIRECRAWL_BASE_URL": "http://10.1.2.3:3002",
            "WEBRESEARCH_FIRECRAWL_HEADERS": json.dumps({"X-Proxy-Token": PROXY_TOKEN}),
            "WEBRESEARCH_JINA_API_KEY": JINA_KEY,
        }
    )
    shown = _dump(settings.public_dict()) + repr(settings) + str(settings)
    for secret in (*SECRETS, "10.1.2.3"):
        assert secret not in shown
    assert settings.public_dict()["firecrawl_headers"] == {"X-Proxy-Token": "***"}
    assert set(SECRETS) <= set(settings.secret_values())
