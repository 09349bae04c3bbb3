"""Clear results instead of tracebacks and internal errors (issue 6 follow-up review), on
both backends: values JSON cannot hold, non-http(s) navigations, file downloads."""

from __future__ import annotations

import re
import socket
from pathlib import Path

import pytest

from tests.browser.conftest import Kit, Sites, browser_settings
from tests.support.http_server import Route
from webresearch import ConfigurationError, RunContext, Toolkit, ToolResult
from webresearch.addresses import AddressPolicy
from webresearch.browser.backend import BackendConfig, PlaywrightBackend
from webresearch.browser.base import SessionConfig
from webresearch.browser.launch_args import chromium_problem
from webresearch.browser.policy import DomainPolicy, RequestPolicy
from webresearch.net.guard import SSRFGuard

pytestmark = pytest.mark.asyncio(loop_scope="session")


EVALUATIONS = [
    ("(() => { const a = {}; a.a = a; return a; })()", '{"a": "[circular]"}'),
    ("(() => { const a = [1]; a.push(a); return a; })()", '[1, "[circular]"]'),
    ("(() => { const o = {x: 1}; return [o, o]; })()", '[{"x": 1}, {"x": 1}]'),
    ("[NaN, Infinity, -Infinity]", '["NaN", "Infinity", "-Infinity"]'),
    ("Promise.resolve({b: [1, 2]})", '{"b": [1, 2]}'),
    ("document.title", '"Plain"'),
]


async def test_evaluate_renders_any_value(kit: Kit, sites: Sites) -> None:
    run = RunContext()
    assert (await kit.call(run, action="open", url=f"{sites.site.base}/plain")).ok
    for expression, want in EVALUATIONS:
        result = await kit.call(run, action="evaluate", expression=expression)
        assert result.ok, (expression, result.text)
        assert f"value: {want}" in result.text, (expression, result.text)
        assert result.meta["exception"] is False
    await kit.call(run, action="close")


async def test_evaluate_of_another_window_is_a_marker_not_an_internal_error(
    chromium: Kit, sites: Sites
) -> None:
    run = RunContext()
    assert (await chromium.call(run, action="open", url=f"{sites.site.base}/plain")).ok
    result = await chromium.call(run, action="evaluate", expression="window.open('/plain2')")
    assert result.ok, result.text
    assert 'value: "[unserializable: Window]"' in result.text
    await chromium.call(run, action="close")


@pytest.mark.parametrize(
    "url",
    [
        "data:text/html,<h1>hi</h1>",
        "about:blank",
        "javascript:alert(1)",
        "file:///etc/passwd",
        "blob:http://127.0.0.1/x",
        "ws://127.0.0.1/socket",
    ],
)
@pytest.mark.parametrize("tool", ["browser", "browser_open"])
async def test_only_http_pages_can_be_opened(kit: Kit, url: str, tool: str) -> None:
    arguments = {"action": "open", "url": url} if tool == "browser" else {"url": url}
    result = await kit.toolkit.call(tool, arguments, run=RunContext())
    assert result.error is not None and result.error.code == "invalid_arguments", result.text
    assert "only opens http and https pages" in result.text


DOWNLOADS = {
    "/dl/attachment": Route(
        headers=[
            ("Content-Type", "text/html"),
            ("Content-Disposition", 'attachment; filename="report.html"'),
        ],
        body=b"<h1>report</h1>",
    ),
    "/dl/binary": Route(
        headers=[("Content-Type", "application/octet-stream")], body=bytes(range(256)) * 8
    ),
    "/dl/pdf": Route(headers=[("Content-Type", "application/pdf")], body=b"%PDF-1.4\n%%EOF\n"),
}


@pytest.mark.parametrize("path", sorted(DOWNLOADS))
async def test_a_file_download_is_a_clear_error_and_the_session_goes_on(
    kit: Kit, sites: Sites, path: str
) -> None:
    sites.site.routes.update(DOWNLOADS)
    run = RunContext()
    result = await kit.call(run, action="open", url=f"{sites.site.base}{path}")
    assert result.error is not None and result.error.code == "unsupported_content", result.text
    assert "file" in result.error.message and "Download is starting" not in result.text
    assert result.error.hint is not None and "web_fetch" in result.error.hint
    after = await kit.call(run, action="open", url=f"{sites.site.base}/plain")
    assert after.ok, after.text
    await kit.call(run, action="close")


