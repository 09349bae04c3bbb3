"""Planted API keys (and the providers' local addresses) never appear in any result, error,
exception, journal event or log line — on every success and error path of every provider."""

from __future__ import annotations

import json
import logging
from dataclasses import asdict
from typing import Any

import pytest

from tests.support.api_server import ApiRequest, ApiServer, json_response, raw_response
from tests.support.search_stubs import PLANTED_KEYS, PROVIDERS, StubProvider
from webresearch import Settings, Toolkit, check_provider

pytestmark = pytest.mark.network


def _echo_everything(request: ApiRequest) -> Any:
    """A hostile/buggy API that reflects every key and its own address back."""
    keys = " ".join(PLANTED_KEYS.values())
    return {
        "type": "search",
        "query": {"original": keys},
        "results": [
            {
                "title": f"title {keys}",
                "url": f"https://example.org/?api_key={PLANTED_KEYS['brave']}&q=1",
                "content": f"snippet {keys}",
            }
        ],
        "web": {"results": [{"title": keys, "url": "https://example.org/b", "description": keys}]},
        "answer": keys,
    }


def _paths(base: str) -> list[tuple[str, Any]]:
    keys = " ".join(PLANTED_KEYS.values())
    detail = f"invalid key {keys} for {base}/search (see http://10.0.0.5/admin)"
    return [
        ("ok-echo", _echo_everything),
        ("400-echo", json_response({"error": {"detail": detail}, "detail": detail}, 400)),
        ("401-echo", json_response({"error": detail}, 401)),
        ("402", json_response({"error": "no credit"}, 402)),
        ("403", raw_response("<h1>Forbidden</h1>", 403)),
        ("429", json_response({"error": detail}, 429, [("Retry-After", "3")])),
        ("500-echo", raw_response(f"<pre>Traceback: {detail}</pre>", 500)),
        ("html", raw_response(f"<html>{detail}</html>", 200)),
        ("garbage", raw_response(f"{detail} \x00\xff", 200, "application/json")),
        ("stall", None),
    ]


def _all_settings(stub: StubProvider, base: str, **extra: Any) -> Settings:
    """Every key planted at once, whichever provider runs."""
    values: dict[str, Any] = {
        "brave_api_key": PLANTED_KEYS["brave"],
        "tavily_api_key": PLANTED_KEYS["tavily"],
        "exa_api_key": PLANTED_KEYS["exa"],
        "search_timeout_s": 0.3,
        **extra,
    }
    return stub.settings(base, **values)


def _dump(value: Any) -> str:
    return json.dumps(value, default=str, ensure_ascii=False)


@pytest.mark.parametrize("stub", PROVIDERS, ids=lambda s: s.id)
async def test_no_key_or_address_anywhere(
    stub: StubProvider, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    seen: list[str] = []
    with ApiServer() as api:
        settings = _all_settings(stub, api.base)
        async with Toolkit(settings) as toolkit:
            for name, answer in _paths(api.base):
                stub.route(api, api.stalled(30) if answer is None else answer)
                result = await toolkit.call("web_search", {"query": f"path {name}"})
                seen.append(result.text)
                seen.append(_dump(result.to_dict()))
                if result.error is not None:
                    seen += [str(result.error), repr(result.error), result.error.to_text()]
                ok, code = await check_provider(settings)
                seen.append(f"{ok} {code}")
            events = toolkit.journal.events  # type: ignore[attr-defined]
            seen += [_dump(asdict(e)) for e in events]
        base = api.base
    with ApiServer() as closed:
        gone = closed.base
    async with Toolkit(_all_settings(stub, gone)) as toolkit:
        result = await toolkit.call("web_search", {"query": "unreachable"})
        assert result.error is not None and result.error.code == "network"
        seen += [result.text, _dump(result.to_dict())]
        seen += [_dump(asdict(e)) for e in toolkit.journal.events]  # type: ignore[attr-defined]
    # Keys: in nothing at all, library DEBUG traces included.
    logs = [f"{r.getMessage()} {r.exc_text or ''}" for r in caplog.records]
    everything = "\n".join(seen + logs)
    assert "path ok-echo" in everything  # the capture worked
    for key in PLANTED_KEYS.values():
        assert key not in everything
    # Addresses: in no output, event, error or operator-level log line (INFO and up, and
    # every line of ours); httpcore2's opt-in DEBUG connection traces name the host.
    operator_logs = [
        f"{r.getMessage()} {r.exc_text or ''}"
        for r in caplog.records
        if r.levelno >= logging.INFO or r.name.startswith("webresearch")
    ]
    shown = "\n".join(seen + operator_logs)
    for address in (base, gone, "127.0.0.1", "10.0.0.5"):
        assert address not in shown


@pytest.mark.parametrize("provider", ["brave", "tavily", "exa"])
async def test_missing_key_names_the_variable_and_leaves_the_tool_out(
    provider: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="webresearch")
    settings = Settings.load(environ={}, journal_url="memory://", search_provider=provider)
    async with Toolkit(settings) as toolkit:
        assert "web_search" not in [s.name for s in toolkit.tools()]
        assert "web_fetch" in [s.name for s in toolkit.tools()]
        reason = toolkit.unavailable["web_search"]
        assert f"set WEBRESEARCH_{provider.upper()}_API_KEY" in reason
        result = await toolkit.call("web_search", {"query": "q"})
        assert result.error is not None and result.error.code == "tool_unavailable"
    assert any(f"WEBRESEARCH_{provider.upper()}_API_KEY" in r.getMessage() for r in caplog.records)
    assert await check_provider(settings) == (False, "configuration")


async def test_public_settings_never_show_keys_or_the_searxng_address() -> None:
    settings = Settings.load(
        environ={
            "WEBRESEARCH_BRAVE_API_KEY": PLANTED_KEYS["brave"],
            "WEBRESEARCH_SEARXNG_URL": "http://10.1.2.3:8080",
        }
    )
    shown = _dump(settings.public_dict()) + repr(settings) + str(settings)
    assert PLANTED_KEYS["brave"] not in shown
    assert "10.1.2.3" not in shown
    assert settings.public_dict()["brave_api_key"] == "***"
