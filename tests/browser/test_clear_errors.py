"""Clear results instead of tracebacks and internal errors (issue 6 follow-up review), on
both backends: values JSON cannot hold, non-http(s) navigations, file downloads."""

from __future__ import annotations

import pytest

from tests.browser.conftest import Kit, Sites
from tests.support.http_server import Route
from webresearch import RunContext

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
    assert result.error is not None and result.error.code == "blocked_address", result.text
    assert "only open http(s) pages" in result.text


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