async def test_a_ref_before_any_snapshot_says_so_not_that_the_page_changed(
    kit: Kit, sites: Sites
) -> None:
    """Before: "stale ref d1e2: the page has changed since that snapshot" — there was none."""
    run = RunContext()
    assert (await kit.call(run, action="open", url=f"{sites.site.base}/plain")).ok
    early = await kit.call(run, action="fill", ref="d1e2", text="hello")
    assert early.error is not None and early.error.code == "invalid_arguments", early.text
    assert "no snapshot has been taken in this session yet" in early.text
    assert "stale" not in early.text and "has changed" not in early.text
    assert (await kit.call(run, action="snapshot")).ok
    never = await kit.call(run, action="click", ref="d7e1")  # no snapshot issued d7
    assert never.error is not None and "unknown ref d7e1" in never.text, never.text
    assert "has changed" not in never.text
    await kit.call(run, action="close")


async def test_a_missing_configured_chromium_is_named_as_configured(tmp_path: Path) -> None:
    """Before: "no Chromium found (… or set chromium_path)" though it was set."""
    missing = tmp_path / "nonexistent" / "chrome"
    settings = browser_settings("chromium", chromium_path=str(missing))
    async with Toolkit(settings) as toolkit:
        reason = toolkit.unavailable["browser"]
    assert reason.startswith(f"chromium_path is set to {missing}, which does not exist: ")
    not_executable = tmp_path / "chrome"
    not_executable.write_text("#!/bin/sh\n")
    assert str(chromium_problem(str(not_executable))).startswith(
        f"chromium_path is set to {not_executable}, which is not an executable file: "
    )
    assert chromium_problem(str(tmp_path)) is not None  # a directory is no browser
    assert chromium_problem(None) is None  # the suite's Chromium is found


async def test_a_backend_started_with_a_missing_chromium_says_which_path(tmp_path: Path) -> None:
    config = BackendConfig(
        kind="chromium", session=SessionConfig(), chromium_path=str(tmp_path / "chrome")
    )
    policy = RequestPolicy(SSRFGuard(AddressPolicy()), DomainPolicy())
    missing = re.escape(f"chromium_path is set to {tmp_path / 'chrome'}, which does not exist")
    with pytest.raises(ConfigurationError, match=missing):
        await PlaywrightBackend.start(config, policy)


async def test_an_error_status_and_a_failed_load_are_said_in_our_words(
    chromium: Kit, sites: Sites
) -> None:
    """Second review (session 8): a 502 page opened with only `status: 502` (no word that
    the tab shows the server's error page); an empty 502 said
    "net::ERR_HTTP_RESPONSE_CODE_FAILURE"; and an action on the failed tab showed
    `url: chrome-error://chromewebdata/` instead of the address asked for."""
    html = [("Content-Type", "text/html")]
    sites.site.routes["/status/502"] = Route(502, html, b"<title>Bad</title><h1>upstream</h1>")
    sites.site.routes["/status/502-empty"] = Route(502, html, b"")
    run = RunContext()
    shown = await chromium.call(run, action="open", url=f"{sites.site.base}/status/502")
    assert shown.ok, shown.text
    assert "note: the server answered HTTP 502, an error status" in shown.text
    assert "next step: retry later" in shown.text
    asked = f"{sites.site.base}/status/502-empty"
    failed = await chromium.call(run, action="open", url=asked)
    assert failed.error is not None and failed.error.code == "network", failed.text
    assert "net::ERR" not in failed.text and "an HTTP error status and an empty page" in (
        failed.text
    )
    waited = await chromium.call(run, action="wait", ms=1)
    assert waited.ok, waited.text
    assert "chrome-error" not in waited.text
    assert f"url: {asked}" in waited.text
    assert "note: the page failed to load" in waited.text
    await chromium.call(run, action="close")


async def test_reading_a_tab_on_the_proxys_own_502_says_the_site_was_not_reached() -> None:
    """Second fresh review (session 9): after an open the guarded proxy answered with its
    own 502 (nothing listens at the address), `content` returned the proxy's error page as
    the page's text and a click said only "no element matches"."""
    with socket.socket() as probe:  # a loopback port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings = browser_settings("chromium", robots="ignore")  # the robots.txt step would refuse
    async with Toolkit(settings) as toolkit:
        run = RunContext()

        async def call(**arguments: object) -> ToolResult:
            return await toolkit.call("browser", arguments, run=run)

        opened = await call(action="open", url=f"http://127.0.0.1:{port}/nothing")
        assert opened.ok, opened.text
        assert "the site could not be reached" in opened.text
        content = await call(action="content")
        assert content.error is not None, content.text
        assert "only the guarded proxy's error answer: the site could not be reached" in (
            content.text
        )
