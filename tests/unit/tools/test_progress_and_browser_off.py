"""The progress hook of a call (issue 15, fault 6) and the setting that turns the browser off
(fault 8)."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from tests.support.http_server import LocalServer, Route
from webresearch import RunContext, Settings, Toolkit, ToolResult
from webresearch.errors import BLOCKED_HINT, BLOCKED_HINT_NO_BROWSER, AntiBotChallenge
from webresearch.runtime.journal import MemoryJournal
from webresearch.tools.base import CallContext, ToolEntry
from webresearch.tools.catalog import default_builders
from webresearch.tools.gates import BROWSER_OFF, backend_unavailable_reason
from webresearch.tools.services import Services
from webresearch.tools.web_fetch import WebFetch
from webresearch.tools.web_search import WEB_SEARCH
from webresearch.types import JSONObject


def _settings(**values: Any) -> Settings:
    return Settings.load(environ={}, journal_url="memory://", **values)


def _talkative(services: Services) -> ToolEntry[JSONObject]:
    async def run(args: JSONObject, ctx: CallContext) -> ToolResult:
        ctx.progress("first step")
        ctx.progress("second step")
        return ToolResult("done")

    return ToolEntry(spec=WEB_SEARCH, run=run)


async def test_a_tool_reports_its_steps_to_the_callers_callback() -> None:
    heard: list[str] = []

    def progress(message: str) -> None:
        heard.append(message)

    async with Toolkit(_settings(), journal=MemoryJournal(), builders=[_talkative]) as tk:
        result = await tk.call("web_search", {"query": "x"}, progress=progress)
        silent = await tk.call("web_search", {"query": "x"})  # no callback: nothing to tell
    assert result.ok and silent.ok
    assert heard == ["first step", "second step"]


async def test_a_failing_progress_callback_never_fails_the_call(
    caplog: pytest.LogCaptureFixture,
) -> None:
    def broken(message: str) -> None:
        raise RuntimeError("the terminal went away")

    async with Toolkit(_settings(), journal=MemoryJournal(), builders=[_talkative]) as tk:
        with caplog.at_level(logging.WARNING, logger="webresearch"):
            result = await tk.call("web_search", {"query": "x"}, progress=broken)
    assert result.ok and result.text == "done"
    assert "progress callback failed" in caplog.text


async def test_browser_backend_none_turns_every_browser_path_off(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.INFO, logger="webresearch"):
        async with Toolkit(
            _settings(browser_backend="none"), journal=MemoryJournal(), builders=default_builders()
        ) as tk:
            offered = {s.name for s in tk.tools(RunContext())}
            not_configured = dict(tk.not_configured)
            fetch = tk.tool("web_fetch")
            refused = await tk.call("browser", {"action": "open", "url": "https://example.org"})
    assert not {"browser", "browser_open", "page_screenshot"} & offered
    assert not_configured["browser"] == not_configured["browser_open"] == BROWSER_OFF
    assert "not available" not in caplog.text  # the operator's choice: nothing is missing
    assert isinstance(fetch, ToolEntry) and isinstance(fetch.run, WebFetch)
    assert fetch.run.renderer is None  # web_fetch never renders
    assert refused.error is not None and BROWSER_OFF in refused.text


async def test_the_cli_progress_line_is_for_a_terminal_only(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from webresearch.cli.render import Progress

    with Progress("Read a web page: x") as line:  # stderr is captured: not a terminal
        line.update("rendering the page in a browser")
    assert capsys.readouterr().err == ""
    monkeypatch.setattr("sys.stderr.isatty", lambda: True)
    with Progress("browser: x", at_once=False) as line:
        assert capsys.readouterr().err == ""  # nothing until a long step begins
        line.update("starting the browser")
    assert capsys.readouterr().err == "\r\x1b[Kbrowser: x — starting the browser…\r\x1b[K"
    with Progress("browser: x", quiet=True) as line:
        line.update("starting the browser")
    assert capsys.readouterr().err == ""


def _blocked(services: Services) -> ToolEntry[JSONObject]:
    async def run(args: JSONObject, ctx: CallContext) -> ToolResult:
        raise AntiBotChallenge("https://example.org/ answered with a challenge", hint=BLOCKED_HINT)

    return ToolEntry(spec=WEB_SEARCH, run=run)


@pytest.mark.parametrize(
    "values", [{"browser_backend": "none"}, {"chromium_path": "/nonexistent/chromium"}]
)
async def test_a_blocked_site_hint_names_no_browser_where_none_can_run(values: JSONObject) -> None:
    # Before: a 403 or an anti-bot challenge said "try the browser tool" with the browser
    # turned off or not installed: advice the model cannot follow.
    async with Toolkit(_settings(**values), journal=MemoryJournal(), builders=[_blocked]) as tk:
        result = await tk.call("web_search", {"query": "x"})
    assert result.error is not None
    assert result.text.endswith(f"next step: {BLOCKED_HINT_NO_BROWSER}")
    assert "browser" not in result.text


async def test_a_blocked_site_hint_names_the_browser_where_one_can_run() -> None:
    settings = _settings()
    async with Toolkit(settings, journal=MemoryJournal(), builders=[_blocked]) as tk:
        # ./scripts/test installs Chromium and Playwright: a browser can run here.
        assert backend_unavailable_reason(tk.services) is None
        result = await tk.call("web_search", {"query": "x"})
    assert result.text.endswith(f"next step: {BLOCKED_HINT}")


async def test_web_fetch_says_converting_once_the_download_is_done() -> None:
    """A long conversion after the download was reported as "downloading the page" (the MCP
    server repeats the latest stage while a call runs): the stage changes when the
    conversion starts."""
    page = b"<html><head><title>T</title></head><body><h1>Stages</h1><p>Some text.</p></body></html>"
    heard: list[str] = []
    route = Route(headers=[("Content-Type", "text/html; charset=utf-8")], body=page)
    with LocalServer({"/page": route}) as site:
        settings = _settings(allowed_networks=["127.0.0.1/32"], cpu_workers=0)
        async with Toolkit(settings, journal=MemoryJournal(), builders=default_builders()) as tk:
            result = await tk.call(
                "web_fetch", {"url": f"{site.base}/page"}, run=RunContext(), progress=heard.append
            )
    assert result.ok, result.text
    assert heard == ["downloading the page", "converting the page"]
